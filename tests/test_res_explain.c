/* SPDX-License-Identifier: MIT */
/* The plan shape, its fingerprint and the structural plan diff (result/res_explain.h,
 * reports/rpt_plan.h) on the real plans of tests/data/explain (extract.py says whence). */
#include "harness.h"
#include "reports/rpt_plan.h"
#include "result/res_explain.h"
#include "tests/th_rpt.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIR DBT3_SOURCE_DIR "/tests/data/explain/"
#define MAX_FIX 64

struct fixture {
	char name[64];
	char sha[65];
	char *text;
};

/* The fixtures of sha256.tsv, each with its plan text; returns how many. */
static size_t load_fixtures(struct fixture *fx)
{
	char *tsv = th_slurp(DIR "sha256.tsv"), *save = NULL;
	size_t n = 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(tsv);
	for (char *l = strtok_r(tsv, "\n", &save); l && n < MAX_FIX;
	     l = strtok_r(NULL, "\n", &save)) {
		CU_ASSERT_EQUAL_FATAL(sscanf(l, "%63s %64s", fx[n].name, fx[n].sha), 2);
		char path[256];
		snprintf(path, sizeof(path), DIR "%s", fx[n].name);
		fx[n].text = th_slurp(path);
		CU_ASSERT_PTR_NOT_NULL_FATAL(fx[n].text);
		n++;
	}
	free(tsv);
	return n;
}

static void free_fixtures(struct fixture *fx, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(fx[i].text);
}

static struct rpt_plan *plan_pair(const char *old_name, const char *new_name)
{
	char po[256], pn[256];
	snprintf(po, sizeof(po), DIR "%s", old_name);
	snprintf(pn, sizeof(pn), DIR "%s", new_name);
	char *a = th_slurp(po), *b = th_slurp(pn);
	struct rpt_plan *p = NULL;
	struct errbuf err;
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL_FATAL(rpt_plan_build(&p, a, b, &err), 0);
	free(a);
	free(b);
	return p;
}

/* The shape code is what the runs that stored these plans hashed: the same plan_sha256. */
TH_TEST(res_explain, shape_hashes_to_the_stored_plan_sha256)
{
	struct fixture fx[MAX_FIX];
	size_t n = load_fixtures(fx);
	CU_ASSERT(n >= 20);
	for (size_t i = 0; i < n; i++) {
		char *shape = NULL, hex[65];
		struct errbuf err;
		CU_ASSERT_EQUAL_FATAL(res_explain_shape(fx[i].text, &shape, &err), 0);
		util_sha256_hex(hex, shape, strlen(shape));
		if (strcmp(hex, fx[i].sha) != 0)
			fprintf(stderr, "%s: %s, stored %s\n", fx[i].name, hex, fx[i].sha);
		CU_ASSERT_STRING_EQUAL(hex, fx[i].sha);
		free(shape);
	}
	free_fixtures(fx, n);
}

/* For every pair of stored plans: no plan change in the diff <=> the same plan_sha256. */
TH_TEST(res_explain, diff_empty_exactly_when_fingerprints_equal)
{
	struct fixture fx[MAX_FIX];
	size_t n = load_fixtures(fx), same = 0, differ = 0;
	struct res_xplan *p = calloc(n, sizeof(*p));
	struct errbuf err;
	for (size_t i = 0; i < n; i++)
		CU_ASSERT_EQUAL_FATAL(res_xplan_parse(&p[i], fx[i].text, &err), 0);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			struct res_xdiff d;
			CU_ASSERT_EQUAL_FATAL(res_xdiff_build(&d, &p[i], &p[j]), 0);
			int empty = res_xdiff_plan_changes(&d) == 0;
			int eq = strcmp(fx[i].sha, fx[j].sha) == 0;
			if (empty != eq)
				fprintf(stderr, "%s vs %s: diff %s, sha %s\n", fx[i].name,
					fx[j].name, empty ? "empty" : "not empty",
					eq ? "equal" : "differs");
			CU_ASSERT_EQUAL(empty, eq);
			eq ? same++ : differ++;
			res_xdiff_release(&d);
		}
	CU_ASSERT(same > n && differ > n); /* both sides of the equivalence were exercised */
	for (size_t i = 0; i < n; i++)
		res_xplan_release(&p[i]);
	free(p);
	free_fixtures(fx, n);
}

