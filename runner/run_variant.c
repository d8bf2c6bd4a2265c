/* SPDX-License-Identifier: MIT */
/* --variant NAME:mysqld=PATH[,option=value...] (docs/run.md, "Variants"): parsing and the checks
 * made before anything is created or started. */
#include "runner/run.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void run_variant_release(struct run_variant *v)
{
	if (!v)
		return;
	free(v->name);
	free(v->mysqld);
	free(v->spec);
	srv_kv_free(v->options, v->n_options);
	memset(v, 0, sizeof(*v));
}

/* A name that is a safe file name on its own: NAME.json in the output directory. */
static int name_check(const char *s, size_t n, struct errbuf *err)
{
	if (n == 0 || n > RUN_MAX_VARIANT_NAME)
		return errbuf_set(err, "bad variant name '%.*s' (1 to %d characters)",
				  (int)(n > 40 ? 40 : n), s, RUN_MAX_VARIANT_NAME);
	int ok = isalnum((unsigned char)s[0]);
	for (size_t i = 1; ok && i < n; i++)
		ok = isalnum((unsigned char)s[i]) || s[i] == '-' || s[i] == '_' || s[i] == '.';
	if (!ok)
		return errbuf_set(err,
				  "bad variant name '%.*s' (a letter or digit, then letters, digits, "
				  "'-', '_', '.')",
				  (int)n, s);
	return 0;
}

/* An option name as the server spells them: lowercase letters, digits, '-', '_', '.'. An
 * uppercase word is most often the rest of a value that had a comma: the message says how to
 * quote it. */
static int option_name_ok(const char *s, size_t n)
{
	int ok = n > 0 && n <= 256;
	for (size_t i = 0; ok && i < n; i++)
		ok = islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) || s[i] == '-' ||
		     s[i] == '_' || s[i] == '.';
	return ok;
}

/* The server's boolean flags: [loose-]skip-NAME, enable-NAME, disable-NAME ('-' or '_'). */
static int flag_prefixed(const char *s, size_t n)
{
	static const char *const pre[] = {"skip", "enable", "disable"};
	if (n > 6 && strncmp(s, "loose", 5) == 0 && (s[5] == '-' || s[5] == '_'))
		s += 6, n -= 6;
	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
		size_t k = strlen(pre[i]);
		if (n > k + 1 && strncmp(s, pre[i], k) == 0 && (s[k] == '-' || s[k] == '_'))
			return 1;
	}
	return 0;
}

static int option_name_check(const char *spec, const char *s, size_t n, struct errbuf *err)
{
	if (option_name_ok(s, n))
		return 0;
	return errbuf_set(err,
			  "bad variant '%.80s': option name '%.*s' (lowercase letters, digits, "
			  "'-', '_', '.'; a value with commas goes in double quotes: "
			  "name=\"A,B\")",
			  spec, (int)(n > 40 ? 40 : n), s);
}

/* Reads one value at *p (up to the next comma, or a double-quoted string in which \" and \\
 * stand for " and \) into a malloc'd string; *p ends on the comma or the end. */
static char *value_read(const char **p, const char *spec, struct errbuf *err)
{
	const char *s = *p;
	if (*s != '"') {
		size_t n = strcspn(s, ",");
		if (memchr(s, '"', n)) {
			errbuf_set(err, "bad variant '%.80s': a quote inside a value (quote the whole "
					"value: name=\"...\")",
				   spec);
			return NULL;
		}
		*p = s + n;
		char *out = strndup(s, n);
		if (!out)
			errbuf_set(err, "out of memory");
		return out;
	}
	char *out = malloc(strlen(s) + 1), *o = out;
	if (!out) {
		errbuf_set(err, "out of memory");
		return NULL;
	}
	for (s++; *s && *s != '"'; s++) {
		if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
			s++;
		*o++ = *s;
	}
	*o = '\0';
	if (*s != '"' || (s[1] && s[1] != ',')) {
		errbuf_set(err, "bad variant '%.80s': %s", spec,
			   *s != '"' ? "unterminated quote" : "a quoted value ends at its quote");
		free(out);
		return NULL;
	}
	*p = s + 1;
	return out;
}

/* One "name[=value]" item at *p. */
static int item_parse(struct run_variant *out, const char **p, const char *spec,
		      struct errbuf *err)
{
	const char *s = *p;
	size_t n = strcspn(s, "=,");
	char *value = NULL;
	if (n == 0)
		return errbuf_set(err, "bad variant '%.80s': empty option name", spec);
	*p = s + n;
	if (s[n] == '=') {
		*p = s + n + 1;
		if (!(value = value_read(p, spec, err)))
			return -1;
	}
	int rc = 0;
	if (n == 6 && strncmp(s, "mysqld", 6) == 0) {
		if (!value || !*value) {
			rc = errbuf_set(err, "bad variant '%.80s': mysqld needs a path", spec);
		} else {
			free(out->mysqld);
			out->mysqld = value;
			value = NULL;
		}
	} else if (option_name_check(spec, s, n, err) < 0) {
		rc = -1;
	} else {
		char *name = strndup(s, n);
		if (!name || srv_kv_set(&out->options, &out->n_options, name, value) < 0)
			rc = errbuf_set(err, "out of memory");
		free(name);
	}
	free(value);
	return rc;
}

