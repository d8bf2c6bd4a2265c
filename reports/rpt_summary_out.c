/* SPDX-License-Identifier: MIT */
/* summary output: restart-level figures of one result file as text, Markdown or JSON. */
#include "reports/rpt.h"
#include "reports/rpt_format.h"
#include "reports/rpt_table.h"
#include "base/text.h"
#include "stats/st_cost.h"
#include <math.h>
#include <string.h>

static void fmt_num(char *buf, size_t n, const char *fmt, double x)
{
	if (!isfinite(x))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, fmt, x);
}

static void fmt_count(char *buf, size_t n, size_t v, int over, size_t max)
{
	if (over)
		snprintf(buf, n, ">%zu", max);
	else if (v)
		snprintf(buf, n, "%zu", v);
	else
		snprintf(buf, n, "-");
}

/* "7 (4-19)": restarts needed at the estimated noise and at the ends of its 95% CI. */
static void fmt_needed(char *buf, size_t n, const struct rpt_summary *s,
		       const struct rpt_summary_query *q)
{
	char v[32], lo[32], hi[32];
	size_t max = s->opts.max_restarts;
	fmt_count(v, sizeof(v), q->needed, q->needed_over, max);
	if (!q->have_noise || (!q->needed && !q->needed_over)) {
		snprintf(buf, n, "%s", v);
		return;
	}
	fmt_count(lo, sizeof(lo), q->needed_lo, !q->needed_lo, max);
	fmt_count(hi, sizeof(hi), q->needed_hi, q->needed_hi_over, max);
	snprintf(buf, n, "%.12s (%.12s–%.12s)", v, lo, hi);
}

/* The between part: its estimate, or its 95% upper bound when the estimate is 0. */
static void fmt_between(char *buf, size_t n, const struct rpt_summary_query *q)
{
	if (!q->have_noise)
		snprintf(buf, n, "-");
	else if (q->noise.sd_between > 0)
		snprintf(buf, n, "%.2f%%", 100.0 * q->noise.sd_between);
	else
		snprintf(buf, n, "0 (<=%.2f%%)", 100.0 * q->noise.sd_ucb);
}

/* The figures of one query as strings, in table order. */
enum { COLS = 10 };
static void row(char cells[COLS][64], const struct rpt_summary *s,
		const struct rpt_summary_query *q)
{
	const struct st_query_stats *st = &q->stats;
	const struct st_noise *nz = &q->noise;
	int ok = q->have_stats;
	snprintf(cells[0], 64, "%s", q->id);
	snprintf(cells[1], 64, "%zu/%zu", q->side.n_used, q->side.n_restarts);
	snprintf(cells[2], 64, "%zu", ok ? st->n_runs : (size_t)0);
	fmt_num(cells[3], 64, "%.3f", ok ? st->mean : NAN);
	fmt_num(cells[4], 64, "%.3f", ok ? st->gmean : NAN);
	fmt_num(cells[5], 64, "%.2f%%", ok ? 100.0 * st->cov_within : NAN);
	if (q->have_noise)
		snprintf(cells[6], 64, "%.2f%% (%.2f–%.2f%%)", 100.0 * nz->sd_log, 100.0 * nz->sd_lo,
			 100.0 * nz->sd_hi);
	else
		snprintf(cells[6], 64, "-");
	fmt_between(cells[7], 64, q);
	fmt_num(cells[8], 64, "%.2f%%", q->have_noise ? 100.0 * nz->sd_within : NAN);
	fmt_needed(cells[9], 64, s, q);
}

static void heads(char h[COLS][64], const struct rpt_summary *s)
{
	static const char *const fixed[COLS] = {
	    "query",	      "restarts",	    "runs",    "mean ms",     "gmean ms",
	    "run CoV", "noise sd (95% CI)", "between", "within part", ""};
	for (int i = 0; i < COLS; i++)
		snprintf(h[i], 64, "%s", fixed[i]);
	snprintf(h[9], 64, "restarts for %g%% (95%% CI)", 100.0 * s->opts.detect);
}

