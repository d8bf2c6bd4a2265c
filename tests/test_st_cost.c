/* SPDX-License-Identifier: MIT */
/* What a verdict costs (stats/st_cost.c) against tests/data/verdict_cost.py, which computes
 * the same figures with SciPy from the text of docs/statistics.md; the lines and the JSON. */
#include "harness.h"
#include "reports/rpt.h"
#include "result/res.h"
#include "stats/st_cost.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DATA DBT3_SOURCE_DIR "/tests/data/"

static size_t n_of(json_t *v)
{
	return json_is_integer(v) ? (size_t)json_integer_value(v) : 0;
}

static double real_of(json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void same(double got, double want, double rel)
{
	if (isnan(want)) {
		CU_ASSERT(isnan(got));
		return;
	}
	if (!(fabs(got - want) <= rel * fabs(want)))
		fprintf(stderr, "got %.10g, want %.10g\n", got, want);
	CU_ASSERT(fabs(got - want) <= rel * fabs(want));
}

TH_TEST(st_cost, matches_scipy)
{
	struct res_file *res = NULL;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL_FATAL(res_file_read(&res, DATA "cost_fixture.json", &err), 0);
	json_t *want = json_load_file(DATA "cost_expected.json", 0, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(want);
	struct st_cost c;
	CU_ASSERT_EQUAL_FATAL(st_cost_compute(&c, res, NULL, &err), 0);
	json_t *nz = json_object_get(want, "noise");
	same(c.noise.sd, real_of(json_object_get(nz, "sd")), 1e-9);
	same(c.noise.sd_lo, real_of(json_array_get(json_object_get(nz, "ci"), 0)), 1e-9);
	same(c.noise.sd_hi, real_of(json_array_get(json_object_get(nz, "ci"), 1)), 1e-9);
	CU_ASSERT_EQUAL(c.noise.k, n_of(json_object_get(nz, "restarts")));
	CU_ASSERT_EQUAL(c.noise.n_queries, n_of(json_object_get(nz, "queries")));
	CU_ASSERT_EQUAL(c.m, n_of(json_object_get(want, "queries")));
	same(c.restart_s, real_of(json_object_get(want, "restart_s")), 1e-9);
	json_t *ch = json_object_get(want, "changes");
	CU_ASSERT_EQUAL_FATAL(json_array_size(ch), ST_COST_EFFECTS);
	for (size_t i = 0; i < ST_COST_EFFECTS; i++) {
		json_t *w = json_array_get(ch, i);
		const struct st_cost_effect *e = &c.eff[i];
		same(e->effect, real_of(json_object_get(w, "effect")), 1e-12);
		CU_ASSERT_EQUAL(e->restarts, n_of(json_object_get(w, "restarts")));
		CU_ASSERT_EQUAL(e->restarts_lo, n_of(json_array_get(json_object_get(w, "restarts_ci"), 0)));
		CU_ASSERT_EQUAL(e->restarts_hi, n_of(json_array_get(json_object_get(w, "restarts_ci"), 1)));
		CU_ASSERT_EQUAL(e->sbs_restarts, n_of(json_object_get(w, "side_by_side_restarts")));
		same(e->wall_s, real_of(json_object_get(w, "wall_s")), 1e-9);
		same(e->wall_lo_s, real_of(json_array_get(json_object_get(w, "wall_ci_s"), 0)), 1e-9);
		same(e->wall_hi_s, real_of(json_array_get(json_object_get(w, "wall_ci_s"), 1)), 1e-9);
	}
	/* the bisection stops within 0.1 % of the ratio */
	same(log1p(c.detect_now), log1p(real_of(json_object_get(want, "detect_now"))), 1.5e-2);
	CU_ASSERT_EQUAL(c.work_queries, n_of(json_object_get(want, "work_queries")));
	CU_ASSERT_EQUAL(c.work_steady, n_of(json_object_get(want, "work_steady")));
	json_decref(want);
	res_file_free(res);
}

/* st_cost_restarts prices a noise without a file: at the fixture's noise and the ends of its CI,
 * for its 5 queries, the restarts SciPy found (cost_expected.json; null: more than 100). */
TH_TEST(st_cost, restarts_of_a_noise_match_scipy)
{
	json_t *want = json_load_file(DATA "cost_expected.json", 0, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(want);
	json_t *nz = json_object_get(want, "noise"), *ci = json_object_get(nz, "ci");
	size_t m = n_of(json_object_get(want, "queries"));
	const double sd[3] = {real_of(json_object_get(nz, "sd")), real_of(json_array_get(ci, 0)),
			      real_of(json_array_get(ci, 1))};
	for (size_t i = 0; i < ST_COST_EFFECTS; i++) {
		json_t *w = json_array_get(json_object_get(want, "changes"), i);
		double effect = real_of(json_object_get(w, "effect"));
		json_t *rc = json_object_get(w, "restarts_ci");
		CU_ASSERT_EQUAL(st_cost_restarts(NULL, m, effect, sd[0]),
				n_of(json_object_get(w, "restarts")));
		CU_ASSERT_EQUAL(st_cost_restarts(NULL, m, effect, sd[1]), n_of(json_array_get(rc, 0)));
		CU_ASSERT_EQUAL(st_cost_restarts(NULL, m, effect, sd[2]), n_of(json_array_get(rc, 1)));
	}
	CU_ASSERT_EQUAL(st_cost_restarts(NULL, m, 0.05, NAN), 0);
	json_decref(want);
}

/* The lines say the figures; the JSON has them; the options are compare's defaults. */
TH_TEST(st_cost, lines_json_and_defaults)
{
	struct res_file *res = NULL;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL_FATAL(res_file_read(&res, DATA "cost_fixture.json", &err), 0);
	struct st_cost c;
	CU_ASSERT_EQUAL_FATAL(st_cost_compute(&c, res, NULL, &err), 0);
	struct rpt_compare_opts co;
	rpt_compare_opts_init(&co);
	CU_ASSERT_DOUBLE_EQUAL(c.opts.alpha, co.alpha, 0);
	CU_ASSERT_DOUBLE_EQUAL(c.opts.min_effect, co.min_effect, 0);
	CU_ASSERT_EQUAL(c.opts.corr, co.correction);
	CU_ASSERT_EQUAL(c.opts.method, co.method);
	CU_ASSERT_EQUAL(c.opts.alt, co.alt);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(st_cost_write(f, &c, 0), 0);
	fclose(f);
	fprintf(stderr, "%s", text);
	char want[128];
	snprintf(want, sizeof(want), "a 5%% change: %zu restarts a side", c.eff[0].restarts);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
	snprintf(want, sizeof(want), "a 10%% change: %zu restarts a side", c.eff[1].restarts);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "decided now: 4 restarts a side"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "work counters the same in every restart for 1 of 2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "run --side-by-side"));
	free(text);
	json_t *j = st_cost_json(&c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	json_t *c0 = json_array_get(json_object_get(j, "changes"), 0);
	CU_ASSERT_EQUAL((size_t)json_integer_value(json_object_get(c0, "restarts")),
			c.eff[0].restarts);
	CU_ASSERT_STRING_EQUAL(
	    json_string_value(json_object_get(json_object_get(j, "test"), "correction")), "holm");
	json_decref(j);
	res_file_free(res);
}

/* One restart: no noise, and the lines say so rather than a number. */
TH_TEST(st_cost, one_restart_is_unknown)
{
	struct res_file *res = NULL;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL_FATAL(res_file_read(&res, DATA "cost_fixture.json", &err), 0);
	for (size_t i = 0; i < res->n_queries; i++)
		while (res->queries[i].n_restarts > 1)
			res_query_remove_restart(&res->queries[i], res->queries[i].n_restarts - 1);
	struct st_cost c;
	CU_ASSERT_EQUAL_FATAL(st_cost_compute(&c, res, NULL, &err), 0);
	CU_ASSERT_EQUAL(c.noise.n_queries, 0);
	CU_ASSERT_EQUAL(c.eff[0].restarts, 0);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CU_ASSERT_EQUAL(st_cost_write(f, &c, 0), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "unknown"));
	free(text);
	res_file_free(res);
}

TH_MAIN(st_cost)
