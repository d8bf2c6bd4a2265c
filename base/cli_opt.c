/* SPDX-License-Identifier: MIT */
/* Option tables: getopt_long's arrays and the --help text made from one table. */
#include "base/cli_opt.h"
#include "base/cli.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define HELP_WIDTH 79
#define HELP_COLUMN_MAX 27

/* A table flattened: each option row with the address its offsets are from. */
struct flat {
	const struct cli_opt **rows;
	char **bases;
	size_t n, cap;
};

static int flat_add(struct flat *fl, const struct cli_opt *opts, char *base)
{
	for (const struct cli_opt *r = opts; r->kind != CLI_OPT_END; r++) {
		if (r->kind == CLI_OPT_GROUP) {
			if (flat_add(fl, r->table, base ? base + r->off : NULL) < 0)
				return -1;
			continue;
		}
		if (fl->n == fl->cap) {
			size_t cap = fl->cap ? 2 * fl->cap : 32;
			const struct cli_opt **rows = realloc(fl->rows, cap * sizeof(*rows));
			if (!rows)
				return -1;
			fl->rows = rows;
			char **bases = realloc(fl->bases, cap * sizeof(*bases));
			if (!bases)
				return -1;
			fl->bases = bases;
			fl->cap = cap;
		}
		fl->rows[fl->n] = r;
		fl->bases[fl->n++] = base;
	}
	return 0;
}

static void flat_release(struct flat *fl)
{
	free(fl->rows);
	free(fl->bases);
}

/* getopt_long's tables of fl: long options (each row, then its old name) with val 256 + row
 * index, and the short ones (":" first, so that a missing value is told apart). */
static int getopt_tables(const struct flat *fl, struct option **out_long, char **out_short)
{
	struct option *lo = calloc(2 * fl->n + 1, sizeof(*lo));
	char *so = calloc(2 * fl->n + 2, 1);
	size_t k = 0, s = 0;
	if (!lo || !so) {
		free(lo);
		free(so);
		return -1;
	}
	so[s++] = ':';
	for (size_t i = 0; i < fl->n; i++) {
		const struct cli_opt *r = fl->rows[i];
		int has_arg = r->arg ? required_argument : no_argument;
		if (r->name)
			lo[k++] = (struct option){r->name, has_arg, NULL, 256 + (int)i};
		if (r->old)
			lo[k++] = (struct option){r->old, has_arg, NULL, 256 + (int)i};
		if (r->letter) {
			so[s++] = r->letter;
			if (r->arg)
				so[s++] = ':';
		}
	}
	*out_long = lo;
	*out_short = so;
	return 0;
}

/* The row of getopt_long's result c: a long option's val, or a short letter. -1 when none. */
static int row_of(const struct flat *fl, int c)
{
	if (c >= 256 && (size_t)(c - 256) < fl->n)
		return c - 256;
	for (size_t i = 0; c > 0 && c < 256 && i < fl->n; i++)
		if (fl->rows[i]->letter == c)
			return (int)i;
	return -1;
}

/* The message of a bad value: the row's template with "%s" replaced by the value, else
 * "bad --NAME 'VALUE'" (an integer: the range it takes). */
static void bad_value(char *out, size_t len, const struct cli_opt *r, const char *spelled,
		      const char *arg)
{
	const char *t = r->bad;
	if (!t) {
		if (r->kind == CLI_OPT_INT || r->kind == CLI_OPT_LONG || r->kind == CLI_OPT_SIZE)
			snprintf(out, len, "%s needs an integer in %ld..%ld, not '%s'", spelled,
				 (long)r->min, (long)r->max, arg);
		else
			snprintf(out, len, "bad %s '%s'", spelled, arg);
		return;
	}
	size_t at = 0;
	for (; *t && at + 1 < len; t++) {
		if (t[0] == '%' && t[1] == 's') {
			at += (size_t)snprintf(out + at, len - at, "%s", arg);
			if (at >= len)
				at = len - 1;
			t++;
		} else {
			out[at++] = *t;
		}
	}
	out[at] = '\0';
}

