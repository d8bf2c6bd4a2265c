/* SPDX-License-Identifier: MIT */
/* The HTML report's sequential section (compare with the sequential rule: the rule, each query's
 * decision, a chart of its running estimate with the repeated CI) and budget section (files of
 * run --budget: warm-up, runs and restarts per query, and how the run ended). */
#include "reports/rpt.h"
#include "reports/rpt_html.h"
#include "reports/rpt_html_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DASH "\xe2\x80\x94"

static const struct rpt_compare *seq_model(const struct rpt_html_page *pg)
{
	return pg->compare && pg->cmp && pg->cmp->opts.sequential ? pg->cmp : NULL;
}

/* The look after every pair of q, fed as rpt_seq_replay feeds the rule, except that a decision
 * does not freeze the estimate: the looks after it show where it went on. *out is malloc'd (the
 * caller frees); -1 on out of memory or a bad mean. */
static int seq_looks(struct st_seq_look **out, size_t *n_out, const struct rpt_compare *c,
		     const struct rpt_query *q)
{
	size_t room = (q->old.n_used < q->new.n_used ? q->old.n_used : q->new.n_used) + 1, n = 0;
	double *a = malloc(room * sizeof(double)), *b = malloc(room * sizeof(double));
	struct st_seq_look *looks = malloc(room * sizeof(*looks));
	struct st_seq_state s;
	struct errbuf err;
	int rc = -1;
	if (!a || !b || !looks)
		goto out;
	n = rpt_query_pairs(a, b, q);
	if (rpt_seq_state_start(&s, q, &err) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (st_seq_feed(&s, rpt_seq_design_of(c, q), a[i], b[i], &err) < 0)
			goto out;
		looks[i] = s.look;
		s.decision = ST_SEQ_UNDECIDED;
		s.decided_at = 0;
	}
	rc = 0;
out:
	free(a);
	free(b);
	if (rc < 0) {
		free(looks);
		looks = NULL;
		n = 0;
	}
	*out = looks;
	*n_out = n;
	return rc;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* A repeated CI that a log axis can show: both ends finite and > 0 (at the first looks the
 * interval can overflow to [0, inf]). */
static int rci_shown(const struct st_seq_look *l)
{
	return isfinite(l->ci_lo) && isfinite(l->ci_hi) && l->ci_lo > 0;
}

static json_t *look_json(const struct st_seq_look *l)
{
	int ci = rci_shown(l);
	return json_pack("[I, o, o, o, o, o]", (json_int_t)l->pairs, num_or_null(l->ratio),
			 ci ? json_real(l->ci_lo) : json_null(),
			 ci ? json_real(l->ci_hi) : json_null(), num_or_null(l->t),
			 num_or_null(l->t_bound));
}

static json_t *seq_query_json(const struct rpt_compare *c, const struct rpt_query *q)
{
	struct st_seq_look *looks = NULL;
	size_t n = 0;
	json_t *arr = json_array();
	if (!arr || seq_looks(&looks, &n, c, q) < 0) {
		json_decref(arr);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, look_json(&looks[i]));
	free(looks);
	return json_pack("{s:s, s:s, s:o, s:I, s:o}", "id", q->id, "decision",
			 st_seq_decision_name(q->seq.decision), "at",
			 q->seq.decided_at ? json_integer((json_int_t)q->seq.decided_at)
					   : json_null(),
			 "pairs", (json_int_t)q->n_pairs, "looks", arr);
}

json_t *rpt_html_seq_json(const struct rpt_html_page *pg)
{
	const struct rpt_compare *c = seq_model(pg);
	if (!c)
		return json_null();
	const struct st_seq_opts *o = &c->seq.opts;
	json_t *qs = json_array();
	for (size_t i = 0; qs && i < c->n_queries; i++) {
		json_t *jq = seq_query_json(c, &c->queries[i]);
		if (!jq || json_array_append_new(qs, jq) < 0) {
			json_decref(qs);
			return NULL;
		}
	}
	return json_pack("{s:[f, f], s:I, s:I, s:o}", "band", 1 / (1 + o->min_effect),
			 1 + o->min_effect, "max_pairs", (json_int_t)o->max_pairs, "first_look",
			 (json_int_t)o->first_look, "queries", qs);
}

/* ---- the sequential section ---- */

static const char *plan_str(const struct res_file *r, const char *key)
{
	json_t *v = r && r->plan ? json_object_get(r->plan, key) : NULL;
	return json_is_string(v) ? json_string_value(v) : NULL;
}

static double plan_num(const struct res_file *r, const char *key)
{
	json_t *v = r && r->plan ? json_object_get(r->plan, key) : NULL;
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The last look with a boundary: looks after later pairs spend nothing. */
static size_t last_look(const struct st_seq_design *d)
{
	return d->looks ? d->looks : d->opts.max_pairs;
}

/* 1 when every look had the same horizon K (a fixed design), 0 when it was re-estimated. */
static int horizon_fixed(const struct st_seq_design *d)
{
	for (size_t k = d->opts.first_look; k <= d->looks; k++)
		if (d->horizon[k] && d->horizon[k] != d->opts.max_pairs)
			return 0;
	return 1;
}

static void seq_rule_horizon(FILE *out, const struct st_seq_design *d)
{
	size_t f = d->opts.first_look, last = last_look(d), n = last >= f ? last - f + 1 : 0;
	if (horizon_fixed(d))
		fprintf(out, "Horizon <b>K = %zu pairs</b>; ", d->opts.max_pairs);
	else
		fprintf(
		    out,
		    "Horizon <b>K re-estimated after each pair</b> from the measured cost of "
		    "the pairs (K at each look in the table below, %zu at the last); a look whose "
		    "K grew spends nothing new, the look that reaches its K spends the rest; ",
		    d->opts.max_pairs);
	fprintf(out,
		"looks after every pair from %zu to %zu (%zu look%s; pairs after the last look "
		"spend nothing). ",
		f, last, n, n == 1 ? "" : "s");
}

/* With a baseline: whether its variance was borrowed, and the check of it (rpt_seq.c). */
static void seq_rule_lend(FILE *out, const struct rpt_compare *c)
{
	char check[256];
	rpt_lend_text(check, sizeof(check), c, "&times;");
	if (c->lend_refused)
		fprintf(out,
			"The baseline's restart variance is not borrowed: %s &lt; %g; each query "
			"uses its own pairs only. ",
			check, RPT_LEND_ALPHA);
	if (c->seq_base.opts.prior_df)
		fprintf(
		    out,
		    "Queries with restarts in the baseline borrow its restart variance%s on %zu "
		    "df, pooled with their pairs' (the second row of critical t); checked: %s. ",
		    c->paired ? " (twice it, for a pair's log ratio)" : "",
		    c->seq_base.opts.prior_df, check);
}

/* Where alpha, margin and K come from, and why the rule was applied. */
static void seq_rule_source(FILE *out, const struct rpt_compare *c)
{
	json_t *h = c->old.res->plan ? json_object_get(c->old.res->plan, "horizon") : NULL;
	if (plan_num(c->old.res, "budget_s") > 0)
		fprintf(out,
			"&alpha;, margin and K are the budget run's (plan.alpha, plan.detect, %s), "
			"two-sided, as the run decided.",
			json_is_array(h) ? "plan.horizon" : "plan.max_pairs");
	else
		fputs("&alpha;, margin and sides are compare's options; K is --max-pairs, else "
		      "plan.max_pairs, else the most pairs a query has.",
		      out);
	if (c->opts.seq_auto)
		fputs(" Replayed by default: the files are the variants of one run --budget, whose "
		      "restarts this rule stopped (a fixed-sample test on them would not keep "
		      "&alpha;; <code>--fixed-sample</code> gives it).",
		      out);
	fputs("</p>\n", out);
}

/* The rule in words: what rpt_seq_replay applied (c->seq). */
static void seq_rule(FILE *out, const struct rpt_compare *c)
{
	const struct st_seq_opts *o = &c->seq.opts;
	double up = 1 + o->min_effect;
	int obf = o->spending == ST_SPEND_OBF;
	fprintf(
	    out,
	    "<p class=\"seq-rule\">Group-sequential t-test on the log ratio new/old of each "
	    "pair of restarts (%s), replayed over the pairs in file order. &alpha;-spending: %s "
	    "(Lan &amp; DeMets 1983); &alpha; %g over %zu quer%s: <b>%.3g per query</b>, %s. ",
	    o->pairing == ST_SEQ_PAIRED
		? "paired: restart i of old with restart i of new, one interleaved run"
		: "unpaired: two-sample t, the files are not variants of one run",
	    obf ? "O'Brien&ndash;Fleming type, little &alpha; early" : "Pocock type, evenly",
	    o->alpha, o->m, o->m == 1 ? "y" : "ies", c->seq.alpha_query,
	    o->alt == ST_GREATER ? "for regressions and again for improvements" : "two-sided");
	seq_rule_horizon(out, &c->seq);
	if (o->first_look != 2) /* run --side-by-side --budget: from pair 3 */
		fprintf(out, "First look after pair %zu. ", o->first_look);
	fprintf(
	    out,
	    "Margin %g%%: <i>regression</i> when the repeated confidence interval lies above 1 "
	    "and the estimate is at least %.4g, <i>improvement</i> when it lies below 1 and "
	    "the estimate is at most %.4g, <i>unchanged</i> when it lies within [%.4g, %.4g]; a "
	    "decided query keeps its decision. ",
	    100 * o->min_effect, up, 1 / up, 1 / up, up);
	seq_rule_lend(out, c);
	seq_rule_source(out, c);
}

/* One row of the boundaries table: a cell per look, fmt for finite values, a dash for the
 * others. */
static void bounds_row(FILE *out, const char *fmt, const double *v, size_t f, size_t last)
{
	for (size_t k = f; k <= last; k++)
		if (isfinite(v[k]))
			fprintf(out, fmt, v[k]);
		else
			fputs("<td>" DASH "</td>", out);
}

/* The boundaries: the horizon, critical normal score (known variance), the critical t the
 * decisions use (and those of the queries that borrow a baseline's variance), and the cumulative
 * alpha of one query at each look. */
static void seq_bounds(FILE *out, const struct rpt_compare *c)
{
	const struct st_seq_design *d = &c->seq;
	size_t f = d->opts.first_look, last = last_look(d);
	fputs("<div class=\"table-wrap\"><table class=\"seq-bounds\"><tr><th>look after pair</th>",
	      out);
	for (size_t k = f; k <= last; k++)
		fprintf(out, "<td>%zu</td>", k);
	fputs("</tr>\n<tr><th>horizon K</th>", out);
	for (size_t k = f; k <= last; k++)
		fprintf(out, "<td>%zu</td>", d->horizon[k] ? d->horizon[k] : d->opts.max_pairs);
	fputs("</tr>\n<tr><th>boundary |z|</th>", out);
	bounds_row(out, "<td>%.3f</td>", d->z, f, last);
	fputs("</tr>\n<tr><th>critical t</th>", out);
	bounds_row(out, "<td>%.3g</td>", d->t, f, last);
	if (c->seq_base.opts.prior_df) {
		fprintf(out, "</tr>\n<tr><th>critical t, %zu df borrowed</th>",
			c->seq_base.opts.prior_df);
		bounds_row(out, "<td>%.3g</td>", c->seq_base.t, f, last);
	}
	fputs("</tr>\n<tr><th>&alpha; spent (cumulative)</th>", out);
	for (size_t k = f; k <= last; k++)
		fprintf(out, "<td>%.3g</td>", d->spent[k]);
	fputs("</tr></table></div>\n", out);
}

/* A right-aligned number cell, or a dash. */
static void seq_cell(FILE *out, const char *fmt, double v)
{
	if (!isfinite(v)) {
		fputs("<td data-v=\"NaN\">" DASH "</td>", out);
		return;
	}
	fprintf(out, "<td data-v=\"%.17g\">", v);
	fprintf(out, fmt, v);
	fputs("</td>", out);
}

static const char *seq_badge(enum st_seq_decision d)
{
	return d == ST_SEQ_UNDECIDED ? "inconclusive" : st_seq_decision_name(d);
}

/* What the budget run itself recorded for the query (queries[].budget), or NULL. */
static json_t *run_record(const struct res_file *r, const char *id)
{
	const struct res_query *q = r ? res_file_find_query(r, id) : NULL;
	json_t *b = q && q->extra ? json_object_get(q->extra, "budget") : NULL;
	return json_is_object(b) ? b : NULL;
}

/* "regression after pair 5", "undecided": a run's record in words. */
static void record_text(FILE *out, json_t *rec)
{
	json_t *d = json_object_get(rec, "decision");
	json_t *at = json_object_get(rec, "decided_after_pairs");
	rpt_html_escape(out, json_is_string(d) ? json_string_value(d) : "?");
	if (json_is_integer(at))
		fprintf(out, " after pair %lld", (long long)json_integer_value(at));
}

static void seq_row(FILE *out, const struct rpt_compare *c, const struct rpt_query *q)
{
	const struct st_seq_state *s = &q->seq;
	const struct st_seq_look *l = &s->look;
	int ci = rci_shown(l);
	fputs("<tr data-seq-query=\"", out);
	rpt_html_escape(out, q->id);
	fputs("\"><td class=\"text\">", out);
	rpt_html_escape(out, q->id);
	fprintf(out, "</td><td class=\"text\"><span class=\"badge v-%s\">%s</span></td>",
		seq_badge(s->decision), st_seq_decision_name(s->decision));
	if (s->decided_at)
		fprintf(out, "<td data-v=\"%zu\">%zu</td>", s->decided_at, s->decided_at);
	else
		fputs("<td data-v=\"NaN\">" DASH "</td>", out);
	fprintf(out, "<td data-v=\"%zu\">%zu</td>", q->n_pairs, q->n_pairs);
	seq_cell(out, "%.4f", l->ratio);
	seq_cell(out, "%.4f", ci ? l->ci_lo : NAN);
	seq_cell(out, "%.4f", ci ? l->ci_hi : NAN);
	seq_cell(out, "%.3f", l->t);
	seq_cell(out, "%.4g", l->t_bound);
	fputs("<td class=\"text\">", out);
	rpt_html_escape(out, rpt_verdict_name(q->verdict));
	fputs("</td>", out);
	json_t *rec = run_record(c->old.res, q->id);
	if (plan_num(c->old.res, "budget_s") > 0) {
		fputs("<td class=\"text\">", out);
		if (rec)
			record_text(out, rec);
		else
			fputs(DASH, out);
		fputs("</td>", out);
	}
	fputs("</tr>\n", out);
}

static void seq_table(FILE *out, const struct rpt_compare *c)
{
	int budget = plan_num(c->old.res, "budget_s") > 0;
	fputs("<div class=\"table-wrap\"><table class=\"seq\" id=\"seq\">\n<thead><tr>"
	      "<th class=\"text\">query</th><th class=\"text\">decision</th>"
	      "<th>decided after pair</th><th>pairs</th><th>ratio at that look</th>"
	      "<th>RCI low</th><th>RCI high</th><th>t</th><th>critical t</th>"
	      "<th class=\"text\">verdict</th>",
	      out);
	if (budget)
		fputs("<th class=\"text\">the run recorded</th>", out);
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < c->n_queries; i++)
		seq_row(out, c, &c->queries[i]);
	fputs("</tbody></table></div>\n", out);
}

static void seq_charts(FILE *out, const struct rpt_compare *c)
{
	fputs("<div class=\"seq-charts\">\n", out);
	for (size_t i = 0; i < c->n_queries; i++) {
		const struct rpt_query *q = &c->queries[i];
		const struct st_seq_state *s = &q->seq;
		fputs("<figure class=\"seq-chart\"><figcaption>", out);
		rpt_html_escape(out, q->id);
		fprintf(out, " <span class=\"badge v-%s\">%s</span>", seq_badge(s->decision),
			st_seq_decision_name(s->decision));
		if (s->decided_at)
			fprintf(out, " after pair %zu", s->decided_at);
		else
			fprintf(out, " after %zu pair%s", q->n_pairs, q->n_pairs == 1 ? "" : "s");
		fprintf(out,
			"</figcaption><div class=\"chart\" data-chart=\"seq\" data-seq=\"%zu\">"
			"</div></figure>\n",
			i);
	}
	fputs("</div>\n", out);
}

void rpt_html_seq_write(FILE *out, const struct rpt_html_page *pg)
{
	const struct rpt_compare *c = seq_model(pg);
	if (!c)
		return;
	fputs("<h2 id=\"sequential\">Sequential decisions</h2>\n", out);
	seq_rule(out, c);
	seq_bounds(out, c);
	seq_table(out, c);
	fputs("<p class=\"muted\">Each chart: the estimated ratio new/old after each pair (point) "
	      "with its repeated confidence interval (bar; none before the first look, clipped "
	      "where it leaves the chart), the unchanged band [1/(1+margin), 1+margin] shaded, 1 "
	      "dashed; the look that decided in red with a dashed line, looks after it grey (the "
	      "rule no longer uses them).</p>\n",
	      out);
	seq_charts(out, c);
}

/* ---- the budget section ---- */

static int is_budget(const struct res_file *r)
{
	return plan_num(r, "budget_s") > 0;
}

static json_t *top_budget(const struct res_file *r)
{
	json_t *b = r->extra ? json_object_get(r->extra, "budget") : NULL;
	return json_is_object(b) ? b : NULL;
}

/* The pairs the run made: $.budget.pairs, else plan.restarts. */
static long long pairs_run(const struct res_file *r)
{
	json_t *b = top_budget(r), *p = b ? json_object_get(b, "pairs") : NULL;
	if (json_is_integer(p))
		return json_integer_value(p);
	double x = plan_num(r, "restarts");
	return isfinite(x) ? (long long)x : 0;
}

static void stop_text(FILE *out, json_t *b)
{
	const char *why = json_string_value(json_object_get(b, "stop_reason"));
	json_t *est = json_object_get(b, "next_pair_estimate_s");
	if (!why)
		fputs("still running or interrupted", out);
	else if (!strcmp(why, "all-decided"))
		fputs("every query decided", out);
	else if (!strcmp(why, "budget") && json_is_number(est))
		fprintf(out, "the next pair (estimated %.0f s) would not fit in the budget",
			json_number_value(est));
	else if (!strcmp(why, "budget"))
		fputs("the next pair would not fit in the budget", out);
	else if (!strcmp(why, "max-pairs"))
		fputs("the horizon (plan.max_pairs) was reached", out);
	else if (!strcmp(why, "failed"))
		fputs("a restart failed", out);
	else
		rpt_html_escape(out, why);
}

static void budget_run_line(FILE *out, const struct rpt_html_side *side)
{
	const struct res_file *r = side->res;
	json_t *b = top_budget(r);
	const char *rule = plan_str(r, "decision_rule");
	fputs("<li><b>", out);
	rpt_html_escape(out, side->name);
	fprintf(out, "</b>: budget %.0f s; %lld pair%s", plan_num(r, "budget_s"), pairs_run(r),
		pairs_run(r) == 1 ? "" : "s");
	if (b && json_is_number(json_object_get(b, "elapsed_s")))
		fprintf(out, " in %.0f s", json_number_value(json_object_get(b, "elapsed_s")));
	fputs("; ended: ", out);
	if (b)
		stop_text(out, b);
	else
		fputs("not recorded", out);
	if (rule) {
		fputs("; decision rule ", out);
		rpt_html_escape(out, rule);
	}
	if (isfinite(plan_num(r, "max_pairs")))
		fprintf(out, ", horizon %.0f pairs", plan_num(r, "max_pairs"));
	double wmin = plan_num(r, "warmup_min"), wmax = plan_num(r, "warmup_max");
	double rmin = plan_num(r, "runs_min"), rmax = plan_num(r, "runs_max");
	if (isfinite(wmin) && isfinite(wmax))
		fprintf(out, "; warm-up until steady, %.0f to %.0f executions", wmin, wmax);
	if (isfinite(rmin) && isfinite(rmax))
		fprintf(out, "; %.0f to %.0f measured runs", rmin, rmax);
	json_t *keep = json_object_get(r->plan, "keep_all");
	fputs(json_is_true(keep) ? "; every query measured to the end (--measure-decided)"
				 : "; decided queries stop being measured",
	      out);
	fputs("</li>\n", out);
}

/* "4 5 4 8": the warm-up (warmup 1) or measured (0) executions of each restart, in order. */
static void counts_cell(FILE *out, const struct res_query *q, int warmup)
{
	fputs("<td class=\"text mono\">", out);
	for (size_t i = 0; q && i < q->n_restarts; i++)
		fprintf(out, "%s%zu", i ? " " : "",
			warmup ? q->restarts[i].n_warmup : q->restarts[i].n_measured);
	fputs("</td>", out);
}

/* Restarts whose warm-up was ended by --warmup-max (warmup_steady false). */
static size_t warmup_cut(const struct res_query *q)
{
	size_t n = 0;
	for (size_t i = 0; q && i < q->n_restarts; i++) {
		json_t *v = q->restarts[i].extra
				? json_object_get(q->restarts[i].extra, "warmup_steady")
				: NULL;
		n += json_is_false(v);
	}
	return n;
}

/* "every pair (8)", or "stopped after pair 5" when its last restart came before the last pair. */
static void measured_until(FILE *out, const struct res_file *r, const struct res_query *q)
{
	long long last = 0, pairs = pairs_run(r);
	for (size_t i = 0; q && i < q->n_restarts; i++)
		if (q->restarts[i].index + 1 > last)
			last = q->restarts[i].index + 1;
	fputs("<td class=\"text\">", out);
	if (!q)
		fputs("not measured", out);
	else if (last >= pairs)
		fprintf(out, "every pair (%lld)", pairs);
	else
		fprintf(out, "stopped after pair %lld", last);
	fputs("</td>", out);
}

static void budget_row(FILE *out, const struct rpt_html_page *pg, size_t qi, size_t s)
{
	const struct res_file *r = pg->sides[s].res;
	const struct res_query *q = res_file_find_query(r, pg->ids[qi]);
	json_t *rec = run_record(r, pg->ids[qi]);
	fputs("<tr data-budget-query=\"", out);
	rpt_html_escape(out, pg->ids[qi]);
	fprintf(out, "\" data-side=\"%zu\"><td class=\"text\">", s);
	rpt_html_escape(out, pg->ids[qi]);
	fputs("</td><td class=\"text\">", out);
	rpt_html_escape(out, pg->sides[s].name);
	fprintf(out, "</td><td data-v=\"%zu\">%zu</td>", q ? q->n_restarts : 0,
		q ? q->n_restarts : 0);
	measured_until(out, r, q);
	counts_cell(out, q, 1);
	fprintf(out, "<td data-v=\"%zu\">%zu</td>", warmup_cut(q), warmup_cut(q));
	counts_cell(out, q, 0);
	fputs("<td class=\"text\">", out);
	if (rec)
		record_text(out, rec);
	else
		fputs(DASH, out);
	fputs("</td></tr>\n", out);
}

void rpt_html_budget_write(FILE *out, const struct rpt_html_page *pg)
{
	size_t n = 0;
	for (size_t s = 0; s < pg->n_sides; s++)
		n += is_budget(pg->sides[s].res);
	if (n == 0)
		return;
	fputs("<h2 id=\"budget\">Budget run</h2>\n<ul class=\"budget-runs\">\n", out);
	for (size_t s = 0; s < pg->n_sides; s++)
		if (is_budget(pg->sides[s].res))
			budget_run_line(out, &pg->sides[s]);
	fputs(
	    "</ul>\n<p class=\"muted\">Per query and file: the restarts measured, whether the "
	    "query was measured in every pair or stopped (decided queries stop being measured), "
	    "the warm-up executions of each restart in order (the adaptive warm-up; cut: "
	    "restarts ended by the warm-up maximum before the series was steady), the measured "
	    "runs of each restart (the cost-optimal allocation), and the decision the run "
	    "recorded.</p>\n<div class=\"table-wrap\"><table class=\"budget\" id=\"budget-table\">"
	    "\n<thead><tr><th class=\"text\">query</th><th class=\"text\">file</th>"
	    "<th>restarts</th><th class=\"text\">measured</th>"
	    "<th class=\"text\">warm-up per restart</th><th>cut</th>"
	    "<th class=\"text\">runs per restart</th><th class=\"text\">the run decided</th>"
	    "</tr></thead>\n<tbody>\n",
	    out);
	for (size_t q = 0; q < pg->n_ids; q++)
		for (size_t s = 0; s < pg->n_sides; s++)
			if (is_budget(pg->sides[s].res))
				budget_row(out, pg, q, s);
	fputs("</tbody></table></div>\n", out);
}
