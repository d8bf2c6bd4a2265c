/* SPDX-License-Identifier: MIT */
/* The trend page of `history report`: the overview of what changed on top
 * (rpt_html_history_ov.c), then per series small multiples, one compact chart per query (restart
 * means, change points, the stable segments' levels with their CIs), and the change points with
 * their build ranges. Same inlined assets and offline rules as the compare report. */
#include "reports/rpt_history.h"
#include "reports/rpt_html.h"
#include "reports/rpt_html_assets.h"
#include "reports/rpt_html_history.h"
#include "reports/rpt_html_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The results of a series in started_at order (the union over its queries), each once. */
struct results {
	const struct hist_point **p;
	size_t n;
};

static int point_cmp(const void *x, const void *y)
{
	const struct hist_point *a = *(const struct hist_point *const *)x;
	const struct hist_point *b = *(const struct hist_point *const *)y;
	int c = strcmp(a->started_at, b->started_at);
	return c ? c : (a->result_id > b->result_id) - (a->result_id < b->result_id);
}

static int results_init(struct results *r, const struct hist_series *s)
{
	size_t total = 0, k = 0;
	for (size_t q = 0; q < s->n_qs; q++)
		total += s->qs[q].n;
	r->p = calloc(total + 1, sizeof(*r->p));
	r->n = 0;
	if (!r->p)
		return -1;
	for (size_t q = 0; q < s->n_qs; q++)
		for (size_t i = 0; i < s->qs[q].n; i++)
			r->p[k++] = &s->qs[q].pts[i];
	qsort(r->p, total, sizeof(*r->p), point_cmp);
	for (size_t i = 0; i < total; i++)
		if (r->n == 0 || r->p[r->n - 1]->result_id != r->p[i]->result_id)
			r->p[r->n++] = r->p[i];
	return 0;
}

/* The index of a result in the series' list (they are few: a linear search). */
static size_t result_index(const struct results *r, long long id)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->p[i]->result_id == id)
			return i;
	return 0;
}

/* One metric of one query: "pts" [[result, mean, ...]], "cps" [[first result after, ratio, ci
 * low, ci high, p]], "levels" [[first result, last result, gmean, ci low, ci high]]. */
static json_t *metric_json(const struct results *r, const struct hist_query_series *qs,
			   const struct hist_query_check *c, double alpha)
{
	json_t *o = json_object(), *pts = json_array(), *cps = json_array(), *lv = json_array();
	struct hist_pt *v = calloc(qs->n + 1, sizeof(*v));
	struct hist_level *levels = calloc(c->n_cps + 1, sizeof(*levels));
	for (size_t i = 0; i < qs->n; i++) {
		json_t *a = json_array();
		json_array_append_new(a, json_integer((json_int_t)result_index(r, qs->pts[i].result_id)));
		for (size_t k = 0; k < qs->pts[i].n; k++)
			json_array_append_new(a, json_real(qs->pts[i].means[k]));
		json_array_append_new(pts, a);
		if (v)
			v[i] = (struct hist_pt){qs->pts[i].means, qs->pts[i].n};
	}
	for (size_t i = 0; i < c->n_cps; i++) {
		const struct st_test *t = &c->cps[i].test;
		json_array_append_new(
		    cps, json_pack("[I,o,o,o,o]",
				   (json_int_t)result_index(r, qs->pts[c->cps[i].index].result_id),
				   res_json_num(t->ratio), res_json_num(t->ci_lo),
				   res_json_num(t->ci_hi), res_json_num(t->p)));
	}
	if (qs->n && v && levels && hist_levels(levels, v, qs->n, c->cps, c->n_cps, alpha) == 0)
		for (size_t i = 0; i <= c->n_cps; i++)
			json_array_append_new(
			    lv, json_pack("[I,I,o,o,o]",
					  (json_int_t)result_index(r, qs->pts[levels[i].from].result_id),
					  (json_int_t)result_index(r, qs->pts[levels[i].to - 1].result_id),
					  res_json_num(levels[i].gmean), res_json_num(levels[i].lo),
					  res_json_num(levels[i].hi)));
	free(v);
	free(levels);
	json_object_set_new(o, "pts", pts);
	json_object_set_new(o, "cps", cps);
	json_object_set_new(o, "levels", lv);
	return o;
}

