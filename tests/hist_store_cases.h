/* SPDX-License-Identifier: MIT */
/* Store cases run against SQLite (tests/test_hist_store.c) and a private MariaDB
 * (tests/test_hist_db.c): each file sets hsc_location to the store and hsc_dir to a temp dir.
 * Nightly result files are made from tests/data/cmp_old.json with the restart means of
 * tests/hist_ref.h's "two_steps" series (+5% at result 15, -10% at 30), so the change points
 * found through the store can be checked against the NumPy/SciPy reference. Its cases
 * (TH_TEST(hsc, ...)) run in the file that includes it. */
#include "history/hist.h"
#include "history/hist_db.h"
#include "result/res.h"
#include "tests/harness.h"
#include "tests/hist_ref.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The "two_steps" series of the reference: its results, restart means and change points. */
#define HSC_N href_n[HREF_TWO_STEPS]
#define HSC_MEANS (&href_means[href_first[HREF_TWO_STEPS]])
#define HSC_CP (href_first_cp[HREF_TWO_STEPS])

static const char *hsc_location;
static const char *hsc_dir;

static struct hist_store *hsc_open(void)
{
	struct hist_store *st = NULL;
	struct errbuf err = {""};
	if (hist_store_open(&st, hsc_location, &err) < 0)
		fprintf(stderr, "open: %s\n", err.msg);
	return st;
}

static char *hsc_path(const char *name)
{
	char *p = NULL;
	if (asprintf(&p, "%s/%s", hsc_dir, name) < 0)
		return NULL;
	return p;
}

/* Night i of the series as a result file: every restart's measured runs equal the reference's
 * restart mean (so the restart mean is that number exactly). */
static char *hsc_night(int i)
{
	struct res_file *res = NULL;
	struct errbuf err;
	char name[64], at[32];
	if (res_file_read(&res, DBT3_SOURCE_DIR "/tests/data/cmp_old.json", &err) < 0)
		return NULL;
	snprintf(at, sizeof(at), "2026-10-%02dT%02d:00:00Z", 1 + i / 2, 1 + 12 * (i % 2));
	res_set_string(&res->started_at, at);
	snprintf(at, sizeof(at), "2026-10-%02dT%02d:30:00Z", 1 + i / 2, 1 + 12 * (i % 2));
	res_set_string(&res->finished_at, at);
	for (size_t q = 0; q < res->n_queries; q++)
		for (size_t r = 0; r < res->queries[q].n_restarts && r < HREF_K; r++) {
			struct res_restart *rr = &res->queries[q].restarts[r];
			for (size_t k = 0; k < rr->n_measured; k++)
				rr->measured_ms[k] = HSC_MEANS[i][r] * (1 + (double)q);
		}
	snprintf(name, sizeof(name), "night%02d.json", i);
	char *path = hsc_path(name);
	if (path && res_file_write(res, path, &err) < 0) {
		free(path);
		path = NULL;
	}
	res_file_free(res);
	return path;
}

static size_t hsc_count_results(struct hist_store *st)
{
	struct hist_result_info *r = NULL;
	size_t n = 0;
	struct errbuf err;
	if (hist_store_results(&r, &n, st, NULL, &err) < 0)
		return (size_t)-1;
	hist_result_infos_free(r, n);
	return n;
}

static int hsc_count_row(void *ctx, const char *const *cols, size_t n)
{
	(void)cols;
	(void)n;
	++*(size_t *)ctx;
	return 0;
}

static size_t hsc_count_export(struct hist_store *st)
{
	size_t n = 0;
	struct errbuf err;
	if (hist_store_export(st, NULL, hsc_count_row, &n, &err) < 0)
		return (size_t)-1;
	return n;
}

