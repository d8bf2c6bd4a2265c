/* SPDX-License-Identifier: MIT */
/* Comparing two results with a covariate the build cannot change (compare --adjust-memory:
 * the memory-contention probe of each restart): the analysis of covariance, two-sample or on
 * the pairs of an interleaved run. It removes from the restart noise the part the covariate
 * explains, at the price of one degree of freedom (docs/statistics.md, "Adjusting for memory
 * contention"). */
#ifndef DBT3_ST_ADJUST_H
#define DBT3_ST_ADJUST_H
#include "stats/st.h"

/* The most pairs a paired adjusted test takes (that of a run is far below). */
#define ST_ADJ_MAX_PAIRS 1024

/* Two samples of restart means a[na] and b[nb] (ms, > 0) with a covariate per restart xa, xb:
 * the difference of the mean logs adjusted to a common covariate value, its se on
 * na + nb - 3 df, ST_TEST_ADJUSTED; ST_ENODATA with fewer than 4 restarts in all, a side
 * without 2, or a covariate that does not vary within the sides. */
int st_compare_adjusted(struct st_test *out, const double *a, const double *xa, size_t na,
			const double *b, const double *xb, size_t nb,
			const struct st_compare_opts *o, struct errbuf *err);

/* n pairs of restart means (a[i], b[i]) with their covariates: the mean log ratio adjusted to
 * equal covariates within a pair, its se on n - 2 df, ST_TEST_PAIRED_ADJUSTED; ST_ENODATA with
 * fewer than 3 pairs or a difference of covariates that never varies. */
int st_compare_paired_adjusted(struct st_test *out, const double *a, const double *b,
			       const double *xa, const double *xb, size_t n,
			       const struct st_compare_opts *o, struct errbuf *err);

#endif
