/* SPDX-License-Identifier: MIT */
/* compare output: aligned text, Markdown (pull-request comments), JSON, JUnit XML. */
#include "base/text.h"
#include "reports/rpt.h"
#include "reports/rpt_format.h"
#include "reports/rpt_html.h"
#include "reports/rpt_plan.h"
#include "reports/rpt_trace.h"
#include "reports/rpt_table.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RED "\033[1;31m"
#define GREEN "\033[32m"
#define YELLOW "\033[33m"

static const char *verdict_color(enum rpt_verdict v)
{
	switch (v) {
	case RPT_REGRESSION:
	case RPT_WRONG_RESULT:
		return RED;
	case RPT_IMPROVEMENT:
		return GREEN;
	case RPT_INCONCLUSIVE:
		return YELLOW;
	default:
		return NULL;
	}
}

/* Why a baseline variance was not used by a query's test, or NULL. */
static const char *baseline_unused_why(enum st_baseline_use u)
{
	switch (u) {
	case ST_BASE_UNUSED_WELCH:
		return "Welch t: a baseline only enters a pooled test";
	case ST_BASE_UNUSED_NOISE:
		return "the restart variance is larger than the baseline's (F test)";
	case ST_BASE_UNUSED_PAIRED:
		return "paired t: its variance is of the pair differences, a baseline's is not";
	default:
		return NULL;
	}
}

static void fmt_ms(char *buf, size_t n, double ms)
{
	if (!isfinite(ms))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.3f", ms);
}

static void fmt_p(char *buf, size_t n, double p)
{
	if (!isfinite(p))
		snprintf(buf, n, "-");
	else if (p < 0.001)
		snprintf(buf, n, "<0.001");
	else
		snprintf(buf, n, "%.3f", p);
}

static void fmt_ci(char *buf, size_t n, double lo, double hi)
{
	if (!isfinite(lo) || !isfinite(hi))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.3f–%.3f", lo, hi);
}

static void fmt_ratio(char *buf, size_t n, double r)
{
	if (!isfinite(r))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.3f", r);
}

/* The ratio column of q: the test's ratio, ">=x"/"<=x" when bounded by a timeout, else the
 * ratio of the geometric means. */
static void fmt_query_ratio(char *buf, size_t n, const struct rpt_query *q)
{
	if (q->bound && isfinite(q->bound_ratio))
		snprintf(buf, n, "%s%.3f", q->bound > 0 ? ">=" : "<=", q->bound_ratio);
	else if (q->bound)
		snprintf(buf, n, "%s", q->bound > 0 ? ">timeout" : "<timeout");
	else
		fmt_ratio(buf, n,
			  q->test.kind != ST_TEST_NONE ? q->test.ratio
						       : q->new.gmean_ms / q->old.gmean_ms);
}

/* The marks of one query: "plan changed, not steady, ..." into buf. */
static void fmt_marks(char *buf, size_t n, const struct rpt_query *q)
{
	static const struct {
		unsigned flag;
		const char *text;
	} marks[] = {
	    {RPT_W_NOT_STEADY, "not steady"},
	    {RPT_W_TIMEOUT, "timeout"},
	    {RPT_W_CRASH, "crash"},
	    {RPT_W_ERROR, "error"},
	    {RPT_W_PLAN_VARIES, "plan varies"},
	    {RPT_W_RESULT_VARIES, "result varies"},
	    {RPT_W_ROWS_VARY, "row count varies"},
	};
	size_t at = 0;
	buf[0] = '\0';
#define ADD(s)                                                                                     \
	do {                                                                                       \
		int k_ = snprintf(buf + at, n - at, "%s%s", at ? ", " : "", (s));                  \
		if (k_ > 0 && (size_t)k_ < n - at)                                                 \
			at += (size_t)k_;                                                          \
	} while (0)
	if (q->plan_changed)
		ADD("plan changed");
	if (q->test.base_use == ST_BASE_USED)
		ADD("baseline variance");
	else if (q->test.base_use == ST_BASE_UNUSED_WELCH)
		ADD("baseline unused (welch)");
	else if (q->test.base_use == ST_BASE_UNUSED_NOISE)
		ADD("baseline unused (noisier now)");
	else if (q->test.base_use == ST_BASE_UNUSED_PAIRED)
		ADD("baseline unused (paired)");
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (q->warn & marks[i].flag)
			ADD(marks[i].text);
#undef ADD
}

/* The adjusted p of the direction the estimate points to: one-sided, a faster query's p is its
 * improvement family's. */
static double shown_padj(const struct rpt_compare *c, const struct rpt_query *q)
{
	return c->opts.alt == ST_GREATER && q->test.diff < 0 ? q->p_adj_impr : q->p_adj;
}

static double ci_level(const struct rpt_compare *c)
{
	return 100.0 * (1.0 - c->opts.alpha);
}