/* Does what row r says with arg into base. 0, or -1 with the message in err. */
static int take(const struct cli_opt *r, char *base, const char *spelled, const char *arg,
		struct errbuf *err)
{
	void *dst = base + r->off;
	long v;
	double d;
	switch (r->kind) {
	case CLI_OPT_FLAG:
	case CLI_OPT_UNSET:
		*(int *)dst = r->kind == CLI_OPT_FLAG;
		return 0;
	case CLI_OPT_STRING:
		*(const char **)dst = arg;
		return 0;
	case CLI_OPT_INT:
	case CLI_OPT_LONG:
	case CLI_OPT_SIZE:
		if (cli_parse_long(arg, (long)r->min, (long)r->max, &v) < 0)
			break;
		if (r->kind == CLI_OPT_INT)
			*(int *)dst = (int)v;
		else if (r->kind == CLI_OPT_LONG)
			*(long *)dst = v;
		else
			*(size_t *)dst = (size_t)v;
		return 0;
	case CLI_OPT_DOUBLE:
		if (cli_parse_double(arg, r->min, r->max, &d) < 0)
			break;
		*(double *)dst = d;
		return 0;
	case CLI_OPT_FRACTION:
		if (cli_parse_fraction(arg, &d) < 0 || !(d > r->min) || d > r->max)
			break;
		*(double *)dst = d;
		return 0;
	case CLI_OPT_DURATION:
		if (cli_parse_duration(arg, &d) < 0)
			break;
		*(double *)dst = d;
		return 0;
	case CLI_OPT_LIST: {
		int *n = (int *)(base + r->off2);
		if (*n >= (int)r->max)
			return errbuf_set(err, "%s", r->bad ? r->bad : "too many values");
		((const char **)dst)[(*n)++] = arg;
		return 0;
	}
	case CLI_OPT_CALL:
		if (r->fn(dst, r, arg, err) >= 0)
			return 0;
		if (err->msg[0])
			return -1;
		break;
	default:
		return errbuf_set(err, "option '%s' has no action", spelled);
	}
	bad_value(err->msg, sizeof(err->msg), r, spelled, arg ? arg : "");
	return -1;
}

/* How the user spelled the option of result c ("--name", "--old-name", "-s"). */
static void spelled_as(char *out, size_t len, const struct option *lo, int longindex, int c)
{
	if (c >= 256 && longindex >= 0)
		snprintf(out, len, "--%s", lo[longindex].name);
	else
		snprintf(out, len, "-%c", c);
}

static void note_given(struct cli_parse *p, const struct cli_opt *r, const char *spelled)
{
	for (int b = 0; b < CLI_OPT_NTAGS; b++)
		if (r->tags & (1u << b))
			snprintf(p->given[b], sizeof(p->given[b]), "%s", spelled);
}

int cli_opts_parse(struct cli_parse *p, const struct cli_opt *opts, int argc, char **argv)
{
	struct flat fl = {0};
	struct option *lo = NULL;
	char *so = NULL;
	int rc = CLI_OK, c, li = -1;
	p->help = 0;
	memset(p->given, 0, sizeof(p->given));
	if (flat_add(&fl, opts, p->base) < 0 || getopt_tables(&fl, &lo, &so) < 0) {
		flat_release(&fl);
		cli_error("out of memory");
		return CLI_IO;
	}
	cli_getopt_reset();
	while (rc == CLI_OK && !p->help && (c = getopt_long(argc, argv, so, lo, &li)) != -1) {
		int i = row_of(&fl, c);
		if (i < 0) {
			rc = cli_bad_option(p->cmd, c, argv);
			break;
		}
		const struct cli_opt *r = fl.rows[i];
		struct errbuf err = {""};
		char spelled[64];
		spelled_as(spelled, sizeof(spelled), lo, li, c);
		li = -1;
		if (take(r, fl.bases[i], spelled, r->arg ? optarg : NULL, &err) < 0)
			rc = cli_usage_error(p->cmd, "%s", err.msg);
		note_given(p, r, spelled);
		p->help = (r->flags & CLI_OPT_HELP) != 0;
	}
	p->next = optind;
	free(lo);
	free(so);
	flat_release(&fl);
	return rc;
}

