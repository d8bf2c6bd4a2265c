/* SPDX-License-Identifier: MIT */
/* Variance components and tests on log restart means (the verdicts: stats/st_verdict.c). */
#include "stats/st.h"
#include "stats/st_int.h"
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_psi.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Above this many degrees of freedom the t distribution is replaced by the normal. */
#define ST_DF_NORMAL 1e7

int st_valid_times(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]) || x[i] <= 0)
			return 0;
	return 1;
}

/* Upper tail P(T > t) of Student's t with df degrees of freedom (normal for huge df). */
double st_t_upper(double t, double df)
{
	if (df >= ST_DF_NORMAL)
		return gsl_cdf_ugaussian_Q(t);
	return gsl_cdf_tdist_Q(t, df);
}

/* Quantile t_{p, df}. */
double st_t_quantile(double p, double df)
{
	if (df >= ST_DF_NORMAL)
		return gsl_cdf_ugaussian_Pinv(p);
	return gsl_cdf_tdist_Pinv(p, df);
}

int st_restart_means(double *out, const double *runs, const size_t *nruns, size_t k,
		     struct errbuf *err)
{
	size_t off = 0;
	if (k == 0)
		return errbuf_set(err, "no restarts"), ST_ENODATA;
	for (size_t i = 0; i < k; i++) {
		double s = 0;
		if (nruns[i] == 0)
			return errbuf_set(err, "restart %zu has no measured runs", i), ST_ENODATA;
		if (!st_valid_times(runs + off, nruns[i]))
			return errbuf_set(err, "restart %zu has a time that is not finite and > 0",
					  i),
			       ST_EINVAL;
		for (size_t j = 0; j < nruns[i]; j++)
			s += runs[off + j];
		out[i] = s / (double)nruns[i];
		off += nruns[i];
	}
	return 0;
}

/* Geometric mean exp((1/n) sum log x_i). */
double st_gmean(const double *x, size_t n)
{
	double s = 0;
	if (n == 0 || !st_valid_times(x, n))
		return NAN;
	for (size_t i = 0; i < n; i++)
		s += log(x[i]);
	return exp(s / (double)n);
}

/* Student's t interval on the logs (Student 1908; e.g. Casella & Berger, "Statistical
 * Inference", 2nd ed., ex. 9.2.3 / 9.12): with m and s the mean and sd of log x_i,
 * exp(m -/+ t_{1 - alpha/2, n - 1} s / sqrt(n)). */
void st_gmean_ci(double *out_gmean, double *out_lo, double *out_hi, const double *x, size_t n,
		 double alpha)
{
	*out_gmean = *out_lo = *out_hi = NAN;
	if (n == 0 || !st_valid_times(x, n))
		return;
	double *l = malloc(n * sizeof(*l)), m;
	if (!l)
		return;
	for (size_t i = 0; i < n; i++)
		l[i] = log(x[i]);
	double var = st_sample_var(l, n, &m);
	free(l);
	*out_gmean = exp(m);
	if (n < 2)
		return;
	double h = st_t_quantile(1 - alpha / 2, (double)(n - 1)) * sqrt(var / (double)n);
	*out_lo = exp(m - h);
	*out_hi = exp(m + h);
}

/* One-way random-effects ANOVA (model y_ij = mu + a_i + e_ij, a_i ~ N(0, s_a^2),
 * e_ij ~ N(0, s_e^2)). SSB = sum n_i (ybar_i - ybar)^2, SSW = sum (y_ij - ybar_i)^2, MSB =
 * SSB/(k-1), MSW = SSW/(N-k); ANOVA (method of moments) estimators s_e^2 = MSW, s_a^2 = (MSB - MSW)
 * / n0 with n0 = (N - sum n_i^2 / N) / (k - 1), which is n for balanced data; negative estimates
 * are truncated at 0. Searle, Casella & McCulloch, "Variance Components" (1992), sec. 3.5-3.6 and
 * eq. (3.10); Sokal & Rohlf, "Biometry" (3rd ed. 1995), sec. 9.3 (unequal n, "n0"). F = MSB/MSW
 * on (k-1, N-k) df. Two-pass sums for accuracy. */