/* Reverses the order of every object's members, recursively (a new reference). */
static json_t *reversed(json_t *v)
{
	if (json_is_array(v)) {
		json_t *a = json_array();
		for (size_t i = 0; i < json_array_size(v); i++)
			json_array_append_new(a, reversed(json_array_get(v, i)));
		return a;
	}
	if (!json_is_object(v))
		return json_incref(v);
	const char *keys[64];
	size_t n = 0;
	const char *k;
	json_t *m;
	json_object_foreach(v, k, m) if (n < 64) keys[n++] = k;
	json_t *o = json_object();
	while (n--)
		json_object_set_new(o, keys[n], reversed(json_object_get(v, keys[n])));
	return o;
}

/* Estimates, costs, conditions and the order of members are no plan change; the fingerprint
 * sees a reorder (compare then trusts the diff: docs/explain.md). */
TH_TEST(res_explain, estimates_costs_and_member_order_are_no_plan_change)
{
	char *text = th_slurp(DIR "ab-Q20-old.json");
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	json_t *doc = json_loads(text, 0, NULL);
	json_t *t;
	t = json_object_get(
	    json_array_get(
		json_object_get(json_object_get(json_object_get(json_object_get(doc, "query_block"),
								"filesort"),
						"temporary_table"),
				"nested_loop"),
		2),
	    "table");
	CU_ASSERT_STRING_EQUAL_FATAL(json_string_value(json_object_get(t, "table_name")),
				     "partsupp");
	json_object_set_new(t, "rows", json_integer(4000));
	json_object_set_new(t, "filtered", json_real(12.5));
	json_object_del(t, "attached_condition");
	json_object_set_new(t, "cost_info", json_pack("{s:s}", "read_cost", "17.0"));
	json_t *r = reversed(doc);
	char *moved = json_dumps(r, 0), *a = NULL, *b = NULL;
	struct res_xplan po, pn;
	struct res_xdiff d;
	struct errbuf err;
	CU_ASSERT_EQUAL_FATAL(res_xplan_parse(&po, text, &err), 0);
	CU_ASSERT_EQUAL_FATAL(res_xplan_parse(&pn, moved, &err), 0);
	CU_ASSERT_EQUAL_FATAL(res_xdiff_build(&d, &po, &pn), 0);
	CU_ASSERT_EQUAL(res_xdiff_plan_changes(&d), 0);
	CU_ASSERT_EQUAL(d.n_tables, 0); /* estimates alone do not list a table */
	CU_ASSERT_EQUAL(res_explain_shape(text, &a, &err), 0);
	CU_ASSERT_EQUAL(res_explain_shape(moved, &b, &err), 0);
	CU_ASSERT_STRING_NOT_EQUAL(a, b); /* the member order is in the fingerprint */
	res_xdiff_release(&d);
	res_xplan_release(&po);
	res_xplan_release(&pn);
	free(a);
	free(b);
	free(moved);
	json_decref(r);
	json_decref(doc);
	free(text);
}

/* The semijoin A/B (semijoin=off against the default, SF 0.1): each of Q4, Q18, Q20, Q21 names a
 * table whose access or place changed and the strategy that changed; the A/A shows nothing. */
TH_TEST(res_explain, semijoin_ab_names_tables_and_strategies)
{
	static const char *const q[] = {"Q4", "Q18", "Q20", "Q21"};
	for (size_t i = 0; i < 4; i++) {
		char a[64], b[64];
		snprintf(a, sizeof(a), "ab-%s-old.json", q[i]);
		snprintf(b, sizeof(b), "ab-%s-new.json", q[i]);
		struct rpt_plan *p = plan_pair(a, b);
		size_t placed = 0;
		for (size_t t = 0; t < p->diff.n_tables; t++)
			placed += (p->diff.tables[t].what & (RES_X_POSITION | RES_X_ACCESS |
							     RES_X_ADDED | RES_X_REMOVED)) != 0;
		CU_ASSERT(placed >= 1);
		CU_ASSERT(p->diff.n_strategies >= 1);
		CU_ASSERT_FALSE(p->diff.other);
		rpt_plan_free(p);
		snprintf(a, sizeof(a), "aa-%s-old.json", q[i]);
		snprintf(b, sizeof(b), "aa-%s-new.json", q[i]);
		p = plan_pair(a, b);
		CU_ASSERT_EQUAL(res_xdiff_plan_changes(&p->diff), 0);
		rpt_plan_free(p);
	}
}

