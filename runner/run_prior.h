/* SPDX-License-Identifier: MIT */
/* `run --costs-from FILE`: an earlier result's execution times as the first estimate of each
 * query's cost, so that a budget run paces its first restart by cost and says up front when
 * the restarts --min-restarts owes cannot fit (docs/run.md, "--costs-from"). */
#ifndef DBT3_RUN_PRIOR_H
#define DBT3_RUN_PRIOR_H
#include "base/util.h"
#include "runner/run.h"

/* out_ms[q]: the mean of every execution (warm-up and measured) of query Qq in the ok restarts
 * of the result file at path, 0 for a query the file lacks (out_ms[0] unused). *out_fixed_s:
 * what a restart costs besides its executions (server start and stop, plans, fingerprints):
 * the budget record's server_start_stop_s when the file has one, else the file's wall time
 * less its executions over its restarts; 0 (unknown) for a variant of a run without --budget,
 * whose wall time holds the other variants' restarts too. 0, or -1 with a message when the file
 * cannot be read, was measured at another scale factor than scale, with --instructions when
 * `instructions` is 0 or without it when it is 1 (Valgrind's slowdown), or holds no ok
 * execution. */
int run_prior_costs(const char *path, double scale, int instructions,
		    double out_ms[RUN_MAX_QUERIES + 1], double *out_fixed_s, struct errbuf *err);

#endif