static const char *method_text(const struct rpt_compare *c)
{
	if (c->opts.adjust_memory)
		return "t of the two-sample analysis of covariance on the memory probe (a query "
		       "without enough probed restarts as --method)";
	if (c->paired && c->sbs)
		return "paired t on each side-by-side pair's mean log ratio of its alternated "
		       "executions (a query with < 2 pairs as --method)";
	if (c->paired)
		return "paired t (restart i old with restart i new; a query with < 2 pairs as "
		       "--method)";
	switch (c->opts.method) {
	case ST_METHOD_EB:
		return "moderated t (empirical Bayes)";
	case ST_METHOD_POOLED:
		return "pooled (Student) t";
	case ST_METHOD_AUTO:
		return "pooled t if equal restarts a side and no evidence of unequal variances "
		       "(F test), else Welch t (column test)";
	default:
		return "Welch t";
	}
}

/* The rules behind the verdicts, one line each, as every format prints them. */
static void rules(FILE *f, const struct rpt_compare *c, const char *prefix)
{
	const char *corr = st_correction_name(c->opts.correction);
	double me = 100.0 * c->opts.min_effect;
	fprintf(f, "%stest: %s on log restart means\n", prefix, method_text(c));
	fprintf(f, "%ssides: %s; correction %s, alpha %g\n", prefix,
		c->opts.alt == ST_GREATER
		    ? "one-sided for regressions, improvements tested as a separate family"
		    : "two-sided (alpha shared by regressions and improvements)",
		corr, c->opts.alpha);
	if (c->opts.min_effect_test)
		fprintf(f,
			"%sregression: slower by more than %g%% with confidence (H0 ratio <= %g, "
			"%s-adjusted p < %g)\n",
			prefix, me, 1 + c->opts.min_effect, corr, c->opts.alpha);
	else
		fprintf(
		    f,
		    "%sregression: significantly slower (%s-adjusted p < %g); estimated >= %g%%\n",
		    prefix, corr, c->opts.alpha, me);
	fprintf(f, "%sunchanged: %g%% CI within +-%g%% (TOST, per query, ", prefix,
		100.0 * (1 - 2 * c->opts.alpha), me);
	if (c->n_tested == 0) /* "not corrected for 0 queries" read as if 0 were a count tested */
		fprintf(f, "no query tested)\n");
	else
		fprintf(f, "not corrected for %zu quer%s)\n", c->n_tested,
			c->n_tested == 1 ? "y" : "ies");
	fprintf(f, "%sCI: %g%% per query, not adjusted for multiplicity\n", prefix, ci_level(c));
}

/* The baseline line: where its variance went and what it added. */
static void baseline_line(FILE *f, const struct rpt_compare *c, const char *prefix, int md)
{
	const char *q = md ? "`" : "'";
	if (!c->baseline.res)
		return;
	fprintf(f,
		"%sbaseline: %s%s%s: restart variance pooled in for %zu quer%s, not used for %zu",
		prefix, q, c->baseline.path, q, c->n_base_used, c->n_base_used == 1 ? "y" : "ies",
		c->n_base_unused);
	if (c->n_base_unused && c->n_base_used == 0 && c->opts.method == ST_METHOD_WELCH)
		fprintf(f, " (--method welch: a baseline only enters a pooled test)");
	else if (c->n_base_unused && c->n_base_paired == c->n_base_unused)
		fprintf(f, " (paired t: a baseline only enters an unpaired pooled test)");
	else if (c->n_base_unused)
		fprintf(f, " (see marks)");
	if (isfinite(c->power_base))
		fprintf(f, "; median power for a %g%% slowdown %.0f%% without it, %.0f%% with it",
			200.0 * c->opts.min_effect, 100.0 * c->power_nobase, 100.0 * c->power_base);
	fputc('\n', f);
}

/* Counts like "1 regression, 2 unchanged" in severity order. */
static void fmt_counts(char *buf, size_t n, const struct rpt_compare *c)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int v = RPT_N_VERDICTS - 1; v >= 0; v--) {
		if (!c->counts[v])
			continue;
		int k = snprintf(buf + at, n - at, "%s%zu %s", at ? ", " : "", c->counts[v],
				 rpt_verdict_name((enum rpt_verdict)v));
		if (k > 0 && (size_t)k < n - at)
			at += (size_t)k;
	}
	if (!at)
		snprintf(buf, n, "no query compared");
	else if (c->n_work_changed && at < n)
		at += (size_t)snprintf(buf + at, n - at, "; work changed in %zu quer%s",
				       c->n_work_changed, c->n_work_changed == 1 ? "y" : "ies");
	if (at && at < n && c->n_instr_changed)
		at += (size_t)snprintf(buf + at, n - at, "; instructions changed in %zu quer%s",
				       c->n_instr_changed, c->n_instr_changed == 1 ? "y" : "ies");
	if (at && at < n && c->n_data_differs)
		snprintf(buf + at, n - at, "; data differs: results of %zu quer%s differ",
			 c->n_data_differs, c->n_data_differs == 1 ? "y" : "ies");
}

