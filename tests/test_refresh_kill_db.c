/* SPDX-License-Identifier: MIT */
/* A refresh run killed after RF1's or RF2's commit (SIGKILL, SIGTERM) on a real private MariaDB
 * loaded at SF 0.01: the data comes back from the snapshot (row counts and CHECKSUM TABLE of
 * orders and lineitem as loaded), --resume completes the file, and compare never calls the
 * interrupted file's results wrong. Where the run is comes from a second connection that polls
 * orders' row count and key sum. */
#include "harness.h"
#include "server/srv_snapshot.h"
#include "tests/th_db.h"
#include "tests/th_spawn.h"
#include <mysql.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

static struct th_db db; /* one loaded instance shared by the cases (made in main) */
static int loaded;

/* What the refresh functions change: rows, orders' key sum and both tables' checksums. */
struct state {
	long long orders, lineitems, keysum;
	char orders_sum[32], lineitem_sum[32];
};

/* Column col of the first row of sql. */
static int query_col(MYSQL *m, const char *sql, int col, char *out, size_t len)
{
	*out = '\0';
	if (mysql_query(m, sql) != 0)
		return -1;
	MYSQL_RES *r = mysql_store_result(m);
	MYSQL_ROW row = r && (int)mysql_num_fields(r) > col ? mysql_fetch_row(r) : NULL;
	int ok = row && row[col];
	if (ok)
		snprintf(out, len, "%s", row[col]);
	mysql_free_result(r);
	return ok ? 0 : -1;
}

/* Counts and key sum only (what the poll reads): 0 or -1. */
static int read_keys(MYSQL *m, struct state *s)
{
	char a[32], b[40];
	if (query_col(m, "SELECT COUNT(*) FROM orders", 0, a, sizeof(a)) < 0 ||
	    query_col(m, "SELECT SUM(o_orderkey) FROM orders", 0, b, sizeof(b)) < 0)
		return -1;
	s->orders = atoll(a);
	s->keysum = atoll(b);
	return 0;
}

static int read_state(MYSQL *m, struct state *s)
{
	char n[32];
	memset(s, 0, sizeof(*s));
	if (read_keys(m, s) < 0 ||
	    query_col(m, "SELECT COUNT(*) FROM lineitem", 0, n, sizeof(n)) < 0 ||
	    query_col(m, "CHECKSUM TABLE orders", 1, s->orders_sum, sizeof(s->orders_sum)) < 0 ||
	    query_col(m, "CHECKSUM TABLE lineitem", 1, s->lineitem_sum, sizeof(s->lineitem_sum)) <
		0)
		return -1;
	s->lineitems = atoll(n);
	return 0;
}

/* The data as a start of a fresh handle finds it (which restores a snapshot left, and says so
 * in *restored). 0 or -1. */
static int data_now(struct state *s, int *restored)
{
	struct th_srv t;
	th_srv_init(&t, &db, 0);
	int rc = th_srv_start(&t, NULL);
	MYSQL *m = rc == 0 ? srv_connect(t.s, "dbt3", &t.err) : NULL;
	if (restored)
		*restored = t.s ? srv_snapshot_restored(t.s) : -1;
	rc = m ? read_state(m, s) : -1;
	if (rc < 0)
		fprintf(stderr, "data_now: %s %s\n", t.err.msg, m ? mysql_error(m) : "");
	if (m)
		mysql_close(m);
	th_srv_release(&t);
	return rc;
}

static void assert_same(const struct state *a, const struct state *b)
{
	CU_ASSERT_EQUAL(a->orders, b->orders);
	CU_ASSERT_EQUAL(a->lineitems, b->lineitems);
	CU_ASSERT_EQUAL(a->keysum, b->keysum);
	CU_ASSERT_STRING_EQUAL(a->orders_sum, b->orders_sum);
	CU_ASSERT_STRING_EQUAL(a->lineitem_sum, b->lineitem_sum);
}

/* The point to kill at. */
enum point { AFTER_RF1, AFTER_RF2 };

/* Spawns `run ARGS`, polls the run's server from a second connection and sends sig when the
 * data is past point: RF1 committed (10 more orders), or RF2 committed and not yet restored (as
 * many orders as loaded, another key sum). The run's exit code, or -1 when the point was never
 * seen. */
static int run_and_kill(const char *tag, const char *const *args, enum point at, int sig,
			const struct state *loaded_state)
{
	char log[4300];
	snprintf(log, sizeof(log), "%s/%s.log", db.tmp, tag);
	struct th_srv t;
	th_srv_init(&t, &db, 0);
	if (th_srv_open(&t) < 0)
		return -1;
	pid_t pid = th_db_spawn(&db, log, args, 0);
	MYSQL *m = NULL;
	int seen = 0, st = 0;
	while (!seen && waitpid(pid, &st, WNOHANG) == 0) {
		struct state s;
		if (!m && srv_is_alive(t.s))
			m = srv_connect(t.s, "dbt3", &t.err);
		if (m && read_keys(m, &s) < 0) {
			mysql_close(m); /* the run restarts its server */
			m = NULL;
		} else if (m) {
			seen = at == AFTER_RF1 ? s.orders == loaded_state->orders + 10
					       : s.orders == loaded_state->orders &&
						     s.keysum != loaded_state->keysum;
		}
		if (seen)
			kill(pid, sig);
		else
			th_sleep_ms(m ? 1 : 20);
	}
	if (m)
		mysql_close(m);
	th_srv_release(&t);
	int rc = seen ? th_wait_exit(pid) : -1;
	if (!seen) {
		fprintf(stderr, "%s: the run ended before the point to kill at\n", tag);
		th_show_log(log);
	}
	return rc;
}

