/* SPDX-License-Identifier: MIT */
/* The analysis of covariance of two results (stats/st_adjust.h). */
#include "stats/st_adjust.h"
#include "stats/st_int.h"
#include <math.h>

/* The sample variance of the logs of a[na] and b[nb] together (st_test.var_total). */
static double var_total(const double *a, size_t na, const double *b, size_t nb)
{
	double m = 0, ss = 0, n = (double)(na + nb);
	for (size_t i = 0; i < na + nb; i++)
		m += log(i < na ? a[i] : b[i - na]) / n;
	for (size_t i = 0; i < na + nb; i++) {
		double e = log(i < na ? a[i] : b[i - na]) - m;
		ss += e * e;
	}
	return ss / (n - 1);
}

/* Centred sums of one group: s_yy, s_xy, s_xx about its own means, added to *sum. */
struct sums {
	double yy, xy, xx;
};

static int group_sums(struct sums *sum, double *out_my, double *out_mx, const double *y,
		      const double *x, size_t n, int logs)
{
	double my = 0, mx = 0;
	for (size_t i = 0; i < n; i++) {
		if (logs && !(y[i] > 0 && isfinite(y[i])))
			return -1;
		if (!isfinite(x[i]))
			return -1;
		my += (logs ? log(y[i]) : y[i]) / (double)n;
		mx += x[i] / (double)n;
	}
	for (size_t i = 0; i < n; i++) {
		double dy = (logs ? log(y[i]) : y[i]) - my, dx = x[i] - mx;
		sum->yy += dy * dy;
		sum->xy += dx * dy;
		sum->xx += dx * dx;
	}
	*out_my = my;
	*out_mx = mx;
	return 0;
}

/* The analysis of covariance with one covariate and a slope common to both groups (Snedecor &
 * Cochran, "Statistical Methods", 8th ed., 1989, secs. 18.2-18.3; Montgomery, "Design and
 * Analysis of Experiments", sec. 15.3): with the within-group sums S_yy, S_xy, S_xx the slope
 * is b = S_xy / S_xx, the residual variance s^2 = (S_yy - S_xy^2 / S_xx) / (n_a + n_b - 3), the
 * adjusted difference d = (ybar_b - ybar_a) - b (xbar_b - xbar_a) and
 * Var(d) = s^2 (1/n_a + 1/n_b + (xbar_b - xbar_a)^2 / S_xx); t = d / se on n_a + n_b - 3 df.
 * y is the log of a restart mean. */
int st_compare_adjusted(struct st_test *out, const double *a, const double *xa, size_t na,
			const double *b, const double *xb, size_t nb,
			const struct st_compare_opts *o, struct errbuf *err)
{
	struct sums s = {0, 0, 0};
	double mya, mxa, myb, mxb;
	st_test_init_none(out, na, nb);
	if (na < 2 || nb < 2 || na + nb < 4)
		return errbuf_set(err, "an adjusted test needs 2 restarts a side and 4 in all"),
		       ST_ENODATA;
	if (group_sums(&s, &mya, &mxa, a, xa, na, 1) < 0 ||
	    group_sums(&s, &myb, &mxb, b, xb, nb, 1) < 0)
		return errbuf_set(err, "restart means must be finite and > 0, covariates finite"),
		       ST_EINVAL;
	if (!(s.xx > 0))
		return errbuf_set(err, "the covariate does not vary within the sides"), ST_ENODATA;
	double df = (double)(na + nb) - 3, slope = s.xy / s.xx;
	double sse = fmax(0, s.yy - s.xy * s.xy / s.xx), dx = mxb - mxa;
	out->kind = ST_TEST_ADJUSTED;
	out->df = df;
	out->diff = (myb - mya) - slope * dx;
	out->se = sqrt(sse / df * (1 / (double)na + 1 / (double)nb + dx * dx / s.xx));
	out->adj_slope = slope;
	out->adj_sd_ratio = s.yy > 0 ? sqrt((sse / df) / (s.yy / (df + 1))) : NAN;
	out->var_total = var_total(a, na, b, nb);
	st_test_finish(out, o);
	return 0;
}

/* The paired analysis of covariance: the regression of the pairs' log ratios
 * d_i = log b_i - log a_i on the differences of their covariates u_i = xb_i - xa_i (Snedecor
 * & Cochran, sec. 17.2, the straight-line fit, its intercept's variance in sec. 17.3): slope
 * c = S_ud / S_uu, residual variance s^2 = (S_dd - S_ud^2 / S_uu) / (n - 2); the adjusted
 * effect is the intercept, the mean ratio at equal covariates, dbar - c ubar, with
 * Var = s^2 (1/n + ubar^2 / S_uu); t on n - 2 df. */
int st_compare_paired_adjusted(struct st_test *out, const double *a, const double *b,
			       const double *xa, const double *xb, size_t n,
			       const struct st_compare_opts *o, struct errbuf *err)
{
	double d[ST_ADJ_MAX_PAIRS], u[ST_ADJ_MAX_PAIRS], md, mu;
	struct sums s = {0, 0, 0};
	st_test_init_none(out, n, n);
	if (n < 3)
		return errbuf_set(err, "an adjusted paired test needs 3 pairs, got %zu", n),
		       ST_ENODATA;
	if (n > ST_ADJ_MAX_PAIRS)
		return errbuf_set(err, "more than %d pairs", ST_ADJ_MAX_PAIRS), ST_EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!(a[i] > 0) || !(b[i] > 0) || !isfinite(a[i]) || !isfinite(b[i]) ||
		    !isfinite(xa[i]) || !isfinite(xb[i]))
			return errbuf_set(err, "restart means must be finite and > 0, covariates "
					       "finite"),
			       ST_EINVAL;
		d[i] = log(b[i]) - log(a[i]);
		u[i] = xb[i] - xa[i];
	}
	group_sums(&s, &md, &mu, d, u, n, 0);
	if (!(s.xx > 0))
		return errbuf_set(err, "the covariate's difference never varies"), ST_ENODATA;
	double df = (double)n - 2, slope = s.xy / s.xx;
	double sse = fmax(0, s.yy - s.xy * s.xy / s.xx);
	out->kind = ST_TEST_PAIRED_ADJUSTED;
	out->df = df;
	out->diff = md - slope * mu;
	out->se = sqrt(sse / df * (1 / (double)n + mu * mu / s.xx));
	out->adj_slope = slope;
	out->adj_sd_ratio = s.yy > 0 ? sqrt((sse / df) / (s.yy / (df + 1))) : NAN;
	out->var_total = var_total(a, n, b, n);
	st_test_finish(out, o);
	return 0;
}