/* Query i's explanation is shown (a verdict other than unchanged that says why). */
static int has_why(const struct rpt_compare *c, size_t i)
{
	return c->queries[i].why && c->queries[i].verdict != RPT_UNCHANGED;
}

/* Query j gives the same explanation for the same verdict as query i. */
static int same_why(const struct rpt_compare *c, size_t i, size_t j)
{
	return has_why(c, j) && c->queries[j].verdict == c->queries[i].verdict &&
	       strcmp(c->queries[j].why, c->queries[i].why) == 0;
}

/* Why the queries got their verdicts, each explanation once, after the queries it applies to:
 * "Q1, Q3 inconclusive: not flagged, but ..." in the order of their first query. With f NULL
 * nothing is written; returns the number of lines. */
static size_t why_lines(FILE *f, const struct rpt_compare *c, const char *prefix)
{
	size_t lines = 0;
	for (size_t i = 0; i < c->n_queries; i++) {
		if (!has_why(c, i))
			continue;
		size_t first = 0;
		while (first < i && !same_why(c, i, first))
			first++;
		if (first < i)
			continue; /* said with an earlier query */
		lines++;
		if (!f)
			continue;
		fprintf(f, "%s%s", prefix, c->queries[i].id);
		for (size_t j = i + 1; j < c->n_queries; j++)
			if (same_why(c, i, j))
				fprintf(f, ", %s", c->queries[j].id);
		fprintf(f, " %s: %s\n", rpt_verdict_name(c->queries[i].verdict), c->queries[i].why);
	}
	return lines;
}

/* Per-query warnings (not steady, timeout, crash, error) as lines "Q6: ...". */
static void side_warnings(FILE *f, const char *prefix, const char *id, const struct rpt_side *s,
			  const char *raw_path, int md)
{
	char path[1024];
	const char *q = md ? "" : "'";
	if (md)
		util_md_code(path, sizeof(path), raw_path);
	else
		util_term(path, sizeof(path), raw_path);
	if (s->not_steady)
		fprintf(f, "%s%s: not steady in %zu of %zu restarts of %s%s%s\n", prefix, id,
			s->not_steady, s->n_restarts, q, path, q);
	if (s->timeouts)
		fprintf(f, "%s%s: timed out in %zu of %zu restarts of %s%s%s\n", prefix, id,
			s->timeouts, s->n_restarts, q, path, q);
	if (s->crashes)
		fprintf(f, "%s%s: the server crashed in %zu of %zu restarts of %s%s%s\n", prefix,
			id, s->crashes, s->n_restarts, q, path, q);
	if (s->errors)
		fprintf(f, "%s%s: failed with an error in %zu of %zu restarts of %s%s%s\n", prefix,
			id, s->errors, s->n_restarts, q, path, q);
	if (s->plans_vary)
		fprintf(f, "%s%s: the plan differs between restarts of %s%s%s\n", prefix, id, q,
			path, q);
	if (s->results_vary)
		fprintf(f, "%s%s: the result differs between restarts of %s%s%s\n", prefix, id, q,
			path, q);
	if (s->rows_vary)
		fprintf(f, "%s%s: the row count changed between executions in %s%s%s\n", prefix, id,
			q, path, q);
}

static size_t count_warnings(const struct rpt_compare *c)
{
	size_t n = c->n_warnings;
	for (size_t i = 0; i < c->n_queries; i++)
		n += c->queries[i].warn != 0;
	return n;
}

static void all_warnings(FILE *f, const struct rpt_compare *c, const char *prefix, int md)
{
	for (size_t i = 0; i < c->n_warnings; i++) {
		fputs(prefix, f);
		md ? util_md_fputs(f, c->warnings[i]) : util_term_fputs(f, c->warnings[i], 0);
		fputc('\n', f);
	}
	for (size_t i = 0; i < c->n_queries; i++) {
		const struct rpt_query *q = &c->queries[i];
		side_warnings(f, prefix, q->id, &q->old, c->old.path, md);
		side_warnings(f, prefix, q->id, &q->new, c->new.path, md);
	}
}

static size_t max_restarts(const struct rpt_compare *c, int new)
{
	size_t m = 0;
	for (size_t i = 0; i < c->n_queries; i++) {
		size_t n = new ? c->queries[i].new.n_restarts : c->queries[i].old.n_restarts;
		m = n > m ? n : m;
	}
	return m;
}