static void header_line(FILE *f, const struct rpt_summary *s, int md)
{
	const struct res_file *r = s->file.res;
	char path[1024], label[1024];
	const char *q = md ? "`" : "'";
	/* the path and the label are the user's: escaped for the terminal or Markdown */
	fprintf(f, "%s%s%s: scale factor %g", md ? "" : q,
		md ? util_md_code(path, sizeof(path), s->file.path)
		   : util_term(path, sizeof(path), s->file.path),
		md ? "" : q, res_file_scale_factor(r));
	if (r->label)
		fprintf(f, ", label %s",
			md ? util_md(label, sizeof(label), r->label)
			   : util_term(label, sizeof(label), r->label));
	fprintf(f, ", started %s%s\n", r->started_at ? r->started_at : "?",
		r->finished_at ? "" : " (unfinished)");
	char noise[1024];
	if (res_file_pool_fits(r) == 0)
		fprintf(f, "%s" RES_POOL_NOT_FIT "\n", md ? "**warning:** " : "warning: ");
	if (res_interf_line(r, noise, sizeof(noise)))
		fprintf(f, "%s%s\n", md ? "**warning:** " : "warning: ", noise);
	struct errbuf err;
	if (st_cost_host_line(noise, sizeof(noise), r, &err) > 0)
		fprintf(f, "%s%s\n", md ? "**host:** " : "host: ", noise);
}

static const char *power_test(const struct rpt_summary *s)
{
	switch (s->opts.method) {
	case ST_METHOD_WELCH:
		return "Welch t";
	case ST_METHOD_EB:
		return "moderated t";
	default:
		return "pooled t";
	}
}

static void footnote(FILE *f, const struct rpt_summary *s, const char *prefix)
{
	size_t used = s->n_queries ? s->queries[0].side.n_used : 0;
	fprintf(f,
		"%snoise sd: sd of the log restart means (the noise compare tests against; about "
		"the CoV of the restart means), with its 95%% chi-square CI; between: its "
		"between-restart part, with the 95%% upper bound when the estimate is 0; within "
		"part: what the run noise adds to a restart mean (run CoV / sqrt(runs))\n",
		prefix);
	fprintf(f,
		"%srestarts for %g%%: restarts a side for compare to flag a %g%% slowdown with "
		"%g%% power (%s, %s, %s over %zu queries, alpha %g, min effect %g%%%s), at the "
		"noise measured here and at the ends of its 95%% CI: %s%zu restart%s%s\n",
		prefix, 100.0 * s->opts.detect, 100.0 * s->opts.detect, 100.0 * s->opts.power,
		power_test(s), s->opts.alt == ST_GREATER ? "one-sided" : "two-sided",
		st_correction_name(s->opts.correction), s->n_queries, s->opts.alpha,
		100.0 * s->opts.min_effect, s->opts.min_effect_test ? ", min-effect test" : "",
		used < 2 ? "no noise from " : "from ", used, used == 1 ? "" : "s",
		used < 2 ? " (it needs at least 2)"
			 : " the noise is uncertain, so plan with the upper figure");
}

/* Warning kinds of one query: every enum rpt_warn flag, then "fewer than 2 ok restarts". */
enum { SUM_W_FEW = 1 << 6 };
static const unsigned warn_kinds[] = {RPT_W_NOT_STEADY,    RPT_W_TIMEOUT, RPT_W_CRASH,
				      RPT_W_ERROR,	   RPT_W_PLAN_VARIES, RPT_W_RESULT_VARIES,
				      SUM_W_FEW,	   RPT_W_POSITION};

static unsigned query_warn(const struct rpt_summary_query *q)
{
	return q->warn | (q->have_stats && q->side.n_used < 2 ? (unsigned)SUM_W_FEW : 0u);
}

/* "run-position effect (F test p = 1e-08): runs 1, 2 differ from the typical run ..." */
static void position_text(char *buf, size_t n, const struct rpt_summary_query *q)
{
	size_t at = (size_t)snprintf(buf, n, "run-position effect (F test p = %.2g): ",
				     q->position.p), k = 0, nflag = 0;
	for (size_t j = 0; j < q->position.n && j < 32; j++)
		nflag += (q->position_flags >> j) & 1u;
	for (size_t j = 0; j < q->position.n && j < 32 && at < n; j++)
		if (q->position_flags & (1u << j))
			at += (size_t)snprintf(buf + at, n - at, "%s%zu",
					       k++ ? ", " : nflag > 1 ? "runs " : "run ", j + 1);
	if (at < n)
		snprintf(buf + at, n - at, "%s: the restart mean is not a steady-state mean",
			 nflag > 1   ? " differ from the typical run in every restart (a warm-up "
				       "transient?)"
			 : nflag > 0 ? " differs from the typical run in every restart (a warm-up "
				       "transient?)"
				     : "the runs' positions matter in every restart, no single run "
				       "stands out");
}

