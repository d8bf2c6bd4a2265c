/* SPDX-License-Identifier: MIT */
/* Work counters against a real private MariaDB at SF 0.01: two restarts of the 22 queries record
 * them, identical across restarts; an A/B of optimizer_switch semijoin=on vs off changes the
 * work of exactly the queries whose plans change. The expected set {Q4, Q18, Q20, Q21} was
 * measured by hand with the mariadb client, without dbt3stab's code
 * (bench/work-ab-byhand.sh, bench/data/work-20261203/ab-sf0.01.tsv). */
#include "harness.h"
#include "reports/rpt.h"
#include "result/res.h"
#include "result/res_analyze.h"
#include "result/res_counts.h"
#include "tests/th_db.h"
#include "tests/th_schema.h"
#include "tests/th_spawn.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct th_db db;
static int loaded;

static int run_cli(const char *tag, const char *const *args)
{
	return th_db_run(&db, tag, args);
}

static struct rpt_compare *compare(const char *pa, struct res_file *a, const char *pb,
				   struct res_file *b)
{
	struct rpt_compare_opts o;
	struct rpt_compare *c = NULL;
	struct errbuf err = {""};
	struct rpt_file_info fa = {pa, a}, fb = {pb, b};
	rpt_compare_opts_init(&o);
	o.force = 1; /* the variants' server options differ */
	if (rpt_compare_build(&c, &fa, &fb, NULL, &o, &err) < 0)
		fprintf(stderr, "%s\n", err.msg);
	return c;
}

/* Every ok restart has the 19 MariaDB counters; most queries have the same counts in every
 * measured execution of both restarts (22 of 22 here on 2026-12-03); the reading's own cost is
 * recorded (19 rows of Rows_tmp_read per reading on MariaDB 10.11); the file against itself
 * changes nothing. */
TH_TEST(run_work_db, two_restarts_record_identical_work)
{
	CU_ASSERT_FATAL(loaded);
	char out[4300];
	snprintf(out, sizeof(out), "%s/work.json", db.tmp);
	const char *args[] = {"run",	  "-s", "0.01",	  "-o", out,	   "--restarts", "2",
			      "--warmup", "1",	"--runs", "2",	"--quiet", NULL};
	CU_ASSERT_EQUAL_FATAL(run_cli("work", args), 0);
	struct res_file *res = th_result_read_valid(out);
	json_t *cost = json_object_get(res->plan, "work_reading_cost");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(cost, "Rows_tmp_read")), 19);
	size_t same = 0;
	for (size_t i = 0; i < res->n_queries; i++) {
		const struct res_query *q = &res->queries[i];
		CU_ASSERT_EQUAL_FATAL(q->n_restarts, 2);
		struct res_counts c[2];
		int identical = 1;
		for (int r = 0; r < 2; r++) {
			CU_ASSERT_EQUAL(q->restarts[r].status, RES_STATUS_OK);
			CU_ASSERT_EQUAL_FATAL(res_counts_get(&c[r], &q->restarts[r], "work"), 1);
			CU_ASSERT_EQUAL(c[r].n, 19);
			CU_ASSERT_EQUAL(c[r].n_exec, 2);
		}
		for (size_t k = 0; k < c[0].n; k++) {
			int j = res_counts_find(&c[1], c[0].names[k]);
			CU_ASSERT_FATAL(j >= 0);
			const long long *a = c[0].v + k * 2, *b = c[1].v + (size_t)j * 2;
			identical &= a[0] == a[1] && b[0] == b[1] && a[0] == b[0];
		}
		/* a query reads rows: Rows_read is counted */
		CU_ASSERT(c[0].v[res_counts_find(&c[0], "Rows_read") * 2] > 0);
		same += (size_t)identical;
		res_counts_release(&c[0]);
		res_counts_release(&c[1]);
	}
	printf("\n  queries with identical work in both restarts: %zu of %zu\n", same,
	       res->n_queries);
	CU_ASSERT(same >= 20);
	struct rpt_compare *cmp = compare(out, res, out, res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cmp);
	CU_ASSERT_EQUAL(cmp->n_work_compared, 22);
	CU_ASSERT_EQUAL(cmp->n_work_changed, 0);
	rpt_compare_free(cmp);
	res_file_free(res);
}

/* One restart a side, interleaved: semijoin off changes the work of Q4, Q18, Q20, Q21 and of no
 * other query; compare exits 1 on the work alone. */
