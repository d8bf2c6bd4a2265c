/* SPDX-License-Identifier: MIT */
/* Change points in a series of results, each a set of restart means (docs/history.md).
 * Candidates: E-Divisive means (Matteson and James 2014, JASA 109:334-345), hierarchical
 * binary segmentation of the per-result log geometric means. Significance: as Apache Otava
 * (formerly Hunter; Fleming et al. 2023, ICPE) and MongoDB's signal-processing-algorithms
 * (Daly et al. 2020, ICPE), a two-sample t-test of the segments around the candidate instead of
 * a permutation test, here Welch's t on the log restart means, so each result's spread counts. */
#include "history/hist.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void hist_detect_opts_init(struct hist_detect_opts *o)
{
	o->max_p = 0.001;
	o->min_effect = 0.02;
	o->min_size = 3;
	o->alpha = 0.05;
}

const char *hist_verdict_name(enum hist_verdict v)
{
	static const char *const names[] = {[HIST_UNCHANGED] = "unchanged",
					    [HIST_IMPROVEMENT] = "improvement",
					    [HIST_REGRESSION] = "regression"};
	return UTIL_ENUM_NAME(names, v, "inconclusive");
}

/* Q-hat(tau) = m n / (m + n) * E-hat, with (alpha = 1)
 *   E-hat = 2/(m n) sum_ij |x_i - y_j| - C(n,2)^-1 sum_i<k |x_i - x_k| - C(m,2)^-1 sum_j<k |y_j - y_k|
 * for x = x[0..tau), n = tau, y = x[tau..N), m = N - tau (Matteson and James 2014, eq. 3-5). */
double hist_edivisive_q(const double *x, size_t n_all, size_t tau)
{
	size_t n = tau, m = n_all - tau;
	if (tau < 2 || tau + 2 > n_all)
		return NAN;
	double between = 0, within_x = 0, within_y = 0;
	for (size_t i = 0; i < tau; i++)
		for (size_t j = tau; j < n_all; j++)
			between += fabs(x[i] - x[j]);
	for (size_t i = 0; i < tau; i++)
		for (size_t k = i + 1; k < tau; k++)
			within_x += fabs(x[i] - x[k]);
	for (size_t j = tau; j < n_all; j++)
		for (size_t k = j + 1; k < n_all; k++)
			within_y += fabs(x[j] - x[k]);
	double e = 2 * between / ((double)n * (double)m) - within_x / (n * (n - 1) / 2.0) -
		   within_y / (m * (m - 1) / 2.0);
	return (double)n * (double)m / (double)(n + m) * e;
}

/* Sums of |x_p - x_q| over rectangles in O(1): P[i][j] = sum over p < i, q < j. */
struct dist_sums {
	double *p;
	size_t n;
};

static int dist_sums_init(struct dist_sums *d, const double *x, size_t n)
{
	size_t w = n + 1;
	d->n = n;
	d->p = calloc(w * w, sizeof(*d->p));
	if (!d->p)
		return -1;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= n; j++)
			d->p[i * w + j] = fabs(x[i - 1] - x[j - 1]) + d->p[(i - 1) * w + j] +
					  d->p[i * w + j - 1] - d->p[(i - 1) * w + j - 1];
	return 0;
}

static double rect(const struct dist_sums *d, size_t a, size_t b, size_t c, size_t e)
{
	size_t w = d->n + 1;
	return d->p[b * w + e] - d->p[a * w + e] - d->p[b * w + c] + d->p[a * w + c];
}

/* Q-hat of splitting [a, b) at tau, from the sums (same formula as hist_edivisive_q). */
static double q_fast(const struct dist_sums *d, size_t a, size_t tau, size_t b)
{
	double n = (double)(tau - a), m = (double)(b - tau);
	double between = rect(d, a, tau, tau, b);
	double wx = rect(d, a, tau, a, tau) / 2, wy = rect(d, tau, b, tau, b) / 2;
	double e = 2 * between / (n * m) - wx / (n * (n - 1) / 2) - wy / (m * (m - 1) / 2);
	return n * m / (n + m) * e;
}

/* Welch's t of the restart means of pts[tau..b) against pts[a..tau). */
static int test_split(struct st_test *out, const struct hist_pt *pts, size_t a, size_t tau,
		      size_t b, double alpha)
{
	size_t na = 0, nb = 0;
	for (size_t i = a; i < b; i++)
		*(i < tau ? &na : &nb) += pts[i].n;
	double *buf = malloc((na + nb + 1) * sizeof(*buf));
	if (!buf)
		return -1;
	size_t ia = 0, ib = na;
	for (size_t i = a; i < b; i++)
		for (size_t k = 0; k < pts[i].n; k++)
			buf[i < tau ? ia++ : ib++] = pts[i].means[k];
	struct st_compare_opts co;
	st_compare_opts_init(&co);
	co.method = ST_METHOD_WELCH;
	co.alpha = alpha;
	struct errbuf err;
	int rc = st_compare_means(out, buf, na, buf + na, nb, &co, &err);
	free(buf);
	return rc;
}