/* compare's text and Markdown lines of the real pairs, against diff.txt (at most 5 a query). */
TH_TEST(res_explain, text_of_real_pairs_matches_golden)
{
	static const char *const pairs[] = {"ab-Q4",   "ab-Q18",  "ab-Q20", "ab-Q21", "dec-Q4",
					    "dec-Q20", "dec-Q21", "aa-Q20", NULL};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	for (size_t i = 0; pairs[i]; i++) {
		char a[64], b[64];
		snprintf(a, sizeof(a), "%s-old.json", pairs[i]);
		snprintf(b, sizeof(b), "%s-new.json", pairs[i]);
		struct rpt_plan *p = plan_pair(a, b);
		fprintf(f, "%s\n", pairs[i]);
		CU_ASSERT(rpt_plan_write(f, strchr(pairs[i], 'Q'), p, "  ", 0) <= RPT_PLAN_LINES);
		if (i == 2)
			rpt_plan_write(f, "Q20", p, "- ", 1);
		rpt_plan_free(p);
	}
	fclose(f);
	char *want = th_slurp(DIR "diff.txt");
	CU_ASSERT_PTR_NOT_NULL_FATAL(want);
	if (strcmp(buf, want) != 0)
		fprintf(stderr, "got:\n%s", buf);
	CU_ASSERT_STRING_EQUAL(buf, want);
	free(want);
	free(buf);
}

/* MySQL 8's EXPLAIN FORMAT=JSON members (rows_examined_per_scan, filtered as a string,
 * ordering_operation, duplicates_removal, using_join_buffer, first_match), in the form of the
 * MySQL 8.0 Reference Manual's examples; no MySQL 8 server is available to make real ones. */
static const char mysql_firstmatch[] =
    "{\"query_block\": {\"select_id\": 1, \"cost_info\": {\"query_cost\": \"2921.12\"},"
    " \"ordering_operation\": {\"using_temporary_table\": true, \"using_filesort\": true,"
    " \"grouping_operation\": {\"using_filesort\": false, \"nested_loop\": ["
    "{\"table\": {\"table_name\": \"orders\", \"access_type\": \"range\", \"possible_keys\":"
    " [\"i_o_orderdate\"], \"key\": \"i_o_orderdate\", \"used_key_parts\": [\"o_orderdate\"],"
    " \"key_length\": \"4\", \"rows_examined_per_scan\": 5673, \"rows_produced_per_join\":"
    " 5673, \"filtered\": \"100.00\", \"using_index_condition\": \"(...)\", \"cost_info\":"
    " {\"read_cost\": \"2553.56\"}, \"used_columns\": [\"o_orderkey\"]}},"
    "{\"table\": {\"table_name\": \"lineitem\", \"access_type\": \"ref\", \"key\": \"PRIMARY\","
    " \"used_key_parts\": [\"l_orderkey\"], \"ref\": [\"dbt3.orders.o_orderkey\"],"
    " \"rows_examined_per_scan\": 4, \"filtered\": \"33.33\", \"first_match\": \"orders\","
    " \"attached_condition\": \"(...)\"}}]}}}}";
static const char mysql_weedout[] =
    "{\"query_block\": {\"select_id\": 1, \"cost_info\": {\"query_cost\": \"9100.40\"},"
    " \"ordering_operation\": {\"using_temporary_table\": true, \"using_filesort\": true,"
    " \"grouping_operation\": {\"using_filesort\": false, \"duplicates_removal\": {"
    "\"using_temporary_table\": true, \"nested_loop\": ["
    "{\"table\": {\"table_name\": \"lineitem\", \"access_type\": \"ALL\","
    " \"rows_examined_per_scan\": 600572, \"filtered\": \"33.33\","
    " \"attached_condition\": \"(...)\"}},"
    "{\"table\": {\"table_name\": \"orders\", \"access_type\": \"ALL\","
    " \"rows_examined_per_scan\": 150000, \"filtered\": \"11.11\", \"using_join_buffer\":"
    " \"hash join\", \"attached_condition\": \"(...)\"}}]}}}}}";

