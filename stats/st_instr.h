/* SPDX-License-Identifier: MIT */
/* Instruction counts of one query in two files (run --instructions): each file's restart means,
 * their spread, and the rule that calls the counts changed (docs/statistics.md, "Instructions").
 * compare (reports/rpt_instr.c) and run --budget (runner/run_budget_plan.c) decide by it. */
#ifndef DBT3_ST_INSTR_H
#define DBT3_ST_INSTR_H
#include "result/res.h"
#include <stddef.h>

/* Changed when the counts' ratio is more than ST_INSTR_TOL + ST_INSTR_K x (the two files'
 * restart spreads) away from 1. */
#define ST_INSTR_TOL 0.005
#define ST_INSTR_K 2.0

/* One file's counts of a query: each ok restart's mean over its measured executions. */
struct st_instr_side {
	size_t restarts; /* restarts with the count */
	double mean;	 /* mean of the restart means */
	double spread;	 /* (largest - smallest) / smallest restart mean; 0 with one restart */
};

/* The rule: 1 when |ratio - 1| > ST_INSTR_TOL + ST_INSTR_K (spread_old + spread_new), whose
 * right side goes to *out_bound (may be NULL). A tolerance plus the files' own spread, not a
 * test: its family-wise A/A false-alarm rate is shown by Monte Carlo on the measured spread
 * (docs/statistics.md, "Instructions"; tests/test_rpt_instr.c). */
int st_instr_changed(double ratio, double spread_old, double spread_new, double *out_bound);

/* out from q's ok restarts whose index is below max_index (all when max_index < 0) that have
 * the count name in their "instructions" record. q may be NULL (no restarts). -1 on out of
 * memory. */
int st_instr_side_of(struct st_instr_side *out, const struct res_query *q, const char *name,
		     int max_index);

#endif
