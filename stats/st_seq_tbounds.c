/* SPDX-License-Identifier: MIT */
/* Exact critical values of group-sequential t-tests under H0, by recursive numerical integration
 * over the direction of the data vector (method above st_seq_t_bounds). */
#include "stats/st_seq_tbounds.h"
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdlib.h>

#define TC_CELLS 320	 /* point masses of the state's sub-distribution on a region */
#define TC_TABLE 4096	 /* intervals of the tabulated angle tail on (-pi/2, pi/2) */
#define TC_TINY 1e-7	 /* below this the tail is evaluated directly, not interpolated */
#define TC_BISECT 64	 /* bisection steps of a boundary angle */
#define TC_MARGINAL 1e-7 /* a look spending less takes the marginal quantile of its t */

double st_seq_t_df(enum st_seq_t_kind kind, size_t k)
{
	return kind == ST_SEQ_T_POOLED ? 2 * (double)k - 2 : (double)k - 1;
}

/* Coordinates of the data vector after k pairs (under H0, location removed): the k pair
 * differences, and for the pooled t also the k - 1 Helmert contrasts of the pair sums. */
static double dims_of(enum st_seq_t_kind kind, size_t k)
{
	return st_seq_t_df(kind, k) + 1;
}

/* The tail P(phi > y) of an angle phi in (-pi/2, pi/2) with density proportional to
 * cos^(dim - 1) phi, i.e. sqrt(dim) tan phi ~ Student t on dim df: the angle a new coordinate
 * makes with a dim-dimensional spherically symmetric vector. Tabulated once per dim on a uniform
 * grid and interpolated by cubic Hermite with the exact density as slope (error < 1e-13 here);
 * tails below TC_TINY come from GSL directly. */
struct angle_tab {
	double dim, c; /* c: the density's normalising constant */
	double q[TC_TABLE + 1], f[TC_TABLE + 1];
};

static double angle_tail_exact(double y, double dim)
{
	if (y <= -M_PI_2)
		return 1;
	if (y >= M_PI_2)
		return 0;
	return gsl_cdf_tdist_Q(sqrt(dim) * tan(y), dim);
}

static void angle_tab_init(struct angle_tab *t, double dim)
{
	double h = M_PI / TC_TABLE;
	t->dim = dim;
	t->c = exp(gsl_sf_lngamma((dim + 1) / 2) - gsl_sf_lngamma(dim / 2)) / sqrt(M_PI);
	for (size_t i = 0; i <= TC_TABLE; i++) {
		double y = -M_PI_2 + h * (double)i;
		t->q[i] = i == 0 ? 1 : i == TC_TABLE ? 0 : angle_tail_exact(y, dim);
		t->f[i] = i == 0 || i == TC_TABLE ? 0 : t->c * pow(cos(y), dim - 1);
	}
}

static double angle_tail(const struct angle_tab *t, double y)
{
	double h = M_PI / TC_TABLE, u = (y + M_PI_2) / h;
	if (!(u > 0))
		return 1;
	if (u >= TC_TABLE)
		return 0;
	size_t i = (size_t)u;
	double s = u - (double)i, q0 = t->q[i], q1 = t->q[i + 1];
	if (q1 < TC_TINY)
		return angle_tail_exact(y, t->dim);
	double s2 = s * s, s3 = s2 * s;
	/* cubic Hermite basis; the tail's slope is minus the density */
	return (2 * s3 - 3 * s2 + 1) * q0 - (s3 - 2 * s2 + s) * h * t->f[i] +
	       (-2 * s3 + 3 * s2) * q1 - (s3 - s2) * h * t->f[i + 1];
}

/* One transition of the state (the angle theta between the data vector and the direction of the
 * estimate, sin theta = Z / |X|, T = sqrt(df) tan theta). A pair adds a coordinate of the
 * estimate, Z' = a Z + b x with a = sqrt(k / (k + 1)), b = sqrt(1 / (k + 1)):
 *   sin theta' = a cos(phi) sin(theta) + b sin(phi),  tan phi = x / |X|;
 * and for the pooled t a coordinate of error only (b = 0): sin theta' = |cos psi| sin theta.
 * The new angle is independent of the past directions (the data vector is spherically symmetric
 * under H0), so the states form a Markov chain. */
struct tstep {
	double a, b;
	const struct angle_tab *tab; /* the new coordinate's angle: dim = coordinates before */
};

/* P(theta' > x | theta). */
static double step_tail(const struct tstep *s, double x, double th)
{
	if (x < 0) /* the kernel is symmetric: (theta, phi) -> (-theta, -phi) */
		return 1 - step_tail(s, -x, -th);
	if (s->b == 0) {
		if (th <= x)
			return 0;
		return 1 - 2 * angle_tail(s->tab, acos(sin(x) / sin(th)));
	}
	double p = s->a * sin(th), r = hypot(p, s->b), g = atan2(p, s->b);
	double q = sin(x) / r;
	if (q >= 1)
		return 0;
	/* r sin(phi + g) > sin x for phi + g in (asin q, pi - asin q) */
	double as = asin(q);
	return angle_tail(s->tab, as - g) - angle_tail(s->tab, M_PI - as - g);
}