/* A new store is created at schema version 0 -> current; opened again it is current. */
TH_TEST(hsc, migrates_from_an_empty_store)
{
	struct hist_store *st = hsc_open();
	int before, now;
	CU_ASSERT_PTR_NOT_NULL_FATAL(st);
	hist_store_version(st, &before, &now);
	CU_ASSERT_EQUAL(before, 0);
	CU_ASSERT_EQUAL(now, 4);
	hist_store_close(st);
	st = hsc_open();
	CU_ASSERT_PTR_NOT_NULL_FATAL(st);
	hist_store_version(st, &before, &now);
	CU_ASSERT_EQUAL(before, 4);
	CU_ASSERT_EQUAL(hsc_count_results(st), 0);
	hist_store_close(st);
}

/* The first column of the first row as text into ctx (char[512]). */
static int hsc_row_text(void *ctx, const char *const *cols, size_t n)
{
	snprintf((char *)ctx, 512, "%s", n && cols[0] ? cols[0] : "NULL");
	return 0;
}

/* Each restart's work is stored per night: the warm count of a constant counter, the mean of
 * a varying one (tests/data/work_old.json, made by tests/data/gen_work.py); a file without work
 * records stores NULL. */
TH_TEST(hsc, stores_work_per_restart)
{
	struct hist_store *st = hsc_open();
	struct errbuf err = {""};
	long long id = 0;
	enum hist_add_status s;
	char path[4096], got[512];
	CU_ASSERT_PTR_NOT_NULL_FATAL(st);
	snprintf(path, sizeof(path), "%s/tests/data/work_old.json", DBT3_SOURCE_DIR);
	CU_ASSERT_EQUAL_FATAL(hist_store_add(st, path, "b0", NULL, &id, &s, &err), 0);
	struct hist_arg a = HIST_INT(id);
	CU_ASSERT_EQUAL(hist_db_exec(hist_store_db(st),
				     "SELECT work FROM hist_restarts WHERE result_id = ? AND "
				     "query_id = 'Q2' AND restart_index = 1",
				     &a, 1, hsc_row_text, got, &err),
			0);
	CU_ASSERT_STRING_EQUAL(got,
			       "{\"Handler_read_next\":1200000,\"Rows_read\":1351144,\"Sort_rows\":44}");
	/* Q7 has no warm-up: its first measured run (2530 keys) is not warm */
	CU_ASSERT_EQUAL(hist_db_exec(hist_store_db(st),
				     "SELECT work FROM hist_restarts WHERE result_id = ? AND "
				     "query_id = 'Q7' AND restart_index = 0",
				     &a, 1, hsc_row_text, got, &err),
			0);
	CU_ASSERT_STRING_EQUAL(got, "{\"Handler_read_key\":2490}");
	CU_ASSERT_EQUAL(hist_store_remove(st, id, &err), 0); /* the other cases start empty */
	hist_store_close(st);
}

/* Each restart's instruction counts are stored per night (tests/data/instr_old.json, cut from a
 * real run --instructions): Q6's two measured runs counted 136800053 each in restart 1, Q1's
 * 894820429 and 894804039 in restart 0 (mean 894812234); a file without counts stores NULL. */
TH_TEST(hsc, stores_instructions_per_restart)
{
	struct hist_store *st = hsc_open();
	struct errbuf err = {""};
	long long id = 0, id2 = 0;
	enum hist_add_status s;
	char path[4096], got[512];
	static const struct {
		const char *sql, *want;
	} rows[] = {
	    {"SELECT instructions FROM hist_restarts WHERE result_id = ? AND query_id = 'Q6' AND "
	     "restart_index = 1",
	     "{\"callgrind_ir\":136800053}"},
	    {"SELECT instructions FROM hist_restarts WHERE result_id = ? AND query_id = 'Q1' AND "
	     "restart_index = 0",
	     "{\"callgrind_ir\":894812234.0}"},
	};
	CU_ASSERT_PTR_NOT_NULL_FATAL(st);
	snprintf(path, sizeof(path), "%s/tests/data/instr_old.json", DBT3_SOURCE_DIR);
	CU_ASSERT_EQUAL_FATAL(hist_store_add(st, path, "b0", NULL, &id, &s, &err), 0);
	struct hist_arg a = HIST_INT(id);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		CU_ASSERT_EQUAL(hist_db_exec(hist_store_db(st), rows[i].sql, &a, 1, hsc_row_text, got,
					     &err),
				0);
		CU_ASSERT_STRING_EQUAL(got, rows[i].want);
	}
	snprintf(path, sizeof(path), "%s/tests/data/work_old.json", DBT3_SOURCE_DIR);
	CU_ASSERT_EQUAL_FATAL(hist_store_add(st, path, "b1", NULL, &id2, &s, &err), 0);
	struct hist_arg a2 = HIST_INT(id2);
	CU_ASSERT_EQUAL(hist_db_exec(hist_store_db(st),
				     "SELECT instructions FROM hist_restarts WHERE result_id = ? AND "
				     "query_id = 'Q2' AND restart_index = 1",
				     &a2, 1, hsc_row_text, got, &err),
			0);
	CU_ASSERT_STRING_EQUAL(got, "NULL");
	CU_ASSERT_EQUAL(hist_store_remove(st, id, &err), 0); /* the other cases start empty */
	CU_ASSERT_EQUAL(hist_store_remove(st, id2, &err), 0);
	hist_store_close(st);
}

