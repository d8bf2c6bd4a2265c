/* SPDX-License-Identifier: MIT */
/* Real-server tests of the loader and the queries at scale factor 0.01: one private MariaDB
 * instance in a temp dir on a free port, stopped at the end. */
#include "dbt3/load.h"
#include "dbt3/qry.h"
#include "runner/run_load.h"
#include "runner/run_once.h"
#include "tests/harness.h"
#include "tests/th_db.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

static struct th_db instance; /* the instance in this test file's temp dir (made in main) */

/* Row counts of TPC-H dbgen at SF 0.01, by enum gen_table. */
static const int64_t sf001_rows[GEN_NTABLES] = {
    [GEN_CUSTOMER] = 1500, [GEN_LINEITEM] = 60175, [GEN_NATION] = 25, [GEN_ORDERS] = 15000,
    [GEN_PART] = 2000,	   [GEN_PARTSUPP] = 8000,  [GEN_REGION] = 5,  [GEN_SUPPLIER] = 100,
};

/* Result rows of each query at SF 0.01 with the validation parameters, from
 * tests/data/sf001_query_rows.txt (SQLite on dbgen's files, tests/data/sf001_query_rows.py);
 * 0 on success, every query present. */
static int read_query_rows(uint64_t rows[QRY_COUNT + 1])
{
	char path[4096], line[256];
	int n = 0;
	snprintf(path, sizeof(path), "%s/tests/data/sf001_query_rows.txt", DBT3_SOURCE_DIR);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	memset(rows, 0, (QRY_COUNT + 1) * sizeof(rows[0]));
	while (fgets(line, sizeof(line), f)) {
		int q;
		unsigned long long r;
		if (line[0] == '#')
			continue;
		if (sscanf(line, "Q%d %llu", &q, &r) != 2 || q < 1 || q > QRY_COUNT || rows[q]) {
			n = -1;
			break;
		}
		rows[q] = r;
		n++;
	}
	fclose(f);
	return n == QRY_COUNT ? 0 : -1;
}

static struct srv_opts sopts; /* outlives every srv handle (they keep pointers into it) */

static struct srv *open_srv(void)
{
	struct errbuf err;
	struct srv *s = NULL;
	if (srv_open(&s, &sopts, &err) < 0)
		fprintf(stderr, "srv_open: %s\n", err.msg);
	return s;
}

static int do_load(const char *db, const char *from, int force, struct load_report *rep,
		   struct errbuf *err)
{
	struct srv *s = open_srv();
	if (!s)
		return -1;
	struct load_opts o;
	load_opts_init(&o);
	o.sf = 0.01;
	o.database = db;
	o.from_dir = from;
	o.force = force;
	int rc = run_load(s, &o, rep, err);
	srv_free(s);
	return rc;
}

/* A started server and a connection to db; *out_s is stopped by srv_free. */
static MYSQL *connect_db(struct srv **out_s, const char *db)
{
	struct errbuf err;
	int started = 0;
	*out_s = open_srv();
	if (!*out_s || srv_ensure_started(*out_s, NULL, &started, &err) < 0) {
		fprintf(stderr, "start: %s\n", *out_s ? err.msg : "srv_open failed");
		return NULL;
	}
	MYSQL *m = srv_connect(*out_s, db, &err);
	if (!m)
		fprintf(stderr, "connect: %s\n", err.msg);
	return m;
}

/* The generated SF 0.01 database "dbt3" that several cases read: loaded by whichever case needs
 * it first (a no-op after that), so no case depends on another having run. */
static int need_generated_db(void)
{
	struct load_report rep;
	struct errbuf err;
	int rc = do_load("dbt3", NULL, 0, &rep, &err);
	if (rc < 0)
		fprintf(stderr, "load: %s\n", err.msg);
	return rc;
}

TH_TEST(load, generated_rows_and_noop_reload)
{
	struct load_report rep;
	struct errbuf err;
	int rc = do_load("dbt3", NULL, 1, &rep, &err); /* forced: a real load whatever ran before */
	if (rc < 0)
		fprintf(stderr, "load: %s\n", err.msg);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_FALSE(rep.noop);
	for (int t = 0; t < GEN_NTABLES; t++)
		CU_ASSERT_EQUAL(rep.fp.rows[t], sf001_rows[t]);
	CU_ASSERT(rep.phase_seconds[LOAD_PHASE_TABLES] > 0);
	CU_ASSERT(rep.rows_seconds[GEN_LINEITEM] > 0);
	CU_ASSERT(rep.index_seconds[GEN_LINEITEM] > 0);	      /* 8 indexes */
	CU_ASSERT_EQUAL(rep.index_seconds[GEN_REGION], 0);    /* none */
	CU_ASSERT(rep.phase_seconds[LOAD_PHASE_RESTORE] > 0); /* bulk profile was undone */

	/* the same data again: a no-op that reports the stored fingerprint */
	CU_ASSERT_EQUAL_FATAL(do_load("dbt3", NULL, 0, &rep, &err), 0);
	CU_ASSERT_TRUE(rep.noop);
	CU_ASSERT_DOUBLE_EQUAL(rep.fp.sf, 0.01, 1e-12);
	CU_ASSERT_EQUAL(rep.fp.rows[GEN_LINEITEM], sf001_rows[GEN_LINEITEM]);
}

