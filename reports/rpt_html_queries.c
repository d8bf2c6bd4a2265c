/* SPDX-License-Identifier: MIT */
/* The HTML page's table and per-query sections: figures, marks, plans. */
#include "reports/rpt.h"
#include "reports/rpt_html.h"
#include "reports/rpt_html_int.h"
#include "reports/rpt_trace.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void write_marks(FILE *out, const struct rpt_html_page *pg, size_t q)
{
	for (size_t s = 0; s < pg->n_sides; s++) {
		const struct rpt_html_fig *f = &pg->figs[q * pg->n_sides + s];
		const char *who = pg->compare ? (s == 0 ? "old " : "new ") : "";
		if (f->not_steady)
			fprintf(out, "<span class=\"mark warn\">%snot steady</span>", who);
		if (f->timeout)
			fprintf(out, "<span class=\"mark warn\">%stimeout</span>", who);
		if (f->crash)
			fprintf(out, "<span class=\"mark warn\">%scrash</span>", who);
		if (f->error)
			fprintf(out, "<span class=\"mark warn\">%serror</span>", who);
		if (!f->present)
			fprintf(out, "<span class=\"mark warn\">%smissing</span>", who);
	}
	if (pg->compare && pg->rows[q].plan_changed)
		fputs("<span class=\"mark plan\">plan changed</span>", out);
}

/* "5.10% [3.20–12.4%]" or "-". */
static void fmt_noise(char *buf, size_t n, const struct rpt_html_fig *f)
{
	if (!isfinite(f->sd_log))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.2f%% [%.2f\xe2\x80\x93%.2f%%]", 100 * f->sd_log, 100 * f->sd_lo,
			 100 * f->sd_hi);
}

/* The run-position mark: "warm-up? runs 1, 2". */
static void write_position(FILE *out, const struct rpt_html_fig *f)
{
	if (!f->position_effect)
		return;
	fputs("<span class=\"mark warn\" title=\"the same runs differ in every restart: the "
	      "restart mean is not a steady-state mean\">warm-up? runs",
	      out);
	for (unsigned j = 0, k = 0; j < 32; j++)
		if (f->position_runs & (1u << j))
			fprintf(out, "%s %u", k++ ? "," : "", j + 1);
	fputs("</span>", out);
}