int st_anova_oneway(struct st_anova *out, const double *runs, const size_t *nruns, size_t k,
		    struct errbuf *err)
{
	size_t n = 0, off = 0;
	double sum = 0, sumsq_n = 0;

	memset(out, 0, sizeof(*out));
	if (k == 0)
		return errbuf_set(err, "no restarts"), ST_ENODATA;
	for (size_t i = 0; i < k; i++) {
		if (nruns[i] == 0)
			return errbuf_set(err, "restart %zu has no measured runs", i), ST_ENODATA;
		n += nruns[i];
		sumsq_n += (double)nruns[i] * (double)nruns[i];
	}
	for (size_t j = 0; j < n; j++) {
		if (!isfinite(runs[j]))
			return errbuf_set(err, "run %zu is not finite", j), ST_EINVAL;
		sum += runs[j];
	}
	out->k = k;
	out->n = n;
	out->grand_mean = sum / (double)n;
	for (size_t i = 0; i < k; i++) {
		double gm = 0;
		for (size_t j = 0; j < nruns[i]; j++)
			gm += runs[off + j];
		gm /= (double)nruns[i];
		for (size_t j = 0; j < nruns[i]; j++) {
			double d = runs[off + j] - gm;
			out->ss_within += d * d;
		}
		out->ss_between +=
		    (double)nruns[i] * (gm - out->grand_mean) * (gm - out->grand_mean);
		off += nruns[i];
	}
	out->df_between = (double)(k - 1);
	out->df_within = (double)(n - k);
	out->ms_between = k > 1 ? out->ss_between / out->df_between : NAN;
	out->ms_within = n > k ? out->ss_within / out->df_within : NAN;
	out->n0 = k > 1 ? ((double)n - sumsq_n / (double)n) / (double)(k - 1) : NAN;
	out->var_within = out->ms_within;
	if (k > 1 && n > k) {
		double v = (out->ms_between - out->ms_within) / out->n0;
		out->var_between = v > 0 ? v : 0;
	} else {
		out->var_between = NAN;
	}
	if (k > 1 && n > k && out->ms_within > 0) {
		out->f = out->ms_between / out->ms_within;
		out->p = gsl_cdf_fdist_Q(out->f, out->df_between, out->df_within);
	} else {
		out->f = NAN;
		out->p = NAN;
	}
	return 0;
}

/* Two-pass sample variance (stats/st_int.h). */
double st_sample_var(const double *x, size_t n, double *out_mean)
{
	double m = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	if (out_mean)
		*out_mean = m;
	return n > 1 ? ss / (double)(n - 1) : NAN;
}

/* Per-query figures: restart means, ANOVA components as coefficients of variation (s / grand
 * mean, the usual CoV of a variance component: Searle et al. 1992), and the sd of the log restart
 * means, which for log-normal data is close to the CoV of the restart means. */
int st_query_stats_compute(struct st_query_stats *out, double *out_means, const double *runs,
			   const size_t *nruns, size_t k, struct errbuf *err)
{
	double *means, *logs;
	int rc;

	memset(out, 0, sizeof(*out));
	if (k == 0)
		return errbuf_set(err, "no restarts"), ST_ENODATA;
	means = calloc(2 * k, sizeof(double));
	if (!means)
		return errbuf_set(err, "out of memory"), ST_EINVAL;
	logs = means + k;
	rc = st_restart_means(means, runs, nruns, k, err);
	if (rc == 0)
		rc = st_anova_oneway(&out->anova, runs, nruns, k, err);
	if (rc == 0) {
		out->n_restarts = k;
		out->n_runs = out->anova.n;
		out->mean = out->anova.grand_mean;
		out->gmean = st_gmean(means, k);
		out->cov_within = sqrt(out->anova.var_within) / out->anova.grand_mean;
		out->cov_between = sqrt(out->anova.var_between) / out->anova.grand_mean;
		for (size_t i = 0; i < k; i++)
			logs[i] = log(means[i]);
		out->sd_log = sqrt(st_sample_var(logs, k, NULL));
		if (out_means)
			memcpy(out_means, means, k * sizeof(double));
	}
	free(means);
	return rc;
}

