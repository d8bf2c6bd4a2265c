/* SPDX-License-Identifier: MIT */
/* Restart-aware statistics on GSL: variance components, tests on log restart means,
 * multiplicity corrections, power, and the Mann-Kendall warm-up trend test.
 * Plain C arrays in, plain structs out; nothing here allocates memory the caller frees.
 * Formulas and references: above each function in st.c and in docs/statistics.md. */
#ifndef DBT3_ST_H
#define DBT3_ST_H
#include "base/util.h"
#include <stddef.h>

/* Return codes besides 0: bad input (non-finite or non-positive times, sizes), too little data. */
enum st_error {
	ST_EINVAL = -1,
	ST_ENODATA = -2,
};

/* ---- one query in one result file ------------------------------------------------------- */

/* One-way random-effects ANOVA, groups = restarts, observations = measured runs (any time unit;
 * callers pass milliseconds, and the variances come out in that unit squared).
 * Balanced or unbalanced (n0 of Searle, Casella & McCulloch 1992, eq. 3.10). */
struct st_anova {
	size_t k;	   /* groups (restarts) */
	size_t n;	   /* observations (runs) */
	double grand_mean; /* mean of all observations */
	double ss_within, ss_between;
	double df_within, df_between; /* n - k, k - 1 */
	double ms_within, ms_between;
	double n0;	    /* effective group size; equals the group size when balanced */
	double var_within;  /* sigma^2_e = MS_within */
	double var_between; /* sigma^2_a = max(0, (MS_between - MS_within) / n0) */
	double f, p; /* F = MSB/MSW on (k-1, n-k) df and its upper-tail p; NaN if undefined */
};

/* Fills out from runs laid out restart after restart: restart i has nruns[i] values. Needs
 * k >= 1 and every nruns[i] >= 1; a component that cannot be estimated is NaN. */
int st_anova_oneway(struct st_anova *out, const double *runs, const size_t *nruns, size_t k,
		    struct errbuf *err);

/* The figures `summary` prints for one query. */
struct st_query_stats {
	size_t n_restarts, n_runs;
	double mean;	    /* mean of all runs (the unit of the input, ms for every caller) */
	double gmean;	    /* geometric mean of the restart means (same unit) */
	double cov_within;  /* sqrt(anova.var_within) / anova.grand_mean */
	double cov_between; /* sqrt(anova.var_between) / anova.grand_mean: restart noise */
	double sd_log;	    /* sd of log restart means (k - 1 df): the noise the tests see */
	struct st_anova anova;
};

/* out_means (may be NULL) receives the k restart means; runs/nruns as for st_anova_oneway.
 * Every time must be finite and > 0. */
int st_query_stats_compute(struct st_query_stats *out, double *out_means, const double *runs,
			   const size_t *nruns, size_t k, struct errbuf *err);

/* Arithmetic means of each restart's runs into out[k]. */
int st_restart_means(double *out, const double *runs, const size_t *nruns, size_t k,
		     struct errbuf *err);

/* Geometric mean exp(mean(log x)); NaN if n == 0 or any x <= 0. */
double st_gmean(const double *x, size_t n);

/* The geometric mean of x[0..n) (all > 0) with its two-sided 1 - alpha CI from Student's t on
 * the logs (n - 1 df); every output NaN when n == 0 or an x is not > 0, the CI NaN when n < 2. */
void st_gmean_ci(double *out_gmean, double *out_lo, double *out_hi, const double *x, size_t n,
		 double alpha);

/* The noise of one query as the tests see it: the sd of the log restart means with its
 * chi-square CI and upper bound, split into a within-restart part (the run noise averaged in a
 * restart mean) and a between-restart part. */
struct st_noise {
	size_t k;	     /* restarts */
	double sd_log;	     /* sd of log restart means, k - 1 df */
	double sd_lo, sd_hi; /* its two-sided CI at the level asked */
	double sd_ucb;	     /* its one-sided upper confidence bound at the level asked */
	double sd_within;    /* sqrt(pooled var of log runs within restarts x mean(1/n_r)) */
	double sd_between;   /* sqrt(max(0, sd_log^2 - sd_within^2)); bounded above by sd_ucb */
};

/* CI [lo, hi] (two-sided, level e.g. 0.95) and one-sided upper bound of a standard deviation s
 * on df degrees of freedom from the chi-square distribution of df s^2 / sigma^2. */
