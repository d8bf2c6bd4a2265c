/* SPDX-License-Identifier: MIT */
/* Between-restart variance of a setting against the default's (stats/st_stab.h). */
#include "stats/st_stab.h"
#include <gsl/gsl_cdf.h>
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
