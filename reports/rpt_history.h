/* SPDX-License-Identifier: MIT */
/* `history check` output: text, Markdown, JSON (docs/history.schema.json), JUnit XML, and the
 * HTML trend page of `history report` / `history check --format html`. */
#ifndef DBT3_RPT_HISTORY_H
#define DBT3_RPT_HISTORY_H
#include "history/hist.h"
#include "reports/rpt.h"
#include <stdio.h>

/* Writes the check in fmt (the format table's writer, rpt_format.c); 0, or -1 on a write error
 * (err filled by the writers that know why, e.g. HTML's). */
int rpt_history_write(FILE *f, const struct hist_check *c, enum rpt_format fmt,
		      struct errbuf *err);

/* The Markdown of a CI comment (rpt_history_md.c): the changed series x queries with their
 * latest change point and build range, then one line for everything else. 0, or -1. */
int rpt_history_write_markdown(FILE *f, const struct hist_check *c, struct errbuf *err);

/* The check as the JSON document of --format json (a new reference; NULL on out of memory). */
json_t *rpt_history_json(const struct hist_check *c);

/* ---- what changed (rpt_history_cells.c) ---- */

/* The rank of a series x query, lower first: its newest result starts a regression, its newest
 * verdict is regression, its latest change point is a slowdown, newest verdict improvement,
 * latest change point a speedup (these five are "changed"), then inconclusive, unchanged, no
 * result. */
enum rpt_hist_rank {
	RPT_HIST_STARTS = 0,
	RPT_HIST_REGRESSION,
	RPT_HIST_SLOWER,
	RPT_HIST_IMPROVEMENT,
	RPT_HIST_FASTER,
	RPT_HIST_INCONCLUSIVE,
	RPT_HIST_UNCHANGED,
	RPT_HIST_NONE,
};
#define RPT_HIST_CHANGED(rank) ((rank) <= RPT_HIST_FASTER)

/* One series x query: indices into c->series and its s.qs, rank, and the results since the
 * latest change point when that decides the rank (SLOWER, FASTER; else 0). */
struct rpt_hist_cell {
	size_t series, query;
	enum rpt_hist_rank rank;
	size_t age;
};

/* The rank of query q of cs (out->series is left alone). */
void rpt_history_cell_key(struct rpt_hist_cell *out, const struct hist_check_series *cs,
			  size_t q);

/* Every series x query of the check sorted by rank, then the most recent change point first,
 * then series and query order; *out malloc'd (the caller frees). -1 when out of memory. */
int rpt_history_cells(struct rpt_hist_cell **out, size_t *n, const struct hist_check *c);

/* Query order of one series in the same way; fills out[cs->s.n_qs] with indices into cs->s.qs. */
void rpt_history_order(size_t *out, const struct hist_check_series *cs);

/* The overview matrix: query ids as rows (borrowed from the check) and series indices as
 * columns, each in the order of its best cell. Release with rpt_history_matrix_release. */
struct rpt_hist_matrix {
	const char **rows;
	size_t n_rows;
	size_t *cols;
	size_t n_cols;
};
int rpt_history_matrix(struct rpt_hist_matrix *out, const struct rpt_hist_cell *cells, size_t n,
		       const struct hist_check *c);
void rpt_history_matrix_release(struct rpt_hist_matrix *m);

/* The index of query id in cs->s.qs, or -1. */
long rpt_history_query_index(const struct hist_check_series *cs, const char *id);

/* Results loaded of a series (its longest query series), and whether that is fewer than a
 * change point needs (2 x min_size). */
size_t rpt_history_loaded(const struct hist_check_series *cs);
int rpt_history_too_few(const struct hist_check *c, const struct hist_check_series *cs);

/* One end of a build range: "BUILD_ID (STARTED_AT, server VERSION, binary SHA256-PREFIX)", as
 * "build-12 (<started_at>, server 10.11.19-MariaDB, binary 9b44b62ca595)". A change point at
 * index i is between qs->pts[i - 1] (the last result before) and qs->pts[i] (the first after).
 * Not escaped. */
void rpt_history_build_text(char *buf, size_t n, const struct hist_point *p);

/* The self-contained trend page (Vega-Lite inlined as in the compare report). 0, or -1 with err
 * filled. */
int rpt_html_write_history(FILE *out, const struct hist_check *c, struct errbuf *err);

#endif