int st_sample_init(struct st_sample *out, const double *means, size_t n, struct errbuf *err)
{
	double logs[64], *l = logs;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return errbuf_set(err, "no restart means"), ST_ENODATA;
	if (!st_valid_times(means, n))
		return errbuf_set(err, "a restart mean is not finite and > 0"), ST_EINVAL;
	if (n > sizeof(logs) / sizeof(logs[0])) {
		l = malloc(n * sizeof(double));
		if (!l)
			return errbuf_set(err, "out of memory"), ST_EINVAL;
	}
	for (size_t i = 0; i < n; i++)
		l[i] = log(means[i]);
	out->n = n;
	out->var_log = st_sample_var(l, n, &out->mean_log);
	if (l != logs)
		free(l);
	return 0;
}

void st_compare_opts_init(struct st_compare_opts *out)
{
	memset(out, 0, sizeof(*out));
	out->method = ST_METHOD_WELCH;
	out->alt = ST_TWO_SIDED;
	out->alpha = 0.05;
	out->min_effect = 0.02;
	out->var_alpha = 0.05;
}

/* Pooled variance s_p^2 = sum (n_i - 1) s_i^2 / sum (n_i - 1) over the sides with n_i >= 2
 * (Student 1908; e.g. Snedecor & Cochran, "Statistical Methods", 8th ed., sec. 6.7). */
void st_sample_pooled_var(struct st_prior *out, const struct st_sample *a,
			  const struct st_sample *b)
{
	double ss = 0, df = 0;
	const struct st_sample *s[2] = {a, b};
	for (int i = 0; i < 2; i++) {
		if (s[i]->n >= 2 && isfinite(s[i]->var_log)) {
			ss += (double)(s[i]->n - 1) * s[i]->var_log;
			df += (double)(s[i]->n - 1);
		}
	}
	out->df = df;
	out->var = df > 0 ? ss / df : NAN;
}

/* Sample variance of the log restart means of a baseline result, n - 1 df. */
int st_baseline_prior(struct st_prior *out, const double *means, size_t n, struct errbuf *err)
{
	struct st_sample s;
	int rc = st_sample_init(&s, means, n, err);
	out->var = NAN;
	out->df = 0;
	if (rc)
		return rc;
	if (n < 2)
		return errbuf_set(err, "a baseline needs at least 2 restarts"), ST_ENODATA;
	out->var = s.var_log;
	out->df = (double)(n - 1);
	return 0;
}

/* Pooled variance of independent estimates of one variance (Student 1908; Snedecor & Cochran
 * sec. 6.7): sum df_i var_i / sum df_i on sum df_i degrees of freedom. */
void st_prior_pool(struct st_prior *out, const struct st_prior *a, const struct st_prior *b)
{
	double da = a->df > 0 && isfinite(a->var) ? a->df : 0;
	double db = b->df > 0 && isfinite(b->var) ? b->df : 0;
	double ss = (da > 0 ? da * a->var : 0) + (db > 0 ? db * b->var : 0);
	out->df = da + db;
	out->var = out->df > 0 ? ss / out->df : NAN;
}

/* Upper-tail p of (x / se) on df, with se == 0 read as certainty either way. */
static double p_above(double x, double se, double df)
{
	if (!(se > 0))
		return x > 0 ? 0 : 1;
	return st_t_upper(x / se, df);
}

/* Fills t, the p-values and the CIs from diff, se and df. One-sided shifted tests (e.g. Wellek,
 * "Testing Statistical Hypotheses of Equivalence and Noninferiority", 2nd ed. 2010, ch. 2):
 * H0 diff <= s against diff > s, p_greater = P(T > (diff - s)/se); H0 diff >= -s against
 * diff < -s, p_less = P(T > (-diff - s)/se); s = 0 without the min-effect test. Two-sided p =
 * min(1, 2 min(p_greater, p_less)), which for s = 0 is 2 P(T > |t|). TOST (Schuirmann 1987, J
 * Pharmacokinet Biopharm 15:657-680): with margin mu = log(1 + min_effect), p_tost = max(P(T >
 * (diff + mu)/se), P(T > (mu - diff)/se)); p_tost < alpha iff the (1 - 2 alpha) CI
 * exp(diff -+ t_{1-alpha,df} se) lies inside (1/(1+e), 1+e). CI exp(diff -+ t_{1-alpha/2,df} se).
 */