TH_TEST(load, fingerprint_schema_and_normal_profile)
{
	CU_ASSERT_EQUAL_FATAL(need_generated_db(), 0);
	struct srv *s = NULL;
	MYSQL *m = connect_db(&s, "dbt3");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	struct load_fingerprint fp;
	struct errbuf err;
	CU_ASSERT_EQUAL(load_fingerprint_read(m, "dbt3", &fp, &err), 0);
	CU_ASSERT_STRING_EQUAL(fp.indexes, "dbt3");
	CU_ASSERT_PTR_NOT_NULL(strstr(fp.options, "source=generator"));
	for (int t = 0; t < GEN_NTABLES; t++)
		CU_ASSERT_EQUAL(fp.rows[t], sf001_rows[t]);
	json_t *j = load_fingerprint_json(&fp);
	CU_ASSERT_PTR_NOT_NULL(j);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(j, "rows"), "orders")),
			15000);
	json_decref(j);
	CU_ASSERT_EQUAL(load_fingerprint_read(m, "nosuchdb", &fp, &err), LOAD_E_NONE);

	/* the 15 DBT-3 secondary indexes exist */
	CU_ASSERT_EQUAL_FATAL(
	    mysql_query(m, "SELECT COUNT(DISTINCT table_name, index_name) FROM "
			   "information_schema.statistics WHERE table_schema = 'dbt3' AND "
			   "index_name LIKE 'i\\_%'"),
	    0);
	MYSQL_RES *r = mysql_store_result(m);
	MYSQL_ROW row = mysql_fetch_row(r);
	CU_ASSERT_STRING_EQUAL(row[0], "15");
	mysql_free_result(r);

	/* the server runs without the bulk profile now */
	CU_ASSERT_EQUAL_FATAL(mysql_query(m, "SELECT @@innodb_flush_log_at_trx_commit, "
					     "@@innodb_doublewrite"),
			      0);
	r = mysql_store_result(m);
	row = mysql_fetch_row(r);
	CU_ASSERT_STRING_NOT_EQUAL(row[0], "0");
	CU_ASSERT_STRING_EQUAL(row[1], "1");
	mysql_free_result(r);
	mysql_close(m);
	srv_free(s);
}

/* CLOCK_MONOTONIC in seconds: brackets a call whose own timing is checked. */
static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The rows query kept are the rows run fingerprints: the SHA-256 run_exec computes while it
 * fetches (RUN_EXEC_HASH) equals the one of the kept cells, hashed by run_exec.h's rule. */
static void assert_kept_rows_hash_as_run(MYSQL *m, const struct qry *q,
					 const struct qry_result *res)
{
	struct run_exec_result x;
	struct errbuf err;
	char kept[65];
	struct run_hash *h = run_hash_new();
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	for (uint64_t i = 0; i < res->nrows; i++) {
		for (unsigned c = 0; c < res->ncols; c++) {
			const char *v = res->rows[i][c];
			run_hash_value(h, v, v ? (unsigned long)strlen(v) : 0);
		}
		run_hash_row_end(h);
	}
	run_hash_final(h, kept);
	if (q->pre)
		CU_ASSERT_EQUAL(run_exec_simple(m, q->pre, &err), RUN_EXEC_OK);
	CU_ASSERT_EQUAL(run_exec(m, q->sql, RUN_EXEC_HASH, NULL, NULL, NULL, &x, &err),
			RUN_EXEC_OK);
	if (q->post)
		CU_ASSERT_EQUAL(run_exec_simple(m, q->post, &err), RUN_EXEC_OK);
	CU_ASSERT_EQUAL(x.rows, res->nrows);
	CU_ASSERT_STRING_EQUAL(x.result_sha256, kept);
}

