/* SPDX-License-Identifier: MIT */
/* The HTML report in a real browser: headless Chromium (DBT3_CHROMIUM, default /usr/bin/chromium)
 * driven over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON messages ended by
 * NUL on fds 3 and 4). Opens the page from disk with name resolution off, waits until every chart
 * is drawn, fails on any console error or warning, uncaught exception, error log entry or request
 * that is not file:/data:, and takes a screenshot (kept at DBT3_SCREENSHOT when set). */
#include "tests/harness.h"
#include "tests/th_cdp.h"
#include "tests/th_fx.h"
#include "tests/th_spawn.h"
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Generates a report into dir/name with the given dbt3stab arguments. */
static int make_page(const char *dir, const char *name, const char *args)
{
	return th_system("cd '%s' && '%s' %s -q -o '%s' 2>&1", dir, DBT3_BINARY, args, name);
}

/* Every chart drawn as SVG, no failure marker, no page problem. */
static void check_rendered(struct cdp *c, const char *what)
{
	json_t *n = th_cdp_eval(c, "document.querySelectorAll('div.chart').length");
	json_t *drawn = th_cdp_eval(
	    c,
	    "Array.from(document.querySelectorAll('div.chart'))"
	    ".filter(e => e.querySelector('svg g.mark-symbol path, svg g.mark-rule line')).length");
	json_t *attr = th_cdp_eval(c, "document.documentElement.getAttribute('data-rendered')");
	json_t *failed =
	    th_cdp_eval(c, "document.documentElement.hasAttribute('data-render-failed')");
	json_t *ms =
	    th_cdp_eval(c, "performance.now() + ' ms since navigation, charts drawn in ' + "
			   "document.documentElement.getAttribute('data-render-ms') + ' ms'");
	fprintf(stderr, "(%s: %s) ", what, json_string_value(ms));
	json_decref(ms);
	CU_ASSERT_TRUE(json_is_integer(n) && json_integer_value(n) >= 23);
	CU_ASSERT_TRUE(json_is_integer(drawn) &&
		       json_integer_value(drawn) == json_integer_value(n));
	CU_ASSERT_TRUE(json_is_string(attr) &&
		       atoll(json_string_value(attr)) == (long long)json_integer_value(n));
	CU_ASSERT_TRUE(json_is_false(failed));
	CU_ASSERT_EQUAL(th_cdp_problems(c, what), 0);
	json_decref(n);
	json_decref(drawn);
	json_decref(attr);
	json_decref(failed);
}