TH_TEST(res_explain, mysql8_members_are_read)
{
	struct rpt_plan *p = NULL;
	struct errbuf err;
	CU_ASSERT_EQUAL_FATAL(rpt_plan_build(&p, mysql_firstmatch, mysql_weedout, &err), 0);
	const struct res_xplan *o = &p->old;
	CU_ASSERT_EQUAL_FATAL(o->n_tables, 2);
	CU_ASSERT_STRING_EQUAL(o->tables[1].alias, "lineitem");
	CU_ASSERT_DOUBLE_EQUAL(o->tables[1].rows, 4, 0);
	CU_ASSERT_DOUBLE_EQUAL(o->tables[1].filtered, 33.33, 1e-9);
	CU_ASSERT_STRING_EQUAL(o->tables[1].ref, "dbt3.orders.o_orderkey");
	CU_ASSERT_EQUAL(o->tables[1].position, 2);
	char buf[512];
	rpt_plan_strategy_text(buf, sizeof(buf), &p->diff);
	CU_ASSERT_STRING_EQUAL(buf, "FirstMatch(orders) in #1 -> DuplicateWeedout in #1, "
				    "temporary table in #1, join buffer(hash join) in #1");
	CU_ASSERT_EQUAL_FATAL(p->diff.n_tables, 2);
	rpt_plan_table_text(buf, sizeof(buf), &p->diff.tables[0]);
	CU_ASSERT_STRING_EQUAL(buf,
			       "position 2 -> 1, ref(PRIMARY) -> ALL, ref dbt3.orders.o_orderkey "
			       "-> none, first_match \"orders\" -> none; estimates: rows 4 -> "
			       "600572");
	rpt_plan_free(p);
}

/* Rewrites every plan of f with its members in reverse order; with rehash its plan_sha256
 * becomes the new text's shape hash, else it stays. */
static void reorder_plans(struct res_file *f, int rehash)
{
	for (size_t i = 0; i < f->n_queries; i++)
		for (size_t j = 0; j < f->queries[i].n_restarts; j++) {
			struct res_restart *r = &f->queries[i].restarts[j];
			json_t *doc = json_loads(r->plan, 0, NULL), *rev = reversed(doc);
			char *text = json_dumps(rev, 0), *shape = NULL;
			struct errbuf err;
			CU_ASSERT_EQUAL_FATAL(res_explain_shape(text, &shape, &err), 0);
			if (rehash)
				util_sha256_hex(r->plan_sha256, shape, strlen(shape));
			free(shape);
			free(r->plan);
			r->plan = text;
			json_decref(rev);
			json_decref(doc);
		}
}

static struct rpt_compare *compare_files(struct res_file *a, struct res_file *b)
{
	struct rpt_compare_opts opts;
	struct rpt_compare *c = NULL;
	struct errbuf err;
	rpt_compare_opts_init(&opts);
	struct rpt_file_info fa = {"old.json", a}, fb = {"new.json", b}, none = {NULL, NULL};
	CU_ASSERT_EQUAL_FATAL(rpt_compare_build(&c, &fa, &fb, &none, &opts, &err), 0);
	return c;
}

/* compare: a fingerprint that differs only by the member order is no plan change when the
 * fingerprints are their plans' shapes; else the fingerprints keep their word. The A/B has its
 * diff in the model. */
TH_TEST(res_explain, compare_trusts_the_diff_over_member_order)
{
	struct res_file *on = th_rpt_load("explain/dec-on.json");
	struct res_file *moved = th_rpt_load("explain/dec-on.json");
	struct res_file *off = th_rpt_load("explain/dec-off.json");
	reorder_plans(moved, 1);
	CU_ASSERT_STRING_NOT_EQUAL(on->queries[0].restarts[0].plan_sha256,
				   moved->queries[0].restarts[0].plan_sha256);
	struct rpt_compare *c = compare_files(on, moved);
	for (size_t i = 0; i < c->n_queries; i++) {
		CU_ASSERT_FALSE(c->queries[i].plan_changed);
		CU_ASSERT_PTR_NULL(c->queries[i].plan_diff);
	}
	rpt_compare_free(c);
	/* fingerprints that are not the plans' shapes (a digit altered) keep their word */
	for (size_t i = 0; i < moved->n_queries; i++)
		moved->queries[i].restarts[0].plan_sha256[0] ^= 3;
	c = compare_files(on, moved);
	for (size_t i = 0; i < c->n_queries; i++) {
		CU_ASSERT_TRUE(c->queries[i].plan_changed);
		CU_ASSERT_PTR_NULL(c->queries[i].plan_diff);
	}
	rpt_compare_free(c);
	c = compare_files(on, off);
	for (size_t i = 0; i < c->n_queries; i++) {
		CU_ASSERT_TRUE(c->queries[i].plan_changed);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c->queries[i].plan_diff);
		CU_ASSERT(res_xdiff_plan_changes(&c->queries[i].plan_diff->diff) > 0);
	}
	rpt_compare_free(c);
	res_file_free(on);
	res_file_free(moved);
	res_file_free(off);
}

TH_MAIN(res_explain)
