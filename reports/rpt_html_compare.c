/* SPDX-License-Identifier: MIT */
/* `compare --format html`: maps the compare model (reports/rpt.h) onto the HTML page. */
#include "reports/rpt.h"
#include "reports/rpt_html.h"
#include "reports/rpt_html_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The page's notes: compare's work lines (rpt_work_query_line), its instructions lines
 * (rpt_instr_query_line, as text and Markdown give them), then its warnings. The array and the
 * work and instructions lines are owned (free_notes), the warnings borrowed. */
static char **work_notes(const struct rpt_compare *cmp, size_t *n_out, size_t *n_own)
{
	char **notes = calloc(2 * cmp->n_queries + cmp->n_warnings + 3, sizeof(*notes));
	char line[1024];
	size_t n = 0;
	if (!notes)
		return NULL;
	if (cmp->n_work_compared &&
	    asprintf(&notes[n++],
		     "work (server counters, docs/work.md): %zu of %zu queries changed",
		     cmp->n_work_changed, cmp->n_work_compared) < 0)
		notes[--n] = NULL;
	for (size_t i = 0; i < cmp->n_queries; i++) {
		rpt_work_query_line(line, sizeof(line), &cmp->queries[i]);
		if (*line && !(notes[n++] = strdup(line)))
			n--;
	}
	if (cmp->n_instr_compared &&
	    asprintf(&notes[n++],
		     "instructions (per execution; changed beyond %.1f%% + %.0f x the restarts' "
		     "spread; docs/work.md): %zu of %zu queries changed",
		     100 * RPT_INSTR_TOL, RPT_INSTR_K, cmp->n_instr_changed,
		     cmp->n_instr_compared) < 0)
		notes[--n] = NULL;
	for (size_t i = 0; i < cmp->n_queries; i++) {
		rpt_instr_query_line(line, sizeof(line), &cmp->queries[i]);
		if (*line && !(notes[n++] = strdup(line)))
			n--;
	}
	*n_own = n;
	for (size_t i = 0; i < cmp->n_warnings; i++)
		notes[n++] = cmp->warnings[i];
	*n_out = n;
	return notes;
}

static void free_notes(char **notes, size_t n_own)
{
	for (size_t i = 0; notes && i < n_own; i++)
		free(notes[i]);
	free(notes);
}

/* One query's row of the page: its verdict, figures and what explains a change. */
static void fill_row(struct rpt_html_row *r, const struct rpt_compare *cmp,
		     const struct rpt_query *q)
{
	int tested = q->test.kind != ST_TEST_NONE;
	r->verdict = rpt_verdict_name(q->verdict);
	r->old_ms = q->old.gmean_ms;
	r->new_ms = q->new.gmean_ms;
	r->ratio = isfinite(q->test.ratio) && q->test.ratio > 0 ? q->test.ratio
		   : r->old_ms > 0				? r->new_ms / r->old_ms
								: NAN;
	r->lo = tested ? q->test.ci_lo : NAN;
	r->hi = tested ? q->test.ci_hi : NAN;
	r->p = tested ? q->test.p : NAN;
	r->p_adj = tested ? (cmp->opts.alt == ST_GREATER && q->test.diff < 0 ? q->p_adj_impr
									     : q->p_adj)
			  : NAN;
	r->sim_lo = tested ? q->test.ci_sim_lo : NAN;
	r->sim_hi = tested ? q->test.ci_sim_hi : NAN;
	r->test = rpt_test_name(q->test.kind);
	r->plan_changed = q->plan_changed;
	r->plan_diff = q->plan_diff;
	r->analyze = q->work.changed && q->analyze.n_rows ? &q->analyze : NULL;
	r->funcs = &q->funcs;
	r->trace = q->trace;
	r->wrong = q->result_changed && !q->data_differs;
	r->why = q->why;
	if (q->bound && isfinite(q->bound_ratio)) {
		r->ratio = q->bound_ratio;
		r->bound = q->bound;
	}
}

int rpt_html_write_compare(FILE *out, const struct rpt_compare *cmp, struct errbuf *err)
{
	const struct res_file *files[2] = {cmp->old.res, cmp->new.res};
	const char *paths[2] = {cmp->old.path, cmp->new.path};
	static const char *const prefixes[2] = {"old", "new"};
	struct rpt_html_page pg;
	char **notes = NULL;
	size_t n_own = 0;
	const char **ids = calloc(cmp->n_queries + 1, sizeof(*ids));
	if (!ids)
		return errbuf_set(err, "cannot build the report: out of memory");
	for (size_t i = 0; i < cmp->n_queries; i++)
		ids[i] = cmp->queries[i].id;
	int rc = rpt_html_page_init(&pg, files, paths, prefixes, 2, ids, cmp->n_queries, err);
	free(ids);
	if (rc < 0)
		return -1;
	pg.compare = 1;
	pg.cmp = cmp;
	pg.alpha = cmp->opts.alpha;
	pg.min_effect = cmp->opts.min_effect;
	notes = work_notes(cmp, &pg.n_notes, &n_own);
	if (!notes)
		goto oom;
	pg.notes = notes;
	pg.rows = calloc(cmp->n_queries + 1, sizeof(*pg.rows));
	if (!pg.rows)
		goto oom;
	for (size_t i = 0; i < cmp->n_queries; i++)
		fill_row(&pg.rows[i], cmp, &cmp->queries[i]);
	if (cmp->have_overall) {
		pg.overall.valid = 1;
		pg.overall.ratio = cmp->overall.ratio;
		pg.overall.lo = cmp->overall.ci_lo;
		pg.overall.hi = cmp->overall.ci_hi;
	}
	char method[360], adj[320];
	if (cmp->opts.adjust_memory) {
		rpt_adjust_text(adj, sizeof(adj), cmp);
		snprintf(method, sizeof(method), "adjusted: %s", adj);
	} else
		snprintf(method, sizeof(method), "%s", st_method_name(cmp->opts.method));
	if (asprintf(&pg.settings,
		     "method %s, %s, correction %s; regression: %s; unchanged: %.0f%% CI within "
		     "the min-effect (TOST, per query, not corrected); CIs per query, not adjusted "
		     "for multiplicity",
		     method,
		     cmp->opts.alt == ST_GREATER
			 ? "one-sided for regressions, improvements their own family"
			 : "two-sided",
		     st_correction_name(cmp->opts.correction),
		     cmp->opts.min_effect_test
			 ? "slower by more than the min-effect (shifted test)"
			 : "significantly slower, estimated at least the min-effect",
		     100 * (1 - 2 * cmp->opts.alpha)) < 0) {
		pg.settings = NULL;
		goto oom;
	}
	if (asprintf(&pg.title, "dbt3stab compare: %s vs %s", pg.sides[0].base, pg.sides[1].base) <
	    0) {
		pg.title = NULL;
		goto oom;
	}
	rc = rpt_html_page_write(out, &pg, err);
	rpt_html_page_release(&pg);
	free_notes(notes, n_own);
	return rc;
oom:
	rpt_html_page_release(&pg);
	free_notes(notes, n_own);
	return errbuf_set(err, "cannot build the report: out of memory");
}
