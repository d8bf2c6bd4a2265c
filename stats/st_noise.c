/* SPDX-License-Identifier: MIT */
/* The noise of one query shown honestly: sd of log restart means with its CI and bound, its
 * within/between split, and the run-position (warm-up transient) effect across restarts. */
#include "stats/st.h"
#include "stats/st_int.h"
#include "base/util.h"
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* (df s^2 / sigma^2) ~ chi^2_df for normal data, so the two-sided CI of sigma is
 * [s sqrt(df / chi^2_{(1+L)/2, df}), s sqrt(df / chi^2_{(1-L)/2, df})] and the one-sided upper
 * bound s sqrt(df / chi^2_{1-L, df}) (e.g. Snedecor & Cochran, "Statistical Methods", 8th ed.,
 * sec. 5.9; NIST/SEMATECH e-Handbook 7.2.3.1). */
void st_sd_ci(double *out_lo, double *out_hi, double *out_ucb, double s, double df, double level)
{
	double lo = NAN, hi = NAN, ucb = NAN;
	if (isfinite(s) && s >= 0 && df > 0 && level > 0 && level < 1) {
		lo = s * sqrt(df / gsl_cdf_chisq_Pinv((1 + level) / 2, df));
		hi = s * sqrt(df / gsl_cdf_chisq_Pinv((1 - level) / 2, df));
		ucb = s * sqrt(df / gsl_cdf_chisq_Pinv(1 - level, df));
	}
	if (out_lo)
		*out_lo = lo;
	if (out_hi)
		*out_hi = hi;
	if (out_ucb)
		*out_ucb = ucb;
}

/* Var(log mean of n_r runs) = sigma_b^2 + sigma_w^2 / n_r to first order (delta method, with
 * sigma_w the sd of log runs within a restart; nested design: Searle, Casella & McCulloch 1992,
 * sec. 3.6), averaged over the restarts: within part sigma_w^2 mean(1/n_r) with sigma_w^2 the
 * pooled within-restart variance of the log runs; the between part is what remains of the
 * observed variance of the log restart means, truncated at 0 (its upper bound is that of the
 * total, sd_ucb, since sigma_b^2 <= sigma_b^2 + sigma_w^2 mean(1/n_r)). */
int st_noise_compute(struct st_noise *out, const double *runs, const size_t *nruns, size_t k,
		     double level, struct errbuf *err)
{
	double *lm, ss_w = 0, df_w = 0, inv_n = 0;
	size_t off = 0;

	memset(out, 0, sizeof(*out));
	if (k < 2)
		return errbuf_set(err, "the noise needs at least 2 restarts"), ST_ENODATA;
	lm = malloc(k * sizeof(double));
	if (!lm)
		return errbuf_set(err, "out of memory"), ST_EINVAL;
	for (size_t i = 0; i < k; i++) {
		double s = 0, lmean = 0;
		if (nruns[i] == 0) {
			free(lm);
			return errbuf_set(err, "restart %zu has no measured runs", i), ST_ENODATA;
		}
		for (size_t j = 0; j < nruns[i]; j++) {
			double x = runs[off + j];
			if (!isfinite(x) || x <= 0) {
				free(lm);
				return errbuf_set(err, "restart %zu has a time that is not "
						       "finite and > 0", i),
				       ST_EINVAL;
			}
			s += x;
			lmean += log(x);
		}
		lmean /= (double)nruns[i];
		for (size_t j = 0; j < nruns[i]; j++) {
			double d = log(runs[off + j]) - lmean;
			ss_w += d * d;
		}
		df_w += (double)(nruns[i] - 1);
		inv_n += 1.0 / (double)nruns[i];
		lm[i] = log(s / (double)nruns[i]);
		off += nruns[i];
	}
	out->k = k;
	out->sd_log = sqrt(st_sample_var(lm, k, NULL));
	free(lm);
	st_sd_ci(&out->sd_lo, &out->sd_hi, &out->sd_ucb, out->sd_log, (double)(k - 1), level);
	{
		double vw = df_w > 0 ? ss_w / df_w * inv_n / (double)k : 0;
		double vb = out->sd_log * out->sd_log - vw;
		out->sd_within = sqrt(vw);
		out->sd_between = vb > 0 ? sqrt(vb) : 0;
	}
	return 0;
}

