/* SPDX-License-Identifier: MIT */
/* base/util.c's util_sort_doubles: the one ascending sort of doubles the statistics, the result
 * model, the reports and doctor share. Expected orders are written out by hand. */
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

TH_MAIN(util)
