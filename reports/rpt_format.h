/* SPDX-License-Identifier: MIT */
/* The writers of each output format, for the format table (reports/rpt_format.c); callers use
 * rpt_compare_write, rpt_summary_write and rpt_history_write. Not for other modules. */
#ifndef DBT3_RPT_FORMAT_H
#define DBT3_RPT_FORMAT_H
#include "reports/rpt.h"
#include "reports/rpt_history.h"
#include <stdio.h>

/* A report in one format: 0, or -1 (err filled by the writers that know more than "cannot
 * write"; the caller also checks ferror). color: ANSI colours, for text on a terminal. */
typedef int rpt_compare_writer(FILE *f, const struct rpt_compare *c, int color, struct errbuf *err);
typedef int rpt_summary_writer(FILE *f, const struct rpt_summary *s, int color, struct errbuf *err);
typedef int rpt_history_writer(FILE *f, const struct hist_check *c, struct errbuf *err);

/* reports/rpt_compare_out.c */
rpt_compare_writer rpt_compare_write_text, rpt_compare_write_markdown, rpt_compare_write_json,
    rpt_compare_write_junit;
/* reports/rpt_summary_out.c */
rpt_summary_writer rpt_summary_write_text, rpt_summary_write_markdown, rpt_summary_write_json;
/* reports/rpt_history.c */
rpt_history_writer rpt_history_write_text, rpt_history_write_json, rpt_history_write_junit;

#endif
