/* SPDX-License-Identifier: MIT */
/* The HTML report's sequential and budget sections (reports/rpt_html_seq.c) and `report DIR`, on
 * the synthetic budget run tests/data/seq_html_{old,new}.json; the reference figures
 * (seq_html_ref.inc) were computed with numpy/scipy by tests/data/seq_html_gen.py, which wrote
 * the files. */
#include "tests/harness.h"
#include "tests/th_fx.h"
#include "tests/th_spawn.h"
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct seq_ref {
	const char *id, *decision;
	int at, n_looks;     /* decided after pair at (0: undecided); pairs measured */
	double looks[10][3]; /* ratio, RCI low, RCI high after each pair (NAN: none) */
	const char *warm_old, *warm_new, *runs_old, *runs_new; /* per restart, in order */
	int cut_old, cut_new; /* restarts whose warm-up hit the maximum */
};

static const struct seq_ref refs[] = {
#include "tests/data/seq_html_ref.inc"
};
#define N_REFS (sizeof(refs) / sizeof(refs[0]))

static const char *str(json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : "";
}

/* compare tests/data/PAIR_old.json PAIR_new.json [extra] --format html into dir/name, with the
 * exit code expected; returns the page. */
static char *compare_page(const char *dir, const char *name, const char *pair, const char *extra,
			  int expect)
{
	char path[4096];
	int rc =
	    th_system("'%s' compare -q '%s/tests/data/%s_old.json' '%s/tests/data/%s_new.json' "
		      "%s --format html -o '%s/%s'",
		      DBT3_BINARY, DBT3_SOURCE_DIR, pair, DBT3_SOURCE_DIR, pair, extra, dir, name);
	CU_ASSERT_EQUAL(rc, expect);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return th_slurp(path);
}

/* compare --sequential --format html of the budget pair (seq_html_*.json). */
static char *seq_page(const char *dir, const char *name, const char *extra, int expect)
{
	return compare_page(dir, name, "seq_html", extra, expect);
}

/* The page's chart data (script#dbt3-data), parsed. */
static json_t *page_json(const char *html)
{
	const char *tag = "<script type=\"application/json\" id=\"dbt3-data\">";
	const char *at = strstr(html, tag), *end;
	if (!at || !(end = strstr(at, "</script>")))
		return NULL;
	at += strlen(tag);
	return json_loadb(at, (size_t)(end - at), 0, NULL);
}

/* Regressions exist among the designed queries: exit 1. */
static int want_exit(void)
{
	for (size_t i = 0; i < N_REFS; i++)
		if (!strcmp(refs[i].decision, "regression"))
			return 1;
	return 0;
}

/* |log a - log b| within rel of the reference half-width |log b - log ratio|. */
static int near_log(double a, double b, double ratio, double rel)
{
	return fabs(log(a) - log(b)) <= rel * fabs(log(b) - log(ratio)) + 1e-6;
}

static void check_look(json_t *l, const double *ref, size_t k, const char *id)
{
	double r = json_real_value(json_array_get(l, 1));
	json_t *lo = json_array_get(l, 2), *hi = json_array_get(l, 3);
	int ok = json_integer_value(json_array_get(l, 0)) == (json_int_t)k &&
		 fabs(r / ref[0] - 1) < 2e-6;
	if (isnan(ref[1]))
		ok &= json_is_null(lo) && json_is_null(hi);
	else
		ok &= json_is_real(lo) && json_is_real(hi) &&
		      near_log(json_real_value(lo), ref[1], ref[0], 3e-3) &&
		      near_log(json_real_value(hi), ref[2], ref[0], 3e-3);
	if (!ok)
		fprintf(stderr, "%s look %zu: page %g [%g, %g], reference %g [%g, %g]\n", id, k, r,
			json_number_value(lo), json_number_value(hi), ref[0], ref[1], ref[2]);
	CU_ASSERT_TRUE(ok);
}

/* Every query's decision, deciding pair and running estimate with its repeated CI in the chart
 * data, and the decision table row, equal the reference. */
/* Every string of want[] stands in html; a missing one is named on stderr. */
static void assert_all_in(const char *html, const char *const *want, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!strstr(html, want[i]))
			fprintf(stderr, "missing: %s\n", want[i]);
		CU_ASSERT_PTR_NOT_NULL(strstr(html, want[i]));
	}
}

