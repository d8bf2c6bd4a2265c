/* SPDX-License-Identifier: MIT */
/* Group-sequential t-test with Lan-DeMets alpha spending and repeated confidence intervals. */
#include "stats/st_seq.h"
#include "stats/st_int.h"
#include "stats/st_seq_tbounds.h"
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SEQ_STEP 0.05  /* grid spacing of the score S (one pair adds a unit-variance step) */
#define SEQ_TAIL 8.5   /* an unbounded side of the continuation region is cut at 8.5 sd */
#define SEQ_ZMAX 40.0  /* bisection interval of a boundary, normal scores */

void st_seq_opts_init(struct st_seq_opts *out)
{
	memset(out, 0, sizeof(*out));
	out->alpha = 0.05;
	out->m = 22;
	out->max_pairs = 10;
	out->first_look = 2;
	out->min_effect = 0.02;
	out->alt = ST_TWO_SIDED;
	out->spending = ST_SPEND_OBF;
	out->pairing = ST_SEQ_PAIRED;
}

/* Spending functions of Lan & DeMets (1983), Biometrika 70:659-663, for a test of total level
 * alpha at information fraction t:
 *   O'Brien-Fleming type  a(t) = 2 - 2 Phi(z_{1-alpha/2} / sqrt(t))
 *   Pocock type           a(t) = alpha log(1 + (e - 1) t)
 * (also Jennison & Turnbull 2000, "Group Sequential Methods with Applications to Clinical
 * Trials", ch. 7, and gsDesign's sfLDOF / sfLDPocock). */
double st_seq_spend(enum st_seq_spending s, double alpha, double t)
{
	if (!(t > 0))
		return 0;
	if (t >= 1)
		return alpha;
	if (s == ST_SPEND_POCOCK)
		return alpha * log(1 + (M_E - 1) * t);
	return 2 * gsl_cdf_ugaussian_Q(gsl_cdf_ugaussian_Qinv(alpha / 2) / sqrt(t));
}

/* The sub-density of the score S_k = sum of k unit-variance pair steps on the continuation
 * region (no boundary crossed so far), on a Simpson grid. */
struct seq_grid {
	size_t n;
	double *x, *w; /* points and Simpson weight x density */
};

static int grid_alloc(struct seq_grid *g, size_t n)
{
	g->n = n;
	g->x = malloc(n * sizeof(double));
	g->w = malloc(n * sizeof(double));
	return g->x && g->w ? 0 : -1;
}

static void grid_release(struct seq_grid *g)
{
	free(g->x);
	free(g->w);
	g->x = g->w = NULL;
}

/* Odd number of points over [lo, hi] at spacing <= SEQ_STEP (Simpson's rule). */
static size_t grid_points(double lo, double hi)
{
	size_t n = (size_t)ceil((hi - lo) / SEQ_STEP) + 1;
	if (n < 101)
		n = 101;
	return n | 1;
}

static double simpson_coef(size_t i, size_t n)
{
	return i == 0 || i == n - 1 ? 1 : i % 2 ? 4 : 2;
}

/* P(S_k crosses the upper boundary h at this look, none crossed before): Q(h - u) integrated
 * over the previous sub-density (Armitage, McPherson & Rowe 1969, JRSS A 132:235-244; Jennison
 * & Turnbull 2000, ch. 19). The designs are symmetric: the lower side is the mirror. */
static double cross_prob(const struct seq_grid *g, double h)
{
	double p = 0;
	for (size_t j = 0; j < g->n; j++)
		p += g->w[j] * gsl_cdf_ugaussian_Q(h - g->x[j]);
	return p;
}

