/* SPDX-License-Identifier: MIT */
/* Instructions per execution: callgrind's through vgdb, or the PMU's (docs/work.md). */
#include "runner/run_instr.h"
#include "base/util_perf.h"
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

struct run_instr {
	enum run_instr_source src;
	struct srv *srv;
	int fd, fd_cycles;	/* PMU: the group leader (instructions) and its member */
	long long before[2];	/* PMU: the reading before the execution */
};

/* One line of text starting at p: its length without the newline. */
static size_t line_len(const char *p)
{
	return strcspn(p, "\n");
}

/* "events: Ir ...": 1 when the first event named is Ir, 0 for another, -1 not this line. */
static int events_header(const char *p, size_t len)
{
	if (len < 8 || strncmp(p, "events:", 7) != 0)
		return -1;
	p += 7;
	while (*p == ' ' || *p == '\t')
		p++;
	return strncmp(p, "Ir", 2) == 0 && (p[2] == ' ' || p[2] == '\t' || p[2] == '\n' ||
					     p[2] == '\r' || p[2] == '\0');
}

/* "events-TID: N ...": 1 with *out = N, 0 when the line is something else (a frame's
 * "events-TID-K:"), -1 when N is not a count. */
static int thread_total(const char *p, size_t len, long long *out)
{
	if (len < 9 || strncmp(p, "events-", 7) != 0)
		return 0;
	const char *q = p + 7;
	if (*q < '0' || *q > '9')
		return 0;
	while (*q >= '0' && *q <= '9')
		q++;
	if (*q != ':')
		return 0; /* events-TID-FRAME: a frame of the thread's stack, not its total */
	q++;
	while (*q == ' ' || *q == '\t')
		q++;
	errno = 0;
	char *end;
	long long v = strtoll(q, &end, 10);
	if (end == q || errno || v < 0 || (*end && *end != ' ' && *end != '\n' && *end != '\r'))
		return -1;
	*out = v;
	return 1;
}

int run_instr_parse_status(const char *text, long long *out, struct errbuf *err)
{
	int header = 0, threads = 0;
	long long sum = 0;
	for (const char *p = text; *p; p += *p == '\n') {
		size_t len = line_len(p);
		int h = events_header(p, len);
		if (h == 0)
			return errbuf_set(err, "callgrind does not count instructions (Ir) first");
		if (h == 1)
			header = 1;
		long long v;
		int t = header ? thread_total(p, len, &v) : 0;
		if (t < 0)
			return errbuf_set(err, "callgrind's status has a thread total that is not a "
					       "count");
		if (t > 0) {
			if (sum > INT64_MAX - v)
				return errbuf_set(err, "callgrind's counts overflow");
			sum += v;
			threads++;
		}
		p += len;
	}
	if (!header)
		return errbuf_set(err, "no 'events:' line in callgrind's status (not callgrind?)");
	if (!threads)
		return errbuf_set(err, "no thread totals in callgrind's status");
	*out = sum;
	return 0;
}

int run_instr_steady(const long long *v, size_t n, double tol)
{
	if (n < 2 || v[n - 2] <= 0 || v[n - 1] < 0)
		return 0;
	double d = (double)(v[n - 1] - v[n - 2]) / (double)v[n - 2];
	return d <= tol && -d <= tol;
}

int run_instr_pmu_open(pid_t tid, int *out_fd_cycles, struct errbuf *err)
{
	const uint64_t rf =
	    PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	int fd = util_perf_open(PERF_COUNT_HW_INSTRUCTIONS, tid, -1, rf, 0);
	if (fd < 0) {
		int e = errno;
		if (e == ENOENT || e == EOPNOTSUPP || e == ENODEV)
			return errbuf_set(err, "no hardware PMU here: perf_event_open of "
					       "instructions: %s (doctor: perf_counters)",
					  strerror(e));
		return errbuf_errno(err, e, "perf_event_open of instructions on thread %d",
				    (int)tid);
	}
	int fc = util_perf_open(PERF_COUNT_HW_CPU_CYCLES, tid, fd, rf, 0);
	if (fc < 0) {
		int e = errno;
		close(fd);
		return errbuf_errno(err, e, "perf_event_open of cycles on thread %d", (int)tid);
	}
	*out_fd_cycles = fc;
	return fd;
}