TH_TEST(rpt_html_seq, looks_and_decisions_match_reference)
{
	char *dir = th_tempdir("html-seq");
	char *html = seq_page(dir, "s.html", "--sequential", want_exit());
	CU_ASSERT_PTR_NOT_NULL_FATAL(html);
	json_t *data = page_json(html),
	       *qs = json_object_get(json_object_get(data, "seq"), "queries");
	CU_ASSERT_EQUAL_FATAL(json_array_size(qs), N_REFS);
	for (size_t i = 0; i < N_REFS; i++) {
		const struct seq_ref *r = &refs[i];
		json_t *q = json_array_get(qs, i), *looks = json_object_get(q, "looks");
		json_t *at = json_object_get(q, "at");
		CU_ASSERT_STRING_EQUAL(str(json_object_get(q, "id")), r->id);
		CU_ASSERT_STRING_EQUAL(str(json_object_get(q, "decision")), r->decision);
		CU_ASSERT_TRUE(r->at ? json_integer_value(at) == r->at : json_is_null(at));
		CU_ASSERT_EQUAL_FATAL(json_array_size(looks), (size_t)r->n_looks);
		for (int k = 0; k < r->n_looks; k++)
			check_look(json_array_get(looks, (size_t)k), r->looks[k], (size_t)k + 1,
				   r->id);
		/* the table: decision badge, then the deciding pair and the pairs measured */
		char row[256];
		const char *badge = strcmp(r->decision, "undecided") ? r->decision : "inconclusive";
		if (r->at)
			snprintf(row, sizeof(row),
				 "<tr data-seq-query=\"%s\"><td class=\"text\">%s</td><td "
				 "class=\"text\"><span class=\"badge v-%s\">%s</span></td><td "
				 "data-v=\"%d\">%d</td><td data-v=\"%d\">%d</td>",
				 r->id, r->id, badge, r->decision, r->at, r->at, r->n_looks,
				 r->n_looks);
		else
			snprintf(row, sizeof(row),
				 "<tr data-seq-query=\"%s\"><td class=\"text\">%s</td><td "
				 "class=\"text\"><span class=\"badge v-%s\">%s</span></td><td "
				 "data-v=\"NaN\">\xe2\x80\x94</td><td data-v=\"%d\">%d</td>",
				 r->id, r->id, badge, r->decision, r->n_looks, r->n_looks);
		if (th_count(html, row) != 1)
			fprintf(stderr, "missing row: %s\n", row);
		CU_ASSERT_EQUAL(th_count(html, row), 1);
	}
	/* one chart per query */
	CU_ASSERT_EQUAL(th_count(html, "data-chart=\"seq\" data-seq="), N_REFS);
	json_decref(data);
	free(html);
	th_rmtree(dir);
	free(dir);
}

/* The rule as the budget run applied it: O'Brien-Fleming spending, 0.05 / 22 per query,
 * two-sided, K = 10 (plan.max_pairs), margin 3% (plan.detect). */
TH_TEST(rpt_html_seq, rule_is_the_runs)
{
	char *dir = th_tempdir("html-seq");
	char *html = seq_page(dir, "s.html", "--sequential", want_exit());
	CU_ASSERT_PTR_NOT_NULL_FATAL(html);
	static const char *const want[] = {
	    "paired: restart i of old with restart i of new",
	    "O'Brien&ndash;Fleming type",
	    "&alpha; 0.05 over 22 queries: <b>0.00227 per query</b>, two-sided",
	    "Horizon <b>K = 10 pairs</b>; looks after every pair from 2 to 10 (9 looks",
	    "Margin 3%",
	    "within [0.9709, 1.03]",
	    "the budget run's (plan.alpha, plan.detect, plan.max_pairs)",
	    /* the first and last boundaries of tests/data/seq_bounds_ref.inc (SciPy) */
	    "<tr><th>boundary |z|</th><td>7.183</td>",
	    "<td>3.110</td></tr>",
	    /* the last critical t of tests/data/seq_tbounds_ref.inc (SciPy: 4.44715) */
	    "<td>4.45</td></tr>\n<tr><th>&alpha; spent (cumulative)</th>",
	};
	assert_all_in(html, want, sizeof(want) / sizeof(want[0]));
	free(html);
	th_rmtree(dir);
	free(dir);
}

