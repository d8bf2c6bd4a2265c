/* SPDX-License-Identifier: MIT */
/* Server stabilizers: personality, priority, scheduler, page cache, large pages. */
#include "pinning/stabilizers.h"
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <unistd.h>

int stab_opts_check(const struct stab_opts *s, struct errbuf *err)
{
	int root = geteuid() == 0;
	struct rlimit rl;
	if (s->drop_caches && !root)
		return errbuf_set(err,
				  "--drop-caches needs root (it writes /proc/sys/vm/drop_caches)");
	if (s->nice_set && !root) {
		errno = 0;
		int cur = getpriority(PRIO_PROCESS, 0);
		/* RLIMIT_NICE allows nice values down to 20 - rlim_cur (getrlimit(2)). */
		if (s->nice < cur && getrlimit(RLIMIT_NICE, &rl) == 0 &&
		    rl.rlim_cur != RLIM_INFINITY && (long)s->nice < 20 - (long)rl.rlim_cur)
			return errbuf_set(
			    err, "--nice %d needs root or a higher RLIMIT_NICE (ulimit -e)",
			    s->nice);
	}
	if (s->sched_fifo && !root && getrlimit(RLIMIT_RTPRIO, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY && (long)rl.rlim_cur < s->sched_fifo)
		return errbuf_set(err,
				  "--sched-fifo %d needs root or RLIMIT_RTPRIO >= %d (ulimit -r)",
				  s->sched_fifo, s->sched_fifo);
	return 0;
}

int stab_child_apply(const struct stab_opts *s, const char **what)
{
	if (s->no_aslr) {
		int cur = personality(0xffffffff);
		if (cur == -1 || personality((unsigned long)cur | ADDR_NO_RANDOMIZE) == -1) {
			*what = "cannot turn address-space randomisation off (personality)";
			return -1;
		}
	}
	if (s->nice_set && setpriority(PRIO_PROCESS, 0, s->nice) < 0) {
		*what = "cannot set the nice value (setpriority)";
		return -1;
	}
	if (s->sched_fifo) {
		struct sched_param sp = {.sched_priority = s->sched_fifo};
		if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0) {
			*what = "cannot switch to SCHED_FIFO (sched_setscheduler)";
			return -1;
		}
	}
	return 0;
}

int stab_drop_caches(struct errbuf *err)
{
	static const char path[] = "/proc/sys/vm/drop_caches";
	sync();
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errbuf_errno(err, errno, "cannot open '%s'", path);
	ssize_t n = write(fd, "3\n", 2);
	int saved = errno;
	close(fd);
	if (n != 2)
		return errbuf_errno(err, n < 0 ? saved : EIO, "cannot write '%s'", path);
	return 0;
}

long stab_hugepages_total(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	if (!f)
		return 0;
	char line[256];
	long total = 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "HugePages_Total: %ld", &total) == 1)
			break;
	fclose(f);
	return total;
}

json_t *stab_opts_to_json(const struct stab_opts *s)
{
	const char *lp = !s->large_pages	      ? "off"
			 : stab_hugepages_total() > 0 ? "on"
						      : "unavailable";
	return json_pack("{s:b, s:o, s:o, s:b, s:s}", "no_aslr", s->no_aslr, "nice",
			 s->nice_set ? json_integer(s->nice) : json_null(), "sched_fifo",
			 s->sched_fifo ? json_integer(s->sched_fifo) : json_null(), "drop_caches",
			 s->drop_caches, "large_pages", lp);
}