/* The state's sub-distribution (no boundary crossed so far) as point masses at the centres of
 * cells on a symmetric region (-L, L), the cells' edges at L sin(pi/2 (2j / n - 1)): fine near
 * the region's ends, where the point masses that reach far boundaries lie, coarse in the body. */
struct tcells {
	size_t n;
	double th[TC_CELLS], m[TC_CELLS];
};

static double cell_edge(double L, size_t j)
{
	return L * sin(M_PI_2 * (2 * (double)j / TC_CELLS - 1));
}

static void cells_place(struct tcells *c, double L)
{
	c->n = TC_CELLS;
	for (size_t j = 0; j < TC_CELLS; j++) {
		c->th[j] = (cell_edge(L, j) + cell_edge(L, j + 1)) / 2;
		c->m[j] = 0;
	}
}

static double cells_cross(const struct tcells *c, const struct tstep *s, double x)
{
	double p = 0;
	for (size_t i = 0; i < c->n; i++)
		p += c->m[i] * step_tail(s, x, c->th[i]);
	return p;
}

/* The largest |theta'| a step can reach from the cells. */
static double cells_reach(const struct tcells *c, const struct tstep *s)
{
	double top = 0;
	for (size_t i = 0; i < c->n; i++)
		top = fmax(top, fabs(c->th[i]));
	if (s->b == 0)
		return top;
	double r = hypot(s->a * sin(top), s->b);
	return r >= 1 ? M_PI_2 : asin(r);
}

/* Cells of theta' on (-lim, lim) (the continuation region, or less where nothing lies beyond):
 * the mass of a cell is the exact probability of the step from each point mass. */
static void cells_step(struct tcells *out, const struct tcells *in, const struct tstep *s,
		       double lim)
{
	double L = fmin(lim, cells_reach(in, s)), e[TC_CELLS + 1];
	cells_place(out, L);
	for (size_t j = 0; j <= TC_CELLS; j++)
		e[j] = cell_edge(L, j);
	for (size_t i = 0; i < in->n; i++) {
		double prev = step_tail(s, e[0], in->th[i]);
		for (size_t j = 0; j < TC_CELLS; j++) {
			double next = step_tail(s, e[j + 1], in->th[i]);
			out->m[j] += in->m[i] * (prev - next);
			prev = next;
		}
	}
}

/* The first look: T ~ t on df, theta = atan(T / sqrt(df)) has the tail of angle_tail on dim df. */
static void cells_first(struct tcells *out, const struct angle_tab *tab, double lim)
{
	double prev = angle_tail(tab, -lim);
	cells_place(out, lim);
	for (size_t j = 0; j < TC_CELLS; j++) {
		double next = angle_tail(tab, cell_edge(lim, j + 1));
		out->m[j] = prev - next;
		prev = next;
	}
}

