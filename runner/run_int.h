/* SPDX-License-Identifier: MIT */
/* Private to the run protocol: the state one run_execute call shares, and runner/run*.c's
 * functions on it. */
#ifndef DBT3_RUN_INT_H
#define DBT3_RUN_INT_H
#include "dbt3/load.h"
#include "dbt3/qry.h"
#include "dbt3/rf.h"
#include "runner/run.h"
#include "runner/run_budget_plan.h"
#include "runner/run_exec.h"
#include "runner/run_explain.h"
#include "runner/run_instr.h"
#include "runner/run_interf.h"
#include "runner/run_memprobe.h"
#include "runner/run_probe.h"
#include "runner/run_steady.h"
#include "runner/run_work.h"
#include "server/srv_snapshot.h"
#include "stats/st.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RUN_DB "dbt3"
#define RUN_LOG_TAIL_LINES 30

/* One server's session: the connection the queries run on, the query-timeout watch, and each
 * probe's state on it (run_probe.h). */
struct run_session {
	MYSQL *conn;
	struct run_watch *watch;
	struct run_cpu *cpu;	 /* the CPU time sampler run_exec reads (the cpu probe's) */
	void *probe[RUN_PROBES]; /* by enum run_probe_id, NULL: that probe does not run here */
};

/* Per target state during a run. */
struct run_target_state {
	struct run_target *t;
	struct srv *srv;
	int crashes;
	int starts;	    /* server starts in this run */
	int described;	    /* server and dataset sections filled */
	int start_seq;	    /* run_state.start_seq of the running server */
	double startstop_s; /* --budget: longest server start + stop of a restart so far */
	/* Its session while its server runs (run_state.sess points to the one measured now). */
	struct run_session sess;
	/* Side by side: its options on its clone of the data (sbs_dir, owned). */
	struct srv_opts sbs_opts;
	char *sbs_dir;
};

/* Everything one call of run_execute shares. */
struct run_state {
	const struct run_plan *plan;
	struct run_target_state *ts;
	int n_targets;
	struct pin_ctx *pin;
	const struct run_hooks *hooks;
	struct qry queries[RUN_MAX_QUERIES + 1]; /* by query number */
	/* During one restart: the session measured now (a target's, run_target_state.sess). */
	struct run_session *sess;
	void *probe_run[RUN_PROBES]; /* each probe's state for the whole run, NULL: none */
	/* What the executions cost outside their timed windows (status readings, Valgrind's
	 * monitor commands, EXPLAIN), summed over the queries measured, and their executions. */
	uint64_t over_ns, over_n;
	/* Progress and ETA. */
	struct run_progress prog;
	uint64_t t0;
	uint64_t rem_execs[RUN_MAX_QUERIES + 1]; /* executions still to do, per query */
	uint64_t seen_ns[RUN_MAX_QUERIES + 1], seen_n[RUN_MAX_QUERIES + 1];
	uint64_t rem_starts, start_ns, start_n;
	int start_seq;	/* server starts so far in this call, over all targets */
	/* --budget: the plan of the current pair by plan position, NULL in the fixed protocol. */
	struct run_qnext *next;
	int qpos[RUN_MAX_QUERIES + 1]; /* plan position of a query number */
	uint64_t startstop_ns;	       /* start + stop of the current restart */
	/* --budget, a restart owed by --min-restarts or of the paced last pair: its share of the
	 * budget left, paced over its queries (pace_ns 0: no pacing): the pace_i-th query measured
	 * must end by pace_t0 + pace_ns pace_cum[pace_i]; pair_pos is the restart's place within
	 * its pair. */
	uint64_t pace_t0, pace_ns;
	double pace_cum[RUN_MAX_QUERIES];
	int pace_i, pair_pos;
	int paced_pair;	 /* the current pair is the paced last pair (run_budget_stop) */
	int owed_warned; /* the restarts still owed were said not to fit (once) */
	int sbs;		/* side by side (run_sbs_run.c) */
	struct rf_set *rf;	/* --refresh: the staged refresh sets (1, then 2 ... S + 1 for the
				 * refresh stream of --streams S), NULL without */
	int n_rf;
	struct srv *sbs_src;	/* ... the instance whose data is cloned, locked for the run */
};

