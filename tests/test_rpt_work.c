/* SPDX-License-Identifier: MIT */
/* compare and summary on work counters (reports/rpt_work.c): the verdicts on the fixture
 * tests/data/work_old.json / work_new.json against tests/data/work_expected.json, which
 * tests/data/gen_work.py derives with its own code from the rule's text; and the Monte Carlo
 * table of docs/work.md ("The work verdict") for counters that vary within a file. */
#include "tests/th_mc.h"
#include "tests/th_rpt.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *load_expected(void)
{
	char path[4096];
	json_error_t jerr;
	snprintf(path, sizeof(path), "%s/tests/data/work_expected.json", DBT3_SOURCE_DIR);
	json_t *e = json_load_file(path, 0, &jerr);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	return e;
}

static struct rpt_compare *build(struct res_file *a, struct res_file *b)
{
	struct rpt_compare_opts o;
	struct rpt_compare *c = NULL;
	struct errbuf err = {""};
	struct rpt_file_info fa = {"work_old.json", a}, fb = {"work_new.json", b};
	rpt_compare_opts_init(&o);
	CU_ASSERT_EQUAL_FATAL(rpt_compare_build(&c, &fa, &fb, NULL, &o, &err), 0);
	return c;
}

TH_TEST(rpt_work, verdicts_match_the_reference)
{
	struct res_file *a = th_rpt_load("work_old.json"), *b = th_rpt_load("work_new.json");
	struct rpt_compare *c = build(a, b);
	json_t *exp = load_expected();
	const char *id;
	json_t *e;
	size_t changed = 0;
	json_object_foreach(exp, id, e)
	{
		const struct rpt_query *q = th_rpt_query(c, id);
		int want = json_is_true(json_object_get(e, "changed"));
		CU_ASSERT_TRUE(q->work.compared);
		CU_ASSERT_EQUAL(q->work.changed, want);
		changed += (size_t)want;
		/* the changed counters, by name */
		json_t *names = json_object_get(e, "changed_counters");
		size_t n_changed = 0;
		for (size_t i = 0; i < q->work.n; i++) {
			int listed = 0;
			for (size_t k = 0; k < json_array_size(names); k++)
				listed |= strcmp(json_string_value(json_array_get(names, k)),
						 q->work.c[i].name) == 0;
			CU_ASSERT_EQUAL(q->work.c[i].changed, listed);
			n_changed += (size_t)q->work.c[i].changed;
		}
		CU_ASSERT_EQUAL(n_changed, json_array_size(names));
		if (want) {
			char line[1024];
			rpt_work_query_line(line, sizeof(line), q);
			if (strcmp(line, json_string_value(json_object_get(e, "line"))))
				fprintf(stderr, "\n got  %s\n want %s\n", line,
					json_string_value(json_object_get(e, "line")));
			CU_ASSERT_STRING_EQUAL(line, json_string_value(json_object_get(e, "line")));
		}
	}
	CU_ASSERT_EQUAL(c->n_work_changed, changed);
	CU_ASSERT_EQUAL(c->n_work_compared, json_object_size(exp));
	/* Q1 is slower with the same work: the report says so */
	const struct rpt_query *q1 = th_rpt_query(c, "Q1");
	char line[1024];
	CU_ASSERT_EQUAL(q1->verdict, RPT_REGRESSION);
	rpt_work_query_line(line, sizeof(line), q1);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "Q1 slower, work unchanged"));
	json_decref(exp);
	rpt_compare_free(c);
	res_file_free(a);
	res_file_free(b);
}

/* The same file on both sides: nothing changed (the A/A of the rule on real shapes). */
TH_TEST(rpt_work, same_file_nothing_changed)
{
	struct res_file *a = th_rpt_load("work_new.json"), *b = th_rpt_load("work_new.json");
	struct rpt_compare *c = build(a, b);
	CU_ASSERT_EQUAL(c->n_work_changed, 0);
	CU_ASSERT(c->n_work_compared > 0);
	rpt_compare_free(c);
	res_file_free(a);
	res_file_free(b);
}

