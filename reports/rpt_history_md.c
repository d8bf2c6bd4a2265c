/* SPDX-License-Identifier: MIT */
/* `history check --format markdown`, for a CI comment: the changed series x queries first (with
 * the latest change point and the builds around it), then one line for all the others. */
#include "reports/rpt_history.h"
#include "base/text.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Text from the store (build ids, versions, host names) in a table cell (base/text.h). */
static void md_text(FILE *f, const char *s)
{
	util_md_fputs(f, s ? s : "");
}

static void md_build(FILE *f, const struct hist_point *p)
{
	md_text(f, p->build_id[0] ? p->build_id : "-");
	fputs(" (", f);
	md_text(f, p->started_at);
	fputs(", ", f);
	md_text(f, p->server_version ? p->server_version : "?");
	char hash[13];
	snprintf(hash, sizeof(hash), "%s", p->binary_sha256 ? p->binary_sha256 : "?");
	fputs(", ", f);
	md_text(f, hash);
	fputc(')', f);
}

static const char *const rank_words[] = {"regression, new", "regression", "slower",
					  "improvement", "faster"};

static void md_row(FILE *f, const struct hist_check_series *cs, const struct rpt_hist_cell *cell)
{
	const struct hist_query_series *qs = &cs->s.qs[cell->query];
	const struct hist_query_check *k = &cs->checks[cell->query];
	const struct hist_cp *cp = k->n_cps ? &k->cps[k->n_cps - 1] : NULL;
	fprintf(f, "| %s | ", cs->s.info.id);
	md_text(f, qs->query);
	fprintf(f, " | %s | %s", rank_words[cell->rank], hist_verdict_name(k->verdict));
	if (k->newest.kind != ST_TEST_NONE && isfinite(k->newest.ratio))
		fprintf(f, " (\xc3\x97%.3f)", k->newest.ratio);
	fputs(" | ", f);
	if (cp) {
		fprintf(f, "\xc3\x97%.3f [%.3f, %.3f] p %.2g at ", cp->test.ratio, cp->test.ci_lo,
			cp->test.ci_hi, cp->test.p);
		md_text(f, qs->pts[cp->index].started_at);
		if (k->n_cps > 1)
			fprintf(f, " (%zu earlier)", k->n_cps - 1);
	} else {
		fputs("none yet", f);
	}
	fputs(" | ", f);
	/* the builds to bisect: around the latest change point, or, for a regression that starts
	 * with the newest result, the newest and the one before it */
	size_t at = cp ? cp->index : k->starts_regression && qs->n >= 2 ? qs->n - 1 : 0;
	if (at) {
		md_build(f, &qs->pts[at - 1]);
		fputs(" &rarr; ", f);
		md_build(f, &qs->pts[at]);
	} else {
		fputs("&ndash;", f);
	}
	fputs(" |\n", f);
}

static void md_series_list(FILE *f, const struct hist_check *c)
{
	fputs("\nSeries:\n", f);
	for (size_t s = 0; s < c->n; s++) {
		const struct hist_check_series *cs = &c->series[s];
		const struct hist_series_info *i = &cs->s.info;
		size_t ms = c->opts.min_size < 2 ? 2 : c->opts.min_size;
		fprintf(f, "- `%s`: host ", i->id);
		md_text(f, i->host ? i->host : "?");
		fprintf(f, ", SF %g, ", i->scale_factor);
		md_text(f, i->flavour ? i->flavour : "?");
		fputs(", ", f);
		md_text(f, i->protocol ? i->protocol : "?");
		fprintf(f, " (%lld result%s)", i->n_results, i->n_results == 1 ? "" : "s");
		if (rpt_history_too_few(c, cs))
			fprintf(f, ": too few for a change point, which needs %zu", 2 * ms);
		fputs("\n", f);
	}
}

int rpt_history_write_markdown(FILE *f, const struct hist_check *c, struct errbuf *err)
{
	struct rpt_hist_cell *cells = NULL;
	size_t n = 0, changed = 0;
	fputs("# dbt3stab history check\n\n", f);
	if (c->n == 0) {
		fputs("The history store holds no results.\n", f);
		return ferror(f) ? -1 : 0;
	}
	if (rpt_history_cells(&cells, &n, c) < 0)
		return errbuf_set(err, "cannot order the queries: out of memory");
	while (changed < n && RPT_HIST_CHANGED(cells[changed].rank))
		changed++;
	if (changed)
		fputs("| series | query | what | newest | latest change point | last result before "
		      "&rarr; first after |\n|---|---|---|---|---|---|\n",
		      f);
	for (size_t i = 0; i < changed; i++)
		md_row(f, &c->series[cells[i].series], &cells[i]);
	if (changed && changed < n)
		fprintf(f, "\nNothing else changed (%zu other series \xc3\x97 quer%s).\n", n - changed,
			n - changed == 1 ? "y" : "ies");
	else if (!changed)
		fprintf(f, "Nothing changed (%zu series \xc3\x97 quer%s).\n", n, n == 1 ? "y" : "ies");
	md_series_list(f, c);
	free(cells);
	return ferror(f) ? -1 : 0;
}
