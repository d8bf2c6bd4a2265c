/* SPDX-License-Identifier: MIT */
/* Between-restart variance of a setting against the default's (stabilize, docs/stability.md). */
#ifndef DBT3_ST_VAR_H
#define DBT3_ST_VAR_H
#include <stddef.h>

/* Sample SD (n - 1) of the natural logs of x[0..n-1] (all > 0); NAN when n < 2. */
double st_log_sd(const double *x, size_t n);

/* The ratio of two variance estimates with its equal-tailed 1 - alpha CI:
 * ratio = (ss1/df1) / (ss2/df2); CI = [ratio / F(1-alpha/2; df1, df2), ratio / F(alpha/2;
 * df1, df2)] (the F distribution of the ratio of two independent chi-square variances over
 * their df; e.g. Snedecor & Cochran, Statistical Methods, 8th ed., sec. 6.12). 0, or -1 when
 * a df is not positive or ss2 is 0. */
int st_var_ratio_ci(double ss1, double df1, double ss2, double df2, double alpha, double *out_ratio,
		    double *out_lo, double *out_hi);

/* One-sided permutation test that setting A's restarts scatter less than setting B's, the
 * queries of a restart kept together (they share the restart, so they are not independent and
 * the F CI above is too narrow; docs/statistics.md, "Stabilizers"). a: na restarts x nq
 * queries, row-major, natural logs of the restart means (all finite); b: nb x nq likewise.
 * Each setting's restarts become their na - 1 (nb - 1) Helmert contrasts, which for i.i.d.
 * normal restart vectors are i.i.d. N(0, Sigma) whatever the setting's mean; a contrast's
 * weight is its squared length over the queries. *out_ratio = A's mean weight over B's =
 * sum_q s2_qA / sum_q s2_qB (the pooled variance ratio). Under H0 (both settings' restart
 * vectors have one covariance, whatever the correlation between queries) the weights are
 * exchangeable, so the test is exact: *out_p is the share of the C(na + nb - 2, na - 1) ways
 * to split them whose A-sum is at most the observed one (Lehmann & Romano, Testing Statistical
 * Hypotheses, 3rd ed., sec. 15.2, the randomization hypothesis) — every split when there are
 * at most ST_PERM_EXACT_MAX, else ST_PERM_RANDOM random splits drawn from seed (mt19937) with
 * p = (1 + hits) / (1 + ST_PERM_RANDOM) (Phipson & Smyth, Stat. Appl. Genet. Mol. Biol. 9(1),
 * 2010). The contrasts follow the rows' order (fixed before the data: the rounds). 0, or -1
 * when na or nb < 2, nq < 1, na + nb > 512 or B's weights are all 0. */
#define ST_PERM_EXACT_MAX 2000000.0
#define ST_PERM_RANDOM 200000
int st_var_perm_test(const double *a, size_t na, const double *b, size_t nb, size_t nq,
		     unsigned long seed, double *out_ratio, double *out_p);

/* The smallest p st_var_perm_test can give with na and nb restarts: one split of the
 * C(na + nb - 2, na - 1); NAN below 2 restarts a side. */
double st_var_perm_min_p(size_t na, size_t nb);

#endif
