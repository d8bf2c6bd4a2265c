/* SPDX-License-Identifier: MIT */
/* Interference around a query: /proc parsers and the sampler (runner/run_interf.h). */
#include "runner/run_interf.h"
#include "pinning/pin.h"
#include "result/res.h"
#include "server/srv.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define INTERF_MAX_CPUS 64

/* ---- parsers ---- */

/* Reads up to n unsigned fields after the label of a /proc/stat line. */
static int stat_fields(const char *p, uint64_t *f, int n)
{
	int got = 0;
	while (got < n) {
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			break;
		char *end;
		f[got++] = strtoull(p, &end, 10);
		p = end;
	}
	return got;
}

/* The line of /proc/stat labelled label ("cpu" or "cpu3"), or NULL. */
static const char *stat_line(const char *text, const char *label)
{
	size_t l = strlen(label);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, label, l) == 0 && p[l] == ' ')
			return p + l;
	return NULL;
}

int run_interf_parse_stat(const char *text, const unsigned *cpus, int n_cpus, uint64_t *out_busy,
			  uint64_t *out_steal)
{
	*out_busy = *out_steal = 0;
	for (int i = 0; i < (n_cpus ? n_cpus : 1); i++) {
		char label[32];
		uint64_t f[8] = {0};
		if (n_cpus)
			snprintf(label, sizeof(label), "cpu%u", cpus[i]);
		else
			snprintf(label, sizeof(label), "cpu");
		const char *line = stat_line(text, label);
		/* user nice system idle iowait irq softirq steal (steal since Linux 2.6.11) */
		if (!line || stat_fields(line, f, 8) < 7)
			return -1;
		*out_busy += f[0] + f[1] + f[2] + f[5] + f[6];
		*out_steal += f[7];
	}
	return 0;
}

/* The first n numeric fields of a /proc/PID/stat line after its state letter, in v[1..n-1]
 * (v[0] is the state's place): comm may hold spaces and ')', so fields start after the last
 * ')'. 0, or -1 when the line is shorter. */
static int pidstat_fields(const char *text, uint64_t *v, int n)
{
	const char *p = strrchr(text, ')');
	if (!p)
		return -1;
	p++;
	for (int i = 0; i < n; i++) {
		while (*p == ' ')
			p++;
		if (i == 0) { /* state: one letter */
			if (!*p)
				return -1;
			p++;
			v[0] = 0;
			continue;
		}
		char *end;
		errno = 0;
		long long x = strtoll(p, &end, 10);
		if (end == p || errno)
			return -1;
		v[i] = x < 0 ? 0 : (uint64_t)x;
		p = end;
	}
	return 0;
}

/* Places of fields counted from the state on (proc(5)'s field number minus 3). */
enum { PS_MAJFLT = 9, PS_UTIME = 11, PS_STIME = 12, PS_NTHREADS = 17 };

int run_interf_parse_pidstat(const char *text, uint64_t *out_ticks, uint64_t *out_majflt)
{
	uint64_t v[PS_STIME + 1];
	if (pidstat_fields(text, v, PS_STIME + 1) < 0)
		return -1;
	*out_majflt = v[PS_MAJFLT];
	*out_ticks = v[PS_UTIME] + v[PS_STIME];
	return 0;
}

int run_interf_parse_nthreads(const char *text, uint64_t *out_threads)
{
	uint64_t v[PS_NTHREADS + 1];
	if (pidstat_fields(text, v, PS_NTHREADS + 1) < 0)
		return -1;
	*out_threads = v[PS_NTHREADS];
	return 0;
}

/* The server's /proc/PID/stat read once for a sample: run_interf_parse_pidstat's figures and the
 * thread count (0 when the line stops before it). */
static int parse_server_stat(const char *text, uint64_t *ticks, uint64_t *majflt, uint64_t *threads)
{
	uint64_t v[PS_NTHREADS + 1];
	*threads = 0;
	if (pidstat_fields(text, v, PS_NTHREADS + 1) < 0)
		return run_interf_parse_pidstat(text, ticks, majflt);
	*majflt = v[PS_MAJFLT];
	*ticks = v[PS_UTIME] + v[PS_STIME];
	*threads = v[PS_NTHREADS];
	return 0;
}

