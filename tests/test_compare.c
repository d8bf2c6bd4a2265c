/* SPDX-License-Identifier: MIT */
/* The compare model on the hand-made result files of tests/data (made by gen_compare.py). */
#include "reports/rpt.h"
#include "result/res.h"
#include "tests/harness.h"
#include "tests/th_rpt.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Builds the comparison of two files (and an optional baseline) with the default options. */
static struct rpt_compare *compare(struct res_file *a, struct res_file *b, struct res_file *base,
				   int force, struct errbuf *err)
{
	struct rpt_compare_opts opts;
	struct rpt_compare *c = NULL;
	rpt_compare_opts_init(&opts);
	opts.force = force;
	struct rpt_file_info fa = {"old.json", a}, fb = {"new.json", b}, fc = {"base.json", base};
	if (rpt_compare_build(&c, &fa, &fb, &fc, &opts, err) < 0)
		return NULL;
	return c;
}

/* The two files of a case and their comparison. */
struct cmp {
	struct res_file *a, *b;
	struct rpt_compare *c;
};

/* Compares the files old and new of tests/data with the default options; a refusal is fatal. */
static struct rpt_compare *cmp_open(struct cmp *x, const char *old, const char *new)
{
	struct errbuf err = {""};
	x->a = th_rpt_load(old);
	x->b = th_rpt_load(new);
	x->c = compare(x->a, x->b, NULL, 0, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(x->c);
	return x->c;
}

/* Compares them again with opts, after freeing the comparison before; a refusal is fatal. */
static struct rpt_compare *cmp_with(struct cmp *x, const struct rpt_compare_opts *opts)
{
	struct rpt_file_info fa = {"old.json", x->a}, fb = {"new.json", x->b}, none = {NULL, NULL};
	struct errbuf err = {""};
	rpt_compare_free(x->c);
	x->c = NULL;
	CU_ASSERT_EQUAL_FATAL(rpt_compare_build(&x->c, &fa, &fb, &none, opts, &err), 0);
	return x->c;
}

static void cmp_close(struct cmp *x)
{
	rpt_compare_free(x->c);
	res_file_free(x->a);
	res_file_free(x->b);
}

TH_TEST(compare, aa_pair_flags_nothing)
{
	struct cmp x;
	struct rpt_compare *c = cmp_open(&x, "cmp_old.json", "cmp_same.json");
	CU_ASSERT_EQUAL(c->n_queries, 4);
	CU_ASSERT_EQUAL(c->n_tested, 4);
	/* 2% restart noise, 5 restarts a side: nothing flagged, but the CIs (about +-3%) do not
	 * rule out a 2% change, so not "unchanged" either */
	CU_ASSERT_EQUAL(c->counts[RPT_INCONCLUSIVE], 4);
	CU_ASSERT_EQUAL(c->counts[RPT_REGRESSION] + c->counts[RPT_IMPROVEMENT], 0);
	CU_ASSERT_EQUAL(c->worst, RPT_INCONCLUSIVE);
	for (size_t i = 0; i < c->n_queries; i++) /* each 90% CI reaches outside [1/1.02, 1.02] */
		CU_ASSERT(c->queries[i].test.tost_lo < 1 / 1.02 ||
			  c->queries[i].test.tost_hi > 1.02);
	CU_ASSERT_TRUE(c->have_overall);
	CU_ASSERT(c->overall.ci_lo < 1.0 && c->overall.ci_hi > 1.0);
	for (size_t i = 0; i < c->n_queries; i++) {
		/* the default rule: equal restarts a side and no evidence of unequal variances */
		CU_ASSERT_EQUAL(c->queries[i].test.kind, ST_TEST_POOLED);
		CU_ASSERT(c->queries[i].test.var_f_p >= 0.05);
		CU_ASSERT(c->queries[i].p_adj >= c->queries[i].test.p); /* Holm never lowers p */
	}
	cmp_close(&x);
}

/* unchanged means the CI rules out a change of min-effect: a 0.3% restart noise A/A pair is
 * unchanged at 2%, inconclusive at 0.2% (its CIs are about +-0.5%). */
TH_TEST(compare, unchanged_needs_a_tight_ci)
{
	struct cmp x;
	struct rpt_compare *c = cmp_open(&x, "cmp_tight_old.json", "cmp_tight_new.json");
	CU_ASSERT_EQUAL(c->counts[RPT_UNCHANGED], 4);
	for (size_t i = 0; i < c->n_queries; i++) {
		const struct st_test *t = &c->queries[i].test;
		CU_ASSERT(t->ci_lo >= 1 / 1.02 && t->ci_hi <= 1.02);
	}
	struct rpt_compare_opts opts;
	rpt_compare_opts_init(&opts);
	opts.min_effect = 0.002;
	c = cmp_with(&x, &opts);
	CU_ASSERT_EQUAL(c->counts[RPT_INCONCLUSIVE], 4);
	CU_ASSERT_EQUAL(c->worst, RPT_INCONCLUSIVE);
	cmp_close(&x);
}

TH_TEST(compare, regression_improvement_and_plan_change)
{
	struct cmp x;
	struct rpt_compare *c = cmp_open(&x, "cmp_old.json", "cmp_regress.json");
	const struct rpt_query *q3 = th_rpt_query(c, "Q3"), *q6 = th_rpt_query(c, "Q6"),
			       *q14 = th_rpt_query(c, "Q14");
	CU_ASSERT_EQUAL(q3->verdict, RPT_REGRESSION);
	CU_ASSERT(q3->test.ratio > 1.25 && q3->test.ratio < 1.35);
	CU_ASSERT(q3->test.ci_lo > 1.02);
	CU_ASSERT_EQUAL(q6->verdict, RPT_IMPROVEMENT);
	CU_ASSERT(q6->test.ratio < 0.75);
	CU_ASSERT_EQUAL(q14->verdict, RPT_INCONCLUSIVE); /* CI wider than +-2% */
	CU_ASSERT_TRUE(q14->plan_changed);
	CU_ASSERT_FALSE(q3->plan_changed);
	CU_ASSERT_EQUAL(c->worst, RPT_REGRESSION);
	CU_ASSERT_EQUAL(c->counts[RPT_REGRESSION], 1);
	CU_ASSERT_EQUAL(c->counts[RPT_IMPROVEMENT], 1);

	/* JSON: both plans of the changed query, none for the others */
	json_t *o = rpt_compare_to_json(c);
	json_t *qs = json_object_get(o, "queries");
	for (size_t i = 0; i < json_array_size(qs); i++) {
		json_t *jq = json_array_get(qs, i);
		json_t *plan = json_object_get(jq, "plan");
		const char *id = json_string_value(json_object_get(jq, "id"));
		if (strcmp(id, "Q14") == 0) {
			CU_ASSERT_TRUE(json_is_true(json_object_get(plan, "changed")));
			CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(plan, "old")),
					       "{\"query_block\": \"plan-Q14\"}");
			CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(plan, "new")),
					       "{\"query_block\": \"plan-Q14-new\"}");
		} else {
			CU_ASSERT_PTR_NULL(json_object_get(plan, "old"));
		}
	}
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(o, "worst")), "regression");
	json_decref(o);
	cmp_close(&x);
}