/* The text of warning kind k of q into buf (without the query id); 0 when q has none. */
static int warning_text(char *buf, size_t n, const struct rpt_summary_query *q, unsigned k)
{
	const struct rpt_side *d = &q->side;
	if (!(query_warn(q) & k))
		return 0;
	switch (k) {
	case RPT_W_NOT_STEADY:
		snprintf(buf, n, "not steady in %zu of %zu restarts", d->not_steady, d->n_restarts);
		break;
	case RPT_W_TIMEOUT:
		snprintf(buf, n, "timed out in %zu of %zu restarts", d->timeouts, d->n_restarts);
		break;
	case RPT_W_CRASH:
		snprintf(buf, n, "the server crashed in %zu of %zu restarts", d->crashes,
			 d->n_restarts);
		break;
	case RPT_W_ERROR:
		snprintf(buf, n, "failed with an error in %zu of %zu restarts", d->errors,
			 d->n_restarts);
		break;
	case RPT_W_PLAN_VARIES:
		snprintf(buf, n, "the plan differs between restarts");
		break;
	case RPT_W_RESULT_VARIES:
		snprintf(buf, n, "the result differs between restarts");
		break;
	case RPT_W_POSITION:
		position_text(buf, n, q);
		break;
	default:
		snprintf(buf, n, "fewer than 2 successful restarts: no between-restart variance");
	}
	return 1;
}

static void warnings(FILE *f, const struct rpt_summary *s, const char *prefix)
{
	char msg[256];
	for (size_t i = 0; i < s->n_queries; i++)
		for (size_t k = 0; k < sizeof(warn_kinds) / sizeof(warn_kinds[0]); k++)
			if (warning_text(msg, sizeof(msg), &s->queries[i], warn_kinds[k]))
				fprintf(f, "%s%s: %s\n", prefix, s->queries[i].id, msg);
}

static size_t n_warnings(const struct rpt_summary *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_queries; i++)
		n += query_warn(&s->queries[i]) != 0;
	return n;
}

/* The warnings of q as JSON: {"kinds": [names], "messages": [texts]}. */
static json_t *warnings_json(const struct rpt_summary_query *q)
{
	static const char *const names[] = {"not_steady",    "timeout",	      "crash",
					    "error",	     "plan_varies",   "result_varies",
					    "few_restarts", "run_position"};
	char msg[256];
	json_t *a = json_array();
	for (size_t k = 0; k < sizeof(warn_kinds) / sizeof(warn_kinds[0]); k++)
		if (warning_text(msg, sizeof(msg), q, warn_kinds[k]))
			json_array_append_new(
			    a, json_pack("{s:s, s:s}", "kind", names[k], "message", msg));
	return a;
}

/* The verdict cost of the file under the summary's test (stats/st_cost.h); -1 when out of
 * memory. */
static int cost_of(struct st_cost *out, const struct rpt_summary *s)
{
	struct st_cost_opts o;
	struct errbuf err;
	st_cost_opts_init(&o);
	o.alpha = s->opts.alpha;
	o.power = s->opts.power;
	o.min_effect = s->opts.min_effect;
	o.corr = s->opts.correction;
	o.method = s->opts.method;
	o.alt = s->opts.alt;
	o.min_effect_test = s->opts.min_effect_test;
	o.max_restarts = s->opts.max_restarts ? s->opts.max_restarts : o.max_restarts;
	return st_cost_compute(out, s->file.res, &o, &err);
}

int rpt_summary_cost_write(FILE *f, const struct rpt_summary *s, int md)
{
	struct st_cost c;
	if (cost_of(&c, s) < 0)
		return -1;
	return st_cost_write(f, &c, md);
}

/* What follows the table (md: as Markdown): the footnote, the work and instruction lines, the
 * warnings, and last what a verdict costs. */
static int tail(FILE *f, const struct rpt_summary *s, int md)
{
	fputc('\n', f);
	footnote(f, s, "");
	rpt_work_summary_write(f, s, md ? "- " : "  ", md);
	rpt_instr_summary_write(f, s, md ? "- " : "  ", md);
	struct rpt_tpch tp;
	rpt_tpch_compute(&tp, s->file.res);
	rpt_tpch_write(f, &tp, md ? "- " : "  ", md);
	if (n_warnings(s)) {
		fputs(md ? "\n**Warnings**\n\n" : "\nwarnings:\n", f);
		warnings(f, s, md ? "- " : "  ");
	}
	fputc('\n', f);
	return rpt_summary_cost_write(f, s, md);
}