TH_TEST(run_work_db, semijoin_ab_changes_the_plan_changing_queries)
{
	CU_ASSERT_FATAL(loaded);
	char dir[4300], pa[4400], pb[4400];
	snprintf(dir, sizeof(dir), "%s/ab", db.tmp);
	const char *args[] = {
	    "run",	 "-s",
	    "0.01",	 "-o",
	    dir,	 "--restarts",
	    "1",	 "--warmup",
	    "1",	 "--runs",
	    "1",	 "--restart-paired",
	    "--variant", "on:mysqld=/usr/sbin/mariadbd",
	    "--variant", "off:mysqld=/usr/sbin/mariadbd,optimizer_switch=semijoin=off",
	    "--quiet",	 NULL};
	CU_ASSERT_EQUAL_FATAL(run_cli("ab", args), 0);
	snprintf(pa, sizeof(pa), "%s/on.json", dir);
	snprintf(pb, sizeof(pb), "%s/off.json", dir);
	struct res_file *a = th_result_read(pa), *b = th_result_read(pb);
	struct rpt_compare *cmp = compare(pa, a, pb, b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cmp);
	static const char *const changed[] = {"Q4", "Q18", "Q20", "Q21"};
	CU_ASSERT_EQUAL(cmp->n_work_compared, 22);
	for (size_t i = 0; i < cmp->n_queries; i++) {
		const struct rpt_query *q = &cmp->queries[i];
		int want = 0;
		for (size_t k = 0; k < 4; k++)
			want |= strcmp(q->id, changed[k]) == 0;
		if (q->work.changed != want)
			printf("\n  %s: work changed %d, expected %d\n", q->id, q->work.changed,
			       want);
		CU_ASSERT_EQUAL(q->work.changed, want);
	}
	CU_ASSERT_EQUAL(cmp->n_work_changed, 4);
	rpt_compare_free(cmp);
	res_file_free(a);
	res_file_free(b);
	char cmd[20000], log[4400];
	snprintf(log, sizeof(log), "%s/ab-compare.log", db.tmp);
	snprintf(cmd, sizeof(cmd), "'%s' compare --force '%s' '%s' >'%s' 2>&1", DBT3_BINARY, pa, pb,
		 log);
	int st = system(cmd);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	char *text = NULL;
	size_t len = 0;
	struct errbuf err;
	CU_ASSERT_EQUAL(util_read_file(log, &text, &len, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(text ? strstr(text, "Q20 work changed: ") : NULL);
	free(text);
}

/* Where the rows went (docs/explain.md): a real run records each restart's ANALYZE record, sane:
 * every table named and in a query block, read at least once where the query must read it; a
 * single-table query's rows examined are the work counters' Rows_read (Q1, Q6: one scan of
 * lineitem); Q15's view is there for its ANALYZE and gone after. --no-analyze records none. */
TH_TEST(run_work_db, a_run_records_where_the_rows_went)
{
	CU_ASSERT_FATAL(loaded);
	char out[4300], off[4300], v[64];
	snprintf(out, sizeof(out), "%s/analyze.json", db.tmp);
	snprintf(off, sizeof(off), "%s/no-analyze.json", db.tmp);
	const char *args[] = {"run",	    "-s",	 "0.01",     "-o",	out,
			      "--restarts", "1",	 "--warmup", "0",	"--runs",
			      "1",	    "--queries", "1,6,15",   "--quiet", NULL};
	CU_ASSERT_EQUAL_FATAL(run_cli("analyze", args), 0);
	struct res_file *res = th_result_read_valid(out);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(res->plan, "analyze_source")),
			       "ANALYZE FORMAT=JSON");
	for (size_t i = 0; i < res->n_queries; i++) {
		const struct res_restart *r = &res->queries[i].restarts[0];
		struct res_analyze a;
		struct res_counts w;
		CU_ASSERT_EQUAL_FATAL(
		    res_analyze_from_json(&a, json_object_get(r->extra, "analyze")), 1);
		CU_ASSERT(a.n_tables >= 1);
		double sum = 0;
		for (size_t t = 0; t < a.n_tables; t++) {
			CU_ASSERT(a.tables[t].select_id >= 1);
			CU_ASSERT(a.tables[t].r_loops >= 1);
			CU_ASSERT(!isnan(a.tables[t].rows));
			sum += res_atable_examined(&a.tables[t]);
		}
		CU_ASSERT_EQUAL_FATAL(res_counts_get(&w, r, "work"), 1);
		long long read = w.v[res_counts_find(&w, "Rows_read") * w.n_exec];
		if (strcmp(res->queries[i].id, "Q15") == 0) {
			CU_ASSERT_STRING_EQUAL(a.tables[0].alias, "supplier");
		} else {
			CU_ASSERT_EQUAL(llround(sum), read);
		}
		res_counts_release(&w);
		res_analyze_release(&a);
	}
	res_file_free(res);
	struct th_srv t;
	th_srv_init(&t, &db, 0);
	CU_ASSERT_EQUAL_FATAL(th_srv_start(&t, NULL), 0);
	MYSQL *m = srv_connect(t.s, "dbt3", &t.err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(th_query_one(m,
				     "select count(*) from information_schema.views where "
				     "table_name = 'revenue0'",
				     v, sizeof(v)),
			0);
	CU_ASSERT_STRING_EQUAL(v, "0");
	mysql_close(m);
	th_srv_release(&t);
	const char *args_off[] = {"run", "-s",		 "0.01",    "-o",     off, "--restarts",
				  "1",	 "--warmup",	 "0",	    "--runs", "1", "--queries",
				  "6",	 "--no-analyze", "--quiet", NULL};
	CU_ASSERT_EQUAL_FATAL(run_cli("no-analyze", args_off), 0);
	res = th_result_read_valid(off);
	CU_ASSERT(json_is_false(json_object_get(res->plan, "analyze")));
	CU_ASSERT_PTR_NULL(json_object_get(res->plan, "analyze_source"));
	CU_ASSERT_PTR_NULL(json_object_get(res->queries[0].restarts[0].extra, "analyze"));
	res_file_free(res);
}

int main(int argc, char **argv)
{
	return th_db_main_loaded(&db, &loaded, "work", "run_work_db", th_cases(), argc, argv);
}