TH_TEST(rpt_html_browser, compare_page_renders_without_errors)
{
	if (!th_cdp_chromium_or_fail())
		return;
	char *dir = th_tempdir("html-browser");
	CU_ASSERT_EQUAL_FATAL(th_fx_write_pair(dir, 5), 0);
	/* exit 3: Q18 is a wrong result */
	CU_ASSERT_EQUAL_FATAL(
	    make_page(dir, "compare.html", "compare old.json new.json --format html"), 3);
	char path[4096], png[4096];
	snprintf(path, sizeof(path), "%s/compare.html", dir);
	snprintf(png, sizeof(png), "%s/compare.png", dir);
	struct cdp c;
	CU_ASSERT_EQUAL_FATAL(th_cdp_start(&c), 0);
	CU_ASSERT_EQUAL(th_cdp_open(&c, path, 1), 0);
	check_rendered(&c, "compare page");
	/* the forest plot names every query and the overall row */
	json_t *labels = th_cdp_eval(&c, "Array.from(document.querySelectorAll('#forest svg text'))"
					 ".map(t => t.textContent).join('|')");
	const char *l = json_string_value(labels);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	for (int i = 1; i <= 22; i++) {
		char id[16];
		snprintf(id, sizeof(id), "|Q%d|", i);
		CU_ASSERT_PTR_NOT_NULL(strstr(l, id));
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(l, "all (geo. mean)"));
	json_decref(labels);
	/* the escaped label shows as text and did not run */
	json_t *pwned = th_cdp_eval(&c, "typeof window.__pwned");
	CU_ASSERT_STRING_EQUAL(json_string_value(pwned), "undefined");
	json_decref(pwned);
	json_t *shown = th_cdp_eval(&c, "document.querySelector('table.meta').textContent"
					".includes('<script>window.__pwned=1</script>')");
	CU_ASSERT_TRUE(json_is_true(shown));
	json_decref(shown);
	/* sorting by ratio, then again (descending) */
	json_t *sorted = th_cdp_eval(
	    &c, "(() => { const th = Array.from(document.querySelectorAll('table.figures th'))"
		".find(h => h.textContent === 'ratio'); const col = th.cellIndex; th.click();"
		"const v = () => Array.from(document.querySelectorAll('table.figures tbody tr'))"
		".map(r => Number(r.cells[col].getAttribute('data-v')));"
		"const up = v(); th.click(); const down = v();"
		"const ok = (a, s) => a.every((x, i) => i === 0 || isNaN(x) || isNaN(a[i-1]) || s "
		"* (x - a[i-1]) >= 0);"
		"return up.length === 22 && ok(up, 1) && ok(down, -1) && up[0] < up[up.length-1]; "
		"})()");
	CU_ASSERT_TRUE(json_is_true(sorted));
	json_decref(sorted);
	long size = th_cdp_screenshot(&c, png, 2200);
	CU_ASSERT_TRUE(size > 50000);
	const char *keep = getenv("DBT3_SCREENSHOT");
	if (keep && *keep && size > 0)
		CU_ASSERT_EQUAL(th_system("cp '%s' '%s'", png, keep), 0);
	th_cdp_stop(&c);
	th_rmtree(dir);
	free(dir);
}

TH_TEST(rpt_html_browser, report_page_renders_without_errors)
{
	if (!th_cdp_chromium_or_fail())
		return;
	char *dir = th_tempdir("html-browser");
	CU_ASSERT_EQUAL_FATAL(th_fx_write_pair(dir, 3), 0);
	CU_ASSERT_EQUAL_FATAL(make_page(dir, "report.html", "report old.json new.json"), 0);
	char path[4096], png[4096];
	snprintf(path, sizeof(path), "%s/report.html", dir);
	snprintf(png, sizeof(png), "%s/report.png", dir);
	struct cdp c;
	CU_ASSERT_EQUAL_FATAL(th_cdp_start(&c), 0);
	CU_ASSERT_EQUAL(th_cdp_open(&c, path, 1), 0);
	check_rendered(&c, "report page");
	/* the spread chart: a dot per ok restart of each file and query, less 2 for Q20 (1 restart
	 * in new.json), 1 for the crash of Q21 and 1 for the timeout of Q22 */
	json_t *dots = th_cdp_eval(
	    &c, "document.querySelectorAll('#spread svg g.mark-symbol.role-mark path').length");
	if (!json_is_integer(dots) || json_integer_value(dots) != 22 * 3 * 2 - 2 - 1 - 1)
		fprintf(stderr, "spread dots: %lld\n", (long long)json_integer_value(dots));
	CU_ASSERT_TRUE(json_is_integer(dots) && json_integer_value(dots) == 22 * 3 * 2 - 2 - 1 - 1);
	json_decref(dots);
	CU_ASSERT_TRUE(th_cdp_screenshot(&c, png, 1500) > 20000);
	th_cdp_stop(&c);
	th_rmtree(dir);
	free(dir);
}

/* compare --sequential of a budget run (tests/data/seq_html_*.json, made by seq_html_gen.py):
 * the sequential charts render with the rest, one per query, each with its running estimate;
 * the deciding look is drawn in red exactly in the decided queries' charts. */