void st_sd_ci(double *out_lo, double *out_hi, double *out_ucb, double s, double df, double level);

/* Needs k >= 2 restarts with >= 1 run each (all > 0); the within part needs a restart with 2
 * runs (else 0). level: of the CI and the bound (0.95). */
int st_noise_compute(struct st_noise *out, const double *runs, const size_t *nruns, size_t k,
		     double level, struct errbuf *err);

/* Run-position effect over restarts (warm-up transient): two-way ANOVA without replication on
 * the log runs, rows restarts, columns positions 1..n (n = the fewest runs of any restart). */
struct st_position {
	size_t k, n;   /* restarts, positions */
	double f, p;   /* F = MS_position / MS_residual on (n - 1, (k - 1)(n - 1)) df */
	double ms_res; /* residual mean square (log scale) */
};

/* out_effect[n] (may be NULL): position mean minus the median position mean of the log runs
 * (about the relative slowdown at that position); out_flag[n] (needs out_effect): 1 for
 * positions whose effect exceeds the Bonferroni t bound at alpha over the n positions. Needs k >= 2, n >= 2; n is at
 * most max_n (the size of the arrays). */
int st_position_effect(struct st_position *out, double *out_effect, int *out_flag,
		       size_t max_n, const double *runs, const size_t *nruns, size_t k,
		       double alpha, struct errbuf *err);

/* ---- comparing two results, one query ------------------------------------------------------ */

/* How the restart variance of log restart means is estimated. */
enum st_method {
	ST_METHOD_WELCH = 0, /* per query Welch t, Welch-Satterthwaite df (default) */
	ST_METHOD_EB = 1, /* moderated t (Smyth 2004): each query's pooled variance shrunk towards
			   * a prior fitted across all queries; df = d0 + n_a + n_b - 2.
			   * Experimental: exceeds the false-alarm bound when queries differ
			   * (docs/statistics.md) */
	ST_METHOD_POOLED = 2, /* per query Student t with the variance pooled over both sides and a
			       * baseline if given: df = n_a + n_b - 2 (+ baseline df) */
	ST_METHOD_AUTO = 3,   /* per query: pooled when n_a == n_b and the variance-ratio F test
			       * shows no evidence of unequal variances (p >= var_alpha), Welch
			       * otherwise (st_compare) */
};

enum st_alternative {
	ST_TWO_SIDED = 0, /* regressions and improvements */
	ST_GREATER = 1,	  /* new slower than old only (regressions) */
};

/* A variance of log restart means with its degrees of freedom; df == 0 means "none". */
struct st_prior {
	double var;
	double df;
};

/* Summary of one side: n restart means, mean and sample variance of their logs. */
struct st_sample {
	size_t n;
	double mean_log;
	double var_log; /* NaN when n < 2 */
};

/* Which test was actually run. */
enum st_test_kind {
	ST_TEST_NONE = 0,      /* inconclusive: fewer than 2 restarts on a side and no baseline */
	ST_TEST_WELCH = 1,     /* Welch t, both variances from the two files */
	ST_TEST_BASELINE = 2,  /* pooled with a baseline variance (prior.df added to the df) */
	ST_TEST_MODERATED = 3, /* empirical-Bayes moderated t */
	ST_TEST_POOLED = 4,    /* Student t, variance pooled over the two sides only */
	ST_TEST_PAIRED = 5,    /* paired t on the log ratios of restart pairs (stats/st_seq.h) */
	ST_TEST_ADJUSTED = 6,  /* two-sample t adjusted for a covariate (ANCOVA, stats/st_adjust.h) */
	ST_TEST_PAIRED_ADJUSTED = 7, /* paired t adjusted for a covariate (stats/st_adjust.h) */
};

/* Whether a baseline variance went into a test, and if not why. */
enum st_baseline_use {
	ST_BASE_NONE = 0,	 /* no baseline for this query */
	ST_BASE_USED = 1,	 /* pooled in, its df added */
	ST_BASE_UNUSED_WELCH = 2, /* Welch was run (by --method welch or by the auto rule) */
	ST_BASE_UNUSED_NOISE = 3, /* the current restart variance is larger than the baseline's
				   * (one-sided F test p < var_alpha): the host got noisier */
	ST_BASE_UNUSED_PAIRED = 4, /* the paired t was run: its variance is that of the pair
				    * differences, which a baseline's restart variance is not */
};

