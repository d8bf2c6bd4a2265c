/* SPDX-License-Identifier: MIT */
/* The probes: what a run reads on a server's session besides the executions' times, one row
 * each in probes[] (run_probe.c) as the output formats are rows of formats[]. A new metric is a
 * file runner/run_probe_<name>.c, its value here and its row (HACKING.md, "A new probe"). */
#ifndef DBT3_RUN_PROBE_H
#define DBT3_RUN_PROBE_H
#include "base/util.h"
#include "runner/run_exec.h"
#include <stddef.h>
#include <sys/types.h>

struct run_state;
struct run_target_state;
struct run_session;
struct res_restart;
struct run_work;

/* The rows, in the order their callbacks run (below). */
enum run_probe_id {
	RUN_PROBE_CPU,	  /* the server's CPU time of each measured execution: server_cpu_ms */
	RUN_PROBE_WORK,	  /* work counters: "work" (docs/work.md) */
	RUN_PROBE_INTERF, /* interference around each query: "interference" (docs/run.md) */
	RUN_PROBE_MEM,	  /* the memory probe before and after that window */
	RUN_PROBE_INSTR,  /* instructions per execution: "instructions" (docs/work.md) */
	/* per-table actuals, one ANALYZE execution after every other record: "analyze"
	 * (docs/explain.md) */
	RUN_PROBE_ANALYZE,
	RUN_PROBE_TRACE,  /* run --optimizer-trace: "optimizer_trace" (docs/explain.md) */
	RUN_PROBES
};

/* Where an execution's time goes. */
enum run_slot { RUN_SLOT_WARM, RUN_SLOT_MEAS, RUN_SLOT_UNRECORDED };

/* One execution, as the probes see it around run_exec (never inside its timed window). */
struct run_probe_exec {
	int num;			 /* the query number */
	enum run_slot kind;		 /* warm-up, measured, or unrecorded */
	size_t nw, nm;			 /* warm-up and measured executions recorded before it */
	const struct run_exec_result *x; /* after: what run_exec measured */
};

/* One query's window on a session: begin, then its executions, then record. */
struct run_probe_query {
	int num;		/* the query number */
	int wmax, runs;		/* executions planned at most: warm-up, measured */
	size_t nw, nm;		/* record: executions recorded, warm-up and measured */
	struct res_restart *rr; /* record: the query's entry (extra an object) */
	int ended_well;		/* record: no execution timed out, failed or lost the server */
};

/* A row; a NULL callback does nothing. st is the probe's state on the session (what open made);
 * run its state for the whole run (what start made, NULL without). Per execution a later row
 * sits nearer the execution (before runs in table order, after in reverse: the instructions
 * count none of the others' statements); per query a later row sits farther from the query
 * (begin runs in reverse, record in table order: the interference window holds the work
 * counters' readings, the memory probe stays outside it). */
struct run_probe {
	const char *name;
	/* Once per run, before the first server starts: *out, the probe's run-wide state. */
	void (*start)(void **out, struct run_state *c);
	void (*stop)(void *run);
	/* Session s of t's server opened (its connection up): *out, NULL when the probe does not
	 * run on it. -1 (err) fails the server start. */
	int (*open)(void **out, void *run, struct run_state *c, struct run_target_state *t,
		    struct run_session *s, struct errbuf *err);
	void (*begin)(void *st, struct run_state *c, const struct run_probe_query *q);
	void (*before)(void *st, struct run_state *c, const struct run_probe_exec *e);
	/* Only after an execution that ended well. */
	void (*after)(void *st, struct run_state *c, const struct run_probe_exec *e);
	/* Into q->rr: a member of its extra, or a field of the fixed layout. */
	void (*record)(void *st, struct run_state *c, const struct run_probe_query *q);
	/* 1: the warm-up may end after its nw executions on the probe's own rule. */
	int (*steady)(const void *st, const struct run_state *c, size_t nw);
	void (*close)(void *st);
};

/* The rows (each in its runner/run_probe_<name>.c). */
extern const struct run_probe run_probe_cpu, run_probe_work, run_probe_interf, run_probe_mem,
    run_probe_instr, run_probe_analyze, run_probe_trace;

/* The table walked for a session or the run. */
void run_probes_start(struct run_state *c);
void run_probes_stop(struct run_state *c);
int run_probes_open(struct run_state *c, struct run_target_state *t, struct run_session *s,
		    struct errbuf *err);
void run_probes_close(struct run_session *s);
void run_probes_begin(struct run_state *c, struct run_session *s, const struct run_probe_query *q);
void run_probes_before(struct run_state *c, struct run_session *s, const struct run_probe_exec *e);
void run_probes_after(struct run_state *c, struct run_session *s, const struct run_probe_exec *e);
void run_probes_record(struct run_state *c, struct run_session *s, const struct run_probe_query *q);
int run_probes_steady(const struct run_state *c, const struct run_session *s, size_t nw);

/* The work counters of session s (the refresh functions read them too), NULL without. */
struct run_work *run_probe_work_of(struct run_session *s);
/* Side by side: the other server's CPU time is the tool's in s's interference record
 * (run_interf_set_partner); 0 without a sampler on s. */
int run_probe_interf_partner(struct run_session *s, pid_t partner);

#endif