TH_TEST(rpt_html_browser, sequential_page_renders_without_errors)
{
	if (!th_cdp_chromium_or_fail())
		return;
	char *dir = th_tempdir("html-browser");
	char args[8192], path[4096], png[4096];
	snprintf(args, sizeof(args),
		 "compare '%s/tests/data/seq_html_old.json' '%s/tests/data/seq_html_new.json' "
		 "--sequential --format html",
		 DBT3_SOURCE_DIR, DBT3_SOURCE_DIR);
	CU_ASSERT_EQUAL_FATAL(make_page(dir, "seq.html", args), 1); /* it holds regressions */
	snprintf(path, sizeof(path), "%s/seq.html", dir);
	snprintf(png, sizeof(png), "%s/seq.png", dir);
	char *html = th_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(html);
	/* decided queries, from the page's table (checked against the reference in
	 * test_rpt_html_seq) */
	long decided =
	    (long)th_count(html, "<tr data-seq-query=") -
	    (long)th_count(html, "<span class=\"badge v-inconclusive\">undecided</span>") /
		2; /* the table row and the chart caption each have one */
	free(html);
	struct cdp c;
	CU_ASSERT_EQUAL_FATAL(th_cdp_start(&c), 0);
	CU_ASSERT_EQUAL(th_cdp_open(&c, path, 1), 0);
	check_rendered(&c, "sequential page");
	json_t *seq = th_cdp_eval(
	    &c,
	    "(() => { const cs = Array.from(document.querySelectorAll("
	    "'div.chart[data-chart=\"seq\"]'));"
	    "const pts = cs.map(e => e.querySelectorAll('svg g.mark-symbol path').length);"
	    "const red = cs.filter(e => Array.from(e.querySelectorAll('svg g.mark-symbol path'))"
	    ".some(p => p.getAttribute('fill') === '#d62728')).length;"
	    "return cs.length + ' ' + pts.filter(n => n > 0).length + ' ' + red; })()");
	const char *s = json_string_value(seq);
	long n = -1, drawn = -1, red = -1;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(sscanf(s, "%ld %ld %ld", &n, &drawn, &red), 3);
	if (n != 22 || drawn != 22 || red != decided)
		fprintf(stderr, "seq charts, with points, with a red look: %s (decided %ld)\n", s,
			decided);
	CU_ASSERT_EQUAL(n, 22);
	CU_ASSERT_EQUAL(drawn, 22);
	CU_ASSERT_EQUAL(red, decided);
	CU_ASSERT_TRUE(decided > 0);
	json_decref(seq);
	CU_ASSERT_TRUE(th_cdp_screenshot(&c, png, 2200) > 50000);
	const char *keep = getenv("DBT3_SCREENSHOT_SEQ");
	if (keep && *keep)
		CU_ASSERT_EQUAL(th_system("cp '%s' '%s'", png, keep), 0);
	th_cdp_stop(&c);
	th_rmtree(dir);
	free(dir);
}

/* The checks can fail: a page with a console error, an uncaught exception and a fetch. */
TH_TEST(rpt_html_browser, detects_errors_and_fetches)
{
	if (!th_cdp_chromium_or_fail())
		return;
	char *dir = th_tempdir("html-browser");
	char path[4096];
	snprintf(path, sizeof(path), "%s/bad.html", dir);
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("<!DOCTYPE html><html><body><p>bad</p><script>console.error('boom');"
	      "fetch('http://example.invalid/x.js').catch(() => {});"
	      "setTimeout(() => { null.x; }, 0);</script></body></html>\n",
	      f);
	fclose(f);
	struct cdp c;
	CU_ASSERT_EQUAL_FATAL(th_cdp_start(&c), 0);
	CU_ASSERT_EQUAL(th_cdp_open(&c, path, 0), 0);
	json_decref(th_cdp_eval(&c, "new Promise(r => setTimeout(r, 300))"));
	char *all = json_dumps(c.problems, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(all, "error: boom"));
	CU_ASSERT_PTR_NOT_NULL(strstr(all, "network request: http://example.invalid/x.js"));
	CU_ASSERT_PTR_NOT_NULL(strstr(all, "exception: TypeError"));
	free(all);
	th_cdp_stop(&c);
	th_rmtree(dir);
	free(dir);
}

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	return th_run("rpt_html_browser", th_cases(), argc, argv);
}