static json_t *series_json(const struct hist_check *c, const struct hist_check_series *cs)
{
	struct results r;
	json_t *so = json_object(), *ra = json_array(), *qa = json_array();
	if (results_init(&r, &cs->s) < 0) {
		json_decref(so);
		return NULL;
	}
	json_object_set_new(so, "id", json_string(cs->s.info.id));
	for (size_t i = 0; i < r.n; i++)
		json_array_append_new(ra, json_pack("[s,s]", r.p[i]->started_at, r.p[i]->build_id));
	json_object_set_new(so, "results", ra);
	for (size_t q = 0; q < cs->s.n_qs; q++) {
		const struct hist_query_series *qs = &cs->s.qs[q];
		json_t *qo = json_object();
		json_object_set_new(qo, "id", json_string(qs->query));
		/* one member per metric; the work counters will add theirs beside "time" */
		json_object_set_new(qo, "time", metric_json(&r, qs, &cs->checks[q], c->opts.alpha));
		json_array_append_new(qa, qo);
	}
	json_object_set_new(so, "queries", qa);
	free(r.p);
	return so;
}

static json_t *page_data(const struct hist_check *c)
{
	json_t *root = json_object(), *series = json_array();
	for (size_t s = 0; s < c->n; s++) {
		json_t *so = series_json(c, &c->series[s]);
		if (!so) {
			json_decref(series);
			json_decref(root);
			return NULL;
		}
		json_array_append_new(series, so);
	}
	json_object_set_new(root, "series", series);
	return root;
}

/* One end of a build range in a table cell: date, build id, server version, binary. */
static void build_cell(FILE *out, const struct hist_point *p)
{
	fputs("<td class=\"text\">", out);
	rpt_html_escape(out, p->started_at);
	fputs("<br><b>", out);
	rpt_html_escape(out, p->build_id[0] ? p->build_id : "-");
	fputs("</b><br><span class=\"muted\">", out);
	rpt_html_escape(out, p->server_version ? p->server_version : "?");
	fputs(", binary <span class=\"mono\" title=\"", out);
	rpt_html_escape(out, p->binary_sha256 ? p->binary_sha256 : "?");
	char hash[13];
	snprintf(hash, sizeof(hash), "%s", p->binary_sha256 ? p->binary_sha256 : "?");
	fputs("\">", out);
	rpt_html_escape(out, hash);
	fputs("</span></span></td>", out);
}

/* The change points of a series with their build ranges, in the order of the overview. */
static void write_ranges(FILE *out, const struct hist_check_series *cs, const size_t *order)
{
	size_t n = 0;
	for (size_t q = 0; q < cs->s.n_qs; q++)
		n += cs->checks[q].n_cps;
	if (!n)
		return;
	fputs("<h4>Change points and the builds around them</h4>\n<div class=\"table-wrap\"><table "
	      "class=\"figures ranges\"><thead><tr><th class=\"text\">query</th><th>ratio "
	      "after/before [CI], p</th><th class=\"text\">last result before</th><th "
	      "class=\"text\">first result after</th></tr></thead><tbody>\n",
	      out);
	for (size_t k = 0; k < cs->s.n_qs; k++) {
		const struct hist_query_series *qs = &cs->s.qs[order[k]];
		const struct hist_query_check *c = &cs->checks[order[k]];
		for (size_t i = c->n_cps; i-- > 0;) {
			const struct hist_cp *cp = &c->cps[i];
			fprintf(out, "<tr class=\"%s\"><td class=\"text\">",
				cp->test.diff > 0 ? "slower" : "faster");
			rpt_html_escape(out, qs->query);
			fputs("</td><td>", out);
			rpt_html_history_ratio(out, &cp->test);
			fputs("</td>", out);
			build_cell(out, &qs->pts[cp->index - 1]);
			build_cell(out, &qs->pts[cp->index]);
			fputs("</tr>\n", out);
		}
	}
	fputs("</tbody></table></div>\n", out);
}

static void write_figure(FILE *out, const struct hist_check_series *cs, size_t q)
{
	const struct hist_query_series *qs = &cs->s.qs[q];
	const struct hist_query_check *c = &cs->checks[q];
	fprintf(out, "<figure class=\"small verdict-%s\" id=\"", hist_verdict_name(c->verdict));
	rpt_html_history_anchor(out, cs, qs->query);
	fputs("\"><figcaption><b>", out);
	rpt_html_escape(out, qs->query);
	fprintf(out, "</b> <span class=\"mark\">%s%s</span>", hist_verdict_name(c->verdict),
		c->starts_regression ? ", new" : "");
	if (c->n_cps) {
		const struct st_test *t = &c->cps[c->n_cps - 1].test;
		char d[11];
		fprintf(out, " <span class=\"%s\">\xc3\x97%.3f</span> ",
			t->diff > 0 ? "slower" : "faster", t->ratio);
		snprintf(d, sizeof(d), "%s", qs->pts[c->cps[c->n_cps - 1].index].started_at);
		rpt_html_escape(out, d);
	}
	fputs("</figcaption>\n<div class=\"chart\" data-key=\"", out);
	rpt_html_escape(out, cs->s.info.id);
	fputc('/', out);
	rpt_html_escape(out, qs->query);
	fputs("/time\"></div>\n<p class=\"facts\">", out);
	fprintf(out, "%zu result%s; newest vs last stable segment: ", qs->n, qs->n == 1 ? "" : "s");
	rpt_html_history_ratio(out, &c->newest);
	fputs("</p></figure>\n", out);
}

