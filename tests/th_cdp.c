/* SPDX-License-Identifier: MIT */
/* Headless Chromium over the DevTools protocol on a pipe, for the browser tests (th_cdp.h). */
#include "tests/th_cdp.h"
#include "base/util.h"
#include "tests/harness.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *chromium_path(void)
{
	const char *p = getenv("DBT3_CHROMIUM");
	return p && *p ? p : "/usr/bin/chromium";
}

int th_cdp_start(struct cdp *c)
{
	int to[2], from[2];
	memset(c, 0, sizeof(*c));
	c->pid = -1;
	c->problems = json_array();
	c->profile = th_tempdir("chromium");
	if (!c->profile || pipe(to) < 0 || pipe(from) < 0)
		return -1;
	char profile_arg[4200], log[4200];
	snprintf(profile_arg, sizeof(profile_arg), "--user-data-dir=%s/profile", c->profile);
	snprintf(log, sizeof(log), "%s/chromium.log", c->profile);
	c->pid = fork();
	if (c->pid < 0)
		return -1;
	if (c->pid == 0) {
		/* fd 3: commands to the browser, fd 4: its answers */
		int in = dup(to[0]), out = dup(from[1]);
		dup2(in, 3);
		dup2(out, 4);
		for (int fd = 5; fd < 1024; fd++)
			close(fd);
		int lfd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (lfd >= 0) {
			dup2(lfd, 1);
			dup2(lfd, 2);
			close(lfd);
		}
		close(0);
		execl(chromium_path(), "chromium", "--headless", "--no-sandbox", "--disable-gpu",
		      "--disable-background-networking", "--disable-component-update",
		      "--disable-sync", "--no-first-run", "--disable-extensions",
		      "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
		      "--host-resolver-rules=MAP * ~NOTFOUND", "--remote-debugging-pipe",
		      profile_arg, "about:blank", (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	c->wfd = to[1];
	c->rfd = from[0];
	fcntl(c->wfd, F_SETFD, FD_CLOEXEC);
	fcntl(c->rfd, F_SETFD, FD_CLOEXEC);
	return 0;
}

static long long now_ms(void)
{
	return (long long)(util_now_ns() / 1000000u);
}

static void problem(struct cdp *c, const char *what, const char *text)
{
	char line[2048];
	snprintf(line, sizeof(line), "%s: %s", what, text ? text : "(no text)");
	json_array_append_new(c->problems, json_string(line));
}

/* Notes an event: console errors and warnings, exceptions, error log entries, network fetches. */
static void cdp_event(struct cdp *c, json_t *msg)
{
	const char *method = json_string_value(json_object_get(msg, "method"));
	json_t *p = json_object_get(msg, "params");
	if (!method)
		return;
	if (!strcmp(method, "Page.loadEventFired")) {
		c->loaded = 1;
	} else if (!strcmp(method, "Runtime.consoleAPICalled")) {
		const char *type = json_string_value(json_object_get(p, "type"));
		if (type && (!strcmp(type, "error") || !strcmp(type, "warning") ||
			     !strcmp(type, "assert"))) {
			json_t *a0 = json_array_get(json_object_get(p, "args"), 0);
			json_t *v = json_object_get(a0, "value");
			const char *text =
			    json_is_string(v)
				? json_string_value(v)
				: json_string_value(json_object_get(a0, "description"));
			problem(c, type, text);
		}
	} else if (!strcmp(method, "Runtime.exceptionThrown")) {
		json_t *d = json_object_get(p, "exceptionDetails");
		const char *text = json_string_value(
		    json_object_get(json_object_get(d, "exception"), "description"));
		problem(c, "exception",
			text ? text : json_string_value(json_object_get(d, "text")));
	} else if (!strcmp(method, "Log.entryAdded")) {
		json_t *e = json_object_get(p, "entry");
		const char *level = json_string_value(json_object_get(e, "level"));
		if (level && !strcmp(level, "error"))
			problem(c, "log error", json_string_value(json_object_get(e, "text")));
	} else if (!strcmp(method, "Network.requestWillBeSent")) {
		const char *url =
		    json_string_value(json_object_get(json_object_get(p, "request"), "url"));
		if (url && strncmp(url, "file:", 5) && strncmp(url, "data:", 5) &&
		    strncmp(url, "about:", 6))
			problem(c, "network request", url);
	}
}

/* The next message (a new reference), or NULL on timeout or when the browser went away. */
static json_t *cdp_read(struct cdp *c, long long deadline)
{
	for (;;) {
		char *nul = c->len ? memchr(c->buf, '\0', c->len) : NULL;
		if (nul) {
			size_t n = (size_t)(nul - c->buf);
			json_t *msg = json_loadb(c->buf, n, 0, NULL);
			memmove(c->buf, nul + 1, c->len - n - 1);
			c->len -= n + 1;
			if (msg)
				return msg;
			continue;
		}
		long long left = deadline - now_ms();
		if (left <= 0)
			return NULL;
		struct pollfd pfd = {c->rfd, POLLIN, 0};
		int pr = poll(&pfd, 1, (int)(left > 1000 ? 1000 : left));
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0)
			continue;
		if (c->cap - c->len < 65536) {
			size_t cap = c->cap ? c->cap * 2 : 1 << 20;
			char *grown = realloc(c->buf, cap);
			if (!grown)
				return NULL;
			c->buf = grown;
			c->cap = cap;
		}
		ssize_t got = read(c->rfd, c->buf + c->len, c->cap - c->len);
		if (got <= 0)
			return NULL;
		c->len += (size_t)got;
	}
}

/* Sends a command (steals params) and waits for its answer: the result object (a new reference)
 * or NULL on error or timeout; events on the way are noted. */
static json_t *cdp_call(struct cdp *c, const char *method, json_t *params, int timeout_ms)
{
	int id = ++c->next_id;
	if (getenv("DBT3_CDP_TRACE"))
		fprintf(stderr, "[%lld] %s\n", now_ms() % 100000, method);
	json_t *msg = json_pack("{s:i,s:s,s:o}", "id", id, "method", method, "params",
				params ? params : json_object());
	if (c->session)
		json_object_set_new(msg, "sessionId", json_string(c->session));
	char *text = json_dumps(msg, JSON_COMPACT);
	json_decref(msg);
	size_t len = strlen(text) + 1; /* with the NUL delimiter */
	for (size_t off = 0; off < len;) {
		ssize_t w = write(c->wfd, text + off, len - off);
		if (w <= 0) {
			free(text);
			return NULL;
		}
		off += (size_t)w;
	}
	free(text);
	long long deadline = now_ms() + timeout_ms;
	for (;;) {
		json_t *m = cdp_read(c, deadline);
		if (!m) {
			fprintf(stderr, "browser: no answer to %s\n", method);
			return NULL;
		}
		json_t *mid = json_object_get(m, "id");
		if (json_is_integer(mid) && json_integer_value(mid) == id) {
			json_t *result = json_incref(json_object_get(m, "result"));
			if (!result)
				fprintf(stderr, "browser: %s failed: %s\n", method,
					json_string_value(json_object_get(
					    json_object_get(m, "error"), "message")));
			json_decref(m);
			return result;
		}
		cdp_event(c, m);
		json_decref(m);
	}
}

/* Evaluates a JS expression in the page; the value (a new reference) or NULL. */
json_t *th_cdp_eval(struct cdp *c, const char *expr)
{
	json_t *r = cdp_call(
	    c, "Runtime.evaluate",
	    json_pack("{s:s,s:b,s:b}", "expression", expr, "returnByValue", 1, "awaitPromise", 1),
	    30000);
	json_t *v = json_incref(json_object_get(json_object_get(r, "result"), "value"));
	json_decref(r);
	return v;
}

void th_cdp_stop(struct cdp *c)
{
	free(c->session);
	c->session = NULL; /* Browser.close goes to the browser, not the page */
	if (c->pid > 0) {
		json_decref(cdp_call(c, "Browser.close", NULL, 5000));
		long long deadline = now_ms() + 10000;
		int st;
		while (waitpid(c->pid, &st, WNOHANG) == 0) {
			if (now_ms() > deadline) {
				kill(c->pid, SIGKILL);
				waitpid(c->pid, &st, 0);
				break;
			}
			usleep(50000);
		}
	}
	if (c->wfd > 0)
		close(c->wfd);
	if (c->rfd > 0)
		close(c->rfd);
	free(c->buf);
	json_decref(c->problems);
	th_rmtree(c->profile);
	free(c->profile);
	memset(c, 0, sizeof(*c));
}

static int b64_value(int ch)
{
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A';
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a' + 26;
	if (ch >= '0' && ch <= '9')
		return ch - '0' + 52;
	return ch == '+' ? 62 : ch == '/' ? 63 : -1;
}

/* Decodes base64 into a malloc'd buffer. */
static unsigned char *b64_decode(const char *s, size_t *out_len)
{
	size_t n = strlen(s), o = 0;
	unsigned char *out = malloc(n / 4 * 3 + 3);
	unsigned acc = 0;
	int bits = 0;
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		int v = b64_value((unsigned char)s[i]);
		if (v < 0)
			continue;
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (unsigned char)(acc >> bits);
		}
	}
	*out_len = o;
	return out;
}