/* Two-way ANOVA without replication (one observation per restart x position cell; e.g.
 * Montgomery, "Design and Analysis of Experiments", 8th ed., sec. 5.3.4, or Snedecor & Cochran
 * sec. 14.2) on log runs y_ij, i restart, j position: SS_pos = k sum_j (ybar_.j - ybar)^2, SS_rst
 * = n sum_i (ybar_i. - ybar)^2, SS_res = SS_tot - SS_pos - SS_rst on (k-1)(n-1) df; F = MS_pos /
 * MS_res. A position's effect e_j = ybar_.j - median_j ybar_.j (relative to the typical
 * position, so a transient in a few positions does not make every other one look shifted);
 * flagged when |e_j| / sqrt(2 MS_res / k) > t_{1 - alpha/(2n), df_res}: the Bonferroni bound
 * over n contrasts of two position means (conservative when the median is an average of two
 * positions, approximate because the reference is chosen from the data). */
int st_position_effect(struct st_position *out, double *out_effect, int *out_flag,
		       size_t max_n, const double *runs, const size_t *nruns, size_t k,
		       double alpha, struct errbuf *err)
{
	size_t n = (size_t)-1, off = 0;
	double *y, grand = 0, ss_tot = 0, ss_pos = 0, ss_rst = 0, df_res, se, crit;

	memset(out, 0, sizeof(*out));
	out->f = out->p = out->ms_res = NAN;
	for (size_t i = 0; i < k; i++)
		n = nruns[i] < n ? nruns[i] : n;
	if (k < 2 || n < 2 || n == (size_t)-1)
		return errbuf_set(err, "a position effect needs 2 restarts of 2 runs"), ST_ENODATA;
	if (n > max_n)
		n = max_n;
	y = malloc(k * n * sizeof(double));
	if (!y)
		return errbuf_set(err, "out of memory"), ST_EINVAL;
	for (size_t i = 0; i < k; i++) {
		for (size_t j = 0; j < n; j++) {
			double x = runs[off + j];
			if (!isfinite(x) || x <= 0) {
				free(y);
				return errbuf_set(err, "a run time is not finite and > 0"),
				       ST_EINVAL;
			}
			y[i * n + j] = log(x);
			grand += y[i * n + j];
		}
		off += nruns[i];
	}
	grand /= (double)(k * n);
	for (size_t i = 0; i < k; i++) {
		double m = 0;
		for (size_t j = 0; j < n; j++) {
			m += y[i * n + j];
			ss_tot += (y[i * n + j] - grand) * (y[i * n + j] - grand);
		}
		m /= (double)n;
		ss_rst += (double)n * (m - grand) * (m - grand);
	}
	for (size_t j = 0; j < n; j++) {
		double m = 0;
		for (size_t i = 0; i < k; i++)
			m += y[i * n + j];
		m /= (double)k;
		ss_pos += (double)k * (m - grand) * (m - grand);
		y[j] = m; /* row 0 is no longer needed: position means */
	}
	if (out_effect) {
		double med, *srt = malloc(n * sizeof(double));
		if (!srt) {
			free(y);
			return errbuf_set(err, "out of memory"), ST_EINVAL;
		}
		memcpy(srt, y, n * sizeof(double));
		util_sort_doubles(srt, n);
		med = util_median_sorted(srt, n);
		free(srt);
		for (size_t j = 0; j < n; j++)
			out_effect[j] = y[j] - med;
	}
	free(y);
	df_res = (double)((k - 1) * (n - 1));
	out->k = k;
	out->n = n;
	out->ms_res = fmax(0, ss_tot - ss_pos - ss_rst) / df_res;
	if (out->ms_res > 0) {
		out->f = ss_pos / (double)(n - 1) / out->ms_res;
		out->p = gsl_cdf_fdist_Q(out->f, (double)(n - 1), df_res);
	} else {
		out->f = ss_pos > 0 ? INFINITY : NAN;
		out->p = ss_pos > 0 ? 0 : 1;
	}
	se = sqrt(2 * out->ms_res / (double)k);
	crit = gsl_cdf_tdist_Pinv(1 - alpha / (2.0 * (double)n), df_res);
	if (out_flag && out_effect)
		for (size_t j = 0; j < n; j++)
			out_flag[j] = se > 0 ? fabs(out_effect[j]) / se > crit : out_effect[j] != 0;
	return 0;
}
