/* SPDX-License-Identifier: MIT */
/* Sequential decisions after each pair of restarts (one per variant): a group-sequential t-test
 * with Lan-DeMets alpha spending and repeated confidence intervals, per query at alpha / m.
 * Pure functions, fixed-size structs: nothing here allocates memory the caller frees.
 * Method, references and Monte Carlo: above each function in st_seq.c and docs/statistics.md. */
#ifndef DBT3_ST_SEQ_H
#define DBT3_ST_SEQ_H
#include "stats/st.h"
#include <stddef.h>

/* Most pairs a design can plan for (restarts per variant). */
#define ST_SEQ_MAX_PAIRS 128

/* How the per-query alpha is spent over the looks (information fraction t = pairs / max_pairs). */
enum st_seq_spending {
	ST_SPEND_OBF = 0,    /* O'Brien-Fleming type, Lan & DeMets 1983: little early (default) */
	ST_SPEND_POCOCK = 1, /* Pocock type, alpha log(1 + (e - 1) t): evenly */
};

/* What one pair is: restart i of old next to restart i of new in one interleaved run (paired
 * t on log ratios) or two separate runs (two-sample t, variance pooled; equal n a side). */
enum st_seq_pairing {
	ST_SEQ_PAIRED = 0,
	ST_SEQ_UNPAIRED = 1,
};

struct st_seq_opts {
	double alpha;	    /* family-wise false-alarm rate over the m queries (0.05) */
	size_t m;	    /* queries in the family: each query is tested at alpha / m (22) */
	size_t max_pairs;   /* K: the most pairs the run may measure, from the budget (10) */
	size_t first_look;  /* first pair after which a query may be decided (2: a variance) */
	double min_effect;  /* smallest change that counts, e.g. 0.02 */
	enum st_alternative alt; /* ST_TWO_SIDED (default): alpha / m over both sides; ST_GREATER:
				  * alpha / m on each side, regressions and improvements being two
				  * families (as compare's one-sided default) */
	enum st_seq_spending spending;
	enum st_seq_pairing pairing;
	size_t prior_df; /* df of a variance borrowed from a baseline (0: none; each query's
			  * state then needs st_seq_state_set_prior with these df) */
};

/* Defaults: alpha 0.05, m 22, max_pairs 10, first_look 2, min_effect 0.02, two-sided, OBF,
 * paired, no prior variance. */
void st_seq_opts_init(struct st_seq_opts *out);

/* The boundaries of one design, symmetric. z[k] is the critical normal score after pair k
 * (INFINITY where no alpha is spent: before first_look, at a look whose horizon grew so much that
 * it spends nothing, and after the last look), the boundary for a known variance; t[k] the
 * critical value of the look's t statistic (opts.pairing: paired t on k - 1 df or pooled t on
 * 2k - 2 df) with the same crossing probabilities under H0, which the decisions use
 * (st_seq_tbounds.h); spent[k] the cumulative alpha of one query through pair k, both sides
 * together; horizon[k] the K in force at look k (0 after the last look). */
struct st_seq_design {
	struct st_seq_opts opts; /* max_pairs: the horizon of the last look */
	double alpha_query;	 /* opts.alpha / opts.m */
	double z[ST_SEQ_MAX_PAIRS + 1];
	double t[ST_SEQ_MAX_PAIRS + 1];
	double spent[ST_SEQ_MAX_PAIRS + 1];
	size_t horizon[ST_SEQ_MAX_PAIRS + 1];
	size_t looks; /* the last look with a boundary (t = 1 reached, or the horizon's end) */
};

/* Computes the boundaries of a design with a fixed horizon K = opts->max_pairs (recursive
 * numerical integration: Armitage, McPherson & Rowe 1969 for z, Jennison & Turnbull 1991 for t).
 * ST_EINVAL for alpha outside (0, 1), m == 0, max_pairs outside [first_look, ST_SEQ_MAX_PAIRS],
 * first_look == 0, a negative min_effect. */
int st_seq_design_init(struct st_seq_design *out, const struct st_seq_opts *opts,
		       struct errbuf *err);

/* The same with a horizon re-estimated at every look (run --budget: K follows the measured cost
 * of the pairs): horizon[i] is K_{i+1}, the most pairs expected when look i + 1 is made, for looks
 * 1..n; boundaries exist for looks 1..n only (none after n; a fixed K is n = K copies of K).
 * opts->max_pairs is ignored (set to horizon[n - 1] in out). Spending: st_seq_spend_horizon.
 * ST_EINVAL as st_seq_design_init, and for n outside [1, ST_SEQ_MAX_PAIRS] or a K_k outside
 * [first_look, ST_SEQ_MAX_PAIRS]. */
