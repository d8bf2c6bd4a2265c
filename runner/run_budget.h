/* SPDX-License-Identifier: MIT */
/* Planning a run inside a time budget (`run --budget`, docs/run.md): the pure rules, apart from
 * the server. Adaptive warm-up, measured runs per restart by the cost-optimal allocation of a
 * nested design, the cost of the next pair of restarts, and the decision after each pair. */
#ifndef DBT3_RUN_BUDGET_H
#define DBT3_RUN_BUDGET_H
#include <stddef.h>

/* ---- the plan's budget ------------------------------------------------------------------ */

struct run_plan;

/* The budget is decided here and in runner/run_budget_loop.c; other files ask these instead of
 * reading plan->budget_s. 1 when the plan runs under --budget, 0 for the fixed protocol. */
int run_budget_on(const struct run_plan *p);
/* The budget (s; 0: none), for messages and the result file's plan. */
double run_budget_total_s(const struct run_plan *p);
/* The budget less elapsed_s (s; negative once over). */
double run_budget_left_s(const struct run_plan *p, double elapsed_s);

/* ---- warm-up --------------------------------------------------------------------------- */

/* Executions in each of the two windows the warm-up rule compares. */
#define RUN_WARMUP_WINDOW 2
/* Smallest relative level change the rule treats as a transient (2%). */
#define RUN_WARMUP_TOL_MIN 0.02
/* The tolerance in units of the sd of the windows' log ratio. */
#define RUN_WARMUP_Z 3.0

/* The tolerance of the warm-up rule for a query whose within-restart coefficient of variation
 * (from earlier restarts) is cov_within: max(RUN_WARMUP_TOL_MIN, RUN_WARMUP_Z * cov_within).
 * With windows of w = 2 executions the log ratio of the two window means has sd
 * cov_within * sqrt(2 / w) = cov_within, so a steady series is called unsteady at one check with
 * probability about 2 (1 - Phi(3)) = 0.27% (docs/run.md). NaN or negative: the minimum. */
double run_warmup_tol(double cov_within);

/* The warm-up rule: x[0..n-1] are one query's executions in one restart so far (ms). Steady when
 * n >= 2 RUN_WARMUP_WINDOW and |log(mean of the last w / mean of the w before)| <= tol: no level
 * change between the last two windows larger than the noise allows. 1 steady, 0 not (yet). */
int run_warmup_steady(const double *x, size_t n, double tol);

/* The pacing of a restart owed by --min-restarts (docs/run.md): 1 when a warm-up execution
 * started at now_s (s since the restart's queries began) taking last_s, as the query's last one
 * did, and `runs` measured executions of the same length after it would end after deadline_s:
 * the warm-up then stops (at --warmup-min at the earliest) and the restart records
 * warmup_capped. */
int run_warmup_over_pace(double now_s, double last_s, int runs, double deadline_s);

/* The shares of an owed restart's time among its n queries, in the order it runs them: cum[i] is
 * the fraction of the restart's share by which query i must end, the running sum of
 * cost[0..i] / the sum of all. cost[i] is what the query is expected to take (its mean execution
 * so far times the executions it is planned); a cost that is not a positive number (no execution
 * seen yet) counts as the mean of the known ones, and with none known every query gets 1 / n.
 * cum[n - 1] is 1. */
void run_pace_shares(const double *cost, int n, double *cum);

/* ---- measured runs per restart ----------------------------------------------------------- */

/* Cost-optimal executions per restart of a two-stage (nested) design: the variance of a query's
 * mean over restarts, (var_between + var_within / n) / k, times the cost k (c_fixed + n c_exec)
 * is smallest at n* = sqrt((c_fixed / c_exec) (var_within / var_between)) (Cochran, "Sampling
 * Techniques", 3rd ed. 1977, ch. 10, optimum subsample size in two-stage sampling; for
 * benchmark repetitions Kalibera & Jones, "Rigorous Benchmarking in Reasonable Time", ISMM 2013,
 * the optimal repetition count of a level from the cost and variance of the level above). Returns whichever of the two
 * integers around n* gives the smaller product, within [nmin, nmax]; nmax when var_between is 0
 * or unknown (NaN: the restart noise is not yet estimated), nmin when var_within is 0. -1 on bad
 * input (costs not > 0, nmin < 1, nmax < nmin). */
int run_budget_runs(double c_fixed, double c_exec, double var_within, double var_between, int nmin,
		    int nmax);

/* ---- the cost of the next restart -------------------------------------------------------- */

/* One query in the next restart of one target, from that target's earlier restarts. */
struct run_qcost {
	double exec_s; /* mean execution time so far (s) */
	int warmup;    /* the most warm-up executions it needed so far */
	int runs;      /* measured executions planned */
	int active;    /* 0 when it is no longer measured */
};

