/* SPDX-License-Identifier: MIT */
/* The run protocol: per restart start the (pinned) server, per query warm-up then measured
 * executions in one connection, result and plan fingerprints, stop, checkpoint. Variants of the
 * server are interleaved restart by restart; an interrupted run is completed with resume. */
#ifndef DBT3_RUN_H
#define DBT3_RUN_H
#include "base/util.h"
#include "pinning/pin.h"
#include "result/res.h"
#include "server/srv.h"
#include <signal.h>
#include <stdint.h>

#define RUN_MAX_QUERIES 22
/* The ids of the refresh functions' entries in a result file (run --refresh). */
#define RUN_RF1 "RF1"
#define RUN_RF2 "RF2"
/* run --streams S (the throughput test): entries T:Q1 ... T:Q22 (one time per stream), T:stream
 * (each stream's wall time) and, with --refresh, T:RF1 and T:RF2 (one time per pair). */
#define RUN_STREAMS_MAX 40 /* TPC-H's query streams 1 ... 40 (Appendix A) */
#define RUN_T_PREFIX "T:"
#define RUN_T_STREAM "T:stream"
#define RUN_T_RF1 "T:RF1"
#define RUN_T_RF2 "T:RF2"

/* A server build or setting to measure: --variant NAME:mysqld=PATH[,option=value...]. */
struct run_variant {
	char *name;
	char *mysqld;		/* server binary, NULL for the default */
	struct srv_kv *options; /* server options of this variant, in order */
	size_t n_options;
	char *spec; /* the text given on the command line */
};

#define RUN_MAX_VARIANT_NAME 64 /* a variant name: also a file name, NAME.json */

/* Parses one --variant value into out (release with run_variant_release): a name that is a safe
 * file name, then comma-separated items; a value with commas is double-quoted
 * (sql_mode="A,B", with \" and \\ inside). A line break, '!' or control character anywhere is
 * refused (they would reach the server's option file). */
int run_variant_parse(struct run_variant *out, const char *spec, struct errbuf *err);
void run_variant_release(struct run_variant *v);

/* run --resume takes the binaries from its own command line, never from the file: the given
 * --variant values must be the file's plan.variant_spec values (file, nf), each once, as the
 * same text. -1 with the variant that differs, is missing or is not in the file. */
int run_variant_resume_check(const char *const *file, int nf, const char *const *given, int ng,
			     struct errbuf *err);

/* A server binary given as a path (it has a '/') must be an executable regular file; a bare name
 * is looked up on PATH when the server starts. what names it in the message ("variant 'a':
 * mysqld"). */
int run_binary_check(const char *what, const char *path, struct errbuf *err);

/* Parses a query list "1-22", "1,3,5-7", "Q6,Q14" into out[] (numbers 1..22, in the order given,
 * no duplicates); returns the count or -1. */
int run_queries_parse(int out[RUN_MAX_QUERIES], const char *s, struct errbuf *err);

/* The order of the variants within a restart without --seed. */
enum run_vorder {
	RUN_VORDER_ABBA = 0, /* A B, B A, A B, ...: each variant first in every other restart */
	RUN_VORDER_FIXED,    /* A B, A B, ...: result files written before the balanced order */
};

/* What to measure and how. */
struct run_plan {
	int restarts, warmup, runs;
	int queries[RUN_MAX_QUERIES]; /* query numbers in plan order */
	int n_queries;
	int shuffled;  /* --order shuffled: a new query order every restart */
	uint64_t seed; /* for the shuffles (query order, variant order) */
	int seed_given;
	char *label;	      /* borrowed */
	double query_timeout; /* seconds; 0 = none */
	int max_crashes;      /* give up after this many server crashes (per variant) */
	double scale;	      /* scale factor of the loaded data */
	double steady_alpha;  /* family-wise level of not_steady (Holm over the file) */
	enum run_vorder variant_order; /* without seed_given */
	/* --budget (docs/run.md, runner/run_budget.h); budget_s 0: the fixed protocol. */
	double budget_s;	    /* the wall time to finish in (s) */
	double detect;		    /* the change to detect, e.g. 0.03 */
	double alpha;		    /* family-wise false-alarm level of the decisions */
	int warmup_min, warmup_max; /* bounds of the adaptive warm-up */
	int runs_min, runs_max;	    /* bounds of the measured runs per restart */
	int keep_all;		    /* measure decided queries too */
	int min_restarts;	    /* restarts (pairs) made whatever the estimate (2) */
	int redo_disturbed; /* --redo-disturbed N: measure up to N disturbed restarts again */
	json_t *profile;    /* --profile: what was applied (recorded as plan.profile), or NULL */
	/* --costs-from FILE (borrowed; NULL: none): per query number its mean execution there (ms,
	 * 0 unknown), read by run_prior_costs (runner/run_prior.h). */
	const char *costs_from;
	double prior_ms[RUN_MAX_QUERIES + 1];
	double prior_fixed_s; /* --costs-from: a restart's cost besides its executions (s), 0 */
	/* --instructions (docs/work.md): the server under Valgrind callgrind, instructions counted
	 * around every execution; the warm-up (at most --warmup) ends once two consecutive counts
	 * are within instr_tol. Without it, the PMU's counts where the host has one. */
	int instructions;
	double instr_tol;
	int side_by_side;     /* two variants' servers up at once, executions alternated
			       * (runner/run_sbs.h) */
	int refresh; /* --refresh: RF1 and RF2 after the queries of every restart (docs/run.md) */
	int streams; /* --streams S: the throughput test after them, 0 without (docs/run.md) */
};

