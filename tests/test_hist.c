/* SPDX-License-Identifier: MIT */
/* history/hist_detect.c against an independent NumPy/SciPy implementation of the same method
 * (tests/hist_ref.py -> tests/hist_ref.h): Q-hat at every split, change points with their
 * ratio, CI and p, the newest verdict; and the once-only "starts a regression". */
#include "history/hist.h"
#include "tests/harness.h"
#include "tests/hist_ref.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ref_case {
	const char *name;
	const double (*means)[HREF_K];
	size_t n;
	const double *q;
	const size_t *cps;
	size_t n_cps;
	const double *p, *ratio, *lo, *hi;
	const char *verdict;
	double newest_p;
	const double (*levels)[3];
};

/* Case k of the reference, out of the header's columns. */
static struct ref_case ref_case(size_t k)
{
	size_t f = href_first[k], c = href_first_cp[k];
	return (struct ref_case){.name = href_name[k],
				 .means = &href_means[f],
				 .n = href_n[k],
				 .q = &href_q[f],
				 .cps = &href_cps[c],
				 .n_cps = href_ncps[k],
				 .p = &href_cp_p[c],
				 .ratio = &href_cp_ratio[c],
				 .lo = &href_cp_lo[c],
				 .hi = &href_cp_hi[c],
				 .verdict = href_verdict[k],
				 .newest_p = href_newest_p[k],
				 .levels = &href_levels[href_first_level[k]]};
}

static void close_rel(double got, double want, double tol, const char *what, const char *name)
{
	int ok = isnan(want) ? isnan(got) : fabs(got - want) <= tol * fabs(want) + 1e-300;
	if (!ok)
		fprintf(stderr, "%s %s: got %.17g, want %.17g\n", name, what, got, want);
	CU_ASSERT_TRUE(ok);
}

static struct hist_pt *points(const struct ref_case *c, size_t n)
{
	struct hist_pt *p = calloc(n + 1, sizeof(*p));
	for (size_t i = 0; p && i < n; i++)
		p[i] = (struct hist_pt){c->means[i], HREF_K};
	return p;
}

TH_TEST(hist, q_hat_matches_reference)
{
	/* the columns cover every row of the reference's restart means */
	CU_ASSERT_EQUAL(href_first[HREF_NCASES - 1] + href_n[HREF_NCASES - 1],
			sizeof(href_means) / sizeof(href_means[0]));
	for (size_t k = 0; k < HREF_NCASES; k++) {
		const struct ref_case rc = ref_case(k), *c = &rc;
		double x[64];
		for (size_t i = 0; i < c->n; i++) {
			double s = 0;
			for (size_t r = 0; r < HREF_K; r++)
				s += log(c->means[i][r]);
			x[i] = s / HREF_K;
		}
		for (size_t tau = 0; tau < c->n; tau++)
			close_rel(hist_edivisive_q(x, c->n, tau), c->q[tau], 1e-10, "Q-hat", c->name);
	}
}

TH_TEST(hist, change_points_match_reference)
{
	struct hist_detect_opts o;
	hist_detect_opts_init(&o);
	for (size_t k = 0; k < HREF_NCASES; k++) {
		const struct ref_case rc = ref_case(k), *c = &rc;
		struct hist_pt *pts = points(c, c->n);
		struct hist_cp *cps = NULL;
		size_t n = 0;
		struct errbuf err;
		CU_ASSERT_EQUAL_FATAL(hist_detect(&cps, &n, pts, c->n, &o, &err), 0);
		if (n != c->n_cps)
			fprintf(stderr, "%s: %zu change points, want %zu\n", c->name, n, c->n_cps);
		CU_ASSERT_EQUAL(n, c->n_cps);
		for (size_t i = 0; i < n && i < c->n_cps; i++) {
			CU_ASSERT_EQUAL(cps[i].index, c->cps[i]);
			close_rel(cps[i].test.p, c->p[i], 1e-6, "p", c->name);
			close_rel(cps[i].test.ratio, c->ratio[i], 1e-12, "ratio", c->name);
			close_rel(cps[i].test.ci_lo, c->lo[i], 1e-9, "ci_lo", c->name);
			close_rel(cps[i].test.ci_hi, c->hi[i], 1e-9, "ci_hi", c->name);
		}
		free(cps);
		free(pts);
	}
}

