/* SPDX-License-Identifier: MIT */
/* Where the rows went (result/res_analyze.h, reports/rpt_analyze.c): the real ANALYZE FORMAT=JSON
 * outputs of tests/data/explain (analyze_expected.py says whence) against what that script
 * derives with its own code, MySQL 8's EXPLAIN ANALYZE in the manual's form, the record. */
#include "harness.h"
#include "reports/rpt.h"
#include "result/res_analyze.h"
#include "tests/th_schema.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIR DBT3_SOURCE_DIR "/tests/data/explain/"

static const char *const queries[] = {"Q4", "Q18", "Q20", "Q21"};

static void parse_fixture(struct res_analyze *a, const char *side, const char *q)
{
	char path[256];
	struct errbuf err;
	snprintf(path, sizeof(path), DIR "analyze-%s-%s.json", side, q);
	char *text = th_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_EQUAL_FATAL(res_analyze_parse_json(a, text, &err), 0);
	free(text);
}

/* The expected "changed" list of a pair's query is the C model's rows, in its order. */
static void check_changed(const struct rpt_analyze *m, json_t *want, const char *what)
{
	CU_ASSERT_EQUAL(m->n_rows, json_array_size(want));
	if (m->n_rows != json_array_size(want)) {
		fprintf(stderr, "%s: %zu changed tables, expected %zu\n", what, m->n_rows,
			json_array_size(want));
		return;
	}
	for (size_t i = 0; i < m->n_rows; i++) {
		json_t *w = json_array_get(want, i);
		const struct rpt_arows *r = &m->rows[i];
		const struct res_atable *t = r->old ? r->old : r->new;
		CU_ASSERT_STRING_EQUAL(t->alias, json_string_value(json_array_get(w, 0)));
		CU_ASSERT_EQUAL(t->occurrence, json_integer_value(json_array_get(w, 1)));
		json_t *o = json_array_get(w, 2), *n = json_array_get(w, 3);
		CU_ASSERT(json_is_null(o) ? isnan(r->old_rows)
					  : llround(r->old_rows) == json_integer_value(o));
		CU_ASSERT(json_is_null(n) ? isnan(r->new_rows)
					  : llround(r->new_rows) == json_integer_value(n));
	}
}

/* The model compare builds from the result files that carry the fixtures' records names the
 * tables (and both counts) the script derives from the fixtures' text; for every query of the
 * semijoin A/B at least one, and none of the A/A. */