/* The comparison of one query: ratio of geometric means new/old with a CI and the test. */
struct st_test {
	enum st_test_kind kind;
	size_t n_a, n_b;     /* restarts old (a), new (b) */
	double diff;	     /* mean log b - mean log a */
	double ratio;	     /* exp(diff) = gmean(b) / gmean(a) */
	double se, df, t, p; /* p raw (before correction); NaN when kind == ST_TEST_NONE */
	double ci_lo, ci_hi; /* two-sided (1 - alpha) CI of ratio, per query (not adjusted for
			      * multiplicity); NaN when untested */
	double var_total;    /* sample variance of all n_a + n_b log means, sides ignored */
	double shift;	     /* log(1 + min_effect) with min_effect_test, else 0 */
	double p_greater;    /* one-sided p of H0 diff <= shift (new not slower by more) */
	double p_less;	     /* one-sided p of H0 diff >= -shift (new not faster by more) */
	double p_tost;	     /* TOST p of H0 |diff| >= log(1 + min_effect) (Schuirmann 1987) */
	double tost_lo, tost_hi; /* the (1 - 2 alpha) CI of ratio (90% at alpha 0.05) */
	double ci_sim_lo, ci_sim_hi; /* simultaneous (1 - alpha) CI over the tested queries
				      * (Bonferroni; set by st_decide_ext), else NaN */
	double var_f_p;		     /* two-sided p of the variance-ratio F test; NaN if not run */
	enum st_baseline_use base_use;
	double base_df;		     /* df the baseline added (0 when unused) */
	double adj_slope;	     /* the adjusted kinds: the fitted slope on the covariate */
	double adj_sd_ratio;	     /* ... the residual sd over the unadjusted test's sd */
};

/* Logs and summarises n restart means (all finite and > 0). */
int st_sample_init(struct st_sample *out, const double *means, size_t n, struct errbuf *err);

/* Options of a comparison; st_compare_opts_init sets the defaults (Welch, two-sided, alpha 0.05,
 * no baseline, no prior). */
struct st_compare_opts {
	enum st_method method;
	enum st_alternative alt;
	double alpha;		  /* CI level 1 - alpha (tests are corrected later) */
	struct st_prior baseline; /* from a baseline result (st_baseline_prior); df 0 = none */
	struct st_prior eb;	  /* ST_METHOD_EB: across-query prior (st_eb_prior_fit) */
	double min_effect;	  /* equivalence margin of the TOST and shift of the min-effect
				   * test: log(1 + min_effect) (0.02) */
	int min_effect_test;	  /* 1: test H0 ratio <= 1 + min_effect (shifted one-sided) */
	double var_alpha;	  /* level of the F tests of the auto rule and of the baseline
				   * check (0.05) */
};
void st_compare_opts_init(struct st_compare_opts *out);

/* Tests log(b) - log(a) for one query. Fewer than 2 restarts on a side: a test only with a
 * baseline (variance pooled with it, its df added), else ST_TEST_NONE (inconclusive).
 * ST_METHOD_WELCH with >= 2 restarts a side: Welch (the baseline is not used, base_use says so).
 * ST_METHOD_POOLED: pooled variance of both sides and the baseline.
 * ST_METHOD_AUTO: pooled when n_a == n_b and the F test finds no evidence of unequal variances,
 * the baseline pooled in unless the current variance is larger (one-sided F test); else Welch.
 * ST_METHOD_EB: pooled variance of both sides combined with opts->eb (and the baseline). */
int st_compare(struct st_test *out, const struct st_sample *a, const struct st_sample *b,
	       const struct st_compare_opts *opts, struct errbuf *err);

/* For a test filled elsewhere (diff, se, df set; e.g. st_compare_paired): t, p, p_greater,
 * p_less, p_tost, ratio and the CIs as st_compare computes them under o. */
void st_test_finish(struct st_test *out, const struct st_compare_opts *o);

/* Convenience: st_sample_init on both sides, then st_compare. */
int st_compare_means(struct st_test *out, const double *a, size_t n_a, const double *b, size_t n_b,
		     const struct st_compare_opts *opts, struct errbuf *err);

/* All m queries at once: for ST_METHOD_EB fits opts->eb from the m pooled variances first
 * (falls back to Welch per query when fewer than 3 queries have a variance; out_prior, may be
 * NULL, receives the prior used, df 0 if none). baseline[i] (array may be NULL) is query i's
 * baseline prior and overrides opts->baseline. */
