/* SPDX-License-Identifier: MIT */
/* The overview on top of the trend page: queries x series, the changed ones first. */
#include "reports/rpt_html.h"
#include "reports/rpt_html_history.h"
#include <math.h>
#include <string.h>

void rpt_html_history_ratio(FILE *out, const struct st_test *t)
{
	if (t->kind == ST_TEST_NONE || !isfinite(t->ratio))
		fputs("&ndash;", out);
	else
		fprintf(out, "%.3f [%.3f, %.3f], p %.2g", t->ratio, t->ci_lo, t->ci_hi, t->p);
}

/* "q-SERIES-QUERY": the anchor of a query's chart, which the overview's cells link to. */
void rpt_html_history_anchor(FILE *out, const struct hist_check_series *cs, const char *query)
{
	fputs("q-", out);
	rpt_html_escape(out, cs->s.info.id);
	fputc('-', out);
	rpt_html_escape(out, query);
}

static void write_counts(FILE *out, const struct rpt_hist_cell *cells, size_t n)
{
	size_t by[RPT_HIST_NONE + 1] = {0}, changed = 0;
	for (size_t i = 0; i < n; i++) {
		by[cells[i].rank]++;
		changed += RPT_HIST_CHANGED(cells[i].rank);
	}
	fprintf(out, "<p class=\"headline\"><strong>%zu of %zu</strong> series \xc3\x97 quer%s "
		     "changed</p>\n<ul class=\"counts\">",
		changed, n, n == 1 ? "y" : "ies");
	static const char *const words[] = {"newest result starts a regression",
					    "newest result slower",
					    "change point slower",
					    "newest result faster",
					    "change point faster",
					    "inconclusive",
					    "unchanged",
					    "no result"};
	static const char *const cls[] = {"regression", "regression", "regression", "improvement",
					  "improvement", "inconclusive", "unchanged", "unchanged"};
	for (int r = 0; r <= RPT_HIST_NONE; r++)
		if (by[r])
			fprintf(out, "<li><span class=\"badge v-%s\">%zu</span> %s</li>", cls[r],
				by[r], words[r]);
	fputs("</ul>\n", out);
}

static void write_filters(FILE *out, const struct hist_check *c, const struct rpt_hist_matrix *m)
{
	fputs("<form class=\"filters\" hidden><label><input type=\"checkbox\" id=\"only-changed\"> "
	      "only what changed</label> <label>series <select id=\"pick-series\"><option "
	      "value=\"\">all</option>",
	      out);
	for (size_t k = 0; k < m->n_cols; k++) {
		const struct hist_series_info *i = &c->series[m->cols[k]].s.info;
		fputs("<option value=\"", out);
		rpt_html_escape(out, i->id);
		fputs("\">", out);
		rpt_html_escape(out, i->id);
		fputs(" (", out);
		rpt_html_escape(out, i->host);
		fprintf(out, ", SF %g)</option>", i->scale_factor);
	}
	fputs("</select></label></form>\n", out);
}

static void write_head(FILE *out, const struct hist_check *c, const struct rpt_hist_matrix *m)
{
	fputs("<thead><tr><th class=\"text\">query</th>", out);
	for (size_t k = 0; k < m->n_cols; k++) {
		const struct hist_check_series *cs = &c->series[m->cols[k]];
		fputs("<th class=\"col\" data-series=\"", out);
		rpt_html_escape(out, cs->s.info.id);
		fputs("\"><a href=\"#s-", out);
		rpt_html_escape(out, cs->s.info.id);
		fputs("\" class=\"mono\">", out);
		rpt_html_escape(out, cs->s.info.id);
		fputs("</a><br><span class=\"muted\">", out);
		rpt_html_escape(out, cs->s.info.host);
		fprintf(out, ", SF %g, ", cs->s.info.scale_factor);
		rpt_html_escape(out, cs->s.info.flavour);
		fprintf(out, ", %zu result%s</span></th>", rpt_history_loaded(cs),
			rpt_history_loaded(cs) == 1 ? "" : "s");
	}
	fputs("</tr></thead>\n", out);
}

/* started_at's date: the first 10 characters. */
static void write_date(FILE *out, const char *at)
{
	char d[11];
	snprintf(d, sizeof(d), "%s", at);
	rpt_html_escape(out, d);
}