/* What the server's option file would read as a line of its own, or as a directive (an
 * '!include' at the start of a line), is refused as --server-option's values are: a line break,
 * a '!', a control character. */
static int chars_check(const char *spec, struct errbuf *err)
{
	for (const char *p = spec; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c >= ' ' && c != 0x7f && c != '!')
			continue;
		return errbuf_set(err,
				  "bad variant '%.80s': contains %s (the server's option file would "
				  "read it as a line or directive of its own)",
				  spec,
				  c == '\n' || c == '\r' ? "a line break"
				  : c == '!'		 ? "a '!'"
							 : "a control character");
	}
	return 0;
}

int run_variant_parse(struct run_variant *out, const char *spec, struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	if (chars_check(spec, err) < 0)
		return -1;
	const char *colon = strchr(spec, ':');
	if (!colon || colon == spec)
		return errbuf_set(err,
				  "bad variant '%.80s' (expected NAME:mysqld=PATH[,option=value...])",
				  spec);
	if (name_check(spec, (size_t)(colon - spec), err) < 0)
		return -1;
	out->name = strndup(spec, (size_t)(colon - spec));
	out->spec = strdup(spec);
	if (!out->name || !out->spec) {
		run_variant_release(out);
		return errbuf_set(err, "out of memory");
	}
	/* prev: the last item, when it was name=value. A bare word after one is most often the
	 * rest of its value cut at an unquoted comma (sql_mode=a,b): only the server's
	 * skip-/enable-/disable- flags may follow there. */
	const char *prev = NULL;
	size_t prev_n = 0;
	for (const char *p = colon + 1; *p;) {
		const char *item = p;
		size_t n = strcspn(p, "=,");
		if (prev && p[n] != '=' && option_name_ok(p, n) && !flag_prefixed(p, n)) {
			size_t eq = strcspn(prev, "=");
			errbuf_set(err,
				   "bad variant '%.80s': '%.*s' after '%.*s' has no '=' (a value with "
				   "commas goes in double quotes: %.*s=\"%.*s,%.*s\"; a flag there "
				   "is skip-/enable-/disable-NAME or NAME=1)",
				   spec, (int)(n > 40 ? 40 : n), p, (int)(prev_n > 80 ? 80 : prev_n),
				   prev, (int)eq, prev, (int)(prev_n - eq - 1 > 80 ? 80 : prev_n - eq - 1),
				   prev + eq + 1, (int)(n > 40 ? 40 : n), p);
			run_variant_release(out);
			return -1;
		}
		if (item_parse(out, &p, spec, err) < 0) {
			run_variant_release(out);
			return -1;
		}
		prev = item[n] == '=' ? item : NULL;
		prev_n = (size_t)(p - item);
		if (*p == ',')
			p++;
	}
	return 0;
}

int run_binary_check(const char *what, const char *path, struct errbuf *err)
{
	struct stat st;
	if (!strchr(path, '/')) { /* looked up where the server start looks */
		if (srv_find_binary(path) < 0)
			return errbuf_set(err,
					  "%s '%s' is not an executable found on PATH (nor in "
					  "/usr/sbin, /usr/local/sbin, /usr/bin, /usr/local/bin, /sbin)",
					  what, path);
		return 0;
	}
	if (stat(path, &st) != 0)
		return errbuf_errno(err, errno, "%s '%s'", what, path);
	if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0)
		return errbuf_set(err, "%s '%s' is not an executable file", what, path);
	return 0;
}

int run_variant_resume_check(const char *const *file, int nf, const char *const *given, int ng,
			     struct errbuf *err)
{
	unsigned long long used = 0;
	if (ng > 64)
		return errbuf_set(err, "more variants than a run takes");
	for (int i = 0; i < nf; i++) {
		int n = (int)strcspn(file[i], ":"), k = 0;
		while (k < ng &&
		       !(strncmp(given[k], file[i], (size_t)n) == 0 && given[k][n] == ':'))
			k++;
		if (k == ng)
			return errbuf_set(err,
					  "variant '%.*s' of the file is not on the command line",
					  n > 64 ? 64 : n, file[i]);
		if (strcmp(given[k], file[i]) != 0)
			return errbuf_set(err, "variant '%.*s' differs from the file's",
					  n > 64 ? 64 : n, file[i]);
		used |= 1ull << k;
	}
	for (int k = 0; k < ng; k++) {
		int n = (int)strcspn(given[k], ":");
		if (!(used & (1ull << k)))
			return errbuf_set(err, "variant '%.*s' is not in the file", n > 64 ? 64 : n,
					  given[k]);
	}
	return 0;
}