TH_TEST(res_analyze, compare_names_the_tables_the_script_derives)
{
	static const char *const pairs[][3] = {{"ab", "on", "off"}, {"aa", "on", "on2"}};
	char *text = th_slurp(DIR "analyze_expected.json");
	json_t *exp = json_loads(text, 0, NULL);
	free(text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(exp);
	for (size_t p = 0; p < 2; p++) {
		struct res_file *a = NULL, *b = NULL;
		struct errbuf err;
		char pa[256], pb[256];
		snprintf(pa, sizeof(pa), DIR "analyze-%s-%s.json", pairs[p][0], pairs[p][1]);
		snprintf(pb, sizeof(pb), DIR "analyze-%s-%s.json", pairs[p][0], pairs[p][2]);
		CU_ASSERT_EQUAL_FATAL(res_file_read(&a, pa, &err), 0);
		CU_ASSERT_EQUAL_FATAL(res_file_read(&b, pb, &err), 0);
		for (size_t i = 0; i < 4; i++) {
			struct rpt_analyze m;
			json_t *w = json_object_get(json_object_get(exp, pairs[p][0]), queries[i]);
			CU_ASSERT_EQUAL_FATAL(rpt_analyze_build(&m,
								res_file_find_query(a, queries[i]),
								res_file_find_query(b, queries[i])),
					      0);
			CU_ASSERT(m.compared);
			CU_ASSERT(!m.varies);
			check_changed(&m, json_object_get(w, "changed"), queries[i]);
			CU_ASSERT(p == 0 ? m.n_rows > 0 : m.n_rows == 0);
			json_t *e = json_object_get(w, "estimate_errors");
			CU_ASSERT_EQUAL(m.n_est, json_array_size(json_object_get(e, "old")) +
						     json_array_size(json_object_get(e, "new")));
			rpt_analyze_release(&m);
		}
		res_file_free(a);
		res_file_free(b);
	}
	json_decref(exp);
}

/* The parser on the text the server printed, and the record written from it and read back,
 * agree table by table with the records the script wrote into the result files. */
TH_TEST(res_analyze, record_of_the_server_text_round_trips)
{
	struct res_file *rf = NULL;
	struct errbuf err;
	CU_ASSERT_EQUAL_FATAL(res_file_read(&rf, DIR "analyze-ab-off.json", &err), 0);
	for (size_t i = 0; i < 4; i++) {
		struct res_analyze a, back;
		char key[64], msg[160];
		parse_fixture(&a, "off", queries[i]);
		json_t *rec = res_analyze_json(&a);
		CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
		CU_ASSERT_EQUAL(res_analyze_check(rec, key, sizeof(key), msg, sizeof(msg)), 0);
		CU_ASSERT_EQUAL(res_analyze_from_json(&back, rec), 1);
		CU_ASSERT_EQUAL(back.n_tables, a.n_tables);
		CU_ASSERT_EQUAL(back.n_ops, a.n_ops);
		const struct res_restart *r = &res_file_find_query(rf, queries[i])->restarts[0];
		json_t *py = json_object_get(json_object_get(r->extra, "analyze"), "tables");
		CU_ASSERT_EQUAL(json_array_size(py), a.n_tables);
		for (size_t t = 0; t < a.n_tables && t < json_array_size(py); t++) {
			json_t *pt = json_array_get(py, t);
			double ex = res_atable_examined(&a.tables[t]);
			json_t *l = json_object_get(pt, "r_loops"),
			       *rr = json_object_get(pt, "r_rows");
			CU_ASSERT_STRING_EQUAL(a.tables[t].alias,
					       json_string_value(json_object_get(pt, "table")));
			CU_ASSERT_EQUAL(a.tables[t].select_id,
					json_integer_value(json_object_get(pt, "select")));
			double py_ex =
			    l ? json_number_value(l) * (rr ? json_number_value(rr) : 0) : NAN;
			CU_ASSERT(l ? fabs(ex - py_ex) < 1e-6 : isnan(ex));
			CU_ASSERT(res_atable_examined(&back.tables[t]) == ex ||
				  (isnan(ex) && isnan(res_atable_examined(&back.tables[t]))));
		}
		json_decref(rec);
		res_analyze_release(&a);
		res_analyze_release(&back);
	}
	res_file_free(rf);
}

/* The ops and their r_ members: Q20 under semijoin=off sorts in a temporary table and
 * materializes two subqueries. */
TH_TEST(res_analyze, ops_keep_their_counts_not_their_times)
{
	struct res_analyze a;
	parse_fixture(&a, "off", "Q20");
	int filesort = 0, mat = 0;
	for (size_t i = 0; i < a.n_ops; i++) {
		const struct res_aop *o = &a.ops[i];
		if (strcmp(o->name, "filesort") == 0) {
			filesort++;
			CU_ASSERT_EQUAL(json_integer_value(json_object_get(o->r, "r_output_rows")),
					9);
			CU_ASSERT_PTR_NULL(json_object_get(o->r, "r_total_time_ms"));
		}
		mat += strncmp(o->name, "subquery materialization(#", 26) == 0;
	}
	CU_ASSERT_EQUAL(filesort, 1);
	CU_ASSERT_EQUAL(mat, 2);
	res_analyze_release(&a);
}

/* MySQL 8.0 reference manual, "EXPLAIN ANALYZE": the hash join example as the client prints
 * it (\G, the actuals wrapped to their own line), and a filter over a range scan. */
static const char manual_join[] =
    "EXPLAIN: -> Inner hash join (t2.c2 = t1.c1)  (cost=4.70 rows=6)\n"
    "(actual time=0.032..0.035 rows=6 loops=1)\n"
    "    -> Table scan on t2  (cost=0.06 rows=6)\n"
    "(actual time=0.003..0.005 rows=6 loops=1)\n"
    "    -> Hash\n"
    "        -> Table scan on t1  (cost=0.85 rows=6)\n"
    "(actual time=0.018..0.022 rows=6 loops=1)\n";

static const char manual_filter[] =
    "-> Filter: (t3.pk > 17)  (cost=1.26 rows=5) (actual time=0.013..0.016 rows=5 loops=1)\n"
    "    -> Index range scan on t3 using PRIMARY  (cost=1.26 rows=5) "
    "(actual time=0.012..0.014 rows=15 loops=1)\n";

/* A TPC-H Q20 plan in the same form (MySQL 8.0.3x's iterator names): a semi-join by nested
 * loops with a subquery block, a lookup that never ran, a sort on a temporary table. */
static const char q20_tree[] =
    "-> Sort: supplier.s_name  (actual time=95.2..95.2 rows=9 loops=1)\n"
    "    -> Stream results  (cost=4561 rows=792) (actual time=12.1..95.1 rows=9 loops=1)\n"
    "        -> Nested loop semijoin  (cost=4561 rows=792) (actual time=12..95 rows=9 "
    "loops=1)\n"
    "            -> Nested loop inner join  (cost=52.5 rows=40) (actual time=0.3..1.9 "
    "rows=37 loops=1)\n"
    "                -> Filter: (nation.n_name = 'CANADA')  (cost=2.75 rows=2.5) (actual "
    "time=0.05..0.06 rows=1 loops=1)\n"
    "                    -> Table scan on nation  (cost=2.75 rows=25) (actual "
    "time=0.04..0.05 rows=25 loops=1)\n"
    "                -> Index lookup on supplier using i_s_nationkey "
    "(s_nationkey=nation.n_nationkey)  (cost=20 rows=40) (actual time=0.2..1.8 rows=37 "
    "loops=1)\n"
    "            -> Nested loop inner join  (cost=113 rows=20) (actual time=2.5..2.5 "
    "rows=0.243 loops=37)\n"
    "                -> Index lookup on partsupp using i_ps_suppkey "
    "(ps_suppkey=supplier.s_suppkey)  (cost=10 rows=80) (actual time=0.01..0.2 rows=69.4 "
    "loops=37)\n"
    "                -> Single-row index lookup on part using PRIMARY "
    "(p_partkey=partsupp.ps_partkey)  (cost=0.25 rows=1) (never executed)\n"
    "            -> Select #4 (subquery in condition; dependent)\n"
    "                -> Aggregate: sum(lineitem.l_quantity)  (actual time=0.1..0.1 rows=1 "
    "loops=760)\n"
    "                    -> Index lookup on lineitem using i_l_suppkey_partkey "
    "(l_partkey=partsupp.ps_partkey, l_suppkey=partsupp.ps_suppkey)  (cost=3 rows=7.5) "
    "(actual time=0.02..0.1 rows=7.49 loops=760)\n"
    "    -> Table scan on <temporary>  (actual time=0.01..0.01 rows=9 loops=1)\n";

TH_TEST(res_analyze, mysql_tree_as_the_manual_prints_it)
{
	struct res_analyze a;
	struct errbuf err;
	CU_ASSERT_EQUAL_FATAL(res_analyze_parse_tree(&a, manual_join, &err), 0);
	CU_ASSERT_EQUAL_FATAL(a.n_tables, 2);
	CU_ASSERT_STRING_EQUAL(a.tables[0].alias, "t2");
	CU_ASSERT_STRING_EQUAL(a.tables[1].alias, "t1");
	CU_ASSERT_EQUAL(res_atable_examined(&a.tables[1]), 6);
	CU_ASSERT_EQUAL(a.tables[1].rows, 6);
	CU_ASSERT_EQUAL(a.tables[1].select_id, 1);
	res_analyze_release(&a);
	CU_ASSERT_EQUAL_FATAL(res_analyze_parse_tree(&a, manual_filter, &err), 0);
	CU_ASSERT_EQUAL_FATAL(a.n_tables, 1);
	CU_ASSERT_STRING_EQUAL(a.tables[0].alias, "t3");
	CU_ASSERT_EQUAL(a.tables[0].r_rows, 15);
	CU_ASSERT(fabs(a.tables[0].r_filtered - 100.0 * 5 / 15) < 1e-9);
	CU_ASSERT_EQUAL(a.tables[0].filtered, 100);
	res_analyze_release(&a);
	CU_ASSERT_EQUAL(res_analyze_parse_tree(&a, "-> Rows fetched before execution\n", &err), -1);
}

TH_TEST(res_analyze, mysql_tree_of_a_tpch_plan)
{
	static const struct {
		const char *alias;
		long sel;
		double examined, est;
	} want[] = {{"nation", 1, 25, 25},
		    {"supplier", 1, 37, 40},
		    {"partsupp", 1, 37 * 69.4, 80},
		    {"part", 1, 0, 1},
		    {"lineitem", 4, 760 * 7.49, 7.5}};
	struct res_analyze a;
	struct errbuf err;
	CU_ASSERT_EQUAL_FATAL(res_analyze_parse_tree(&a, q20_tree, &err), 0);
	CU_ASSERT_EQUAL_FATAL(a.n_tables, 5);
	for (size_t i = 0; i < 5; i++) {
		CU_ASSERT_STRING_EQUAL(a.tables[i].alias, want[i].alias);
		CU_ASSERT_EQUAL(a.tables[i].select_id, want[i].sel);
		CU_ASSERT(fabs(res_atable_examined(&a.tables[i]) - want[i].examined) < 1e-6);
		CU_ASSERT_EQUAL(a.tables[i].rows, want[i].est);
	}
	CU_ASSERT(fabs(a.tables[0].r_filtered - 4) < 1e-9);
	CU_ASSERT(fabs(a.tables[0].filtered - 10) < 1e-9);
	CU_ASSERT_EQUAL_FATAL(a.n_ops, 2);
	CU_ASSERT_STRING_EQUAL(a.ops[0].name, "filesort");
	CU_ASSERT_STRING_EQUAL(a.ops[1].name, "temporary table");
	CU_ASSERT_EQUAL(json_number_value(json_object_get(a.ops[1].r, "r_rows")), 9);
	res_analyze_release(&a);
}

TH_TEST(res_analyze, rule_and_estimate_errors)
{
	CU_ASSERT(!res_analyze_rows_changed(5694.0000001, 5694));
	CU_ASSERT(res_analyze_rows_changed(5694, 5695));
	CU_ASSERT(!res_analyze_rows_changed(NAN, NAN));
	CU_ASSERT(res_analyze_rows_changed(8100, NAN));
	struct res_atable t = {.alias = "supplier", .r_loops = 1, .r_rows = 1000, .rows = 10};
	CU_ASSERT(res_analyze_estimate_off(&t));
	t.rows = 101;
	CU_ASSERT(!res_analyze_estimate_off(&t));
	t.rows = 10000;
	CU_ASSERT(res_analyze_estimate_off(&t));
	t.r_rows = 0.001, t.rows = 9.9; /* each taken as at least 1 */
	CU_ASSERT(!res_analyze_estimate_off(&t));
	t.r_loops = 0, t.rows = 1000;
	CU_ASSERT(!res_analyze_estimate_off(&t)); /* never read */
	char buf[40];
	rpt_analyze_fmt_rows(buf, sizeof(buf), 1000);
	CU_ASSERT_STRING_EQUAL(buf, "1 000");
	rpt_analyze_fmt_rows(buf, sizeof(buf), 600572);
	CU_ASSERT_STRING_EQUAL(buf, "600 572");
	rpt_analyze_fmt_rows(buf, sizeof(buf), 35);
	CU_ASSERT_STRING_EQUAL(buf, "35");
}

TH_TEST(res_analyze, malformed_records_are_refused)
{
	static const char *const bad[] = {
	    "[]",
	    "{\"tables\": []}",
	    "{\"tables\": [], \"ops\": [], \"x\": 1}",
	    "{\"tables\": [{\"select\": 1}], \"ops\": []}",
	    "{\"tables\": [{\"table\": \"\", \"select\": 1}], \"ops\": []}",
	    "{\"tables\": [{\"table\": \"t\", \"select\": 1, \"r_rows\": -1}], \"ops\": []}",
	    "{\"tables\": [{\"table\": \"t\", \"select\": 1, \"r_filtered\": 101}], \"ops\": []}",
	    "{\"tables\": [{\"table\": \"t\", \"select\": 1, \"extra\": 1}], \"ops\": []}",
	    "{\"tables\": [{\"table\": \"t\", \"select\": 1.5}], \"ops\": []}",
	    "{\"tables\": [], \"ops\": [{\"op\": \"filesort\", \"select\": 1}]}",
	    "{\"tables\": [], \"ops\": [{\"op\": \"filesort\", \"select\": 1, \"r\": {\"r_loops\": "
	    "\"1\"}}]}",
	};
	char key[64], msg[160];
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *v = json_loads(bad[i], 0, NULL);
		CU_ASSERT_PTR_NOT_NULL_FATAL(v);
		CU_ASSERT_EQUAL(res_analyze_check(v, key, sizeof(key), msg, sizeof(msg)), -1);
		json_decref(v);
	}
	json_t *ok = json_loads("{\"tables\": [{\"table\": \"t\", \"select\": -1, \"r_loops\": 0}],"
				" \"ops\": [{\"op\": \"filesort\", \"select\": 1, \"r\": {}}]}",
				0, NULL);
	CU_ASSERT_EQUAL(res_analyze_check(ok, key, sizeof(key), msg, sizeof(msg)), 0);
	json_decref(ok);
}