int st_compare_all(struct st_test *out, struct st_prior *out_prior, const struct st_sample *a,
		   const struct st_sample *b, size_t m, const struct st_prior *baseline,
		   const struct st_compare_opts *opts, struct errbuf *err);

/* Pooled within-side variance of log restart means of one query ((n_a-1)s_a^2 + (n_b-1)s_b^2)
 * / (n_a+n_b-2); out->df = n_a+n_b-2 (0 and var NaN when no side has 2 restarts). */
void st_sample_pooled_var(struct st_prior *out, const struct st_sample *a,
			  const struct st_sample *b);

/* Baseline variance of one query from a baseline result's restart means (n >= 2): sample
 * variance of the logs with n - 1 df. */
int st_baseline_prior(struct st_prior *out, const double *means, size_t n, struct errbuf *err);

/* Pools two variance estimates of the same query (e.g. several baseline results):
 * var = (df_a var_a + df_b var_b) / (df_a + df_b), df = df_a + df_b; a side with df 0 is ignored.
 */
void st_prior_pool(struct st_prior *out, const struct st_prior *a, const struct st_prior *b);

/* Fits the scaled inverse chi-square prior (s0^2, d0) to m per-query variances var[i] with df[i]
 * degrees of freedom by the method of moments on log variances (Smyth 2004, sec. 6.2). Entries
 * with df <= 0 or non-finite var are skipped; needs >= 3 usable. d0 may be +inf (all equal). */
int st_eb_prior_fit(struct st_prior *out, const double *var, const double *df, size_t m,
		    struct errbuf *err);

/* ---- many queries ----------------------------------------------------------------------- */

enum st_correction {
	ST_CORR_HOLM = 0, /* Holm 1979 step-down: family-wise error rate (default) */
	ST_CORR_BH = 1,	  /* Benjamini-Hochberg 1995 step-up: false discovery rate */
	ST_CORR_NONE = 2,
};

/* Adjusted p-values into out[m] (may alias p), as R's p.adjust: NaN entries are left NaN and
 * not counted in m. */
void st_p_adjust(double *out, const double *p, size_t m, enum st_correction corr);

enum st_verdict {
	ST_VERDICT_UNCHANGED = 0,
	ST_VERDICT_IMPROVEMENT = 1,
	ST_VERDICT_REGRESSION = 2,
	ST_VERDICT_INCONCLUSIVE = 3,
};

/* Verdict of one query: untested -> inconclusive; regression when p_adj < alpha and
 * ratio >= 1 + min_effect; improvement when p_adj < alpha and ratio <= 1 / (1 + min_effect)
 * (never with ST_GREATER); otherwise unchanged. */
enum st_verdict st_verdict_of(const struct st_test *t, double p_adj, double alpha,
			      double min_effect, enum st_alternative alt);

/* Options of st_decide_ext. */
struct st_decide_opts {
	enum st_correction corr;
	double alpha;
	double min_effect;
	enum st_alternative alt; /* ST_GREATER: improvements are a second family (p_less), which
				  * does not spend the regressions' alpha */
	int min_effect_test;	 /* the tests were run shifted (st_compare_opts.min_effect_test) */
};

/* The decision of m queries: regressions when the corrected p (p_greater, or the two-sided p) <
 * alpha and diff > 0 (and, without the min-effect test, ratio >= 1 + min_effect); improvements
 * likewise from p_less, corrected in their own family under ST_GREATER (out_padj_impr, may be
 * NULL); unchanged otherwise (st_tost_rules_out decides unchanged vs inconclusive). Fills the
 * simultaneous CIs of tests (Bonferroni over the tested queries). Returns the regressions. */
size_t st_decide_ext(enum st_verdict *out_verdict, double *out_padj, double *out_padj_impr,
		     struct st_test *tests, size_t m, const struct st_decide_opts *o);

/* 1 when the two one-sided tests reject |log ratio| >= log(1 + min_effect) at alpha each
 * (p_tost < alpha), i.e. the (1 - 2 alpha) CI lies inside the margin; per query, not corrected. */
int st_tost_rules_out(const struct st_test *t, double alpha);

/* 1 when t's CI lies inside [1/(1+min_effect), 1+min_effect], i.e. it rules out a change of
 * min_effect either way (equivalence by CI inclusion); 0 otherwise or when untested. A verdict
 * of unchanged needs this; without it, "not flagged" is inconclusive. */
