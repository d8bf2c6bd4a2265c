/* SPDX-License-Identifier: MIT */
/* Mann-Kendall trend test for the warm-up check of the runs within one restart. */
#include "stats/st.h"
#include "base/util.h"
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ST_MK_EXACT_MAX 40

/* Exact two-sided P(|S| >= |s|) without ties. S = N - 2I with N = n(n-1)/2 and I the number of
 * inversions of a random permutation, whose distribution (Mahonian numbers) is built one element
 * at a time: adding the k-th element adds 0..k-1 inversions, each with probability 1/k
 * (Kendall & Gibbons, "Rank Correlation Methods", 5th ed. 1990, ch. 4). Returns NaN on ENOMEM. */
static double mk_exact_p(size_t n, double s)
{
	size_t nmax = n * (n - 1) / 2, lim;
	double *f = calloc(2 * (nmax + 1), sizeof(double)), *g, p = 0;
	if (!f)
		return NAN;
	g = f + nmax + 1;
	f[0] = 1;
	for (size_t k = 2; k <= n; k++) {
		size_t top = k * (k - 1) / 2;
		/* g[i] = (1/k) sum_{j=0}^{k-1} f[i-j], a sliding window sum */
		double win = 0;
		for (size_t i = 0; i <= top; i++) {
			win += f[i];
			if (i >= k)
				win -= f[i - k];
			g[i] = win / (double)k;
		}
		memcpy(f, g, (top + 1) * sizeof(double));
	}
	/* P(S >= |s|) = P(I <= (N - |s|) / 2) */
	lim = (size_t)(((double)nmax - fabs(s)) / 2 + 0.5);
	for (size_t i = 0; i <= lim && i <= nmax; i++)
		p += f[i];
	free(f);
	p = s == 0 ? 1 : 2 * p;
	return p > 1 ? 1 : p;
}

/* Mann (1945, Econometrica 13:245-259), Kendall (1975, "Rank Correlation Methods"), as in Gilbert
 * (1987, "Statistical Methods for Environmental Pollution Monitoring", sec. 16.4):
 * S = sum_{i<j} sign(x_j - x_i); Var S = [n(n-1)(2n+5) - sum_t t(t-1)(2t+5)] / 18 over tie groups
 * of size t; Z = (S - sign(S)) / sqrt(Var S); two-sided p = 2 Q(|Z|), or the exact permutation
 * p without ties for n <= 40. tau-b = S / sqrt((N - T_x) N) with T_x = sum t(t-1)/2 (Kendall
 * 1945). Sen's slope: median of (x_j - x_i) / (j - i) (Sen 1968, JASA 63:1379-1389). */
int st_mann_kendall(struct st_mk *out, const double *x, size_t n, struct errbuf *err)
{
	double *sorted = NULL, *slopes = NULL, s = 0, ties = 0, tx = 0, nn;
	size_t np, k = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (n < 3)
		return errbuf_set(err, "%zu values, the trend test needs 3", n), ST_ENODATA;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return errbuf_set(err, "value %zu is not finite", i), ST_EINVAL;
	np = n * (n - 1) / 2;
	sorted = malloc(n * sizeof(double));
	slopes = malloc(np * sizeof(double));
	if (!sorted || !slopes) {
		rc = errbuf_set(err, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			s += (x[j] > x[i]) - (x[j] < x[i]);
			slopes[k++] = (x[j] - x[i]) / (double)(j - i);
		}
	memcpy(sorted, x, n * sizeof(double));
	util_sort_doubles(sorted, n);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && sorted[j] == sorted[i])
			j++;
		if (j - i > 1) {
			double t = (double)(j - i);
			ties += t * (t - 1) * (2 * t + 5);
			tx += t * (t - 1) / 2;
		}
		i = j;
	}
	util_sort_doubles(slopes, np);
	nn = (double)n;
	out->n = n;
	out->s = s;
	out->var_s = (nn * (nn - 1) * (2 * nn + 5) - ties) / 18;
	out->slope = util_median_sorted(slopes, np);
	if (out->var_s > 0) {
		out->z = s > 0	 ? (s - 1) / sqrt(out->var_s)
			 : s < 0 ? (s + 1) / sqrt(out->var_s)
				 : 0;
		out->tau = s / sqrt(((double)np - tx) * (double)np);
	}
	if (out->var_s <= 0) {
		out->p = 1;
	} else {
		double pe = ties == 0 && n <= ST_MK_EXACT_MAX ? mk_exact_p(n, s) : NAN;
		out->exact = !isnan(pe);
		out->p = out->exact ? pe : fmin(1, 2 * gsl_cdf_ugaussian_Q(fabs(out->z)));
	}
done:
	free(sorted);
	free(slopes);
	return rc < 0 ? ST_EINVAL : 0;
}

int st_not_steady(const double *x, size_t n, double alpha)
{
	struct st_mk mk;
	if (st_mann_kendall(&mk, x, n, NULL) != 0)
		return 0;
	return mk.p < alpha;
}
