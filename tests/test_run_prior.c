/* SPDX-License-Identifier: MIT */
/* run --costs-from (runner/run_prior.c) on synthetic result files; every expected figure is
 * worked out by hand from the fixture in its comment. */
#include "harness.h"
#include "result/res.h"
#include "runner/run_prior.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHA_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

static void add_restart(struct res_query *q, int index, enum res_status st, double *w, size_t nw,
			double *m, size_t nm)
{
	struct res_restart r = {.index = index,
				.status = st,
				.warmup_ms = w,
				.n_warmup = nw,
				.measured_ms = m,
				.n_measured = nm,
				.rows = nm ? 1 : -1,
				.error = st == RES_STATUS_OK ? NULL : "lost connection"};
	CU_ASSERT_PTR_NOT_NULL_FATAL(res_query_add_restart(q, &r));
}

/* SF 0.1, 10 s of wall time (10:00:00 to 10:00:10). Q1: restart 0 ok, warm-up 10 and 20 ms,
 * runs 30 and 40 ms; restart 1 crashed after a 1000 ms warm-up. Q6: restart 0 ok, one 5 ms run.
 * kind: 0 plain, 1 with a budget record (server_start_stop_s 3.5), 2 a variant ("old") of a
 * run without --budget, 3 Q1's ok restart crashed too and Q6 left out (nothing finished), 4 plain
 * measured with --instructions. */
static char *write_fixture(const char *dir, int kind)
{
	static double w1[] = {10, 20}, m1[] = {30, 40}, w1b[] = {1000}, m6[] = {5};
	char *path = malloc(4200);
	struct errbuf err;
	struct res_file *res = res_file_new();
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	json_object_set_new(res->dataset, "scale_factor", json_real(0.1));
	res_set_string(&res->started_at, "2026-12-01T10:00:00Z");
	res_set_string(&res->finished_at, "2026-12-01T10:00:10Z");
	struct res_query *q1 = res_file_add_query(res, "Q1", SHA_A);
	add_restart(q1, 0, kind == 3 ? RES_STATUS_CRASH : RES_STATUS_OK, w1, 2, m1,
		    kind == 3 ? 0 : 2);
	add_restart(q1, 1, RES_STATUS_CRASH, w1b, 1, NULL, 0);
	if (kind != 3)
		add_restart(res_file_add_query(res, "Q6", SHA_A), 0, RES_STATUS_OK, NULL, 0, m6, 1);
	if (kind == 1)
		res->extra = json_pack("{s:{s:i, s:f, s:f, s:f, s:s}}", "budget", "pairs", 2,
				       "elapsed_s", 30.0, "budget_s", 60.0, "server_start_stop_s",
				       3.5, "stop_reason", "budget");
	if (kind == 2)
		json_object_set_new(res->plan, "variant", json_string("old"));
	if (kind == 4)
		json_object_set_new(res->plan, "instructions", json_true());
	snprintf(path, 4200, "%s/prior%d.json", dir, kind);
	CU_ASSERT_EQUAL_FATAL(res_file_write(res, path, &err), 0);
	res_file_free(res);
	return path;
}

TH_TEST(run_prior, costs_and_fixed_part)
{
	char *dir = th_tempdir("prior");
	double ms[RUN_MAX_QUERIES + 1], fixed = -1;
	struct errbuf err = {""};
	char *plain = write_fixture(dir, 0);
	CU_ASSERT_EQUAL_FATAL(run_prior_costs(plain, 0.1, 0, ms, &fixed, &err), 0);
	/* Q1: (10 + 20 + 30 + 40) / 4, the crashed restart left out; Q6: 5; the rest unknown */
	CU_ASSERT_DOUBLE_EQUAL(ms[1], 25.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(ms[6], 5.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(ms[2], 0.0, 0);
	CU_ASSERT_DOUBLE_EQUAL(ms[22], 0.0, 0);
	/* (10 s - (10 + 20 + 30 + 40 + 1000 + 5) ms) over 2 restarts = 4.4475 s */
	CU_ASSERT_DOUBLE_EQUAL(fixed, 4.4475, 1e-9);
	char *budget = write_fixture(dir, 1);
	CU_ASSERT_EQUAL_FATAL(run_prior_costs(budget, 0.1, 0, ms, &fixed, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(fixed, 3.5, 1e-12);
	char *variant = write_fixture(dir, 2);
	CU_ASSERT_EQUAL_FATAL(run_prior_costs(variant, 0.1, 0, ms, &fixed, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(fixed, 0.0, 0);
	CU_ASSERT_DOUBLE_EQUAL(ms[1], 25.0, 1e-12);
	free(budget);
	free(variant);
	/* refused: another scale factor, nothing finished, no file */
	char want[4400];
	CU_ASSERT_EQUAL(run_prior_costs(plain, 1, 0, ms, &fixed, &err), -1);
	snprintf(want, sizeof(want), "--costs-from '%s' was measured at SF 0.1, not at SF 1",
		 plain);
	CU_ASSERT_STRING_EQUAL(err.msg, want);
	CU_ASSERT_EQUAL(run_prior_costs(plain, 0.1, 1, ms, &fixed, &err), -1);
	snprintf(want, sizeof(want),
		 "--costs-from '%s' was measured without --instructions: Valgrind's slowdown makes "
		 "its times no estimate of this run's",
		 plain);
	CU_ASSERT_STRING_EQUAL(err.msg, want);
	char *vg = write_fixture(dir, 4); /* ... and one measured with it, only with it */
	CU_ASSERT_EQUAL(run_prior_costs(vg, 0.1, 1, ms, &fixed, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(ms[1], 25.0, 1e-12);
	CU_ASSERT_EQUAL(run_prior_costs(vg, 0.1, 0, ms, &fixed, &err), -1);
	free(vg);
	char *none = write_fixture(dir, 3);
	CU_ASSERT_EQUAL(run_prior_costs(none, 0.1, 0, ms, &fixed, &err), -1);
	snprintf(want, sizeof(want), "--costs-from '%s' holds no finished execution", none);
	CU_ASSERT_STRING_EQUAL(err.msg, want);
	snprintf(want, sizeof(want), "%s/absent.json", dir);
	CU_ASSERT_EQUAL(run_prior_costs(want, 0.1, 0, ms, &fixed, &err), -1);
	free(plain);
	free(none);
	th_rmtree(dir);
	free(dir);
}

TH_MAIN(run_prior)
