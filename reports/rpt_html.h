/* SPDX-License-Identifier: MIT */
/* The HTML report: one self-contained page (Vega + Vega-Lite and the data inlined, no network
 * fetch) for `dbt3stab report` (one or more results) and `dbt3stab compare --format html`.
 * Every string taken from a result file is escaped. */
#ifndef DBT3_RPT_HTML_H
#define DBT3_RPT_HTML_H
#include "base/util.h"
#include "result/res.h"
#include <stdio.h>

struct rpt_compare;

/* Writes the report of n >= 1 results (no comparison: restart spread and warm-up curves);
 * paths[i] names files[i] on the page. 0, or -1 with err filled (out of memory, write error). */
int rpt_html_write_report(FILE *out, const struct res_file *const *files, const char *const *paths,
			  size_t n, struct errbuf *err);

/* The `compare --format html` hook, for commands/cmd_compare.c ("compare", please wire it): accept
 * "html" in --format and, instead of rpt_compare_write(f, cmp, fmt, color), call
 * rpt_html_write_compare(f, cmp, &err) (0, or -1 with err filled); exit codes as for the other
 * formats. The model names both files and holds them. */
int rpt_html_write_compare(FILE *out, const struct rpt_compare *cmp, struct errbuf *err);

/* Writes s for HTML text or attributes and for XML (the JUnit writers): &, <, >, " and '
 * replaced by character references, control bytes other than newline and tab dropped (XML 1.0
 * cannot hold them). NULL writes nothing. */
void rpt_html_escape(FILE *out, const char *s);

/* Writes JSON text for a <script type="application/json"> element: '<', '>' and '&' as \u
 * escapes, so the data reads back the same and cannot close the element. */
void rpt_html_json_script(FILE *out, const char *text);

#endif
