/* SPDX-License-Identifier: MIT */
/* The history trend page (`history report`) in headless Chromium (tests/cdp.h): 16 nightly
 * results (tests/data/gen_history.py: Q3 20% slower from night 13) through the command line into
 * a store, the page opened from disk: every chart drawn, no console error or warning, exception or
 * fetch; the restart dots, the change point of Q3 with its build, Q3 first. The screenshot is
 * kept at DBT3_SCREENSHOT when set (docs/history.png). */
#include "tests/cdp.h"
#include "tests/th_spawn.h"

static long long eval_int(struct cdp *c, const char *expr)
{
	json_t *v = cdp_eval(c, expr);
	long long n = json_is_integer(v) ? (long long)json_integer_value(v) : -1;
	json_decref(v);
	return n;
}

static char *make_store_and_page(void)
{
	char *dir = th_tempdir("hist-browser");
	if (!dir)
		return NULL;
	int rc = th_system(
	    "cd '%s' && mkdir nights && /usr/bin/python3 '%s/tests/data/gen_history.py' "
	    "nights 16 13 && for n in $(seq -w 1 16); do '%s' history add -q --db h.sqlite "
	    "--build-id build-$n nights/night$n.json || exit 1; done && '%s' history report "
	    "--db h.sqlite -o trends.html",
	    dir, DBT3_SOURCE_DIR, DBT3_BINARY, DBT3_BINARY);
	if (rc != 0) {
		fprintf(stderr, "making the page: exit %d\n", rc);
		th_rmtree(dir);
		free(dir);
		return NULL;
	}
	return dir;
}

static void test_hist_report_browser__trend_page_renders_without_errors(void)
{
	if (!have_chromium()) {
		CU_FAIL("chromium is missing");
		return;
	}
	char *dir = make_store_and_page();
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	char path[4096], png[4096];
	snprintf(path, sizeof(path), "%s/trends.html", dir);
	const char *keep = getenv("DBT3_SCREENSHOT");
	snprintf(png, sizeof(png), "%s", keep && *keep ? keep : "");
	if (!png[0])
		snprintf(png, sizeof(png), "%s/trends.png", dir);
	struct cdp c;
	CU_ASSERT_EQUAL_FATAL(cdp_start(&c), 0);
	CU_ASSERT_EQUAL(cdp_open(&c, path, 1), 0);
	CU_ASSERT_EQUAL(eval_int(&c, "document.querySelectorAll('div.chart').length"), 4);
	CU_ASSERT_EQUAL(
	    eval_int(&c, "Number(document.documentElement.getAttribute('data-rendered'))"), 4);
	CU_ASSERT_EQUAL(eval_int(&c, "document.documentElement.hasAttribute('data-render-failed') "
				     "? 1 : 0"),
			0);
	/* Q3 first (its change point is the most recent slowdown); 16 x 5 restart dots plus the
	 * 16 points of the line in every chart */
	json_t *first = cdp_eval(&c, "document.querySelector('article.query h3').textContent");
	CU_ASSERT_TRUE(json_is_string(first) && !strncmp(json_string_value(first), "Q3 ", 3));
	json_decref(first);
	CU_ASSERT_EQUAL(eval_int(&c, "Math.min(...Array.from(document.querySelectorAll("
				     "'div.chart')).map(e => e.querySelectorAll("
				     "'svg g.mark-symbol.role-mark path').length))"),
			16 * 5 + 16);
	/* one change point: a rule and its label in Q3's chart only */
	CU_ASSERT_EQUAL(
	    eval_int(&c, "document.querySelectorAll('svg g.mark-rule.role-mark line').length"), 1);
	json_t *label = cdp_eval(&c, "document.querySelector('div.chart[data-key$=\"/Q3\"] svg "
				     "g.mark-text.role-mark text').textContent");
	CU_ASSERT_TRUE(json_is_string(label) && strstr(json_string_value(label), "build-13") &&
		       strstr(json_string_value(label), "\u00d71.20"));
	if (json_is_string(label))
		fprintf(stderr, "(label '%s') ", json_string_value(label));
	json_decref(label);
	if (json_array_size(c.problems))
		print_problems(&c);
	CU_ASSERT_EQUAL(json_array_size(c.problems), 0);
	CU_ASSERT_TRUE(cdp_screenshot(&c, png, 1400) > 20000);
	cdp_stop(&c);
	th_rmtree(dir);
	free(dir);
}

int main(int argc, char **argv)
{
	static const struct th_case cases[] = {
	    {"trend_page_renders_without_errors",
	     test_hist_report_browser__trend_page_renders_without_errors},
	    {NULL, NULL},
	};
	signal(SIGPIPE, SIG_IGN);
	return th_run("hist_report_browser", cases, argc, argv);
}
