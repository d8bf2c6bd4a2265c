/* SPDX-License-Identifier: MIT */
/* Structure of the HTML report (reports/rpt_html*.c) on hand-made result files: every query,
 * verdict classes matching the compare model, escaping, plans, self-containment, CLI errors. */
#include "reports/rpt.h"
#include "reports/rpt_html.h"
#include "reports/rpt_html_assets.h"
#include "tests/harness.h"
#include "tests/th_fx.h"
#include "tests/th_spawn.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The article of query id (from "<article" to "</article>"), malloc'd; NULL when absent. */
static char *article_of(const char *html, const char *id)
{
	char key[64];
	snprintf(key, sizeof(key), "data-query=\"%s\"><h3>", id);
	const char *at = strstr(html, key);
	if (!at)
		return NULL;
	const char *start = at;
	while (start > html && strncmp(start, "<article", 8))
		start--;
	const char *end = strstr(at, "</article>");
	if (!end)
		return NULL;
	return strndup(start, (size_t)(end - start));
}

static char *render_compare(const char *dir, struct rpt_compare **out_cmp)
{
	char po[4096], pn[4096];
	struct res_file *old = NULL, *new = NULL;
	struct errbuf err;
	char *page = NULL;
	size_t len = 0;
	snprintf(po, sizeof(po), "%s/old.json", dir);
	snprintf(pn, sizeof(pn), "%s/new.json", dir);
	CU_ASSERT_EQUAL_FATAL(res_file_read(&old, po, &err), 0);
	CU_ASSERT_EQUAL_FATAL(res_file_read(&new, pn, &err), 0);
	struct rpt_file_info fo = {po, old}, fn = {pn, new}, fb = {NULL, NULL};
	struct rpt_compare_opts opts;
	rpt_compare_opts_init(&opts);
	struct rpt_compare *cmp = NULL;
	int rc = rpt_compare_build(&cmp, &fo, &fn, &fb, &opts, &err);
	if (rc < 0)
		fprintf(stderr, "compare: %s\n", err.msg);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	FILE *mem = open_memstream(&page, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
	CU_ASSERT_EQUAL(rpt_html_write_compare(mem, cmp, &err), 0);
	fclose(mem);
	*out_cmp = cmp;
	/* the model borrows the results: they live as long as the test (freed by the caller via
	 * cmp->old.res / cmp->new.res) */
	return page;
}

static void free_compare(struct rpt_compare *cmp)
{
	if (!cmp)
		return;
	struct res_file *old = (struct res_file *)cmp->old.res,
			*new = (struct res_file *)cmp->new.res;
	rpt_compare_free(cmp);
	res_file_free(old);
	res_file_free(new);
}

/* A case's temp dir, the compare model and the page (render_compare or a command's file). */
struct page {
	char *dir, *html;
	struct rpt_compare *cmp;
};

/* Writes the fixture pair (restarts a side) into the case's dir and renders the comparison;
 * failures are fatal. */
static char *page_render(struct page *p, size_t restarts)
{
	CU_ASSERT_EQUAL_FATAL(th_fx_write_pair(p->dir, restarts), 0);
	p->html = render_compare(p->dir, &p->cmp);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p->html);
	return p->html;
}

/* The page a command wrote as name into the case's dir (none is fatal), instead of the one
 * before. */
static char *page_read(struct page *p, const char *name)
{
	char path[4096];
	free(p->html);
	snprintf(path, sizeof(path), "%s/%s", p->dir, name);
	p->html = th_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p->html);
	return p->html;
}

static void page_free(struct page *p)
{
	free(p->html);
	free_compare(p->cmp);
	th_rmtree(p->dir);
	free(p->dir);
}

