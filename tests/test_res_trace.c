/* SPDX-License-Identifier: MIT */
/* The optimizer trace summaries and what compare makes of two (result/res_trace.h,
 * reports/rpt_trace.h) on the real traces of tests/data/trace against what gen_trace.py derives
 * with its own code (expected.json), and a MySQL 8 trace in the manual's documented form. */
#include "harness.h"
#include "reports/rpt_trace.h"
#include "result/res.h"
#include "result/res_trace.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIR DBT3_SOURCE_DIR "/tests/data/trace/"

static const char *const queries[] = {"Q4", "Q18", "Q20", "Q21"};

/* A gzip'd trace, without its last newline (what the server returned). */
static char *gunzip(const char *name)
{
	char cmd[512];
	size_t cap = 1 << 20, n = 0, r;
	char *buf = malloc(cap);
	snprintf(cmd, sizeof(cmd), "gzip -dc '" DIR "%s'", name);
	FILE *p = popen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	while ((r = fread(buf + n, 1, cap - n - 1, p)) > 0) {
		n += r;
		if (n + 1 == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
		}
	}
	CU_ASSERT_EQUAL_FATAL(pclose(p), 0);
	while (n && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	CU_ASSERT_FATAL(n > 1000);
	return buf;
}

static json_t *expected(void)
{
	json_error_t je;
	json_t *e = json_load_file(DIR "expected.json", 0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	return e;
}

static json_t *summary_of(const char *side, const char *q)
{
	char name[64];
	struct errbuf err;
	json_t *s = NULL;
	snprintf(name, sizeof(name), "%s-%s.json.gz", side, q);
	char *text = gunzip(name);
	CU_ASSERT_EQUAL_FATAL(res_trace_summarize(&s, text, strlen(text), 0, &err), 0);
	free(text);
	return s;
}

/* The C summary of each real trace is the one gen_trace.py derives. */
TH_TEST(res_trace, summaries_are_what_the_script_derives)
{
	json_t *e = expected();
	for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); i++)
		for (int side = 0; side < 2; side++) {
			json_t *s = summary_of(side ? "off" : "on", queries[i]);
			json_t *want =
			    json_object_get(json_object_get(e, queries[i]), side ? "new" : "old");
			if (!json_equal(s, want)) {
				char *a = json_dumps(s, JSON_COMPACT);
				fprintf(stderr, "%s %s: %s\n", queries[i], side ? "off" : "on", a);
				free(a);
			}
			CU_ASSERT(json_equal(s, want));
			json_decref(s);
		}
	json_decref(e);
}

/* Q15: a materialized derived table's best_join_order is written among its parent's steps; it
 * is the derived block's, not the parent's. */
TH_TEST(res_trace, derived_tables_get_their_own_order)
{
	json_t *e = expected(), *s = summary_of("on", "Q15");
	struct res_tsum t;
	struct errbuf err;
	CU_ASSERT(json_equal(s, json_object_get(json_object_get(e, "Q15"), "old")));
	CU_ASSERT_EQUAL_FATAL(res_tsum_read(&t, s, &err), 0);
	static const struct {
		long id;
		const char *first;
		size_t n;
	} want[] = {
	    {1, "supplier", 2}, {2, "<derived4>", 1}, {3, "lineitem", 1}, {4, "lineitem", 1}};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct res_tblock *b = res_tsum_block(&t, want[i].id);
		CU_ASSERT_PTR_NOT_NULL_FATAL(b);
		CU_ASSERT_EQUAL_FATAL(b->n_order, want[i].n);
		CU_ASSERT_STRING_EQUAL(b->order[0], want[i].first);
		CU_ASSERT(b->chosen >= 0 && !isnan(b->cost));
	}
	res_tsum_release(&t);
	json_decref(s);
	json_decref(e);
}

/* A semi-join nest materialized: the order names "<subquery2>", which no step does; the chosen
 * step is the last complete one (the search completes a plan only when it is cheaper). */
