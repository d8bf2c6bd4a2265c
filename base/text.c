/* SPDX-License-Identifier: MIT */
/* Escaping for terminals and Markdown; URL passwords hidden. */
#include "base/text.h"
#include <stdio.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at p (2-4), or 0 when p starts none. Overlong forms,
 * surrogates and code points above U+10FFFF are not valid. */
static size_t utf8_len(const unsigned char *p)
{
	unsigned c = p[0];
	size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
	if (n == 0 || (c >= 0xf0 && n != 4))
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0) ||
	    (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90))
		return 0;
	return n;
}

/* The escape of the byte or sequence at p into e (at least 9 bytes); its length in *used. */
static void escape_one(const unsigned char *p, unsigned flags, char e[16], size_t *used)
{
	static const char named[0x20] = {['\033'] = 'e', ['\a'] = 'a', ['\r'] = 'r', ['\n'] = 'n',
					 ['\t'] = 't',	 ['\b'] = 'b', ['\f'] = 'f', ['\v'] = 'v'};
	unsigned c = p[0];
	size_t n = c < 0x80 ? 1 : utf8_len(p);
	*used = n ? n : 1;
	if (c == '\n' && (flags & UTIL_TERM_KEEP_LF))
		snprintf(e, 16, "\n");
	else if (c == '\\')
		snprintf(e, 16, "\\\\");
	else if (c < 0x20 && named[c])
		snprintf(e, 16, "\\%c", named[c]);
	else if (c < 0x20 || c == 0x7f || n == 0)
		snprintf(e, 16, "\\x%02x", c);
	else if (c == 0xc2 && p[1] < 0xa0) /* C1: U+0080-U+009F, e.g. CSI U+009B */
		snprintf(e, 16, "\\xc2\\x%02x", p[1]);
	else
		snprintf(e, 16, "%.*s", (int)n, (const char *)p);
}

int util_term_fputs(FILE *f, const char *s, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	char e[16];
	size_t used;
	while (*p) {
		escape_one(p, flags, e, &used);
		if (fputs(e, f) == EOF)
			return -1;
		p += used;
	}
	return 0;
}

const char *util_term(char *out, size_t n, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t k = 0;
	char e[16];
	size_t used;
	if (n == 0)
		return out;
	out[0] = '\0';
	while (*p) {
		escape_one(p, 0, e, &used);
		size_t el = strlen(e);
		if (k + el >= n)
			break;
		memcpy(out + k, e, el + 1);
		k += el;
		p += used;
	}
	return out;
}

/* Markdown's escape of one byte of already terminal-safe text, or NULL when it stays. */
static const char *md_escape(char c)
{
	switch (c) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '\\':
		return "\\\\";
	case '`':
		return "\\`";
	case '*':
		return "\\*";
	case '_':
		return "\\_";
	case '[':
		return "\\[";
	case ']':
		return "\\]";
	case '#':
		return "\\#";
	case '|':
		return "\\|";
	case '~':
		return "\\~";
	default:
		return NULL;
	}
}

int util_md_fputs(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	char e[16];
	size_t used;
	while (*p) {
		escape_one(p, 0, e, &used);
		for (const char *q = e; *q; q++) {
			const char *m = md_escape(*q);
			if ((m ? fputs(m, f) : fputc(*q, f)) == EOF)
				return -1;
		}
		p += used;
	}
	return 0;
}

const char *util_md(char *out, size_t n, const char *s)
{
	FILE *f = fmemopen(out, n, "w");
	if (n)
		out[0] = '\0';
	if (!f)
		return out;
	setvbuf(f, NULL, _IONBF, 0);
	util_md_fputs(f, s);
	fclose(f);
	out[n - 1] = '\0';
	return out;
}

const char *util_md_code(char *out, size_t n, const char *s)
{
	char body[1024], fence[16];
	size_t run = 0, longest = 0;
	util_term(body, sizeof(body), s);
	for (const char *p = body; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	if (longest > sizeof(fence) - 2)
		longest = sizeof(fence) - 2;
	memset(fence, '`', longest + 1);
	fence[longest + 1] = '\0';
	/* a space each side when the body touches a backtick (CommonMark strips one) */
	const char *pad = longest ? " " : "";
	snprintf(out, n, "%s%s%s%s%s", fence, pad, body, pad, fence);
	return out;
}

const char *util_redact(char *out, size_t n, const char *s)
{
	size_t k = 0;
	const char *p = s ? s : "";
	if (n == 0)
		return out;
	while (*p && k + 1 < n) {
		const char *scheme = strstr(p, "://");
		if (!scheme) {
			k += (size_t)snprintf(out + k, n - k, "%s", p);
			break;
		}
		const char *user = scheme + 3;
		size_t span = strcspn(user, "/?#@ ");
		const char *colon = memchr(user, ':', span);
		if (user[span] == '@' && colon) {
			k += (size_t)snprintf(out + k, n - k, "%.*s:***", (int)(colon - p), p);
			p = user + span;
		} else {
			k += (size_t)snprintf(out + k, n - k, "%.*s", (int)(user - p), p);
			p = user;
		}
		if (k >= n)
			k = n - 1;
	}
	out[k < n ? k : n - 1] = '\0';
	return out;
}

const char *util_size_human(char *out, size_t n, uint64_t bytes)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	double v = (double)bytes;
	size_t u = 0;
	if (n == 0)
		return out;
	if (bytes < 1024) {
		snprintf(out, n, "%u B", (unsigned)bytes);
		return out;
	}
	/* the unit where the rounded value stays below 1024: 1023.7 KiB is "1.0 MiB" */
	while (u + 1 < sizeof(units) / sizeof(units[0]) && v >= 1023.5) {
		v /= 1024.0;
		u++;
	}
	if (v < 9.95)
		snprintf(out, n, "%.1f %s", v, units[u]);
	else
		snprintf(out, n, "%.0f %s", v, units[u]);
	return out;
}

/* Appends " WORD" to out (of len, holding at): s as it is when no shell treats any of its
 * characters specially, else in single quotes (a ' as '\''). The new length; len when it does
 * not fit. */
size_t util_shell_word(char *out, size_t len, size_t at, const char *s)
{
	int plain = *s && s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				   "0123456789_@%+=:,./-")] == '\0';
	if (at >= len)
		return len;
	out[at++] = ' ';
	if (!plain && at < len)
		out[at++] = '\'';
	for (; *s && at < len; s++) {
		if (*s == '\'' && !plain) {
			at += (size_t)snprintf(out + at, len - at, "'\\''");
			continue;
		}
		out[at++] = *s;
	}
	if (!plain && at < len)
		out[at++] = '\'';
	if (at >= len)
		return len;
	out[at] = '\0';
	return at;
}