TH_TEST(load, every_query_runs_with_the_verified_row_count)
{
	uint64_t sf001_query_rows[QRY_COUNT + 1];
	CU_ASSERT_EQUAL_FATAL(read_query_rows(sf001_query_rows), 0);
	CU_ASSERT_EQUAL_FATAL(need_generated_db(), 0);
	struct srv *s = NULL;
	MYSQL *m = connect_db(&s, "dbt3");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	for (int seeded = 0; seeded <= 1; seeded++)
		for (int id = 1; id <= QRY_COUNT; id++) {
			struct qry q;
			struct qry_result res;
			struct errbuf err;
			struct qry_opts o = {.sf = 0.01, .seeded = seeded, .seed = 7};
			CU_ASSERT_EQUAL_FATAL(qry_build(&q, id, &o, &err), 0);
			double t0 = now_seconds();
			int rc = run_once(&res, m, &q, 0, &err) == RUN_EXEC_OK ? 0 : -1;
			double outside = now_seconds() - t0;
			if (rc < 0)
				fprintf(stderr, "Q%d: %s\n", id, err.msg);
			CU_ASSERT_EQUAL(rc, 0);
			if (!seeded) {
				if (res.nrows != sf001_query_rows[id])
					fprintf(stderr,
						"Q%d: %" PRIu64 " rows, expected %" PRIu64 "\n", id,
						res.nrows, sf001_query_rows[id]);
				CU_ASSERT_EQUAL(res.nrows, sf001_query_rows[id]);
				if (rc == 0)
					assert_kept_rows_hash_as_run(m, &q, &res);
			}
			/* the timed statement lies inside the call: a real server takes some
			 * time, and no more than the whole call as seen from here */
			CU_ASSERT(res.seconds > 0);
			CU_ASSERT(res.seconds <= outside);
			qry_result_release(&res);
			qry_release(&q);
		}
	/* Q15's view is gone after the query */
	CU_ASSERT_EQUAL(mysql_query(m, "SELECT * FROM revenue0"), 1);
	mysql_close(m);
	srv_free(s);
}

/* EXPLAIN of all 22 queries as one text. */
static char *plans(MYSQL *m)
{
	size_t cap = 1 << 16, len = 0;
	char *out = malloc(cap);
	out[0] = '\0';
	for (int id = 1; id <= QRY_COUNT; id++) {
		struct qry q;
		struct qry_result res = {0};
		struct errbuf err;
		struct qry_opts o = {.sf = 0.01};
		if (qry_build(&q, id, &o, &err) < 0 ||
		    run_once(&res, m, &q, RUN_ONCE_EXPLAIN, &err) != RUN_EXEC_OK) {
			fprintf(stderr, "explain Q%d: %s\n", id, err.msg);
			qry_result_release(&res);
			free(out);
			return NULL;
		}
		for (uint64_t i = 0; i < res.nrows; i++)
			for (unsigned c = 0; c < res.ncols; c++) {
				const char *v = res.rows[i][c] ? res.rows[i][c] : "NULL";
				if (len + strlen(v) + 8 > cap)
					out = realloc(out, cap *= 2);
				len += (size_t)sprintf(out + len, "%s%c", v,
						       c + 1 < res.ncols ? '|' : '\n');
			}
		qry_result_release(&res);
		qry_release(&q);
	}
	return out;
}

TH_TEST(load, plans_identical_across_restarts)
{
	CU_ASSERT_EQUAL_FATAL(need_generated_db(), 0);
	char *p[2] = {NULL, NULL};
	for (int i = 0; i < 2; i++) {
		struct srv *s = NULL;
		struct errbuf err;
		MYSQL *m = connect_db(&s, "dbt3");
		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		p[i] = plans(m);
		mysql_close(m);
		CU_ASSERT_EQUAL(srv_stop(s, &err), 0); /* a real restart between the two */
		srv_free(s);
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(p[0]);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p[1]);
	CU_ASSERT(strlen(p[0]) > 1000);
	CU_ASSERT_STRING_EQUAL(p[0], p[1]);
	free(p[0]);
	free(p[1]);
}

/* dbgen's SF 0.01 files in dir (created): written by 'dbt3stab gen', then checked byte for byte
 * against the md5 of TPC-H dbgen's own output (tests/data/dbgen/sf0.01.md5), so the files are
 * dbgen's whatever the loader's generator path does. Each test makes its own; 0 on success. */
static int make_dbgen_files(const char *dir)
{
	char cmd[16384];
	snprintf(cmd, sizeof(cmd),
		 "'%s' gen -s 0.01 -q -o '%s' && cd '%s' && "
		 "md5sum -c --quiet '%s/tests/data/dbgen/sf0.01.md5'",
		 DBT3_BINARY, dir, dir, DBT3_SOURCE_DIR);
	int rc = system(cmd);
	if (rc != 0)
		fprintf(stderr, "'%s' failed (%d)\n", cmd, rc);
	return rc == 0 ? 0 : -1;
}