static void fmt_overall(char *buf, size_t n, const struct rpt_compare *c)
{
	char ci[64];
	if (!c->have_overall) {
		snprintf(buf, n, "overall: not available (no query tested)");
		return;
	}
	fmt_ci(ci, sizeof(ci), c->overall.ci_lo, c->overall.ci_hi);
	snprintf(buf, n, "overall geometric-mean ratio over %zu queries: %.3f (%g%% CI %s, %s)",
		 c->overall.n_queries, c->overall.ratio, ci_level(c), ci,
		 c->overall.kind == ST_OVERALL_BY_RESTART ? "by restart" : "from per-query tests");
}

/* The formatted figures of one query's row in the text and Markdown tables. */
struct row_cells {
	char old_ms[64], new_ms[64], ratio[64], ci[64], p[64], marks[256];
};

static void row_cells(struct row_cells *out, const struct rpt_compare *c, const struct rpt_query *q)
{
	fmt_ms(out->old_ms, sizeof(out->old_ms), q->old.gmean_ms);
	fmt_ms(out->new_ms, sizeof(out->new_ms), q->new.gmean_ms);
	fmt_query_ratio(out->ratio, sizeof(out->ratio), q);
	fmt_ci(out->ci, sizeof(out->ci), q->test.ci_lo, q->test.ci_hi);
	fmt_p(out->p, sizeof(out->p), shown_padj(c, q));
	fmt_marks(out->marks, sizeof(out->marks), q);
}

/* The plan diff of each query whose plan changed (docs/explain.md). */
static void plans_write(FILE *f, const struct rpt_compare *c, const char *prefix, int md)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n_queries; i++)
		n += c->queries[i].plan_diff != NULL;
	if (!n)
		return;
	fprintf(f, "\n%s (EXPLAIN FORMAT=JSON diffed as trees; docs/explain.md): %zu quer%s\n%s",
		md ? "**Plans changed**" : "plans changed", n, n == 1 ? "y" : "ies",
		md ? "\n" : "");
	for (size_t i = 0; i < c->n_queries; i++)
		if (c->queries[i].plan_diff)
			rpt_plan_write(f, c->queries[i].id, c->queries[i].plan_diff, prefix, md);
}

/* Why the optimizer chose each changed plan, where both files have its trace summary. */
static void traces_write(FILE *f, const struct rpt_compare *c, const char *prefix, int md)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n_queries; i++)
		n += c->queries[i].trace != NULL;
	if (!n)
		return;
	fprintf(f, "\n%s (run --optimizer-trace; docs/explain.md): %zu quer%s\n%s",
		md ? "**Why the optimizer chose it**" : "optimizer traces of changed plans", n,
		n == 1 ? "y" : "ies", md ? "\n" : "");
	for (size_t i = 0; i < c->n_queries; i++)
		if (c->queries[i].trace)
			rpt_trace_write(f, c->queries[i].id, c->queries[i].trace, prefix, md);
}

/* After the verdicts (md: as Markdown): the work, plan and instruction lines, then the
 * warnings. */
static void signals_and_warnings(FILE *f, const struct rpt_compare *c, int md)
{
	rpt_work_write(f, c, md ? "- " : "  ", md);
	plans_write(f, c, md ? "- " : "  ", md);
	rpt_analyze_write(f, c, md ? "- " : "  ", md);
	traces_write(f, c, md ? "- " : "  ", md);
	rpt_instr_write(f, c, md ? "- " : "  ", md);
	if (count_warnings(c)) {
		fputs(md ? "\n**Warnings**\n\n" : "\nwarnings:\n", f);
		all_warnings(f, c, md ? "- " : "  ", md);
	}
}

