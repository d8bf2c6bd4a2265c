/* SPDX-License-Identifier: MIT */
/* run --refresh and --streams against a real private MariaDB loaded at SF 0.01: RF1 and RF2 are
 * measured in every restart after the queries, the data is restored and checked (row counts from
 * dbgen's own files, tests/data/rf_expected.sh), the throughput test runs the streams in TPC-H's
 * orders (tests/data/tpch_permutation.txt) with the single stream's answers, compare and summary
 * treat the entries like queries, and a scale factor without refresh data is refused. */
#include "harness.h"
#include "result/res.h"
#include "tests/th_db.h"
#include "tests/th_schema.h"
#include "tests/th_spawn.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct th_db db; /* one loaded instance shared by the cases (made in main) */
static int loaded;

/* What tests/data/rf_expected.sh derives from dbgen's files. */
struct expected {
	long long orders, lineitems, rf1_orders, rf1_lineitems, rf2_orders, rf2_lineitems;
};

/* dbgen's SF 0.01 tables and refresh set 1 in DIR (made by dbt3stab gen, checked against
 * dbgen's md5s), then the counts of the script. 0 on success. */
static int expected_counts(struct expected *e)
{
	char out[512];
	int rc = th_sh(out, sizeof(out),
		       "set -e; d='%s/dbgen'; mkdir -p \"$d\"; '%s' gen -s 0.01 -q -o \"$d\"; "
		       "'%s' gen -s 0.01 --refresh 1 -q -o \"$d\"; cd \"$d\"; "
		       "md5sum -c --quiet '%s/tests/data/dbgen/sf0.01.md5' >../md5.log 2>&1; "
		       "md5sum -c --quiet --ignore-missing "
		       "'%s/tests/data/dbgen/sf0.01-refresh.md5' >>../md5.log 2>&1; "
		       "sh '%s/tests/data/rf_expected.sh' \"$d\"",
		       db.tmp, DBT3_BINARY, DBT3_BINARY, DBT3_SOURCE_DIR, DBT3_SOURCE_DIR,
		       DBT3_SOURCE_DIR);
	if (rc != 0 || sscanf(out, "%lld %lld %lld %lld %lld %lld", &e->orders, &e->lineitems,
			      &e->rf1_orders, &e->rf1_lineitems, &e->rf2_orders,
			      &e->rf2_lineitems) != 6) {
		fprintf(stderr, "rf_expected.sh: %d: %s\n", rc, out);
		return -1;
	}
	return 0;
}

static char *tmp_path(const char *name)
{
	char *p = NULL;
	if (asprintf(&p, "%s/%s", db.tmp, name) < 0)
		return NULL;
	return p;
}