TH_TEST(hist, newest_verdict_matches_reference)
{
	struct hist_detect_opts o;
	hist_detect_opts_init(&o);
	for (size_t k = 0; k < HREF_NCASES; k++) {
		const struct ref_case rc = ref_case(k), *c = &rc;
		struct hist_pt *pts = points(c, c->n);
		struct hist_query_check qc;
		struct errbuf err;
		CU_ASSERT_EQUAL_FATAL(hist_check_query(&qc, pts, c->n, 0.05 / 22, &o, &err), 0);
		if (strcmp(hist_verdict_name(qc.verdict), c->verdict))
			fprintf(stderr, "%s: verdict %s, want %s\n", c->name,
				hist_verdict_name(qc.verdict), c->verdict);
		CU_ASSERT_STRING_EQUAL(hist_verdict_name(qc.verdict), c->verdict);
		close_rel(qc.newest.p, c->newest_p, 1e-6, "newest p", c->name);
		hist_query_check_release(&qc);
		free(pts);
	}
}

/* The step on the newest night starts a regression; the same level one night later does not
 * (whatever its verdict against a segment that now holds the step night),
 * and an outlier on the newest night followed by a normal night leaves no change point. */
TH_TEST(hist, regression_starts_once)
{
	/* newest_step: +10% on the last of 25 results */
	const struct ref_case rc = ref_case(HREF_NEWEST_STEP), *c = &rc;
	struct hist_detect_opts o;
	struct errbuf err;
	struct hist_query_check qc;
	double next[HREF_K];
	hist_detect_opts_init(&o);
	CU_ASSERT_STRING_EQUAL_FATAL(c->name, "newest_step");
	struct hist_pt *pts = points(c, c->n + 1);
	CU_ASSERT_EQUAL_FATAL(hist_check_query(&qc, pts, c->n, 0.05 / 22, &o, &err), 0);
	CU_ASSERT_EQUAL(qc.verdict, HIST_REGRESSION);
	CU_ASSERT_TRUE(qc.starts_regression);
	hist_query_check_release(&qc);
	/* one night later at the new level (the restart means of the step night, reversed) */
	for (size_t r = 0; r < HREF_K; r++)
		next[r] = c->means[c->n - 1][HREF_K - 1 - r];
	pts[c->n] = (struct hist_pt){next, HREF_K};
	CU_ASSERT_EQUAL_FATAL(hist_check_query(&qc, pts, c->n + 1, 0.05 / 22, &o, &err), 0);
	CU_ASSERT_FALSE(qc.starts_regression);
	hist_query_check_release(&qc);
	/* one night later back at the old level: the step night was an outlier */
	for (size_t r = 0; r < HREF_K; r++)
		next[r] = c->means[c->n - 2][r];
	CU_ASSERT_EQUAL_FATAL(hist_check_query(&qc, pts, c->n + 1, 0.05 / 22, &o, &err), 0);
	CU_ASSERT_EQUAL(qc.n_cps, 0);
	CU_ASSERT_FALSE(qc.starts_regression);
	hist_query_check_release(&qc);
	free(pts);
}

/* A change point needs min_size results after it: two shifted nights are not enough, three
 * are (a 10% step on 1% noise). */
