/* SPDX-License-Identifier: MIT */
/* stats/st_adjust.c: the two-sample and the paired analysis of covariance against an
 * independent least-squares fit (tests/st_adjust_ref.py, tests/st_adjust_ref.h): the adjusted
 * effect, its se, df, t, one-sided p and the slope; the cases it refuses. */
#include "stats/st_adjust.h"
#include "tests/harness.h"
#include "tests/st_adjust_ref.h"
#include <math.h>

static void opts(struct st_compare_opts *o)
{
	st_compare_opts_init(o);
	o->alt = ST_GREATER;
	o->min_effect = 0.02;
}

static void check(const struct st_test *t, const struct adj_ref *r, enum st_test_kind kind)
{
	CU_ASSERT_EQUAL(t->kind, kind);
	CU_ASSERT_DOUBLE_EQUAL(t->diff, r->diff, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t->se, r->se, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t->df, r->df, 0);
	CU_ASSERT_DOUBLE_EQUAL(t->t, r->t, 1e-9 * fmax(1, fabs(r->t)));
	CU_ASSERT_DOUBLE_EQUAL(t->p_greater, r->p_greater, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(t->p, r->p_greater, 1e-9); /* one-sided: p is p_greater */
	CU_ASSERT_DOUBLE_EQUAL(t->adj_slope, r->slope, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t->ratio, exp(r->diff), 1e-12);
	CU_ASSERT(t->adj_sd_ratio > 0);
	CU_ASSERT(t->ci_lo < t->ratio && t->ratio < t->ci_hi);
}

TH_TEST(stats_adjust, two_sample_matches_least_squares)
{
	struct st_compare_opts o;
	struct st_test t;
	struct errbuf err = {""};
	opts(&o);
	CU_ASSERT_EQUAL(st_compare_adjusted(&t, q2_a, q2_xa, 8, q2_b, q2_xb, 8, &o, &err), 0);
	check(&t, &q2_two, ST_TEST_ADJUSTED);
	CU_ASSERT_EQUAL(st_compare_adjusted(&t, q14_a, q14_xa, 8, q14_b, q14_xb, 8, &o, &err), 0);
	check(&t, &q14_two, ST_TEST_ADJUSTED);
	CU_ASSERT_EQUAL(
	    st_compare_adjusted(&t, small_a, small_xa, 4, small_b, small_xb, 3, &o, &err), 0);
	check(&t, &small_two, ST_TEST_ADJUSTED);
}

TH_TEST(stats_adjust, paired_matches_least_squares)
{
	struct st_compare_opts o;
	struct st_test t;
	struct errbuf err = {""};
	opts(&o);
	CU_ASSERT_EQUAL(st_compare_paired_adjusted(&t, q2_a, q2_b, q2_xa, q2_xb, 8, &o, &err), 0);
	check(&t, &q2_paired, ST_TEST_PAIRED_ADJUSTED);
	CU_ASSERT_EQUAL(st_compare_paired_adjusted(&t, q14_a, q14_b, q14_xa, q14_xb, 8, &o, &err),
			0);
	check(&t, &q14_paired, ST_TEST_PAIRED_ADJUSTED);
	CU_ASSERT_EQUAL(
	    st_compare_paired_adjusted(&t, small_a, small_b, small_xa, small_xb, 3, &o, &err), 0);
	check(&t, &small_paired, ST_TEST_PAIRED_ADJUSTED);
}

/* Too few restarts or pairs, a covariate that does not vary, a mean that is not > 0. */
TH_TEST(stats_adjust, refuses_what_it_cannot_fit)
{
	static const double a[3] = {10, 11, 12}, b[3] = {10.5, 11.5, 12.5};
	static const double flat[3] = {2, 2, 2}, x[3] = {1, 2, 4}, bad[3] = {10, -1, 12};
	struct st_compare_opts o;
	struct st_test t;
	struct errbuf err = {""};
	opts(&o);
	CU_ASSERT_EQUAL(st_compare_adjusted(&t, a, x, 1, b, x, 2, &o, &err), ST_ENODATA);
	CU_ASSERT_EQUAL(t.kind, ST_TEST_NONE);
	CU_ASSERT(isnan(t.p));
	CU_ASSERT_EQUAL(st_compare_adjusted(&t, a, flat, 3, b, flat, 3, &o, &err), ST_ENODATA);
	CU_ASSERT_STRING_EQUAL(err.msg, "the covariate does not vary within the sides");
	CU_ASSERT_EQUAL(st_compare_adjusted(&t, bad, x, 3, b, x, 3, &o, &err), ST_EINVAL);
	CU_ASSERT_EQUAL(st_compare_paired_adjusted(&t, a, b, x, x, 2, &o, &err), ST_ENODATA);
	CU_ASSERT_STRING_EQUAL(err.msg, "an adjusted paired test needs 3 pairs, got 2");
	/* equal covariates in every pair: the difference never varies */
	CU_ASSERT_EQUAL(st_compare_paired_adjusted(&t, a, b, x, x, 3, &o, &err), ST_ENODATA);
	CU_ASSERT_EQUAL(st_compare_paired_adjusted(&t, bad, b, x, flat, 3, &o, &err), ST_EINVAL);
}

TH_MAIN(stats_adjust)