int rpt_compare_write_text(FILE *f, const struct rpt_compare *c, int color, struct errbuf *err)
{
	(void)err;
	static const char *const heads[] = {"query", "verdict", "old ms", "new ms",   "ratio",
					    "CI",    "test",	"p adj",  "restarts", "marks"};
	char ci_head[48], counts[256];
	struct rpt_table t;
	snprintf(ci_head, sizeof(ci_head), "%g%% CI (unadj.)", ci_level(c));
	const char *h[10];
	memcpy(h, heads, sizeof(h));
	h[5] = ci_head;
	size_t ra = max_restarts(c, 0), rb = max_restarts(c, 1);
	char po[1024], pn[1024];
	fprintf(f, "old: '%s' (%zu restart%s)\nnew: '%s' (%zu restart%s)\n",
		util_term(po, sizeof(po), c->old.path), ra, ra == 1 ? "" : "s",
		util_term(pn, sizeof(pn), c->new.path), rb, rb == 1 ? "" : "s");
	baseline_line(f, c, "", 0);
	rules(f, c, "");
	if (c->paired || c->opts.sequential)
		rpt_seq_write(f, c, 0);
	rpt_adjust_write(f, c, 0);
	fputc('\n', f);
	rpt_table_init(&t, 10, h, "llrrrrlrrl");
	for (size_t i = 0; i < c->n_queries; i++) {
		const struct rpt_query *q = &c->queries[i];
		struct row_cells x;
		row_cells(&x, c, q);
		rpt_table_row(&t);
		rpt_table_cell(&t, NULL, "%s", q->id);
		rpt_table_cell(&t, verdict_color(q->verdict), "%s", rpt_verdict_name(q->verdict));
		rpt_table_cell(&t, NULL, "%s", x.old_ms);
		rpt_table_cell(&t, NULL, "%s", x.new_ms);
		rpt_table_cell(&t, NULL, "%s", x.ratio);
		rpt_table_cell(&t, NULL, "%s", x.ci);
		rpt_table_cell(&t, NULL, "%s", rpt_test_name(q->test.kind));
		rpt_table_cell(&t, NULL, "%s", x.p);
		rpt_table_cell(&t, NULL, "%zu/%zu", q->old.n_used, q->new.n_used);
		rpt_table_cell(&t, NULL, "%s", x.marks);
	}
	rpt_table_print(f, &t, "", color);
	rpt_table_release(&t);
	char line[512];
	fmt_overall(line, sizeof(line), c);
	fprintf(f, "\n%s\n", line);
	why_lines(f, c, "");
	signals_and_warnings(f, c, 0);
	fmt_counts(counts, sizeof(counts), c);
	fprintf(f, "\nresult: %s%s\n", counts,
		c->opts.alt == ST_GREATER && c->counts[RPT_IMPROVEMENT]
		    ? " (improvements from their own family; they do not change the exit status)"
		    : "");
	return 0;
}

int rpt_compare_write_markdown(FILE *f, const struct rpt_compare *c, int color, struct errbuf *err)
{
	(void)color;
	(void)err;
	char counts[256], line[512];
	fmt_counts(counts, sizeof(counts), c);
	fprintf(f, "### dbt3stab compare: %s\n\n", counts);
	size_t ra = max_restarts(c, 0), rb = max_restarts(c, 1);
	char po[1024], pn[1024];
	fprintf(f, "%s (%zu restart%s) → %s (%zu restart%s)",
		util_md_code(po, sizeof(po), c->old.path), ra, ra == 1 ? "" : "s",
		util_md_code(pn, sizeof(pn), c->new.path), rb, rb == 1 ? "" : "s");
	fprintf(f, "\n\n");
	baseline_line(f, c, "- ", 1);
	rules(f, c, "- ");
	if (c->paired || c->opts.sequential)
		rpt_seq_write(f, c, 1);
	rpt_adjust_write(f, c, 1);
	fprintf(f,
		"\n| query | verdict | old ms | new ms | ratio | %g%% CI (unadj.) | test | p adj | "
		"restarts | marks |\n",
		ci_level(c));
	fprintf(f, "|---|---|--:|--:|--:|--:|---|--:|--:|---|\n");
	for (size_t i = 0; i < c->n_queries; i++) {
		const struct rpt_query *q = &c->queries[i];
		int strong = q->verdict == RPT_REGRESSION || q->verdict == RPT_WRONG_RESULT;
		struct row_cells x;
		row_cells(&x, c, q);
		fprintf(f, "| %s | %s%s%s | %s | %s | %s | %s | %s | %s | %zu/%zu | %s |\n", q->id,
			strong ? "**" : "", rpt_verdict_name(q->verdict), strong ? "**" : "",
			x.old_ms, x.new_ms, x.ratio, x.ci, rpt_test_name(q->test.kind), x.p,
			q->old.n_used, q->new.n_used, x.marks);
	}
	fmt_overall(line, sizeof(line), c);
	line[0] = (char)(line[0] - 'a' + 'A');
	fprintf(f, "\n%s.\n", line);
	if (why_lines(NULL, c, "- "))
		fputc('\n', f);
	why_lines(f, c, "- ");
	signals_and_warnings(f, c, 1);
	return 0;
}

static json_t *side_json(const struct rpt_side *s)
{
	json_t *o = json_object(), *means = json_array(), *idx = json_array();
	for (size_t i = 0; i < s->n_used; i++) {
		json_array_append_new(means, json_real(s->means_ms[i]));
		json_array_append_new(idx, json_integer(s->indices[i]));
	}
	json_object_set_new(o, "restarts", json_integer((json_int_t)s->n_restarts));
	json_object_set_new(o, "restarts_used", json_integer((json_int_t)s->n_used));
	json_object_set_new(o, "restart_indices", idx);
	json_object_set_new(o, "restart_means_ms", means);
	json_object_set_new(o, "gmean_ms", res_json_num(s->gmean_ms));
	json_object_set_new(o, "sd_log", res_json_num(s->sd_log));
	json_object_set_new(o, "not_steady", json_integer((json_int_t)s->not_steady));
	json_object_set_new(o, "timeouts", json_integer((json_int_t)s->timeouts));
	json_object_set_new(o, "crashes", json_integer((json_int_t)s->crashes));
	json_object_set_new(o, "errors", json_integer((json_int_t)s->errors));
	json_object_set_new(o, "rows", s->rows >= 0 ? json_integer(s->rows) : json_null());
	return o;
}

