/* SPDX-License-Identifier: MIT */
/* The history trend page (`history report`) in headless Chromium (tests/th_cdp.c), made through the
 * command line from a store and opened from disk: no console error or warning, exception or
 * fetch; every chart of the picked series drawn. Two stores:
 * - 16 nights of one series (tests/data/gen_history.py: Q3 20% slower from night 13): Q3 first
 *   in the overview, its cell shows the change point, its chart has the rule and the dots;
 * - 30 nights x 22 queries x 4 hosts (tests/data/gen_history_hosts.py: b/Q17 10% slower from
 *   night 21, a/Q5 15% slower from night 11, c/Q9 12% faster from night 18, an outlier in a/Q9):
 *   the page is under 2 MB, the overview's first rows are Q17, Q5, Q9 in that order, picking a
 *   series by a cell draws its charts; the page's size and load time are printed, and the
 *   overview's screenshot is kept at DBT3_SCREENSHOT when set (docs/history-overview.png). */
#include "base/util.h"
#include "tests/harness.h"
#include "tests/th_cdp.h"
#include "tests/th_spawn.h"
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static long long eval_int(struct cdp *c, const char *expr)
{
	json_t *v = th_cdp_eval(c, expr);
	long long n = json_is_integer(v) ? (long long)json_integer_value(v) : -1;
	json_decref(v);
	return n;
}

static char *eval_str(struct cdp *c, const char *expr)
{
	json_t *v = th_cdp_eval(c, expr);
	char *s = strdup(json_is_string(v) ? json_string_value(v) : "");
	json_decref(v);
	return s;
}

static char *make_page(const char *tag, const char *make_store)
{
	char *dir = th_tempdir(tag);
	if (!dir)
		return NULL;
	int rc = th_system("cd '%s' && mkdir nights && %s && '%s' history report --db h.sqlite -o "
			   "trends.html",
			   dir, make_store, DBT3_BINARY);
	if (rc != 0) {
		fprintf(stderr, "making the page: exit %d\n", rc);
		th_rmtree(dir);
		free(dir);
		return NULL;
	}
	return dir;
}

TH_TEST(hist_report_browser, trend_page_renders_without_errors)
{
	char cmd[8192], path[4096];
	if (!th_cdp_chromium_or_fail())
		return;
	snprintf(cmd, sizeof(cmd),
		 "/usr/bin/python3 '%s/tests/data/gen_history.py' nights 16 13 && for n in $(seq "
		 "-w 1 16); do '%s' history add -q --db h.sqlite --build-id build-$n "
		 "nights/night$n.json || exit 1; done",
		 DBT3_SOURCE_DIR, DBT3_BINARY);
	char *dir = make_page("hist-browser", cmd);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	snprintf(path, sizeof(path), "%s/trends.html", dir);
	struct cdp c;
	CU_ASSERT_EQUAL_FATAL(th_cdp_start(&c), 0);
	CU_ASSERT_EQUAL(th_cdp_open(&c, path, 1), 0);
	CU_ASSERT_EQUAL(eval_int(&c, "document.querySelectorAll('div.chart').length"), 4);
	CU_ASSERT_EQUAL(
	    eval_int(&c, "Number(document.documentElement.getAttribute('data-rendered'))"), 4);
	CU_ASSERT_EQUAL(eval_int(&c, "document.documentElement.hasAttribute('data-render-failed') "
				     "? 1 : 0"),
			0);
	/* Q3 first in the overview and among the charts; its cell shows the change point */
	char *row = eval_str(&c, "document.querySelector('table.overview tbody tr').textContent");
	CU_ASSERT_TRUE(!strncmp(row, "Q3", 2) && strstr(row, "\u00d71.20") &&
		       strstr(row, "2026-11-13"));
	fprintf(stderr, "(first row '%s') ", row);
	free(row);
	char *fig = eval_str(&c, "document.querySelector('figure.small figcaption b').textContent");
	CU_ASSERT_STRING_EQUAL(fig, "Q3");
	free(fig);
	/* 16 x 5 restart dots in every chart; one change point rule, in Q3's */
	CU_ASSERT_EQUAL(eval_int(&c, "Math.min(...Array.from(document.querySelectorAll("
				     "'div.chart')).map(e => e.querySelectorAll("
				     "'svg g.mark-symbol.role-mark path').length))"),
			16 * 5);
	CU_ASSERT_EQUAL(eval_int(&c, "document.querySelectorAll('div.chart[data-key$=\"/Q3/time\"] "
				     "svg g.mark-rule.role-mark line[stroke-dasharray]').length"),
			1);
	CU_ASSERT_EQUAL(eval_int(&c, "document.querySelectorAll('svg "
				     "g.mark-rule.role-mark line[stroke-dasharray]').length"),
			1);
	CU_ASSERT_EQUAL(th_cdp_problems(&c, NULL), 0);
	th_cdp_stop(&c);
	th_rmtree(dir);
	free(dir);
}

