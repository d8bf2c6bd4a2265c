/* SPDX-License-Identifier: MIT */
/* `history check` in text, Markdown, JSON and JUnit XML. */
#include "reports/rpt_history.h"
#include "reports/rpt_html.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *cp_json(const struct hist_query_series *qs, const struct hist_cp *cp)
{
	const struct hist_point *pt = &qs->pts[cp->index];
	json_t *o = json_object();
	json_object_set_new(o, "started_at", json_string(pt->started_at));
	json_object_set_new(o, "build_id", json_string(pt->build_id));
	json_object_set_new(o, "result_id", json_integer(pt->result_id));
	json_object_set_new(o, "index", json_integer((json_int_t)cp->index));
	json_object_set_new(o, "ratio", res_json_num(cp->test.ratio));
	json_object_set_new(o, "ci_low", res_json_num(cp->test.ci_lo));
	json_object_set_new(o, "ci_high", res_json_num(cp->test.ci_hi));
	json_object_set_new(o, "p", res_json_num(cp->test.p));
	json_object_set_new(o, "n_before", json_integer((json_int_t)cp->test.n_a));
	json_object_set_new(o, "n_after", json_integer((json_int_t)cp->test.n_b));
	return o;
}

static json_t *query_json(const struct hist_check_series *cs, size_t q)
{
	const struct hist_query_series *qs = &cs->s.qs[q];
	const struct hist_query_check *c = &cs->checks[q];
	json_t *o = json_object(), *cps = json_array(), *nw = json_object();
	json_object_set_new(o, "id", json_string(qs->query));
	json_object_set_new(o, "series", json_string(cs->s.info.id));
	json_object_set_new(o, "results", json_integer((json_int_t)qs->n));
	for (size_t i = 0; i < c->n_cps; i++)
		json_array_append_new(cps, cp_json(qs, &c->cps[i]));
	json_object_set_new(o, "change_points", cps);
	json_object_set_new(o, "newest_verdict", json_string(hist_verdict_name(c->verdict)));
	json_object_set_new(o, "starts_regression", json_boolean(c->starts_regression));
	if (qs->n) {
		const struct hist_point *pt = &qs->pts[qs->n - 1];
		json_object_set_new(nw, "started_at", json_string(pt->started_at));
		json_object_set_new(nw, "build_id", json_string(pt->build_id));
		json_object_set_new(nw, "result_id", json_integer(pt->result_id));
	}
	int t = c->newest.kind != ST_TEST_NONE;
	json_object_set_new(nw, "ratio", t ? res_json_num(c->newest.ratio) : json_null());
	json_object_set_new(nw, "ci_low", t ? res_json_num(c->newest.ci_lo) : json_null());
	json_object_set_new(nw, "ci_high", t ? res_json_num(c->newest.ci_hi) : json_null());
	json_object_set_new(nw, "p", t ? res_json_num(c->newest.p) : json_null());
	json_object_set_new(o, "newest", nw);
	return o;
}

static json_t *series_json(const struct hist_check_series *cs)
{
	const struct hist_series_info *i = &cs->s.info;
	json_t *o = json_object();
	json_object_set_new(o, "id", json_string(i->id));
	json_object_set_new(o, "host", json_string(i->host ? i->host : ""));
	json_object_set_new(o, "scale_factor", json_real(i->scale_factor));
	json_object_set_new(o, "dataset_fingerprint",
			    i->fingerprint ? json_string(i->fingerprint) : json_null());
	json_object_set_new(o, "server_flavour", json_string(i->flavour ? i->flavour : ""));
	json_object_set_new(o, "protocol", json_string(i->protocol ? i->protocol : ""));
	json_object_set_new(o, "results", json_integer(i->n_results));
	json_object_set_new(o, "verdict_alpha", json_real(cs->verdict_alpha));
	return o;
}

json_t *rpt_history_json(const struct hist_check *c)
{
	json_t *root = json_object(), *series = json_array(), *queries = json_array(),
	       *opts = json_object();
	json_object_set_new(root, "format", json_string("dbt3stab-history-check"));
	json_object_set_new(root, "format_version", json_integer(1));
	json_object_set_new(opts, "method", json_string("e-divisive-means+welch"));
	json_object_set_new(opts, "max_p", json_real(c->opts.max_p));
	json_object_set_new(opts, "min_effect", json_real(c->opts.min_effect));
	json_object_set_new(opts, "min_size", json_integer((json_int_t)c->opts.min_size));
	json_object_set_new(opts, "alpha", json_real(c->opts.alpha));
	json_object_set_new(root, "options", opts);
	for (size_t s = 0; s < c->n; s++) {
		json_array_append_new(series, series_json(&c->series[s]));
		for (size_t q = 0; q < c->series[s].s.n_qs; q++)
			json_array_append_new(queries, query_json(&c->series[s], q));
	}
	json_object_set_new(root, "series", series);
	json_object_set_new(root, "queries", queries);
	json_object_set_new(root, "starts_regression", json_boolean(c->any_starts_regression));
	return root;
}

static int rank(const struct hist_check_series *cs, size_t q)
{
	const struct hist_query_check *c = &cs->checks[q];
	if (c->starts_regression)
		return 0;
	if (c->verdict == HIST_REGRESSION)
		return 1;
	if (c->n_cps && c->cps[c->n_cps - 1].test.diff > 0)
		return 2;
	return 3;
}

