/* SPDX-License-Identifier: MIT */
#include "runner/run_cpu.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct cpu_task {
	pid_t tid;
	int fd;
	uint64_t last_ns;
	int seen; /* generation of the last scan that listed it */
};

struct run_cpu {
	pid_t pid;
	int use_clock;
	clockid_t clock;
	uint64_t clock_last;
	int dirfd; /* /proc/PID/task */
	DIR *dir;  /* the same, listed again at each sample (rewinddir re-reads procfs) */
	struct cpu_task *tasks;
	size_t n, cap;
	int gen;
};

static int task_read(int fd, uint64_t *out)
{
	char buf[128];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	char *end;
	errno = 0;
	unsigned long long v = strtoull(buf, &end, 10);
	if (errno || end == buf)
		return -1;
	*out = v;
	return 0;
}

static struct cpu_task *task_find(struct run_cpu *c, pid_t tid)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->tasks[i].tid == tid)
			return &c->tasks[i];
	return NULL;
}

static struct cpu_task *task_add(struct run_cpu *c, pid_t tid)
{
	char path[64];
	snprintf(path, sizeof(path), "%d/schedstat", (int)tid);
	int fd = openat(c->dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL; /* ended between readdir and open */
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		struct cpu_task *t = realloc(c->tasks, cap * sizeof(*t));
		if (!t) {
			close(fd);
			return NULL;
		}
		c->tasks = t;
		c->cap = cap;
	}
	struct cpu_task *t = &c->tasks[c->n++];
	t->tid = tid;
	t->fd = fd;
	t->last_ns = 0;
	t->seen = 0;
	return t;
}

static int clock_sample(struct run_cpu *c, uint64_t *out, struct errbuf *err)
{
	struct timespec ts;
	if (clock_gettime(c->clock, &ts) != 0)
		return errbuf_errno(err, errno, "cannot read the CPU clock of process %d",
				    (int)c->pid);
	uint64_t v = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	if (out)
		*out = v >= c->clock_last ? v - c->clock_last : 0;
	c->clock_last = v;
	return 0;
}

const char *run_cpu_source_name(const struct run_cpu *c)
{
	return c->use_clock ? "clock_getcpuclockid" : "schedstat";
}

int run_cpu_sample(struct run_cpu *c, uint64_t *out, struct errbuf *err)
{
	uint64_t total = 0;
	if (c->use_clock)
		return clock_sample(c, out, err);
	c->gen++;
	DIR *d = c->dir;
	rewinddir(d);
	struct dirent *de;
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		pid_t tid = (pid_t)strtol(de->d_name, NULL, 10);
		struct cpu_task *t = task_find(c, tid);
		if (!t)
			t = task_add(c, tid);
		if (!t)
			continue;
		uint64_t v;
		if (task_read(t->fd, &v) < 0)
			continue; /* the thread ended: its last interval is lost */
		if (v >= t->last_ns)
			total += v - t->last_ns;
		t->last_ns = v;
		t->seen = c->gen;
	}
	/* Drop the threads that were not listed (ended). */
	size_t w = 0;
	for (size_t i = 0; i < c->n; i++) {
		if (c->tasks[i].seen == c->gen)
			c->tasks[w++] = c->tasks[i];
		else
			close(c->tasks[i].fd);
	}
	c->n = w;
	if (w == 0)
		return errbuf_set(err, "process %d has no threads left (ended)", (int)c->pid);
	if (out)
		*out = total;
	return 0;
}

int run_cpu_new(struct run_cpu **out, pid_t pid, enum run_cpu_source source, struct errbuf *err)
{
	char path[64];
	struct run_cpu *c = calloc(1, sizeof(*c));
	if (!c)
		return errbuf_set(err, "out of memory");
	c->pid = pid;
	c->dirfd = -1;
	if (source != RUN_CPU_SCHEDSTAT) {
		int rc = clock_getcpuclockid(pid, &c->clock);
		c->use_clock = rc == 0 && clock_sample(c, NULL, err) == 0;
		if (c->use_clock) {
			*out = c;
			return 0;
		}
		if (source == RUN_CPU_CLOCK) {
			errbuf_errno(err, rc ? rc : errno,
				     "cannot read the CPU clock of process %d", (int)pid);
			free(c);
			return -1;
		}
	}
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	c->dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int dfd = c->dirfd >= 0 ? dup(c->dirfd) : -1;
	c->dir = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!c->dir) {
		errbuf_errno(err, errno, "cannot open '%s'", path);
		if (dfd >= 0)
			close(dfd);
		if (c->dirfd >= 0)
			close(c->dirfd);
		free(c);
		return -1;
	}
	if (run_cpu_sample(c, NULL, err) < 0) {
		run_cpu_free(c);
		return -1;
	}
	*out = c;
	return 0;
}

void run_cpu_free(struct run_cpu *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		close(c->tasks[i].fd);
	if (c->dir)
		closedir(c->dir);
	if (c->dirfd >= 0)
		close(c->dirfd);
	free(c->tasks);
	free(c);
}
