/* SPDX-License-Identifier: MIT */
/* stats/st_var.c against R (tests/st_stab_ref.R, its output tests/st_stab_ref.out) and the
 * permutation test against Python's itertools (tests/st_perm_ref.py -> tests/st_perm_ref.h). */
#include "harness.h"
#include "stats/st_var.h"
#include "tests/st_perm_ref.h"
#include <math.h>

TH_TEST(stats_stab, var_ratio_ci_matches_r)
{
	static const double ref[][7] = {
	    {0.002, 8, 0.008, 8, 0.25, 0.0563919116517456, 1.10831497229559},
	    {0.05, 20, 0.01, 40, 10, 4.83625867771754, 22.8732204485743},
	    {1, 3, 2, 5, 0.833333333333333, 0.107338665351052, 12.4040191005349},
	};
	for (size_t i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		double r, lo, hi;
		CU_ASSERT_EQUAL_FATAL(
		    st_var_ratio_ci(ref[i][0], ref[i][1], ref[i][2], ref[i][3], 0.05, &r, &lo, &hi),
		    0);
		CU_ASSERT_DOUBLE_EQUAL(r, ref[i][4], 1e-12);
		CU_ASSERT_DOUBLE_EQUAL(lo, ref[i][5], 1e-9 * ref[i][5]);
		CU_ASSERT_DOUBLE_EQUAL(hi, ref[i][6], 1e-9 * ref[i][6]);
	}
	double r, lo, hi;
	CU_ASSERT_EQUAL(st_var_ratio_ci(1, 0, 1, 3, 0.05, &r, &lo, &hi), -1);
	CU_ASSERT_EQUAL(st_var_ratio_ci(1, 3, 0, 3, 0.05, &r, &lo, &hi), -1);
}

TH_TEST(stats_stab, log_sd_matches_r)
{
	const double x[] = {100, 105, 98, 110};
	CU_ASSERT_DOUBLE_EQUAL(st_log_sd(x, 4), 0.0517526288695235, 1e-13);
	CU_ASSERT(isnan(st_log_sd(x, 1)));
}

/* st_var_perm_test against tests/st_perm_ref.py (every split listed by itertools). rows: na + nb
 * rows of nq restart means (ms), A's first. */
static void perm_case(const double *a, size_t na, const double *b, size_t nb, size_t nq,
		      double ratio, double p, double p_tol)
{
	double la[64], lb[64], r = NAN, got = NAN; /* up to 16 restarts x 4 queries */
	for (size_t i = 0; i < na * nq; i++)
		la[i] = log(a[i]);
	for (size_t i = 0; i < nb * nq; i++)
		lb[i] = log(b[i]);
	CU_ASSERT_EQUAL_FATAL(st_var_perm_test(la, na, lb, nb, nq, 7, &r, &got), 0);
	CU_ASSERT_DOUBLE_EQUAL(r, ratio, 1e-10 * ratio);
	CU_ASSERT_DOUBLE_EQUAL(got, p, p_tol);
}

#define PERM_CASE(name, tol)                                                                       \
	perm_case(&perm_##name##_a[0][0], sizeof(perm_##name##_a) / sizeof(perm_##name##_a[0]),    \
		  &perm_##name##_b[0][0], sizeof(perm_##name##_b) / sizeof(perm_##name##_b[0]),    \
		  sizeof(perm_##name##_a[0]) / sizeof(double), perm_##name##_ratio,                \
		  perm_##name##_p, tol)

TH_TEST(stats_stab, perm_exact_matches_python)
{
	/* 4 + 5, 3 + 3 and 6 + 6 restarts (3 + 4, 2 + 2 and 5 + 5 contrasts): every split is
	 * counted, the p-values are exact */
	PERM_CASE(small, 1e-12);
	PERM_CASE(tiny, 1e-12);
	PERM_CASE(stab6, 1e-12);
	PERM_CASE(stab6_slower, 1e-12);
}

TH_TEST(stats_stab, perm_random_near_exact)
{
	/* 14 + 14 restarts, 13 + 13 contrasts: C(26, 13) = 10 400 600 splits, above
	 * ST_PERM_EXACT_MAX, so 200 000 random splits; p within 4 binomial standard errors (and
	 * 1/200 001) of the exact share */
	double se_low = sqrt(perm_big_lower_p * (1 - perm_big_lower_p) / ST_PERM_RANDOM);
	double se_alike = sqrt(perm_big_alike_p * (1 - perm_big_alike_p) / ST_PERM_RANDOM);
	PERM_CASE(big_lower, 4 * se_low + 1.0 / (ST_PERM_RANDOM + 1));
	PERM_CASE(big_alike, 4 * se_alike + 1.0 / (ST_PERM_RANDOM + 1));
}

TH_TEST(stats_stab, perm_refuses_bad_input)
{
	double x[6] = {1, 2, 3, 4, 5, 6}, zero[6] = {0}, r, p;
	CU_ASSERT_EQUAL(st_var_perm_test(x, 1, x, 3, 2, 1, &r, &p), -1);    /* one restart of A */
	CU_ASSERT_EQUAL(st_var_perm_test(x, 3, x, 3, 0, 1, &r, &p), -1);    /* no query */
	CU_ASSERT_EQUAL(st_var_perm_test(x, 3, zero, 3, 2, 1, &r, &p), -1); /* B does not vary */
	/* the smallest p: one split of C(na + nb - 2, na - 1): 1/6, 1/70, 1/252, 1/48620 */
	CU_ASSERT_DOUBLE_EQUAL(st_var_perm_min_p(3, 3), 1.0 / 6, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(st_var_perm_min_p(5, 5), 1.0 / 70, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(st_var_perm_min_p(6, 6), 1.0 / 252, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(st_var_perm_min_p(10, 10), 1.0 / 48620, 1e-18);
	CU_ASSERT(isnan(st_var_perm_min_p(1, 5)));
}

TH_MAIN(stats_stab)
