/* SPDX-License-Identifier: MIT */
/* The instruction counts of a query in two result files (run --instructions, or the PMU's) and
 * the rule that calls them changed (reports/rpt.h; docs/statistics.md, "Instructions"). */
#include "reports/rpt.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The names compare reads, in order of preference: a query is compared on the first both files
 * have (never callgrind's count against the PMU's). */
static const char *const instr_names[] = {"callgrind_ir", "pmu_instructions"};

int rpt_instr_changed(double ratio, double spread_old, double spread_new, double *out_bound)
{
	return st_instr_changed(ratio, spread_old, spread_new, out_bound);
}

int rpt_instr_build(struct rpt_instr *out, const struct res_query *a, const struct res_query *b)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < sizeof(instr_names) / sizeof(instr_names[0]); i++) {
		if (st_instr_side_of(&out->old, a, instr_names[i], -1) < 0 ||
		    st_instr_side_of(&out->new, b, instr_names[i], -1) < 0)
			return -1;
		if (out->old.restarts && out->new.restarts && out->old.mean > 0) {
			out->name = instr_names[i];
			out->compared = 1;
			out->ratio = out->new.mean / out->old.mean;
			out->changed = rpt_instr_changed(out->ratio, out->old.spread,
							 out->new.spread, &out->bound);
			return 0;
		}
	}
	memset(out, 0, sizeof(*out));
	return 0;
}

json_t *rpt_instr_json(const struct rpt_instr *in)
{
	if (!in->compared)
		return json_null();
	return json_pack("{s:f, s:b, s:s, s:f, s:f, s:I, s:I, s:f, s:f, s:f}", "ratio", in->ratio,
			 "changed", in->changed, "counter", in->name, "old", in->old.mean, "new",
			 in->new.mean, "old_restarts", (json_int_t)in->old.restarts, "new_restarts",
			 (json_int_t)in->new.restarts, "old_spread", in->old.spread, "new_spread",
			 in->new.spread, "bound", in->bound);
}

void rpt_instr_query_line(char *buf, size_t n, const struct rpt_query *q)
{
	char a[32], b[32];
	buf[0] = '\0';
	if (!q->instr.compared || !q->instr.changed)
		return;
	rpt_work_fmt_count(a, sizeof(a), q->instr.old.mean);
	rpt_work_fmt_count(b, sizeof(b), q->instr.new.mean);
	snprintf(buf, n, "%s instructions changed: %s -> %s (x%.4f, beyond +-%.2f%%)%s", q->id, a,
		 b, q->instr.ratio, 100 * q->instr.bound, q->plan_changed ? ", plan changed" : "");
}

void rpt_instr_write(FILE *f, const struct rpt_compare *c, const char *prefix, int md)
{
	char line[512];
	if (!c->n_instr_compared)
		return;
	fprintf(f,
		"\n%s (per execution; changed beyond %.1f%% + %.0f x the restarts' spread; "
		"docs/work.md): %zu of %zu quer%s changed\n%s",
		md ? "**Instructions**" : "instructions", 100 * RPT_INSTR_TOL, RPT_INSTR_K,
		c->n_instr_changed, c->n_instr_compared, c->n_instr_compared == 1 ? "y" : "ies",
		md ? "\n" : "");
	for (size_t i = 0; i < c->n_queries; i++) {
		rpt_instr_query_line(line, sizeof(line), &c->queries[i]);
		if (*line)
			fprintf(f, "%s%s\n", prefix, line);
		if (*line)
			rpt_funcs_write(f, &c->queries[i].funcs, c->queries[i].id, md ? "  - " : "    ",
					md);
	}
}

json_t *rpt_instr_summary_json(const struct rpt_instr *in)
{
	if (!in->compared)
		return json_null();
	return json_pack("{s:s, s:f, s:I, s:f}", "counter", in->name, "mean", in->old.mean,
			 "restarts", (json_int_t)in->old.restarts, "spread", in->old.spread);
}

void rpt_instr_summary_write(FILE *f, const struct rpt_summary *s, const char *prefix, int md)
{
	size_t have = 0, tight = 0;
	char v[32];
	for (size_t i = 0; i < s->n_queries; i++) {
		have += s->queries[i].instr.compared;
		tight += s->queries[i].instr.compared && s->queries[i].instr.old.spread <= 0.005;
	}
	if (!have)
		return;
	fprintf(f,
		"\n%s (per execution; docs/work.md): the restart means within 0.5%% of each "
		"other in %zu of %zu quer%s\n%s",
		md ? "**Instructions**" : "instructions", tight, have, have == 1 ? "y" : "ies",
		md ? "\n" : "");
	for (size_t i = 0; i < s->n_queries; i++) {
		const struct rpt_instr *in = &s->queries[i].instr;
		if (!in->compared)
			continue;
		rpt_work_fmt_count(v, sizeof(v), in->old.mean);
		fprintf(f, "%s%s %s over %zu restart%s (spread %.3f%%, %s)\n", prefix,
			s->queries[i].id, v, in->old.restarts, in->old.restarts == 1 ? "" : "s",
			100 * in->old.spread, in->name);
	}
}