/* A horizon re-estimated after each pair (plan.horizon) is said so and listed per look; a fixed
 * one is one K. */
TH_TEST(rpt_html_seq, reestimated_horizon_listed_per_look)
{
	char *dir = th_tempdir("html-seq"), path[4096];
	char *html = seq_page(dir, "d.html", "", want_exit());
	CU_ASSERT_PTR_NOT_NULL_FATAL(html);
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "Horizon <b>K = 10 pairs</b>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<tr><th>horizon K</th><td>10</td>"));
	free(html);
	for (int s = 0; s < 2; s++)
		CU_ASSERT_EQUAL(
		    th_system("sed 's/\"max_pairs\": 10/\"max_pairs\": 10, \"horizon\": "
			      "[12, 12, 11, 11, 10, 10, 10, 10]/' "
			      "'%s/tests/data/seq_html_%s.json' >'%s/h_%s.json'",
			      DBT3_SOURCE_DIR, s ? "new" : "old", dir, s ? "new" : "old"),
		    0);
	CU_ASSERT_TRUE(th_system("cd '%s' && '%s' compare -q h_old.json h_new.json --format html "
				 "-o h.html",
				 dir, DBT3_BINARY) <= 1);
	snprintf(path, sizeof(path), "%s/h.html", dir);
	html = th_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(html);
	static const char *const want[] = {
	    "Horizon <b>K re-estimated after each pair</b>",
	    "10 at the last",
	    "<tr><th>horizon K</th><td>12</td><td>11</td><td>11</td><td>10</td><td>10</td>"
	    "<td>10</td><td>10</td></tr>",
	    "(plan.alpha, plan.detect, plan.horizon)",
	};
	assert_all_in(html, want, sizeof(want) / sizeof(want[0]));
	free(html);
	th_rmtree(dir);
	free(dir);
}

/* Per query and file: restarts measured, measured until, warm-up and runs of each restart, cut
 * warm-ups, and the run's own decision; and how the run ended. */
TH_TEST(rpt_html_seq, budget_section_per_query)
{
	char *dir = th_tempdir("html-seq");
	char *html = seq_page(dir, "s.html", "--sequential", want_exit());
	CU_ASSERT_PTR_NOT_NULL_FATAL(html);
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<h2 id=\"budget\">Budget run</h2>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "budget 600 s; 8 pairs in 585 s; ended: the next pair "
					    "(estimated 42 s) would not fit in the budget"));
	CU_ASSERT_EQUAL(th_count(html, "<tr data-budget-query="), 2 * N_REFS);
	for (size_t i = 0; i < N_REFS; i++) {
		const struct seq_ref *r = &refs[i];
		for (int s = 0; s < 2; s++) {
			char until[64], dec[64], row[1024];
			if (r->at && r->at < 8)
				snprintf(until, sizeof(until), "stopped after pair %d", r->at);
			else
				snprintf(until, sizeof(until), "every pair (8)");
			if (r->at)
				snprintf(dec, sizeof(dec), "%s after pair %d", r->decision, r->at);
			else
				snprintf(dec, sizeof(dec), "%s", r->decision);
			snprintf(row, sizeof(row),
				 "<tr data-budget-query=\"%s\" data-side=\"%d\"><td "
				 "class=\"text\">%s</td><td class=\"text\">%s</td><td "
				 "data-v=\"%d\">%d</td><td class=\"text\">%s</td><td class=\"text "
				 "mono\">%s</td><td data-v=\"%d\">%d</td><td class=\"text "
				 "mono\">%s</td><td class=\"text\">%s</td></tr>",
				 r->id, s, r->id, s ? "new" : "old", r->n_looks, r->n_looks, until,
				 s ? r->warm_new : r->warm_old, s ? r->cut_new : r->cut_old,
				 s ? r->cut_new : r->cut_old, s ? r->runs_new : r->runs_old, dec);
			if (th_count(html, row) != 1)
				fprintf(stderr, "missing row: %s\n", row);
			CU_ASSERT_EQUAL(th_count(html, row), 1);
		}
	}
	free(html);
	th_rmtree(dir);
	free(dir);
}