static json_t *warn_json(unsigned w)
{
	static const struct {
		unsigned flag;
		const char *name;
	} names[] = {{RPT_W_NOT_STEADY, "not_steady"},
		     {RPT_W_TIMEOUT, "timeout"},
		     {RPT_W_CRASH, "crash"},
		     {RPT_W_ERROR, "error"},
		     {RPT_W_PLAN_VARIES, "plan_varies"},
		     {RPT_W_RESULT_VARIES, "result_varies"},
		     {RPT_W_ROWS_VARY, "rows_vary"}};
	json_t *a = json_array();
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (w & names[i].flag)
			json_array_append_new(a, json_string(names[i].name));
	return a;
}

static json_t *file_json(const struct rpt_file_info *fi)
{
	if (!fi->res)
		return json_null();
	return json_pack(
	    "{s:s, s:o, s:o, s:o, s:o}", "path", fi->path, "label", res_json_str(fi->res->label),
	    "tool_version", res_json_str(fi->res->tool_version), "started_at",
	    res_json_str(fi->res->started_at), "finished_at", res_json_str(fi->res->finished_at));
}

/* The options and the rules the verdicts follow, into o. */
static void options_json(json_t *o, const struct rpt_compare *c)
{
	json_object_set_new(
	    o, "options",
	    json_pack("{s:f, s:f, s:s, s:s, s:s, s:b, s:b}", "alpha", c->opts.alpha, "min_effect",
		      c->opts.min_effect, "correction", st_correction_name(c->opts.correction),
		      "method", st_method_name(c->opts.method), "alternative",
		      c->opts.alt == ST_GREATER ? "greater" : "two-sided", "min_effect_test",
		      c->opts.min_effect_test, "force", c->opts.force));
	json_object_set_new(
	    o, "rules",
	    json_pack("{s:s, s:s, s:s, s:s}", "regression",
		      c->opts.min_effect_test ? "adjusted p of H0 ratio <= 1 + min_effect < alpha"
					      : "adjusted p < alpha and ratio >= 1 + min_effect",
		      "improvements",
		      c->opts.alt == ST_GREATER ? "own family (p_improvement_adjusted)"
						: "same family as regressions (two-sided p)",
		      "unchanged",
		      "TOST: ci_tost (1 - 2 alpha) inside the margin, per query, not "
		      "corrected for multiplicity",
		      "ci",
		      "ci: (1 - alpha) per query, not adjusted; ci_simultaneous: "
		      "Bonferroni over the tested queries"));
}