/* Same file twice: one result; an invalid file: the reader's message, nothing stored. */
TH_TEST(hsc, add_is_idempotent_and_refuses_invalid_files)
{
	struct hist_store *st = hsc_open();
	struct errbuf err = {""}, want = {""};
	struct res_file *res = NULL;
	long long id1 = 0, id2 = 0;
	enum hist_add_status s1, s2;
	CU_ASSERT_PTR_NOT_NULL_FATAL(st);
	char *night = hsc_night(0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(night);
	CU_ASSERT_EQUAL(hist_store_add(st, night, "b0", NULL, &id1, &s1, &err), 0);
	CU_ASSERT_EQUAL(s1, HIST_ADDED);
	CU_ASSERT_EQUAL(hist_store_add(st, night, "other", NULL, &id2, &s2, &err), 0);
	CU_ASSERT_EQUAL(s2, HIST_DUPLICATE);
	CU_ASSERT_EQUAL(id1, id2);
	size_t before = hsc_count_export(st);
	/* 4 queries x 5 restarts, all ok */
	CU_ASSERT_EQUAL(before, 20);
	const char *bad = DBT3_SOURCE_DIR "/tests/data/bad_negative.json";
	CU_ASSERT_EQUAL(hist_store_add(st, bad, NULL, NULL, &id2, &s2, &err), -1);
	CU_ASSERT_EQUAL(res_file_read(&res, bad, &want), -1);
	CU_ASSERT_STRING_EQUAL(err.msg, want.msg);
	CU_ASSERT_EQUAL(hsc_count_results(st), 1);
	CU_ASSERT_EQUAL(hsc_count_export(st), before);
	struct hist_result_info ri;
	char *json = NULL;
	CU_ASSERT_EQUAL_FATAL(hist_store_result(&ri, &json, st, id1, &err), 0);
	CU_ASSERT_STRING_EQUAL(ri.build_id, "b0");
	CU_ASSERT_STRING_EQUAL(ri.started_at, "2026-10-01T01:00:00Z");
	char *text = NULL;
	size_t len = 0;
	CU_ASSERT_EQUAL(util_read_file(night, &text, &len, &err), 0);
	CU_ASSERT_STRING_EQUAL(json, text); /* stored whole, byte for byte */
	free(text);
	free(json);
	hist_result_info_release(&ri);
	CU_ASSERT_EQUAL(hist_store_remove(st, id1, &err), 0);
	CU_ASSERT_EQUAL(hist_store_remove(st, id1, &err), HIST_E_UNKNOWN);
	CU_ASSERT_EQUAL(hsc_count_results(st), 0);
	CU_ASSERT_EQUAL(hsc_count_export(st), 0);
	free(night);
	hist_store_close(st);
}

/* Two writers at once (each its own process and connection) adding interleaved nights and one
 * common file: every night lands once. */
TH_TEST(hsc, concurrent_adds_both_land)
{
	char *nights[HREF_N_MAX];
	pid_t pid[2];
	for (size_t i = 0; i < HSC_N; i++) {
		nights[i] = hsc_night(i);
		CU_ASSERT_PTR_NOT_NULL_FATAL(nights[i]);
	}
	for (int w = 0; w < 2; w++) {
		pid[w] = fork();
		CU_ASSERT_TRUE_FATAL(pid[w] >= 0);
		if (pid[w] > 0)
			continue;
		struct hist_store *st = hsc_open();
		int bad = !st;
		for (size_t i = (size_t)w; st && i < HSC_N; i += 2) {
			struct errbuf err;
			long long id;
			enum hist_add_status s;
			if (hist_store_add(st, nights[i], NULL, NULL, &id, &s, &err) < 0 ||
			    hist_store_add(st, nights[7], NULL, NULL, &id, &s, &err) < 0) {
				fprintf(stderr, "writer %d: %s\n", w, err.msg);
				bad = 1;
			}
		}
		hist_store_close(st);
		_exit(bad);
	}
	for (int w = 0; w < 2; w++) {
		int status = -1;
		waitpid(pid[w], &status, 0);
		CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	struct hist_store *st = hsc_open();
	CU_ASSERT_PTR_NOT_NULL_FATAL(st);
	CU_ASSERT_EQUAL(hsc_count_results(st), HSC_N);
	CU_ASSERT_EQUAL(hsc_count_export(st), HSC_N * 20);
	hist_store_close(st);
	for (size_t i = 0; i < HSC_N; i++)
		free(nights[i]);
}

/* After the concurrent adds: the check finds the reference's change points in every query
 * (each query's times are the series times a constant, which leaves logs' differences alone). */
TH_TEST(hsc, check_finds_the_reference_change_points)
{
	struct hist_store *st = hsc_open();
	struct hist_detect_opts o;
	struct hist_check c;
	struct errbuf err = {""};
	hist_detect_opts_init(&o);
	CU_ASSERT_PTR_NOT_NULL_FATAL(st);
	for (size_t i = 0; i < HSC_N; i++) { /* no-ops after the concurrent case */
		char *night = hsc_night(i);
		long long id;
		enum hist_add_status s;
		CU_ASSERT_EQUAL(hist_store_add(st, night, NULL, NULL, &id, &s, &err), 0);
		free(night);
	}
	CU_ASSERT_EQUAL_FATAL(hist_check_run(&c, st, NULL, NULL, &o, &err), 0);
	CU_ASSERT_EQUAL_FATAL(c.n, 1);
	CU_ASSERT_EQUAL(c.series[0].s.n_qs, 4);
	for (size_t q = 0; q < c.series[0].s.n_qs; q++) {
		const struct hist_query_check *k = &c.series[0].checks[q];
		CU_ASSERT_EQUAL(c.series[0].s.qs[q].n, HSC_N);
		CU_ASSERT_EQUAL_FATAL(k->n_cps, href_ncps[HREF_TWO_STEPS]);
		for (size_t i = 0; i < k->n_cps; i++) {
			CU_ASSERT_EQUAL(k->cps[i].index, href_cps[HSC_CP + i]);
			CU_ASSERT_DOUBLE_EQUAL(k->cps[i].test.ratio, href_cp_ratio[HSC_CP + i],
					       1e-9);
			/* the file stores times to the nanosecond: compare log p (p is ~1e-83) */
			double lp = log(href_cp_p[HSC_CP + i]);
			CU_ASSERT_DOUBLE_EQUAL(log(k->cps[i].test.p), lp, 1e-6 * fabs(lp));
		}
		const struct hist_point *pt = &c.series[0].s.qs[q].pts[href_cps[HSC_CP]];
		CU_ASSERT_STRING_EQUAL(pt->started_at, "2026-10-08T13:00:00Z");
	}
	CU_ASSERT_FALSE(c.any_starts_regression);
	hist_check_release(&c);
	CU_ASSERT_EQUAL(hist_check_run(&c, st, "ffffffffffff", NULL, &o, &err), HIST_E_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "unknown series 'ffffffffffff'"));
	hist_store_close(st);
}