static char *tmp_path(const char *name)
{
	char *p = NULL;
	return asprintf(&p, "%s/%s", db.tmp, name) < 0 ? NULL : p;
}

static int exists(const char *name)
{
	char p[4400];
	struct stat st;
	snprintf(p, sizeof(p), "%s/%s", db.inst, name);
	return lstat(p, &st) == 0;
}

/* compare of a against b: its exit code, the text in out. */
static int compare(char *out, size_t len, const char *a, const char *b)
{
	return th_sh(out, len, "'%s' compare '%s' '%s' 2>&1", DBT3_BINARY, a, b);
}

#define RUN_ARGS(out)                                                                              \
	"run", "-s", "0.01", "-o", out, "--restarts", "1", "--warmup", "0", "--runs", "1",         \
	    "--queries", "6", "--refresh", "--quiet"

/* SIGKILL after RF1's commit: --resume restores the data first (no duplicate keys), completes
 * the file, and compare against a clean run finds no wrong result. */
TH_TEST(refresh_kill_db, sigkill_after_rf1_resume_restores)
{
	CU_ASSERT_FATAL(loaded);
	struct state l, now;
	CU_ASSERT_EQUAL_FATAL(data_now(&l, NULL), 0);
	char *clean = tmp_path("clean.json"), *out = tmp_path("rf1.json");
	char *copy = tmp_path("rf1-interrupted.json"), text[65536];
	const char *clean_args[] = {RUN_ARGS(clean), NULL};
	CU_ASSERT_EQUAL_FATAL(th_db_run(&db, "clean", clean_args), 0);
	const char *args[] = {RUN_ARGS(out), NULL};
	CU_ASSERT_EQUAL_FATAL(run_and_kill("rf1", args, AFTER_RF1, SIGKILL, &l), 128 + SIGKILL);
	CU_ASSERT(exists(SRV_SNAPSHOT_DIR)); /* nothing restored it: the next command does */
	CU_ASSERT_EQUAL_FATAL(th_system("cp '%s' '%s'", out, copy), 0);
	const char *resume[] = {"run", "--resume", out, NULL}; /* not --quiet: its events */
	CU_ASSERT_EQUAL(th_db_run(&db, "rf1-resume", resume), 0);
	char log[4400];
	snprintf(log, sizeof(log), "%s/rf1-resume.log", db.tmp);
	CU_ASSERT_EQUAL(th_system("grep -q 'restored .* from the snapshot' '%s'", log), 0);
	CU_ASSERT_FALSE(exists(SRV_SNAPSHOT_DIR));
	CU_ASSERT_EQUAL_FATAL(data_now(&now, NULL), 0);
	assert_same(&l, &now);
	int rc = compare(text, sizeof(text), copy, clean);
	CU_ASSERT(rc == 0 || rc == 1);
	CU_ASSERT_PTR_NULL(strstr(text, "wrong-result"));
	rc = compare(text, sizeof(text), out, clean);
	CU_ASSERT(rc == 0 || rc == 1);
	CU_ASSERT_PTR_NULL(strstr(text, "wrong-result"));
	free(clean);
	free(out);
	free(copy);
}

#define STREAM_ARGS(out)                                                                           \
	"run", "-s", "0.01", "-o", out, "--restarts", "1", "--warmup", "0", "--runs", "1",         \
	    "--queries", "9,13,18,21", "--streams", "1", "--refresh", "--quiet"

/* SIGKILL after RF2's commit (the throughput test's refresh stream, restored only when its
 * query stream ends): the next start of the instance restores the data and says so. */
TH_TEST(refresh_kill_db, sigkill_after_rf2_next_start_restores)
{
	CU_ASSERT_FATAL(loaded);
	struct state l, now;
	CU_ASSERT_EQUAL_FATAL(data_now(&l, NULL), 0);
	char *out = tmp_path("rf2-kill.json");
	const char *args[] = {STREAM_ARGS(out), NULL};
	CU_ASSERT_EQUAL_FATAL(run_and_kill("rf2-kill", args, AFTER_RF2, SIGKILL, &l),
			      128 + SIGKILL);
	CU_ASSERT(exists(SRV_SNAPSHOT_DIR));
	int restored = 0;
	CU_ASSERT_EQUAL_FATAL(data_now(&now, &restored), 0);
	CU_ASSERT_EQUAL(restored, 1);
	assert_same(&l, &now);
	CU_ASSERT_FALSE(exists(SRV_SNAPSHOT_DIR));
	CU_ASSERT_FALSE(exists(SRV_SNAPSHOT_CHANGED));
	free(out);
}

/* SIGTERM after RF2's commit: the exit handler stops the server and swaps the snapshot back
 * before the process ends (exit 130); the next start finds nothing to restore. */
TH_TEST(refresh_kill_db, sigterm_after_rf2_restores_at_exit)
{
	CU_ASSERT_FATAL(loaded);
	struct state l, now;
	CU_ASSERT_EQUAL_FATAL(data_now(&l, NULL), 0);
	char *out = tmp_path("rf2-term.json");
	const char *args[] = {STREAM_ARGS(out), NULL};
	CU_ASSERT_EQUAL_FATAL(run_and_kill("rf2-term", args, AFTER_RF2, SIGTERM, &l), 130);
	CU_ASSERT_FALSE(exists(SRV_SNAPSHOT_DIR));
	int restored = 1;
	CU_ASSERT_EQUAL_FATAL(data_now(&now, &restored), 0);
	CU_ASSERT_EQUAL(restored, 0);
	assert_same(&l, &now);
	CU_ASSERT_FALSE(exists(SRV_SNAPSHOT_CHANGED)); /* removed by that start */
	free(out);
}

int main(int argc, char **argv)
{
	return th_db_main_loaded(&db, &loaded, "rfkill", "refresh_kill_db", th_cases(), argc, argv);
}
