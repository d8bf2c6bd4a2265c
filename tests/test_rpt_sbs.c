/* SPDX-License-Identifier: MIT */
/* compare on the two files of one run --side-by-side: paired by pair index on each pair's mean
 * log ratio of its alternated executions, and --adjust-memory refused. The figures are worked
 * by hand in the comments. */
#include "harness.h"
#include "reports/rpt.h"
#include "result/res.h"
#include "result/res_counts.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SHA "0000000000000000000000000000000000000000000000000000000000000001"

/* One variant's file: Q1 with a restart per row of ms (two measured executions each). */
static struct res_file *make_file(const char *variant, int sbs, const double ms[][2], int n)
{
	struct res_file *res = res_file_new();
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	res_set_string(&res->started_at, "2026-12-03T09:00:00Z");
	json_object_set_new(res->dataset, "scale_factor", json_real(0.1));
	json_object_set_new(res->plan, "variant", json_string(variant));
	if (sbs)
		json_object_set_new(
		    res->plan, "side_by_side",
		    json_pack("{s:[s,s], s:s}", "variants", "a", "b", "order", "abba"));
	struct res_query *q = res_file_add_query(res, "Q1", SHA);
	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	for (int i = 0; i < n; i++) {
		struct res_restart r;
		memset(&r, 0, sizeof(r));
		r.index = i;
		r.status = RES_STATUS_OK;
		r.rows = 1;
		r.measured_ms = (double *)ms[i];
		r.n_measured = 2;
		CU_ASSERT_PTR_NOT_NULL_FATAL(res_query_add_restart(q, &r));
	}
	return res;
}

/* Pair i: a = (100, 300) and b = (150, 200) (times i + 1). The pair's mean log ratio is
 * (log 1.5 + log(2/3)) / 2 = 0; the log ratio of its means log(175 / 200) = -0.1335. */
TH_TEST(rpt_sbs, pairs_are_mean_log_ratios)
{
	double a[4][2], b[4][2];
	for (int i = 0; i < 4; i++) {
		a[i][0] = 100 * (i + 1), a[i][1] = 300 * (i + 1);
		b[i][0] = 150 * (i + 1), b[i][1] = 200 * (i + 1);
	}
	for (int sbs = 0; sbs < 2; sbs++) {
		struct res_file *fa = make_file("a", sbs, a, 4), *fb = make_file("b", sbs, b, 4);
		struct rpt_file_info ia = {"a.json", fa}, ib = {"b.json", fb};
		struct rpt_compare_opts o;
		struct rpt_compare *c = NULL;
		struct errbuf err = {{0}};
		rpt_compare_opts_init(&o);
		int rc = rpt_compare_build(&c, &ia, &ib, NULL, &o, &err);
		CU_ASSERT_EQUAL_FATAL(rc, 0);
		CU_ASSERT_EQUAL(c->paired, 1);
		CU_ASSERT_EQUAL(c->sbs, sbs);
		CU_ASSERT_EQUAL(c->queries[0].sbs, sbs);
		double pa[4], pb[4];
		CU_ASSERT_EQUAL(rpt_query_pairs(pa, pb, &c->queries[0]), 4);
		for (int i = 0; i < 4; i++)
			CU_ASSERT_DOUBLE_EQUAL(log(pb[i] / pa[i]), sbs ? 0 : log(175.0 / 200.0),
					       1e-12);
		json_t *rep = json_object();
		rpt_seq_json(rep, c);
		json_t *p = json_object_get(rep, "pairing");
		CU_ASSERT_EQUAL(json_is_true(json_object_get(p, "side_by_side")), sbs);
		CU_ASSERT_EQUAL(
		    strstr(json_string_value(json_object_get(p, "why")), "side by side") != NULL,
		    sbs);
		json_decref(rep);
		rpt_compare_free(c);
		o.adjust_memory = 1; /* side by side: refused with one line */
		rc = rpt_compare_build(&c, &ia, &ib, NULL, &o, &err);
		if (sbs) {
			CU_ASSERT_EQUAL(rc, -1);
			CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "drop --adjust-memory"));
		}
		rpt_compare_free(rc == 0 ? c : NULL);
		res_file_free(fa);
		res_file_free(fb);
	}
}

/* A pair whose sides measured different counts uses the executions both have: a = (100, 400),
 * b = (200) gives log(200 / 100). */
TH_TEST(rpt_sbs, uneven_pair_uses_common_executions)
{
	double a[2][2] = {{100, 400}, {100, 400}}, b[2][2] = {{200, 0}, {200, 0}};
	struct res_file *fa = make_file("a", 1, a, 2), *fb = make_file("b", 1, b, 2);
	for (size_t i = 0; i < fb->queries[0].n_restarts; i++)
		fb->queries[0].restarts[i].n_measured = 1;
	struct rpt_file_info ia = {"a.json", fa}, ib = {"b.json", fb};
	struct rpt_compare_opts o;
	struct rpt_compare *c = NULL;
	struct errbuf err;
	rpt_compare_opts_init(&o);
	CU_ASSERT_EQUAL_FATAL(rpt_compare_build(&c, &ia, &ib, NULL, &o, &err), 0);
	double pa[2], pb[2];
	CU_ASSERT_EQUAL(rpt_query_pairs(pa, pb, &c->queries[0]), 2);
	CU_ASSERT_DOUBLE_EQUAL(log(pb[0] / pa[0]), log(2.0), 1e-12);
	rpt_compare_free(c);
	res_file_free(fa);
	res_file_free(fb);
}

/* The reader's check of an entry's pair record: a good one, then each member broken. */
TH_TEST(rpt_sbs, pair_record_checked)
{
	static const char *const bad[] = {
	    "{\"order\": \"AB\", \"started_unix_ms\": [1, 2], \"pids\": [3, 4]}",
	    "{\"first\": \"a\", \"order\": \"AXB\", \"started_unix_ms\": [1, 2], \"pids\": [3, 4]}",
	    "{\"first\": \"a\", \"order\": \"A+B\", \"started_unix_ms\": [1, 2], \"pids\": [3, 4]}",
	    "{\"first\": \"a\", \"order\": \"AB\", \"started_unix_ms\": [1], \"pids\": [3, 4]}",
	    "{\"first\": \"a\", \"order\": \"AB\", \"started_unix_ms\": [1, -2], \"pids\": [3, 4]}",
	    "{\"first\": \"a\", \"order\": \"AB\", \"started_unix_ms\": [1, 2], \"pids\": [3, "
	    "4.5]}",
	};
	static const char *const bad_key[] = {"first",		 "order",	    "order",
					      "started_unix_ms", "started_unix_ms", "pids"};
	char key[80], msg[160];
	json_error_t jerr;
	json_t *good = json_loads("{\"first\": \"b\", \"order\": \"BAAB+\", "
				  "\"started_unix_ms\": [1.5, 2], \"pids\": [3, 4]}",
				  0, &jerr);
	CU_ASSERT_EQUAL(res_sbs_check(good, key, sizeof(key), msg, sizeof(msg)), 0);
	json_decref(good);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *o = json_loads(bad[i], 0, &jerr);
		CU_ASSERT_PTR_NOT_NULL_FATAL(o);
		CU_ASSERT_EQUAL(res_sbs_check(o, key, sizeof(key), msg, sizeof(msg)), -1);
		CU_ASSERT_STRING_EQUAL(key, bad_key[i]);
		json_decref(o);
	}
}

TH_MAIN(rpt_sbs)
