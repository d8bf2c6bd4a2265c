/* SPDX-License-Identifier: MIT */
/* A headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON
 * messages ended by NUL on fds 3 and 4), for the browser tests of the HTML pages: open a page from
 * disk with name resolution off, collect console errors and warnings, exceptions, error log
 * entries and requests that are not file:/data:, evaluate expressions, take screenshots. */
#ifndef DBT3_TESTS_TH_CDP_H
#define DBT3_TESTS_TH_CDP_H
#include <jansson.h>
#include <stddef.h>
#include <sys/types.h>

/* One browser; th_cdp_start fills it, th_cdp_stop releases it. */
struct cdp {
	pid_t pid;
	int wfd, rfd;
	char *buf;
	size_t len, cap;
	int next_id;
	char *session;
	char *profile;
	json_t *problems; /* strings: what the page did wrong */
	int loaded;	  /* Page.loadEventFired seen */
};

/* Nonzero when the browser (DBT3_CHROMIUM, default /usr/bin/chromium) can be run; else says
 * how to install it on stderr. */
int th_cdp_have_chromium(void);

/* th_cdp_have_chromium, failing the running case when not (a browser test starts with
 * "if (!th_cdp_chromium_or_fail()) return;"). */
int th_cdp_chromium_or_fail(void);

/* Starts the browser with a fresh profile in a temp dir: 0, or -1. */
int th_cdp_start(struct cdp *c);

/* Opens file:// path in a fresh page and waits for the load event and, when wait_rendered, for
 * <html data-rendered>. 0 when the page loaded. */
int th_cdp_open(struct cdp *c, const char *path, int wait_rendered);

/* Evaluates a JS expression in the page; the value (a new reference) or NULL. */
json_t *th_cdp_eval(struct cdp *c, const char *expr);

/* A PNG of the page's top (up to max_height px) into png_path; its size in bytes, or -1. */
long th_cdp_screenshot(struct cdp *c, const char *png_path, int max_height);

/* How many problems the page had: they go to stderr, one a line, after "what:" when what is
 * not NULL. */
size_t th_cdp_problems(const struct cdp *c, const char *what);

/* Closes the browser (killed after 10 s), removes its profile and clears c. */
void th_cdp_stop(struct cdp *c);

#endif
