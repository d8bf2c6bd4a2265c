/* SPDX-License-Identifier: MIT */
/* What the Monte Carlo tests share: the replicate scale from DBT3_MC_SCALE (1 in ctest; the
 * tables of docs/ at 10), a share of replicates and its binomial standard error. */
#ifndef DBT3_TEST_TH_MC_H
#define DBT3_TEST_TH_MC_H
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

static inline double th_mc_scale(void)
{
	const char *s = getenv("DBT3_MC_SCALE");
	double v = s ? strtod(s, NULL) : 1;
	return v > 0 && v < 1000 ? v : 1;
}

static inline double th_mc_share(size_t k, size_t n)
{
	return (double)k / (double)n;
}

/* Binomial standard error of a share p from n replicates. */
static inline double th_mc_se(double p, size_t n)
{
	return sqrt(p * (1 - p) / (double)n);
}

#endif
