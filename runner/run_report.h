/* SPDX-License-Identifier: MIT */
/* What run prints at the end: the per-query table (mean, within- and between-restart CoV) and
 * the notes (not steady, timeouts, crashes, errors, results or plans that differ). */
#ifndef DBT3_RUN_REPORT_H
#define DBT3_RUN_REPORT_H
#include "result/res.h"
#include "runner/run.h"
#include <stdio.h>

/* The table of one result file; name (a variant) may be NULL. -1 on a write error. */
int run_report_table(FILE *f, const struct res_file *res, const char *name);

/* Sets the top-level "verdict_cost" of a finished res: what a 5 % and a 10 % verdict cost on
 * this host (stats/st_cost.h, compare's default test). -1 when out of memory. */
int run_report_cost_update(struct res_file *res);

/* Notes over all targets; returns how many notes were printed. */
int run_report_notes(FILE *f, const struct run_target *targets, int n);

#endif
