/* SPDX-License-Identifier: MIT */
/* Text on the HTML pages: escaping and the small formatting helpers. */
#include "reports/rpt_html.h"
#include "reports/rpt_html_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void rpt_html_escape(FILE *out, const char *s)
{
	if (!s)
		return;
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
				fputc(*s, out);
		}
	}
}

void rpt_html_esc(FILE *out, const char *s)
{
	rpt_html_escape(out, s);
}

/* The first max bytes of s (not splitting a UTF-8 sequence) and "..." when it was longer,
 * malloc'd; NULL when out of memory. */
char *rpt_html_cut(const char *s, size_t max)
{
	size_t n = strlen(s);
	if (n <= max)
		return strdup(s);
	while (max > 0 && ((unsigned char)s[max] & 0xc0) == 0x80)
		max--;
	char *out = NULL;
	return asprintf(&out, "%.*s\xe2\x80\xa6", (int)max, s) < 0 ? NULL : out;
}

/* Escapes at most max bytes of s (not splitting a UTF-8 sequence), "..." when cut. */
void rpt_html_esc_limited(FILE *out, const char *s, size_t max)
{
	char *cut = rpt_html_cut(s, max);
	rpt_html_esc(out, cut ? cut : "");
	free(cut);
}

/* ---- small formatting helpers ---- */

void rpt_html_fmt_ms(char *buf, size_t n, double ms)
{
	if (!isfinite(ms))
		snprintf(buf, n, "\xe2\x80\x94"); /* em dash */
	else if (ms >= 1000)
		snprintf(buf, n, "%.0f", ms);
	else if (ms >= 100)
		snprintf(buf, n, "%.1f", ms);
	else if (ms >= 10)
		snprintf(buf, n, "%.2f", ms);
	else
		snprintf(buf, n, "%.3f", ms);
}

void rpt_html_fmt_pct(char *buf, size_t n, double frac)
{
	if (!isfinite(frac))
		snprintf(buf, n, "\xe2\x80\x94");
	else
		snprintf(buf, n, "%.2f%%", frac * 100);
}

void rpt_html_fmt_g(char *buf, size_t n, const char *fmt, double v)
{
	if (!isfinite(v))
		snprintf(buf, n, "\xe2\x80\x94");
	else
		snprintf(buf, n, fmt, v);
}

/* A numeric table cell that sorts by v (NaN sorts last). */
void rpt_html_td_num(FILE *out, double v, const char *text)
{
	if (isfinite(v))
		fprintf(out, "<td data-v=\"%.17g\">", v);
	else
		fputs("<td data-v=\"NaN\">", out);
	rpt_html_esc(out, text);
	fputs("</td>", out);
}

/* Renders a value of a free-form result section as text: strings as they are, numbers, booleans,
 * arrays joined with ", ", objects as compact JSON. Caller frees; NULL when absent or null. */
char *rpt_html_section_text(json_t *v)
{
	char *s = NULL;
	if (!v || json_is_null(v))
		return NULL;
	if (json_is_string(v))
		return strdup(json_string_value(v));
	if (json_is_integer(v)) {
		if (asprintf(&s, "%lld", (long long)json_integer_value(v)) < 0)
			return NULL;
		return s;
	}
	if (json_is_real(v)) {
		if (asprintf(&s, "%g", json_real_value(v)) < 0)
			return NULL;
		return s;
	}
	if (json_is_boolean(v))
		return strdup(json_is_true(v) ? "yes" : "no");
	if (json_is_array(v)) {
		size_t i, len = 0;
		json_t *e;
		char *acc = strdup("");
		json_array_foreach(v, i, e)
		{
			char *t = rpt_html_section_text(e);
			const char *part = t ? t : "null";
			size_t pl = strlen(part);
			char *grown = acc ? realloc(acc, len + pl + 3) : NULL;
			if (!grown) {
				free(t);
				free(acc);
				return NULL;
			}
			acc = grown;
			if (i > 0) {
				memcpy(acc + len, ", ", 2);
				len += 2;
			}
			memcpy(acc + len, part, pl + 1);
			len += pl;
			free(t);
		}
		return acc;
	}
	if (json_is_object(v)) {
		const char *key;
		json_t *e;
		char *acc = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&acc, &len);
		if (!mem)
			return NULL;
		int first = 1;
		json_object_foreach(v, key, e)
		{
			char *t = rpt_html_section_text(e);
			fprintf(mem, "%s%s: %s", first ? "" : ", ", key, t ? t : "null");
			free(t);
			first = 0;
		}
		fclose(mem);
		return acc;
	}
	return NULL;
}

/* Looks up "a.b" in a section object. */
static json_t *section_get_one(json_t *obj, const char *dotted)
{
	char key[64];
	const char *p = dotted;
	while (obj && *p) {
		size_t n = strcspn(p, ".");
		if (n >= sizeof(key))
			return NULL;
		memcpy(key, p, n);
		key[n] = '\0';
		obj = json_is_object(obj) ? json_object_get(obj, key) : NULL;
		p += n + (p[n] == '.');
	}
	return obj;
}

/* Looks up the first of "a.b|c|..." that is present and not null. */
json_t *rpt_html_section_get(json_t *obj, const char *alternatives)
{
	char one[128];
	const char *p = alternatives;
	while (*p) {
		size_t n = strcspn(p, "|");
		if (n >= sizeof(one))
			return NULL;
		memcpy(one, p, n);
		one[n] = '\0';
		json_t *v = section_get_one(obj, one);
		if (v && !json_is_null(v))
			return v;
		p += n + (p[n] == '|');
	}
	return NULL;
}
