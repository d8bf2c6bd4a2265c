/* SPDX-License-Identifier: MIT */
/* The output formats: one row per format with its name and its writer of each report (NULL:
 * that report is not written in it). A new format is a row here and its writers (HACKING.md,
 * "A new output format"). */
#include "reports/rpt_format.h"
#include "reports/rpt_html.h"
#include <string.h>

static int compare_html(FILE *f, const struct rpt_compare *c, int color, struct errbuf *err)
{
	(void)color;
	return rpt_html_write_compare(f, c, err);
}

static const struct rpt_format_def {
	const char *name; /* --format NAME */
	rpt_compare_writer *compare;
	rpt_summary_writer *summary;
	rpt_history_writer *history;
} formats[] = {
    [RPT_TEXT] = {"text", rpt_compare_write_text, rpt_summary_write_text, rpt_history_write_text},
    [RPT_MARKDOWN] = {"markdown", rpt_compare_write_markdown, rpt_summary_write_markdown,
		      rpt_history_write_markdown},
    [RPT_JSON] = {"json", rpt_compare_write_json, rpt_summary_write_json, rpt_history_write_json},
    [RPT_JUNIT] = {"junit", rpt_compare_write_junit, NULL, rpt_history_write_junit},
    [RPT_HTML] = {"html", compare_html, NULL, rpt_html_write_history},
};
#define N_FORMATS (sizeof(formats) / sizeof(formats[0]))

unsigned rpt_formats_of(enum rpt_report r)
{
	unsigned set = 0;
	for (unsigned i = 0; i < N_FORMATS; i++)
		if (r == RPT_REPORT_COMPARE   ? formats[i].compare != NULL
		    : r == RPT_REPORT_SUMMARY ? formats[i].summary != NULL
					      : formats[i].history != NULL)
			set |= 1u << i;
	return set;
}

int rpt_format_parse(const char *s, unsigned allowed, enum rpt_format *out)
{
	for (unsigned i = 0; i < N_FORMATS; i++)
		if ((allowed & (1u << i)) && strcmp(s, formats[i].name) == 0) {
			*out = (enum rpt_format)i;
			return 0;
		}
	return -1;
}

void rpt_format_names(char *out, size_t len, unsigned set)
{
	size_t n = 0, left = 0, at = 0;
	for (unsigned i = 0; i < N_FORMATS; i++)
		left += (set >> i) & 1u;
	out[0] = '\0';
	for (unsigned i = 0; i < N_FORMATS && at < len; i++) {
		if (!((set >> i) & 1u))
			continue;
		const char *sep = n == 0 ? "" : n + 1 == left ? " or " : ", ";
		int w = snprintf(out + at, len - at, "%s%s", sep, formats[i].name);
		at += w > 0 ? (size_t)w : 0;
		n++;
	}
}

int rpt_compare_write(FILE *f, const struct rpt_compare *c, enum rpt_format fmt, int color,
		      struct errbuf *err)
{
	rpt_compare_writer *w = (unsigned)fmt < N_FORMATS ? formats[fmt].compare : NULL;
	if (!w)
		return errbuf_set(err, "compare has no %s format", rpt_format_name(fmt));
	return w(f, c, color, err) < 0 || ferror(f) ? -1 : 0;
}

int rpt_summary_write(FILE *f, const struct rpt_summary *s, enum rpt_format fmt, int color,
		      struct errbuf *err)
{
	rpt_summary_writer *w = (unsigned)fmt < N_FORMATS ? formats[fmt].summary : NULL;
	if (!w)
		return errbuf_set(err, "summary has no %s format", rpt_format_name(fmt));
	return w(f, s, color, err) < 0 || ferror(f) ? -1 : 0;
}

int rpt_history_write(FILE *f, const struct hist_check *c, enum rpt_format fmt, struct errbuf *err)
{
	rpt_history_writer *w = (unsigned)fmt < N_FORMATS ? formats[fmt].history : NULL;
	if (!w)
		return errbuf_set(err, "history check has no %s format", rpt_format_name(fmt));
	return w(f, c, err) < 0 || ferror(f) ? -1 : 0;
}

const char *rpt_format_name(enum rpt_format fmt)
{
	return (unsigned)fmt < N_FORMATS ? formats[fmt].name : "unknown";
}