static void finish_test(struct st_test *out, const struct st_compare_opts *o)
{
	double q, mu = log1p(o->min_effect > 0 ? o->min_effect : 0);
	double s = o->min_effect_test ? mu : 0;
	if (out->se > 0) {
		out->t = out->diff / out->se;
	} else {
		/* no spread at all: identical means are "no evidence", anything else is certain */
		out->t = out->diff == 0 ? 0 : copysign(INFINITY, out->diff);
	}
	out->shift = s;
	out->p_greater = p_above(out->diff - s, out->se, out->df);
	out->p_less = p_above(-out->diff - s, out->se, out->df);
	if (o->alt == ST_GREATER)
		out->p = out->p_greater;
	else
		out->p = fmin(1, 2 * fmin(out->p_greater, out->p_less));
	out->p_tost = fmax(p_above(out->diff + mu, out->se, out->df),
			   p_above(mu - out->diff, out->se, out->df));
	q = st_t_quantile(1 - o->alpha / 2, out->df);
	out->ratio = exp(out->diff);
	out->ci_lo = exp(out->diff - q * out->se);
	out->ci_hi = exp(out->diff + q * out->se);
	q = st_t_quantile(1 - o->alpha, out->df);
	out->tost_lo = exp(out->diff - q * out->se);
	out->tost_hi = exp(out->diff + q * out->se);
}

void st_test_finish(struct st_test *out, const struct st_compare_opts *o)
{
	finish_test(out, o);
}

/* Two-sided p of the variance-ratio test F = v1 / v2 on (d1, d2) df: 2 min(P(F <= f), P(F >= f))
 * (Snedecor & Cochran, "Statistical Methods", 8th ed., sec. 6.12). NaN when undefined. */
static double var_ratio_p(double v1, double d1, double v2, double d2)
{
	double f, lo, hi;
	if (!(d1 > 0) || !(d2 > 0) || !isfinite(v1) || !isfinite(v2))
		return NAN;
	if (v1 == 0 && v2 == 0)
		return 1;
	if (v2 == 0 || v1 == 0)
		return 0;
	f = v1 / v2;
	lo = gsl_cdf_fdist_P(f, d1, d2);
	hi = gsl_cdf_fdist_Q(f, d1, d2);
	return fmin(1, 2 * fmin(lo, hi));
}

void st_test_init_none(struct st_test *out, size_t n_a, size_t n_b)
{
	memset(out, 0, sizeof(*out));
	out->kind = ST_TEST_NONE;
	out->diff = out->ratio = out->se = out->df = out->t = out->p = NAN;
	out->p_greater = out->p_less = out->p_tost = out->var_f_p = NAN;
	out->ci_lo = out->ci_hi = out->tost_lo = out->tost_hi = NAN;
	out->ci_sim_lo = out->ci_sim_hi = out->var_total = NAN;
	out->adj_slope = out->adj_sd_ratio = NAN;
	out->n_a = n_a;
	out->n_b = n_b;
}

static void set_untested(struct st_test *out)
{
	out->kind = ST_TEST_NONE;
	out->se = out->df = out->t = out->p = NAN;
	out->p_greater = out->p_less = out->p_tost = NAN;
	out->ci_lo = out->ci_hi = out->tost_lo = out->tost_hi = NAN;
}

/* Welch's t-test (Welch 1947, Biometrika 34:28-35): se^2 = s_a^2/n_a + s_b^2/n_b; Welch-
 * Satterthwaite df = se^4 / ((s_a^2/n_a)^2/(n_a-1) + (s_b^2/n_b)^2/(n_b-1)) (Satterthwaite 1946,
 * Biometrics Bull. 2:110-114). */