TH_TEST(load, files_equal_generated)
{
	char dir[4300];
	snprintf(dir, sizeof(dir), "%s/tbl", instance.tmp);
	CU_ASSERT_EQUAL_FATAL(make_dbgen_files(dir), 0);
	CU_ASSERT_EQUAL_FATAL(need_generated_db(), 0);
	struct load_report rep;
	struct errbuf err;
	int rc = do_load("dbt3_files", dir, 0, &rep, &err);
	if (rc < 0)
		fprintf(stderr, "load --from: %s\n", err.msg);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	for (int t = 0; t < GEN_NTABLES; t++)
		CU_ASSERT_EQUAL(rep.fp.rows[t], sf001_rows[t]);
	CU_ASSERT_STRING_EQUAL(rep.fp.generator, "files");

	/* the generated and the dbgen-file databases hold the same rows */
	struct srv *s = NULL;
	MYSQL *m = connect_db(&s, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	for (int t = 0; t < GEN_NTABLES; t++) {
		char sql[256];
		const char *name = gen_table_name((enum gen_table)t);
		snprintf(sql, sizeof(sql), "CHECKSUM TABLE dbt3.%s, dbt3_files.%s", name, name);
		CU_ASSERT_EQUAL_FATAL(mysql_query(m, sql), 0);
		MYSQL_RES *r = mysql_store_result(m);
		MYSQL_ROW a = mysql_fetch_row(r);
		char first[64];
		snprintf(first, sizeof(first), "%s", a[1] ? a[1] : "");
		MYSQL_ROW b = mysql_fetch_row(r);
		if (strcmp(first, b[1] ? b[1] : "") != 0)
			fprintf(stderr, "%s: checksum %s (generated) vs %s (dbgen files)\n", name,
				first, b[1]);
		CU_ASSERT_STRING_EQUAL(first, b[1] ? b[1] : "");
		mysql_free_result(r);
	}
	mysql_close(m);
	srv_free(s);
}

TH_TEST(load, failed_load_leaves_no_fingerprint)
{
	char dir[4300], cmd[9000];
	snprintf(dir, sizeof(dir), "%s/bad", instance.tmp);
	CU_ASSERT_EQUAL_FATAL(make_dbgen_files(dir), 0);
	snprintf(cmd, sizeof(cmd), "echo 'garbage|x|' >> '%s/orders.tbl'", dir);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	struct load_report rep;
	struct errbuf err;
	/* a good load first, so that the failure must remove a fingerprint that existed */
	CU_ASSERT_EQUAL_FATAL(do_load("dbt3_bad", NULL, 0, &rep, &err), 0);
	int rc = do_load("dbt3_bad", dir, 0, &rep, &err);
	CU_ASSERT(rc < 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "orders"));
	struct srv *s = NULL;
	MYSQL *m = connect_db(&s, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	struct load_fingerprint fp;
	CU_ASSERT_EQUAL(load_fingerprint_read(m, "dbt3_bad", &fp, &err), LOAD_E_NONE);
	mysql_close(m);
	srv_free(s);
}

/* 'query -s SF' on data of another scale factor is refused as run refuses it (exit 2, one line);
 * the loaded one runs. */
TH_TEST(load, query_refuses_another_scale_factor)
{
	char cmd[9000], line[512] = "";
	CU_ASSERT_EQUAL_FATAL(need_generated_db(), 0);
	const char *fmt =
	    "'%s' query 11 -q -s %s --datadir '%s' --port %ld >/dev/null 2>'%s/q.err'";
	snprintf(cmd, sizeof(cmd), fmt, DBT3_BINARY, "1", instance.inst, instance.port,
		 instance.tmp);
	int rc = system(cmd);
	CU_ASSERT(WIFEXITED(rc) && WEXITSTATUS(rc) == 2);
	snprintf(cmd, sizeof(cmd), "%s/q.err", instance.tmp);
	FILE *f = fopen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof(line), f));
	fclose(f);
	CU_ASSERT_STRING_EQUAL(line, "dbt3stab: the loaded data is scale factor 0.01, not 1\n");
	snprintf(cmd, sizeof(cmd), fmt, DBT3_BINARY, "0.01", instance.inst, instance.port,
		 instance.tmp);
	rc = system(cmd);
	CU_ASSERT(WIFEXITED(rc) && WEXITSTATUS(rc) == 0);
}

int main(int argc, char **argv)
{
	if (th_db_begin(&instance, "load") < 0)
		return 2;
	th_db_opts(&instance, &sopts, 128u << 20);
	sopts.scale = 0.01;
	int rc = th_run("load_db", th_cases(), argc, argv);
	srv_opts_release(&sopts);
	th_db_end(&instance); /* whatever happened, no server is left running */
	return rc;
}