void rpt_history_order(size_t *out, const struct hist_check_series *cs)
{
	size_t n = 0;
	for (int r = 0; r <= 3; r++) {
		size_t start = n;
		for (size_t q = 0; q < cs->s.n_qs; q++)
			if (rank(cs, q) == r)
				out[n++] = q;
		if (r != 2)
			continue;
		/* most recent regression change point first */
		for (size_t i = start; i < n; i++)
			for (size_t k = i + 1; k < n; k++) {
				const struct hist_query_check *a = &cs->checks[out[i]],
							      *b = &cs->checks[out[k]];
				size_t ia = cs->s.qs[out[i]].n - a->cps[a->n_cps - 1].index;
				size_t ib = cs->s.qs[out[k]].n - b->cps[b->n_cps - 1].index;
				if (ib < ia) {
					size_t t = out[i];
					out[i] = out[k];
					out[k] = t;
				}
			}
	}
}

static void fmt_ratio(char *buf, size_t n, const struct st_test *t)
{
	if (t->kind == ST_TEST_NONE || !isfinite(t->ratio))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.3f [%.3f, %.3f] p %.2g", t->ratio, t->ci_lo, t->ci_hi, t->p);
}

static void series_head(FILE *f, const struct hist_check_series *cs, int md)
{
	const struct hist_series_info *i = &cs->s.info;
	fprintf(f, "%sseries %s: host %s, SF %g%s%.12s, %s, %s (%lld results)\n\n", md ? "## " : "",
		i->id, i->host ? i->host : "?", i->scale_factor, i->fingerprint ? ", dataset " : "",
		i->fingerprint ? i->fingerprint : "", i->flavour ? i->flavour : "?",
		i->protocol ? i->protocol : "?", i->n_results);
}

static void write_text_series(FILE *f, const struct hist_check_series *cs, int md)
{
	char buf[160];
	series_head(f, cs, md);
	if (md)
		fputs("| query | newest | vs last stable segment | change points |\n"
		      "|---|---|---|---|\n",
		      f);
	for (size_t q = 0; q < cs->s.n_qs; q++) {
		const struct hist_query_series *qs = &cs->s.qs[q];
		const struct hist_query_check *c = &cs->checks[q];
		fmt_ratio(buf, sizeof(buf), &c->newest);
		if (md)
			fprintf(f, "| %s | %s%s | %s | ", qs->query, hist_verdict_name(c->verdict),
				c->starts_regression ? " (new)" : "", buf);
		else
			fprintf(f, "%-4s %-12s%-6s %-36s %zu change point%s\n", qs->query,
				hist_verdict_name(c->verdict), c->starts_regression ? " (new)" : "",
				buf, c->n_cps, c->n_cps == 1 ? "" : "s");
		for (size_t i = 0; i < c->n_cps; i++) {
			const struct hist_point *pt = &qs->pts[c->cps[i].index];
			fmt_ratio(buf, sizeof(buf), &c->cps[i].test);
			if (md)
				fprintf(f, "%s%s build %s: %s", i ? "<br>" : "", pt->started_at,
					pt->build_id, buf);
			else
				fprintf(f, "       at %s build %s: %s\n", pt->started_at, pt->build_id,
					buf);
		}
		if (md)
			fputs(" |\n", f);
	}
	fputc('\n', f);
}

static void write_junit(FILE *f, const struct hist_check *c)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"dbt3stab history\">\n",
	      f);
	for (size_t s = 0; s < c->n; s++) {
		const struct hist_check_series *cs = &c->series[s];
		size_t fails = 0;
		for (size_t q = 0; q < cs->s.n_qs; q++)
			fails += cs->checks[q].starts_regression;
		fprintf(f, "  <testsuite name=\"dbt3stab.history.%s\" tests=\"%zu\" failures=\"%zu\">\n",
			cs->s.info.id, cs->s.n_qs, fails);
		for (size_t q = 0; q < cs->s.n_qs; q++) {
			const struct hist_query_check *k = &cs->checks[q];
			char buf[160];
			fprintf(f, "    <testcase classname=\"history.%s\" name=\"", cs->s.info.id);
			rpt_html_escape(f, cs->s.qs[q].query);
			fputs("\"", f);
			if (!k->starts_regression) {
				fputs("/>\n", f);
				continue;
			}
			fmt_ratio(buf, sizeof(buf), &k->newest);
			fputs(">\n      <failure message=\"regression: ", f);
			rpt_html_escape(f, buf);
			fputs("\"/>\n    </testcase>\n", f);
		}
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
}

int rpt_history_write(FILE *f, const struct hist_check *c, enum rpt_format fmt)
{
	if (fmt == RPT_JSON) {
		json_t *j = rpt_history_json(c);
		int rc = j ? json_dumpf(j, f, JSON_INDENT(2) | JSON_REAL_PRECISION(6)) : -1;
		json_decref(j);
		fputc('\n', f);
		if (rc < 0)
			return -1;
	} else if (fmt == RPT_JUNIT) {
		write_junit(f, c);
	} else {
		if (fmt == RPT_MARKDOWN)
			fputs("# dbt3stab history check\n\n", f);
		if (c->n == 0)
			fputs("the history store holds no results\n", f);
		for (size_t s = 0; s < c->n; s++)
			write_text_series(f, &c->series[s], fmt == RPT_MARKDOWN);
	}
	return ferror(f) ? -1 : 0;
}
