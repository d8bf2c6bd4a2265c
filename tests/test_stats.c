/* SPDX-License-Identifier: MIT */
/* stats/: every figure against a published worked example or an exact hand computation. */
#include "stats/st.h"
#include "stats/st_restart_summary.h"
#include "tests/harness.h"
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* R's "sleep" data (Cushny & Peebles 1905, as in Student 1908): extra hours of sleep, drug 1 and
 * drug 2, ten patients each. */
static const double sleep1[] = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
static const double sleep2[] = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};

/* The tests work on log restart means: feeding exp(x) makes them test x itself. */
static void exp_of(double *out, const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = exp(x[i]);
}

/* R's sleep data (two groups of 10) as restart means, and the default options. */
static void sleep_means(double a[10], double b[10], struct st_compare_opts *o)
{
	exp_of(a, sleep1, 10);
	exp_of(b, sleep2, 10);
	st_compare_opts_init(o);
}

/* R 4.x: t.test(extra ~ group, data = sleep) prints
 *   t = -1.8608, df = 17.776, p-value = 0.07939
 *   95 percent confidence interval: -3.3654832  0.2054832
 * (group 1 minus group 2; here new = group 2, so the signs flip). */
TH_TEST(stats, welch_matches_r_sleep)
{
	double a[10], b[10];
	struct st_test t;
	struct st_compare_opts o;
	struct errbuf err;
	sleep_means(a, b, &o);
	CU_ASSERT_EQUAL_FATAL(st_compare_means(&t, a, 10, b, 10, &o, &err), 0);
	CU_ASSERT_EQUAL(t.kind, ST_TEST_WELCH);
	CU_ASSERT_DOUBLE_EQUAL(t.diff, 1.58, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t.t, 1.8608, 5e-5);
	CU_ASSERT_DOUBLE_EQUAL(t.df, 17.776, 5e-4);
	CU_ASSERT_DOUBLE_EQUAL(t.p, 0.07939, 5e-6);
	CU_ASSERT_DOUBLE_EQUAL(log(t.ci_lo), -0.2054832, 5e-7);
	CU_ASSERT_DOUBLE_EQUAL(log(t.ci_hi), 3.3654832, 5e-7);
	CU_ASSERT_DOUBLE_EQUAL(t.ratio, exp(1.58), 1e-9);

	/* one-sided "new slower": half the two-sided p when t > 0 */
	o.alt = ST_GREATER;
	CU_ASSERT_EQUAL_FATAL(st_compare_means(&t, a, 10, b, 10, &o, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(t.p, 0.07939 / 2, 5e-6);
}

/* R: t.test(extra ~ group, data = sleep, var.equal = TRUE) prints
 *   t = -1.8608, df = 18, p-value = 0.07919;  CI -3.363874  0.203874.
 * ST_METHOD_POOLED, and ST_METHOD_EB when the across-query prior is empty. */
TH_TEST(stats, pooled_matches_r_student)
{
	double a[10], b[10];
	struct st_test t;
	struct st_compare_opts o;
	struct errbuf err;
	sleep_means(a, b, &o);
	for (int i = 0; i < 2; i++) {
		o.method = i ? ST_METHOD_EB : ST_METHOD_POOLED;
		CU_ASSERT_EQUAL_FATAL(st_compare_means(&t, a, 10, b, 10, &o, &err), 0);
		CU_ASSERT_EQUAL(t.kind, ST_TEST_POOLED);
		CU_ASSERT_DOUBLE_EQUAL(t.t, 1.8608, 5e-5);
		CU_ASSERT_DOUBLE_EQUAL(t.df, 18, 1e-12);
		CU_ASSERT_DOUBLE_EQUAL(t.p, 0.07919, 5e-6);
		CU_ASSERT_DOUBLE_EQUAL(log(t.ci_lo), -0.203874, 5e-7);
		CU_ASSERT_DOUBLE_EQUAL(log(t.ci_hi), 3.363874, 5e-7);
	}
	/* a baseline adds its variance and df: with group 1 again as baseline, s^2 = (9*3.2005556 +
	 * 18*s_p^2) / 27 with s_p^2 = 3.6047778 (R: (var(g1) + var(g2)) / 2) */
	o.method = ST_METHOD_POOLED;
	CU_ASSERT_EQUAL_FATAL(st_baseline_prior(&o.baseline, a, 10, &err), 0);
	CU_ASSERT_EQUAL_FATAL(st_compare_means(&t, a, 10, b, 10, &o, &err), 0);
	CU_ASSERT_EQUAL(t.kind, ST_TEST_BASELINE);
	CU_ASSERT_DOUBLE_EQUAL(t.df, 27, 0);
	CU_ASSERT_DOUBLE_EQUAL(t.se, sqrt((9 * 3.2005556 + 18 * 3.6047778) / 27 * 0.2), 1e-6);
	/* two baselines pool the same way: (9 * 3.2005556 + 9 * v2) / 18, v2 = var(group 2) */
	{
		struct st_prior b2, both, none = {NAN, 0};
		CU_ASSERT_EQUAL_FATAL(st_baseline_prior(&b2, b, 10, &err), 0);
		st_prior_pool(&both, &o.baseline, &b2);
		CU_ASSERT_DOUBLE_EQUAL(both.df, 18, 0);
		CU_ASSERT_DOUBLE_EQUAL(both.var, 3.6047778, 1e-6);
		st_prior_pool(&both, &none, &b2);
		CU_ASSERT_DOUBLE_EQUAL(both.var, b2.var, 0);
		CU_ASSERT_DOUBLE_EQUAL(both.df, 9, 0);
	}
}

/* One restart a side: inconclusive without a baseline; with one, the baseline variance s_b^2 on
 * d_b df gives se = sqrt(s_b^2 (1/1 + 1/1)), t on d_b df. Baseline = sleep group 1: s^2 =
 * 3.200556 (var(sleep$extra[1:10]) in R), 9 df. */
TH_TEST(stats, one_restart_needs_baseline)
{
	double a[1] = {exp(0.0)}, b[1] = {exp(2.0)}, base[10];
	struct st_test t;
	struct st_compare_opts o;
	struct errbuf err;

	st_compare_opts_init(&o);
	CU_ASSERT_EQUAL_FATAL(st_compare_means(&t, a, 1, b, 1, &o, &err), 0);
	CU_ASSERT_EQUAL(t.kind, ST_TEST_NONE);
	CU_ASSERT(isnan(t.p));
	CU_ASSERT_DOUBLE_EQUAL(t.ratio, exp(2.0), 1e-12);
	CU_ASSERT_EQUAL(st_verdict_of(&t, NAN, 0.05, 0.02, ST_TWO_SIDED), ST_VERDICT_INCONCLUSIVE);

	exp_of(base, sleep1, 10);
	CU_ASSERT_EQUAL_FATAL(st_baseline_prior(&o.baseline, base, 10, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(o.baseline.var, 3.2005556, 5e-7);
	CU_ASSERT_DOUBLE_EQUAL(o.baseline.df, 9, 0);
	CU_ASSERT_EQUAL_FATAL(st_compare_means(&t, a, 1, b, 1, &o, &err), 0);
	CU_ASSERT_EQUAL(t.kind, ST_TEST_BASELINE);
	CU_ASSERT_DOUBLE_EQUAL(t.df, 9, 0);
	CU_ASSERT_DOUBLE_EQUAL(t.se, sqrt(3.2005556 * 2), 1e-6);
	/* t = 2 / 2.530039 = 0.7905008; P(|T_9| > t) = I_{9/(9+t^2)}(4.5, 0.5) = 0.4495626
	 * (regularized incomplete beta, evaluated with mpmath at 30 digits) */
	CU_ASSERT_DOUBLE_EQUAL(t.t, 0.7905008, 1e-7);
	CU_ASSERT_DOUBLE_EQUAL(t.p, 0.4495626, 1e-7);

	/* one side with 2 restarts adds its variance and 1 df */
	{
		double a2[2] = {exp(0.0), exp(1.0)};
		CU_ASSERT_EQUAL_FATAL(st_compare_means(&t, a2, 2, b, 1, &o, &err), 0);
		CU_ASSERT_EQUAL(t.kind, ST_TEST_BASELINE);
		CU_ASSERT_DOUBLE_EQUAL(t.df, 10, 0);
		CU_ASSERT_DOUBLE_EQUAL(t.se, sqrt((9 * 3.2005556 + 0.5) / 10 * 1.5), 1e-6);
	}
}

TH_TEST(stats, rejects_bad_input)
{
	double bad[3] = {1, 0, 2}, nan3[3] = {1, NAN, 2}, ok[2] = {1, 2};
	struct st_sample s;
	struct st_test t;
	struct st_compare_opts o;
	struct errbuf err;

	CU_ASSERT_EQUAL(st_sample_init(&s, bad, 3, &err), ST_EINVAL);
	CU_ASSERT_EQUAL(st_sample_init(&s, nan3, 3, &err), ST_EINVAL);
	CU_ASSERT_EQUAL(st_sample_init(&s, ok, 0, &err), ST_ENODATA);
	st_compare_opts_init(&o);
	o.alpha = 1.5;
	CU_ASSERT_EQUAL(st_compare_means(&t, ok, 2, ok, 2, &o, &err), ST_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "alpha"));
}

/* Benjamini & Hochberg (1995, JRSS B 57:289-300, sec. 4.2): 15 p-values of a trial; at 0.05 their
 * procedure rejects 4, Bonferroni-type procedures 3. Adjusted values as R's
 * p.adjust(p, "holm") / p.adjust(p, "BH"), computed by hand from the step formulas. */
TH_TEST(stats, holm_bh_match_benjamini_hochberg_1995)
{
	static const double p[15] = {0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344,
				     0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000};
	static const double holm[15] = {0.0015, 0.0056, 0.0247, 0.114, 0.2211, 0.278, 0.278, 0.278,
					0.3213, 1,	1,	1,     1,      1,     1};
	static const double bh[15] = {0.0015,	 0.003,	    0.0095,    0.035625,  0.0603,
				      0.0638571, 0.0638571, 0.0645,    0.0765,	  0.486,
				      0.5811818, 0.714875,  0.7532308, 0.8132143, 1};
	double out[15];
	int nh = 0, nb = 0;

	st_p_adjust(out, p, 15, ST_CORR_HOLM);
	for (int i = 0; i < 15; i++) {
		CU_ASSERT_DOUBLE_EQUAL(out[i], holm[i], 1e-7);
		nh += out[i] < 0.05;
	}
	st_p_adjust(out, p, 15, ST_CORR_BH);
	for (int i = 0; i < 15; i++) {
		CU_ASSERT_DOUBLE_EQUAL(out[i], bh[i], 1e-7);
		nb += out[i] < 0.05;
	}
	CU_ASSERT_EQUAL(nh, 3);
	CU_ASSERT_EQUAL(nb, 4);
	st_p_adjust(out, p, 15, ST_CORR_NONE);
	CU_ASSERT_DOUBLE_EQUAL(out[3], 0.0095, 0);
}

/* Unsorted input, NaN (untested queries) skipped and not counted, in-place use. R:
 * p.adjust(c(0.04, NA, 0.01, 0.03, 0.02, 0.05), "holm") = 0.09 NA 0.05 0.09 0.08 0.09
 * (sorted: .01*5, max(.05, .02*4), max(.08, .03*3), max(.09, .04*2), max(.09, .05*1));
 * "BH" = 0.05 NA 0.05 0.05 0.05 0.05. */
TH_TEST(stats, p_adjust_skips_nan_and_unsorted)
{
	double p[6] = {0.04, NAN, 0.01, 0.03, 0.02, 0.05};
	double q[6];
	static const double holm[6] = {0.09, NAN, 0.05, 0.09, 0.08, 0.09};

	st_p_adjust(q, p, 6, ST_CORR_BH);
	for (int i = 0; i < 6; i++)
		if (i != 1)
			CU_ASSERT_DOUBLE_EQUAL(q[i], 0.05, 1e-15);
	CU_ASSERT(isnan(q[1]));
	st_p_adjust(p, p, 6, ST_CORR_HOLM);
	for (int i = 0; i < 6; i++)
		if (i != 1)
			CU_ASSERT_DOUBLE_EQUAL(p[i], holm[i], 1e-15);
	CU_ASSERT(isnan(p[1]));
}

/* Verdicts: significance after correction AND size (table-driven). */
TH_TEST(stats, verdict_needs_significance_and_size)
{
	static const struct {
		double diff, padj;
		enum st_alternative alt;
		enum st_verdict want;
	} cases[] = {
	    {0.10, 0.001, ST_TWO_SIDED, ST_VERDICT_REGRESSION},
	    {0.015, 0.001, ST_TWO_SIDED, ST_VERDICT_UNCHANGED}, /* significant, below 2% */
	    {0.10, 0.06, ST_TWO_SIDED, ST_VERDICT_UNCHANGED},	/* big, not significant */
	    {-0.10, 0.001, ST_TWO_SIDED, ST_VERDICT_IMPROVEMENT},
	    {-0.10, 0.001, ST_GREATER, ST_VERDICT_UNCHANGED},
	    {-0.019, 0.001, ST_TWO_SIDED, ST_VERDICT_UNCHANGED}, /* 1/1.02 is -0.0198 */
	    {0.0198027, 0.001, ST_TWO_SIDED, ST_VERDICT_REGRESSION},
	    {0.10, NAN, ST_TWO_SIDED, ST_VERDICT_INCONCLUSIVE},
	};
	for (size_t i = 0; i < NELEM(cases); i++) {
		struct st_test t = {.kind = ST_TEST_WELCH, .diff = cases[i].diff};
		CU_ASSERT_EQUAL(st_verdict_of(&t, cases[i].padj, 0.05, 0.02, cases[i].alt),
				cases[i].want);
	}
	CU_ASSERT_STRING_EQUAL(st_verdict_name(ST_VERDICT_REGRESSION), "regression");
	{
		enum st_correction c;
		enum st_method m;
		CU_ASSERT_EQUAL(st_correction_parse("bh", &c), 0);
		CU_ASSERT_EQUAL(c, ST_CORR_BH);
		CU_ASSERT_EQUAL(st_correction_parse("sidak", &c), -1);
		CU_ASSERT_EQUAL(st_method_parse("eb", &m), 0);
		CU_ASSERT_STRING_EQUAL(st_method_name(m), "eb");
		CU_ASSERT_EQUAL(st_method_parse("pooled", &m), 0);
		CU_ASSERT_EQUAL(m, ST_METHOD_POOLED);
		CU_ASSERT_EQUAL(st_method_parse("t", &m), -1);
	}
}

/* Dyestuff (Davies 1947, "Statistical Methods in Research and Production", Table 6.3; lme4's
 * Dyestuff): 6 batches x 5 preparations. Published ANOVA: MS between 11271.5 on 5 df, MS within
 * 2451.25 on 24 df, so s_a^2 = (11271.5 - 2451.25) / 5 = 1764.05 (lme4's REML fit prints the same
 * 1764.0 and 2451.2, as REML equals ANOVA for balanced data with a positive estimate). */
TH_TEST(stats, anova_matches_dyestuff)
{
	static const double y[30] = {1545, 1440, 1440, 1520, 1580, 1540, 1555, 1490, 1560, 1495,
				     1595, 1550, 1605, 1510, 1560, 1445, 1440, 1595, 1465, 1545,
				     1595, 1630, 1515, 1635, 1625, 1520, 1455, 1450, 1480, 1445};
	static const size_t n[6] = {5, 5, 5, 5, 5, 5};
	struct st_anova a;
	struct errbuf err;

	CU_ASSERT_EQUAL_FATAL(st_anova_oneway(&a, y, n, 6, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(a.grand_mean, 1527.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(a.ms_between, 11271.5, 1e-7);
	CU_ASSERT_DOUBLE_EQUAL(a.ms_within, 2451.25, 1e-7);
	CU_ASSERT_DOUBLE_EQUAL(a.n0, 5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(a.var_between, 1764.05, 1e-7);
	CU_ASSERT_DOUBLE_EQUAL(a.df_between, 5, 0);
	CU_ASSERT_DOUBLE_EQUAL(a.df_within, 24, 0);
	/* F = 11271.5 / 2451.25 = 4.598266 on (5, 24) df; p = I_{24/(24+5F)}(12, 2.5) = 0.0043975
	 * (regularized incomplete beta, mpmath at 30 digits) */
	CU_ASSERT_DOUBLE_EQUAL(a.f, 4.5982662, 1e-7);
	CU_ASSERT_DOUBLE_EQUAL(a.p, 0.0043975, 1e-7);
}

/* Unbalanced, by hand in exact fractions: groups {10,12,11}, {14,15}, {9,8,10,9}. N = 9,
 * grand mean 98/9, SSB = 727/18, SSW = 9/2, MSB = 727/36, MSW = 3/4,
 * n0 = (9 - (9+4+16)/9) / 2 = 26/9, s_a^2 = (727/36 - 3/4) / (26/9) = 175/26. */
TH_TEST(stats, anova_unbalanced_by_hand)
{
	static const double y[9] = {10, 12, 11, 14, 15, 9, 8, 10, 9};
	static const size_t n[3] = {3, 2, 4};
	struct st_anova a;
	struct errbuf err;

	CU_ASSERT_EQUAL_FATAL(st_anova_oneway(&a, y, n, 3, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(a.grand_mean, 98.0 / 9, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(a.ss_between, 727.0 / 18, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(a.ss_within, 4.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(a.n0, 26.0 / 9, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(a.var_within, 0.75, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(a.var_between, 175.0 / 26, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(a.f, 727.0 / 27, 1e-10);

	/* between smaller than within: truncated at 0, not negative */
	{
		static const double z[6] = {1, 3, 2, 2, 3, 1};
		static const size_t nz[3] = {2, 2, 2};
		CU_ASSERT_EQUAL_FATAL(st_anova_oneway(&a, z, nz, 3, &err), 0);
		CU_ASSERT_EQUAL(a.var_between, 0);
	}
	/* one run per restart: the components cannot be separated */
	{
		static const double z[3] = {1, 2, 3};
		static const size_t nz[3] = {1, 1, 1};
		CU_ASSERT_EQUAL_FATAL(st_anova_oneway(&a, z, nz, 3, &err), 0);
		CU_ASSERT(isnan(a.var_between));
		CU_ASSERT(isnan(a.var_within));
	}
}

/* The ANOVA estimators are unbiased for unbalanced data too (Searle et al. 1992, sec. 3.6):
 * the mean over 4000 simulated data sets of restart sizes 2,5,10,3 with s_a = 2, s_e = 1 must be
 * within 4 standard errors of 4 and 1. */
TH_TEST(stats, anova_unbalanced_is_unbiased)
{
	static const size_t n[4] = {2, 5, 10, 3};
	double y[20], sa = 0, sa2 = 0, se = 0, se2 = 0;
	const int reps = 4000;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct errbuf err;

	gsl_rng_set(r, 20261130);
	for (int rep = 0; rep < reps; rep++) {
		struct st_anova a;
		size_t off = 0;
		for (size_t i = 0; i < 4; i++) {
			double eff = gsl_ran_gaussian_ziggurat(r, 2.0);
			for (size_t j = 0; j < n[i]; j++)
				y[off++] = 100 + eff + gsl_ran_gaussian_ziggurat(r, 1.0);
		}
		CU_ASSERT_EQUAL_FATAL(st_anova_oneway(&a, y, n, 4, &err), 0);
		/* untruncated estimate, to check unbiasedness */
		double v = (a.ms_between - a.ms_within) / a.n0;
		sa += v;
		sa2 += v * v;
		se += a.var_within;
		se2 += a.var_within * a.var_within;
	}
	gsl_rng_free(r);
	{
		double ma = sa / reps, me = se / reps;
		double sea = sqrt((sa2 / reps - ma * ma) / reps),
		       see = sqrt((se2 / reps - me * me) / reps);
		CU_ASSERT(fabs(ma - 4) < 4 * sea);
		CU_ASSERT(fabs(me - 1) < 4 * see);
	}
}

/* Summary figures on a small exact example: two restarts of two runs, {1,3} and {5,7}: grand
 * mean 4, MSW = 2, MSB = 16, n0 = 2, s_a^2 = 7, CoV within sqrt(2)/4, between sqrt(7)/4; restart
 * means 2 and 6, geometric mean sqrt(12), sd of logs |log 6 - log 2| / sqrt(2). */
TH_TEST(stats, query_stats_small_example)
{
	static const double y[4] = {1, 3, 5, 7};
	static const size_t n[2] = {2, 2};
	double means[2];
	struct st_query_stats q;
	struct errbuf err;

	CU_ASSERT_EQUAL_FATAL(st_query_stats_compute(&q, means, y, n, 2, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(means[0], 2, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(means[1], 6, 1e-15);
	CU_ASSERT_EQUAL(q.n_restarts, 2);
	CU_ASSERT_EQUAL(q.n_runs, 4);
	CU_ASSERT_DOUBLE_EQUAL(q.gmean, sqrt(12), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(q.cov_within, sqrt(2) / 4, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(q.cov_between, sqrt(7) / 4, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(q.sd_log, log(3) / sqrt(2), 1e-12);
	{
		static const double bad[2] = {1, -1};
		CU_ASSERT_EQUAL(st_query_stats_compute(&q, NULL, bad, n, 1, &err), ST_EINVAL);
	}
}

/* Mann-Kendall, worked example of Little (Holy Cross, "A Mann-Kendall example by hand"):
 * 12.9 14.8 13.2 15.7 13.8 15.6 12.9 11.0 17.3 15.9 19.0 18.3 20.1 21.7 gives S = 54, one tie
 * pair, V = 14*13*33/18 - 2*1*9/18 = 332.667, Z = 53/sqrt(V) = 2.9058, one-sided p = .0018. */
TH_TEST(stats, mann_kendall_matches_worked_example)
{
	static const double x[14] = {12.9, 14.8, 13.2, 15.7, 13.8, 15.6, 12.9,
				     11.0, 17.3, 15.9, 19.0, 18.3, 20.1, 21.7};
	struct st_mk mk;
	struct errbuf err;

	CU_ASSERT_EQUAL_FATAL(st_mann_kendall(&mk, x, 14, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(mk.s, 54, 0);
	CU_ASSERT_DOUBLE_EQUAL(mk.var_s, 14.0 * 13 * 33 / 18 - 1, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(mk.z, 2.9058, 5e-5);
	CU_ASSERT_EQUAL(mk.exact, 0); /* a tie: normal approximation */
	CU_ASSERT_DOUBLE_EQUAL(mk.p / 2, 0.0018, 5e-5);
	/* tau-b = 54 / sqrt((91 - 1) * 91) */
	CU_ASSERT_DOUBLE_EQUAL(mk.tau, 54 / sqrt(90.0 * 91), 1e-12);
	CU_ASSERT(mk.slope > 0);
	CU_ASSERT_EQUAL(st_not_steady(x, 14, 0.05), 1);
}

/* Exact null distribution without ties against Gilbert (1987), Table A18 (Kendall's S, upper tail
 * P(S >= s)): n=4: s=6 .042, s=4 .167; n=5: s=10 .0083, s=8 .042, s=6 .117 (these are k/n!
 * with k counted by hand); n=10: s=21 .036. Two-sided p is twice these. */
TH_TEST(stats, mann_kendall_exact_matches_table)
{
	static const struct {
		double x[10];
		size_t n;
		double s, p_one;
	} cases[] = {
	    {{1, 2, 3, 4}, 4, 6, 1.0 / 24},	 {{1, 3, 2, 4}, 4, 4, 4.0 / 24},
	    {{1, 2, 3, 4, 5}, 5, 10, 1.0 / 120}, {{2, 1, 3, 4, 5}, 5, 8, 5.0 / 120},
	    {{2, 1, 4, 3, 5}, 5, 6, 14.0 / 120}, {{5, 4, 3, 2, 1}, 5, -10, 1.0 / 120},
	};
	struct st_mk mk;
	struct errbuf err;

	for (size_t i = 0; i < NELEM(cases); i++) {
		CU_ASSERT_EQUAL_FATAL(st_mann_kendall(&mk, cases[i].x, cases[i].n, &err), 0);
		CU_ASSERT_DOUBLE_EQUAL(mk.s, cases[i].s, 0);
		CU_ASSERT_EQUAL(mk.exact, 1);
		CU_ASSERT_DOUBLE_EQUAL(mk.p, 2 * cases[i].p_one, 1e-12);
	}
	/* n = 10, S = 21 (12 inversions of 45 pairs): table value .036 */
	{
		static const double x[10] = {5, 4, 3, 2, 1, 6, 7, 9, 10, 8};
		CU_ASSERT_EQUAL_FATAL(st_mann_kendall(&mk, x, 10, &err), 0);
		CU_ASSERT_DOUBLE_EQUAL(mk.s, 21, 0);
		CU_ASSERT_DOUBLE_EQUAL(mk.p / 2, 0.036, 5e-4);
	}
	{
		static const double flat[5] = {2, 2, 2, 2, 2};
		CU_ASSERT_EQUAL_FATAL(st_mann_kendall(&mk, flat, 5, &err), 0);
		CU_ASSERT_DOUBLE_EQUAL(mk.p, 1, 0);
		CU_ASSERT_EQUAL(st_not_steady(flat, 5, 0.05), 0);
	}
	CU_ASSERT_EQUAL(st_mann_kendall(&mk, cases[0].x, 2, &err), ST_ENODATA);
}

/* R: power.t.test(n = 20, delta = 1) = 0.8689528 (two-sample, sd 1, two-sided 0.05, the
 * documentation example); power.t.test(power = .90, delta = 1) gives n = 22.02, so 23.
 * The pooled-variance power (ST_METHOD_EB with no prior) is exactly this noncentral t power. */
TH_TEST(stats, power_matches_r_power_t_test)
{
	struct st_power_spec s = {
	    .effect = expm1(1.0),
	    .sd_log = 1,
	    .alpha = 0.05,
	    .m = 1,
	    .corr = ST_CORR_NONE,
	    .min_effect = 0,
	    .method = ST_METHOD_POOLED,
	};
	size_t n = 0;

	CU_ASSERT_DOUBLE_EQUAL(st_power(&s, 20), 0.8689528, 1e-6);
	CU_ASSERT_EQUAL(st_restarts_needed(&n, &s, 0.9, 100), 0);
	CU_ASSERT_EQUAL(n, 23);
	/* Welch never beats the pooled test with equal variances, and is close at n = 20 */
	s.method = ST_METHOD_WELCH;
	CU_ASSERT(st_power(&s, 20) <= 0.8689528);
	CU_ASSERT(st_power(&s, 20) > 0.86);
	/* more queries -> smaller per-test alpha -> less power; monotone in n */
	s.m = 22;
	s.corr = ST_CORR_HOLM;
	CU_ASSERT(st_power(&s, 20) < 0.8);
	for (size_t k = 3; k < 30; k++)
		CU_ASSERT(st_power(&s, k) >= st_power(&s, k - 1) - 1e-9);
	CU_ASSERT(isnan(st_power(&s, 1)));
}

/* Smyth's (2004) moment estimator recovers a known prior: 3000 queries with true variances
 * s0^2 d0 / chi^2_{d0} (s0^2 = 0.0004, d0 = 6) and sample variances on 8 df. With no spread
 * (all variances from one value) d0 is large or infinite. */
TH_TEST(stats, eb_prior_recovers_known_prior)
{
	enum { M = 3000 };
	static double v[M], d[M];
	struct st_prior p;
	struct errbuf err;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(r, 7);
	for (int i = 0; i < M; i++) {
		double sigma2 = 0.0004 * 6 / gsl_ran_chisq(r, 6);
		v[i] = sigma2 * gsl_ran_chisq(r, 8) / 8;
		d[i] = 8;
	}
	CU_ASSERT_EQUAL_FATAL(st_eb_prior_fit(&p, v, d, M, &err), 0);
	CU_ASSERT(p.df > 5 && p.df < 7.2);
	CU_ASSERT(fabs(p.var / 0.0004 - 1) < 0.05);
	for (int i = 0; i < M; i++)
		v[i] = 0.0004 * gsl_ran_chisq(r, 8) / 8;
	CU_ASSERT_EQUAL_FATAL(st_eb_prior_fit(&p, v, d, M, &err), 0);
	CU_ASSERT(p.df > 200);
	CU_ASSERT(fabs(p.var / 0.0004 - 1) < 0.02);
	gsl_rng_free(r);
	CU_ASSERT_EQUAL(st_eb_prior_fit(&p, v, d, 2, &err), ST_ENODATA);
}

/* st_compare_all with ST_METHOD_EB: the prior is fitted from the queries' pooled variances and
 * each test uses s~^2 = (d0 s0^2 + d s_p^2) / (d0 + d) on d0 + d df (Smyth 2004, eq. 2-3);
 * with fewer than 3 usable queries it falls back to Welch. */
TH_TEST(stats, eb_compare_all_moderates)
{
	enum { M = 4 };
	static const double spread[M] = {0.01, 0.02, 0.04, 0.03};
	double a[M][3], b[M][3];
	struct st_sample sa[M], sb[M];
	struct st_test t[M];
	struct st_prior prior, want;
	struct st_compare_opts o;
	struct errbuf err;
	double v[M], d[M];

	for (int q = 0; q < M; q++) {
		for (int k = 0; k < 3; k++) {
			a[q][k] = exp(spread[q] * (k - 1));
			b[q][k] = exp(0.05 + spread[q] * ((k * 2) % 3 - 1) * 1.5);
		}
		CU_ASSERT_EQUAL_FATAL(st_sample_init(&sa[q], a[q], 3, &err), 0);
		CU_ASSERT_EQUAL_FATAL(st_sample_init(&sb[q], b[q], 3, &err), 0);
		st_sample_pooled_var(&prior, &sa[q], &sb[q]);
		v[q] = prior.var;
		d[q] = prior.df;
		CU_ASSERT_DOUBLE_EQUAL(d[q], 4, 0);
	}
	CU_ASSERT_EQUAL_FATAL(st_eb_prior_fit(&want, v, d, M, &err), 0);
	st_compare_opts_init(&o);
	o.method = ST_METHOD_EB;
	CU_ASSERT_EQUAL_FATAL(st_compare_all(t, &prior, sa, sb, M, NULL, &o, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(prior.df, want.df, 0);
	CU_ASSERT_DOUBLE_EQUAL(prior.var, want.var, 0);
	CU_ASSERT_FATAL(isfinite(prior.df) && prior.df > 0); /* 3.38 for these spreads */
	for (int q = 0; q < M; q++) {
		double s2 = (prior.df * prior.var + 4 * v[q]) / (prior.df + 4);
		CU_ASSERT_EQUAL(t[q].kind, ST_TEST_MODERATED);
		CU_ASSERT_DOUBLE_EQUAL(t[q].df, prior.df + 4, 1e-12);
		CU_ASSERT_DOUBLE_EQUAL(t[q].se, sqrt(s2 * (2.0 / 3)), 1e-12);
	}
	/* two queries only: no prior, plain Welch */
	CU_ASSERT_EQUAL_FATAL(st_compare_all(t, &prior, sa, sb, 2, NULL, &o, &err), 0);
	CU_ASSERT_EQUAL(prior.df, 0);
	CU_ASSERT_EQUAL(t[0].kind, ST_TEST_WELCH);
}

/* Overall ratio by restart: new = old x 1.1 restart by restart gives ratio 1.1 exactly with a zero
 * spread of differences only if restarts were paired; here they are not, so the CI is that of a
 * Welch test on per-restart geometric means, checked against a direct computation. */
TH_TEST(stats, overall_by_restart)
{
	/* 3 restarts x 2 queries per side */
	static const double a[6] = {1, 4, 2, 8, 1, 2};
	static const double b[6] = {2, 4, 1, 8, 4, 8};
	double ga[3], gb[3];
	struct st_overall o;
	struct st_test t;
	struct st_compare_opts opts;
	struct errbuf err;

	for (int r = 0; r < 3; r++) {
		ga[r] = sqrt(a[2 * r] * a[2 * r + 1]);
		gb[r] = sqrt(b[2 * r] * b[2 * r + 1]);
	}
	st_compare_opts_init(&opts);
	CU_ASSERT_EQUAL_FATAL(st_compare_means(&t, ga, 3, gb, 3, &opts, &err), 0);
	CU_ASSERT_EQUAL_FATAL(st_overall_by_restart(&o, a, 3, b, 3, 2, 0.05, &err), 0);
	CU_ASSERT_EQUAL(o.kind, ST_OVERALL_BY_RESTART);
	CU_ASSERT_DOUBLE_EQUAL(o.ratio, t.ratio, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(o.ci_lo, t.ci_lo, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(o.p, t.p, 1e-12);
	/* ratio of overall geometric means: (2*4*1*8*4*8 / (1*4*2*8*1*2))^(1/6) = 16^(1/6) */
	CU_ASSERT_DOUBLE_EQUAL(o.ratio, pow(2, 2.0 / 3), 1e-12);
	/* a restart with a missing query is skipped; fewer than 2 left -> ENODATA */
	{
		double a2[6] = {1, NAN, 2, 8, 1, 2};
		CU_ASSERT_EQUAL(st_overall_by_restart(&o, a2, 3, b, 3, 2, 0.05, &err), 0);
		a2[2] = 0;
		CU_ASSERT_EQUAL(st_overall_by_restart(&o, a2, 3, b, 3, 2, 0.05, &err), ST_ENODATA);
	}
}

/* Fallback from per-query tests: mean of diffs, se^2 = sum se^2 / m^2, Satterthwaite df. */
TH_TEST(stats, overall_from_tests)
{
	struct st_test t[3] = {
	    {.kind = ST_TEST_WELCH, .diff = 0.1, .se = 0.03, .df = 8},
	    {.kind = ST_TEST_WELCH, .diff = 0.0, .se = 0.04, .df = 6},
	    {.kind = ST_TEST_NONE, .diff = 5, .se = NAN, .df = NAN},
	};
	struct st_overall o;
	struct errbuf err;
	double sv = 0.0009 + 0.0016, df = sv * sv / (0.0009 * 0.0009 / 8 + 0.0016 * 0.0016 / 6);

	CU_ASSERT_EQUAL_FATAL(st_overall_from_tests(&o, t, 3, 0.05, &err), 0);
	CU_ASSERT_EQUAL(o.n_queries, 2);
	CU_ASSERT_DOUBLE_EQUAL(o.diff, 0.05, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(o.se, 0.025, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(o.df, df, 1e-9);
	CU_ASSERT(o.ci_lo < exp(0.05) && o.ci_hi > exp(0.05));
	CU_ASSERT_EQUAL(st_overall_from_tests(&o, t + 2, 1, 0.05, &err), ST_ENODATA);
}


/* Only ok restarts count: a failed restart's fingerprint (of a partial result) never makes the
 * results differ, nor do its runs enter the means; counts and rows are read by hand. */
TH_TEST(stats, figs_ignore_failed_restarts)
{
	double a[] = {10, 12}, b[] = {20, 22}, c[] = {99};
	char sha1[] = "aa", sha2[] = "bb";
	struct res_restart r[3] = {
	    {.index = 0, .status = RES_STATUS_OK, .measured_ms = a, .n_measured = 2, .rows = 4,
	     .result_sha256 = sha1},
	    {.index = 1, .status = RES_STATUS_ERROR, .measured_ms = c, .n_measured = 1, .rows = -1,
	     .result_sha256 = sha2},
	    {.index = 2, .status = RES_STATUS_OK, .measured_ms = b, .n_measured = 2, .rows = 4,
	     .result_sha256 = sha1, .not_steady = 1},
	};
	struct res_query q = {.id = (char *)"Q1", .restarts = r, .n_restarts = 3};
	struct st_restart_summary g;
	struct errbuf err;
	CU_ASSERT_EQUAL_FATAL(st_restart_summary_compute(&g, &q, 0.05, &err), 0);
	CU_ASSERT_EQUAL(g.n_restarts, 3);
	CU_ASSERT_EQUAL(g.n_ok, 2);
	CU_ASSERT_EQUAL(g.error, 1);
	CU_ASSERT_EQUAL(g.not_steady, 1);
	CU_ASSERT_EQUAL(g.rows, 4);
	CU_ASSERT_EQUAL(g.results_differ, 0);
	CU_ASSERT_DOUBLE_EQUAL(g.means[0], 11, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(g.means[1], 21, 1e-12);
	CU_ASSERT_TRUE(g.have_stats);
	CU_ASSERT_DOUBLE_EQUAL(g.stats.mean, 16, 1e-12); /* (10 + 12 + 20 + 22) / 4 */
	CU_ASSERT_TRUE(g.have_noise);
	CU_ASSERT_DOUBLE_EQUAL(g.noise.sd_log, fabs(log(21) - log(11)) / sqrt(2), 1e-12);
	st_restart_summary_release(&g);
	r[2].result_sha256 = sha2; /* now two ok restarts disagree */
	CU_ASSERT_EQUAL_FATAL(st_restart_summary_compute(&g, &q, 0.05, &err), 0);
	CU_ASSERT_EQUAL(g.results_differ, 1);
	st_restart_summary_release(&g);
}

TH_MAIN(stats)
