/* SPDX-License-Identifier: MIT */
/* Power of the restart-level tests and the restarts needed to reach it. */
#include "stats/st.h"
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_integration.h>
#include <math.h>

#define ST_GL_S 256 /* Gauss-Legendre nodes over the variance (fixed-df tests) */
#define ST_GL_W 96  /* ... over the variance sum, Welch */
#define ST_GL_B 48  /* ... over the Welch variance split */

/* Per-test level: the smallest p of m must be below alpha/m to reject anything under Holm
 * (Holm 1979) and BH (Benjamini & Hochberg 1995) alike; with one changed query this first step
 * is what decides its verdict. */
static double per_test_alpha(const struct st_power_spec *s)
{
	size_t m = s->m ? s->m : 1;
	return s->corr == ST_CORR_NONE ? s->alpha : s->alpha / (double)m;
}

static double critical_t(const struct st_power_spec *s, double df)
{
	double a = per_test_alpha(s);
	double p = s->alt == ST_GREATER ? 1 - a : 1 - a / 2;
	if (!isfinite(df) || df > 1e7)
		return gsl_cdf_ugaussian_Pinv(p);
	return gsl_cdf_tdist_Pinv(p, df);
}

/* P(regression verdict | estimated se), D ~ N(delta, sd_d^2): the verdict needs D > c se_hat
 * (the test) and D >= log(1 + min_effect) (the size), so P = Q((max(c se_hat, mu_m) - delta)/sd_d);
 * the shifted test (min-effect test) needs D - mu_m > c se_hat: P = Q((c se_hat + mu_m - delta)
 * / sd_d). Both arguments are in units of sd_d. */
static double cond_power(double c_se, double mu_m, double ncp, int shifted)
{
	double thr = shifted ? c_se + mu_m : c_se > mu_m ? c_se : mu_m;
	return gsl_cdf_ugaussian_Q(thr - ncp);
}

/* Power of a regression verdict for one query. Model: log restart means N(mu, s^2) old and
 * N(mu + delta, s^2) new, n a side; D = mean difference ~ N(delta, 2 s^2 / n).
 * Welch: with V_a, V_b ~ chi^2_{n-1}, S = V_a + V_b ~ chi^2_{2n-2} is independent of
 * B = V_a / S ~ Beta((n-1)/2, (n-1)/2) (Lukacs 1955); se_hat/sd_D = sqrt(S / (2(n-1))) and the
 * Welch-Satterthwaite df = (n-1) / (B^2 + (1-B)^2), so power = E_B E_S cond_power, a 2-D
 * Gauss-Legendre quadrature over the quantiles of B and S (exact up to quadrature error; this
 * replaces the noncentral t, which assumes a fixed df). Pooled, baseline and moderated tests:
 * s~^2 = (d0 s0^2 + s^2 V) / (d0 + d_b + d), V ~ chi^2_{d_b + d}, d = 2n - 2, df = d0 + d_b + d;
 * for d0 = 0 this is exactly the noncentral t power (e.g. Cohen 1988, ch. 2). ST_METHOD_AUTO is
 * the pooled test here: the model has equal n and equal variances, where the rule pools (its
 * F pre-test rejects in about var_alpha of cases, which this ignores). */
double st_power(const struct st_power_spec *spec, size_t n)
{
	double delta, sd_d, ncp, mu_m, d, sum = 0;
	gsl_integration_glfixed_table *ts, *tb, *tw;
	int sh;

	if (!spec || n < 2 || !(spec->alpha > 0 && spec->alpha < 1) || !isfinite(spec->effect) ||
	    spec->effect <= -1 || !(spec->sd_log >= 0) || spec->min_effect < 0)
		return NAN;
	delta = log1p(spec->effect);
	mu_m = log1p(spec->min_effect);
	sh = spec->min_effect_test != 0;
	if (spec->sd_log == 0)
		return delta > 0 && (sh ? delta > mu_m : delta >= mu_m) ? 1 : 0;
	sd_d = spec->sd_log * sqrt(2.0 / (double)n);
	ncp = delta / sd_d;
	mu_m /= sd_d;
	d = 2.0 * (double)(n - 1);
	ts = gsl_integration_glfixed_table_alloc(ST_GL_S);
	tb = gsl_integration_glfixed_table_alloc(ST_GL_B);
	tw = gsl_integration_glfixed_table_alloc(ST_GL_W);
	if (!ts || !tb || !tw) {
		sum = NAN;
		goto done;
	}

	if (spec->method == ST_METHOD_WELCH) {
		double half = (double)(n - 1) / 2, sq[ST_GL_W], sw[ST_GL_W];
		for (size_t j = 0; j < ST_GL_W; j++) {
			double us;
			gsl_integration_glfixed_point(0, 1, j, &us, &sw[j], tw);
			sq[j] = sqrt(gsl_cdf_chisq_Pinv(us, d) / d);
		}
		for (size_t i = 0; i < ST_GL_B; i++) {
			double ub, wb, bq, df, c, inner = 0;
			gsl_integration_glfixed_point(0, 1, i, &ub, &wb, tb);
			bq = gsl_cdf_beta_Pinv(ub, half, half);
			df = (double)(n - 1) / (bq * bq + (1 - bq) * (1 - bq));
			c = critical_t(spec, df);
			for (size_t j = 0; j < ST_GL_W; j++)
				inner += sw[j] * cond_power(c * sq[j], mu_m, ncp, sh);
			sum += wb * inner;
		}
	} else {
		double d0 =
		    spec->method == ST_METHOD_EB && spec->eb.df > 0 && isfinite(spec->eb.var)
			? spec->eb.df
			: 0;
		double db = spec->baseline_df > 0 ? spec->baseline_df : 0;
		double r0 = d0 > 0 ? spec->eb.var / (spec->sd_log * spec->sd_log) : 0;
		if (isinf(d0)) {
			/* the prior fixes the variance: a z-test with se_hat^2 = s0^2 (2/n) */
			sum = cond_power(critical_t(spec, INFINITY) * sqrt(r0), mu_m, ncp, sh);
		} else {
			double df = d0 + db + d, c = critical_t(spec, df);
			for (size_t j = 0; j < ST_GL_S; j++) {
				double us, ws, v;
				gsl_integration_glfixed_point(0, 1, j, &us, &ws, ts);
				v = gsl_cdf_chisq_Pinv(us, db + d);
				sum += ws * cond_power(c * sqrt((d0 * r0 + v) / df), mu_m, ncp, sh);
			}
		}
	}
done:
	if (ts)
		gsl_integration_glfixed_table_free(ts);
	if (tb)
		gsl_integration_glfixed_table_free(tb);
	if (tw)
		gsl_integration_glfixed_table_free(tw);
	return sum;
}

int st_restarts_needed(size_t *out, const struct st_power_spec *spec, double target, size_t max_n)
{
	for (size_t n = 2; n <= max_n; n++) {
		double p = st_power(spec, n);
		if (isnan(p))
			return ST_EINVAL;
		if (p >= target) {
			*out = n;
			return 0;
		}
	}
	return ST_ENODATA;
}