TH_TEST(res_trace, materialized_nest_takes_the_last_complete_step)
{
	static const char trace[] =
	    "{\"steps\": [{\"join_optimization\": {\"select_id\": 1, \"steps\": ["
	    "{\"considered_execution_plans\": ["
	    "{\"plan_prefix\": [], \"table\": \"nation\", \"rows_for_plan\": 25, "
	    "\"cost_for_plan\": 6, \"rest_of_plan\": ["
	    "{\"plan_prefix\": [\"nation\"], \"table\": \"partsupp\", \"rows_for_plan\": 80, "
	    "\"cost_for_plan\": 90, \"semijoin_strategy_choice\": [{\"chosen_strategy\": "
	    "\"SJ-Materialization\"}]}]},"
	    "{\"plan_prefix\": [], \"table\": \"partsupp\", \"rows_for_plan\": 80, "
	    "\"cost_for_plan\": 100, \"pruned_by_cost\": true}]},"
	    "{\"best_join_order\": [\"nation\", \"<subquery2>\"]}]}}]}";
	json_t *s = NULL;
	struct res_tsum t;
	struct errbuf err;
	const char *p[64];
	CU_ASSERT_EQUAL_FATAL(res_trace_summarize(&s, trace, strlen(trace), 0, &err), 0);
	CU_ASSERT_EQUAL_FATAL(res_tsum_read(&t, s, &err), 0);
	CU_ASSERT_EQUAL(t.blocks[0].chosen, 1);
	CU_ASSERT_DOUBLE_EQUAL(t.blocks[0].cost, 90, 1e-9);
	CU_ASSERT_STRING_EQUAL(t.blocks[0].steps[1].sj, "SJ-Materialization");
	CU_ASSERT_EQUAL_FATAL(res_tblock_chosen_path(&t.blocks[0], p, 64), 2);
	CU_ASSERT_STRING_EQUAL(p[1], "partsupp");
	res_tsum_release(&t);
	json_decref(s);
}

/* The order of `b` (select_id) in side `in`, against the script's {tables, cost, outcome}. */
static void check_found(const struct res_tsum *in, const struct res_tblock *of, long sid,
			json_t *want)
{
	const struct res_tblock *b = res_tsum_block(in, sid);
	size_t got = 0;
	long k = b && of && of->n_order ? res_tblock_find(b, of->order, of->n_order, &got) : -1;
	if (json_is_null(want)) {
		CU_ASSERT_EQUAL(k, -1);
		return;
	}
	CU_ASSERT_FATAL(k >= 0);
	CU_ASSERT_EQUAL(got, (size_t)json_integer_value(json_object_get(want, "tables")));
	CU_ASSERT_DOUBLE_EQUAL(b->steps[k].cost, json_number_value(json_object_get(want, "cost")),
			       1e-9);
	CU_ASSERT_STRING_EQUAL(res_tstep_code(b->steps[k].outcome),
			       json_string_value(json_object_get(want, "outcome")));
}

static void check_compare(const struct res_tsum *o, const struct res_tsum *n, json_t *want)
{
	json_t *blk, *p = json_object_get(want, "part");
	struct res_tpart part;
	size_t i;
	json_array_foreach(json_object_get(want, "blocks"), i, blk)
	{
		long sid = (long)json_integer_value(json_object_get(blk, "select_id"));
		const struct res_tblock *a = res_tsum_block(o, sid), *b = res_tsum_block(n, sid);
		double oc = json_number_value(json_object_get(blk, "old_cost"));
		CU_ASSERT_EQUAL(!a, json_is_null(json_object_get(blk, "old_order")));
		CU_ASSERT_EQUAL(!b, json_is_null(json_object_get(blk, "new_order")));
		if (a)
			CU_ASSERT_DOUBLE_EQUAL(a->cost, oc, 1e-9);
		check_found(o, b, sid, json_object_get(blk, "new_order_in_old"));
		check_found(n, a, sid, json_object_get(blk, "old_order_in_new"));
	}
	res_tsum_part(&part, o, n);
	CU_ASSERT_EQUAL(part.parted, !json_is_null(p));
	if (!part.parted)
		return;
	CU_ASSERT_EQUAL(part.select_id, (long)json_integer_value(json_object_get(p, "select_id")));
	CU_ASSERT_STRING_EQUAL(part.what, json_string_value(json_object_get(p, "what")));
	json_t *st = json_object_get(p, "step");
	CU_ASSERT_EQUAL(part.step, json_is_null(st) ? -1 : (long)json_integer_value(st));
}