TH_TEST(hist, change_point_needs_min_size_results)
{
	double m[30][3];
	struct hist_pt pts[30];
	struct hist_detect_opts o;
	struct hist_cp *cps = NULL;
	size_t n = 0;
	struct errbuf err;
	static const double wiggle[3] = {0.99, 1.0, 1.01};
	hist_detect_opts_init(&o);
	for (size_t i = 0; i < 30; i++) {
		for (size_t r = 0; r < 3; r++)
			m[i][r] = (i >= 27 ? 110.0 : 100.0) * wiggle[(i + r) % 3];
		pts[i] = (struct hist_pt){m[i], 3};
	}
	CU_ASSERT_EQUAL(hist_detect(&cps, &n, pts, 29, &o, &err), 0);
	CU_ASSERT_EQUAL(n, 0);
	free(cps);
	CU_ASSERT_EQUAL(hist_detect(&cps, &n, pts, 30, &o, &err), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(cps[0].index, 27);
	CU_ASSERT_DOUBLE_EQUAL(cps[0].test.ratio, 1.1, 1e-12);
	free(cps);
}

/* The published examples of Hunter (Otava's predecessor, datastax-labs/hunter
 * tests/analysis_test.py): a series of 20 single values with one step at index 10, found with
 * max p 0.0001; and the t-test at split 5 of two 10-value series: identical halves (p = 1) and a
 * 20% drop (p < 0.001). Here each value is one restart mean of a result. */
TH_TEST(hist, hunter_published_examples)
{
	static const double series[20] = {1.02, 0.95, 0.99, 1.00, 1.12, 1.00, 1.01, 0.98, 1.01, 0.96,
					  0.50, 0.51, 0.48, 0.48, 0.55, 0.50, 0.49, 0.51, 0.50, 0.49};
	static const double same[10] = {1.00, 1.02, 1.05, 0.95, 0.98, 1.00, 1.02, 1.05, 0.95, 0.98};
	static const double drop[10] = {1.00, 1.02, 1.05, 0.95, 0.98, 0.80, 0.82, 0.85, 0.79, 0.77};
	struct hist_pt pts[20];
	struct hist_detect_opts o;
	struct hist_cp *cps = NULL;
	size_t n = 0;
	struct errbuf err;
	struct st_test t;
	struct st_compare_opts co;
	hist_detect_opts_init(&o);
	o.max_p = 0.0001;
	for (size_t i = 0; i < 20; i++)
		pts[i] = (struct hist_pt){&series[i], 1};
	CU_ASSERT_EQUAL_FATAL(hist_detect(&cps, &n, pts, 20, &o, &err), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(cps[0].index, 10);
	free(cps);
	st_compare_opts_init(&co);
	CU_ASSERT_EQUAL(st_compare_means(&t, same, 5, same + 5, 5, &co, &err), 0);
	CU_ASSERT_TRUE(t.p > 0.99 && t.p <= 1);
	for (size_t i = 0; i < 10; i++)
		pts[i] = (struct hist_pt){&same[i], 1};
	CU_ASSERT_EQUAL(hist_detect(&cps, &n, pts, 10, &o, &err), 0);
	CU_ASSERT_EQUAL(n, 0);
	free(cps);
	CU_ASSERT_EQUAL(st_compare_means(&t, drop, 5, drop + 5, 5, &co, &err), 0);
	CU_ASSERT_TRUE(t.p > 0 && t.p < 0.001);
	for (size_t i = 0; i < 10; i++)
		pts[i] = (struct hist_pt){&drop[i], 1};
	o.max_p = 0.001;
	CU_ASSERT_EQUAL_FATAL(hist_detect(&cps, &n, pts, 10, &o, &err), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(cps[0].index, 5);
	CU_ASSERT_TRUE(cps[0].test.p < 0.001);
	free(cps);
}

/* The stable segments between the reference change points: geometric mean and t interval. */
TH_TEST(hist, levels_match_reference)
{
	for (size_t k = 0; k < HREF_NCASES; k++) {
		const struct ref_case rc = ref_case(k), *c = &rc;
		struct hist_pt *pts = points(c, c->n);
		struct hist_cp cps[8];
		struct hist_level lv[9];
		CU_ASSERT_FATAL(c->n_cps < 8);
		for (size_t i = 0; i < c->n_cps; i++)
			cps[i] = (struct hist_cp){.index = c->cps[i]};
		CU_ASSERT_EQUAL_FATAL(hist_levels(lv, pts, c->n, cps, c->n_cps, 0.05), 0);
		for (size_t i = 0; i <= c->n_cps; i++) {
			CU_ASSERT_EQUAL(lv[i].from, i ? c->cps[i - 1] : 0);
			CU_ASSERT_EQUAL(lv[i].to, i < c->n_cps ? c->cps[i] : c->n);
			close_rel(lv[i].gmean, c->levels[i][0], 1e-12, "level", c->name);
			close_rel(lv[i].lo, c->levels[i][1], 1e-9, "level ci_lo", c->name);
			close_rel(lv[i].hi, c->levels[i][2], 1e-9, "level ci_hi", c->name);
		}
		free(pts);
	}
}

TH_MAIN(hist)
