/* SPDX-License-Identifier: MIT */
/* The plan diff in the HTML page: both plans' tables and strategies side by side, the changed
 * ones marked (reports/rpt_html_int.h). */
#include "reports/rpt_html_int.h"
#include "reports/rpt_plan.h"
#include <string.h>

/* The diff's entry for table t of one side, or NULL when t did not change. */
static const struct res_xtable_diff *table_change(const struct res_xdiff *d,
						  const struct res_xtable *t)
{
	for (size_t i = 0; i < d->n_tables; i++)
		if (d->tables[i].old == t || d->tables[i].new == t)
			return &d->tables[i];
	return NULL;
}

static int strategy_changed(const struct res_xdiff *d, const struct res_xstrategy *s)
{
	for (size_t i = 0; i < d->n_strategies; i++)
		if (d->strategies[i].s == s)
			return 1;
	return 0;
}

static void write_side(FILE *out, const struct res_xplan *p, const struct res_xdiff *d)
{
	char buf[1024];
	fputs("<ol class=\"plan-tables\">", out);
	for (size_t i = 0; i < p->n_tables; i++) {
		const struct res_xtable *t = &p->tables[i];
		const struct res_xtable_diff *c = table_change(d, t);
		fprintf(out, "<li%s>#%ld.%d <b>", c ? " class=\"changed\"" : "", t->select_id,
			t->position);
		rpt_html_esc(out, t->alias);
		fputs("</b> ", out);
		rpt_html_esc(out, t->access ? t->access : "?");
		if (t->key) {
			fputc('(', out);
			rpt_html_esc(out, t->key);
			fputc(')', out);
		}
		if (c && (c->new == t || !c->new)) { /* said once: on the new side, or removed */
			rpt_plan_table_text(buf, sizeof(buf), c);
			fputs(" <span class=\"muted\">", out);
			rpt_html_esc(out, buf);
			fputs("</span>", out);
		}
		fputs("</li>", out);
	}
	fputs("</ol><ul class=\"plan-strategies\">", out);
	for (size_t i = 0; i < p->n_strategies; i++) {
		const struct res_xstrategy *s = &p->strategies[i];
		fprintf(out, "<li%s>", strategy_changed(d, s) ? " class=\"changed\"" : "");
		rpt_html_esc(out, s->name);
		fprintf(out, " in #%ld</li>", s->select_id);
	}
	fputs("</ul>", out);
}

void rpt_html_plan_diff(FILE *out, const struct rpt_plan *p, const char *old_name,
			const char *new_name)
{
	fputs("<div class=\"plan-diff\"><h4>Plan diff (tables as #block.position, changed ones "
	      "marked; docs/explain.md)</h4><div class=\"side-by-side\"><div><h4>",
	      out);
	rpt_html_esc(out, old_name);
	fputs("</h4>", out);
	write_side(out, &p->old, &p->diff);
	fputs("</div><div><h4>", out);
	rpt_html_esc(out, new_name);
	fputs("</h4>", out);
	write_side(out, &p->new, &p->diff);
	fputs("</div></div>", out);
	if (p->diff.other) {
		fputs("<p>the plans differ at <code>", out);
		rpt_html_esc(out, p->diff.other_path);
		fputs("</code></p>", out);
	}
	fputs("</div>\n", out);
}
