/* SPDX-License-Identifier: MIT */
/* Exact critical values of group-sequential t-tests under H0: the crossing probabilities of the
 * t statistics themselves, not of normal scores converted to t (Jennison & Turnbull 1991).
 * Method and references above st_seq_t_bounds in st_seq_tbounds.c and in docs/statistics.md. */
#ifndef DBT3_ST_SEQ_TBOUNDS_H
#define DBT3_ST_SEQ_TBOUNDS_H
#include "stats/st.h"
#include <stddef.h>

/* Which t statistic a look computes after k pairs (one unit of information per pair). */
enum st_seq_t_kind {
	ST_SEQ_T_ONE_SAMPLE = 0, /* t on the k log ratios of the pairs: df k - 1 */
	ST_SEQ_T_POOLED = 1,	 /* pooled two-sample t, k a side: df 2k - 2 */
};

/* Degrees of freedom of the t statistic of `kind` after k pairs. */
double st_seq_t_df(enum st_seq_t_kind kind, size_t k);

/* Symmetric critical values t_out[k] for looks k = first .. last (first >= 2) such that under H0
 * P(T_k > t_k, |T_j| < t_j for first <= j < k) = delta[k] exactly (up to the quadrature), the
 * probability one side of the design spends at look k; t_out[k] = INFINITY where delta[k] <= 0.
 * Entries outside [first, last] are not touched. ST_EINVAL for first < 2, last < first, a
 * delta[k] that is not finite or whose sum over the looks is >= 0.5. */
int st_seq_t_bounds(double *t_out, const double *delta, size_t first, size_t last,
		    enum st_seq_t_kind kind, struct errbuf *err);

/* The same when the variance is pooled with an independent earlier estimate of it on prior_df
 * degrees of freedom (a baseline's chi^2 component, scaled: st_seq_state_set_prior): the t of
 * look k then has st_seq_t_df(kind, k) + prior_df df, and with prior_df >= 1 a look may come
 * after the first pair (first >= 1). prior_df 0 is st_seq_t_bounds. ST_EINVAL also for a
 * prior_df that is negative, not a whole number or above ST_SEQ_T_MAX_PRIOR_DF. */
#define ST_SEQ_T_MAX_PRIOR_DF 100000
int st_seq_t_bounds_prior(double *t_out, const double *delta, size_t first, size_t last,
			  enum st_seq_t_kind kind, double prior_df, struct errbuf *err);

#endif