int run_instr_pmu_read(int fd, long long out[2], struct errbuf *err)
{
	uint64_t buf[5]; /* nr, time_enabled, time_running, instructions, cycles */
	ssize_t r = read(fd, buf, sizeof(buf));
	if (r != (ssize_t)sizeof(buf) || buf[0] != 2)
		return errbuf_errno(err, r < 0 ? errno : EIO, "cannot read the PMU counters");
	if (buf[2] < buf[1])
		return errbuf_set(err, "the PMU counters were multiplexed (ran %llu of %llu ns): "
				       "counts would be estimates",
				  (unsigned long long)buf[2], (unsigned long long)buf[1]);
	out[0] = (long long)buf[3];
	out[1] = (long long)buf[4];
	return 0;
}

/* The OS thread id of m's server thread (MariaDB: information_schema.PROCESSLIST.TID). */
static pid_t session_tid(MYSQL *m, struct errbuf *err)
{
	static const char sql[] =
	    "SELECT TID FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()";
	if (mysql_query(m, sql) != 0)
		return errbuf_set(err, "cannot find the session's server thread: %s",
				  mysql_error(m));
	MYSQL_RES *res = mysql_store_result(m);
	MYSQL_ROW row = res ? mysql_fetch_row(res) : NULL;
	long long tid = -1;
	if (row && row[0]) {
		char *end;
		errno = 0;
		tid = strtoll(row[0], &end, 10);
		if (errno || end == row[0] || *end)
			tid = -1;
	}
	mysql_free_result(res);
	if (tid <= 0 || tid > INT32_MAX)
		return errbuf_set(err, "the server did not give the session's thread id");
	return (pid_t)tid;
}

int run_instr_open(struct run_instr **out, enum run_instr_source src, struct srv *s, MYSQL *m,
		   struct errbuf *err)
{
	*out = NULL;
	struct run_instr *in = calloc(1, sizeof(*in));
	if (!in)
		return errbuf_set(err, "out of memory");
	in->src = src;
	in->srv = s;
	in->fd = in->fd_cycles = -1;
	int rc = -1;
	if (src == RUN_INSTR_CALLGRIND) {
		rc = run_instr_before(in, err);
	} else if (src == RUN_INSTR_PMU) {
		pid_t tid = session_tid(m, err);
		if (tid > 0 && (in->fd = run_instr_pmu_open(tid, &in->fd_cycles, err)) >= 0 &&
		    ioctl(in->fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) == 0)
			rc = 0;
		else if (in->fd >= 0)
			errbuf_errno(err, errno, "cannot enable the PMU counters");
	} else {
		errbuf_set(err, "no instruction source");
	}
	if (rc < 0) {
		run_instr_free(in);
		return -1;
	}
	*out = in;
	return 0;
}

int run_instr_before(struct run_instr *in, struct errbuf *err)
{
	if (in->src == RUN_INSTR_PMU)
		return run_instr_pmu_read(in->fd, in->before, err);
	static const char *const zero[] = {"zero"};
	char *text = NULL;
	int rc = srv_vg_monitor(in->srv, zero, 1, &text, err);
	free(text);
	return rc;
}

int run_instr_after(struct run_instr *in, long long out[2], struct errbuf *err)
{
	if (in->src == RUN_INSTR_PMU) {
		long long now[2];
		if (run_instr_pmu_read(in->fd, now, err) < 0)
			return -1;
		out[0] = now[0] - in->before[0];
		out[1] = now[1] - in->before[1];
		return 0;
	}
	static const char *const status[] = {"status internal"};
	char *text = NULL;
	if (srv_vg_monitor(in->srv, status, 1, &text, err) < 0)
		return -1;
	int rc = run_instr_parse_status(text, &out[0], err);
	free(text);
	out[1] = -1;
	return rc;
}

enum run_instr_source run_instr_source_of(const struct run_instr *in)
{
	return in ? in->src : RUN_INSTR_NONE;
}

void run_instr_free(struct run_instr *in)
{
	if (!in)
		return;
	if (in->fd_cycles >= 0)
		close(in->fd_cycles);
	if (in->fd >= 0)
		close(in->fd);
	free(in);
}
