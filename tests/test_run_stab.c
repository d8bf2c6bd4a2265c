/* SPDX-License-Identifier: MIT */
/* stabilize's analysis (runner/run_stabilize.c) on synthetic result files; reference values from R:
 * tests/st_stab_ref.R (output tests/st_stab_ref.out); permutation p-values, times and medians from
 * tests/st_perm_ref.py (tests/st_perm_ref.h). Candidate selection and profiles. */
#include "harness.h"
#include "result/res.h"
#include "runner/run_stabilize.h"
#include "tests/st_perm_ref.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SHA_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

/* DIR/<name>/r00K.json: one restart whose Q1 and Q6 means are q1 and q6; others_ms of other
 * processes' CPU in each query's 1 s window (50 ms or more of 1000 is disturbed, res.h). */
static void write_round(const char *dir, const char *name, int k, double q1, double q6,
			double others_ms)
{
	char path[4400];
	struct res_file *res = res_file_new();
	struct errbuf err;
	json_object_set_new(res->dataset, "scale_factor", json_real(0.1));
	res_file_finish(res);
	for (int q = 0; q < 2; q++) {
		double ms[1] = {q ? q6 : q1};
		struct res_query *rq = res_file_add_query(res, q ? "Q6" : "Q1", SHA_A);
		json_t *extra = json_pack(
		    "{s:{s:f, s:f, s:f, s:n, s:n, s:n, s:i, s:i, s:i}}", "interference", "window_ms",
		    1000.0, "other_cpu_ms", others_ms, "steal_ms", 0.0, "server_cpu_ms",
		    "query_thread_cpu_ms", "server_rest_cpu_ms", "voluntary_ctxt_switches", 0,
		    "involuntary_ctxt_switches", 0, "major_faults", 0);
		struct res_restart rr = {
		    .index = 0, .measured_ms = ms, .n_measured = 1, .rows = 1, .extra = extra};
		CU_ASSERT_PTR_NOT_NULL_FATAL(res_query_add_restart(rq, &rr));
		json_decref(extra);
	}
	snprintf(path, sizeof(path), "%s/%s/r%03d.json", dir, name, k);
	CU_ASSERT_EQUAL_FATAL(res_file_write(res, path, &err), 0);
	res_file_free(res);
}

/* DIR/<name>/r000..r00(n-1).json, undisturbed: restart k's means q1[k] and q6[k]. */
static void write_series_n(const char *dir, const char *name, const double *q1, const double *q6,
			   int n)
{
	char path[4400];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	CU_ASSERT_EQUAL_FATAL(mkdir(path, 0755), 0);
	for (int k = 0; k < n; k++)
		write_round(dir, name, k, q1[k], q6[k], 0);
}

static void write_series(const char *dir, const char *name, const double *q1, const double *q6)
{
	write_series_n(dir, name, q1, q6, 3);
}

static json_t *row_of(json_t *a, const char *name)
{
	json_t *row;
	size_t i;
	json_array_foreach(json_object_get(a, "candidates"), i,
			   row) if (strcmp(json_string_value(json_object_get(row, "name")), name) ==
				    0) return row;
	return NULL;
}

static double num(json_t *row, const char *key)
{
	return json_number_value(json_object_get(row, key));
}

TH_TEST(run_stab, analysis_matches_r)
{
	static const double d1[] = {100, 110, 105}, d6[] = {20, 21, 19.5};
	static const double c1[] = {100, 101, 102}, c6[] = {20, 20.2, 19.9};
	char *dir = th_tempdir("stab");
	write_series(dir, "default", d1, d6);
	write_series(dir, "no-aslr", c1, c6);
	/* a fourth round of no-aslr, disturbed (others 100 ms of each 1 s window) and far off:
	 * left out, so the figures stay R's for the three undisturbed rounds */
	write_round(dir, "no-aslr", 3, 150, 30, 100);
	struct run_stab_cand cands[RUN_STAB_MAX_CANDS];
	struct errbuf err = {""};
	int n;
	run_stab_candidates(cands, &n);
	CU_ASSERT_EQUAL_FATAL(run_stab_select(cands, &n, "no-aslr", &err), 0);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	struct run_stab_opts o = {.dir = dir, .scale = 0.1, .warmup = 8, .runs = 10, .alpha = 0.05};
	json_t *a = run_stab_analyze(cands, n, &o, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	json_t *d = row_of(a, "default"), *c = row_of(a, "no-aslr");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(c, "restarts")), 3);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(c, "disturbed_left_out")), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(d, "disturbed_left_out")), 0);
	CU_ASSERT_DOUBLE_EQUAL(num(d, "median_cov"), 0.0426640121042, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(d, "worst_cov"), 0.0476595956562151, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(c, "median_cov"), 0.00875868515584354, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(c, "worst_cov"), 0.00990135409190615, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(c, "variance_ratio"), 0.0422834199355142, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(c, "ratio_ci_low"), 0.00440244555881605, 1e-11);
	CU_ASSERT_DOUBLE_EQUAL(num(c, "ratio_ci_high"), 0.406112370398932, 1e-9);
	/* the pooled F CI lies below 1, but 3 + 3 restarts give 2 + 2 contrasts, split C(4, 2) = 6
	 * ways: no p can be below 1/6, above alpha / 1; the p itself from tests/st_perm_ref.py */
	CU_ASSERT_DOUBLE_EQUAL(num(c, "perm_p"), perm_tiny_p, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(c, "perm_min_p"), 1.0 / 6, 1e-12);
	CU_ASSERT(json_is_null(json_object_get(d, "perm_p")));
	CU_ASSERT_EQUAL(json_array_size(json_object_get(a, "recommended")), 0);
	CU_ASSERT_FALSE(json_is_true(json_object_get(c, "recommended")));
	CU_ASSERT_STRING_EQUAL(
	    json_string_value(json_object_get(c, "not_recommended_because")),
	    "too few rounds: with 3 + 3 restarts the smallest possible p is 0.167, "
	    "not below 0.05");
	json_decref(a);
	/* --keep-disturbed analyses the fourth round too: the worst is Q6, SD of log(20, 20.2,
	 * 19.9, 30) = 0.2020053250601852 (python3 statistics.stdev) */
	o.keep_disturbed = 1;
	a = run_stab_analyze(cands, n, &o, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	c = row_of(a, "no-aslr");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(c, "restarts")), 4);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(c, "disturbed_left_out")), 0);
	CU_ASSERT_DOUBLE_EQUAL(num(c, "worst_cov"), 0.2020053250601852, 1e-12);
	json_decref(a);
	/* an unknown candidate is refused */
	CU_ASSERT_EQUAL(run_stab_select(cands, &n, "turbo-off", &err), -1);
	CU_ASSERT_STRING_EQUAL(err.msg, "unknown candidate 'turbo-off'");
	th_rmtree(dir);
	free(dir);
}

