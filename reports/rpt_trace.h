/* SPDX-License-Identifier: MIT */
/* Why the optimizer chose it: for a query whose plan changed, the two builds' optimizer trace
 * summaries (run --optimizer-trace, result/res_trace.h) side by side: each build's chosen join
 * order with its cost, the cost the other build's order had in this build's trace, and the first
 * point where their decisions part (docs/explain.md). */
#ifndef DBT3_RPT_TRACE_H
#define DBT3_RPT_TRACE_H
#include "result/res.h"
#include "result/res_trace.h"
#include <jansson.h>
#include <stdio.h>

struct rpt_trace {
	struct res_tsum old, new; /* point into the result files' JSON */
	struct res_tpart part;
};

/* Both sides' summaries (the first restart of each that has one): *out, or NULL when a side
 * has none or one does not read; -1 only when out of memory. Freed with rpt_trace_free. */
int rpt_trace_build(struct rpt_trace **out, const struct res_query *old,
		    const struct res_query *new);
void rpt_trace_free(struct rpt_trace *t);

/* The block the text shows: the first whose chosen orders differ on the two sides, else the
 * first both have, else old's first; NULL when neither side has one. */
long rpt_trace_shown_block(const struct rpt_trace *t);

/* Where order (n tables) is in b: "cost 631.049, complete", "first 2 of 4 tables, cost 631.049,
 * extended", "not considered". */
void rpt_trace_found_text(char *buf, size_t len, const struct res_tblock *b,
			  const char *const *order, size_t n);

/* At most two lines: "PREFIX ID trace #B: old ORDER cost C (new's order here: ...); new ...",
 * then "PREFIX ID trace: decisions part at ...". */
#define RPT_TRACE_LINES 2
size_t rpt_trace_write(FILE *f, const char *id, const struct rpt_trace *t, const char *prefix,
		       int md);

/* The query's "optimizer_trace" member (docs/explain.md); a new reference. */
json_t *rpt_trace_json(const struct rpt_trace *t);

/* A small HTML section: per block both chosen orders and costs, the other's cost, the part. */
void rpt_trace_html(FILE *out, const struct rpt_trace *t, const char *old_name,
		    const char *new_name);

#endif