/* One query of the comparison as JSON. */
static json_t *query_json(const struct rpt_compare *c, const struct rpt_query *q)
{
	json_t *jq = json_object();
	json_object_set_new(jq, "id", json_string(q->id));
	json_object_set_new(jq, "verdict", json_string(rpt_verdict_name(q->verdict)));
	json_object_set_new(jq, "reason", res_json_str(q->why));
	json_object_set_new(jq, "ratio", res_json_num(q->bound ? q->bound_ratio : q->test.ratio));
	json_object_set_new(jq, "ratio_is_lower_bound", json_boolean(q->bound > 0));
	json_object_set_new(jq, "ratio_is_upper_bound", json_boolean(q->bound < 0));
	json_object_set_new(
	    jq, "ci",
	    json_pack("[o, o]", res_json_num(q->test.ci_lo), res_json_num(q->test.ci_hi)));
	json_object_set_new(
	    jq, "ci_simultaneous",
	    json_pack("[o, o]", res_json_num(q->test.ci_sim_lo), res_json_num(q->test.ci_sim_hi)));
	json_object_set_new(
	    jq, "ci_tost",
	    json_pack("[o, o]", res_json_num(q->test.tost_lo), res_json_num(q->test.tost_hi)));
	json_object_set_new(jq, "test", json_string(rpt_test_name(q->test.kind)));
	json_object_set_new(jq, "t", res_json_num(q->test.t));
	json_object_set_new(jq, "df", res_json_num(q->test.df));
	json_object_set_new(jq, "p", res_json_num(q->test.p));
	json_object_set_new(jq, "p_adjusted", res_json_num(q->p_adj));
	json_object_set_new(jq, "p_improvement_adjusted", res_json_num(q->p_adj_impr));
	json_object_set_new(jq, "p_tost", res_json_num(q->test.p_tost));
	json_object_set_new(jq, "variance_test_p", res_json_num(q->test.var_f_p));
	if (q->test.kind == ST_TEST_ADJUSTED || q->test.kind == ST_TEST_PAIRED_ADJUSTED)
		json_object_set_new(jq, "adjusted",
				    json_pack("{s:o, s:o}", "slope",
					      res_json_num(q->test.adj_slope), "sd_ratio",
					      res_json_num(q->test.adj_sd_ratio)));
	json_object_set_new(
	    jq, "baseline",
	    q->test.base_use == ST_BASE_NONE
		? json_null()
		: json_pack("{s:b, s:o, s:f, s:o, s:o}", "used", q->test.base_use == ST_BASE_USED,
			    "why_unused", res_json_str(baseline_unused_why(q->test.base_use)), "df",
			    q->test.base_df, "power_without", res_json_num(q->power_nobase),
			    "power_with", res_json_num(q->power_base)));
	json_object_set_new(jq, "old", side_json(&q->old));
	json_object_set_new(jq, "new", side_json(&q->new));
	json_object_set_new(jq, "result",
			    json_pack("{s:b, s:o, s:o}", "changed", q->result_changed, "old_sha256",
				      res_json_str(q->old.result_sha256), "new_sha256",
				      res_json_str(q->new.result_sha256)));
	json_t *plan = json_pack("{s:b, s:o, s:o}", "changed", q->plan_changed, "old_sha256",
				 res_json_str(q->old.plan_sha256), "new_sha256",
				 res_json_str(q->new.plan_sha256));
	if (q->plan_changed) {
		json_object_set_new(plan, "old", res_json_str(q->old.plan));
		json_object_set_new(plan, "new", res_json_str(q->new.plan));
	}
	json_object_set_new(plan, "diff", q->plan_diff ? rpt_plan_json(q->plan_diff) : json_null());
	json_object_set_new(jq, "plan", plan);
	json_object_set_new(jq, "optimizer_trace", rpt_trace_json(q->trace));
	json_object_set_new(jq, "work",
			    q->work.compared ? rpt_work_json(&q->work, 1) : json_null());
	json_object_set_new(jq, "instructions", rpt_instr_json(&q->instr));
	json_object_set_new(jq, "analyze", rpt_analyze_json(&q->analyze));
	json_object_set_new(jq, "functions", rpt_funcs_json(&q->funcs));
	json_object_set_new(jq, "warnings", warn_json(q->warn));
	json_object_set_new(jq, "sequential", rpt_seq_query_json(c, q));
	return jq;
}

json_t *rpt_compare_to_json(const struct rpt_compare *c)
{
	json_t *o = json_object(), *qs = json_array(), *counts = json_object(), *w = json_array();
	json_object_set_new(o, "format", json_string("dbt3stab-compare"));
	json_object_set_new(o, "format_version", json_integer(1));
	json_object_set_new(o, "old", file_json(&c->old));
	json_object_set_new(o, "new", file_json(&c->new));
	json_object_set_new(o, "baseline", file_json(&c->baseline));
	options_json(o, c);
	if (c->baseline.res)
		json_object_set_new(o, "baseline_use",
				    json_pack("{s:I, s:I, s:f, s:o, s:o}", "used",
					      (json_int_t)c->n_base_used, "unused",
					      (json_int_t)c->n_base_unused, "power_for",
					      2 * c->opts.min_effect, "median_power_without",
					      res_json_num(c->power_nobase), "median_power_with",
					      res_json_num(c->power_base)));
	if (c->opts.method == ST_METHOD_EB)
		json_object_set_new(
		    o, "eb_prior",
		    c->eb_prior.df > 0
			? json_pack("{s:o, s:o}", "var_log", res_json_num(c->eb_prior.var), "df",
				    isinf(c->eb_prior.df) ? json_string("inf")
							  : res_json_num(c->eb_prior.df))
			: json_null());
	for (size_t i = 0; i < c->n_queries; i++)
		json_array_append_new(qs, query_json(c, &c->queries[i]));
	json_object_set_new(o, "queries", qs);
	rpt_seq_json(o, c);
	rpt_adjust_json(o, c);
	if (c->have_overall)
		json_object_set_new(
		    o, "overall",
		    json_pack("{s:s, s:I, s:o, s:[o, o], s:o, s:o, s:o}", "method",
			      c->overall.kind == ST_OVERALL_BY_RESTART ? "by_restart"
								       : "from_tests",
			      "queries", (json_int_t)c->overall.n_queries, "ratio",
			      res_json_num(c->overall.ratio), "ci", res_json_num(c->overall.ci_lo),
			      res_json_num(c->overall.ci_hi), "t", res_json_num(c->overall.t), "df",
			      res_json_num(c->overall.df), "p", res_json_num(c->overall.p)));
	else
		json_object_set_new(o, "overall", json_null());
	for (int v = 0; v < RPT_N_VERDICTS; v++)
		json_object_set_new(counts, rpt_verdict_name((enum rpt_verdict)v),
				    json_integer((json_int_t)c->counts[v]));
	json_object_set_new(o, "counts", counts);
	json_object_set_new(o, "worst", json_string(rpt_verdict_name(c->worst)));
	json_object_set_new(o, "data_differs",
			    json_pack("{s:b, s:I}", "files", c->data_differs, "results_differ",
				      (json_int_t)c->n_data_differs));
	json_object_set_new(o, "work",
			    json_pack("{s:I, s:I}", "compared", (json_int_t)c->n_work_compared,
				      "changed", (json_int_t)c->n_work_changed));
	json_object_set_new(o, "analyze",
			    json_pack("{s:I}", "rows_changed", (json_int_t)c->n_analyze_changed));
	json_object_set_new(o, "instructions",
			    json_pack("{s:I, s:I}", "compared", (json_int_t)c->n_instr_compared,
				      "changed", (json_int_t)c->n_instr_changed));
	for (size_t i = 0; i < c->n_warnings; i++)
		json_array_append_new(w, json_string(c->warnings[i]));
	json_object_set_new(o, "warnings", w);
	return o;
}

