/* SPDX-License-Identifier: MIT */
/* `history check` output: text, Markdown, JSON (docs/history.schema.json), JUnit XML, and the
 * HTML trend page of `history report` / `history check --format html`. */
#ifndef DBT3_RPT_HISTORY_H
#define DBT3_RPT_HISTORY_H
#include "history/hist.h"
#include "reports/rpt.h"
#include <stdio.h>

/* Writes the check in fmt (not RPT_HTML); 0, or -1 on a write error. */
int rpt_history_write(FILE *f, const struct hist_check *c, enum rpt_format fmt);

/* The check as the JSON document of --format json (a new reference; NULL on out of memory). */
json_t *rpt_history_json(const struct hist_check *c);

/* Query order of a series for the report: a newest result that starts a regression first, then
 * newest verdict regression, then the most recent regression change point, then by query. Fills
 * out[cs->s.n_qs] with indices into cs->s.qs. */
void rpt_history_order(size_t *out, const struct hist_check_series *cs);

/* The self-contained trend page (Vega-Lite inlined as in the compare report). 0, or -1 with err
 * filled. */
int rpt_html_write_history(FILE *out, const struct hist_check *c, struct errbuf *err);

#endif
