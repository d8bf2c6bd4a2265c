/* SPDX-License-Identifier: MIT */
/* Interference around a query (docs/run.md, "Interference"): CPU time others used on the
 * benchmark PUs, steal, the server's context switches, major faults and storage I/O, and the
 * server's CPU split into the query's thread and the rest; sampled from /proc before and after
 * a query. */
#ifndef DBT3_RUN_INTERF_H
#define DBT3_RUN_INTERF_H
#include "base/util.h"
#include <jansson.h>
#include <mysql.h>
#include <stdint.h>
#include <sys/types.h>

/* ---- pure parsers of /proc text (unit-tested on fixtures) ---- */

/* /proc/stat: busy ticks (user + nice + system + irq + softirq; guest time is inside user) and
 * steal ticks summed over the listed CPUs, or the aggregate "cpu" line when n_cpus is 0.
 * 0, or -1 when a listed CPU has no line. */
int run_interf_parse_stat(const char *text, const unsigned *cpus, int n_cpus, uint64_t *out_busy,
			  uint64_t *out_steal);

/* /proc/PID/stat (or /proc/PID/task/TID/stat): utime + stime ticks and major faults. */
int run_interf_parse_pidstat(const char *text, uint64_t *out_ticks, uint64_t *out_majflt);

/* /proc/PID/stat: the number of threads (num_threads). */
int run_interf_parse_nthreads(const char *text, uint64_t *out_threads);

/* /proc/PID/io: read_bytes and write_bytes, the bytes the process made the storage layer read
 * and write (proc(5); page-cache hits are not in read_bytes, O_DIRECT reads are). */
int run_interf_parse_io(const char *text, uint64_t *out_read, uint64_t *out_write);

/* /proc/PID/task/TID/status: voluntary and nonvoluntary context switches. */
int run_interf_parse_ctxt(const char *text, uint64_t *out_vol, uint64_t *out_invol);

/* The query's OS thread id: MariaDB information_schema.PROCESSLIST.TID, MySQL 8
 * performance_schema.threads.THREAD_OS_ID (the SQL for each flavour; mysql != 0: MySQL). */
const char *run_interf_tid_sql(int mysql);

/* ---- the sampler ---- */

/* What happened between run_interf_begin and run_interf_end. */
struct run_interf_rec {
	double window_ms;		/* wall time between the samples */
	double other_cpu_ms;		/* busy time on the PUs minus the server's and the tool's */
	double steal_ms;		/* steal time on the PUs */
	double server_cpu_ms;		/* the whole server */
	double query_thread_cpu_ms;	/* the connection's thread; < 0 when unknown */
	double server_rest_cpu_ms;	/* server minus the query's thread; < 0 when unknown */
	uint64_t vcsw, ivcsw;		/* the server's (all threads) context switches */
	uint64_t majflt;		/* the server's major page faults */
	double read_bytes, write_bytes; /* the server's storage I/O; < 0 when unreadable */
	double query_thread_vcsw, query_thread_ivcsw; /* the query's thread alone; < 0 unknown */
	double partner_cpu_ms; /* side by side: the other server's CPU time; < 0 without one */
	double server_pu_other_cpu_ms; /* busy time on the server's own PUs minus the server's
					* (and its partner's): < 0 when not pinned */
};

struct run_interf;

/* A sampler of server pid on the PUs cpus (n_cpus 0: every CPU); query_tid 0 when unknown.
 * It keeps its /proc files open and re-reads them from the start at each sample (pread), and
 * lists the server's threads again only when their number changes or one has gone: a sample
 * re-reads one file per thread instead of listing the directory and opening, reading and
 * closing each. Free with run_interf_free. */
int run_interf_new(struct run_interf **out, pid_t server, pid_t query_tid, const unsigned *cpus,
		   int n_cpus, struct errbuf *err);
void run_interf_free(struct run_interf *n);

/* Looks up the connection's OS thread id (0 when the server does not say). */
pid_t run_interf_query_tid(MYSQL *m, int mysql);

/* The first n of the sampler's PUs are the server's (run_interf_open: the placement's server
 * PUs): the record then has server_pu_other_cpu_ms. */
void run_interf_set_server_pus(struct run_interf *n, int count);

/* Side by side: the CPU time of the other server (pid partner; 0: none) is the tool's, not
 * another process's, in other_cpu_ms, and is recorded as partner_server_cpu_ms. 0, or -1 when
 * its /proc file cannot be opened (then it counts as other). */
int run_interf_set_partner(struct run_interf *n, pid_t partner);

int run_interf_begin(struct run_interf *n, struct errbuf *err);
int run_interf_end(struct run_interf *n, struct run_interf_rec *out, struct errbuf *err);

/* {"window_ms","other_cpu_ms","steal_ms","server_cpu_ms","query_thread_cpu_ms",
 *  "server_rest_cpu_ms","voluntary_ctxt_switches","involuntary_ctxt_switches","major_faults",
 *  "query_thread_voluntary_ctxt_switches","query_thread_involuntary_ctxt_switches",
 *  "read_bytes","write_bytes"} */
json_t *run_interf_rec_json(const struct run_interf_rec *r);

/* ---- in the protocol ---- */
struct srv;
struct pin_ctx;
struct res_file;

/* A sampler for the running server s: the query thread of conn, the PUs of the placement (the
 * server's and the client's; every CPU when unpinned). */
int run_interf_open(struct run_interf **out, struct srv *s, MYSQL *conn, const struct pin_ctx *pin,
		    struct errbuf *err);

/* Rewrites the top-level "interference" member of res from its query entries' records, and
 * host.contention (present only when the host was contended: result/res.h). */
int run_interf_update(struct res_file *res);

/* Moves the entries of restart r out of every query into the top-level "redone" list
 * ([{"query", "entry"}], the entries as written), so that r can be measured again. */
int run_interf_set_aside(struct res_file *res, int r);

/* Whether restart r of res is disturbed (unusual against the file's other restarts as they
 * stand); then why, in why. */
int run_interf_disturbed(const struct res_file *res, int r, char *why, size_t len);

#endif