static void welch(struct st_test *out, const struct st_sample *a, const struct st_sample *b)
{
	double va = a->var_log / (double)a->n, vb = b->var_log / (double)b->n;
	double se2 = va + vb;
	out->kind = ST_TEST_WELCH;
	out->se = sqrt(se2);
	if (se2 > 0)
		out->df = se2 * se2 / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	else
		out->df = (double)(a->n + b->n - 2);
}

/* The auto rule: pooled only with equal restarts a side (where the pooled t is robust to
 * unequal variances: Scheffe, "The Analysis of Variance" 1959, sec. 10.3) and no evidence of
 * unequal variances (two-sided F test at var_alpha). Records the F test's p. */
static int auto_pools(struct st_test *out, const struct st_sample *a, const struct st_sample *b,
		      const struct st_compare_opts *opts)
{
	out->var_f_p = var_ratio_p(a->var_log, (double)(a->n - 1), b->var_log, (double)(b->n - 1));
	return a->n == b->n && !(out->var_f_p < opts->var_alpha);
}

/* Pooled (and baseline): pooled variance (Student 1908) of the sides with >= 2 restarts and the
 * baseline, df the sum of theirs, se^2 = s^2 (1/n_a + 1/n_b); adding an independent earlier
 * estimate of the same variance with its df is the classical pooling of variance estimates
 * (Snedecor & Cochran sec. 6.7), i.e. the baseline is prior information with d_b "observations".
 * Moderated t (Smyth 2004, Stat. Appl. Genet. Mol. Biol. 3(1) art. 3, eq. 2-3): s~^2 = (d0 s0^2 +
 * d s^2) / (d0 + d) with s^2 the pooled variance on d df, df = d0 + d. Returns 0, or 1 when
 * nothing estimates the variance (untested). */
static int pooled(struct st_test *out, const struct st_sample *a, const struct st_sample *b,
		  const struct st_compare_opts *opts, int use_base)
{
	struct st_prior pv;
	double ss, df, inv_n = 1.0 / (double)a->n + 1.0 / (double)b->n;
	st_sample_pooled_var(&pv, a, b);
	ss = pv.df > 0 ? pv.df * pv.var : 0;
	df = pv.df;
	out->kind = use_base ? ST_TEST_BASELINE : ST_TEST_POOLED;
	if (use_base) {
		ss += opts->baseline.df * opts->baseline.var;
		df += opts->baseline.df;
		out->base_use = ST_BASE_USED;
		out->base_df = opts->baseline.df;
	}
	if (opts->method == ST_METHOD_EB && opts->eb.df > 0 && isfinite(opts->eb.var)) {
		out->kind = ST_TEST_MODERATED;
		if (isinf(opts->eb.df)) {
			out->df = INFINITY;
			out->se = sqrt(opts->eb.var * inv_n);
			return 0;
		}
		ss += opts->eb.df * opts->eb.var;
		df += opts->eb.df;
	}
	if (df <= 0)
		return 1;
	out->df = df;
	out->se = sqrt(ss / df * inv_n);
	return 0;
}

/* Sets var_total: the total sum of squares of the N log means = within (both sides) + between
 * (n_a n_b / N diff^2), over N - 1. */
static void set_var_total(struct st_test *out, const struct st_sample *a, const struct st_sample *b)
{
	double na = (double)a->n, nb = (double)b->n,
	       ss = na * nb / (na + nb) * out->diff * out->diff;
	if (a->n >= 2)
		ss += (na - 1) * a->var_log;
	if (b->n >= 2)
		ss += (nb - 1) * b->var_log;
	out->var_total = ss / (na + nb - 1);
}

