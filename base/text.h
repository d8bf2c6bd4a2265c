/* SPDX-License-Identifier: MIT */
/* User-controlled text made safe to show: on a terminal, in Markdown, with secrets hidden. */
#ifndef DBT3_TEXT_H
#define DBT3_TEXT_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* util_term flags. */
enum util_term_flags {
	UTIL_TERM_KEEP_LF = 1 << 0, /* a newline stays one (multi-line text such as a plan) */
};

/* Writes s to f with every control character visible, so that text from a result file, a store
 * or the command line cannot move the cursor, retitle the terminal or fake a line: ESC as \e,
 * BEL \a, CR \r, LF \n, TAB \t, backslash \\, other C0 controls and DEL as \xNN, the C1 controls
 * (U+0080-U+009F) and bytes that are not UTF-8 as \xNN per byte. -1 on a write error. */
int util_term_fputs(FILE *f, const char *s, unsigned flags);

/* The same into out (n bytes, NUL-terminated, cut at a whole escape when it does not fit);
 * returns out, "" for s NULL. */
const char *util_term(char *out, size_t n, const char *s);

/* Markdown: s escaped for a Markdown paragraph or table cell (util_term's escapes, then the
 * punctuation Markdown gives meaning, \ ` * _ [ ] # | ~, with a backslash and & < > as HTML
 * entities), so that no tag, link or table cell comes from the data. -1 on a write error. */
int util_md_fputs(FILE *f, const char *s);

/* util_md_fputs into out (n bytes); returns out. */
const char *util_md(char *out, size_t n, const char *s);

/* s as a Markdown code span (shown as it is, never as HTML or a link): util_term's escapes
 * inside a backtick fence longer than any backtick run in s; returns out. */
const char *util_md_code(char *out, size_t n, const char *s);

/* s with the password of every URL user part "scheme://USER:PASSWORD@" replaced by "***"
 * (out: n bytes, cut to fit); returns out. */
const char *util_redact(char *out, size_t n, const char *s);

/* A number of bytes for people, in binary units: "512 B", "42 KiB", "1.3 GiB" (one decimal
 * below 10, none above; rounded, never "1024 KiB"); into out (n bytes), returns out. */
const char *util_size_human(char *out, size_t n, uint64_t bytes);

/* Appends " WORD" to out (of len, holding at): s as it is when no shell treats any of its
 * characters specially, else in single quotes (a ' as '\''). The new length; len when it does
 * not fit. */
size_t util_shell_word(char *out, size_t len, size_t at, const char *s);

#endif