/* What the command line gave, for run_plan_instr_defaults. */
enum run_given {
	RUN_GIVEN_RESTARTS = 1 << 0,
	RUN_GIVEN_WARMUP = 1 << 1,
	RUN_GIVEN_RUNS = 1 << 2,
	RUN_GIVEN_WARMUP_MIN = 1 << 3,
	RUN_GIVEN_WARMUP_MAX = 1 << 4,
	RUN_GIVEN_RUNS_MIN = 1 << 5,
	RUN_GIVEN_RUNS_MAX = 1 << 6,
};

/* With p->instructions, the defaults Valgrind's slowdown calls for (docs/work.md) in place of
 * what `given` (RUN_GIVEN_* bits) does not name: --restarts 2, --warmup 10, --runs 2; with
 * --budget --warmup-min 2, --warmup-max 10, --runs-min 2, --runs-max 2 (a default minimum at
 * most the maximum given, a default maximum at least the minimum given). Nothing without
 * p->instructions. */
void run_plan_instr_defaults(struct run_plan *p, unsigned given);

/* Defaults of the stable protocol: 5 restarts x (8 warm-up + 10 measured), all 22 queries; the
 * budget's defaults (unused without budget_s): detect 3%, alpha 0.05, warm-up 4..20, runs
 * 3..10, at least 2 restarts. */
void run_plan_init(struct run_plan *p);

/* The query order of one restart: the plan order, or a permutation drawn from (seed, restart). */
void run_plan_order(const struct run_plan *p, int restart, int out[RUN_MAX_QUERIES]);

/* The variant order of one restart: a permutation drawn from (seed, restart) with a seed; else
 * 0..n-1 in even restarts and n-1..0 in odd ones (RUN_VORDER_ABBA), or always 0..n-1
 * (RUN_VORDER_FIXED). */
void run_variant_order(const struct run_plan *p, int restart, int n, int *out);

/* What the protocol reports while it runs (the command layer displays it). */
struct run_progress {
	const char *variant;   /* NULL without variants */
	int restart, restarts; /* 0-based restart, total */
	const char *query;     /* "Q7", NULL between queries */
	int qpos, nq;	       /* position of the query in this restart, 0-based, and count */
	int run, runs;	       /* execution within the query (warm-up included), 1-based */
	uint64_t elapsed_ns;
	double eta_s; /* NaN while unknown */
};

struct run_hooks {
	void (*progress)(void *arg, const struct run_progress *p);
	/* Notable events: a crash, a timeout, a restart done, a verification warning. */
	void (*event)(void *arg, const char *msg);
	void *arg;
};

/* One output of a run: a variant (or the only server), its options and its result file. */
struct run_target {
	const char *name;	       /* variant name or NULL */
	const char *spec;	       /* the --variant text or NULL */
	struct srv_opts *opts;	       /* server options of this target (borrowed) */
	char *out_path;		       /* result file path (borrowed) */
	struct res_file *res;	       /* filled by run_execute; may be pre-filled by resume */
	volatile sig_atomic_t written; /* 1: a first write of out_path began, 2: done */
};

/* Outcome beyond 0/-1. */
enum run_error {
	RUN_E_SERVER = -2, /* the server failed to start or crashed more than max_crashes */
	RUN_E_NODATA = -3, /* no complete load of the plan's scale factor (or other data) */
	RUN_E_REFUSED = -4, /* side by side cannot run here (disk space, RAM for two pools) */
};

/* Runs the plan on the targets (interleaved restart by restart), writing each target's result
 * file after every query (a checkpoint) and at the end with finished_at. pin may be NULL
 * (unpinned). Returns 0, -1 (err), or RUN_E_SERVER (the files keep what was measured). */
int run_execute(const struct run_plan *plan, struct run_target *targets, int n_targets,
		struct pin_ctx *pin, const struct run_hooks *hooks, struct errbuf *err);

/* The plan section of a result file (a new reference). */
json_t *run_plan_to_json(const struct run_plan *p, const char *variant_name,
			 const char *variant_spec);

/* Resume: checks that a result file was written by run (same plan sections) and fills plan
 * from it; the restarts it holds are kept. */
int run_plan_from_result(struct run_plan *out, const struct res_file *res, struct errbuf *err);

/* Host section of the result: name, cpu_model, kernel, topology, governor, turbo, aslr. */
json_t *run_host_json(const char *topology);

#endif
