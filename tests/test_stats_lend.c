/* SPDX-License-Identifier: MIT */
/* Unit tests of the check of a lent variance (st_var_ratio_test): one query against Student's
 * table, several against closed forms of F with 2 numerator df and of chi-square with even df
 * (worked here, not by the library under test), and what it leaves out. */
#include "stats/st_lend.h"
#include "tests/harness.h"
#include <math.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* One query: Fisher's combination of one p is that p (chi-square on 2 df: Q(x) = exp(-x/2)), and
 * F(1, 9) at t² is the two-sided p of t on 9 df: t(0.975; 9) = 2.262 (a printed t table, e.g.
 * NIST/SEMATECH e-Handbook 1.3.6.7.2), so p = 0.05 to the table's three decimals. */
TH_TEST(stats_lend, one_query_is_students_table)
{
	struct st_prior own = {2.262 * 2.262 * 0.004, 1}, lent = {0.004, 9};
	struct st_var_ratio c;
	st_var_ratio_test(&c, &own, &lent, 1);
	CU_ASSERT_EQUAL(c.queries, 1);
	CU_ASSERT_DOUBLE_EQUAL(c.p, 0.05, 3e-4);
	CU_ASSERT_DOUBLE_EQUAL(c.ratio, 2.262 * 2.262, 1e-9);
}

/* F(2, n) has the upper tail (1 + 2f/n)^(-n/2); chi-square on 4 df the upper tail
 * exp(-x/2)(1 + x/2), so two p values combine to P(1 - ln P) with P their product. F = 2 on
 * (2, 10): 1.4^-5; F = 8 on (2, 8): 3^-4 = 1/81; the geometric mean of the ratios is 4. */
TH_TEST(stats_lend, two_queries_closed_form)
{
	struct st_prior own[] = {{2 * 0.003, 2}, {8 * 0.02, 2}}, lent[] = {{0.003, 10}, {0.02, 8}};
	struct st_var_ratio c;
	double P = pow(1.4, -5) / 81;
	st_var_ratio_test(&c, own, lent, NELEM(own));
	CU_ASSERT_EQUAL(c.queries, 2);
	CU_ASSERT_DOUBLE_EQUAL(c.p, P * (1 - log(P)), 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(c.ratio, 4, 1e-9);
}

/* Tonight quieter than the lent variance: F(2, 2) has the upper tail 1 / (1 + f), 2/3 at 0.5. */
TH_TEST(stats_lend, quieter_tonight_passes)
{
	struct st_prior own = {0.5, 2}, lent = {1, 2};
	struct st_var_ratio c;
	st_var_ratio_test(&c, &own, &lent, 1);
	CU_ASSERT_DOUBLE_EQUAL(c.p, 2.0 / 3, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(c.ratio, 0.5, 1e-12);
}

/* Queries without a df of their own (one pair), without a lent variance, or with a variance that
 * is 0 or not finite are left out: the two usable ones give the closed form above. */
TH_TEST(stats_lend, unusable_queries_are_left_out)
{
	struct st_prior own[] = {{2 * 0.003, 2}, {0.01, 0},	{0.01, 3}, {0, 3},
				 {NAN, 3},	 {8 * 0.02, 2}, {0.01, 3}},
			lent[] = {{0.003, 10}, {0.01, 9}, {0.01, 0},	{0.01, 9},
				  {0.01, 9},   {0.02, 8}, {INFINITY, 9}};
	struct st_var_ratio c;
	double P = pow(1.4, -5) / 81;
	st_var_ratio_test(&c, own, lent, NELEM(own));
	CU_ASSERT_EQUAL(c.queries, 2);
	CU_ASSERT_DOUBLE_EQUAL(c.p, P * (1 - log(P)), 1e-9);
	st_var_ratio_test(&c, own + 1, lent + 1, 4);
	CU_ASSERT_EQUAL(c.queries, 0);
	CU_ASSERT(isnan(c.p) && isnan(c.ratio));
}

TH_MAIN(stats_lend)