int rpt_summary_write_text(FILE *f, const struct rpt_summary *s, int color, struct errbuf *err)
{
	(void)err;
	char h[COLS][64], cells[COLS][64];
	const char *hp[COLS];
	struct rpt_table t;
	heads(h, s);
	for (int i = 0; i < COLS; i++)
		hp[i] = h[i];
	header_line(f, s, 0);
	fputc('\n', f);
	rpt_table_init(&t, COLS, hp, "lrrrrrrrrr");
	for (size_t i = 0; i < s->n_queries; i++) {
		row(cells, s, &s->queries[i]);
		rpt_table_row(&t);
		for (int j = 0; j < COLS; j++)
			rpt_table_cell(&t, NULL, "%s", cells[j]);
	}
	rpt_table_print(f, &t, "", color);
	rpt_table_release(&t);
	return tail(f, s, 0);
}

int rpt_summary_write_markdown(FILE *f, const struct rpt_summary *s, int color,
			       struct errbuf *err)
{
	(void)color;
	(void)err;
	char h[COLS][64], cells[COLS][64];
	heads(h, s);
	fprintf(f, "### dbt3stab summary\n\n");
	header_line(f, s, 1);
	fputc('\n', f);
	for (int j = 0; j < COLS; j++)
		fprintf(f, "| %s ", h[j]);
	fprintf(f, "|\n|---|");
	for (int j = 1; j < COLS; j++)
		fprintf(f, "--:|");
	fputc('\n', f);
	for (size_t i = 0; i < s->n_queries; i++) {
		row(cells, s, &s->queries[i]);
		for (int j = 0; j < COLS; j++)
			fprintf(f, "| %s ", cells[j]);
		fprintf(f, "|\n");
	}
	return tail(f, s, 1);
}

/* The noise figures and the run-position test of q; null without 2 restarts. */
static json_t *noise_json(const struct rpt_summary_query *q)
{
	const struct st_noise *z = &q->noise;
	json_t *pos = json_null();
	if (!q->have_noise)
		return json_null();
	if (q->have_position) {
		json_t *runs = json_array();
		for (size_t j = 0; j < q->position.n && j < 32; j++)
			if (q->position_flags & (1u << j))
				json_array_append_new(runs, json_integer((json_int_t)j + 1));
		pos = json_pack("{s:o, s:o, s:b, s:o}", "f", res_json_num(q->position.f), "p",
				res_json_num(q->position.p), "effect", q->position_effect, "runs",
				runs);
	}
	return json_pack("{s:o, s:[o, o], s:o, s:o, s:o, s:f, s:o}", "sd_log",
			 res_json_num(z->sd_log), "sd_log_ci95", res_json_num(z->sd_lo),
			 res_json_num(z->sd_hi), "sd_log_ucb95", res_json_num(z->sd_ucb),
			 "sd_between", res_json_num(z->sd_between), "sd_within",
			 res_json_num(z->sd_within), "level", 0.95, "run_position", pos);
}

