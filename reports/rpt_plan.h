/* SPDX-License-Identifier: MIT */
/* The plan diff of a query whose plan fingerprint changed: the two plans read as trees
 * (result/res_explain.h) and written as text, Markdown and JSON (docs/explain.md). */
#ifndef DBT3_RPT_PLAN_H
#define DBT3_RPT_PLAN_H
#include "result/res_explain.h"
#include <jansson.h>
#include <stdio.h>

struct rpt_plan {
	struct res_xplan old, new;
	struct res_xdiff diff;
};

/* Reads both plan texts and diffs them; *out is freed with rpt_plan_free. -1 and err when a
 * plan does not parse. */
int rpt_plan_build(struct rpt_plan **out, const char *old_plan, const char *new_plan,
		   struct errbuf *err);
void rpt_plan_free(struct rpt_plan *p);

/* At most RPT_PLAN_LINES lines "PREFIX ID TABLE: what changed" and one strategy line. */
#define RPT_PLAN_LINES 5
size_t rpt_plan_write(FILE *f, const char *id, const struct rpt_plan *p, const char *prefix,
		      int md);

/* One table's change as text ("position 1 -> 3, ALL -> eq_ref(PRIMARY)"), estimates after. */
void rpt_plan_table_text(char *buf, size_t n, const struct res_xtable_diff *t);

/* The strategies the diff removed and added: "FirstMatch(part) in #1 -> none". */
void rpt_plan_strategy_text(char *buf, size_t n, const struct res_xdiff *d);

/* The typed changes as a JSON array (docs/explain.md, "plan.diff"). */
json_t *rpt_plan_json(const struct rpt_plan *p);

#endif
