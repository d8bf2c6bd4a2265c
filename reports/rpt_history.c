/* SPDX-License-Identifier: MIT */
/* `history check` in text, Markdown, JSON and JUnit XML. */
#include "reports/rpt_history.h"
#include "reports/rpt_format.h"
#include "reports/rpt_html.h"
#include "base/text.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *end_json(const struct hist_point *p)
{
	json_t *o = json_object();
	json_object_set_new(o, "result_id", json_integer(p->result_id));
	json_object_set_new(o, "started_at", json_string(p->started_at));
	json_object_set_new(o, "build_id", json_string(p->build_id));
	json_object_set_new(o, "server_version",
			    p->server_version ? json_string(p->server_version) : json_null());
	json_object_set_new(o, "server_binary_sha256",
			    p->binary_sha256 ? json_string(p->binary_sha256) : json_null());
	return o;
}

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
	json_object_set_new(o, "last_before", end_json(&qs->pts[cp->index - 1]));
	json_object_set_new(o, "first_after", end_json(pt));
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
	struct rpt_hist_cell cell;
	rpt_history_cell_key(&cell, cs, q);
	json_object_set_new(o, "changed", json_boolean(RPT_HIST_CHANGED(cell.rank)));
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

static void fmt_ratio(char *buf, size_t n, const struct st_test *t)
{
	if (t->kind == ST_TEST_NONE || !isfinite(t->ratio))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.3f [%.3f, %.3f] p %.2g", t->ratio, t->ci_lo, t->ci_hi, t->p);
}

static void series_head(FILE *f, const struct hist_check *c, const struct hist_check_series *cs)
{
	const struct hist_series_info *i = &cs->s.info;
	size_t loaded = rpt_history_loaded(cs), ms = c->opts.min_size < 2 ? 2 : c->opts.min_size;
	char b[3][256]; /* from the stored results: control characters made visible (F9) */
	fprintf(f, "series %s: host %s, SF %g%s%.12s, %s, %s (%lld result%s)\n\n", i->id,
		i->host ? util_term(b[0], 256, i->host) : "?", i->scale_factor,
		i->fingerprint ? ", dataset " : "", i->fingerprint ? i->fingerprint : "",
		i->flavour ? util_term(b[1], 256, i->flavour) : "?",
		i->protocol ? util_term(b[2], 256, i->protocol) : "?", i->n_results,
		i->n_results == 1 ? "" : "s");
	if (rpt_history_too_few(c, cs))
		fprintf(f, "%zu result%s checked: a change point needs %zu (%zu on each side)\n\n",
			loaded, loaded == 1 ? "" : "s", 2 * ms, ms);
}

static void write_text_series(FILE *f, const struct hist_check *chk,
			      const struct hist_check_series *cs)
{
	char buf[160], before[640], after[640], b1[256], b2[256];
	series_head(f, chk, cs);
	for (size_t q = 0; q < cs->s.n_qs; q++) {
		const struct hist_query_series *qs = &cs->s.qs[q];
		const struct hist_query_check *c = &cs->checks[q];
		fmt_ratio(buf, sizeof(buf), &c->newest);
		fprintf(f, "%-4s %-12s%-6s %-36s %zu change point%s\n", qs->query,
			hist_verdict_name(c->verdict), c->starts_regression ? " (new)" : "", buf,
			c->n_cps, c->n_cps == 1 ? "" : "s");
		for (size_t i = 0; i < c->n_cps; i++) {
			size_t at = c->cps[i].index;
			fmt_ratio(buf, sizeof(buf), &c->cps[i].test);
			rpt_history_build_text(before, sizeof(before), &qs->pts[at - 1]);
			rpt_history_build_text(after, sizeof(after), &qs->pts[at]);
			fprintf(f,
				"       at %s build %s: %s\n"
				"         last before: %s\n         first after: %s\n",
				util_term(b1, sizeof(b1), qs->pts[at].started_at),
				util_term(b2, sizeof(b2), qs->pts[at].build_id), buf, before, after);
		}
	}
	fputc('\n', f);
}

int rpt_history_write_junit(FILE *f, const struct hist_check *c, struct errbuf *err)
{
	(void)err;
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
			const struct hist_query_series *qs = &cs->s.qs[q];
			char before[640], after[640];
			fmt_ratio(buf, sizeof(buf), &k->newest);
			fputs(">\n      <failure message=\"regression: ", f);
			rpt_html_escape(f, buf);
			fputs(" (newest against the last stable segment)\">", f);
			if (qs->n >= 2) {
				/* a regression starts with the newest result: between it and the one
				 * before */
				rpt_history_build_text(before, sizeof(before), &qs->pts[qs->n - 2]);
				rpt_history_build_text(after, sizeof(after), &qs->pts[qs->n - 1]);
				fputs("last before: ", f);
				rpt_html_escape(f, before);
				fputs("\nfirst after: ", f);
				rpt_html_escape(f, after);
			}
			fputs("</failure>\n    </testcase>\n", f);
		}
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
	return 0;
}

int rpt_history_write_json(FILE *f, const struct hist_check *c, struct errbuf *err)
{
	(void)err;
	json_t *j = rpt_history_json(c);
	int rc = j ? json_dumpf(j, f, JSON_INDENT(2) | JSON_REAL_PRECISION(6)) : -1;
	json_decref(j);
	fputc('\n', f);
	return rc;
}

int rpt_history_write_text(FILE *f, const struct hist_check *c, struct errbuf *err)
{
	(void)err;
	if (c->n == 0)
		fputs("the history store holds no results\n", f);
	for (size_t s = 0; s < c->n; s++)
		write_text_series(f, c, &c->series[s]);
	return 0;
}
