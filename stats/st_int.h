/* SPDX-License-Identifier: MIT */
/* Helpers the files of stats/ share; not for other modules. */
#ifndef DBT3_ST_INT_H
#define DBT3_ST_INT_H
#include <stddef.h>

/* Sample variance of x[0..n) with n - 1 in the denominator (two-pass); NaN for n < 2.
 * out_mean (may be NULL) gets the mean. */
double st_sample_var(const double *x, size_t n, double *out_mean);

#endif