int rpt_compare_write_json(FILE *f, const struct rpt_compare *c, int color, struct errbuf *err)
{
	(void)color;
	(void)err;
	json_t *o = rpt_compare_to_json(c);
	if (!o)
		return -1;
	int rc = json_dumpf(o, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	json_decref(o);
	fputc('\n', f);
	return rc;
}

int rpt_compare_write_junit(FILE *f, const struct rpt_compare *c, int color, struct errbuf *err)
{
	(void)color;
	(void)err;
	size_t failures = c->counts[RPT_REGRESSION] + c->counts[RPT_WRONG_RESULT];
	char a[64], b[64], r[64], ci[64], p[64], marks[256], msg[1024];
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites name=\"dbt3stab compare\" tests=\"%zu\" failures=\"%zu\">\n",
		c->n_queries, failures);
	fprintf(f,
		"  <testsuite name=\"dbt3stab.compare\" tests=\"%zu\" failures=\"%zu\" "
		"errors=\"0\" skipped=\"%zu\">\n",
		c->n_queries, failures, c->counts[RPT_INCONCLUSIVE]);
	fprintf(f, "    <properties>\n      <property name=\"old\" value=\"");
	rpt_html_escape(f, c->old.path);
	fprintf(f, "\"/>\n      <property name=\"new\" value=\"");
	rpt_html_escape(f, c->new.path);
	fprintf(f, "\"/>\n    </properties>\n");
	for (size_t i = 0; i < c->n_queries; i++) {
		const struct rpt_query *q = &c->queries[i];
		double secs = isfinite(q->new.gmean_ms) ? q->new.gmean_ms / 1000.0 : 0.0;
		fmt_ms(a, sizeof(a), q->old.gmean_ms);
		fmt_ms(b, sizeof(b), q->new.gmean_ms);
		if (q->bound)
			fmt_query_ratio(r, sizeof(r), q);
		else
			fmt_ratio(r, sizeof(r), q->test.ratio);
		fmt_ci(ci, sizeof(ci), q->test.ci_lo, q->test.ci_hi);
		fmt_p(p, sizeof(p), shown_padj(c, q));
		fmt_marks(marks, sizeof(marks), q);
		snprintf(msg, sizeof(msg),
			 "%s: old %s ms, new %s ms, ratio %s (CI %s, per query, unadjusted), p adj "
			 "%s%s%s%s%s",
			 rpt_verdict_name(q->verdict), a, b, r, ci, p, q->why ? "; " : "",
			 q->why ? q->why : "", marks[0] ? "; " : "", marks);
		fprintf(f, "    <testcase classname=\"dbt3stab.compare\" name=\"");
		rpt_html_escape(f, q->id);
		fprintf(f, "\" time=\"%.6f\">\n", secs);
		if (q->verdict == RPT_REGRESSION || q->verdict == RPT_WRONG_RESULT) {
			fprintf(f, "      <failure type=\"%s\" message=\"",
				rpt_verdict_name(q->verdict));
			rpt_html_escape(f, msg);
			fprintf(f, "\"/>\n");
		} else if (q->verdict == RPT_INCONCLUSIVE) {
			fprintf(f, "      <skipped message=\"");
			rpt_html_escape(f, msg);
			fprintf(f, "\"/>\n");
		} else {
			fprintf(f, "      <system-out>");
			rpt_html_escape(f, msg);
			fprintf(f, "</system-out>\n");
		}
		fprintf(f, "    </testcase>\n");
	}
	fprintf(f, "  </testsuite>\n</testsuites>\n");
	return 0;
}