/* The result files that carry the records are valid against docs/result.schema.json and read. */
TH_TEST(res_analyze, fixture_files_are_valid_results)
{
	static const char *const files[] = {"analyze-ab-on.json", "analyze-ab-off.json",
					    "analyze-aa-on.json", "analyze-aa-on2.json"};
	for (size_t i = 0; i < 4; i++) {
		char path[256];
		snprintf(path, sizeof(path), DIR "%s", files[i]);
		res_file_free(th_result_read_valid(path));
	}
}

/* A record out of bounds: the reader refuses the file with one line naming the member, and the
 * schema agrees. */
TH_TEST(res_analyze, reader_refuses_a_bad_record)
{
	json_t *doc = json_load_file(DIR "analyze-ab-off.json", 0, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	json_t *t = json_array_get(
	    json_object_get(
		json_object_get(
		    json_array_get(
			json_object_get(json_array_get(json_object_get(doc, "queries"), 0),
					"restarts"),
			0),
		    "analyze"),
		"tables"),
	    0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	json_object_set_new(t, "r_filtered", json_integer(250));
	char *dir = th_tempdir("analyze");
	char path[512];
	snprintf(path, sizeof(path), "%s/bad.json", dir);
	CU_ASSERT_EQUAL_FATAL(json_dump_file(doc, path, 0), 0);
	struct res_file *rf = NULL;
	struct errbuf err;
	CU_ASSERT_EQUAL(res_file_read(&rf, path, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "$.queries[0].restarts[0].analyze.tables[0]"));
	json_t *schema = json_load_file(DBT3_SOURCE_DIR "/docs/result.schema.json", 0, NULL);
	CU_ASSERT_EQUAL(th_schema_validate(schema, doc, &err), -1);
	json_decref(schema);
	json_decref(doc);
	th_rmtree(dir);
	free(dir);
}

TH_MAIN(res_analyze)