static void write_series_head(FILE *out, const struct hist_check *c,
			      const struct hist_check_series *cs)
{
	const struct hist_series_info *i = &cs->s.info;
	size_t loaded = rpt_history_loaded(cs), ms = c->opts.min_size < 2 ? 2 : c->opts.min_size;
	fputs("<section class=\"series\" id=\"s-", out);
	rpt_html_escape(out, i->id);
	fputs("\" data-series=\"", out);
	rpt_html_escape(out, i->id);
	fputs("\"><h3>Series ", out);
	rpt_html_escape(out, i->id);
	fputs("</h3>\n<p class=\"muted\">host ", out);
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
	if (rpt_history_too_few(c, cs))
		fprintf(out,
			"<p class=\"too-few\">%zu result%s checked: a change point needs %zu (%zu on "
			"each side). The charts come when there are enough.</p>\n",
			loaded, loaded == 1 ? "" : "s", 2 * ms, ms);
}

static int write_series(FILE *out, const struct hist_check *c, const struct hist_check_series *cs)
{
	size_t *order = calloc(cs->s.n_qs + 1, sizeof(*order));
	if (!order)
		return -1;
	rpt_history_order(order, cs);
	write_series_head(out, c, cs);
	if (!rpt_history_too_few(c, cs)) {
		fputs("<div class=\"multiples\" data-metric=\"time\">\n", out);
		for (size_t k = 0; k < cs->s.n_qs; k++)
			write_figure(out, cs, order[k]);
		fputs("</div>\n", out);
		write_ranges(out, cs, order);
	}
	fputs("</section>\n", out);
	free(order);
	return 0;
}

static void write_intro(FILE *out, const struct hist_check *c)
{
	fprintf(out,
		"<p class=\"muted\">Change points: E-Divisive means, Welch p &lt; %g, a shift of at "
		"least %g%%, %zu results a side. Newest result against the last stable segment at "
		"level %g (Bonferroni over the queries).</p>\n</header>\n<main>\n",
		c->opts.max_p, c->opts.min_effect * 100, c->opts.min_size, c->opts.alpha);
}

int rpt_html_write_history(FILE *out, const struct hist_check *c, struct errbuf *err)
{
	struct rpt_hist_cell *cells = NULL;
	struct rpt_hist_matrix m = {0};
	size_t n = 0;
	char *text = rpt_html_data_text(page_data(c));
	if (!text || rpt_history_cells(&cells, &n, c) < 0 ||
	    rpt_history_matrix(&m, cells, n, c) < 0) {
		free(text);
		free(cells);
		return errbuf_set(err, "cannot build the report data: out of memory");
	}
	rpt_html_page_head(out, "dbt3stab history");
	write_intro(out, c);
	int rc = 0;
	if (c->n == 0)
		fputs("<p>The history store holds no results.</p>\n", out);
	else
		rpt_html_history_overview(out, c, cells, n, &m);
	if (c->n)
		fputs("<section id=\"charts\"><h2>Charts</h2>\n<p class=\"muted\">One chart per "
		      "query of the series picked in the overview (all series without JavaScript). "
		      "Dots: restart means; horizontal lines and bands: the level of each stable "
		      "segment (geometric mean of its restart means) with its confidence interval; "
		      "dashed rules: change points (red slower, green faster).</p>\n",
		      out);
	for (size_t k = 0; rc == 0 && k < m.n_cols; k++)
		rc = write_series(out, c, &c->series[m.cols[k]]);
	if (c->n)
		fputs("</section>\n", out);
	fputs("<noscript><p class=\"chart-error\">The charts need JavaScript; the tables do "
	      "not.</p></noscript>\n",
	      out);
	rpt_html_page_tail(out, text, rpt_asset_history_js, rpt_asset_history_js_len);
	free(text);
	free(cells);
	rpt_history_matrix_release(&m);
	if (rc < 0)
		return errbuf_set(err, "cannot build the report: out of memory");
	if (ferror(out))
		return errbuf_set(err, "cannot write the report");
	return 0;
}
