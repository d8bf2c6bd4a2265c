/* SPDX-License-Identifier: MIT */
/* The functions behind an instruction change (reports/rpt_funcs.c): the rule on a table of cases,
 * and the real semijoin A/B and A/A of tests/data/funcs_*.json (SF 0.01, run --instructions):
 * Q20's listed functions cover at least 80 % of its difference, and the A/A changes none even
 * when the rule is asked about every function. */
#include "harness.h"
#include "reports/rpt.h"
#include "result/res.h"
#include <math.h>
#include <string.h>

TH_TEST(rpt_funcs, rule_cases)
{
	static const struct {
		double old, new, bound, total;
		int changed;
	} cases[] = {
	    {100, 100, 0.005, 1000, 0},
	    {1000, 1006, 0.005, 1e6, 0}, /* below the floor, 0.5 % of the query */
	    {0, 5000, 0, 1e6, 0},	 /* exactly the floor */
	    {0, 5001, 0, 1e6, 1},	 /* new, beyond it */
	    {1000, 7000, 0.005, 1e6, 1}, /* 6000 > 0.005 x 7000 + 5000 */
	    {1000, 6000, 0.005, 1e6, 0}, /* 5000 <= 30 + 5000 */
	    {7000, 1000, 0.005, 1e6, 1}, /* a drop as well */
	    {4e5, 5e5, 0.2, 1e6, 0},	 /* within the query's own bound */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CU_ASSERT_EQUAL(rpt_funcs_fn_changed(cases[i].old, cases[i].new, cases[i].bound,
						     cases[i].total),
				cases[i].changed);
}

static void read_pair(struct res_file **a, struct res_file **b, const char *na, const char *nb)
{
	char pa[512], pb[512];
	struct errbuf err = {""};
	snprintf(pa, sizeof(pa), "%s/tests/data/%s", DBT3_SOURCE_DIR, na);
	snprintf(pb, sizeof(pb), "%s/tests/data/%s", DBT3_SOURCE_DIR, nb);
	CU_ASSERT_EQUAL_FATAL(res_file_read(a, pa, &err), 0);
	CU_ASSERT_EQUAL_FATAL(res_file_read(b, pb, &err), 0);
}

TH_TEST(rpt_funcs, semijoin_ab_q20_covered)
{
	struct res_file *a, *b;
	read_pair(&a, &b, "funcs_ab_a.json", "funcs_ab_b.json");
	const struct res_query *qa = res_file_find_query(a, "Q20"),
			       *qb = res_file_find_query(b, "Q20");
	struct rpt_instr in;
	struct rpt_funcs f;
	CU_ASSERT_EQUAL_FATAL(rpt_instr_build(&in, qa, qb), 0);
	CU_ASSERT_TRUE_FATAL(in.changed);
	CU_ASSERT_EQUAL_FATAL(rpt_funcs_build(&f, qa, qb, &in), 0);
	CU_ASSERT_TRUE(f.compared);
	/* the profiles' totals (tests/data/funcs_ab_*.json, "functions".total) */
	CU_ASSERT_DOUBLE_EQUAL(f.old_total, 8699061, 0.5);
	CU_ASSERT_DOUBLE_EQUAL(f.new_total, 31270690, 0.5);
	CU_ASSERT(f.covered >= RPT_FUNCS_COVER);
	CU_ASSERT(f.n <= RPT_FUNCS_MAX && f.n <= f.n_changed);
	double sum = 0;
	for (size_t i = 0; i < f.n; i++) {
		sum += f.fn[i].share;
		if (i)
			CU_ASSERT(fabs(f.fn[i - 1].new - f.fn[i - 1].old) >=
				  fabs(f.fn[i].new - f.fn[i].old));
	}
	CU_ASSERT_DOUBLE_EQUAL(sum, f.covered, 1e-9);
	CU_ASSERT(sum - f.fn[f.n - 1].share < RPT_FUNCS_COVER); /* no more than needed */
	CU_ASSERT_EQUAL(strncmp(f.fn[0].name, "row_search_mvcc(", 16), 0);
	CU_ASSERT_DOUBLE_EQUAL(f.fn[0].new - f.fn[0].old, 2654615, 0.5);
	rpt_funcs_release(&f);
	res_file_free(a);
	res_file_free(b);
}

TH_TEST(rpt_funcs, aa_changes_none)
{
	struct res_file *a, *b;
	read_pair(&a, &b, "funcs_aa_a.json", "funcs_aa_b.json");
	const struct res_query *qa = res_file_find_query(a, "Q20"),
			       *qb = res_file_find_query(b, "Q20");
	struct rpt_instr in;
	struct rpt_funcs f;
	CU_ASSERT_EQUAL_FATAL(rpt_instr_build(&in, qa, qb), 0);
	CU_ASSERT_FALSE(in.changed);
	CU_ASSERT_EQUAL_FATAL(rpt_funcs_build(&f, qa, qb, &in), 0);
	CU_ASSERT_FALSE(f.compared); /* not asked: the count did not change */
	in.changed = 1;		     /* asked anyway: the rule finds no function changed */
	in.bound = RPT_INSTR_TOL;
	CU_ASSERT_EQUAL_FATAL(rpt_funcs_build(&f, qa, qb, &in), 0);
	CU_ASSERT_TRUE(f.compared);
	CU_ASSERT_EQUAL(f.n_changed, 0);
	rpt_funcs_release(&f);
	res_file_free(a);
	res_file_free(b);
}

TH_MAIN(rpt_funcs)