/* Waits until series id's charts are drawn; their count, or -1. */
static long long wait_drawn(struct cdp *c, const char *id)
{
	char expr[512];
	snprintf(expr, sizeof(expr),
		 "(s => s && s.hasAttribute('data-drawn') && !s.hasAttribute('data-drawing') && "
		 "!s.hidden ? s.querySelectorAll('div.chart svg').length : -1)"
		 "(document.getElementById('s-%s'))",
		 id);
	for (int i = 0; i < 600; i++) {
		long long n = eval_int(c, expr);
		if (n >= 0 || json_array_size(c->problems))
			return n;
		usleep(100000);
	}
	return -1;
}

static void check_four_hosts(struct cdp *c)
{
	/* the overview's first rows: the two steps (the recent first), then the speedup */
	char *rows = eval_str(c, "Array.from(document.querySelectorAll('table.overview tbody "
				 "th')).slice(0, 4).map(e => e.textContent).join(' ')");
	fprintf(stderr, "(first rows %s) ", rows);
	CU_ASSERT_TRUE(!strncmp(rows, "Q17 Q5 Q9 ", 10));
	free(rows);
	CU_ASSERT_EQUAL(eval_int(c, "document.querySelectorAll('table.overview tbody "
				    "tr[data-changed=\"1\"]').length"),
			3);
	/* host b's column first, its series picked: 22 charts drawn, the other series hidden */
	char *b = eval_str(c, "document.querySelector('table.overview thead th.col')"
			      ".getAttribute('data-series')");
	CU_ASSERT_EQUAL(strlen(b), 16);
	CU_ASSERT_EQUAL(wait_drawn(c, b), 22);
	CU_ASSERT_EQUAL(eval_int(c, "document.querySelectorAll('section.series:not([hidden])')"
				    ".length"),
			1);
	/* "only what changed" leaves the three rows */
	CU_ASSERT_EQUAL(eval_int(c, "(cb => { cb.click(); return Array.from(document"
				    ".querySelectorAll('table.overview tbody tr')).filter(r => "
				    "r.offsetParent !== null).length; })(document"
				    ".getElementById('only-changed'))"),
			3);
	/* the cell of Q5 in host a's column picks host a and goes to its chart */
	char *a = eval_str(c, "(td => { td.querySelector('a').click(); return "
			      "td.getAttribute('data-series'); })(document.querySelector("
			      "'table.overview tbody tr:nth-child(2) td.v-unchanged a "
			      "span.ratio.slower').closest('td'))");
	CU_ASSERT_EQUAL(strlen(a), 16);
	CU_ASSERT_NOT_EQUAL(strcmp(a, b), 0);
	CU_ASSERT_EQUAL(wait_drawn(c, a), 22);
	char *hash = eval_str(c, "location.hash");
	CU_ASSERT_TRUE(!strncmp(hash, "#q-", 3) && strstr(hash, a) && strstr(hash, "-Q5"));
	free(hash);
	free(a);
	free(b);
	/* back to the top for the screenshot, everything shown */
	json_decref(th_cdp_eval(c, "(cb => { cb.click(); window.scrollTo(0, 0); return 1; })"
				   "(document.getElementById('only-changed'))"));
}

TH_TEST(hist_report_browser, four_hosts_page_opens_on_what_changed)
{
	char cmd[8192], path[4096], png[4096];
	struct stat sb;
	if (!th_cdp_chromium_or_fail())
		return;
	snprintf(cmd, sizeof(cmd),
		 "/usr/bin/python3 '%s/tests/data/gen_history_hosts.py' nights 30 && '%s' history "
		 "add -q --db h.sqlite nights",
		 DBT3_SOURCE_DIR, DBT3_BINARY);
	char *dir = make_page("hist-browser4", cmd);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	snprintf(path, sizeof(path), "%s/trends.html", dir);
	CU_ASSERT_EQUAL_FATAL(stat(path, &sb), 0);
	CU_ASSERT_TRUE(sb.st_size < 2 * 1024 * 1024);
	const char *keep = getenv("DBT3_SCREENSHOT");
	snprintf(png, sizeof(png), "%s", keep && *keep ? keep : "");
	if (!png[0])
		snprintf(png, sizeof(png), "%s/overview.png", dir);
	struct cdp c;
	CU_ASSERT_EQUAL_FATAL(th_cdp_start(&c), 0);
	uint64_t t0 = util_now_ns();
	CU_ASSERT_EQUAL(th_cdp_open(&c, path, 1), 0);
	uint64_t t1 = util_now_ns();
	char *ms = eval_str(&c, "document.documentElement.getAttribute('data-render-ms')");
	fprintf(stderr, "(page %lld bytes, open to charts drawn %lld ms, charts %s ms) ",
		(long long)sb.st_size, (long long)((t1 - t0) / 1000000u), ms);
	free(ms);
	check_four_hosts(&c);
	CU_ASSERT_EQUAL(th_cdp_problems(&c, NULL), 0);
	CU_ASSERT_TRUE(th_cdp_screenshot(&c, png, 900) > 20000);
	th_cdp_stop(&c);
	th_rmtree(dir);
	free(dir);
}

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	return th_run("hist_report_browser", th_cases(), argc, argv);
}
