/* SPDX-License-Identifier: MIT */
/* Between-restart variance of a setting against the default's (stats/st_var.h). */
#include "stats/st_var.h"
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>

double st_log_sd(const double *x, size_t n)
{
	double mean = 0, ss = 0;
	if (n < 2)
		return NAN;
	for (size_t i = 0; i < n; i++)
		mean += log(x[i]);
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (log(x[i]) - mean) * (log(x[i]) - mean);
	return sqrt(ss / (double)(n - 1));
}

/* F-based CI of a variance ratio: (s1^2/s2^2) / F_{1-a/2}(df1, df2) .. (s1^2/s2^2) /
 * F_{a/2}(df1, df2) (Snedecor & Cochran, Statistical Methods, 8th ed., sec. 6.12). */
int st_var_ratio_ci(double ss1, double df1, double ss2, double df2, double alpha, double *out_ratio,
		    double *out_lo, double *out_hi)
{
	if (!(df1 > 0) || !(df2 > 0) || !(ss2 > 0) || !(ss1 >= 0) || !(alpha > 0 && alpha < 1))
		return -1;
	double r = (ss1 / df1) / (ss2 / df2);
	*out_ratio = r;
	*out_lo = r / gsl_cdf_fdist_Pinv(1 - alpha / 2, df1, df2);
	*out_hi = r / gsl_cdf_fdist_Pinv(alpha / 2, df1, df2);
	return 0;
}

/* The k - 1 Helmert contrasts of k restarts (rows of x, nq columns), each contrast's squares
 * summed over the queries into w[0..k-2]: contrast j = (x_0 + ... + x_(j-1) - j x_j) /
 * sqrt(j (j + 1)), j = 1 .. k-1. For i.i.d. normal restart vectors these are i.i.d. N(0, Sigma)
 * whatever the mean, and their squares add up to the sum of squared deviations (Lancaster, The
 * Helmert matrices, Amer. Math. Monthly 72 (1965) 4-12). */
static void helmert_weights(const double *x, size_t k, size_t nq, double *w)
{
	for (size_t j = 1; j < k; j++) {
		double norm = sqrt((double)j * (double)(j + 1));
		w[j - 1] = 0;
		for (size_t q = 0; q < nq; q++) {
			double h = -(double)j * x[j * nq + q];
			for (size_t i = 0; i < j; i++)
				h += x[i * nq + q];
			h /= norm;
			w[j - 1] += h * h;
		}
	}
}

struct perm_walk {
	const double *w;
	size_t n;
	double limit; /* the observed sum of A's weights, with room for rounding */
	double hits, total;
};

/* Every subset of w[start..n-1] of size left, added to sum: counts those at most the limit. */
static void perm_count(struct perm_walk *pw, size_t start, size_t left, double sum)
{
	if (left == 0) {
		pw->total++;
		pw->hits += sum <= pw->limit;
		return;
	}
	for (size_t i = start; i + left <= pw->n; i++)
		perm_count(pw, i + 1, left - 1, sum + pw->w[i]);
}

static double perm_random(const double *w, size_t n, size_t na, double limit, unsigned long seed)
{
	size_t idx[512], pick[512];
	double hits = 0;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!r)
		return NAN;
	gsl_rng_set(r, seed);
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	for (int k = 0; k < ST_PERM_RANDOM; k++) {
		double sum = 0;
		gsl_ran_choose(r, pick, na, idx, n, sizeof(size_t));
		for (size_t i = 0; i < na; i++)
			sum += w[pick[i]];
		hits += sum <= limit;
	}
	gsl_rng_free(r);
	return (1 + hits) / (1 + (double)ST_PERM_RANDOM);
}

/* C(n, k), or once the product passes cap a number above cap (so that a count too large to
 * list stops early). */
static double choose_capped(size_t n, size_t k, double cap)
{
	double c = 1;
	for (size_t i = 1; i <= k && c <= cap; i++)
		c = c * (double)(n - k + i) / (double)i;
	return c;
}

double st_var_perm_min_p(size_t na, size_t nb)
{
	if (na < 2 || nb < 2)
		return NAN;
	return 1 / choose_capped(na + nb - 2, na - 1, INFINITY);
}

int st_var_perm_test(const double *a, size_t na, const double *b, size_t nb, size_t nq,
		     unsigned long seed, double *out_ratio, double *out_p)
{
	double w[512], sa = 0, sb = 0;
	size_t ma = na - 1, mb = nb - 1, n = ma + mb;
	if (na < 2 || nb < 2 || nq < 1 || na + nb > 512)
		return -1;
	helmert_weights(a, na, nq, w);
	helmert_weights(b, nb, nq, w + ma);
	for (size_t i = 0; i < ma; i++)
		sa += w[i];
	for (size_t i = ma; i < n; i++)
		sb += w[i];
	if (!(sb > 0))
		return -1;
	*out_ratio = (sa / (double)ma) / (sb / (double)mb);
	double limit = sa + 1e-12 * (sa + sb);
	if (choose_capped(n, ma, ST_PERM_EXACT_MAX) <= ST_PERM_EXACT_MAX) {
		struct perm_walk pw = {w, n, limit, 0, 0};
		perm_count(&pw, 0, ma, 0);
		*out_p = pw.hits / pw.total;
	} else {
		*out_p = perm_random(w, n, ma, limit, seed);
	}
	return 0;
}
