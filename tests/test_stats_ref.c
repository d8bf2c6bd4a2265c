/* SPDX-License-Identifier: MIT */
/* stats/: the issue-14 tests (auto pooled/Welch, one-sided and shifted tests, TOST, history,
 * simultaneous CIs, noise bounds, position effect) against SciPy (tests/stats_ref.py). */
#include "stats/st.h"
#include "tests/harness.h"
#include "tests/stats_ref.h"
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static void sample_of(struct st_sample *out, const double *logs, size_t n)
{
	double x[16];
	struct errbuf err;
	for (size_t i = 0; i < n; i++)
		x[i] = exp(logs[i]);
	CU_ASSERT_EQUAL_FATAL(st_sample_init(out, x, n, &err), 0);
}

static void cmp(struct st_test *out, const double *a, size_t na, const double *b, size_t nb,
		const struct st_compare_opts *o)
{
	struct st_sample sa, sb;
	struct errbuf err;
	sample_of(&sa, a, na);
	sample_of(&sb, b, nb);
	CU_ASSERT_EQUAL_FATAL(st_compare(out, &sa, &sb, o, &err), 0);
}

/* Equal n, similar variances: the auto rule runs the pooled t (scipy ttest_ind equal_var). */
TH_TEST(stats_ref, auto_pools_equal_n)
{
	struct st_compare_opts o;
	struct st_test t;
	st_compare_opts_init(&o);
	o.method = ST_METHOD_AUTO;
	cmp(&t, REF_A, 5, REF_B, 5, &o);
	CU_ASSERT_EQUAL(t.kind, ST_TEST_POOLED);
	CU_ASSERT_DOUBLE_EQUAL(t.var_f_p, REF_F_P_AB, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(t.t, REF_POOLED_T, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(t.df, REF_POOLED_DF, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t.p, REF_POOLED_P2, 1e-10);
	CU_ASSERT_DOUBLE_EQUAL(t.ci_lo, REF_POOLED_CI_LO, 1e-10);
	CU_ASSERT_DOUBLE_EQUAL(t.ci_hi, REF_POOLED_CI_HI, 1e-10);
	o.alt = ST_GREATER;
	cmp(&t, REF_A, 5, REF_B, 5, &o);
	CU_ASSERT_DOUBLE_EQUAL(t.p, REF_POOLED_P1, 1e-10);
	CU_ASSERT_DOUBLE_EQUAL(t.p_greater, REF_POOLED_P1, 1e-10);
}

/* Unequal n, or evidence of unequal variances: Welch. */
TH_TEST(stats_ref, auto_falls_back_to_welch)
{
	struct st_compare_opts o;
	struct st_test t;
	st_compare_opts_init(&o);
	o.method = ST_METHOD_AUTO;
	cmp(&t, REF_A7, 7, REF_B, 5, &o);
	CU_ASSERT_EQUAL(t.kind, ST_TEST_WELCH);
	CU_ASSERT_DOUBLE_EQUAL(t.p, REF_WELCH_A7_P2, 1e-10);
	cmp(&t, REF_WIDE, 5, REF_B, 5, &o);
	CU_ASSERT_DOUBLE_EQUAL(t.var_f_p, REF_F_P_WIDE, 1e-10);
	CU_ASSERT_EQUAL(t.kind, ST_TEST_WELCH);
}

/* --min-effect-test: H0 ratio <= 1.02 against > 1.02, pooled and Welch; and the mirror for
 * improvements (scipy ttest_ind on shifted data). */
TH_TEST(stats_ref, shifted_tests)
{
	struct st_compare_opts o;
	struct st_test t;
	st_compare_opts_init(&o);
	o.method = ST_METHOD_AUTO;
	o.alt = ST_GREATER;
	o.min_effect_test = 1;
	cmp(&t, REF_A, 5, REF_B, 5, &o);
	CU_ASSERT_DOUBLE_EQUAL(t.p, REF_SHIFT_POOLED_P, 1e-10);
	CU_ASSERT_DOUBLE_EQUAL(t.shift, log(1.02), 1e-15);
	cmp(&t, REF_B, 5, REF_A, 5, &o);
	CU_ASSERT_DOUBLE_EQUAL(t.p_less, REF_SHIFT_LESS_P, 1e-10);
	cmp(&t, REF_A7, 7, REF_B, 5, &o);
	CU_ASSERT_EQUAL(t.kind, ST_TEST_WELCH);
	CU_ASSERT_DOUBLE_EQUAL(t.p, REF_SHIFT_WELCH_P, 1e-10);
}

/* TOST with a 2% margin and its 90% CI, pooled, 5 vs 8 restarts. */
TH_TEST(stats_ref, tost)
{
	struct st_compare_opts o;
	struct st_test t;
	st_compare_opts_init(&o);
	o.method = ST_METHOD_POOLED;
	cmp(&t, REF_A, 5, REF_BASE, 8, &o);
	CU_ASSERT_DOUBLE_EQUAL(t.p_tost, REF_TOST_P, 1e-10);
	CU_ASSERT_DOUBLE_EQUAL(t.tost_lo, REF_TOST_LO, 1e-10);
	CU_ASSERT_DOUBLE_EQUAL(t.tost_hi, REF_TOST_HI, 1e-10);
	CU_ASSERT(st_tost_rules_out(&t, 0.05));
	CU_ASSERT(!st_tost_rules_out(&t, 0.01));
}

/* A baseline's restart variance pooled in with its df (auto: used; welch: not, and says why;
 * auto when the host got noisier than the baseline: not, and says why). */
TH_TEST(stats_ref, history_pooled)
{
	struct st_compare_opts o;
	struct st_test t;
	struct errbuf err;
	double base[8], wide[5], wide2[5];
	for (size_t i = 0; i < 8; i++)
		base[i] = exp(REF_BASE[i]);
	for (size_t i = 0; i < 5; i++)
		wide[i] = exp(REF_WIDE[i]);
	st_compare_opts_init(&o);
	o.method = ST_METHOD_AUTO;
	CU_ASSERT_EQUAL_FATAL(st_baseline_prior(&o.baseline, base, 8, &err), 0);
	cmp(&t, REF_A, 5, REF_B, 5, &o);
	CU_ASSERT_EQUAL(t.kind, ST_TEST_BASELINE);
	CU_ASSERT_EQUAL(t.base_use, ST_BASE_USED);
	CU_ASSERT_DOUBLE_EQUAL(t.base_df, 7, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t.df, REF_HIST_DF, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t.se, REF_HIST_SE, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t.p, REF_HIST_P2, 1e-11);
	o.alt = ST_GREATER;
	cmp(&t, REF_A, 5, REF_B, 5, &o);
	CU_ASSERT_DOUBLE_EQUAL(t.p, REF_HIST_P1, 1e-11);
	o.method = ST_METHOD_WELCH;
	cmp(&t, REF_A, 5, REF_B, 5, &o);
	CU_ASSERT_EQUAL(t.kind, ST_TEST_WELCH);
	CU_ASSERT_EQUAL(t.base_use, ST_BASE_UNUSED_WELCH);
	/* the host got noisier: both sides as WIDE (equal variances), the baseline as BASE */
	o.method = ST_METHOD_AUTO;
	CU_ASSERT(REF_BASE_CHECK_P < 0.05);
	for (size_t i = 0; i < 5; i++)
		wide2[i] = REF_WIDE[i] + 0.01;
	cmp(&t, REF_WIDE, 5, wide2, 5, &o);
	CU_ASSERT_EQUAL(t.kind, ST_TEST_POOLED);
	CU_ASSERT_EQUAL(t.base_use, ST_BASE_UNUSED_NOISE);
	/* a quieter host keeps the baseline (dropping it would pick the smaller variance) */
	CU_ASSERT_EQUAL_FATAL(st_baseline_prior(&o.baseline, wide, 5, &err), 0);
	cmp(&t, REF_A, 5, REF_B, 5, &o);
	CU_ASSERT_EQUAL(t.kind, ST_TEST_BASELINE);
	CU_ASSERT_EQUAL(t.base_use, ST_BASE_USED);
}

/* Bonferroni simultaneous 95% CIs over 22 tested queries. */
TH_TEST(stats_ref, simultaneous_ci)
{
	struct st_compare_opts o;
	struct st_test t[22];
	enum st_verdict v[22];
	double padj[22];
	struct st_decide_opts d = {ST_CORR_HOLM, 0.05, 0.02, ST_GREATER, 0};
	st_compare_opts_init(&o);
	o.method = ST_METHOD_POOLED;
	for (size_t i = 0; i < 22; i++)
		cmp(&t[i], REF_A, 5, REF_B, 5, &o);
	st_decide_ext(v, padj, NULL, t, 22, &d);
	CU_ASSERT_DOUBLE_EQUAL(t[0].ci_sim_lo, REF_SIM_LO, 1e-10);
	CU_ASSERT_DOUBLE_EQUAL(t[21].ci_sim_hi, REF_SIM_HI, 1e-10);
}

/* One-sided: regressions and improvements are two families; the default rule flags a
 * significant +2.1% as ">= 2%", the min-effect test does not (t = (0.0208 - 0.0198)/0.004). */
TH_TEST(stats_ref, decide_families_and_min_effect)
{
	struct st_test t[3];
	enum st_verdict v[3];
	double padj[3], pimp[3];
	struct st_decide_opts d = {ST_CORR_HOLM, 0.05, 0.02, ST_GREATER, 0};
	struct st_compare_opts o;
	memset(t, 0, sizeof(t));
	st_compare_opts_init(&o);
	o.alt = ST_GREATER;
	for (int i = 0; i < 3; i++) {
		static const double diffs[3] = {0.0, -0.3, 0.0};
		t[i].kind = ST_TEST_POOLED;
		t[i].n_a = t[i].n_b = 5;
		t[i].df = 1000;
		t[i].se = 0.004;
		t[i].diff = i == 0 ? log(1.021) : diffs[i];
	}
	/* what st_compare's finish_test would give, from the definitions (normal-ish df) */
	for (int pass = 0; pass < 2; pass++) {
		d.min_effect_test = pass;
		for (int i = 0; i < 3; i++) {
			double s = pass ? log(1.02) : 0;
			t[i].p_greater = gsl_cdf_tdist_Q((t[i].diff - s) / t[i].se, 1000);
			t[i].p_less = gsl_cdf_tdist_Q((-t[i].diff - s) / t[i].se, 1000);
			t[i].p = t[i].p_greater;
		}
		st_decide_ext(v, padj, pimp, t, 3, &d);
		CU_ASSERT_EQUAL(v[0], pass ? ST_VERDICT_UNCHANGED : ST_VERDICT_REGRESSION);
		CU_ASSERT_EQUAL(v[1], ST_VERDICT_IMPROVEMENT);
		CU_ASSERT_EQUAL(v[2], ST_VERDICT_UNCHANGED);
		CU_ASSERT(pimp[1] < 0.05);
		CU_ASSERT(padj[1] > 0.5); /* the regression family does not see it */
	}
}

/* Chi-square CI and 95% upper bound of an sd (4 df). */
TH_TEST(stats_ref, sd_ci)
{
	double lo, hi, ucb;
	st_sd_ci(&lo, &hi, &ucb, REF_SD, 4, 0.95);
	CU_ASSERT_DOUBLE_EQUAL(lo, REF_SD_LO, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(hi, REF_SD_HI, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(ucb, REF_SD_UCB, 1e-12);
	st_sd_ci(&lo, &hi, &ucb, 0, 2, 0.95);
	CU_ASSERT_DOUBLE_EQUAL(ucb, 0, 0); /* s = 0 bounds nothing above 0 */
}

/* Position effect: F of the two-way model against a NumPy least-squares fit, the injected
 * transient at positions 2 and 3 flagged and no other; noise split of the same runs. */
TH_TEST(stats_ref, position_effect_and_noise)
{
	double runs[24], eff[6];
	int flag[6];
	size_t nruns[4] = {6, 6, 6, 6};
	struct st_position pos;
	struct st_noise nz;
	struct errbuf err;
	for (size_t i = 0; i < 4; i++)
		for (size_t j = 0; j < 6; j++)
			runs[i * 6 + j] = exp(REF_POS_LOG[i][j]);
	CU_ASSERT_EQUAL_FATAL(
	    st_position_effect(&pos, eff, flag, 6, runs, nruns, 4, 0.05, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(pos.f / REF_POS_F, 1, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(pos.p / REF_POS_P, 1, 1e-6);
	for (size_t j = 0; j < 6; j++)
		CU_ASSERT_EQUAL(flag[j], j == 1 || j == 2);
	CU_ASSERT_EQUAL_FATAL(st_noise_compute(&nz, runs, nruns, 4, 0.95, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(nz.sd_log, REF_POS_SD_LOG, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(nz.sd_within, REF_POS_SD_WITHIN, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(nz.sd_between, REF_POS_SD_BETWEEN, 1e-12);
	CU_ASSERT(nz.sd_ucb > nz.sd_log && nz.sd_hi > nz.sd_ucb && nz.sd_lo < nz.sd_log);
}

/* Power of the shifted one-sided pooled test at alpha/22: noncentral t (scipy nct). */
TH_TEST(stats_ref, power_shifted)
{
	struct st_power_spec s = {.effect = 0.05,
				  .sd_log = 0.01,
				  .alpha = 0.05,
				  .m = 22,
				  .corr = ST_CORR_HOLM,
				  .min_effect = 0.02,
				  .method = ST_METHOD_AUTO,
				  .alt = ST_GREATER,
				  .min_effect_test = 1};
	CU_ASSERT_DOUBLE_EQUAL(st_power(&s, 5), REF_POW_SHIFT_5, 1e-5);
	s.sd_log = 0.02;
	CU_ASSERT_DOUBLE_EQUAL(st_power(&s, 8), REF_POW_SHIFT_8, 1e-5);
}

TH_MAIN(stats_ref)
