/* SPDX-License-Identifier: MIT */
/* The budget's plan for the next pair of restarts, from the result files so far: per query the
 * decision, whether it is still measured, its measured runs and warm-up tolerance, and the
 * estimated cost of the pair (docs/run.md, "run --budget"). */
#ifndef DBT3_RUN_BUDGET_PLAN_H
#define DBT3_RUN_BUDGET_PLAN_H
#include "result/res.h"
#include "runner/run.h"
#include "runner/run_budget.h"
#include "stats/st_seq.h"

/* Measured runs per restart while the restart variance is unknown (fewer than 2 restarts). */
#define RUN_BUDGET_RUNS_FIRST 5

/* One query of the plan in the next pair. */
struct run_qnext {
	int active;		   /* measured in the next pair */
	int runs;		   /* measured executions per restart */
	double warmup_tol;	   /* tolerance of the warm-up rule (run_warmup_tol) */
	enum run_decision decision; /* kept once decided */
	int decided_after;	   /* pairs measured when it was decided; 0: undecided */
	int on_instr;		   /* --instructions: decided on the counts (run_budget_instr) */
	double ratio, ci_lo, ci_hi; /* at the last look (variants), NaN otherwise */
	struct st_seq_state seq;    /* two variants with a design: the sequential test's state */
	int fed;		    /* pairs looked at so far */
};

/* Initial state before the first pair: every query active, RUN_BUDGET_RUNS_FIRST runs (within
 * the plan's bounds), the minimum warm-up tolerance, undecided. */
void run_budget_next_init(struct run_qnext *next, const struct run_plan *p);

/* The sequential test of a two-variant budget run and the horizon it follows: after pair k the
 * most pairs the budget holds, K_k, is estimated again from the measured cost of the pairs so far
 * and the boundaries are recomputed from K_1..K_k (Lan-DeMets spending, stats/st_seq.h). */
struct run_budget_seq {
	double budget_s;		     /* in: the budget (s) */
	double elapsed_s;		     /* in: the wall time when the last pair ended (s) */
	int min_pairs;			     /* in: pairs the run makes whatever the estimate */
	size_t horizon[ST_SEQ_MAX_PAIRS];    /* out: K_k estimated after pair k (element k - 1) */
	size_t n_horizon;		     /* out: looks made */
	struct st_seq_design design;	     /* out: over looks 1..n_horizon */
};

/* The sequential design of run --side-by-side --budget (docs/statistics.md, "Side by side: an
 * earlier look"): Pocock-type spending, first look after pair 3. A pair's log ratio is a few
 * times less noisy side by side than restart-paired, so a large change is clear after 3 pairs,
 * where O'Brien-Fleming spending has spent almost nothing; and the t of a look has pairs - 1 df:
 * a look after pair 2 (1 df) would spend alpha where nothing is ever decided. */
#define RUN_SBS_SPENDING ST_SPEND_POCOCK
#define RUN_SBS_FIRST_LOOK 3

/* The design of a two-variant budget run over the horizon h[0..n-1]: spending of p->alpha / m
 * (m = the plan's queries), paired, two-sided, min_effect = p->detect; restart-paired
 * O'Brien-Fleming type from pair 2, side by side (p->side_by_side) RUN_SBS_SPENDING from pair
 * RUN_SBS_FIRST_LOOK. A K_k below the first look counts as the first look. */
int run_budget_design(struct st_seq_design *out, const struct run_plan *p, const size_t *h,
		      size_t n, struct errbuf *err);

/* The name plan.decision_rule records for a run with n_targets targets: "precision" (one),
 * "group-sequential-obf" (two, restart-paired), "group-sequential-pocock" (two, side by side),
 * "repeated-ci-bonferroni" (more). */
const char *run_budget_rule_name(const struct run_plan *p, int n_targets);

/* K after `pairs` pairs: pairs + floor((budget_s - elapsed_s) / pair_s) (the pairs done and those
 * the budget still holds at pair_s each), plus one when the time left after those holds a paced
 * last pair at its least cost least_s (NaN or not below pair_s: none), within
 * [max(pairs, min_pairs, 2), ST_SEQ_MAX_PAIRS]. */
size_t run_budget_horizon(int pairs, int min_pairs, double budget_s, double elapsed_s,
			  double pair_s, double least_s);

/* The estimated wall time of the next pair (s): as planned, and at its least, each active query
 * at --warmup-min warm-ups and min(--runs-min, its planned runs) runs (what the pacing of a
 * paced pair never cuts), each target's server start + stop included in both. */
struct run_pair_cost {
	double full_s;
	double least_s;
};

/* Updates next[0..p->n_queries-1] (plan order) after `pairs` pairs from the targets' results
 * (res[0] is the reference of the paired comparisons): decisions of the undecided queries, then
 * runs, tolerance and active flag. Two variants with seq: K_pairs is estimated from the cost of
 * another pair like the last one (the queries it measured, before this look's decisions: the
 * horizon must not depend on them), appended to seq->horizon, the design recomputed, and each
 * pair with both restarts ok fed to the query's sequential test (st_seq_feed); more variants:
 * run_budget_decide_paired against res[0]; one build: run_budget_decide_single. *out_cost
 * gets the estimated wall time of the next pair, planned and least: per target the longest
 * server start + stop seen (startstop_s[t]) plus the active queries' expected executions at their
 * mean time (run_budget_restart_cost), each execution's time counted exec_extra_s longer (what
 * an execution costs outside its timed window: status readings, Valgrind's monitor commands).
 * With p->instructions a query is decided on its counts first (run_budget_instr), by time when
 * they do not decide. Returns the number of queries still undecided, -1 when the design cannot
 * be made (err set). */
int run_budget_next(struct run_qnext *next, const struct run_plan *p, struct res_file *const *res,
		    int n_targets, int pairs, const double *startstop_s, double exec_extra_s,
		    struct run_budget_seq *seq, struct run_pair_cost *out_cost, struct errbuf *err);

/* --instructions: the decision of one query on its instruction counts (callgrind_ir) in the
 * restarts of the first `pairs` pairs of q[0..n-1] (q[0] the reference), or RUN_UNDECIDED.
 * From 2 pairs on, each file with the count in at least 2 restarts, by compare's rule
 * (st_instr_changed): each variant's counts against the first's, `regression` or `improvement`
 * by the side of the ratio when changed, `unchanged` when not changed and the rule's bound is
 * within p->detect; several variants as the time decision combines them (a regression over an
 * improvement over unchanged; undecided when one is). One build: `precise` when the bound two
 * such files would get, ST_INSTR_TOL + 2 ST_INSTR_K spread, is within p->detect. *out_ratio
 * (may be NULL) gets the last ratio compared, NaN without one. */
enum run_decision run_budget_instr(const struct run_plan *p, const struct res_query *const *q,
				   int n, int pairs, double *out_ratio);

#endif