/* Opens file:// path in a fresh page of browser c and waits for the load event and, when
 * wait_rendered, for <html data-rendered>. 0 when the page loaded. */
int th_cdp_open(struct cdp *c, const char *path, int wait_rendered)
{
	json_t *t =
	    cdp_call(c, "Target.createTarget", json_pack("{s:s}", "url", "about:blank"), 30000);
	const char *target = json_string_value(json_object_get(t, "targetId"));
	if (!target) {
		json_decref(t);
		return -1;
	}
	json_t *a = cdp_call(c, "Target.attachToTarget",
			     json_pack("{s:s,s:b}", "targetId", target, "flatten", 1), 30000);
	json_decref(t);
	const char *sid = json_string_value(json_object_get(a, "sessionId"));
	if (!sid) {
		json_decref(a);
		return -1;
	}
	c->session = strdup(sid);
	json_decref(a);
	static const char *const domains[] = {"Runtime.enable", "Log.enable", "Network.enable",
					      "Page.enable"};
	for (size_t i = 0; i < 4; i++)
		json_decref(cdp_call(c, domains[i], NULL, 30000));
	json_decref(cdp_call(c, "Emulation.setDeviceMetricsOverride",
			     json_pack("{s:i,s:i,s:i,s:b}", "width", 1280, "height", 1000,
				       "deviceScaleFactor", 1, "mobile", 0),
			     30000));
	char url[4200];
	snprintf(url, sizeof(url), "file://%s", path);
	c->loaded = 0;
	json_decref(cdp_call(c, "Page.navigate", json_pack("{s:s}", "url", url), 30000));
	long long deadline = now_ms() + 180000; /* a loaded 2-core machine, sanitizers */
	while (!c->loaded) {
		json_t *m = cdp_read(c, deadline);
		if (!m)
			return -1;
		cdp_event(c, m);
		json_decref(m);
	}
	while (wait_rendered) {
		json_t *v =
		    th_cdp_eval(c, "document.documentElement.getAttribute('data-rendered')");
		int done = json_is_string(v);
		json_decref(v);
		if (done)
			break;
		if (json_array_size(c->problems) > 0)
			return -1; /* an exception or console error: the page will not finish */
		if (now_ms() > deadline)
			return -1;
		usleep(100000);
	}
	return 0;
}

