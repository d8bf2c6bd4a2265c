/* SPDX-License-Identifier: MIT */
/* Between-restart variance of a setting against the default's (stabilize, docs/stability.md). */
#ifndef DBT3_ST_STAB_H
#define DBT3_ST_STAB_H
#include <stddef.h>

/* Sample SD (n - 1) of the natural logs of x[0..n-1] (all > 0); NAN when n < 2. */
double st_log_sd(const double *x, size_t n);

/* The ratio of two variance estimates with its equal-tailed 1 - alpha CI:
 * ratio = (ss1/df1) / (ss2/df2); CI = [ratio / F(1-alpha/2; df1, df2), ratio / F(alpha/2;
 * df1, df2)] (the F distribution of the ratio of two independent chi-square variances over
 * their df; e.g. Snedecor & Cochran, Statistical Methods, 8th ed., sec. 6.12). 0, or -1 when
 * a df is not positive or ss2 is 0. */
int st_var_ratio_ci(double ss1, double df1, double ss2, double df2, double alpha,
		    double *out_ratio, double *out_lo, double *out_hi);

#endif
