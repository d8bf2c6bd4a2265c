/* SPDX-License-Identifier: MIT */
/* What a run measures and how (struct run_plan): the command line's plan, its defaults, the
 * query and variant orders it draws, and its section of a result file. */
#ifndef DBT3_RUN_PLAN_H
#define DBT3_RUN_PLAN_H
#include "base/util.h"
#include "result/res.h"
#include <jansson.h>
#include <stdint.h>

#define RUN_MAX_QUERIES 22

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
	char *label;		       /* borrowed */
	double query_timeout;	       /* seconds; 0 = none */
	int max_crashes;	       /* give up after this many server crashes (per variant) */
	double scale;		       /* scale factor of the loaded data */
	double steady_alpha;	       /* family-wise level of not_steady (Holm over the file) */
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
	/* --optimizer-trace (docs/explain.md): each query's optimizer trace once per restart,
	 * untimed, kept as its decision summary */
	int optimizer_trace;
	int side_by_side; /* two variants' servers up at once, executions alternated
			   * (runner/run_sbs.h) */
	int refresh; /* --refresh: RF1 and RF2 after the queries of every restart (docs/run.md) */
	int streams; /* --streams S: the throughput test after them, 0 without (docs/run.md) */
	int no_analyze; /* --no-analyze: no ANALYZE execution per query and restart
			 * (docs/explain.md, "Where the rows went") */
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

/* The plan section of a result file (a new reference). */
json_t *run_plan_to_json(const struct run_plan *p, const char *variant_name,
			 const char *variant_spec);

/* Resume: checks that a result file was written by run (same plan sections) and fills plan
 * from it; the restarts it holds are kept. */
int run_plan_from_result(struct run_plan *out, const struct res_file *res, struct errbuf *err);

#endif
