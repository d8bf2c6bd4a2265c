/* SPDX-License-Identifier: MIT */
/* compare --adjust-memory (reports/rpt_adjust.c) on the real A/B cut to four queries
 * (tests/data/adj_*.json): each query's covariate is the restart's mean log probe, the test the
 * two-sample ANCOVA, never paired; Q21's and Q22's figures against the least-squares reference
 * of tests/st_adjust_ref.py; a file without probes is refused. */
#include "reports/rpt.h"
#include "result/res.h"
#include "tests/harness.h"
#include "tests/st_adjust_ref.h"
#include "tests/th_rpt.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static int build(struct rpt_compare **out, struct res_file *a, struct res_file *b, int adjust,
		 struct errbuf *err)
{
	struct rpt_compare_opts opts;
	rpt_compare_opts_init(&opts);
	opts.adjust_memory = adjust;
	struct rpt_file_info fa = {"old.json", a}, fb = {"new.json", b}, none = {NULL, NULL};
	return rpt_compare_build(out, &fa, &fb, &none, &opts, err);
}

static void check(const struct st_test *t, const struct adj_ref *r)
{
	CU_ASSERT_EQUAL(t->kind, ST_TEST_ADJUSTED);
	CU_ASSERT_DOUBLE_EQUAL(t->diff, r->diff, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t->se, r->se, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t->df, r->df, 0);
	CU_ASSERT_DOUBLE_EQUAL(t->p_greater, r->p_greater, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(t->adj_slope, r->slope, 1e-12);
}

TH_TEST(rpt_adjust, figures_match_the_reference)
{
	struct res_file *a = th_rpt_load("adj_old.json"), *b = th_rpt_load("adj_new.json");
	struct rpt_compare *c = NULL, *plain = NULL;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL_FATAL(build(&c, a, b, 1, &err), 0);
	CU_ASSERT_EQUAL_FATAL(build(&plain, a, b, 0, &err), 0);
	CU_ASSERT_EQUAL(c->n_adjusted, 4);
	CU_ASSERT_EQUAL(c->paired, 0); /* the variants of one run, never paired here */
	CU_ASSERT_EQUAL(plain->paired, 1);
	check(&th_rpt_query(c, "Q21")->test, &fixture_q21);
	check(&th_rpt_query(c, "Q22")->test, &fixture_q22);
	CU_ASSERT_EQUAL(th_rpt_query(c, "Q21")->verdict, RPT_REGRESSION);
	CU_ASSERT_EQUAL(th_rpt_query(plain, "Q21")->test.kind, ST_TEST_PAIRED);
	CU_ASSERT(c->adjust_sd_ratio > 0 && c->adjust_sd_ratio < 1);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	rpt_compare_write(f, c, RPT_TEXT, 0, &err);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "adjusted: 4 of 4 queries for memory contention"));
	free(text);
	rpt_compare_free(c);
	rpt_compare_free(plain);
	res_file_free(a);
	res_file_free(b);
}

/* Files written before the probe cannot be adjusted: one line, no model. */
TH_TEST(rpt_adjust, file_without_probes_is_refused)
{
	struct res_file *a = th_rpt_load("cmp_old.json"), *b = th_rpt_load("cmp_same.json");
	struct rpt_compare *c = NULL;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL(build(&c, a, b, 1, &err), -1);
	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT_STRING_EQUAL(err.msg,
			       "'old.json' has no memory probes (run writes them since "
			       "the probe came, docs/run.md): --adjust-memory cannot adjust");
	res_file_free(a);
	res_file_free(b);
}

TH_MAIN(rpt_adjust)