/* Chosen orders, the other's order in each trace and the parting point, as the script says;
 * an A/A (a summary against itself) does not part. */
TH_TEST(res_trace, compare_points_are_what_the_script_derives)
{
	json_t *e = expected();
	for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); i++) {
		json_t *q = json_object_get(e, queries[i]);
		struct res_tsum o, n;
		struct res_tpart aa;
		struct errbuf err;
		CU_ASSERT_EQUAL_FATAL(res_tsum_read(&o, json_object_get(q, "old"), &err), 0);
		CU_ASSERT_EQUAL_FATAL(res_tsum_read(&n, json_object_get(q, "new"), &err), 0);
		check_compare(&o, &n, json_object_get(q, "compare"));
		res_tsum_part(&aa, &o, &o);
		CU_ASSERT_EQUAL(aa.parted, 0);
		res_tsum_part(&aa, &n, &n);
		CU_ASSERT_EQUAL(aa.parted, 0);
		res_tsum_release(&o);
		res_tsum_release(&n);
	}
	json_decref(e);
}

/* MySQL 8: "select#", "`table` `alias`" names, "chosen" on complete plans, the order from
 * refine_plan, the semi-join strategy with "chosen": true. */
TH_TEST(res_trace, mysql8_trace_in_the_documented_form)
{
	char *text = th_slurp(DIR "mysql8-example.json");
	json_t *s = NULL;
	struct res_tsum t;
	struct errbuf err;
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_EQUAL_FATAL(res_trace_summarize(&s, text, strlen(text), 0, &err), 0);
	CU_ASSERT_EQUAL_FATAL(res_tsum_read(&t, s, &err), 0);
	CU_ASSERT_EQUAL_FATAL(t.n_blocks, 1);
	const struct res_tblock *b = &t.blocks[0];
	CU_ASSERT_EQUAL(b->select_id, 1);
	CU_ASSERT_EQUAL_FATAL(b->n_steps, 5);
	CU_ASSERT_STRING_EQUAL(b->steps[0].table, "alias1");
	CU_ASSERT_EQUAL(b->steps[0].outcome, RES_T_EXTENDED);
	CU_ASSERT_STRING_EQUAL(b->steps[1].table, "alias2");
	CU_ASSERT_EQUAL(b->steps[1].depth, 1);
	CU_ASSERT_EQUAL(b->steps[1].outcome, RES_T_CHOSEN);
	CU_ASSERT_STRING_EQUAL(b->steps[1].sj, "FirstMatch");
	CU_ASSERT_EQUAL(b->steps[3].outcome, RES_T_NOT_CHOSEN);
	CU_ASSERT_DOUBLE_EQUAL(b->steps[3].cost, 214.75, 1e-9);
	CU_ASSERT_STRING_EQUAL(b->steps[4].table, "t3");
	CU_ASSERT_EQUAL(b->steps[4].outcome, RES_T_PRUNED_HEURISTIC);
	CU_ASSERT_EQUAL_FATAL(b->n_order, 2);
	CU_ASSERT_STRING_EQUAL(b->order[0], "alias1");
	CU_ASSERT_STRING_EQUAL(b->order[1], "alias2");
	CU_ASSERT_DOUBLE_EQUAL(b->cost, 28.1, 1e-9);
	/* the other order, alias2 then alias1: complete there, not kept */
	const char *other[] = {"alias2", "alias1"};
	char buf[160];
	rpt_trace_found_text(buf, sizeof(buf), b, other, 2);
	CU_ASSERT_STRING_EQUAL(buf, "cost 214.75, complete, not kept");
	res_tsum_release(&t);
	json_decref(s);
	free(text);
}

