/* SPDX-License-Identifier: MIT */
/* base/util.c's util_sort_doubles and util_median_sorted: the one ascending sort of doubles and
 * the one median of sorted values the statistics, the result model, the reports and doctor
 * share. Expected values are written out by hand. */
#include "base/util.h"
#include "tests/harness.h"
#include <math.h>

/* Ascending, with ties, negatives, zeros and infinities; n 0 and 1 leave v alone. */
TH_TEST(util, sort_doubles_ascending)
{
	double v[] = {3.5, -1.0, 2.0, 2.0, -INFINITY, 0.0, 1e-300, INFINITY, -2.5};
	const double want[] = {-INFINITY, -2.5, -1.0, 0.0, 1e-300, 2.0, 2.0, 3.5, INFINITY};
	util_sort_doubles(v, sizeof(v) / sizeof(v[0]));
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		CU_ASSERT_EQUAL(v[i], want[i]);
	double one[] = {7.0, 1.0};
	util_sort_doubles(one, 1);
	CU_ASSERT_EQUAL(one[0], 7.0);
	CU_ASSERT_EQUAL(one[1], 1.0);
	util_sort_doubles(NULL, 0);
}

/* The middle value, or the mean of the middle two; NaN for no values. */
TH_TEST(util, median_sorted_middle_or_mean_of_two)
{
	const double odd[] = {-3.0, 1.0, 2.5, 4.0, 100.0};
	const double even[] = {1.0, 2.0, 5.0, 9.0};
	CU_ASSERT_EQUAL(util_median_sorted(odd, 5), 2.5);
	CU_ASSERT_EQUAL(util_median_sorted(even, 4), 3.5);
	CU_ASSERT_EQUAL(util_median_sorted(even, 1), 1.0);
	CU_ASSERT_EQUAL(util_median_sorted(even, 2), 1.5);
	CU_ASSERT(isnan(util_median_sorted(NULL, 0)));
}

TH_MAIN(util)
