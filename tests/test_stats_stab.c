/* SPDX-License-Identifier: MIT */
/* stats/st_stab.c against R: tests/st_stab_ref.R (its output: tests/st_stab_ref.out). */
#include "harness.h"
#include "stats/st_stab.h"
#include <math.h>

static void test_stats_stab__var_ratio_ci_matches_r(void)
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

static void test_stats_stab__log_sd_matches_r(void)
{
	const double x[] = {100, 105, 98, 110};
	CU_ASSERT_DOUBLE_EQUAL(st_log_sd(x, 4), 0.0517526288695235, 1e-13);
	CU_ASSERT(isnan(st_log_sd(x, 1)));
}

int main(int argc, char **argv)
{
	static const struct th_case cases[] = {
	    {"var_ratio_ci_matches_r", test_stats_stab__var_ratio_ci_matches_r},
	    {"log_sd_matches_r", test_stats_stab__log_sd_matches_r},
	    {NULL, NULL},
	};
	return th_run("stats_stab", cases, argc, argv);
}