static int status_value(const char *text, const char *key, uint64_t *out)
{
	const char *p = strstr(text, key);
	if (!p)
		return -1;
	p += strlen(key);
	while (*p == ' ' || *p == '\t')
		p++;
	char *end;
	*out = strtoull(p, &end, 10);
	return end == p ? -1 : 0;
}

int run_interf_parse_ctxt(const char *text, uint64_t *out_vol, uint64_t *out_invol)
{
	if (status_value(text, "\nvoluntary_ctxt_switches:", out_vol) < 0 ||
	    status_value(text, "\nnonvoluntary_ctxt_switches:", out_invol) < 0)
		return -1;
	return 0;
}

int run_interf_parse_io(const char *text, uint64_t *out_read, uint64_t *out_write)
{
	/* the first line is "rchar:": a key is matched at a line's start */
	if (status_value(text, "\nread_bytes:", out_read) < 0 ||
	    status_value(text, "\nwrite_bytes:", out_write) < 0)
		return -1;
	return 0;
}

const char *run_interf_tid_sql(int mysql)
{
	return mysql ? "SELECT THREAD_OS_ID FROM performance_schema.threads WHERE "
		       "PROCESSLIST_ID = CONNECTION_ID()"
		     : "SELECT TID FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()";
}

/* ---- the sampler ---- */

struct snap {
	uint64_t wall_ns, busy, steal, sbusy, server, client, qthread, vcsw, ivcsw, majflt, qvcsw, qivcsw;
	uint64_t partner; /* the other server's ticks (side by side) */
	uint64_t rbytes, wbytes;
	int have_qthread, have_io;
};

struct run_interf {
	pid_t pid, tid;
	unsigned cpus[INTERF_MAX_CPUS];
	int n_cpus;
	int n_server; /* the first n_server of cpus are the server's (0: not known) */
	double ms_per_tick;
	struct snap s0;
	int fd_stat, fd_server, fd_self, fd_qstat, fd_qstatus, fd_io; /* -1: not open */
	int fd_partner; /* side by side: /proc/PID/stat of the other server, -1: none */
	int *thr_fd; /* the server's threads' status */
	size_t n_thr;
	uint64_t thr_count;    /* num_threads when thr_fd was listed */
	char statbuf[1 << 16]; /* /proc/stat: a line per CPU */
};

static int open_ro(const char *path)
{
	return open(path, O_RDONLY | O_CLOEXEC);
}

static int open_task(pid_t pid, pid_t tid, const char *file)
{
	char path[96];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", (int)pid, (int)tid, file);
	return open_ro(path);
}

int run_interf_new(struct run_interf **out, pid_t server, pid_t query_tid, const unsigned *cpus,
		   int n_cpus, struct errbuf *err)
{
	char path[64];
	struct run_interf *n = calloc(1, sizeof(*n));
	if (!n)
		return errbuf_set(err, "out of memory");
	n->pid = server;
	n->tid = query_tid;
	n->n_cpus = n_cpus > INTERF_MAX_CPUS ? INTERF_MAX_CPUS : n_cpus;
	if (n->n_cpus > 0)
		memcpy(n->cpus, cpus, sizeof(unsigned) * (size_t)n->n_cpus);
	long hz = sysconf(_SC_CLK_TCK);
	n->ms_per_tick = 1000.0 / (double)(hz > 0 ? hz : 100);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)server);
	n->fd_stat = open_ro("/proc/stat");
	n->fd_server = open_ro(path);
	n->fd_self = open_ro("/proc/self/stat");
	snprintf(path, sizeof(path), "/proc/%d/io", (int)server);
	n->fd_io = open_ro(path); /* another user's server: unreadable without CAP_SYS_PTRACE */
	n->fd_qstat = query_tid > 0 ? open_task(server, query_tid, "stat") : -1;
	n->fd_qstatus = query_tid > 0 ? open_task(server, query_tid, "status") : -1;
	n->fd_partner = -1;
	*out = n;
	return 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void threads_close(struct run_interf *n)
{
	for (size_t i = 0; i < n->n_thr; i++)
		close_fd(&n->thr_fd[i]);
	free(n->thr_fd);
	n->thr_fd = NULL;
	n->n_thr = 0;
}

void run_interf_free(struct run_interf *n)
{
	if (!n)
		return;
	close_fd(&n->fd_stat);
	close_fd(&n->fd_server);
	close_fd(&n->fd_self);
	close_fd(&n->fd_qstat);
	close_fd(&n->fd_qstatus);
	close_fd(&n->fd_io);
	close_fd(&n->fd_partner);
	threads_close(n);
	free(n);
}