TH_TEST(rpt_html, compare_verdict_classes_match_model)
{
	struct page p = {th_tempdir("html"), NULL, NULL};
	char *html = page_render(&p, 5);
	struct rpt_compare *cmp = p.cmp;
	CU_ASSERT_EQUAL(cmp->n_queries, 22);
	CU_ASSERT_EQUAL(th_count(html, "<article class=\"query verdict-"), 22);
	for (size_t i = 0; i < cmp->n_queries; i++) {
		const struct rpt_query *q = &cmp->queries[i];
		char *art = article_of(html, q->id), want[96], row[160];
		CU_ASSERT_PTR_NOT_NULL_FATAL(art);
		snprintf(want, sizeof(want), "<article class=\"query verdict-%s",
			 rpt_verdict_name(q->verdict));
		CU_ASSERT_EQUAL(strncmp(art, want, strlen(want)), 0);
		CU_ASSERT_PTR_NOT_NULL(strchr("\" ", art[strlen(want)]));
		/* a changed plan takes the whole row for the plans side by side */
		CU_ASSERT_EQUAL(strstr(art, "has-plans\"") != NULL, q->plan_changed);
		/* one table row per query, with the same verdict */
		snprintf(row, sizeof(row), "<tr class=\"verdict-%s\" data-query=\"%s\">",
			 rpt_verdict_name(q->verdict), q->id);
		CU_ASSERT_EQUAL(th_count(html, row), 1);
		/* both charts of the query */
		snprintf(want, sizeof(want), "data-chart=\"warmup\" data-q=\"%zu\"", i);
		CU_ASSERT_PTR_NOT_NULL(strstr(art, want));
		free(art);
	}
	/* the counts in the header are the model's */
	for (int v = 0; v < RPT_N_VERDICTS; v++) {
		char want[160];
		snprintf(want, sizeof(want), "<li class=\"count-%s\"><b>%zu</b>",
			 rpt_verdict_name((enum rpt_verdict)v), cmp->counts[v]);
		CU_ASSERT_PTR_NOT_NULL(strstr(html, want));
	}
	page_free(&p);
}

TH_TEST(rpt_html, designed_queries_get_their_verdicts)
{
	struct page p = {th_tempdir("html"), NULL, NULL};
	char *html = page_render(&p, 5);
	static const struct {
		const char *id, *verdict;
	} want[] = {{"Q5", "regression"},
		    {"Q9", "improvement"},
		    {"Q18", "wrong-result"},
		    {"Q20", "inconclusive"},
		    {"Q15", "unchanged"}};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char *art = article_of(html, want[i].id), cls[96];
		CU_ASSERT_PTR_NOT_NULL_FATAL(art);
		snprintf(cls, sizeof(cls), "<article class=\"query verdict-%s", want[i].verdict);
		int ok = !strncmp(art, cls, strlen(cls)) && strchr("\" ", art[strlen(cls)]);
		if (!ok)
			fprintf(stderr, "%s: expected %s\n", want[i].id, want[i].verdict);
		CU_ASSERT_TRUE(ok);
		free(art);
	}
	/* the plan change of Q9: marked, both plans side by side, escaped */
	char *q9 = article_of(html, "Q9");
	CU_ASSERT_PTR_NOT_NULL(strstr(q9, "<span class=\"mark plan\">plan changed</span>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(q9, "<div class=\"plans\">"));
	CU_ASSERT_PTR_NOT_NULL(strstr(q9, "&quot;access_type&quot;: &quot;range&quot;"));
	CU_ASSERT_PTR_NOT_NULL(strstr(q9, "&quot;access_type&quot;: &quot;ALL&quot;"));
	CU_ASSERT_PTR_NOT_NULL(strstr(q9, "&lt;= &#39;1998-09-02&#39; and l_qty &gt; 3"));
	/* with the join order at a glance */
	CU_ASSERT_PTR_NOT_NULL(strstr(q9,
				      "<p class=\"plan-shape\"><b>lineitem</b> range i_l_shipdate "
				      "\xe2\x86\x92 <b>orders</b> eq_ref</p>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(q9, "<p class=\"plan-shape\"><b>orders</b> ALL \xe2\x86\x92 "
					  "<b>lineitem</b> eq_ref</p>"));
	free(q9);
	/* no plans where the plan did not change */
	char *q1 = article_of(html, "Q1");
	CU_ASSERT_PTR_NULL(strstr(q1, "class=\"plans\""));
	free(q1);
	/* the wrong result is flagged in the chart data; the not-steady restart is warned about */
	CU_ASSERT_EQUAL(th_count(html, "\"wrong\":true"), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<li>Q3 in old: "));
	/* the crash and the timeout: warned about with their error text, escaped; marked */
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<li>Q21 in old: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, " 1 crash; <q class=\"mono\">mysqld got signal 11 "
					    "&lt;in Item_func::val_int&gt; &amp; aborted</q>"));
	/* the new file's label is "new build" (tests/th_fx.c) */
	CU_ASSERT_PTR_NOT_NULL(strstr(html,
				      "<li>Q22 in new: new build: 1 timeout; <q class=\"mono\">"
				      "killed after 30 s (--query-timeout)</q></li>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<span class=\"mark warn\">old crash</span>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<span class=\"mark warn\">new timeout</span>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "data-chart=\"forest\""));
	page_free(&p);
}