/* startstop_s (server start and stop, the longest seen) plus (warmup + runs) exec_s of every
 * active query: the estimate of one restart of one target, in seconds. */
double run_budget_restart_cost(double startstop_s, const struct run_qcost *q, size_t n);

/* 1 when the next pair, estimated at next_s, ends by the budget: elapsed_s + next_s <=
 * budget_s. */
int run_budget_fits(double elapsed_s, double next_s, double budget_s);

/* Most pairs a budget run makes (the decisions' looks are defined for any number). */
#define RUN_BUDGET_MAX_PAIRS 1000

/* Where a budget run stands after a look. */
struct run_budget_state {
	int pairs;	   /* pairs made */
	int min_pairs;	   /* --min-restarts: pairs made whatever the estimate */
	int undecided;	   /* queries still undecided */
	size_t horizon;	   /* two variants: K of the last look (the last look spends what is
			    * left when pairs >= K); 0 without a sequential design */
	double elapsed_s;  /* wall time so far */
	double budget_s;   /* --budget */
	double full_s;	   /* the next pair as planned (run_budget_next) */
	double least_s;	   /* ... at its least: --warmup-min, --runs-min */
};

/* Why the run stops now, or NULL to make another pair: "all-decided"; nothing more while
 * --min-restarts still owes pairs; "budget" when not even the least pair fits (elapsed_s +
 * least_s > budget_s); "max-pairs" at the horizon's last look or after RUN_BUDGET_MAX_PAIRS.
 * *paced (may be NULL) is 1 when the next pair goes on because only its least cost fits: it is
 * the run's last and the pacing of owed restarts (run_warmup_over_pace, run_pace_shares) fits it
 * into the time left; else 0. */
const char *run_budget_stop(const struct run_budget_state *s, int *paced);

/* ---- decisions after each pair --------------------------------------------------------- */

enum run_decision {
	RUN_UNDECIDED = 0,
	RUN_DECIDED_UNCHANGED,	 /* the CI lies within +-detect */
	RUN_DECIDED_REGRESSION,	 /* the CI lies above 1 */
	RUN_DECIDED_IMPROVEMENT, /* the CI lies below 1 */
	RUN_DECIDED_PRECISE,	 /* one build: its restart mean is known well enough */
};

/* "undecided", "unchanged", "regression", "improvement", "precise". */
const char *run_decision_name(enum run_decision d);

/* The level of the CI at the look after k pairs, of one of m comparisons:
 * alpha * 6 / (pi^2 k^2) / m. The weights 6 / (pi^2 k^2) sum to 1 over k = 1, 2, ... (Euler), so
 * by Bonferroni's inequality over looks and comparisons the chance that any CI of any look misses
 * its true ratio is <= alpha whenever the run stops: a repeated-CI rule valid under optional
 * stopping (cf. Jennison & Turnbull, "Group Sequential Methods with Applications to Clinical
 * Trials", 2000, ch. 9, repeated confidence intervals). Conservative; the group-sequential rule of
 * stats/ replaces it. */
double run_budget_look_alpha(double alpha, size_t k, size_t m);

/* Paired decision for one query of an interleaved A/B run: a[i], b[i] are the restart means of
 * pair i (k >= 3 pairs, all > 0). d_i = log b_i - log a_i; CI mean(d) +- t(1 - a_k / 2, k - 1) sd(d)
 * / sqrt(k) with a_k = run_budget_look_alpha(alpha, k, m). Regression when the CI lies above 0,
 * improvement below, unchanged when inside [-log(1 + detect), log(1 + detect)]; otherwise
 * undecided. out_ratio, out_lo, out_hi (may be NULL) get exp of the mean and the CI. */
enum run_decision run_budget_decide_paired(const double *a, const double *b, size_t k,
					   double detect, double alpha, size_t m,
					   double *out_ratio, double *out_lo, double *out_hi);

/* One build: decided (RUN_DECIDED_PRECISE) when k >= 3 restart means give a standard error of
 * their log mean se = sd / sqrt(k) small enough that a comparison of two such runs would find a
 * change of detect with 80% power at the per-query level alpha / m:
 * (t(1 - alpha / (2 m), k - 1) + z(0.8)) sqrt(2) se <= log(1 + detect) (the normal-theory sample
 * size relation, e.g. Chow, Shao & Wang, "Sample Size Calculations in Clinical Research", 2008,
 * sec. 3.2, with the t quantile for the estimated sd). */
enum run_decision run_budget_decide_single(const double *means, size_t k, double detect,
					   double alpha, size_t m);

#endif