/* A trace cut at optimizer_trace_max_mem_size is not JSON: refused, saying why. */
TH_TEST(res_trace, truncated_trace_is_refused)
{
	char *text = gunzip("on-Q20.json.gz");
	json_t *s = NULL;
	struct errbuf err;
	CU_ASSERT_EQUAL(res_trace_summarize(&s, text, 4000, 60831, &err), -1);
	CU_ASSERT_PTR_NULL(s);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "truncated at optimizer_trace_max_mem_size"));
	free(text);
}

/* A stored summary that is not one reads as absent: each malformed form refused. */
TH_TEST(res_trace, malformed_summaries_are_refused)
{
	static const char *const bad[] = {
	    "{}",
	    "{\"blocks\": 1}",
	    "{\"blocks\": [1]}",
	    "{\"blocks\": [{\"plans\": [], \"best_join_order\": []}]}",
	    "{\"blocks\": [{\"select_id\": 1, \"plans\": [[1, \"t\", 1, 1, \"\"]], "
	    "\"best_join_order\": []}]}", /* depth 1 without a step above it */
	    "{\"blocks\": [{\"select_id\": 1, \"plans\": [[0, \"t\", 1, 1, \"maybe\"]], "
	    "\"best_join_order\": []}]}",
	    "{\"blocks\": [{\"select_id\": 1, \"plans\": [[0, \"t\", \"1\", 1, \"\"]], "
	    "\"best_join_order\": []}]}",
	    "{\"blocks\": [{\"select_id\": 1, \"plans\": [[0, \"t\", 1, 1, \"full\", 3]], "
	    "\"best_join_order\": []}]}",
	    "{\"blocks\": [{\"select_id\": 1, \"plans\": [], \"best_join_order\": [2]}]}",
	    "{\"blocks\": [{\"select_id\": 1, \"plans\": [], \"best_join_order\": [], "
	    "\"semijoin\": [1]}]}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_error_t je;
		json_t *j = json_loads(bad[i], 0, &je);
		struct res_tsum t;
		struct errbuf err;
		CU_ASSERT_PTR_NOT_NULL_FATAL(j);
		if (res_tsum_read(&t, j, &err) == 0) {
			fprintf(stderr, "read: %s\n", bad[i]);
			CU_FAIL("a malformed summary was read");
			res_tsum_release(&t);
		}
		json_decref(j);
	}
}

/* A result file's summaries survive the reader and the writer unchanged (what run --resume and
 * compare read back). */
TH_TEST(res_trace, summaries_round_trip_through_a_result_file)
{
	struct res_file *a = NULL, *b = NULL;
	struct errbuf err;
	char *dir = th_tempdir("trace"), path[512];
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	snprintf(path, sizeof(path), "%s/r.json", dir);
	CU_ASSERT_EQUAL_FATAL(res_file_read(&a, DIR "trace-on.json", &err), 0);
	CU_ASSERT_EQUAL_FATAL(res_file_write(a, path, &err), 0);
	CU_ASSERT_EQUAL_FATAL(res_file_read(&b, path, &err), 0);
	CU_ASSERT_EQUAL_FATAL(a->n_queries, b->n_queries);
	size_t with = 0;
	for (size_t i = 0; i < a->n_queries; i++) {
		json_t *x = json_object_get(a->queries[i].restarts[0].extra, "optimizer_trace");
		json_t *y = json_object_get(b->queries[i].restarts[0].extra, "optimizer_trace");
		CU_ASSERT(json_equal(x, y) || (!x && !y));
		with += x != NULL;
	}
	CU_ASSERT_EQUAL(with, 3);
	res_file_free(a);
	res_file_free(b);
	th_rmtree(dir);
	free(dir);
}

TH_MAIN(res_trace)