/* A PNG of the page's top (up to max_height px) into png_path; its size in bytes, or -1. */
long th_cdp_screenshot(struct cdp *c, const char *png_path, int max_height)
{
	json_t *h = th_cdp_eval(c, "document.documentElement.scrollHeight");
	int height = json_is_integer(h) ? (int)json_integer_value(h) : 1000;
	json_decref(h);
	if (height > max_height)
		height = max_height;
	json_t *r = cdp_call(c, "Page.captureScreenshot",
			     json_pack("{s:s,s:b,s:{s:i,s:i,s:i,s:i,s:i}}", "format", "png",
				       "captureBeyondViewport", 1, "clip", "x", 0, "y", 0, "width",
				       1280, "height", height, "scale", 1),
			     60000);
	const char *data = json_string_value(json_object_get(r, "data"));
	long size = -1;
	if (data) {
		size_t n = 0;
		unsigned char *png = b64_decode(data, &n);
		FILE *f = png ? fopen(png_path, "wb") : NULL;
		if (f) {
			int ok = fwrite(png, 1, n, f) == n;
			if (fclose(f) == 0 && ok)
				size = (long)n;
		}
		if (png && n > 8 && memcmp(png, "\x89PNG\r\n\x1a\n", 8))
			size = -1;
		free(png);
	}
	json_decref(r);
	return size;
}

size_t th_cdp_problems(const struct cdp *c, const char *what)
{
	size_t i, n = json_array_size(c->problems);
	json_t *p;
	if (n && what)
		fprintf(stderr, "%s:\n", what);
	json_array_foreach(c->problems, i, p)
	    fprintf(stderr, "page problem: %s\n", json_string_value(p));
	return n;
}

int th_cdp_have_chromium(void)
{
	if (access(chromium_path(), X_OK) == 0)
		return 1;
	fprintf(stderr,
		"%s not found: install Chromium (scripts/install-deps --with-browser) or set "
		"DBT3_CHROMIUM\n",
		chromium_path());
	return 0;
}

int th_cdp_chromium_or_fail(void)
{
	if (th_cdp_have_chromium())
		return 1;
	CU_FAIL("chromium is missing");
	return 0;
}