int st_compare(struct st_test *out, const struct st_sample *a, const struct st_sample *b,
	       const struct st_compare_opts *opts, struct errbuf *err)
{
	int both = a->n >= 2 && b->n >= 2;
	int have_base = opts->baseline.df > 0 && isfinite(opts->baseline.var);
	int use_base = have_base, run_welch;

	memset(out, 0, sizeof(*out));
	out->adj_slope = out->adj_sd_ratio = NAN;
	if (a->n == 0 || b->n == 0)
		return errbuf_set(err, "a side has no restarts"), ST_ENODATA;
	if (!(opts->alpha > 0 && opts->alpha < 1))
		return errbuf_set(err, "alpha %g is not in (0, 1)", opts->alpha), ST_EINVAL;
	out->n_a = a->n;
	out->n_b = b->n;
	out->diff = b->mean_log - a->mean_log;
	out->ratio = exp(out->diff);
	out->var_f_p = NAN;
	out->ci_sim_lo = out->ci_sim_hi = NAN;
	set_var_total(out, a, b);
	if (!both && !have_base) {
		set_untested(out);
		return 0;
	}
	run_welch = both && (opts->method == ST_METHOD_WELCH ||
			     (opts->method == ST_METHOD_AUTO && !auto_pools(out, a, b, opts)));
	if (run_welch) {
		welch(out, a, b);
		out->base_use = have_base ? ST_BASE_UNUSED_WELCH : ST_BASE_NONE;
		finish_test(out, opts);
		return 0;
	}
	if (have_base && both && opts->method == ST_METHOD_AUTO) {
		/* The baseline is prior information only while the host's noise is no larger than
		 * it was: dropped when the current pooled variance is significantly larger (one-
		 * sided F test, upper tail). Only that side: dropping it when the current variance
		 * looks smaller would pick the smaller estimate and inflate false alarms. */
		struct st_prior pv;
		st_sample_pooled_var(&pv, a, b);
		if (pv.df > 0 && opts->baseline.var > 0 &&
		    gsl_cdf_fdist_Q(pv.var / opts->baseline.var, pv.df, opts->baseline.df) <
			opts->var_alpha) {
			use_base = 0;
			out->base_use = ST_BASE_UNUSED_NOISE;
		}
	}
	if (pooled(out, a, b, opts, use_base)) {
		set_untested(out);
		return 0;
	}
	finish_test(out, opts);
	return 0;
}

int st_compare_means(struct st_test *out, const double *a, size_t n_a, const double *b, size_t n_b,
		     const struct st_compare_opts *opts, struct errbuf *err)
{
	struct st_sample sa, sb;
	int rc = st_sample_init(&sa, a, n_a, err);
	if (rc == 0)
		rc = st_sample_init(&sb, b, n_b, err);
	if (rc)
		return rc;
	return st_compare(out, &sa, &sb, opts, err);
}

/* Inverse of the trigamma function psi'(x) = y by Newton's method on 1/psi', as in Smyth 2004
 * (limma's trigammaInverse): start x = 0.5 + 1/y, step x += psi'(x)(1 - psi'(x)/y) / psi''(x). */
static double trigamma_inverse(double y)
{
	double x;
	if (y > 1e7)
		return 1 / sqrt(y);
	if (y < 1e-6)
		return 1 / y;
	x = 0.5 + 1 / y;
	for (int i = 0; i < 60; i++) {
		double tri = gsl_sf_psi_1(x);
		double dif = tri * (1 - tri / y) / gsl_sf_psi_n(2, x);
		x += dif;
		if (-dif / x < 1e-10)
			break;
	}
	return x;
}

/* Empirical-Bayes prior for variances (Smyth 2004, sec. 6.2, "fitFDist"): with z_i = log s_i^2
 * and e_i = z_i - psi(d_i/2) + log(d_i/2), the prior s_i^2 ~ s0^2 F(d_i, d0) gives
 * E e_i = log s0^2 + psi(d0/2) - log(d0/2) and Var e_i = psi'(d_i/2) + psi'(d0/2). So
 * psi'(d0/2) = mean((e_i - ebar)^2 m/(m-1) - psi'(d_i/2)); if that is <= 0, d0 = infinity
 * (no extra spread: all variances are equal); s0^2 = exp(ebar + psi(d0/2) - log(d0/2)). */
int st_eb_prior_fit(struct st_prior *out, const double *var, const double *df, size_t m,
		    struct errbuf *err)
{
	double sum_e = 0, sum_tri = 0, ss = 0, ebar, rhs;
	size_t g = 0;

