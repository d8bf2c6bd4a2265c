/* SPDX-License-Identifier: MIT */
/* Output formats of compare and summary: table alignment, colour, escaping, format names. */
#include "reports/rpt.h"
#include "reports/rpt_table.h"
#include "result/res.h"
#include "tests/harness.h"
#include "tests/rpt_needed_ref.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHA_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

/* Runs fn(f, arg) on a memory stream and returns what it wrote (caller frees). */
static char *capture(int (*fn)(FILE *, const void *, int, int), const void *arg, int fmt, int color)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(fn(f, arg, fmt, color), 0);
	fclose(f);
	return buf;
}

static int write_table(FILE *f, const void *arg, int fmt, int color)
{
	(void)fmt;
	return rpt_table_print(f, arg, "", color);
}

static int write_compare(FILE *f, const void *arg, int fmt, int color)
{
	struct errbuf err;
	return rpt_compare_write(f, arg, (enum rpt_format)fmt, color, &err);
}

static int write_summary(FILE *f, const void *arg, int fmt, int color)
{
	struct errbuf err;
	return rpt_summary_write(f, arg, (enum rpt_format)fmt, color, &err);
}

TH_TEST(rpt, table_aligns_columns_and_utf8)
{
	static const char *const heads[] = {"query", "ratio", "CI"};
	struct rpt_table t;
	rpt_table_init(&t, 3, heads, "lrr");
	rpt_table_row(&t);
	rpt_table_cell(&t, NULL, "Q1");
	rpt_table_cell(&t, "\033[31m", "1.5");
	rpt_table_cell(&t, NULL, "1.2–1.8");
	rpt_table_row(&t);
	rpt_table_cell(&t, NULL, "Q10");
	rpt_table_cell(&t, NULL, "10.25");
	rpt_table_cell(&t, NULL, "-");
	char *plain = capture(write_table, &t, 0, 0);
	CU_ASSERT_STRING_EQUAL(plain, "query  ratio       CI\n"
				      "Q1       1.5  1.2–1.8\n"
				      "Q10    10.25        -\n");
	char *colored = capture(write_table, &t, 0, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(colored, "    \033[31m1.5\033[0m  "));
	free(plain);
	free(colored);
	rpt_table_release(&t);
}

/* The format table: the formats each report is written in (docs/report.md, --help) and their
 * names for messages. */
TH_TEST(rpt, format_names)
{
	enum rpt_format f;
	unsigned summary = rpt_formats_of(RPT_REPORT_SUMMARY);
	char names[96];
	CU_ASSERT_EQUAL(summary, RPT_ALLOW_TEXT | RPT_ALLOW_MARKDOWN | RPT_ALLOW_JSON);
	CU_ASSERT_EQUAL(rpt_formats_of(RPT_REPORT_COMPARE), summary | RPT_ALLOW_JUNIT | RPT_ALLOW_HTML);
	CU_ASSERT_EQUAL(rpt_formats_of(RPT_REPORT_HISTORY), summary | RPT_ALLOW_JUNIT | RPT_ALLOW_HTML);
	rpt_format_names(names, sizeof(names), summary);
	CU_ASSERT_STRING_EQUAL(names, "text, markdown or json");
	rpt_format_names(names, sizeof(names), rpt_formats_of(RPT_REPORT_COMPARE));
	CU_ASSERT_STRING_EQUAL(names, "text, markdown, json, junit or html");
	rpt_format_names(names, sizeof(names), RPT_ALLOW_JSON);
	CU_ASSERT_STRING_EQUAL(names, "json");
	CU_ASSERT_STRING_EQUAL(rpt_format_name(RPT_JUNIT), "junit");
	CU_ASSERT_EQUAL(rpt_format_parse("junit", summary | RPT_ALLOW_JUNIT, &f), 0);
	CU_ASSERT_EQUAL(f, RPT_JUNIT);
	CU_ASSERT_EQUAL(rpt_format_parse("junit", summary, &f), -1);
	CU_ASSERT_EQUAL(rpt_format_parse("markdown", summary, &f), 0);
	CU_ASSERT_EQUAL(f, RPT_MARKDOWN);
	CU_ASSERT_EQUAL(rpt_format_parse("html", summary | RPT_ALLOW_JUNIT, &f), -1);
	CU_ASSERT_STRING_EQUAL(rpt_verdict_name(RPT_WRONG_RESULT), "wrong-result");
}