pid_t run_interf_query_tid(MYSQL *m, int mysql)
{
	pid_t tid = 0;
	if (mysql_query(m, run_interf_tid_sql(mysql)))
		return 0;
	MYSQL_RES *res = mysql_store_result(m);
	MYSQL_ROW row = res ? mysql_fetch_row(res) : NULL;
	if (row && row[0]) {
		char *end;
		long v = strtol(row[0], &end, 10);
		if (end != row[0] && *end == '\0' && v > 0)
			tid = (pid_t)v;
	}
	mysql_free_result(res);
	return tid;
}

/* The whole of an open /proc file, read again from its start. */
static int reread(int fd, char *buf, size_t len)
{
	if (fd < 0)
		return -1;
	ssize_t got = pread(fd, buf, len - 1, 0);
	if (got < 0)
		return -1;
	buf[got] = '\0';
	return 0;
}

/* Opens the status file of every thread of the server now alive, in place of the old list. */
static void threads_list(struct run_interf *n, uint64_t count)
{
	char path[64];
	struct dirent *e;
	threads_close(n);
	n->thr_count = count;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)n->pid);
	DIR *d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		int *p = realloc(n->thr_fd, (n->n_thr + 1) * sizeof(int));
		if (!p)
			break;
		n->thr_fd = p;
		p[n->n_thr] = open_task(n->pid, (pid_t)atoi(e->d_name), "status");
		n->n_thr += p[n->n_thr] >= 0;
	}
	closedir(d);
}

/* Context switches summed over the listed threads; -1 when one of them has gone. */
static int threads_ctxt(struct run_interf *n, uint64_t *vol, uint64_t *invol)
{
	char buf[4096]; /* a status file is about 1.5 KiB */
	*vol = *invol = 0;
	for (size_t i = 0; i < n->n_thr; i++) {
		uint64_t v, iv;
		if (reread(n->thr_fd[i], buf, sizeof(buf)) < 0 ||
		    run_interf_parse_ctxt(buf, &v, &iv) < 0)
			return -1;
		*vol += v;
		*invol += iv;
	}
	return 0;
}

/* Context switches summed over the server's threads (those alive at the sample), listing the
 * threads again when their number changed or one has gone. */
static void server_ctxt(struct run_interf *n, uint64_t count, uint64_t *vol, uint64_t *invol)
{
	if (count != n->thr_count || n->n_thr == 0)
		threads_list(n, count);
	if (threads_ctxt(n, vol, invol) < 0) {
		threads_list(n, count);
		if (threads_ctxt(n, vol, invol) < 0)
			*vol = *invol = 0;
	}
}

static void take_qthread(struct run_interf *n, struct snap *s)
{
	char buf[4096];
	uint64_t flt;
	s->have_qthread = reread(n->fd_qstat, buf, sizeof(buf)) == 0 &&
			  run_interf_parse_pidstat(buf, &s->qthread, &flt) == 0 &&
			  reread(n->fd_qstatus, buf, sizeof(buf)) == 0 &&
			  run_interf_parse_ctxt(buf, &s->qvcsw, &s->qivcsw) == 0;
}

static int take(struct run_interf *n, struct snap *s, struct errbuf *err)
{
	char buf[4096];
	uint64_t flt, threads = 0;
	memset(s, 0, sizeof(*s));
	s->wall_ns = util_now_ns();
	if (reread(n->fd_stat, n->statbuf, sizeof(n->statbuf)) < 0 ||
	    run_interf_parse_stat(n->statbuf, n->cpus, n->n_cpus, &s->busy, &s->steal) < 0)
		return errbuf_set(err, "cannot read the CPU counters in /proc/stat");
	uint64_t ssteal;
	if (n->n_server > 0 &&
	    run_interf_parse_stat(n->statbuf, n->cpus, n->n_server, &s->sbusy, &ssteal) < 0)
		return errbuf_set(err, "cannot read the CPU counters in /proc/stat");
	if (reread(n->fd_server, buf, sizeof(buf)) < 0 ||
	    parse_server_stat(buf, &s->server, &s->majflt, &threads) < 0)
		return errbuf_set(err, "cannot read '/proc/%d/stat'", (int)n->pid);
	if (reread(n->fd_self, buf, sizeof(buf)) < 0 ||
	    run_interf_parse_pidstat(buf, &s->client, &flt) < 0)
		return errbuf_set(err, "cannot read '/proc/self/stat'");
	if (n->tid > 0)
		take_qthread(n, s);
	if (n->fd_partner >= 0 && (reread(n->fd_partner, buf, sizeof(buf)) < 0 ||
				   run_interf_parse_pidstat(buf, &s->partner, &flt) < 0))
		s->partner = 0;
	s->have_io = reread(n->fd_io, buf, sizeof(buf)) == 0 &&
		     run_interf_parse_io(buf, &s->rbytes, &s->wbytes) == 0;
	server_ctxt(n, threads, &s->vcsw, &s->ivcsw);
	return 0;
}

