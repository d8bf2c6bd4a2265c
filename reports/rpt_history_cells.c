/* SPDX-License-Identifier: MIT */
/* What every `history check` format shares: the rank of a series x query ("what changed"), the
 * order of the overview, the build range of a change point. */
#include "reports/rpt_history.h"
#include "base/text.h"
#include <stdlib.h>
#include <string.h>

size_t rpt_history_loaded(const struct hist_check_series *cs)
{
	size_t n = 0;
	for (size_t q = 0; q < cs->s.n_qs; q++)
		if (cs->s.qs[q].n > n)
			n = cs->s.qs[q].n;
	return n;
}

int rpt_history_too_few(const struct hist_check *c, const struct hist_check_series *cs)
{
	size_t ms = c->opts.min_size < 2 ? 2 : c->opts.min_size;
	return rpt_history_loaded(cs) < 2 * ms;
}

void rpt_history_cell_key(struct rpt_hist_cell *out, const struct hist_check_series *cs,
			  size_t q)
{
	const struct hist_query_check *c = &cs->checks[q];
	const struct hist_cp *last = c->n_cps ? &c->cps[c->n_cps - 1] : NULL;
	out->query = q;
	out->age = 0;
	if (c->starts_regression)
		out->rank = RPT_HIST_STARTS;
	else if (c->verdict == HIST_REGRESSION)
		out->rank = RPT_HIST_REGRESSION;
	else if (last && last->test.diff > 0)
		out->rank = RPT_HIST_SLOWER;
	else if (c->verdict == HIST_IMPROVEMENT)
		out->rank = RPT_HIST_IMPROVEMENT;
	else if (last)
		out->rank = RPT_HIST_FASTER;
	else if (cs->s.qs[q].n == 0)
		out->rank = RPT_HIST_NONE;
	else
		out->rank = c->verdict == HIST_UNCHANGED ? RPT_HIST_UNCHANGED : RPT_HIST_INCONCLUSIVE;
	if (last && (out->rank == RPT_HIST_SLOWER || out->rank == RPT_HIST_FASTER))
		out->age = cs->s.qs[q].n - last->index;
}

static int cell_cmp(const void *x, const void *y)
{
	const struct rpt_hist_cell *a = x, *b = y;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->age != b->age)
		return a->age < b->age ? -1 : 1;
	if (a->series != b->series)
		return a->series < b->series ? -1 : 1;
	return a->query < b->query ? -1 : a->query > b->query;
}

int rpt_history_cells(struct rpt_hist_cell **out, size_t *n, const struct hist_check *c)
{
	size_t total = 0, k = 0;
	for (size_t s = 0; s < c->n; s++)
		total += c->series[s].s.n_qs;
	*out = calloc(total + 1, sizeof(**out));
	*n = 0;
	if (!*out)
		return -1;
	for (size_t s = 0; s < c->n; s++)
		for (size_t q = 0; q < c->series[s].s.n_qs; q++) {
			rpt_history_cell_key(&(*out)[k], &c->series[s], q);
			(*out)[k++].series = s;
		}
	qsort(*out, total, sizeof(**out), cell_cmp);
	*n = total;
	return 0;
}

void rpt_history_order(size_t *out, const struct hist_check_series *cs)
{
	struct rpt_hist_cell *cells = calloc(cs->s.n_qs + 1, sizeof(*cells));
	for (size_t q = 0; q < cs->s.n_qs; q++) {
		if (cells)
			rpt_history_cell_key(&cells[q], cs, q);
		out[q] = q;
	}
	if (!cells) /* out of memory: query order */
		return;
	qsort(cells, cs->s.n_qs, sizeof(*cells), cell_cmp);
	for (size_t q = 0; q < cs->s.n_qs; q++)
		out[q] = cells[q].query;
	free(cells);
}

long rpt_history_query_index(const struct hist_check_series *cs, const char *id)
{
	for (size_t q = 0; q < cs->s.n_qs; q++)
		if (!strcmp(cs->s.qs[q].query, id))
			return (long)q;
	return -1;
}

int rpt_history_matrix(struct rpt_hist_matrix *out, const struct rpt_hist_cell *cells, size_t n,
		       const struct hist_check *c)
{
	memset(out, 0, sizeof(*out));
	out->rows = calloc(n + 1, sizeof(*out->rows));
	out->cols = calloc(c->n + 1, sizeof(*out->cols));
	if (!out->rows || !out->cols) {
		rpt_history_matrix_release(out);
		return -1;
	}
	/* rows and columns in the order of their first (best) cell */
	for (size_t i = 0; i < n; i++) {
		const char *id = c->series[cells[i].series].s.qs[cells[i].query].query;
		size_t r = 0, k = 0;
		while (r < out->n_rows && strcmp(out->rows[r], id))
			r++;
		if (r == out->n_rows)
			out->rows[out->n_rows++] = id;
		while (k < out->n_cols && out->cols[k] != cells[i].series)
			k++;
		if (k == out->n_cols)
			out->cols[out->n_cols++] = cells[i].series;
	}
	return 0;
}

void rpt_history_matrix_release(struct rpt_hist_matrix *m)
{
	if (!m)
		return;
	free(m->rows);
	free(m->cols);
	memset(m, 0, sizeof(*m));
}

void rpt_history_build_text(char *buf, size_t n, const struct hist_point *p)
{
	char b[4][256], hash[13]; /* from the store: control characters made visible (F9) */
	snprintf(hash, sizeof(hash), "%s", p->binary_sha256 ? p->binary_sha256 : "?");
	snprintf(buf, n, "%s (%s, server %s, binary %s)",
		 p->build_id[0] ? util_term(b[0], 256, p->build_id) : "-",
		 util_term(b[1], 256, p->started_at),
		 p->server_version ? util_term(b[2], 256, p->server_version) : "?",
		 util_term(b[3], 256, hash));
}
