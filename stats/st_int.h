/* SPDX-License-Identifier: MIT */
/* Helpers the files of stats/ share; not for other modules. */
#ifndef DBT3_ST_INT_H
#define DBT3_ST_INT_H
#include <stddef.h>

struct st_test;

/* An untested comparison of n_a and n_b restarts: kind ST_TEST_NONE, every figure NaN (the
 * start of the tests filled outside st_compare: paired, adjusted). */
void st_test_init_none(struct st_test *out, size_t n_a, size_t n_b);

/* Sample variance of x[0..n) with n - 1 in the denominator (two-pass); NaN for n < 2.
 * out_mean (may be NULL) gets the mean. */
double st_sample_var(const double *x, size_t n, double *out_mean);

/* st.c's helpers st_verdict.c uses too: x[0..n) all finite and positive (times); the upper tail
 * P(T > t) and the quantile t_{p, df} of Student's t (the normal above 1e7 df). */
int st_valid_times(const double *x, size_t n);
double st_t_upper(double t, double df);
double st_t_quantile(double p, double df);

#endif