int run_interf_begin(struct run_interf *n, struct errbuf *err)
{
	return take(n, &n->s0, err);
}

static uint64_t delta(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

int run_interf_end(struct run_interf *n, struct run_interf_rec *out, struct errbuf *err)
{
	struct snap s1;
	const struct snap *s0 = &n->s0;
	if (take(n, &s1, err) < 0)
		return -1;
	double t = n->ms_per_tick;
	uint64_t busy = delta(s0->busy, s1.busy), server = delta(s0->server, s1.server),
		 client = delta(s0->client, s1.client), partner = delta(s0->partner, s1.partner);
	memset(out, 0, sizeof(*out));
	out->window_ms = (double)delta(s0->wall_ns, s1.wall_ns) / 1e6;
	client += partner; /* side by side: the other server is the tool's too */
	out->other_cpu_ms = busy > server + client ? (double)(busy - server - client) * t : 0;
	out->partner_cpu_ms = n->fd_partner >= 0 ? (double)partner * t : -1;
	uint64_t sbusy = delta(s0->sbusy, s1.sbusy);
	out->server_pu_other_cpu_ms = n->n_server <= 0		     ? -1
				      : sbusy > server + partner ? (double)(sbusy - server - partner) * t
								 : 0;
	out->steal_ms = (double)delta(s0->steal, s1.steal) * t;
	out->server_cpu_ms = (double)server * t;
	out->query_thread_cpu_ms = out->server_rest_cpu_ms = -1;
	out->query_thread_vcsw = out->query_thread_ivcsw = -1;
	if (s0->have_qthread && s1.have_qthread) {
		uint64_t q = delta(s0->qthread, s1.qthread);
		out->query_thread_vcsw = (double)delta(s0->qvcsw, s1.qvcsw);
		out->query_thread_ivcsw = (double)delta(s0->qivcsw, s1.qivcsw);
		out->query_thread_cpu_ms = (double)q * t;
		out->server_rest_cpu_ms = server > q ? (double)(server - q) * t : 0;
	}
	out->vcsw = delta(s0->vcsw, s1.vcsw);
	out->ivcsw = delta(s0->ivcsw, s1.ivcsw);
	out->majflt = delta(s0->majflt, s1.majflt);
	out->read_bytes = out->write_bytes = -1;
	if (s0->have_io && s1.have_io) {
		out->read_bytes = (double)delta(s0->rbytes, s1.rbytes);
		out->write_bytes = (double)delta(s0->wbytes, s1.wbytes);
	}
	return 0;
}

static json_t *ms_or_null(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

static json_t *count_or_null(double v)
{
	return v < 0 ? json_null() : json_integer((json_int_t)v);
}

json_t *run_interf_rec_json(const struct run_interf_rec *r)
{
	json_t *o = json_pack(
	    "{s:f, s:f, s:f, s:f, s:o, s:o, s:I, s:I, s:I, s:o, s:o, s:o, s:o}", "window_ms",
	    r->window_ms, "other_cpu_ms", r->other_cpu_ms, "steal_ms", r->steal_ms, "server_cpu_ms",
	    r->server_cpu_ms, "query_thread_cpu_ms", ms_or_null(r->query_thread_cpu_ms),
	    "server_rest_cpu_ms", ms_or_null(r->server_rest_cpu_ms), "voluntary_ctxt_switches",
	    (json_int_t)r->vcsw, "involuntary_ctxt_switches", (json_int_t)r->ivcsw, "major_faults",
	    (json_int_t)r->majflt, "query_thread_voluntary_ctxt_switches",
	    ms_or_null(r->query_thread_vcsw), "query_thread_involuntary_ctxt_switches",
	    ms_or_null(r->query_thread_ivcsw), "read_bytes", count_or_null(r->read_bytes),
	    "write_bytes", count_or_null(r->write_bytes));
	if (o && r->server_pu_other_cpu_ms >= 0)
		json_object_set_new(o, "server_pu_other_cpu_ms", json_real(r->server_pu_other_cpu_ms));
	if (o && r->partner_cpu_ms >= 0)
		json_object_set_new(o, "partner_server_cpu_ms", json_real(r->partner_cpu_ms));
	return o;
}

void run_interf_set_server_pus(struct run_interf *n, int count)
{
	n->n_server = count < 0 ? 0 : count > n->n_cpus ? n->n_cpus : count;
}

int run_interf_set_partner(struct run_interf *n, pid_t partner)
{
	char path[64];
	close_fd(&n->fd_partner);
	if (partner <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)partner);
	n->fd_partner = open_ro(path);
	return n->fd_partner >= 0 ? 0 : -1;
}

/* ---- in the protocol ---- */

int run_interf_open(struct run_interf **out, struct srv *s, MYSQL *conn, const struct pin_ctx *pin,
		    struct errbuf *err)
{
	unsigned cpus[2 * PIN_MAX_IDS];
	int n = 0;
	const struct pin_placement *p = pin ? pin_ctx_placement(pin) : NULL;
	if (p && p->pinned) {
		for (int i = 0; i < p->n_server; i++)
			cpus[n++] = p->server_cpus[i];
		for (int i = 0; i < p->n_client; i++) {
			int dup = 0;
			for (int k = 0; k < n; k++)
				dup |= cpus[k] == p->client_cpus[i];
			if (!dup)
				cpus[n++] = p->client_cpus[i];
		}
	}
	pid_t tid = run_interf_query_tid(conn, srv_flavour(s) == SRV_FLAVOUR_MYSQL);
	if (run_interf_new(out, srv_pid(s), tid, cpus, n, err) < 0)
		return -1;
	run_interf_set_server_pus(*out, p && p->pinned ? p->n_server : 0);
	return 0;
}

int run_interf_update(struct res_file *res)
{
	struct res_interf_restart *r;
	size_t n;
	if (res_interf_restarts(res, &r, &n) < 0)
		return -1;
	if (n) {
		if (!res->extra && !(res->extra = json_object())) {
			free(r);
			return -1;
		}
		json_object_set_new(res->extra, "interference", res_interf_json(r, n));
	}
	free(r);
	struct res_interf_host h;
	if (res_interf_host(&h, res) < 0)
		return -1;
	if (h.causes && json_is_object(res->host))
		json_object_set_new(res->host, "contention", res_interf_host_json(&h));
	else if (json_is_object(res->host))
		json_object_del(res->host, "contention");
	return 0;
}

int run_interf_disturbed(const struct res_file *res, int idx, char *why, size_t len)
{
	struct res_interf_restart *r;
	size_t n;
	int found = 0;
	if (res_interf_restarts(res, &r, &n) < 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (r[i].index == idx && r[i].causes) {
			res_interf_cause_text(why, len, &r[i]);
			found = 1;
		}
	free(r);
	return found;
}

int run_interf_set_aside(struct res_file *res, int idx)
{
	json_t *all = res_file_to_json(res), *queries = json_object_get(all, "queries"), *q, *e;
	size_t i, k;
	if (!all)
		return -1;
	if (!res->extra && !(res->extra = json_object())) {
		json_decref(all);
		return -1;
	}
	json_t *redone = json_object_get(res->extra, "redone");
	if (!json_is_array(redone)) {
		redone = json_array();
		json_object_set_new(res->extra, "redone", redone);
	}
	json_array_foreach(queries, i, q)
	{
		json_array_foreach(json_object_get(q, "restarts"), k, e)
		{
			if (json_integer_value(json_object_get(e, "index")) != idx)
				continue;
			json_array_append_new(
			    redone,
			    json_pack("{s:O, s:O}", "query", json_object_get(q, "id"), "entry", e));
		}
	}
	json_decref(all);
	for (size_t qi = 0; qi < res->n_queries; qi++)
		for (size_t j = res->queries[qi].n_restarts; j-- > 0;)
			if (res->queries[qi].restarts[j].index == idx)
				res_query_remove_restart(&res->queries[qi], j);
	return 0;
}