static long long num(json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

/* The two checks of an RF2 entry: equal, with the dbgen row counts. */
static void assert_check(json_t *dc, const struct expected *e)
{
	json_t *before = json_object_get(dc, "before"), *after = json_object_get(dc, "after");
	CU_ASSERT_PTR_NOT_NULL_FATAL(before);
	CU_ASSERT_PTR_NOT_NULL_FATAL(after);
	CU_ASSERT_EQUAL(num(before, "orders"), e->orders);
	CU_ASSERT_EQUAL(num(before, "lineitems"), e->lineitems);
	CU_ASSERT(json_equal(before, after));
	CU_ASSERT(json_is_true(json_object_get(dc, "same")));
	/* MariaDB 10.6+ has innodb_max_purge_lag_wait */
	CU_ASSERT(json_is_true(json_object_get(dc, "purge_waited")));
	const char *cs = json_string_value(json_object_get(before, "lineitem_checksum"));
	CU_ASSERT(cs && strlen(cs) > 0 && strcmp(cs, "0") != 0);
}

/* RF1 and RF2 of every restart: after the queries, one measured time each, the rows of dbgen's
 * set 1, and the database as found. */
static void assert_refresh(const struct res_file *res, const struct expected *e, int restarts)
{
	const struct res_query *q1 = res_file_find_query(res, "RF1");
	const struct res_query *q2 = res_file_find_query(res, "RF2");
	CU_ASSERT_PTR_NOT_NULL_FATAL(q1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(q2);
	CU_ASSERT_PTR_NOT_NULL(q1->sql_sha256);
	CU_ASSERT_PTR_NOT_NULL(q2->sql_sha256);
	CU_ASSERT_EQUAL_FATAL(q1->n_restarts, (size_t)restarts);
	CU_ASSERT_EQUAL_FATAL(q2->n_restarts, (size_t)restarts);
	json_t *first = NULL;
	for (int r = 0; r < restarts; r++) {
		const struct res_restart *a = &q1->restarts[r], *b = &q2->restarts[r];
		CU_ASSERT_EQUAL(a->index, r);
		CU_ASSERT_EQUAL(a->status, RES_STATUS_OK);
		CU_ASSERT_EQUAL(b->status, RES_STATUS_OK);
		CU_ASSERT_EQUAL_FATAL(a->n_measured, 1);
		CU_ASSERT_EQUAL_FATAL(b->n_measured, 1);
		CU_ASSERT(a->measured_ms[0] > 0 && b->measured_ms[0] > 0);
		CU_ASSERT_EQUAL(a->n_warmup, 0);
		json_t *f1 = json_object_get(a->extra, "refresh");
		json_t *f2 = json_object_get(b->extra, "refresh");
		CU_ASSERT_EQUAL(num(f1, "set"), 1);
		CU_ASSERT_EQUAL(num(f1, "orders"), e->rf1_orders);
		CU_ASSERT_EQUAL(num(f1, "lineitems"), e->rf1_lineitems);
		CU_ASSERT_EQUAL(num(f2, "orders"), e->rf2_orders);
		CU_ASSERT_EQUAL(num(f2, "lineitems"), e->rf2_lineitems);
		CU_ASSERT_EQUAL(a->rows, e->rf1_orders + e->rf1_lineitems);
		CU_ASSERT_EQUAL(b->rows, e->rf2_orders + e->rf2_lineitems);
		/* after the two queries of the restart */
		CU_ASSERT_EQUAL(num(a->extra, "position"), 2);
		CU_ASSERT_EQUAL(num(b->extra, "position"), 3);
		json_t *dc = json_object_get(b->extra, "data_check");
		assert_check(dc, e);
		if (!first)
			first = json_object_get(dc, "before");
		else /* every restart measured the same data */
			CU_ASSERT(json_equal(first, json_object_get(dc, "before")));
		/* the session's work counters over the transaction, as for a query */
		CU_ASSERT_PTR_NOT_NULL(json_object_get(a->extra, "work"));
	}
}

TH_TEST(run_rf_db, refresh_pair_is_measured_restored_and_checked)
{
	CU_ASSERT_FATAL(loaded);
	struct expected e;
	CU_ASSERT_EQUAL_FATAL(expected_counts(&e), 0);
	/* dbgen's counts at SF 0.01: 15000 orders, 10 per refresh set */
	CU_ASSERT_EQUAL(e.orders, 15000);
	CU_ASSERT_EQUAL(e.rf1_orders, 10);
	CU_ASSERT_EQUAL(e.rf2_orders, 10);
	char *out = tmp_path("rf.json");
	const char *args[] = {"run",	 "-s",	"0.01",	    "-o",	  out,	     "--restarts",
			      "2",	 "--warmup", "0",	    "--runs",	  "1",	     "--queries",
			      "6,14",	 "--refresh", "--quiet", NULL};
	CU_ASSERT_EQUAL_FATAL(th_db_run(&db, "rf", args), 0);
	struct errbuf err = {{0}};
	int rc = th_schema_validate_files(DBT3_SOURCE_DIR "/docs/result.schema.json", out, &err);
	if (rc != 0)
		fprintf(stderr, "%s\n", err.msg);
	CU_ASSERT_EQUAL(rc, 0);
	struct res_file *res = NULL;
	if (res_file_read(&res, out, &err) < 0)
		fprintf(stderr, "%s\n", err.msg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	CU_ASSERT_EQUAL_FATAL(res->n_queries, 4);
	CU_ASSERT_STRING_EQUAL(res->queries[2].id, "RF1");
	CU_ASSERT_STRING_EQUAL(res->queries[3].id, "RF2");
	json_t *qs = json_object_get(res->plan, "queries");
	CU_ASSERT_EQUAL(json_array_size(qs), 4);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(qs, 3)), "RF2");
	json_t *prf = json_object_get(res->plan, "refresh");
	CU_ASSERT_EQUAL(num(prf, "set"), 1);
	CU_ASSERT_EQUAL(num(prf, "orders_per_set"), 10);
	assert_refresh(res, &e, 2);
	res_file_free(res);

	/* compare (A/A of the file with itself) and summary list RF1 and RF2 like queries */
	char log[4300];
	snprintf(log, sizeof(log), "%s/rf-compare.log", db.tmp);
	CU_ASSERT_EQUAL(th_system("'%s' compare '%s' '%s' >'%s' 2>&1", DBT3_BINARY, out, out, log),
			0);
	char text[65536];
	CU_ASSERT_EQUAL(th_sh(text, sizeof(text), "cat '%s'", log), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "RF1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "RF2"));
	CU_ASSERT_EQUAL(th_sh(text, sizeof(text), "'%s' summary '%s'", DBT3_BINARY, out), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "RF1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "RF2"));
	free(out);
}

/* Below SF 0.01 dbgen's sets are empty: refused in one line before anything starts; and not
 * with --budget. */
TH_TEST(run_rf_db, refresh_refused_without_refresh_data)
{
	CU_ASSERT_FATAL(loaded);
	char *out = tmp_path("rf-none.json");
	char text[4096];
	CU_ASSERT_EQUAL(th_sh(text, sizeof(text), "'%s' run -s 0.005 --refresh -o '%s' --datadir '%s'",
			      DBT3_BINARY, out, db.inst),
			2);
	CU_ASSERT_STRING_EQUAL(text, "dbt3stab run: --refresh needs scale factor 0.01 or above: "
				     "dbgen's update sets are empty below it (see 'dbt3stab run "
				     "--help')\n");
	CU_ASSERT_EQUAL(th_sh(text, sizeof(text),
			      "'%s' run -s 0.01 --refresh --budget 1m -o '%s' --datadir '%s'",
			      DBT3_BINARY, out, db.inst),
			2);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "--refresh works with the fixed protocol"));
	CU_ASSERT_EQUAL(th_system("test -e '%s'", out), 1);
	free(out);
}

/* Stream s's order of TPC-H 2.17.3 Appendix A, as tests/data/tpch_permutation.txt has it, kept
 * to the queries in want[] (n of them): into out, the count. */
static int spec_order(int s, const int *want, int n, int *out)
{
	FILE *f = fopen(DBT3_SOURCE_DIR "/tests/data/tpch_permutation.txt", "r");
	char line[256];
	int k = 0;
	while (f && fgets(line, sizeof(line), f)) {
		int stream, at = 0, q, used;
		if (line[0] == '#' || sscanf(line, "%d:%n", &stream, &at) != 1 || stream != s)
			continue;
		while (sscanf(line + at, "%d%n", &q, &used) == 1) {
			at += used;
			for (int i = 0; i < n; i++)
				if (want[i] == q)
					out[k++] = q;
		}
	}
	if (f)
		fclose(f);
	return k;
}

/* The throughput entries of a --streams 2 run of Q1, Q6, Q15 over `restarts` restarts. */
static void assert_streams(const struct res_file *res, int restarts, int refresh)
{
	static const int want[] = {1, 6, 15};
	static const char *const ids[] = {"T:Q1", "T:Q6", "T:Q15"};
	json_t *st = json_object_get(res->plan, "streams");
	CU_ASSERT_EQUAL(num(st, "count"), 2);
	CU_ASSERT_EQUAL(json_is_true(json_object_get(st, "refresh_stream")), refresh);
	for (int s = 1; s <= 2; s++) {
		int order[3];
		CU_ASSERT_EQUAL_FATAL(spec_order(s, want, 3, order), 3);
		json_t *o = json_array_get(json_object_get(st, "query_orders"), (size_t)s - 1);
		CU_ASSERT_EQUAL_FATAL(json_array_size(o), 3);
		for (int k = 0; k < 3; k++)
			CU_ASSERT_EQUAL(json_integer_value(json_array_get(o, (size_t)k)), order[k]);
	}
	for (int i = 0; i < 3; i++) {
		const struct res_query *q = res_file_find_query(res, ids[i]);
		const struct res_query *single = res_file_find_query_num(res, want[i]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(q);
		CU_ASSERT_EQUAL_FATAL(q->n_restarts, (size_t)restarts);
		for (int r = 0; r < restarts; r++) {
			const struct res_restart *e = &q->restarts[r];
			CU_ASSERT_EQUAL(e->status, RES_STATUS_OK);
			CU_ASSERT_EQUAL(e->n_measured, 2); /* one time per stream */
			CU_ASSERT(e->measured_ms[0] > 0 && e->measured_ms[1] > 0);
			CU_ASSERT_EQUAL(e->rows, single->restarts[r].rows);
			CU_ASSERT_PTR_NOT_NULL(e->plan_sha256);
			if (!refresh) /* the same answer as the single stream's */
				CU_ASSERT(e->result_sha256 &&
					  strcmp(e->result_sha256, single->restarts[r].result_sha256) ==
					      0);
		}
	}
	const struct res_query *ts = res_file_find_query(res, "T:stream");
	CU_ASSERT_PTR_NOT_NULL_FATAL(ts);
	CU_ASSERT_EQUAL_FATAL(ts->n_restarts, (size_t)restarts);
	for (int r = 0; r < restarts; r++) {
		const struct res_restart *e = &ts->restarts[r];
		CU_ASSERT_EQUAL_FATAL(e->n_measured, 2);
		double el = json_number_value(json_object_get(e->extra, "elapsed_ms"));
		/* each stream within the test's elapsed time, and its queries within the stream */
		CU_ASSERT(el >= e->measured_ms[0] && el >= e->measured_ms[1]);
		for (int s = 0; s < 2; s++) {
			double sum = 0;
			for (int i = 0; i < 3; i++)
				sum += res_file_find_query(res, ids[i])->restarts[r].measured_ms[s];
			CU_ASSERT(sum <= e->measured_ms[s]);
		}
	}
	const struct res_query *t1 = res_file_find_query(res, "T:RF1");
	const struct res_query *t2 = res_file_find_query(res, "T:RF2");
	CU_ASSERT_EQUAL(t1 != NULL, refresh);
	CU_ASSERT_EQUAL(t2 != NULL, refresh);
	for (int r = 0; refresh && t1 && t2 && r < restarts; r++) {
		CU_ASSERT_EQUAL(t1->restarts[r].status, RES_STATUS_OK);
		CU_ASSERT_EQUAL(t1->restarts[r].n_measured, 2); /* one pair per query stream */
		json_t *sets = json_object_get(t2->restarts[r].extra, "refresh_sets");
		CU_ASSERT_EQUAL(json_integer_value(json_array_get(sets, 0)), 2);
		CU_ASSERT_EQUAL(json_integer_value(json_array_get(sets, 1)), 3);
		json_t *dc = json_object_get(t2->restarts[r].extra, "data_check");
		CU_ASSERT(json_is_true(json_object_get(dc, "same")));
	}
}

/* --streams 2 with --refresh: the single stream, its refresh pair, then two query streams in
 * TPC-H's orders beside a refresh stream of two pairs (sets 2 and 3), the data restored;
 * compare A/A decides nothing and summary prints the TPC-H-style figures. */
TH_TEST(run_rf_db, streams_with_refresh_stream)
{
	CU_ASSERT_FATAL(loaded);
	char *out = tmp_path("streams.json");
	const char *args[] = {"run",	   "-s",	"0.01",	     "-o",	 out,	  "--restarts",
			      "2",	   "--warmup", "1",	     "--runs",	 "2",	  "--queries",
			      "1,6,15",	   "--refresh", "--streams", "2",	 "--quiet", NULL};
	CU_ASSERT_EQUAL_FATAL(th_db_run(&db, "streams", args), 0);
	struct errbuf err = {{0}};
	int rc = th_schema_validate_files(DBT3_SOURCE_DIR "/docs/result.schema.json", out, &err);
	if (rc != 0)
		fprintf(stderr, "%s\n", err.msg);
	CU_ASSERT_EQUAL(rc, 0);
	struct res_file *res = NULL;
	if (res_file_read(&res, out, &err) < 0)
		fprintf(stderr, "%s\n", err.msg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	assert_streams(res, 2, 1);
	res_file_free(res);
	char text[65536];
	CU_ASSERT_EQUAL(th_sh(text, sizeof(text), "'%s' compare '%s' '%s'", DBT3_BINARY, out, out),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "T:Q15"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "T:stream"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "T:RF2"));
	CU_ASSERT_EQUAL(th_sh(text, sizeof(text), "'%s' summary '%s'", DBT3_BINARY, out), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "not a TPC-H result"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "throughput"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "composite"));
	free(out);
}

/* --streams 2 alone: no refresh stream, and each stream's answers are the single stream's (Q15
 * through each stream's own view). */
TH_TEST(run_rf_db, streams_answer_as_the_single_stream)
{
	CU_ASSERT_FATAL(loaded);
	char *out = tmp_path("streams-only.json");
	const char *args[] = {"run",	  "-s",	      "0.01", "-o",	   out,	      "--restarts",
			      "1",	  "--warmup", "0",    "--runs",	   "1",	      "--queries",
			      "1,6,15",	  "--streams", "2",   "--quiet", NULL};
	CU_ASSERT_EQUAL_FATAL(th_db_run(&db, "streams-only", args), 0);
	struct errbuf err = {{0}};
	struct res_file *res = NULL;
	if (res_file_read(&res, out, &err) < 0)
		fprintf(stderr, "%s\n", err.msg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	assert_streams(res, 1, 0);
	CU_ASSERT_PTR_NULL(res_file_find_query(res, "RF1"));
	res_file_free(res);
	free(out);
}

int main(int argc, char **argv)
{
	return th_db_main_loaded(&db, &loaded, "runrf", "run_rf_db", th_cases(), argc, argv);
}