int cli_opts_scan(const struct cli_opt *opts, int argc, char *const *argv, cli_opt_scan_fn fn,
		  void *ctx)
{
	struct flat fl = {0};
	struct option *lo = NULL;
	char *so = NULL;
	char **args = calloc((size_t)argc + 1, sizeof(char *)); /* getopt permutes its argv */
	int rc = -1, c;
	if (args && flat_add(&fl, opts, NULL) == 0 && getopt_tables(&fl, &lo, &so) == 0) {
		memcpy(args, argv, (size_t)argc * sizeof(char *));
		cli_getopt_reset();
		int start = 1;
		rc = 0;
		while ((c = getopt_long(argc, args, so, lo, NULL)) != -1) {
			int i = row_of(&fl, c);
			if (i < 0) {
				rc = -1;
				break;
			}
			fn(ctx, fl.rows[i], args + start, optind - start);
			start = optind;
		}
	}
	free(args);
	free(lo);
	free(so);
	flat_release(&fl);
	return rc;
}

const char *cli_opts_given(const struct cli_parse *p, int bit)
{
	return bit >= 0 && bit < CLI_OPT_NTAGS && p->given[bit][0] ? p->given[bit] : NULL;
}

int cli_opts_has(const struct cli_opt *table, const struct cli_opt *row)
{
	for (const struct cli_opt *r = table; r->kind != CLI_OPT_END; r++)
		if (r == row || (r->kind == CLI_OPT_GROUP && cli_opts_has(r->table, row)))
			return 1;
	return 0;
}

/* ---- --help ---- */

/* "-s, --scale SF", "--budget DURATION", "-q": the left column of a row. */
static size_t left_column(char *out, size_t len, const struct cli_opt *r)
{
	int n;
	if (r->letter && r->name)
		n = snprintf(out, len, "-%c, --%s%s%s", r->letter, r->name, r->arg ? " " : "",
			     r->arg ? r->arg : "");
	else if (r->name)
		n = snprintf(out, len, "--%s%s%s", r->name, r->arg ? " " : "",
			     r->arg ? r->arg : "");
	else
		n = snprintf(out, len, "-%c%s%s", r->letter, r->arg ? " " : "",
			     r->arg ? r->arg : "");
	return n < 0 ? 0 : (size_t)n;
}

/* The widest left column of the visible rows (groups included) below HELP_COLUMN_MAX - 4. */
static size_t widest(const struct cli_opt *opts)
{
	size_t w = 0;
	char buf[128];
	for (const struct cli_opt *r = opts; r->kind != CLI_OPT_END; r++) {
		size_t n = r->kind == CLI_OPT_GROUP    ? widest(r->table)
			   : r->flags & CLI_OPT_HIDDEN ? 0
						       : left_column(buf, sizeof(buf), r);
		if (n > w && n <= HELP_COLUMN_MAX - 4)
			w = n;
	}
	return w;
}

/* Writes text from column col (the cursor there), wrapped at HELP_WIDTH; "\n" in text breaks
 * the line. */
static void wrap(FILE *f, const char *text, size_t col)
{
	size_t at = col;
	for (const char *p = text; *p;) {
		if (*p == '\n' || *p == ' ') {
			if (*p++ == '\n') {
				fprintf(f, "\n%*s", (int)col, "");
				at = col;
			}
			continue;
		}
		size_t word = strcspn(p, " \n");
		if (at > col && at + 1 + word > HELP_WIDTH) {
			fprintf(f, "\n%*s", (int)col, "");
			at = col;
		} else if (at > col) {
			fputc(' ', f);
			at++;
		}
		fwrite(p, 1, word, f);
		at += word;
		p += word;
	}
	fputc('\n', f);
}

static void usage_rows(FILE *f, const struct cli_opt *opts, size_t col)
{
	char left[128], help[1024];
	for (const struct cli_opt *r = opts; r->kind != CLI_OPT_END; r++) {
		if (r->kind == CLI_OPT_GROUP) {
			if (r->help)
				fprintf(f, "\n%s:\n", r->help);
			usage_rows(f, r->table, col);
			continue;
		}
		if (r->flags & CLI_OPT_HIDDEN)
			continue;
		size_t n = left_column(left, sizeof(left), r);
		if (2 + n + 2 > col)
			fprintf(f, "  %s\n%*s", left, (int)col, "");
		else
			fprintf(f, "  %s%*s", left, (int)(col - 2 - n), "");
		if (r->old)
			snprintf(help, sizeof(help), "%s (old name: --%s)", r->help ? r->help : "",
				 r->old);
		else
			snprintf(help, sizeof(help), "%s", r->help ? r->help : "");
		wrap(f, help, col);
	}
}

void cli_opts_usage(FILE *f, const struct cli_opt *opts)
{
	usage_rows(f, opts, 2 + widest(opts) + 2);
}
