/* SPDX-License-Identifier: MIT */
/* Internals of the trend page shared by rpt_html_history.c (the page, the charts) and
 * rpt_html_history_ov.c (the overview). Not for other modules. */
#ifndef DBT3_RPT_HTML_HISTORY_H
#define DBT3_RPT_HTML_HISTORY_H
#include "reports/rpt_history.h"
#include <stdio.h>

/* The overview: what changed in a line, the filters, the matrix of queries (rows) x series
 * (columns) in the order of m, each cell coloured by the newest verdict, showing the latest
 * change point's ratio and date and linking to the query's chart. */
void rpt_html_history_overview(FILE *out, const struct hist_check *c,
			       const struct rpt_hist_cell *cells, size_t n,
			       const struct rpt_hist_matrix *m);

/* The two below are the overview's (rpt_html_history_ov.c), which the page's charts use too. */

/* The id of a query's chart ("q-SERIES-QUERY", escaped), which the cells link to. */
void rpt_html_history_anchor(FILE *out, const struct hist_check_series *cs, const char *query);

/* "1.203 [1.196, 1.209], p 5.8e-32", or a dash when untested. */
void rpt_html_history_ratio(FILE *out, const struct st_test *t);

#endif