/* The boundary angle where the crossing probability is delta: tail(x) is decreasing in x. */
static double solve_angle(const struct tcells *c, const struct tstep *s,
			  const struct angle_tab *first, double delta)
{
	double lo = 0, hi = M_PI_2;
	if (!(delta > 0))
		return M_PI_2;
	for (int it = 0; it < TC_BISECT; it++) {
		double mid = (lo + hi) / 2;
		double p = c ? cells_cross(c, s, mid) : angle_tail(first, mid);
		if (p > delta)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static double t_of_angle(double x, double df, double delta)
{
	return delta > 0 ? sqrt(df) * tan(x) : INFINITY;
}

static int bounds_check(const double *delta, size_t first, size_t last, double prior_df,
			struct errbuf *err)
{
	double sum = 0;
	if (!(prior_df >= 0 && prior_df <= ST_SEQ_T_MAX_PRIOR_DF) || prior_df != floor(prior_df))
		return errbuf_set(err, "prior degrees of freedom %g: not a whole number in [0, %d]",
				  prior_df, ST_SEQ_T_MAX_PRIOR_DF);
	if (first < (prior_df >= 1 ? 1 : 2) || last < first)
		return errbuf_set(err,
				  "sequential t looks %zu..%zu: the first needs 2 pairs (1 with a "
				  "prior variance)",
				  first, last);
	for (size_t k = first; k <= last; k++) {
		if (!isfinite(delta[k]))
			return errbuf_set(err, "alpha spent at look %zu is not finite", k);
		sum += fmax(delta[k], 0);
	}
	if (!(sum < 0.5))
		return errbuf_set(err, "alpha spent per side %g is not below 0.5", sum);
	return 0;
}

struct tchain {
	struct angle_tab num, err; /* the angles of the step's two coordinates */
	struct tcells a, b;	   /* the current sub-distribution and a scratch one */
};

/* Critical values of the t statistics themselves, as Jennison & Turnbull (1991, "Exact
 * calculations for sequential t, chi^2 and F tests", Biometrika 78:133-141; 2000, "Group
 * Sequential Methods", ch. 11 and 19) propose in place of the significance-level approach: under
 * H0 the t statistics are functions of the direction of the data vector alone (the scale
 * cancels), and that direction, one new coordinate at a time, is a Markov chain in one angle
 * (struct tstep). Its sub-density on the continuation region is integrated look by look as the
 * normal-score recursion of Armitage, McPherson & Rowe (1969) is, on point masses whose step
 * probabilities are exact Student-t tails (struct tcells); the boundary of each look is solved
 * by bisection for the probability spent there. Checked against an independent SciPy
 * computation and a direct simulation of the t statistics (tests/data/seq_tbounds.py). */
int st_seq_t_bounds(double *t_out, const double *delta, size_t first, size_t last,
		    enum st_seq_t_kind kind, struct errbuf *err)
{
	return st_seq_t_bounds_prior(t_out, delta, first, last, kind, 0, err);
}

/* A prior variance estimate on nu0 df, independent of the run's data, adds nu0 coordinates of
 * error to the data vector: under H0 it stays spherically symmetric, now in nu0 more dimensions,
 * and the pooled t is again sqrt(df) tan theta with df = st_seq_t_df + nu0 (the pooled sum of
 * squares is the squared length of every coordinate but the estimate's). So the chain of
 * st_seq_t_bounds is the same with nu0 added to every dimension; the prior coordinates never
 * enter the estimate. Checked against a direct simulation of the pooled t statistics
 * (tests/test_stats_seq_prior.c, bounds_match_a_simulation). */
int st_seq_t_bounds_prior(double *t_out, const double *delta, size_t first, size_t last,
			  enum st_seq_t_kind kind, double prior_df, struct errbuf *err)
{
	if (bounds_check(delta, first, last, prior_df, err) < 0)
		return ST_EINVAL;
	struct tchain *ch = malloc(sizeof(*ch));
	if (!ch)
		return errbuf_set(err, "out of memory"), ST_EINVAL;
	double df = st_seq_t_df(kind, first) + prior_df;
	angle_tab_init(&ch->num, df); /* the first look's angle: T ~ t on df */
	/* the first look: Student's quantile itself (exact also where the angle is too close to
	 * pi/2 for a double), else by bisection */
	double t1 = delta[first] > 0 ? gsl_cdf_tdist_Qinv(delta[first], df) : INFINITY;
	double x = isinf(t1) ? M_PI_2 : atan(t1 / sqrt(df));
	if (!(t1 > 0) || isnan(t1)) {
		x = solve_angle(NULL, NULL, &ch->num, delta[first]);
		t1 = t_of_angle(x, df, delta[first]);
	}
	t_out[first] = t1;
	struct tcells *cur = &ch->a, *tmp = &ch->b;
	cells_first(cur, &ch->num, x);
	for (size_t k = first + 1; k <= last; k++) {
		double d = dims_of(kind, k - 1) + prior_df;
		struct tstep num = {sqrt((double)(k - 1) / (double)k), sqrt(1 / (double)k),
				    &ch->num};
		struct tstep err_step = {1, 0, &ch->err};
		const struct tstep *s = &num;
		angle_tab_init(&ch->num, d);
		if (kind ==
		    ST_SEQ_T_POOLED) { /* the pair's difference, then its Helmert contrast */
			cells_step(tmp, cur, &num, M_PI_2);
			struct tcells *sw = cur;
			cur = tmp;
			tmp = sw;
			angle_tab_init(&ch->err, d + 1);
			s = &err_step;
		}
		df = st_seq_t_df(kind, k) + prior_df;
		if (delta[k] > 0 && delta[k] < TC_MARGINAL) {
			/* too little to resolve on the cells: the marginal quantile, which spends
			 * at most delta here (P(cross, none before) <= P(cross)) */
			t_out[k] = gsl_cdf_tdist_Qinv(delta[k], df);
			if (!(t_out[k] > 0)) /* not computable: spend nothing here */
				t_out[k] = INFINITY;
			x = atan(t_out[k] / sqrt(df));
		} else {
			x = solve_angle(cur, s, NULL, delta[k]);
			t_out[k] = t_of_angle(x, df, delta[k]);
		}
		if (k < last) {
			cells_step(tmp, cur, s, x);
			struct tcells *sw = cur;
			cur = tmp;
			tmp = sw;
		}
	}
	free(ch);
	return 0;
}