TH_TEST(rpt_html, escapes_a_script_label)
{
	struct page p = {th_tempdir("html"), NULL, NULL};
	char *html = page_render(&p, 3);
	/* nowhere raw */
	CU_ASSERT_PTR_NULL(strstr(html, "<script>window.__pwned"));
	CU_ASSERT_PTR_NULL(strstr(html, "<img src=x"));
	/* escaped as text in the header and as \u escapes in the chart data */
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "&lt;script&gt;window.__pwned=1&lt;/script&gt;&lt;img "
					    "src=x onerror=&quot;window.__pwned=2&quot;&gt;"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "\\u003cscript\\u003ewindow.__pwned=1\\u003c/script"));
	/* exactly the page's own script elements: the data, Vega, Vega-Lite, report.js */
	CU_ASSERT_EQUAL(th_count(html, "<script"), 4);
	CU_ASSERT_EQUAL(th_count(html, "</script>"), 4);
	page_free(&p);
}

TH_TEST(rpt_html, escape_function)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	rpt_html_escape(mem, "<a href=\"x\">Tom & 'Jerry'</a>");
	rpt_html_escape(mem, NULL);
	fclose(mem);
	CU_ASSERT_STRING_EQUAL(buf,
			       "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;");
	free(buf);
}

TH_TEST(rpt_html, report_command_is_self_contained)
{
	struct page p = {th_tempdir("html"), NULL, NULL};
	char *dir = p.dir;
	CU_ASSERT_EQUAL_FATAL(th_fx_write_pair(dir, 4), 0);
	CU_ASSERT_EQUAL_FATAL(th_system("'%s' report -q '%s/old.json' '%s/new.json' -o '%s/r.html'",
					DBT3_BINARY, dir, dir, dir),
			      0);
	char *html = page_read(&p, "r.html");
	CU_ASSERT_EQUAL(strncmp(html, "<!DOCTYPE html>", 15), 0);
	/* every query: one article, one table row per file */
	CU_ASSERT_EQUAL(th_count(html, "<article class=\"query verdict-"), 22);
	for (int i = 1; i <= 22; i++) {
		char row[64];
		snprintf(row, sizeof(row), "<tr data-query=\"Q%d\">", i);
		CU_ASSERT_EQUAL(th_count(html, row), 2);
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "data-chart=\"spread\""));
	/* Q20 has one restart in new.json: no between-restart CoV there */
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "new build: "));
	/* nothing to fetch: no external script, style sheet, image or frame */
	CU_ASSERT_PTR_NULL(strstr(html, "<script src"));
	CU_ASSERT_PTR_NULL(strstr(html, "<link"));
	CU_ASSERT_PTR_NULL(strstr(html, "<iframe"));
	CU_ASSERT_PTR_NULL(strstr(html, "<img"));
	/* the libraries are inlined whole */
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(html, (const char *)rpt_asset_vega_lite_js + rpt_asset_vega_lite_js_len - 64));
	CU_ASSERT_PTR_NULL(strstr(html, "<script>window.__pwned"));
	/* report mode: plans are shown where the files' plans differ (Q9) */
	char *q9 = article_of(html, "Q9");
	CU_ASSERT_PTR_NOT_NULL(q9 && strstr(q9, "<div class=\"plans\">"));
	free(q9);
	page_free(&p);
}