/* summary: Q3 varies (jittered counts), Q1 is constant with its largest counts first. */
TH_TEST(rpt_work, summary_constant_or_varying)
{
	struct res_file *a = th_rpt_load("work_old.json");
	struct rpt_summary_opts o;
	struct rpt_summary *s = NULL;
	struct errbuf err = {""};
	struct rpt_file_info fa = {"work_old.json", a};
	rpt_summary_opts_init(&o);
	CU_ASSERT_EQUAL_FATAL(rpt_summary_build(&s, &fa, &o, &err), 0);
	for (size_t i = 0; i < s->n_queries; i++) {
		const struct rpt_summary_query *q = &s->queries[i];
		int varies = strcmp(q->id, "Q3") == 0 || strcmp(q->id, "Q4") == 0 ||
			     strcmp(q->id, "Q5") == 0;
		CU_ASSERT_EQUAL(q->work.varies, varies);
		CU_ASSERT(q->work.n > 0);
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	rpt_work_summary_write(f, s, "  ", 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(buf, "  Q1 constant over 3 restarts: Rows_read 600.6 k, Handler_read_key 591.9 k\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "4 of 7 queries constant across restarts"));
	free(buf);
	rpt_summary_free(s);
	res_file_free(a);
}

/* ---- Monte Carlo: counters that vary within a file ---- */

static uint64_t mc_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double mc_normal(uint64_t *s)
{
	double u1 = ((double)(mc_next(s) >> 11) + 0.5) / 9007199254740992.0;
	double u2 = ((double)(mc_next(s) >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* One side of n restarts whose means are base (1 + sd z): not constant. */
static void mc_side(struct rpt_work_side *out, uint64_t *s, size_t n, double base, double sd)
{
	double m[16];
	for (size_t i = 0; i < n; i++)
		m[i] = base * (1 + sd * mc_normal(s));
	qsort(m, n, sizeof(*m), cmp_d);
	out->restarts = n;
	out->constant = 0;
	out->lo = m[0];
	out->hi = m[n - 1];
	out->value = n % 2 ? m[n / 2] : (m[n / 2 - 1] + m[n / 2]) / 2;
}

/* The share of replicates the rule calls changed, new = old x (1 + shift). */
static double mc_rate(uint64_t *seed, size_t n, double sd, double shift, size_t reps)
{
	size_t k = 0;
	for (size_t r = 0; r < reps; r++) {
		struct rpt_work_side a, b;
		mc_side(&a, seed, n, 1e6, sd);
		mc_side(&b, seed, n, 1e6 * (1 + shift), sd);
		k += (size_t)rpt_work_counter_changed(&a, &b);
	}
	return th_mc_share(k, reps);
}

/* n = 1: changed iff |m_b - m_a| > 1% m_a, nearly P(|Z| > 0.01 / (sd sqrt 2)); for a wide
 * spread the medians of disjoint samples are far apart, so the rate tends to the chance that
 * 2n exchangeable values fall apart, 2 / C(2n, n). */
TH_TEST(rpt_work, monte_carlo_false_alarms)
{
	static const size_t ns[] = {1, 2, 3, 5};
	static const double sds[] = {0.001, 0.003, 0.01, 0.1};
	size_t reps = (size_t)(20000 * th_mc_scale());
	uint64_t seed = 29;
	printf("\n  sd \\ restarts a side: A/A false alarm, power for +5%%\n");
	for (size_t j = 0; j < sizeof(sds) / sizeof(sds[0]); j++) {
		printf("  %5.1f%%", 100 * sds[j]);
		for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
			double fa = mc_rate(&seed, ns[i], sds[j], 0, reps);
			double pw = mc_rate(&seed, ns[i], sds[j], 0.05, reps);
			printf("  n=%zu %.4f %.3f", ns[i], fa, pw);
			double want = -1;
			if (ns[i] == 1)
				want = erfc(0.01 / (sds[j] * sqrt(2)) / sqrt(2));
			else if (sds[j] >= 0.1)
				want = ns[i] == 2 ? 2.0 / 6 : ns[i] == 3 ? 2.0 / 20 : 2.0 / 252;
			if (want >= 0) {
				/* the 1% tolerance removes a little of the disjoint share at 10% */
				double slack = 4 * th_mc_se(want, reps) + (sds[j] >= 0.1 ? 0.01 : 0);
				CU_ASSERT(fabs(fa - want) <= slack);
			}
			if (sds[j] <= 0.003 && ns[i] >= 2)
				CU_ASSERT(fa <= 0.005); /* next to none */
			if (sds[j] <= 0.003)
				CU_ASSERT(pw >= 0.99); /* a 5% change is seen from one restart */
		}
		printf("\n");
	}
}

TH_MAIN(rpt_work)