/* A ratio with its direction and the date of the first result it is about. */
static void write_ratio(FILE *out, double diff, double ratio, const char *at, const char *what)
{
	fprintf(out, "<span class=\"ratio %s%s\">%s\xc3\x97%.3f</span> <span class=\"date\">",
		diff > 0 ? "slower" : "faster", what, diff > 0 ? "\xe2\x96\xb2" : "\xe2\x96\xbc",
		ratio);
	write_date(out, at);
	fputs("</span>", out);
}

static void write_cell(FILE *out, const struct hist_check *c, const struct hist_check_series *cs,
		       long q)
{
	if (q < 0) {
		fputs("<td class=\"cell none\" data-series=\"", out);
		rpt_html_escape(out, cs->s.info.id);
		fputs("\">&ndash;</td>", out);
		return;
	}
	const struct hist_query_series *qs = &cs->s.qs[q];
	const struct hist_query_check *k = &cs->checks[q];
	const struct hist_cp *cp = k->n_cps ? &k->cps[k->n_cps - 1] : NULL;
	int few = rpt_history_too_few(c, cs);
	int moved = k->verdict == HIST_REGRESSION || k->verdict == HIST_IMPROVEMENT;
	fprintf(out, "<td class=\"cell v-%s\" data-series=\"",
		few ? "none" : hist_verdict_name(k->verdict));
	rpt_html_escape(out, cs->s.info.id);
	fprintf(out, "\" title=\"newest: %s%s; vs last stable segment ",
		hist_verdict_name(k->verdict), k->starts_regression ? " (starts a regression)" : "");
	rpt_html_history_ratio(out, &k->newest);
	fputs("\"><a href=\"#", out);
	rpt_html_history_anchor(out, cs, qs->query);
	fputs("\">", out);
	if (cp)
		write_ratio(out, cp->test.diff, cp->test.ratio, qs->pts[cp->index].started_at, "");
	else if (moved && qs->n) /* no change point yet: the newest result against the segment */
		write_ratio(out, k->newest.diff, k->newest.ratio, qs->pts[qs->n - 1].started_at,
			    " newest");
	else
		fputs(few ? "<span class=\"date\">too few results</span>"
			  : "<span class=\"date\">&ndash;</span>",
		      out);
	if (k->starts_regression)
		fputs(" <span class=\"new\">new</span>", out);
	fputs("</a></td>", out);
}

void rpt_html_history_overview(FILE *out, const struct hist_check *c,
			       const struct rpt_hist_cell *cells, size_t n,
			       const struct rpt_hist_matrix *m)
{
	fputs("<section id=\"overview\"><h2>What changed</h2>\n", out);
	write_counts(out, cells, n);
	write_filters(out, c, m);
	fputs("<div class=\"table-wrap\"><table class=\"overview\">\n", out);
	write_head(out, c, m);
	fputs("<tbody>\n", out);
	for (size_t r = 0; r < m->n_rows; r++) {
		int changed = 0;
		for (size_t i = 0; i < n && !changed; i++) {
			const struct hist_check_series *cs = &c->series[cells[i].series];
			changed = RPT_HIST_CHANGED(cells[i].rank) &&
				  !strcmp(cs->s.qs[cells[i].query].query, m->rows[r]);
		}
		fprintf(out, "<tr data-changed=\"%d\"><th class=\"text\">", changed);
		rpt_html_escape(out, m->rows[r]);
		fputs("</th>", out);
		for (size_t k = 0; k < m->n_cols; k++) {
			const struct hist_check_series *cs = &c->series[m->cols[k]];
			write_cell(out, c, cs, rpt_history_query_index(cs, m->rows[r]));
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table></div>\n<p class=\"muted legend\">Colour: the newest result against "
	      "the last stable segment (<span class=\"badge v-regression\">regression</span> "
	      "<span class=\"badge v-improvement\">improvement</span> <span class=\"badge "
	      "v-unchanged\">unchanged</span> <span class=\"badge "
	      "v-inconclusive\">inconclusive</span>). \xc3\x97: the latest change point, after / "
	      "before, and the date of the first result after it (\xe2\x96\xb2 slower, "
	      "\xe2\x96\xbc faster); in italics, without a change point yet: the newest result "
	      "against the last stable segment; &ndash;: no change point. A cell links to its "
	      "chart.</p>\n"
	      "</section>\n",
	      out);
}