/* The longest run of c in s. */
static size_t longest_run(const char *s, char c)
{
	size_t best = 0, run = 0;
	for (; *s; s++) {
		run = *s == c ? run + 1 : 0;
		best = run > best ? run : best;
	}
	return best;
}

TH_TEST(rpt_html, a_huge_label_is_cut_not_repeated)
{
	struct page p = {th_tempdir("html"), NULL, NULL};
	char *dir = p.dir, path[4200];
	CU_ASSERT_EQUAL_FATAL(th_fx_write_pair(dir, 3), 0);
	CU_ASSERT_EQUAL_FATAL(th_system("'%s' report -q '%s/old.json' '%s/new.json' -o '%s/b.html'",
					DBT3_BINARY, dir, dir, dir),
			      0);
	size_t base = strlen(page_read(&p, "b.html"));
	/* a 1 MiB label on both sides (the legend names are then the labels) */
	size_t big = (size_t)1 << 20;
	char *label = malloc(big + 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(label);
	memset(label, 'x', big);
	label[big + 1] = '\0';
	const char *sides[] = {"old", "new"};
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s.json", dir, sides[i]);
		json_t *j = json_load_file(path, 0, NULL);
		CU_ASSERT_PTR_NOT_NULL_FATAL(j);
		label[big] = i ? 'n' : 'o';
		json_object_set_new(j, "label", json_string(label));
		CU_ASSERT_EQUAL_FATAL(json_dump_file(j, path, JSON_COMPACT), 0);
		json_decref(j);
	}
	free(label);
	CU_ASSERT_EQUAL_FATAL(th_system("'%s' report -q '%s/old.json' '%s/new.json' -o '%s/r.html'",
					DBT3_BINARY, dir, dir, dir),
			      0);
	char *html = page_read(&p, "r.html");
	/* the header shows the first 4096 bytes of each label, the legends the first 80: the page
	 * grows by a few KiB, not by a multiple of the labels */
	CU_ASSERT(longest_run(html, 'x') <= 4096);
	CU_ASSERT(longest_run(html, 'x') >= 4096);
	CU_ASSERT(strlen(html) < base + 64 * 1024);
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "xxxxxxxxxx\xe2\x80\xa6"));
	page_free(&p);
}

TH_TEST(rpt_html, compare_format_html)
{
	struct page p = {th_tempdir("html"), NULL, NULL};
	char *dir = p.dir;
	CU_ASSERT_EQUAL_FATAL(th_fx_write_pair(dir, 5), 0);
	/* exit codes as for the other formats: 3, Q18 is a wrong result */
	CU_ASSERT_EQUAL(th_system("'%s' compare -q '%s/old.json' '%s/new.json' --format html -o "
				  "'%s/c.html'",
				  DBT3_BINARY, dir, dir, dir),
			3);
	char *html = page_read(&p, "c.html");
	CU_ASSERT_EQUAL(th_count(html, "<article class=\"query verdict-"), 22);
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "<li class=\"count-wrong-result\"><b>1</b>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "data-chart=\"forest\""));
	CU_ASSERT_PTR_NULL(strstr(html, "<script>window.__pwned"));
	CU_ASSERT_EQUAL(th_count(html, "<script"), 4);
	page_free(&p);
}

/* tests/data/cmp_timeout.json: Q3 timed out in every restart (10 s), so its ratio is a lower bound
 */
TH_TEST(rpt_html, timeout_ratio_is_shown_as_a_bound)
{
	struct page p = {th_tempdir("html"), NULL, NULL};
	char *dir = p.dir;
	CU_ASSERT_EQUAL(th_system("'%s' compare -q '%s/tests/data/cmp_old.json' "
				  "'%s/tests/data/cmp_timeout.json' --format html -o '%s/t.html'",
				  DBT3_BINARY, DBT3_SOURCE_DIR, DBT3_SOURCE_DIR, dir),
			1);
	char *html = page_read(&p, "t.html");
	CU_ASSERT_PTR_NOT_NULL(strstr(html, ">&gt;= 200.7269</td>"));
	CU_ASSERT_EQUAL(th_count(html, "&gt;= "), 1);
	page_free(&p);
}