struct seg_ctx {
	const struct hist_pt *pts;
	const struct hist_detect_opts *o;
	const double *x; /* per-result mean of the log restart means */
	struct dist_sums d;
	struct hist_cp *cps;
	size_t n_cps, cap;
};

/* Mean of the log restart means of pts[a..b), restart-weighted (the test's segment means). */
static double seg_mean(const struct seg_ctx *c, size_t a, size_t b)
{
	double s = 0;
	size_t n = 0;
	for (size_t i = a; i < b; i++) {
		s += c->x[i] * (double)c->pts[i].n;
		n += c->pts[i].n;
	}
	return s / (double)n;
}

/* A change point at tau between segments [a, tau) and [tau, b) is significant (Welch p below
 * max_p, shift of min_effect or more) and sits on the edge: result tau lies on the side of the
 * midpoint of the two segment means towards the segment after, result tau - 1 towards the one
 * before. The edge rule keeps a split from being reported one result early while the segment
 * after is still at its minimum size (and includes a result from before the change). */
static int significant(const struct seg_ctx *c, const struct st_test *t, size_t a, size_t tau,
		       size_t b)
{
	if (t->kind == ST_TEST_NONE || !(t->p < c->o->max_p) ||
	    fabs(t->diff) < log1p(c->o->min_effect))
		return 0;
	double ml = seg_mean(c, a, tau), mr = seg_mean(c, tau, b), mid = (ml + mr) / 2;
	double dir = mr > ml ? 1 : -1;
	return (c->x[tau] - mid) * dir > 0 && (c->x[tau - 1] - mid) * dir < 0;
}

/* Splits [a, b) at its largest Q-hat when the split is significant, then each side. */
static int segment(struct seg_ctx *c, size_t a, size_t b, int depth)
{
	size_t ms = c->o->min_size < 2 ? 2 : c->o->min_size, best = 0;
	double best_q = -INFINITY;
	if (b - a < 2 * ms || depth > 64)
		return 0;
	for (size_t tau = a + ms; tau + ms <= b; tau++) {
		double q = q_fast(&c->d, a, tau, b);
		if (q > best_q) {
			best_q = q;
			best = tau;
		}
	}
	struct st_test t;
	if (!best || test_split(&t, c->pts, a, best, b, c->o->alpha) < 0 ||
	    !significant(c, &t, a, best, b))
		return 0;
	if (c->n_cps == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 8;
		struct hist_cp *p = realloc(c->cps, cap * sizeof(*p));
		if (!p)
			return -1;
		c->cps = p;
		c->cap = cap;
	}
	c->cps[c->n_cps++] = (struct hist_cp){.index = best, .q = best_q, .test = t};
	if (segment(c, a, best, depth + 1) < 0)
		return -1;
	return segment(c, best, b, depth + 1);
}

static int cp_cmp(const void *x, const void *y)
{
	size_t a = ((const struct hist_cp *)x)->index, b = ((const struct hist_cp *)y)->index;
	return a < b ? -1 : a > b;
}

/* Each change point is tested again against its neighbours' segments (as Otava does after the
 * split); the least significant one that fails is dropped and the rest retested, until all pass.
 */
static int refine(struct seg_ctx *c, size_t n)
{
	if (c->n_cps == 0)
		return 0;
	qsort(c->cps, c->n_cps, sizeof(*c->cps), cp_cmp);
	for (;;) {
		size_t worst = SIZE_MAX;
		double worst_p = 0;
		for (size_t i = 0; i < c->n_cps; i++) {
			size_t a = i ? c->cps[i - 1].index : 0;
			size_t b = i + 1 < c->n_cps ? c->cps[i + 1].index : n;
			struct hist_cp *cp = &c->cps[i];
			if (test_split(&cp->test, c->pts, a, cp->index, b, c->o->alpha) < 0)
				return -1;
			if (significant(c, &cp->test, a, cp->index, b))
				continue;
			double p = isnan(cp->test.p) ? INFINITY : cp->test.p;
			if (worst == SIZE_MAX || p > worst_p) {
				worst_p = p;
				worst = i;
			}
		}
		if (worst == SIZE_MAX)
			return 0;
		memmove(&c->cps[worst], &c->cps[worst + 1],
			(c->n_cps - worst - 1) * sizeof(*c->cps));
		c->n_cps--;
	}
}