int st_seq_design_init_horizon(struct st_seq_design *out, const struct st_seq_opts *opts,
			       const size_t *horizon, size_t n, struct errbuf *err);

enum st_seq_decision {
	ST_SEQ_UNDECIDED = 0,
	ST_SEQ_UNCHANGED = 1,
	ST_SEQ_IMPROVEMENT = 2,
	ST_SEQ_REGRESSION = 3,
};

/* The figures of one query after a pair. */
struct st_seq_look {
	size_t pairs;	     /* pairs used */
	double diff;	     /* estimated log(new / old) */
	double ratio;	     /* exp(diff) */
	double se, df, t;    /* NaN before a variance exists */
	double t_bound;	     /* critical t at this look; INFINITY when no alpha is spent here */
	double ci_lo, ci_hi; /* repeated confidence interval of the ratio; NaN while t_bound is inf */
};

/* One query's sequential state. Once decided the decision, decided_at and look are final:
 * later pairs are counted in pairs but change nothing else. */
struct st_seq_state {
	size_t pairs;			/* pairs fed */
	double prior_ss;		/* a baseline's sum of squares (variance x df), or 0 */
	size_t prior_df;		/* its degrees of freedom (0: no prior) */
	double mean_a, m2_a, mean_b, m2_b; /* Welford sums of log restart means */
	double mean_d, m2_d;		/* ... of the log ratios of the pairs */
	enum st_seq_decision decision;
	size_t decided_at; /* the pair (1-based) after which it was decided; 0 while undecided */
	struct st_seq_look look; /* the last look, or the deciding one */
};

void st_seq_state_init(struct st_seq_state *out);

/* Borrows a variance estimated independently of this run (a baseline's) on df degrees of
 * freedom: paired, the variance of the log ratio of a pair; unpaired, the variance of a log
 * restart mean within a variant. Each look's variance is then pooled with it:
 *   s^2 = (prior var x df + this run's sum of squares) / (df + this run's df),
 * on df more degrees of freedom; valid when the baseline's variance is this run's (not when
 * tonight is noisier: docs/statistics.md). Call before the first pair, with the design's
 * opts.prior_df. ST_EINVAL for a variance that is not finite and > 0, or df 0. */
int st_seq_state_set_prior(struct st_seq_state *s, double var, size_t df, struct errbuf *err);

/* Feeds the restart means (any time unit, finite and > 0) of the next pair: old mean_a, new
 * mean_b; then decides by d's boundary at this pair. ST_EINVAL on a bad mean (the state is
 * unchanged: a pair with a failed restart is left out, not counted), and when the state's prior
 * df are not the design's opts.prior_df. */
int st_seq_feed(struct st_seq_state *s, const struct st_seq_design *d, double mean_a,
		double mean_b, struct errbuf *err);

/* The fixed-sample paired test (kind ST_TEST_PAIRED) on n >= 2 pairs of restart means a[i], b[i]
 * (finite, > 0): d_i = log b_i - log a_i, diff = mean(d), se = sd(d) / sqrt(n) on n - 1 df; the
 * p-values and CIs by st_test_finish under o (sides, min-effect test, TOST); var_total as
 * st_compare. ST_ENODATA for n < 2, ST_EINVAL for a bad mean. */
int st_compare_paired(struct st_test *out, const double *a, const double *b, size_t n,
		      const struct st_compare_opts *o, struct errbuf *err);

/* "undecided", "unchanged", "improvement", "regression". */
const char *st_seq_decision_name(enum st_seq_decision v);

/* "obf", "pocock"; parse returns 0 or ST_EINVAL. */
const char *st_seq_spending_name(enum st_seq_spending s);
int st_seq_spending_parse(const char *s, enum st_seq_spending *out);

/* Cumulative alpha spent at information fraction t in [0, 1] for a total alpha (the spending
 * function itself; the design uses alpha_query). */
double st_seq_spend(enum st_seq_spending s, double alpha, double t);

/* Lan-DeMets spending under a horizon that changes between looks: out_cum[k] (k = 0..n) gets the
 * alpha of one side spent through look k, 0 before first_look, then
 *   out_cum[k] = max(out_cum[k - 1], a(min(1, k / K_k)))   (K_k = horizon[k - 1])
 * with a = st_seq_spend(s, side_alpha, .): look k spends a(t_k) minus what is already spent, never
 * a negative amount (0 where K grew), and everything left at a look with k >= K_k (t = 1).
 * Returns the last look that may spend: the first k >= first_look with k >= K_k, else n. */
size_t st_seq_spend_horizon(double *out_cum, enum st_seq_spending s, double side_alpha,
			    size_t first_look, const size_t *horizon, size_t n);

#endif