void rpt_html_table_compare_write(FILE *out, const struct rpt_html_page *pg)
{
	char buf[64];
	fputs("<table class=\"figures\" id=\"figures\">\n<thead><tr>"
	      "<th class=\"text\">query</th><th class=\"text\">verdict</th>"
	      "<th>old ms</th><th>new ms</th><th>ratio</th><th>CI low (unadj.)</th>"
	      "<th>CI high (unadj.)</th><th>p</th><th>adj. p</th><th class=\"text\">test</th>"
	      "<th>n old</th><th>n new</th>"
	      "<th>noise sd old</th><th>noise sd new</th><th class=\"text\">marks</th>"
	      "</tr></thead>\n<tbody>\n",
	      out);
	for (size_t q = 0; q < pg->n_ids; q++) {
		const struct rpt_html_row *r = &pg->rows[q];
		const struct rpt_html_fig *fo = &pg->figs[q * 2], *fn = &pg->figs[q * 2 + 1];
		fprintf(out, "<tr class=\"verdict-%s\" data-query=\"",
			rpt_html_verdict_label(r->verdict));
		rpt_html_esc(out, pg->ids[q]);
		fputs("\"><td data-v=\"", out);
		/* sort Q2 before Q10: by position in the plan */
		fprintf(out, "%zu\">", q);
		rpt_html_esc(out, pg->ids[q]);
		fprintf(out, "</td><td class=\"text\"><span class=\"badge v-%s\">%s</span></td>",
			rpt_html_verdict_label(r->verdict), rpt_html_verdict_label(r->verdict));
		rpt_html_fmt_ms(buf, sizeof(buf), r->old_ms);
		rpt_html_td_num(out, r->old_ms, buf);
		rpt_html_fmt_ms(buf, sizeof(buf), r->new_ms);
		rpt_html_td_num(out, r->new_ms, buf);
		rpt_html_fmt_g(buf, sizeof(buf),
			       r->bound > 0   ? ">= %.4f"
			       : r->bound < 0 ? "<= %.4f"
					      : "%.4f",
			       r->ratio);
		rpt_html_td_num(out, r->ratio, buf);
		rpt_html_fmt_g(buf, sizeof(buf), "%.4f", r->lo);
		rpt_html_td_num(out, r->lo, buf);
		rpt_html_fmt_g(buf, sizeof(buf), "%.4f", r->hi);
		rpt_html_td_num(out, r->hi, buf);
		rpt_html_fmt_g(buf, sizeof(buf), "%.3g", r->p);
		rpt_html_td_num(out, r->p, buf);
		rpt_html_fmt_g(buf, sizeof(buf), "%.3g", r->p_adj);
		rpt_html_td_num(out, r->p_adj, buf);
		fputs("<td class=\"text\">", out);
		rpt_html_esc(out, r->test ? r->test : "none");
		fputs("</td>", out);
		snprintf(buf, sizeof(buf), "%zu", fo->n_ok);
		rpt_html_td_num(out, (double)fo->n_ok, buf);
		snprintf(buf, sizeof(buf), "%zu", fn->n_ok);
		rpt_html_td_num(out, (double)fn->n_ok, buf);
		rpt_html_fmt_pct(buf, sizeof(buf), fo->sd_log);
		rpt_html_td_num(out, fo->sd_log, buf);
		rpt_html_fmt_pct(buf, sizeof(buf), fn->sd_log);
		rpt_html_td_num(out, fn->sd_log, buf);
		fputs("<td class=\"text\">", out);
		write_marks(out, pg, q);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
}

/* Any query of any file with instruction counts: the report table gets their column. */
static int have_instr(const struct rpt_html_page *pg)
{
	for (size_t i = 0; i < pg->n_ids * pg->n_sides; i++)
		if (pg->figs[i].present && pg->figs[i].instr.restarts)
			return 1;
	return 0;
}

/* The instructions cell: the mean count per execution and the restarts' spread. */
static void td_instr(FILE *out, const struct rpt_html_fig *f)
{
	char v[32], buf[64];
	if (!f->instr.restarts) {
		rpt_html_td_num(out, NAN, "");
		return;
	}
	rpt_work_fmt_count(v, sizeof(v), f->instr.mean);
	snprintf(buf, sizeof(buf), "%s (%.3f%%)", v, 100 * f->instr.spread);
	rpt_html_td_num(out, f->instr.mean, buf);
}

void rpt_html_table_report_write(FILE *out, const struct rpt_html_page *pg)
{
	char buf[64];
	int instr = have_instr(pg);
	fputs("<table class=\"figures\" id=\"figures\">\n<thead><tr>"
	      "<th class=\"text\">query</th><th class=\"text\">result</th><th>restarts</th>"
	      "<th>geo. mean (ms)</th><th>within-restart CoV</th><th>noise sd [95% CI]</th>"
	      "<th>rows</th>",
	      out);
	if (instr)
		fputs("<th>instructions per execution (restarts' spread)</th>", out);
	fputs("<th class=\"text\">marks</th></tr></thead>\n<tbody>\n", out);
	for (size_t q = 0; q < pg->n_ids; q++) {
		for (size_t s = 0; s < pg->n_sides; s++) {
			const struct rpt_html_fig *f = &pg->figs[q * pg->n_sides + s];
			if (!f->present)
				continue;
			fputs("<tr data-query=\"", out);
			rpt_html_esc(out, pg->ids[q]);
			fprintf(out, "\"><td data-v=\"%zu\">", q);
			rpt_html_esc(out, pg->ids[q]);
			fputs("</td><td class=\"text\">", out);
			rpt_html_esc(out, pg->sides[s].name);
			fputs("</td>", out);
			snprintf(buf, sizeof(buf), "%zu", f->n_ok);
			rpt_html_td_num(out, (double)f->n_ok, buf);
			rpt_html_fmt_ms(buf, sizeof(buf), f->gmean);
			rpt_html_td_num(out, f->gmean, buf);
			rpt_html_fmt_pct(buf, sizeof(buf), f->cov_within);
			rpt_html_td_num(out, f->cov_within, buf);
			fmt_noise(buf, sizeof(buf), f);
			rpt_html_td_num(out, f->sd_log, buf);
			rpt_html_fmt_g(buf, sizeof(buf), "%.0f",
				       f->rows >= 0 ? (double)f->rows : NAN);
			rpt_html_td_num(out, f->rows >= 0 ? (double)f->rows : NAN, buf);
			if (instr)
				td_instr(out, f);
			fputs("<td class=\"text\">", out);
			const struct rpt_html_fig *one = f;
			if (one->not_steady)
				fputs("<span class=\"mark warn\">not steady</span>", out);
			write_position(out, one);
			if (one->timeout)
				fputs("<span class=\"mark warn\">timeout</span>", out);
			if (one->crash)
				fputs("<span class=\"mark warn\">crash</span>", out);
			if (one->error)
				fputs("<span class=\"mark warn\">error</span>", out);
			if (one->plans_differ)
				fputs("<span class=\"mark plan\">plan differs between "
				      "restarts</span>",
				      out);
			fputs("</td></tr>\n", out);
		}
	}
	fputs("</tbody></table>\n", out);
}

/* The plan as indented JSON when it parses, else as it is; escaped. */
/* The join order at a glance: every "table" of the plan in document order as
 * "name access_type key", joined by arrows (escaped). *n counts the tables written. */
static void write_plan_shape(FILE *out, json_t *v, size_t *n)
{
	const char *key;
	json_t *e;
	size_t i;
	if (json_is_object(v)) {
		const char *name = json_string_value(json_object_get(v, "table_name"));
		if (name) {
			const char *access = json_string_value(json_object_get(v, "access_type"));
			const char *k = json_string_value(json_object_get(v, "key"));
			fputs(*n ? " \xe2\x86\x92 " : "", out);
			fputs("<b>", out);
			rpt_html_esc(out, name);
			fputs("</b>", out);
			if (access) {
				fputc(' ', out);
				rpt_html_esc(out, access);
			}
			if (k) {
				fputc(' ', out);
				rpt_html_esc(out, k);
			}
			(*n)++;
		}
		json_object_foreach(v, key, e)
		{
			write_plan_shape(out, e, n);
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, e)
		{
			write_plan_shape(out, e, n);
		}
	}
}

static void write_plan(FILE *out, const char *plan)
{
	json_error_t jerr;
	json_t *j = plan ? json_loads(plan, 0, &jerr) : NULL;
	char *pretty = j ? json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
	if (j) {
		size_t n = 0;
		fputs("<p class=\"plan-shape\">", out);
		write_plan_shape(out, j, &n);
		fputs("</p>", out);
	}
	fputs("<pre>", out);
	if (pretty || plan)
		rpt_html_esc(out, pretty ? pretty : plan);
	else
		fputs("(no plan recorded)", out);
	fputs("</pre>", out);
	free(pretty);
	json_decref(j);
}

/* Plans side by side: compare mode when the plan changed; report mode when the files' plans
 * differ. */
static int show_plans(const struct rpt_html_page *pg, size_t q)
{
	int show = 0;
	if (pg->compare) {
		show = pg->rows[q].plan_changed;
	} else {
		const char *first = NULL;
		for (size_t s = 0; s < pg->n_sides; s++) {
			const char *sha = pg->figs[q * pg->n_sides + s].plan_sha256;
			if (!sha)
				continue;
			if (first && strcmp(first, sha))
				show = 1;
			first = first ? first : sha;
		}
	}
	return show;
}

/* compare: the functions whose self instructions moved most (rpt_funcs_html). */
static void write_funcs(FILE *out, const struct rpt_html_page *pg, size_t q)
{
	const struct rpt_funcs *f = pg->compare ? pg->rows[q].funcs : NULL;
	if (!f || !f->compared || !f->n)
		return;
	fputs("<div class=\"funcs\"><h4>Functions (self instructions per execution, the largest "
	      "changes)</h4>\n",
	      out);
	rpt_funcs_html(out, f);
	fputs("</div>\n", out);
}

static void write_plans(FILE *out, const struct rpt_html_page *pg, size_t q)
{
	if (!show_plans(pg, q))
		return;
	fputs(
	    "<div class=\"plans\"><h4>Plans (EXPLAIN FORMAT=JSON, first restart of each side)</h4>",
	    out);
	if (pg->compare && pg->rows[q].plan_diff && pg->n_sides == 2)
		rpt_html_plan_diff(out, pg->rows[q].plan_diff, pg->sides[0].name,
				   pg->sides[1].name);
	if (pg->compare && pg->rows[q].trace && pg->n_sides == 2)
		rpt_trace_html(out, pg->rows[q].trace, pg->sides[0].name, pg->sides[1].name);
	fputs("<div class=\"side-by-side\">", out);
	for (size_t s = 0; s < pg->n_sides; s++) {
		const struct rpt_html_fig *f = &pg->figs[q * pg->n_sides + s];
		fputs("<div><h4>", out);
		rpt_html_esc(out, pg->sides[s].name);
		if (f->plan_sha256) {
			fputs(" <span class=\"muted mono\">", out);
			fprintf(out, "%.12s", f->plan_sha256);
			fputs("</span>", out);
		}
		fputs("</h4>", out);
		write_plan(out, f->plan);
		fputs("</div>", out);
	}
	fputs("</div></div>\n", out);
}

/* compare: the work counters' and the instructions' lines of the query (as the text says them;
 * "" when none). */
static void why_lines(char work[1024], char instr[1024], const struct rpt_html_page *pg, size_t q)
{
	*work = *instr = '\0';
	if (!pg->compare || !pg->cmp || q >= pg->cmp->n_queries)
		return;
	rpt_work_query_line(work, 1024, &pg->cmp->queries[q]);
	rpt_instr_query_line(instr, 1024, &pg->cmp->queries[q]);
}

/* The query's card below its time: why it changed (work counters, instructions, the plans
 * and their diff with the optimizer's reasons, where the rows went, which functions), each
 * part only where the files hold it; nothing when none is there. */
static void write_why(FILE *out, const struct rpt_html_page *pg, size_t q)
{
	char work[1024], instr[1024];
	int rows = pg->compare && pg->rows[q].analyze && pg->n_sides == 2;
	const struct rpt_funcs *f = pg->compare ? pg->rows[q].funcs : NULL;
	int funcs = f && f->compared && f->n;
	why_lines(work, instr, pg, q);
	if (!*work && !*instr && !show_plans(pg, q) && !rows && !funcs)
		return;
	fputs("<section class=\"why\"><h4>Why</h4>\n", out);
	if (*work || *instr) {
		fputs("<p class=\"why-lines\">", out);
		rpt_html_esc(out, work + strspn(work, " "));
		if (*work && *instr)
			fputs("<br>", out);
		rpt_html_esc(out, instr + strspn(instr, " "));
		fputs("</p>\n", out);
	}
	write_plans(out, pg, q);
	if (rows)
		rpt_html_analyze(out, pg->rows[q].analyze, pg->sides[0].name, pg->sides[1].name);
	write_funcs(out, pg, q);
	fputs("</section>\n", out);
}

void rpt_html_queries_write(FILE *out, const struct rpt_html_page *pg)
{
	char a[32], b[32], c[32];
	fputs("<h2>Per query</h2>\n<p class=\"muted\">Left: the mean of the measured runs of each "
	      "restart (one dot per server start). Right: every execution of every restart in "
	      "order, one line per restart; runs left of the dashed line are warm-up.</p>\n"
	      "<div class=\"queries\">\n",
	      out);
	for (size_t q = 0; q < pg->n_ids; q++) {
		const char *v = pg->compare ? rpt_html_verdict_label(pg->rows[q].verdict) : "none";
		fprintf(out, "<article class=\"query verdict-%s%s\" id=\"q-%zu\" data-query=\"", v,
			show_plans(pg, q) ? " has-plans" : "", q);
		rpt_html_esc(out, pg->ids[q]);
		fputs("\"><h3>", out);
		rpt_html_esc(out, pg->ids[q]);
		if (pg->compare) {
			const struct rpt_html_row *r = &pg->rows[q];
			fprintf(out, " <span class=\"badge v-%s\">%s</span>", v, v);
			write_marks(out, pg, q);
			fputs("</h3>\n<p class=\"facts\">", out);
			rpt_html_fmt_g(a, sizeof(a), "%.4f", r->ratio);
			rpt_html_fmt_g(b, sizeof(b), "%.4f", r->lo);
			rpt_html_fmt_g(c, sizeof(c), "%.4f", r->hi);
			fprintf(out, "ratio %s [%s, %s] (%.0f%% CI, per query, unadjusted", a, b, c,
				(1 - pg->alpha) * 100);
			rpt_html_fmt_g(b, sizeof(b), "%.4f", r->sim_lo);
			rpt_html_fmt_g(c, sizeof(c), "%.4f", r->sim_hi);
			fprintf(out, "; simultaneous over the queries [%s, %s])", b, c);
			rpt_html_fmt_g(a, sizeof(a), "%.3g", r->p_adj);
			fprintf(out, ", adj. p %s, test %s", a, r->test ? r->test : "none");
			if (r->why) {
				fputs(" (", out);
				rpt_html_esc(out, r->why);
				fputs(")", out);
			}
		} else {
			write_marks(out, pg, q);
			fputs("</h3>\n<p class=\"facts\">", out);
		}
		for (size_t s = 0; s < pg->n_sides; s++) {
			const struct rpt_html_fig *f = &pg->figs[q * pg->n_sides + s];
			if (pg->compare || s > 0)
				fputs("<br>", out);
			rpt_html_esc(out, pg->sides[s].name);
			rpt_html_fmt_ms(a, sizeof(a), f->gmean);
			fmt_noise(b, sizeof(b), f);
			rpt_html_fmt_pct(c, sizeof(c), f->cov_within);
			fprintf(out, ": %s ms over %zu restart%s, noise sd (log restart means) %s",
				a, f->n_ok, f->n_ok == 1 ? "" : "s", b);
			if (isfinite(f->sd_between) && f->sd_between > 0)
				fprintf(out, ", between-restart part %.2f%%", 100 * f->sd_between);
			else if (isfinite(f->sd_ucb))
				fprintf(out,
					", between-restart part 0 (at most %.2f%%, 95%% bound)",
					100 * f->sd_ucb);
			fprintf(out, ", within-restart CoV %s", c);
			if (f->position_effect)
				fputs(", run-position effect (warm-up?)", out);
		}
		fputs("</p>\n<div class=\"charts\">", out);
		fprintf(out, "<div class=\"chart\" data-chart=\"means\" data-q=\"%zu\"></div>", q);
		fprintf(out, "<div class=\"chart\" data-chart=\"warmup\" data-q=\"%zu\"></div>", q);
		fputs("</div>\n", out);
		write_why(out, pg, q);
		fputs("</article>\n", out);
	}
	fputs("</div>\n", out);
}

/* The data report.js draws from. */
