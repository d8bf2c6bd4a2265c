/* SPDX-License-Identifier: MIT */
/* The trend page of `history report`: per query a Vega-Lite chart of every restart mean, the
 * per-result geometric mean and the change points; queries whose newest result starts a
 * regression first. Same inlined assets and offline rules as the compare report. */
#include "reports/rpt_history.h"
#include "reports/rpt_html.h"
#include "reports/rpt_html_assets.h"
#include "reports/rpt_html_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *points_json(const struct hist_query_series *qs)
{
	json_t *a = json_array();
	for (size_t i = 0; i < qs->n; i++) {
		const struct hist_point *p = &qs->pts[i];
		json_t *o = json_object(), *m = json_array();
		double s = 0;
		for (size_t k = 0; k < p->n; k++) {
			json_array_append_new(m, json_real(p->means[k]));
			s += log(p->means[k]);
		}
		json_object_set_new(o, "started_at", json_string(p->started_at));
		json_object_set_new(o, "build_id", json_string(p->build_id));
		json_object_set_new(o, "result_id", json_integer(p->result_id));
		json_object_set_new(o, "gmean", res_json_num(p->n ? exp(s / (double)p->n) : NAN));
		json_object_set_new(o, "means", m);
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *page_data(const struct hist_check *c)
{
	json_t *root = json_object(), *series = json_array();
	for (size_t s = 0; s < c->n; s++) {
		const struct hist_check_series *cs = &c->series[s];
		json_t *so = json_object(), *qa = json_array();
		json_object_set_new(so, "id", json_string(cs->s.info.id));
		for (size_t q = 0; q < cs->s.n_qs; q++) {
			const struct hist_query_series *qs = &cs->s.qs[q];
			json_t *qo = json_object(), *cps = json_array();
			json_object_set_new(qo, "id", json_string(qs->query));
			for (size_t i = 0; i < cs->checks[q].n_cps; i++) {
				const struct hist_cp *cp = &cs->checks[q].cps[i];
				json_t *co = json_object();
				json_object_set_new(co, "started_at",
						    json_string(qs->pts[cp->index].started_at));
				json_object_set_new(co, "build_id",
						    json_string(qs->pts[cp->index].build_id));
				json_object_set_new(co, "ratio", res_json_num(cp->test.ratio));
				json_object_set_new(co, "ci_low", res_json_num(cp->test.ci_lo));
				json_object_set_new(co, "ci_high", res_json_num(cp->test.ci_hi));
				json_object_set_new(co, "p", res_json_num(cp->test.p));
				json_array_append_new(cps, co);
			}
			json_object_set_new(qo, "change_points", cps);
			json_object_set_new(qo, "points", points_json(qs));
			json_array_append_new(qa, qo);
		}
		json_object_set_new(so, "queries", qa);
		json_array_append_new(series, so);
	}
	json_object_set_new(root, "series", series);
	return root;
}

static void write_ratio(FILE *out, const struct st_test *t)
{
	if (t->kind == ST_TEST_NONE || !isfinite(t->ratio))
		fputs("&ndash;", out);
	else
		fprintf(out, "%.3f [%.3f, %.3f], p %.2g", t->ratio, t->ci_lo, t->ci_hi, t->p);
}

static void write_query(FILE *out, const struct hist_check_series *cs, size_t q)
{
	const struct hist_query_series *qs = &cs->s.qs[q];
	const struct hist_query_check *c = &cs->checks[q];
	fprintf(out, "<article class=\"query verdict-%s\"><h3>", hist_verdict_name(c->verdict));
	rpt_html_escape(out, qs->query);
	fprintf(out, " <span class=\"mark\">%s%s</span></h3>\n<p class=\"facts\">%zu result%s; newest "
		     "vs last stable segment: ",
		hist_verdict_name(c->verdict), c->starts_regression ? ", new" : "", qs->n,
		qs->n == 1 ? "" : "s");
	write_ratio(out, &c->newest);
	fputs("</p>\n<div class=\"chart\" data-key=\"", out);
	rpt_html_escape(out, cs->s.info.id);
	fputc('/', out);
	rpt_html_escape(out, qs->query);
	fputs("\"></div>\n", out);
	if (c->n_cps)
		fputs("<table class=\"figures\"><thead><tr><th>first result after</th><th>build</th>"
		      "<th>ratio after/before [CI], p</th></tr></thead><tbody>\n",
		      out);
	for (size_t i = 0; i < c->n_cps; i++) {
		const struct hist_point *pt = &qs->pts[c->cps[i].index];
		fputs("<tr><td>", out);
		rpt_html_escape(out, pt->started_at);
		fputs("</td><td>", out);
		rpt_html_escape(out, pt->build_id);
		fputs("</td><td>", out);
		write_ratio(out, &c->cps[i].test);
		fputs("</td></tr>\n", out);
	}
	if (c->n_cps)
		fputs("</tbody></table>\n", out);
	fputs("</article>\n", out);
}

static int write_series(FILE *out, const struct hist_check_series *cs)
{
	const struct hist_series_info *i = &cs->s.info;
	size_t *order = calloc(cs->s.n_qs + 1, sizeof(*order));
	if (!order)
		return -1;
	fputs("<section><h2>Series ", out);
	rpt_html_escape(out, i->id);
	fputs("</h2>\n<p class=\"muted\">host ", out);
	rpt_html_escape(out, i->host);
	fprintf(out, ", scale factor %g, dataset ", i->scale_factor);
	rpt_html_escape(out, i->fingerprint ? i->fingerprint : "(no fingerprint)");
	fputs(", ", out);
	rpt_html_escape(out, i->flavour);
	fputs(", ", out);
	rpt_html_escape(out, i->protocol);
	fprintf(out, "; %lld result%s from ", i->n_results, i->n_results == 1 ? "" : "s");
	rpt_html_escape(out, i->first_at);
	fputs(" to ", out);
	rpt_html_escape(out, i->last_at);
	fputs("</p>\n", out);
	rpt_history_order(order, cs);
	for (size_t k = 0; k < cs->s.n_qs; k++)
		write_query(out, cs, order[k]);
	fputs("</section>\n", out);
	free(order);
	return 0;
}

int rpt_html_write_history(FILE *out, const struct hist_check *c, struct errbuf *err)
{
	char *text = rpt_html_data_text(page_data(c));
	if (!text)
		return errbuf_set(err, "cannot build the report data: out of memory");
	rpt_html_page_head(out, "dbt3stab history");
	fprintf(out,
		"<p class=\"muted\">"
		"Dots: restart means; line: geometric mean per result; dashed rules: change points "
		"(E-Divisive means, Welch p &lt; %g, shift of at least %g%%, %zu results a side) "
		"with the ratio after/before and the first build after. Newest result against the "
		"last stable segment at level %g (Bonferroni over the queries). Queries whose "
		"newest result starts a regression come first.</p>\n</header>\n<main>\n",
		c->opts.max_p, c->opts.min_effect * 100, c->opts.min_size, c->opts.alpha);
	if (c->n == 0)
		fputs("<p>The history store holds no results.</p>\n", out);
	int rc = 0;
	for (size_t s = 0; rc == 0 && s < c->n; s++)
		rc = write_series(out, &c->series[s]);
	fputs("<noscript><p class=\"chart-error\">The charts need JavaScript; the tables do "
	      "not.</p></noscript>\n",
	      out);
	rpt_html_page_tail(out, text, rpt_asset_history_js, rpt_asset_history_js_len);
	free(text);
	if (rc < 0)
		return errbuf_set(err, "cannot build the report: out of memory");
	if (ferror(out))
		return errbuf_set(err, "cannot write the report");
	return 0;
}