/* Without the sequential rule and with fixed-protocol files: neither section. */
TH_TEST(rpt_html_seq, absent_without_the_rule)
{
	char *dir = th_tempdir("html-seq");
	char *html = compare_page(dir, "p.html", "seq", "", 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(html);
	CU_ASSERT_PTR_NULL(strstr(html, "id=\"sequential\""));
	CU_ASSERT_PTR_NULL(strstr(html, "id=\"budget\""));
	CU_ASSERT_PTR_NULL(strstr(html, "data-chart=\"seq\" data-seq="));
	json_t *data = page_json(html);
	CU_ASSERT_TRUE(json_is_null(json_object_get(data, "seq")));
	json_decref(data);
	free(html);
	/* with the rule, on fixed-protocol files: the section, no budget section, compare's K */
	html = compare_page(dir, "q.html", "seq", "--sequential", 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(html);
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "id=\"sequential\""));
	CU_ASSERT_PTR_NULL(strstr(html, "id=\"budget\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "sides are compare's options"));
	CU_ASSERT_EQUAL(th_count(html, "data-chart=\"seq\" data-seq="), 4);
	free(html);
	th_rmtree(dir);
	free(dir);
}

/* The budget pair without --sequential: the rule is replayed by default and the page says so;
 * --fixed gives the fixed-sample test and no sequential section. */
TH_TEST(rpt_html_seq, default_for_a_budget_run)
{
	char *dir = th_tempdir("html-seq");
	char *html = seq_page(dir, "d.html", "", want_exit());
	CU_ASSERT_PTR_NOT_NULL_FATAL(html);
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "id=\"sequential\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "Replayed by default: the files are the variants of "
					    "one run --budget"));
	free(html);
	html = seq_page(dir, "f.html", "--fixed-sample", 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(html);
	CU_ASSERT_PTR_NULL(strstr(html, "id=\"sequential\""));
	CU_ASSERT_PTR_NULL(strstr(html, "Replayed by default"));
	free(html);
	th_rmtree(dir);
	free(dir);
}

static int copy_file(const char *from, const char *dir, const char *name)
{
	return th_system("cp '%s' '%s/%s'", from, dir, name);
}

/* report DIR: every result of a variant directory, in the order the run started them (old
 * first, though "new" sorts first by name); another JSON file is left out with a warning. */
TH_TEST(rpt_html_seq, report_takes_a_variant_directory)
{
	char *dir = th_tempdir("html-seq"), src[4096], path[4096];
	snprintf(src, sizeof(src), "%s/tests/data/seq_html_old.json", DBT3_SOURCE_DIR);
	CU_ASSERT_EQUAL_FATAL(copy_file(src, dir, "old.json"), 0);
	snprintf(src, sizeof(src), "%s/tests/data/seq_html_new.json", DBT3_SOURCE_DIR);
	CU_ASSERT_EQUAL_FATAL(copy_file(src, dir, "new.json"), 0);
	/* a compare report written next to them is no result */
	CU_ASSERT_TRUE(th_system("cd '%s' && '%s' compare -q old.json new.json --format json -o "
				 "compare.json",
				 dir, DBT3_BINARY) <= 1);
	snprintf(path, sizeof(path), "%s/compare.json", dir);
	char *cmp_json = th_slurp(path);
	CU_ASSERT_PTR_NOT_NULL(cmp_json);
	free(cmp_json);
	CU_ASSERT_EQUAL(
	    th_system("'%s' report '%s' -o '%s/r.html' 2>'%s/err.txt'", DBT3_BINARY, dir, dir, dir),
	    0);
	snprintf(path, sizeof(path), "%s/err.txt", dir);
	char *err = th_slurp(path);
	CU_ASSERT_TRUE(err && strstr(err, "compare.json' is not a dbt3stab result file: "
					  "left out"));
	free(err);
	snprintf(path, sizeof(path), "%s/r.html", dir);
	char *html = th_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(html);
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<tr><th></th><th>old</th><th>new</th></tr>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "dbt3stab report: 2 results"));
	CU_ASSERT_EQUAL(th_count(html, "<tr data-budget-query="), 2 * N_REFS);
	CU_ASSERT_EQUAL(th_count(html, "<article class=\"query verdict-"), N_REFS);
	free(html);
	/* --quiet: no warning */
	CU_ASSERT_EQUAL(th_system("'%s' report -q '%s' -o '%s/r2.html' 2>'%s/err2.txt'",
				  DBT3_BINARY, dir, dir, dir),
			0);
	snprintf(path, sizeof(path), "%s/err2.txt", dir);
	err = th_slurp(path);
	CU_ASSERT_TRUE(err && !*err);
	free(err);
	th_rmtree(dir);
	free(dir);
}

