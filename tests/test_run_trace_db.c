/* SPDX-License-Identifier: MIT */
/* run --optimizer-trace against a real private MariaDB at SF 0.01: each entry keeps its query's
 * trace summary (Q15's view made again for its EXPLAIN), and it is sane: a first block, a chosen
 * order whose tables the search considered, its cost that of a complete step; without the
 * option there is none. */
#include "harness.h"
#include "result/res.h"
#include "result/res_trace.h"
#include "tests/th_db.h"
#include "tests/th_schema.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct th_db db;
static int loaded;

static struct res_file *run_queries(const char *name, const char *queries, int trace)
{
	char out[4300];
	snprintf(out, sizeof(out), "%s/%s.json", db.tmp, name);
	const char *args[] = {
	    "run",	  "-s",	       "0.01",	   "-o",      out,
	    "--restarts", "1",	       "--warmup", "0",	      "--runs",
	    "1",	  "--queries", queries,	   "--quiet", trace ? "--optimizer-trace" : NULL,
	    NULL};
	CU_ASSERT_EQUAL_FATAL(th_db_run(&db, name, args), 0);
	return th_result_read_valid(out);
}

/* The tables of b's chosen order are each a table of one of its steps, or a materialized nest
 * or derived table ("<subquery2>", "<derived3>"). */
static int order_considered(const struct res_tblock *b)
{
	for (size_t i = 0; i < b->n_order; i++) {
		size_t k;
		for (k = 0; k < b->n_steps && strcmp(b->steps[k].table, b->order[i]); k++)
			;
		if (k == b->n_steps && b->order[i][0] != '<')
			return 0;
	}
	return 1;
}

static void check_summary(const struct res_query *q)
{
	json_t *s = json_object_get(q->restarts[0].extra, "optimizer_trace");
	struct res_tsum t;
	struct errbuf err;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL_FATAL(res_tsum_read(&t, s, &err), 0);
	CU_ASSERT(t.trace_bytes > 1000);
	CU_ASSERT_EQUAL(t.missing_bytes, 0);
	CU_ASSERT_EQUAL(t.plans_dropped, 0);
	CU_ASSERT_FATAL(t.n_blocks >= 1);
	const struct res_tblock *b = res_tsum_block(&t, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT(b->n_steps >= 1);
	CU_ASSERT(b->n_order >= 1);
	if (!order_considered(b)) {
		char *d = json_dumps(s, JSON_COMPACT);
		printf("\n  %s: the chosen order's tables are not all in the steps: %s", q->id, d);
		free(d);
		CU_FAIL("order not considered");
	}
	CU_ASSERT(isfinite(b->cost) && b->cost > 0);
	CU_ASSERT_FATAL(b->chosen >= 0);
	CU_ASSERT_EQUAL(b->steps[b->chosen].outcome, RES_T_COMPLETE);
	CU_ASSERT_DOUBLE_EQUAL(b->steps[b->chosen].cost, b->cost, 1e-9);
	printf("\n  %s: trace %lld bytes, summary of %zu blocks, #1 %zu steps, order of %zu "
	       "tables cost %g",
	       q->id, t.trace_bytes, t.n_blocks, b->n_steps, b->n_order, b->cost);
	res_tsum_release(&t);
}

/* Q20 (semi-joins and subqueries), Q15 (its view), Q9 (six tables). */
TH_TEST(run_trace_db, optimizer_trace_records_a_sane_summary)
{
	CU_ASSERT_FATAL(loaded);
	struct res_file *res = run_queries("trace", "20,15,9", 1);
	CU_ASSERT_EQUAL_FATAL(res->n_queries, 3);
	CU_ASSERT(json_is_true(json_object_get(res->plan, "optimizer_trace")));
	for (size_t i = 0; i < res->n_queries; i++) {
		CU_ASSERT_EQUAL_FATAL(res->queries[i].n_restarts, 1);
		CU_ASSERT_EQUAL(res->queries[i].restarts[0].status, RES_STATUS_OK);
		check_summary(&res->queries[i]);
	}
	res_file_free(res);
}

TH_TEST(run_trace_db, without_the_option_no_trace)
{
	CU_ASSERT_FATAL(loaded);
	struct res_file *res = run_queries("notrace", "20", 0);
	CU_ASSERT_EQUAL_FATAL(res->n_queries, 1);
	CU_ASSERT_PTR_NULL(json_object_get(res->queries[0].restarts[0].extra, "optimizer_trace"));
	CU_ASSERT_PTR_NULL(json_object_get(res->plan, "optimizer_trace"));
	res_file_free(res);
}

int main(int argc, char **argv)
{
	return th_db_main_loaded(&db, &loaded, "trace", "run_trace_db", th_cases(), argc, argv);
}