/* run_ctx.c */
void run_event(struct run_state *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void run_progress_tell(struct run_state *c);
double run_mean_exec_ms(const struct run_state *c, int num);
int run_has_restart(const struct res_query *q, int r);
int run_pending(const struct run_state *c, const struct run_target_state *t, int r);
int run_checkpoint(struct run_target_state *t, struct errbuf *err);
/* Appends id to the plan section's "queries" when it is not there; -1 on out of memory. */
int run_plan_query_add(json_t *plan, const char *id);

/* run_session.c */
void run_session_close(struct run_session *s);
int run_server_start(struct run_state *c, struct run_target_state *t, struct errbuf *err);
int run_server_stop(struct run_state *c, struct run_target_state *t, struct errbuf *err);
int run_recover(struct run_state *c, struct run_target_state *t, int crashed, struct errbuf *err);

/* run_measure.c */
int run_restart(struct run_state *c, struct run_target_state *t, int r, struct errbuf *err);
/* How many executions one query gets in one restart: fixed (--warmup, --runs), or with --budget
 * an adaptive warm-up within [warmup_min, warmup_max] and the pair's runs. */
struct query_execs {
	int wmin, wmax, runs;
	int rmin; /* runs an owed restart's pacing never cuts: --runs-min (the fixed protocol: runs)
		   */
	double tol; /* warm-up rule tolerance; 0 in the fixed protocol */
};
/* Shared with the side-by-side loop (run_sbs_run.c). */
struct query_execs run_shape_of(const struct run_state *c, int num);
int run_past_pace(const struct run_state *c, double last_ms, int runs);
void run_pace_start(struct run_state *c, int r, const int *order);
int run_restarts_owed(const struct run_state *c, int r);
/* The restart's queries in its order (order: run_plan_order's): each that one of the n targets
 * ts still lacks and --budget has not decided is measured by fn, with the progress line naming
 * it, until fn returns < 0 (returned). */
typedef int run_query_fn(struct run_state *c, int r, int num, int pos, void *arg,
			 struct errbuf *err);
int run_each_query(struct run_state *c, int r, const int *order, const struct run_target_state *ts,
		   int n, run_query_fn *fn, void *arg, struct errbuf *err);
void run_warn_owed_over(struct run_state *c, int left);

/* run_query.c: one query of one restart on one target's session, the path every execution
 * takes (measure() fills one side, the side-by-side alternation two). */
struct run_side {
	struct run_target_state *t;
	int num;	       /* the query */
	struct res_restart rr; /* the entry as it grows (extra an object) */
	double *warm, *meas;
	size_t nw, nm;
	int execs, total;	 /* executions so far, and planned (the ETA's) */
	enum run_exec_status st; /* RUN_EXEC_OK until an execution or statement fails */
	struct errbuf xerr;
	long long rows; /* the first execution's rows, -1 before */
	char sha[65];	/* the result's fingerprint, "" before */
};
/* Allocates for sh's executions (0, -1 out of memory); release with run_side_release. */
int run_side_init(struct run_side *s, struct run_target_state *t, int r, int num,
		  const struct query_execs *sh, int total);
void run_side_release(struct run_side *s);
/* The query's window opens on the side's session; run_side_end closes it. */
void run_side_begin(struct run_state *c, struct run_side *s, const struct query_execs *sh);
/* The query's statement before it (Q15's view). */
void run_side_pre(struct run_side *s, const struct qry *q);
/* One execution unless the side has failed: progress, what is read around it, its time where
 * kind says. */
void run_side_exec(struct run_state *c, struct run_side *s, int num, unsigned flags,
		   enum run_slot kind);
/* A probe's own rule ends the warm-up (--instructions: the last two counts agree). */
int run_side_steady(const struct run_state *c, const struct run_side *s);
/* The plan, rows and fingerprint into the entry, the statement after the query. */
void run_side_post(struct run_state *c, struct run_side *s, const struct qry *q, int num);
void run_side_end(struct run_state *c, struct run_side *s);
/* Status, times and place of entry r stored (pair: side by side's record, or NULL) and
 * checkpointed; after a lost connection the server is recovered. 0, -1 or RUN_E_SERVER. */
int run_side_record(struct run_state *c, struct run_side *s, int r, int num, int pos,
		    const json_t *pair, struct errbuf *err);

/* run_sbs_run.c: side by side */
int run_sbs_open(struct run_state *c, struct run_target *targets, struct errbuf *err);
int run_sbs_restart(struct run_state *c, int r, struct errbuf *err);
void run_sbs_close(struct run_state *c);

/* run_rf.c: --refresh (docs/run.md, "Refresh functions") */
/* Stages the refresh set (generated, outside every timing): 0, or RUN_E_NODATA when the scale
 * factor has no refresh data, -1; nothing without plan->refresh. */
int run_rf_stage(struct run_state *c, struct errbuf *err);
void run_rf_release(struct run_state *c);
/* RF1 and RF2 entries (and plan.refresh) in t's result. */
int run_rf_prepare(struct run_state *c, struct run_target_state *t, struct errbuf *err);
/* Restart r's refresh pair on the running server, after its queries: RF1, RF2, the restore,
 * the check; recorded and checkpointed. 0, -1 or RUN_E_SERVER (err). */
int run_rf_restart(struct run_state *c, struct run_target_state *t, int r, struct errbuf *err);

/* Before the target's first start: a snapshot an interrupted run left restored (an event says
 * so), and with --refresh the snapshot of the stopped instance taken, which
 * run_rf_snapshot_close restores; once per instance. 0, RUN_E_SERVER or RUN_E_REFUSED (err). */
int run_rf_snapshot_open(struct run_state *c, struct run_target_state *t, struct errbuf *err);
/* At the end of the run, whatever ended it: the servers stopped and the snapshot swapped back.
 * rc, or RUN_E_SERVER (err) when rc was 0 and the restore failed (else an event says so). */
int run_rf_snapshot_close(struct run_state *c, int rc, struct errbuf *err);

/* The check as {"orders", "lineitems", "orders_checksum", "lineitem_checksum"} (a new
 * reference). */
json_t *run_rf_check_json(const struct rf_check *k);

/* run_streams.c: --streams S (docs/run.md, "Throughput test") */
/* plan.streams and the entries T:Q..., T:stream, T:RF1, T:RF2 in t's result. */
int run_streams_prepare(struct run_state *c, struct run_target_state *t, struct errbuf *err);
/* Restart r's throughput test on the running server, after its single-stream queries and
 * refresh pair: recorded and checkpointed. 0, -1 or RUN_E_SERVER (err). */
int run_streams_restart(struct run_state *c, struct run_target_state *t, int r,
			struct errbuf *err);

/* run_budget_loop.c */
int run_budget_loop(struct run_state *c, int *vorder, struct errbuf *err);

#endif