	out->var = NAN;
	out->df = 0;
	for (size_t i = 0; i < m; i++) {
		if (!(df[i] > 0) || !isfinite(var[i]) || var[i] <= 0)
			continue;
		sum_e += log(var[i]) - gsl_sf_psi(df[i] / 2) + log(df[i] / 2);
		sum_tri += gsl_sf_psi_1(df[i] / 2);
		g++;
	}
	if (g < 3)
		return errbuf_set(err, "%zu queries with a restart variance, need 3", g),
		       ST_ENODATA;
	ebar = sum_e / (double)g;
	for (size_t i = 0; i < m; i++) {
		double e;
		if (!(df[i] > 0) || !isfinite(var[i]) || var[i] <= 0)
			continue;
		e = log(var[i]) - gsl_sf_psi(df[i] / 2) + log(df[i] / 2);
		ss += (e - ebar) * (e - ebar);
	}
	rhs = ss / (double)(g - 1) - sum_tri / (double)g;
	if (rhs > 0) {
		double d0 = 2 * trigamma_inverse(rhs);
		out->df = d0;
		out->var = exp(ebar + gsl_sf_psi(d0 / 2) - log(d0 / 2));
	} else {
		out->df = INFINITY;
		out->var = exp(ebar);
	}
	return 0;
}

int st_compare_all(struct st_test *out, struct st_prior *out_prior, const struct st_sample *a,
		   const struct st_sample *b, size_t m, const struct st_prior *baseline,
		   const struct st_compare_opts *opts, struct errbuf *err)
{
	struct st_compare_opts o = *opts;
	int rc = 0;

	o.eb.df = 0;
	o.eb.var = NAN;
	if (opts->method == ST_METHOD_EB) {
		double *v = malloc(2 * (m ? m : 1) * sizeof(double)), *d;
		struct errbuf ignore;
		if (!v)
			return errbuf_set(err, "out of memory"), ST_EINVAL;
		d = v + m;
		for (size_t i = 0; i < m; i++) {
			struct st_prior p;
			st_sample_pooled_var(&p, &a[i], &b[i]);
			v[i] = p.var;
			d[i] = p.df;
		}
		if (st_eb_prior_fit(&o.eb, v, d, m, &ignore) != 0)
			o.method = ST_METHOD_WELCH;
		free(v);
	}
	if (out_prior)
		*out_prior = o.eb;
	for (size_t i = 0; i < m && rc == 0; i++) {
		if (baseline)
			o.baseline = baseline[i];
		rc = st_compare(&out[i], &a[i], &b[i], &o, err);
	}
	return rc;
}

const char *st_verdict_name(enum st_verdict v)
{
	static const char *const names[] = {[ST_VERDICT_UNCHANGED] = "unchanged",
					    [ST_VERDICT_IMPROVEMENT] = "improvement",
					    [ST_VERDICT_REGRESSION] = "regression",
					    [ST_VERDICT_INCONCLUSIVE] = "inconclusive"};
	return UTIL_ENUM_NAME(names, v, "?");
}

const char *st_method_name(enum st_method m)
{
	return m == ST_METHOD_EB       ? "eb"
	       : m == ST_METHOD_POOLED ? "pooled"
	       : m == ST_METHOD_AUTO   ? "auto"
				       : "welch";
}

int st_method_parse(const char *s, enum st_method *out)
{
	if (strcmp(s, "welch") == 0)
		*out = ST_METHOD_WELCH;
	else if (strcmp(s, "eb") == 0)
		*out = ST_METHOD_EB;
	else if (strcmp(s, "pooled") == 0)
		*out = ST_METHOD_POOLED;
	else if (strcmp(s, "auto") == 0)
		*out = ST_METHOD_AUTO;
	else
		return -1;
	return 0;
}

const char *st_correction_name(enum st_correction c)
{
	return c == ST_CORR_BH ? "bh" : c == ST_CORR_NONE ? "none" : "holm";
}

int st_correction_parse(const char *s, enum st_correction *out)
{
	if (strcmp(s, "holm") == 0)
		*out = ST_CORR_HOLM;
	else if (strcmp(s, "bh") == 0)
		*out = ST_CORR_BH;
	else if (strcmp(s, "none") == 0)
		*out = ST_CORR_NONE;
	else
		return -1;
	return 0;
}