/* Two one-query results whose query id needs escaping; new is 50% slower in every restart. */
static struct res_file *make(double factor, const char *result_sha)
{
	struct res_file *res = res_file_new();
	json_object_set_new(res->dataset, "scale_factor", json_real(0.01));
	res_file_finish(res);
	struct res_query *q = res_file_add_query(res, "Q<1>&\"", SHA_A);
	static const double noise[] = {1.00, 1.02, 0.99, 1.01};
	for (int i = 0; i < 4; i++) {
		double runs[2] = {10.0 * factor * noise[i], 10.01 * factor * noise[i]};
		struct res_restart r = {.index = i,
					.measured_ms = runs,
					.n_measured = 2,
					.rows = 1,
					.result_sha256 = (char *)result_sha};
		res_query_add_restart(q, &r);
	}
	return res;
}

TH_TEST(rpt, outputs_escape_and_color_only_when_asked)
{
	struct res_file *a = make(1.0, SHA_A), *b = make(1.5, SHA_A);
	struct rpt_compare_opts opts;
	struct rpt_compare *c = NULL;
	struct errbuf err = {""};
	struct rpt_file_info fa = {"a&b.json", a}, fb = {"new.json", b}, none = {NULL, NULL};
	rpt_compare_opts_init(&opts);
	CU_ASSERT_EQUAL_FATAL(rpt_compare_build(&c, &fa, &fb, &none, &opts, &err), 0);
	CU_ASSERT_EQUAL(c->worst, RPT_REGRESSION);

	char *xml = capture(write_compare, c, RPT_JUNIT, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(xml, "name=\"Q&lt;1&gt;&amp;&quot;\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(xml, "value=\"a&amp;b.json\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<failure type=\"regression\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(xml, "failures=\"1\""));
	free(xml);

	char *text = capture(write_compare, c, RPT_TEXT, 0);
	CU_ASSERT_PTR_NULL(strchr(text, '\033'));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "regression"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "result: 1 regression"));
	free(text);
	text = capture(write_compare, c, RPT_TEXT, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\033[1;31mregression\033[0m"));
	free(text);

	char *md = capture(write_compare, c, RPT_MARKDOWN, 1);
	CU_ASSERT_PTR_NULL(strchr(md, '\033'));
	CU_ASSERT_PTR_NOT_NULL(strstr(md, "| **regression** |"));
	free(md);

	char *js = capture(write_compare, c, RPT_JSON, 0);
	json_error_t je;
	json_t *o = json_loads(js, 0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	json_t *q0 = json_array_get(json_object_get(o, "queries"), 0);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(q0, "verdict")), "regression");
	CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(q0, "ratio")), 1.5, 1e-9);
	json_decref(o);
	free(js);
	rpt_compare_free(c);

	struct rpt_summary_opts so;
	struct rpt_summary *s = NULL;
	rpt_summary_opts_init(&so);
	CU_ASSERT_EQUAL_FATAL(rpt_summary_build(&s, &fa, &so, &err), 0);
	CU_ASSERT_EQUAL(s->queries[0].side.n_used, 4);
	CU_ASSERT_TRUE(s->queries[0].have_stats);
	CU_ASSERT_EQUAL(s->queries[0].stats.n_runs, 8);
	/* the restarts needed for 3% at 80% power, from SciPy (tests/rpt_needed_ref.py) */
	CU_ASSERT_DOUBLE_EQUAL(s->queries[0].stats.sd_log, REF_RPT_SD_LOG, 1e-12);
	CU_ASSERT_FALSE(s->queries[0].needed_over);
	CU_ASSERT_EQUAL(s->queries[0].needed, REF_RPT_NEEDED);
	/* four restarts a side is exactly what the file has: its power now */
	CU_ASSERT_DOUBLE_EQUAL(s->queries[0].power_now, REF_RPT_POWER_AT, 1e-4);
	char *st = capture(write_summary, s, RPT_TEXT, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(st, "Q<1>&\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(st, "restarts for 3%"));
	free(st);
	rpt_summary_free(s);
	res_file_free(a);
	res_file_free(b);
}

TH_MAIN(rpt)