TH_TEST(compare, wrong_result_is_most_severe)
{
	struct cmp x;
	struct rpt_compare *c = cmp_open(&x, "cmp_old.json", "cmp_wrong.json");
	CU_ASSERT_EQUAL(th_rpt_query(c, "Q1")->verdict, RPT_WRONG_RESULT);
	CU_ASSERT_TRUE(th_rpt_query(c, "Q1")->result_changed);
	CU_ASSERT_EQUAL(th_rpt_query(c, "Q3")->verdict, RPT_REGRESSION);
	CU_ASSERT_EQUAL(c->worst, RPT_WRONG_RESULT);
	/* the overall ratio leaves the wrong query out */
	CU_ASSERT_EQUAL(c->overall.n_queries, 3);
	cmp_close(&x);
}

TH_TEST(compare, row_count_change_is_wrong_result)
{
	struct res_file *a = th_rpt_load("cmp_old.json"), *b = th_rpt_load("cmp_same.json");
	struct res_query *q = res_file_find_query(b, "Q6");
	for (size_t i = 0; i < q->n_restarts; i++) {
		q->restarts[i].rows = 5;
		free(q->restarts[i].result_sha256);
		q->restarts[i].result_sha256 = NULL; /* no fingerprint: the row count decides */
	}
	struct errbuf err = {""};
	struct rpt_compare *c = compare(a, b, NULL, 0, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(th_rpt_query(c, "Q6")->verdict, RPT_WRONG_RESULT);
	CU_ASSERT_STRING_EQUAL(th_rpt_query(c, "Q6")->why, "row counts differ");
	rpt_compare_free(c);
	res_file_free(a);
	res_file_free(b);
}

/* A restart whose executions returned different row counts (run records each one that differs
 * from the first as row_count_changes) is a wrong result even when both files agree otherwise;
 * the member survives the writer and the reader. */
TH_TEST(compare, row_count_changing_between_executions_is_wrong_result)
{
	struct res_file *a = th_rpt_load("cmp_old.json"), *b = th_rpt_load("cmp_same.json");
	struct res_restart *r = &res_file_find_query(b, "Q6")->restarts[2];
	if (!r->extra)
		r->extra = json_object();
	json_object_set_new(r->extra, "row_count_changes",
			    json_pack("[{s:i, s:i}]", "execution", 7, "rows", 0));
	char *text = res_file_dumps(b);
	struct res_file *b2 = NULL;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL_FATAL(res_file_parse(&b2, text, strlen(text), "new.json", &err), 0);
	struct rpt_compare *c = compare(a, b2, NULL, 0, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(th_rpt_query(c, "Q6")->verdict, RPT_WRONG_RESULT);
	CU_ASSERT_STRING_EQUAL(th_rpt_query(c, "Q6")->why, "row count changed between executions");
	CU_ASSERT(th_rpt_query(c, "Q6")->warn & RPT_W_ROWS_VARY);
	CU_ASSERT_NOT_EQUAL(th_rpt_query(c, "Q1")->verdict, RPT_WRONG_RESULT);
	rpt_compare_free(c);
	free(text);
	res_file_free(a);
	res_file_free(b);
	res_file_free(b2);
}

#define SHA_X "1111111111111111111111111111111111111111111111111111111111111111"

static void set_sha(struct res_file *res, const char *id, size_t restart, int plan, const char *sha)
{
	struct res_restart *r = &res_file_find_query(res, id)->restarts[restart];
	char **member = plan ? &r->plan_sha256 : &r->result_sha256;
	free(*member);
	*member = strdup(sha);
}

TH_TEST(compare, fingerprints_compare_as_sets)
{
	struct res_file *a = th_rpt_load("cmp_old.json"), *b = th_rpt_load("cmp_same.json");
	struct errbuf err = {""};
	/* Q3: one restart of new gives a result old never gave: wrong */
	set_sha(b, "Q3", 3, 0, SHA_X);
	/* Q6: both sides vary between the same two results: not wrong, but warned */
	set_sha(a, "Q6", 1, 0, SHA_X);
	set_sha(b, "Q6", 4, 0, SHA_X);
	/* Q14: one restart of new has another plan: plan changed, shown as the new plan */
	set_sha(b, "Q14", 2, 1, SHA_X);
	struct rpt_compare *c = compare(a, b, NULL, 0, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(th_rpt_query(c, "Q3")->verdict, RPT_WRONG_RESULT);
	CU_ASSERT_TRUE(th_rpt_query(c, "Q3")->warn & RPT_W_RESULT_VARIES);
	CU_ASSERT_EQUAL(th_rpt_query(c, "Q6")->verdict, RPT_INCONCLUSIVE); /* not wrong; CI wide */
	CU_ASSERT_FALSE(th_rpt_query(c, "Q6")->result_changed);
	CU_ASSERT_TRUE(th_rpt_query(c, "Q6")->warn & RPT_W_RESULT_VARIES);
	CU_ASSERT_TRUE(th_rpt_query(c, "Q14")->plan_changed);
	CU_ASSERT_STRING_EQUAL(th_rpt_query(c, "Q14")->new.plan_sha256, SHA_X);
	CU_ASSERT_TRUE(th_rpt_query(c, "Q14")->warn & RPT_W_PLAN_VARIES);
	CU_ASSERT_FALSE(th_rpt_query(c, "Q1")->plan_changed);
	CU_ASSERT_EQUAL(c->worst, RPT_WRONG_RESULT);
	rpt_compare_free(c);
	res_file_free(a);
	res_file_free(b);
}

TH_TEST(compare, one_restart_needs_a_baseline)
{
	struct res_file *a = th_rpt_load("cmp_old.json"), *b = th_rpt_load("cmp_one.json"),
			*base = th_rpt_load("cmp_same.json");
	struct errbuf err = {""};
	struct rpt_compare *c = compare(a, b, NULL, 0, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->counts[RPT_INCONCLUSIVE], 4);
	CU_ASSERT_EQUAL(c->n_tested, 0);
	CU_ASSERT_EQUAL(c->worst, RPT_INCONCLUSIVE);
	CU_ASSERT_TRUE(isnan(th_rpt_query(c, "Q3")->p_adj));
	rpt_compare_free(c);

	c = compare(a, b, base, 0, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->n_tested, 4);
	CU_ASSERT_EQUAL(th_rpt_query(c, "Q3")->test.kind, ST_TEST_BASELINE);
	CU_ASSERT_EQUAL(th_rpt_query(c, "Q3")->verdict, RPT_REGRESSION);
	CU_ASSERT_EQUAL(th_rpt_query(c, "Q1")->verdict, RPT_INCONCLUSIVE); /* CI wider than +-2% */
	CU_ASSERT(th_rpt_query(c, "Q1")->test.ci_lo < 1 / 1.02 ||
		  th_rpt_query(c, "Q1")->test.ci_hi > 1.02);
	rpt_compare_free(c);
	res_file_free(a);
	res_file_free(b);
	res_file_free(base);
}

TH_TEST(compare, failed_restarts_are_left_out_and_warned)
{
	struct cmp x;
	struct rpt_compare *c = cmp_open(&x, "cmp_old.json", "cmp_warn.json");
	const struct rpt_query *q3 = th_rpt_query(c, "Q3"), *q6 = th_rpt_query(c, "Q6"),
			       *q14 = th_rpt_query(c, "Q14");
	CU_ASSERT_EQUAL(q3->new.n_restarts, 5);
	CU_ASSERT_EQUAL(q3->new.n_used, 4);
	CU_ASSERT_EQUAL(q3->new.crashes, 1);
	CU_ASSERT_TRUE(q3->warn & RPT_W_CRASH);
	CU_ASSERT_TRUE(q6->warn & RPT_W_NOT_STEADY);
	CU_ASSERT_EQUAL(q6->new.n_used, 5); /* not steady is a warning, not an exclusion */
	CU_ASSERT_TRUE(q14->warn & RPT_W_TIMEOUT);
	CU_ASSERT_EQUAL(q14->new.n_used, 4);
	CU_ASSERT_EQUAL(c->n_warnings, 1); /* unfinished run */
	CU_ASSERT_PTR_NOT_NULL(strstr(c->warnings[0], "unfinished"));
	cmp_close(&x);
}

static const struct {
	const char *file, *msg;
} incomparable[] = {
    {"cmp_sf1.json", "'old.json' and 'new.json' are not comparable: scale factor 0.01 vs 1 "
		     "(--force compares anyway)"},
    {"cmp_fp.json", "'old.json' and 'new.json' are not comparable: dataset fingerprint "
		    "9f60d9c2a798… vs 873517954b8a… (--force compares anyway)"},
    {"cmp_sql.json", "'old.json' and 'new.json' are not comparable: query Q6 has another text "
		     "or parameters (sql_sha256 e15442848de1… vs 3701a698ca30…) (--force "
		     "compares anyway)"},
};

TH_TEST(compare, incomparable_files_are_refused_unless_forced)
{
	struct res_file *a = th_rpt_load("cmp_old.json");
	for (size_t i = 0; i < sizeof(incomparable) / sizeof(incomparable[0]); i++) {
		struct res_file *b = th_rpt_load(incomparable[i].file);
		struct errbuf err = {""};
		CU_ASSERT_PTR_NULL(compare(a, b, NULL, 0, &err));
		CU_ASSERT_STRING_EQUAL(err.msg, incomparable[i].msg);
		struct rpt_compare *c = compare(a, b, NULL, 1, &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		CU_ASSERT_EQUAL(c->n_warnings, 1);
		CU_ASSERT_PTR_NOT_NULL(strstr(c->warnings[0], "(compared anyway)"));
		rpt_compare_free(c);
		res_file_free(b);
	}
	res_file_free(a);
}

TH_TEST(compare, disjoint_query_sets_are_an_error)
{
	struct res_file *a = th_rpt_load("cmp_old.json"), *b = th_rpt_load("cmp_same.json");
	for (size_t i = 0; i < b->n_queries; i++) {
		free(b->queries[i].id);
		b->queries[i].id = strdup(i == 0 ? "Q2" : i == 1 ? "Q4" : i == 2 ? "Q5" : "Q7");
	}
	struct errbuf err = {""};
	CU_ASSERT_PTR_NULL(compare(a, b, NULL, 1, &err));
	CU_ASSERT_STRING_EQUAL(err.msg, "'old.json' and 'new.json' have no query in common");
	res_file_free(a);
	res_file_free(b);
}

TH_TEST(compare, queries_in_one_file_only_are_warned)
{
	struct res_file *a = th_rpt_load("cmp_old.json"), *b = th_rpt_load("cmp_same.json");
	struct res_query *q = res_file_find_query(b, "Q14");
	free(q->id);
	q->id = strdup("Q15");
	struct errbuf err = {""};
	struct rpt_compare *c = compare(a, b, NULL, 0, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->n_queries, 3);
	CU_ASSERT_EQUAL_FATAL(c->n_warnings, 2);
	CU_ASSERT_STRING_EQUAL(c->warnings[0], "query only in 'old.json': Q14");
	CU_ASSERT_STRING_EQUAL(c->warnings[1], "query only in 'new.json': Q15");
	rpt_compare_free(c);
	res_file_free(a);
	res_file_free(b);
}

TH_TEST(compare, moderated_method_tests_every_query)
{
	struct cmp x = {th_rpt_load("cmp_old.json"), th_rpt_load("cmp_regress.json"), NULL};
	struct rpt_compare_opts opts;
	rpt_compare_opts_init(&opts);
	opts.method = ST_METHOD_EB;
	struct rpt_compare *c = cmp_with(&x, &opts);
	CU_ASSERT_EQUAL(c->n_tested, 4);
	CU_ASSERT_EQUAL(th_rpt_query(c, "Q3")->verdict, RPT_REGRESSION);
	CU_ASSERT_EQUAL(th_rpt_query(c, "Q6")->verdict, RPT_IMPROVEMENT);
	CU_ASSERT_NOT_EQUAL(th_rpt_query(c, "Q1")->verdict, RPT_REGRESSION);
	/* R (tests/data/compare_reference.json, regress_eb_holm): CI 0.9851-1.0300, p_adj 1 */
	CU_ASSERT_EQUAL(th_rpt_query(c, "Q1")->verdict, RPT_INCONCLUSIVE);
	cmp_close(&x);
}

TH_TEST(compare, min_effect_and_correction_change_verdicts)
{
	struct cmp x = {th_rpt_load("cmp_old.json"), th_rpt_load("cmp_regress.json"), NULL};
	struct rpt_compare_opts opts;
	rpt_compare_opts_init(&opts);
	opts.min_effect = 0.5;
	struct rpt_compare *c = cmp_with(&x, &opts);
	CU_ASSERT_EQUAL(th_rpt_query(c, "Q3")->verdict, RPT_UNCHANGED);
	CU_ASSERT_EQUAL(c->worst, RPT_UNCHANGED);
	double p_holm = th_rpt_query(c, "Q1")->p_adj;
	opts.min_effect = 0.02;
	opts.correction = ST_CORR_NONE;
	c = cmp_with(&x, &opts);
	CU_ASSERT_DOUBLE_EQUAL(th_rpt_query(c, "Q1")->p_adj, th_rpt_query(c, "Q1")->test.p, 0);
	CU_ASSERT(th_rpt_query(c, "Q1")->p_adj < p_holm);
	CU_ASSERT_EQUAL(th_rpt_query(c, "Q3")->verdict, RPT_REGRESSION);
	cmp_close(&x);
}

TH_MAIN(compare)