/* The boundary h (score scale) at look k whose crossing probability is delta. */
static double solve_bound(const struct seq_grid *g, double delta, double sqrt_info)
{
	double lo = 0, hi = SEQ_ZMAX;
	for (int it = 0; it < 80; it++) {
		double mid = (lo + hi) / 2;
		if (cross_prob(g, mid * sqrt_info) > delta)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2 * sqrt_info;
}

/* The continuation region of look k: (-h, h) (the boundaries are symmetric); an infinite
 * boundary (no alpha spent) is cut at SEQ_TAIL sd. */
static void region(double *lo, double *hi, double h, double sqrt_info)
{
	double tail = SEQ_TAIL * sqrt_info;
	*hi = isfinite(h) && h < tail ? h : tail;
	*lo = -*hi;
}

/* Next sub-density: f_k(s) = int f_{k-1}(u) phi(s - u) du over the continuation region. */
static int grid_step(struct seq_grid *out, const struct seq_grid *prev, double lo, double hi)
{
	size_t n = grid_points(lo, hi);
	if (grid_alloc(out, n) < 0)
		return -1;
	double step = (hi - lo) / (double)(n - 1);
	for (size_t i = 0; i < n; i++) {
		double s = lo + step * (double)i, f = 0;
		for (size_t j = 0; j < prev->n; j++) {
			double d = s - prev->x[j];
			if (d > -SEQ_TAIL && d < SEQ_TAIL)
				f += prev->w[j] * exp(-0.5 * d * d);
		}
		out->x[i] = s;
		out->w[i] = f / sqrt(2 * M_PI) * step / 3 * simpson_coef(i, n);
	}
	return 0;
}

/* First look at information I = first_look: S ~ N(0, I), boundary in closed form. */
static int grid_first(struct seq_grid *out, double lo, double hi, double sqrt_info)
{
	size_t n = grid_points(lo, hi);
	if (grid_alloc(out, n) < 0)
		return -1;
	double step = (hi - lo) / (double)(n - 1);
	for (size_t i = 0; i < n; i++) {
		double s = lo + step * (double)i, z = s / sqrt_info;
		out->x[i] = s;
		out->w[i] = exp(-0.5 * z * z) / (sqrt(2 * M_PI) * sqrt_info) * step / 3 *
			    simpson_coef(i, n);
	}
	return 0;
}

static int opts_check(const struct st_seq_opts *o, struct errbuf *err)
{
	if (!(o->alpha > 0 && o->alpha < 1))
		return errbuf_set(err, "sequential alpha %g is not in (0, 1)", o->alpha), ST_EINVAL;
	if (o->m == 0 || o->first_look == 0)
		return errbuf_set(err, "sequential design needs m >= 1 and first_look >= 1"),
		       ST_EINVAL;
	if (o->max_pairs < o->first_look || o->max_pairs > ST_SEQ_MAX_PAIRS)
		return errbuf_set(err, "maximum pairs %zu is not in [%zu, %d]", o->max_pairs,
				  o->first_look, ST_SEQ_MAX_PAIRS),
		       ST_EINVAL;
	if (!(o->min_effect >= 0) || !isfinite(o->min_effect))
		return errbuf_set(err, "min-effect %g is negative", o->min_effect), ST_EINVAL;
	if (o->prior_df > ST_SEQ_T_MAX_PRIOR_DF)
		return errbuf_set(err, "prior degrees of freedom %zu is above %d", o->prior_df,
				  ST_SEQ_T_MAX_PRIOR_DF),
		       ST_EINVAL;
	return 0;
}

/* The critical t of each look from the alpha the design spends there (per side: half of
 * spent's increment), computed for the t statistics themselves (st_seq_t_bounds) rather than
 * converted from z_k by nominal level: that conversion (the significance-level approach)
 * spends more than alpha at this tail level and these df (docs/statistics.md). */
static int design_t(struct st_seq_design *d, struct errbuf *err)
{
	double delta[ST_SEQ_MAX_PAIRS + 1], prev = 0;
	size_t f = d->opts.first_look, K = d->looks;
	for (size_t k = 0; k <= ST_SEQ_MAX_PAIRS; k++)
		d->t[k] = INFINITY;
	if (f < 2 && d->opts.prior_df == 0) /* no variance at pair 1: no t boundary there */
		f = 2;
	if (K < f)
		return 0;
	for (size_t k = f; k <= K; k++) {
		delta[k] = (d->spent[k] - prev) / 2;
		prev = d->spent[k];
	}
	enum st_seq_t_kind kind =
	    d->opts.pairing == ST_SEQ_PAIRED ? ST_SEQ_T_ONE_SAMPLE : ST_SEQ_T_POOLED;
	return st_seq_t_bounds_prior(d->t, delta, f, K, kind, (double)d->opts.prior_df, err) < 0
		   ? ST_EINVAL
		   : 0;
}

/* Lan-DeMets spending with a horizon re-estimated at every look. The spending-function approach
 * (Lan & DeMets 1983, Biometrika 70:659-663; DeMets & Lan 1994, Stat Med 13:1341-1352) needs
 * neither the number nor the timing of the looks in advance: look k spends a(t_k) - (alpha already
 * spent) at its information fraction t_k, and the type I error stays a(1) = alpha as long as the
 * timing does not depend on the observed effects (Jennison & Turnbull 2000, ch. 7). Here one pair
 * is one unit of information and the maximum information is the horizon K_k estimated from the
 * cost of the pairs before look k, so t_k = min(1, k / K_k). When K grows, a(k / K_k) may lie below
 * what earlier looks spent: that look spends 0 (its boundary is infinite), never a negative amount;
 * the look with k >= K_k (the last pair that fits) spends all that is left. */
size_t st_seq_spend_horizon(double *out_cum, enum st_seq_spending s, double side_alpha,
			    size_t first_look, const size_t *horizon, size_t n)
{
	size_t last = n;
	out_cum[0] = 0;
	for (size_t k = 1; k <= n; k++) {
		double prev = out_cum[k - 1], a;
		out_cum[k] = prev;
		if (k < first_look)
			continue;
		int final = horizon[k - 1] == 0 || k >= horizon[k - 1];
		a = st_seq_spend(s, side_alpha, final ? 1 : (double)k / (double)horizon[k - 1]);
		if (a > prev)
			out_cum[k] = a;
		if (final && last == n)
			last = k;
	}
	return last;
}

/* Boundaries z_k for looks k = first_look .. last at information k (pairs): look k spends
 * cum[k] - cum[k - 1] of one side's alpha (st_seq_spend_horizon), the first look cum[first_look];
 * a two-sided design spends alpha_query / 2 on each side (symmetric, as gsDesign and ldbounds
 * do). The crossing probability under H0 is solved by bisection over the recursively integrated
 * sub-density of the score (Lan & DeMets 1983; Jennison & Turnbull 2000, ch. 7 and 19). */
static int design_bounds(struct st_seq_design *out, const double *cum, size_t last,
			 struct errbuf *err)
{
	size_t f = out->opts.first_look;
	struct seq_grid g = {0}, next = {0};
	double prev = 0, lo, hi;
	for (size_t k = 0; k <= ST_SEQ_MAX_PAIRS; k++)
		out->z[k] = INFINITY;
	for (size_t k = f; k <= last; k++) {
		double a = cum[k];
		double delta = a - prev, si = sqrt((double)k), h = INFINITY;
		if (k == f) {
			if (delta > 0)
				h = si * gsl_cdf_ugaussian_Qinv(delta);
			region(&lo, &hi, h, si);
			if (grid_first(&g, lo, hi, si) < 0)
				goto oom;
		} else {
			if (delta > 0)
				h = solve_bound(&g, delta, si);
			region(&lo, &hi, h, si);
			if (grid_step(&next, &g, lo, hi) < 0)
				goto oom;
			grid_release(&g);
			g = next;
			next = (struct seq_grid){0};
		}
		out->z[k] = h / si;
		out->spent[k] = 2 * a;
		prev = a;
	}
	grid_release(&g);
	return design_t(out, err);
oom:
	grid_release(&g);
	grid_release(&next);
	return errbuf_set(err, "out of memory"), ST_EINVAL;
}

static int horizon_check(const size_t *horizon, size_t n, size_t first_look, struct errbuf *err)
{
	if (n < 1 || n > ST_SEQ_MAX_PAIRS)
		return errbuf_set(err, "a horizon of %zu looks is not in [1, %d]", n,
				  ST_SEQ_MAX_PAIRS),
		       ST_EINVAL;
	for (size_t i = 0; i < n; i++)
		if (horizon[i] < first_look || horizon[i] > ST_SEQ_MAX_PAIRS)
			return errbuf_set(err, "maximum pairs %zu at look %zu is not in [%zu, %d]",
					  horizon[i], i + 1, first_look, ST_SEQ_MAX_PAIRS),
			       ST_EINVAL;
	return 0;
}

int st_seq_design_init_horizon(struct st_seq_design *out, const struct st_seq_opts *opts,
			       const size_t *horizon, size_t n, struct errbuf *err)
{
	double cum[ST_SEQ_MAX_PAIRS + 1];
	struct st_seq_opts o = *opts;
	if (o.first_look == 0)
		return errbuf_set(err, "sequential design needs first_look >= 1"), ST_EINVAL;
	if (horizon_check(horizon, n, o.first_look, err) < 0)
		return ST_EINVAL;
	o.max_pairs = horizon[n - 1];
	if (opts_check(&o, err) < 0)
		return ST_EINVAL;
	memset(out, 0, sizeof(*out));
	out->opts = o;
	out->alpha_query = o.alpha / (double)o.m;
	/* ST_GREATER: regressions and improvements are two families, alpha_query each */
	double side_alpha = o.alt == ST_TWO_SIDED ? out->alpha_query / 2 : out->alpha_query;
	out->looks = st_seq_spend_horizon(cum, o.spending, side_alpha, o.first_look, horizon, n);
	for (size_t k = 1; k <= out->looks; k++)
		out->horizon[k] = horizon[k - 1];
	return design_bounds(out, cum, out->looks, err);
}

int st_seq_design_init(struct st_seq_design *out, const struct st_seq_opts *opts,
		       struct errbuf *err)
{
	size_t h[ST_SEQ_MAX_PAIRS];
	if (opts_check(opts, err) < 0)
		return ST_EINVAL;
	for (size_t i = 0; i < opts->max_pairs; i++)
		h[i] = opts->max_pairs;
	return st_seq_design_init_horizon(out, opts, h, opts->max_pairs, err);
}

void st_seq_state_init(struct st_seq_state *out)
{
	memset(out, 0, sizeof(*out));
	out->decision = ST_SEQ_UNDECIDED;
	out->look.diff = out->look.ratio = out->look.se = out->look.df = out->look.t = NAN;
	out->look.t_bound = INFINITY;
	out->look.ci_lo = out->look.ci_hi = NAN;
}

int st_seq_state_set_prior(struct st_seq_state *s, double var, size_t df, struct errbuf *err)
{
	if (!(var > 0) || !isfinite(var) || df == 0 || df > ST_SEQ_T_MAX_PRIOR_DF)
		return errbuf_set(err,
				  "a prior variance needs a finite variance > 0 (%g) and "
				  "1 to %d df (%zu)",
				  var, ST_SEQ_T_MAX_PRIOR_DF, df),
		       ST_EINVAL;
	s->prior_ss = var * (double)df;
	s->prior_df = df;
	return 0;
}

/* Welford's running mean and sum of squared deviations (Welford 1962, Technometrics 4:419). */
static void welford(double *mean, double *m2, double x, size_t n)
{
	double d = x - *mean;
	*mean += d / (double)n;
	*m2 += d * (x - *mean);
}

/* The estimate and its standard error after k pairs. Paired: one-sample t on the log ratios,
 * df k - 1. Unpaired: two-sample t with the variance pooled over both sides (equal n = k), df
 * 2k - 2. Both have information proportional to k, as the design assumes. A prior variance
 * (st_seq_state_set_prior) joins the pooled sum of squares with its df. */
static void look_estimate(struct st_seq_look *l, const struct st_seq_state *s,
			  enum st_seq_pairing pairing)
{
	size_t k = s->pairs;
	double ss;
	l->pairs = k;
	if (pairing == ST_SEQ_PAIRED) {
		l->diff = s->mean_d;
		l->df = (double)k - 1;
		ss = s->m2_d;
	} else {
		l->diff = s->mean_b - s->mean_a;
		l->df = 2 * (double)k - 2;
		ss = s->m2_a + s->m2_b;
	}
	l->df += (double)s->prior_df;
	ss += s->prior_ss;
	l->ratio = exp(l->diff);
	if (l->df >= 1)
		l->se = sqrt(ss / l->df / (double)k * (pairing == ST_SEQ_PAIRED ? 1 : 2));
	else
		l->df = l->se = NAN;
}

/* The critical t of a look: the design's t[k], exact for the t statistic on the look's df
 * (st_seq_t_bounds; Jennison & Turnbull 1991). The repeated confidence interval diff +- t_bound
 * se (Jennison & Turnbull 1989, JRSS B 51:305-361; 2000, ch. 9) then covers the true log ratio at
 * every look at once with probability >= 1 - alpha_query (two-sided design; with ST_GREATER each
 * one-sided bound alone) for normal log ratios with unknown variance. */
static void look_bound(struct st_seq_look *l, const struct st_seq_design *d)
{
	size_t k = l->pairs;
	double tb = k <= d->looks ? d->t[k] : INFINITY;
	l->t = NAN;
	if (l->se > 0)
		l->t = l->diff / l->se;
	else if (l->se == 0) /* every pair alike: a zero-width interval */
		l->t = l->diff == 0 ? 0 : copysign(INFINITY, l->diff);
	l->t_bound = INFINITY;
	l->ci_lo = l->ci_hi = NAN;
	if (!isfinite(tb) || !(l->df >= 1))
		return;
	l->t_bound = tb;
	l->ci_lo = exp(l->diff - l->t_bound * l->se);
	l->ci_hi = exp(l->diff + l->t_bound * l->se);
}

/* Decision from the repeated CI [lo, hi] of the ratio and the estimate, as compare's fixed rule:
 * regression when lo > 1 and the ratio >= 1 + min_effect; improvement when hi < 1 and the ratio
 * <= 1 / (1 + min_effect); unchanged when the interval lies inside (1 / (1 + min_effect),
 * 1 + min_effect). */
static enum st_seq_decision look_decide(const struct st_seq_look *l, const struct st_seq_design *d)
{
	if (!isfinite(l->ci_lo) || !isfinite(l->ci_hi))
		return ST_SEQ_UNDECIDED;
	double up = 1 + d->opts.min_effect;
	if (l->ci_lo > 1 && l->ratio >= up)
		return ST_SEQ_REGRESSION;
	if (l->ci_hi < 1 && l->ratio <= 1 / up)
		return ST_SEQ_IMPROVEMENT;
	if (l->ci_hi < up && l->ci_lo > 1 / up)
		return ST_SEQ_UNCHANGED;
	return ST_SEQ_UNDECIDED;
}

int st_seq_feed(struct st_seq_state *s, const struct st_seq_design *d, double mean_a,
		double mean_b, struct errbuf *err)
{
	if (!(mean_a > 0) || !(mean_b > 0) || !isfinite(mean_a) || !isfinite(mean_b))
		return errbuf_set(err, "restart means must be finite and > 0 (%g, %g)", mean_a,
				  mean_b),
		       ST_EINVAL;
	if (s->prior_df != d->opts.prior_df)
		return errbuf_set(err, "the query's prior variance has %zu df, the design %zu",
				  s->prior_df, d->opts.prior_df),
		       ST_EINVAL;
	s->pairs++;
	if (s->decision != ST_SEQ_UNDECIDED)
		return 0;
	double la = log(mean_a), lb = log(mean_b);
	welford(&s->mean_a, &s->m2_a, la, s->pairs);
	welford(&s->mean_b, &s->m2_b, lb, s->pairs);
	welford(&s->mean_d, &s->m2_d, lb - la, s->pairs);
	look_estimate(&s->look, s, d->opts.pairing);
	look_bound(&s->look, d);
	s->decision = look_decide(&s->look, d);
	if (s->decision != ST_SEQ_UNDECIDED)
		s->decided_at = s->pairs;
	return 0;
}

/* Student's paired t (Student 1908; e.g. Hogg, McKean & Craig, "Introduction to Mathematical
 * Statistics", paired comparisons): the restart effects a pair shares (drift of the machine)
 * cancel in d_i; the price is n - 1 df instead of 2n - 2. */
int st_compare_paired(struct st_test *out, const double *a, const double *b, size_t n,
		      const struct st_compare_opts *o, struct errbuf *err)
{
	double md = 0, m2d = 0, ml = 0, m2l = 0;
	st_test_init_none(out, n, n);
	if (n < 2)
		return errbuf_set(err, "a paired test needs 2 pairs, got %zu", n), ST_ENODATA;
	for (size_t i = 0; i < n; i++) {
		if (!(a[i] > 0) || !(b[i] > 0) || !isfinite(a[i]) || !isfinite(b[i]))
			return errbuf_set(err, "restart means must be finite and > 0"), ST_EINVAL;
		double la = log(a[i]), lb = log(b[i]);
		welford(&md, &m2d, lb - la, i + 1);
		welford(&ml, &m2l, la, 2 * i + 1);
		welford(&ml, &m2l, lb, 2 * i + 2);
	}
	out->kind = ST_TEST_PAIRED;
	out->diff = md;
	out->df = (double)n - 1;
	out->se = sqrt(m2d / out->df / (double)n);
	out->var_total = m2l / (2 * (double)n - 1);
	st_test_finish(out, o);
	return 0;
}

const char *st_seq_decision_name(enum st_seq_decision v)
{
	static const char *const names[] = {[ST_SEQ_UNCHANGED] = "unchanged",
					    [ST_SEQ_IMPROVEMENT] = "improvement",
					    [ST_SEQ_REGRESSION] = "regression"};
	return UTIL_ENUM_NAME(names, v, "undecided");
}

const char *st_seq_spending_name(enum st_seq_spending s)
{
	return s == ST_SPEND_POCOCK ? "pocock" : "obf";
}

int st_seq_spending_parse(const char *s, enum st_seq_spending *out)
{
	if (strcmp(s, "obf") == 0)
		*out = ST_SPEND_OBF;
	else if (strcmp(s, "pocock") == 0)
		*out = ST_SPEND_POCOCK;
	else
		return ST_EINVAL;
	return 0;
}