json_t *rpt_summary_to_json(const struct rpt_summary *s)
{
	const struct res_file *r = s->file.res;
	json_t *o = json_object(), *qs = json_array();
	json_object_set_new(o, "format", json_string("dbt3stab-summary"));
	json_object_set_new(o, "format_version", json_integer(1));
	json_object_set_new(o, "file", json_string(s->file.path));
	json_object_set_new(o, "label", r->label ? json_string(r->label) : json_null());
	json_object_set_new(o, "scale_factor", json_real(res_file_scale_factor(r)));
	json_object_set_new(o, "finished", json_boolean(r->finished_at != NULL));
	int fits = res_file_pool_fits(r);
	json_object_set_new(o, "buffer_pool_fits", fits < 0 ? json_null() : json_boolean(fits));
	char noise[1024];
	size_t nd = res_interf_line(r, noise, sizeof(noise));
	json_object_set_new(o, "disturbed_restarts", json_integer((json_int_t)nd));
	json_object_set_new(o, "disturbed", nd ? json_string(noise) : json_null());
	json_object_set_new(
	    o, "power",
	    json_pack("{s:f, s:f, s:f, s:f, s:s, s:s, s:s, s:b, s:I}", "detect", s->opts.detect,
		      "target", s->opts.power, "alpha", s->opts.alpha, "min_effect",
		      s->opts.min_effect, "correction", st_correction_name(s->opts.correction),
		      "method", st_method_name(s->opts.method), "alternative",
		      s->opts.alt == ST_GREATER ? "greater" : "two-sided", "min_effect_test",
		      s->opts.min_effect_test, "queries", (json_int_t)s->n_queries));
	for (size_t i = 0; i < s->n_queries; i++) {
		const struct rpt_summary_query *q = &s->queries[i];
		const struct st_query_stats *st = &q->stats;
		int ok = q->have_stats;
		json_t *jq = json_object(), *means = json_array();
		for (size_t j = 0; j < q->side.n_used; j++)
			json_array_append_new(means, json_real(q->side.means_ms[j]));
		json_object_set_new(jq, "id", json_string(q->id));
		json_object_set_new(jq, "restarts", json_integer((json_int_t)q->side.n_restarts));
		json_object_set_new(jq, "restarts_used", json_integer((json_int_t)q->side.n_used));
		json_object_set_new(jq, "runs", json_integer(ok ? (json_int_t)st->n_runs : 0));
		json_object_set_new(jq, "restart_means_ms", means);
		json_object_set_new(jq, "mean_ms", res_json_num(ok ? st->mean : NAN));
		json_object_set_new(jq, "gmean_ms", res_json_num(ok ? st->gmean : NAN));
		json_object_set_new(jq, "cov_within", res_json_num(ok ? st->cov_within : NAN));
		json_object_set_new(jq, "cov_between", res_json_num(ok ? st->cov_between : NAN));
		json_object_set_new(jq, "sd_log", res_json_num(ok ? st->sd_log : NAN));
		json_object_set_new(jq, "var_within_ms2",
				    res_json_num(ok ? st->anova.var_within : NAN));
		json_object_set_new(jq, "var_between_ms2",
				    res_json_num(ok ? st->anova.var_between : NAN));
		json_object_set_new(jq, "anova_f", res_json_num(ok ? st->anova.f : NAN));
		json_object_set_new(jq, "anova_p", res_json_num(ok ? st->anova.p : NAN));
		json_object_set_new(jq, "noise", noise_json(q));
		json_object_set_new(jq, "power_now", res_json_num(q->power_now));
		json_object_set_new(jq, "restarts_needed",
				    q->needed ? json_integer((json_int_t)q->needed) : json_null());
		json_object_set_new(jq, "restarts_needed_ci",
				    json_pack("[o, o]",
					      q->needed_lo ? json_integer((json_int_t)q->needed_lo)
							   : json_null(),
					      q->needed_hi ? json_integer((json_int_t)q->needed_hi)
							   : json_null()));
		json_object_set_new(jq, "not_steady", json_integer((json_int_t)q->side.not_steady));
		json_object_set_new(jq, "timeouts", json_integer((json_int_t)q->side.timeouts));
		json_object_set_new(jq, "crashes", json_integer((json_int_t)q->side.crashes));
		json_object_set_new(jq, "errors", json_integer((json_int_t)q->side.errors));
		json_object_set_new(jq, "plan_varies", json_boolean(q->side.plans_vary));
		json_object_set_new(jq, "result_varies", json_boolean(q->side.results_vary));
		json_object_set_new(jq, "warnings", warnings_json(q));
		json_object_set_new(jq, "work", q->work.n ? rpt_work_json(&q->work, 0) : json_null());
		json_object_set_new(jq, "instructions", rpt_instr_summary_json(&q->instr));
		json_array_append_new(qs, jq);
	}
	json_object_set_new(o, "queries", qs);
	struct st_cost c;
	json_object_set_new(o, "verdict_cost", cost_of(&c, s) < 0 ? json_null() : st_cost_json(&c));
	struct rpt_tpch tp;
	rpt_tpch_compute(&tp, s->file.res);
	json_t *tj = rpt_tpch_json(&tp); /* only in files with --refresh or --streams entries */
	if (json_is_null(tj))
		json_decref(tj);
	else
		json_object_set_new(o, "tpch_style", tj);
	return o;
}

int rpt_summary_write_json(FILE *f, const struct rpt_summary *s, int color, struct errbuf *err)
{
	(void)color;
	(void)err;
	json_t *o = rpt_summary_to_json(s);
	int rc = o ? json_dumpf(o, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10)) : -1;
	json_decref(o);
	fputc('\n', f);
	return rc;
}