/* Six rounds of the default, no-aslr (steadier, as fast) and ahi-off (as steady, 20 % slower):
 * no-aslr is recommended; ahi-off passes the variance test and is refused for its speed.
 * Figures: tests/st_perm_ref.py (cases stab6, stab6_slower). */
TH_TEST(run_stab, recommends_by_permutation)
{
	double d1[6], d6[6], s1[6], s6[6], w1[6], w6[6];
	for (int k = 0; k < 6; k++) {
		d1[k] = stab6_default[k][0], d6[k] = stab6_default[k][1];
		s1[k] = stab6_steady[k][0], s6[k] = stab6_steady[k][1];
		w1[k] = 1.2 * s1[k], w6[k] = 1.2 * s6[k];
	}
	char *dir = th_tempdir("stab6");
	write_series_n(dir, "default", d1, d6, 6);
	write_series_n(dir, "no-aslr", s1, s6, 6);
	write_series_n(dir, "ahi-off", w1, w6, 6);
	struct run_stab_cand cands[RUN_STAB_MAX_CANDS];
	struct errbuf err = {""};
	int n;
	run_stab_candidates(cands, &n);
	CU_ASSERT_EQUAL_FATAL(run_stab_select(cands, &n, "no-aslr,ahi-off", &err), 0);
	struct run_stab_opts o = {.dir = dir, .scale = 0.1, .warmup = 8, .runs = 10, .alpha = 0.05};
	json_t *a = run_stab_analyze(cands, n, &o, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	json_t *d = row_of(a, "default"), *c = row_of(a, "no-aslr"), *w = row_of(a, "ahi-off");
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_DOUBLE_EQUAL(num(a, "perm_level"), 0.025, 1e-15);	/* 0.05 over 2 candidates */
	CU_ASSERT_DOUBLE_EQUAL(num(c, "perm_min_p"), 1.0 / 252, 1e-15); /* 1 / C(10, 5) */
	CU_ASSERT_DOUBLE_EQUAL(num(c, "perm_p"), perm_stab6_p, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(w, "perm_p"), perm_stab6_slower_p, 1e-12);
	CU_ASSERT(perm_stab6_p < 0.025);
	CU_ASSERT_DOUBLE_EQUAL(num(c, "time_ratio"), stab6_time_steady, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(w, "time_ratio"), stab6_time_slower, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(d, "median_cov"), stab6_median_default, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(num(c, "median_cov"), stab6_median_steady, 1e-12);
	json_t *rec = json_object_get(a, "recommended");
	CU_ASSERT_EQUAL_FATAL(json_array_size(rec), 1);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(rec, 0)), "no-aslr");
	CU_ASSERT(json_is_true(json_object_get(c, "recommended")));
	CU_ASSERT(json_is_null(json_object_get(c, "not_recommended_because")));
	char want[200];
	snprintf(want, sizeof(want),
		 "%.0f%% slower than the default (geometric mean): it changes the server measured",
		 100 * (stab6_time_slower - 1));
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(w, "not_recommended_because")),
			       want);
	/* the profile carries the recommended setting's run arguments ... */
	json_t *p = run_stab_profile(cands, n, a);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(p, "run_args")), 1);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(json_object_get(p, "run_args"), 0)),
			       "--no-aslr");
	/* ... and run --profile puts them before the command line's own options */
	char prof[4400];
	snprintf(prof, sizeof(prof), "%s/profile.json", dir);
	CU_ASSERT_EQUAL_FATAL(json_dump_file(p, prof, 0), 0);
	char *argv[] = {"run", "-s", "0.1", "--profile", prof, "-o", "x.json", NULL};
	int argc = 7;
	char **nv = NULL;
	json_t *rec_profile = NULL;
	CU_ASSERT_EQUAL_FATAL(run_stab_profile_argv(argc, argv, &argc, &nv, &rec_profile, &err), 0);
	CU_ASSERT_EQUAL_FATAL(argc, 6);
	const char *want_argv[] = {"run", "--no-aslr", "-s", "0.1", "-o", "x.json"};
	for (int i = 0; i < 6; i++)
		CU_ASSERT_STRING_EQUAL(nv[i], want_argv[i]);
	CU_ASSERT_PTR_NULL(nv[6]);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(rec_profile, "path")), prof);
	free(nv);
	json_decref(rec_profile);
	json_decref(p);
	json_decref(a);
	th_rmtree(dir);
	free(dir);
}

TH_MAIN(run_stab)