/* A directory without results, and one with a malformed result: exit 2, one line naming it. */
TH_TEST(rpt_html_seq, report_directory_errors)
{
	char *dir = th_tempdir("html-seq"), path[4096];
	CU_ASSERT_EQUAL(th_system("mkdir '%s/empty' '%s/bad'", dir, dir), 0);
	CU_ASSERT_EQUAL(th_system("'%s' report '%s/empty' -o '%s/r.html' 2>'%s/err.txt'",
				  DBT3_BINARY, dir, dir, dir),
			2);
	snprintf(path, sizeof(path), "%s/err.txt", dir);
	char *err = th_slurp(path);
	CU_ASSERT_TRUE(err && strstr(err, "no result files (*.json) in '") &&
		       th_count(err, "\n") == 1);
	free(err);
	snprintf(path, sizeof(path), "%s/bad/old.json", dir);
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("{\"format\": \"dbt3stab-result\", \"format_version\": 1, \"queries\": 3}\n", f);
	fclose(f);
	CU_ASSERT_EQUAL(th_system("'%s' report '%s/bad' -o '%s/r.html' 2>'%s/err.txt'", DBT3_BINARY,
				  dir, dir, dir),
			2);
	snprintf(path, sizeof(path), "%s/err.txt", dir);
	err = th_slurp(path);
	CU_ASSERT_TRUE(err && strstr(err, "bad/old.json") && th_count(err, "\n") == 1);
	free(err);
	/* no page left behind */
	snprintf(path, sizeof(path), "%s/r.html", dir);
	CU_ASSERT_PTR_NULL(th_slurp(path));
	th_rmtree(dir);
	free(dir);
}

/* compare --sequential --baseline of the paired fixture (seq_old/seq_new.json): the rule says
 * the variance is borrowed, with its check (tests/data/lend_check.py: x0.407 over 4 queries,
 * p 0.964), and the boundaries table has the borrowed row; a far quieter baseline
 * (seq_quiet_base.json) is refused, said so, and the row is absent. Both exit 1 (Q1 slower). */
TH_TEST(rpt_html_seq, borrowed_variance_and_its_check)
{
	char *dir = th_tempdir("html-seq"), extra[4096];
	snprintf(extra, sizeof(extra), "--sequential --baseline '%s/tests/data/seq_sep_new.json'",
		 DBT3_SOURCE_DIR);
	char *html = compare_page(dir, "b.html", "seq", extra, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(html);
	static const char *const lent[] = {
	    "borrow its restart variance (twice it, for a pair's log ratio) on 7 df",
	    "checked: tonight's variance &times;0.407 the lent one over 4 queries (Fisher's "
	    "combination of one-sided F tests, p 0.964). ",
	    "<tr><th>critical t, 7 df borrowed</th><td>",
	};
	assert_all_in(html, lent, sizeof(lent) / sizeof(lent[0]));
	free(html);
	snprintf(extra, sizeof(extra),
		 "--sequential --baseline '%s/tests/data/seq_quiet_base.json'", DBT3_SOURCE_DIR);
	html = compare_page(dir, "q.html", "seq", extra, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(html);
	CU_ASSERT_PTR_NOT_NULL(strstr(
	    html,
	    "The baseline's restart variance is not borrowed: tonight's variance &times;10.2 the "
	    "lent one over 4 queries (Fisher's combination of one-sided F tests, p 1.19e-07) "
	    "&lt; 0.05; each query uses its own pairs only."));
	CU_ASSERT_PTR_NULL(strstr(html, "df borrowed</th>"));
	CU_ASSERT_PTR_NULL(strstr(html, "borrow its restart variance"));
	free(html);
	th_rmtree(dir);
	free(dir);
}

TH_MAIN(rpt_html_seq)
