/* SPDX-License-Identifier: MIT */
/* Where the rows went in the HTML page: a query's tables whose rows examined changed, both
 * counts, and its estimates off by 10x or more (reports/rpt_html_int.h; docs/explain.md). */
#include "reports/rpt.h"
#include "reports/rpt_html_int.h"

void rpt_html_analyze(FILE *out, const struct rpt_analyze *a, const char *old_name,
		      const char *new_name)
{
	char o[40], n[40];
	fputs("<div class=\"analyze\"><h4>Where the rows went (ANALYZE, rows examined = r_loops "
	      "&times; r_rows; docs/explain.md)</h4><table><thead><tr><th>table</th><th>",
	      out);
	rpt_html_esc(out, old_name);
	fputs("</th><th>", out);
	rpt_html_esc(out, new_name);
	fputs("</th></tr></thead><tbody>", out);
	for (size_t i = 0; i < a->n_rows; i++) {
		const struct rpt_arows *r = &a->rows[i];
		rpt_analyze_fmt_rows(o, sizeof(o), r->old_rows);
		rpt_analyze_fmt_rows(n, sizeof(n), r->new_rows);
		fputs("<tr><td>", out);
		rpt_html_esc(out, (r->old ? r->old : r->new)->alias);
		fprintf(out, "</td><td class=\"num\">%s</td><td class=\"num\">%s</td></tr>",
			r->old ? o : "&ndash;", r->new ? n : "&ndash;");
	}
	fputs("</tbody></table>", out);
	for (size_t i = 0; i < a->n_est; i++) {
		const struct res_atable *t = a->est[i].t;
		rpt_analyze_fmt_rows(o, sizeof(o), t->rows);
		rpt_analyze_fmt_rows(n, sizeof(n), t->r_rows);
		fputs("<p class=\"muted\">", out);
		rpt_html_esc(out, a->est[i].new_side ? new_name : old_name);
		fputs(": <b>", out);
		rpt_html_esc(out, t->alias);
		fprintf(out, "</b> estimated %s, read %s a loop</p>", o, n);
	}
	if (a->varies)
		fputs("<p class=\"muted\">rows examined vary between a side's restarts</p>", out);
	fputs("</div>\n", out);
}