int hist_detect(struct hist_cp **out, size_t *n_out, const struct hist_pt *pts, size_t n,
		const struct hist_detect_opts *o, struct errbuf *err)
{
	struct seg_ctx c = {.pts = pts, .o = o};
	double *x = malloc((n + 1) * sizeof(*x));
	*out = NULL;
	*n_out = 0;
	if (!x)
		return errbuf_set(err, "out of memory");
	for (size_t i = 0; i < n; i++) {
		double s = 0;
		for (size_t k = 0; k < pts[i].n; k++)
			s += log(pts[i].means[k]);
		x[i] = pts[i].n ? s / (double)pts[i].n : NAN;
		if (!isfinite(x[i])) {
			free(x);
			return errbuf_set(err, "result %zu of the series has no positive restart mean",
					  i + 1);
		}
	}
	c.x = x;
	int rc = dist_sums_init(&c.d, x, n);
	if (rc < 0 || segment(&c, 0, n, 0) < 0 || refine(&c, n) < 0) {
		free(x);
		free(c.d.p);
		free(c.cps);
		return errbuf_set(err, "out of memory");
	}
	free(x);
	free(c.d.p);
	*out = c.cps;
	*n_out = c.n_cps;
	return 0;
}

int hist_levels(struct hist_level *out, const struct hist_pt *pts, size_t n,
		const struct hist_cp *cps, size_t n_cps, double alpha)
{
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += pts[i].n;
	double *buf = malloc((total + 1) * sizeof(*buf));
	if (!buf)
		return -1;
	for (size_t k = 0; k <= n_cps; k++) {
		struct hist_level *l = &out[k];
		size_t m = 0;
		l->from = k ? cps[k - 1].index : 0;
		l->to = k < n_cps ? cps[k].index : n;
		for (size_t i = l->from; i < l->to; i++)
			for (size_t r = 0; r < pts[i].n; r++)
				buf[m++] = pts[i].means[r];
		st_gmean_ci(&l->gmean, &l->lo, &l->hi, buf, m, alpha);
	}
	free(buf);
	return 0;
}

enum hist_verdict hist_newest_verdict(struct st_test *out_test, const struct hist_pt *pts, size_t n,
				      const struct hist_cp *cps, size_t n_cps, double alpha,
				      const struct hist_detect_opts *o)
{
	struct st_test t = {.kind = ST_TEST_NONE, .p = NAN, .ci_lo = NAN, .ci_hi = NAN};
	size_t from = n_cps ? cps[n_cps - 1].index : 0;
	enum hist_verdict v = HIST_INCONCLUSIVE;
	if (n >= 2 && from < n - 1 && test_split(&t, pts, from, n - 1, n, o->alpha) == 0) {
		enum st_verdict sv = st_verdict_of(&t, t.p, alpha, o->min_effect, ST_TWO_SIDED);
		v = sv == ST_VERDICT_REGRESSION	   ? HIST_REGRESSION
		    : sv == ST_VERDICT_IMPROVEMENT ? HIST_IMPROVEMENT
		    : st_ci_rules_out(&t, o->min_effect) ? HIST_UNCHANGED
							 : HIST_INCONCLUSIVE;
	}
	if (out_test)
		*out_test = t;
	return v;
}

int hist_check_query(struct hist_query_check *out, const struct hist_pt *pts, size_t n,
		     double alpha, const struct hist_detect_opts *o, struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	if (hist_detect(&out->cps, &out->n_cps, pts, n, o, err) < 0)
		return -1;
	out->verdict = hist_newest_verdict(&out->newest, pts, n, out->cps, out->n_cps, alpha, o);
	if (out->verdict != HIST_REGRESSION)
		return 0;
	/* not when one of the min_size - 1 results before it, each judged on the series as it was
	 * then, was already a regression: a shift needs that many results to become a change
	 * point, and until then it is the same regression */
	out->starts_regression = 1;
	size_t back = o->min_size > 1 ? o->min_size - 1 : 1;
	for (size_t j = 1; j <= back && j < n && out->starts_regression; j++) {
		struct hist_cp *prev = NULL;
		size_t n_prev = 0;
		if (hist_detect(&prev, &n_prev, pts, n - j, o, err) < 0)
			return -1;
		if (hist_newest_verdict(NULL, pts, n - j, prev, n_prev, alpha, o) == HIST_REGRESSION)
			out->starts_regression = 0;
		free(prev);
	}
	return 0;
}

void hist_query_check_release(struct hist_query_check *c)
{
	if (!c)
		return;
	free(c->cps);
	c->cps = NULL;
	c->n_cps = 0;
}