/* tests/data/seq_budget_*.json are run --budget files (plan.budget_s 600, warmup 4 and runs 3 the
 * upper bounds): the protocol row says so instead of "8 restarts x (4 warm-up + 3 measured)",
 * which read as the fixed protocol every query had. A fixed-protocol file keeps its row. */
TH_TEST(rpt_html, budget_protocol_says_upper_bounds)
{
	struct page p = {th_tempdir("html"), NULL, NULL};
	char *dir = p.dir;
	CU_ASSERT_EQUAL(
	    th_system("'%s' compare -q '%s/tests/data/seq_budget_old.json' "
		      "'%s/tests/data/seq_budget_new.json' --format html -o '%s/b.html'",
		      DBT3_BINARY, DBT3_SOURCE_DIR, DBT3_SOURCE_DIR, dir),
	    1); /* the synthetic pair holds a regression */
	CU_ASSERT_EQUAL(th_system("'%s' report -q '%s/tests/data/cmp_old.json' -o '%s/f.html'",
				  DBT3_BINARY, DBT3_SOURCE_DIR, dir),
			0);
	char *html = page_read(&p, "b.html");
	CU_ASSERT_EQUAL(th_count(html, "8 restarts \xc3\x97 (warm-up until steady, at most 4 + at "
				       "most 3 measured) in a budget of 600 s"),
			2);
	CU_ASSERT_PTR_NULL(strstr(html, "(4 warm-up + 3 measured)"));
	html = page_read(&p, "f.html");
	CU_ASSERT_PTR_NOT_NULL(strstr(html, "warm-up + 3 measured)"));
	CU_ASSERT_PTR_NULL(strstr(html, "in a budget of"));
	page_free(&p);
}

TH_TEST(rpt_html, report_command_errors)
{
	struct page p = {th_tempdir("html"), NULL, NULL};
	char *dir = p.dir;
	CU_ASSERT_EQUAL_FATAL(th_fx_write_pair(dir, 2), 0);
	char bad[4096];
	snprintf(bad, sizeof(bad), "%s/bad.json", dir);
	FILE *f = fopen(bad, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("{\"format\": \"dbt3stab-result\", \"format_version\": 1, \"queries\": 3}\n", f);
	fclose(f);
	/* usage errors and malformed input: 2, with the file named */
	CU_ASSERT_EQUAL(th_system("'%s' report 2>/dev/null", DBT3_BINARY), 2);
	CU_ASSERT_EQUAL(
	    th_system("'%s' report --nosuch '%s/old.json' 2>/dev/null", DBT3_BINARY, dir), 2);
	CU_ASSERT_EQUAL(
	    th_system("'%s' report '%s' -o '%s/x.html' 2>'%s/err.txt'", DBT3_BINARY, bad, dir, dir),
	    2);
	char errp[4096];
	snprintf(errp, sizeof(errp), "%s/err.txt", dir);
	char *msg = th_slurp(errp);
	CU_ASSERT_PTR_NOT_NULL(msg && strstr(msg, "bad.json"));
	free(msg);
	/* no page is left behind on error; an output that cannot be created is a bad argument: 2,
	 * like summary and compare, found before the files are read */
	snprintf(errp, sizeof(errp), "%s/x.html", dir);
	CU_ASSERT_PTR_NULL(fopen(errp, "r"));
	CU_ASSERT_EQUAL(
	    th_system("'%s' report -q '%s/old.json' -o '%s/no/such/dir/r.html' 2>/dev/null",
		      DBT3_BINARY, dir, dir),
	    2);
	/* --help: usage on stdout, 0 */
	CU_ASSERT_EQUAL(
	    th_system("'%s' report --help | grep -q 'usage: dbt3stab report'", DBT3_BINARY), 0);
	page_free(&p);
}

TH_MAIN(rpt_html)