int st_ci_rules_out(const struct st_test *t, double min_effect);

/* "unchanged", "improvement", "regression", "inconclusive". */
const char *st_verdict_name(enum st_verdict v);

/* Method names for option parsing and output: "welch", "pooled", "eb"; "holm", "bh", "none". */
const char *st_method_name(enum st_method m);
int st_method_parse(const char *s, enum st_method *out);
const char *st_correction_name(enum st_correction c);
int st_correction_parse(const char *s, enum st_correction *out);

enum st_overall_kind {
	ST_OVERALL_BY_RESTART = 0, /* Welch t on per-restart means of log times over all queries */
	ST_OVERALL_INDEPENDENT = 1 /* mean of per-query log ratios, variances summed (independence),
				    * Satterthwaite df */
};

/* The overall geometric-mean ratio over all compared queries. */
struct st_overall {
	enum st_overall_kind kind;
	size_t n_queries;
	double diff, ratio, se, df, t, p, ci_lo, ci_hi; /* as in st_test */
};

/* By restart: a[r * nq + q] is the restart mean of query q in restart r of the old file (na
 * restarts), b likewise (nb). Each restart gives g_r = mean_q log x[r,q]; restarts with a
 * non-finite or non-positive value are skipped. Welch on the g_r of the two sides, so shared
 * restart effects across queries are accounted for. ST_ENODATA when a side keeps < 2 restarts. */
int st_overall_by_restart(struct st_overall *out, const double *a, size_t na, const double *b,
			  size_t nb, size_t nq, double alpha, struct errbuf *err);

/* Fallback from m per-query tests (untested ones skipped): diff = mean diff_q, se^2 =
 * sum se_q^2 / m^2, df by Welch-Satterthwaite. ST_ENODATA when no query was tested. */
int st_overall_from_tests(struct st_overall *out, const struct st_test *tests, size_t m,
			  double alpha, struct errbuf *err);

/* ---- power --------------------------------------------------------------------------------- */

/* A planned comparison of one query among m with per-side n restarts. */
struct st_power_spec {
	double effect; /* true ratio - 1 to detect, e.g. 0.03 (a slowdown) */
	double sd_log; /* between-restart sd of log restart means (st_query_stats.sd_log) */
	double alpha;  /* family alpha */
	size_t m;      /* queries tested at once (>= 1) */
	enum st_correction corr;
	double min_effect; /* also require the estimated ratio >= 1 + min_effect */
	enum st_method method;
	struct st_prior eb; /* ST_METHOD_EB: the fitted prior (its var is a fixed number) */
	double baseline_df; /* POOLED, EB: df of a baseline variance of this query (0: none) */
	enum st_alternative alt;
	int min_effect_test; /* the shifted test: reject when D > log(1+min_effect) + c se */
};

/* Probability of a regression verdict with n restarts a side (n >= 2) for the model of
 * log-normal restart means with equal variances on both sides: Welch by integrating over the two
 * sample variances, pooled/EB/baseline tests over the one chi-square they depend on; at the
 * per-test level alpha/m (the first step of Holm and of BH when one query changed). */
double st_power(const struct st_power_spec *spec, size_t n);

/* Smallest n in [2, max_n] whose st_power >= target (e.g. 0.8); ST_ENODATA if none. */
int st_restarts_needed(size_t *out, const struct st_power_spec *spec, double target, size_t max_n);

/* ---- warm-up trend -------------------------------------------------------------------------- */

/* Mann-Kendall trend test on a series in run order. */
struct st_mk {
	size_t n;
	double s;     /* sum of sign(x_j - x_i), i < j */
	double var_s; /* with tie correction */
	double z;     /* continuity-corrected normal score */
	double p;     /* two-sided; exact permutation p when there are no ties and n <= 40 */
	double tau;   /* Kendall's tau-b against time */
	double slope; /* Sen's slope (median of pairwise slopes), per run */
	int exact;    /* 1 when p is exact */
};

/* Needs n >= 3 finite values; p == 1 when all values are equal. */
int st_mann_kendall(struct st_mk *out, const double *x, size_t n, struct errbuf *err);

/* 1 when the measured runs of one restart still trend (Mann-Kendall p < alpha): `not_steady`. */
int st_not_steady(const double *x, size_t n, double alpha);

#endif
