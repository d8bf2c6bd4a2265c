/* SPDX-License-Identifier: MIT */
/* The `not_steady` check of a result file: a Mann-Kendall trend test on the measured runs of
 * every query x restart, corrected for their number (Holm) so that a run of steady series is
 * flagged anywhere with probability <= alpha, not in several places by chance. */
#ifndef DBT3_RUN_STEADY_H
#define DBT3_RUN_STEADY_H
#include "result/res.h"
#include <stddef.h>

/* Fewest measured runs the trend test is applied to. */
#define RUN_STEADY_MIN_RUNS 3

/* flags[i] = 1 when the Holm-adjusted p (Holm 1979, over the m entries that are not NaN) of p[i]
 * is below alpha, else 0. Returns the number flagged. The family-wise rate of flagging a steady
 * series is <= alpha (tests/data/run_budget_ref.R: 0.039 for 22 x 5 series of 10 runs, against
 * 0.995 uncorrected at 0.05 each). */
size_t run_steady_holm(int *flags, const double *p, size_t m, double alpha);

/* Recomputes not_steady for every restart of res: the two-sided Mann-Kendall p of its measured
 * runs (status ok, >= RUN_STEADY_MIN_RUNS runs) stored as extra "trend_p", the family being all
 * such entries of the file. Returns the number flagged, or -1 when out of memory. */
int run_steady_flags(struct res_file *res, double alpha);

#endif
