/* SPDX-License-Identifier: MIT */
#include "base/cli.h"
#include "base/text.h"
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The formatted message with its control characters visible (base/text.h): a file name or
 * value quoted from the input cannot fake a line or drive the terminal. */
static void vput(const char *fmt, va_list ap)
{
	char buf[4096];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	util_term_fputs(stderr, buf, 0);
}

static void vline(const char *prefix, const char *fmt, va_list ap)
{
	fputs("dbt3stab: ", stderr);
	fputs(prefix, stderr);
	vput(fmt, ap);
	fputc('\n', stderr);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vline("", fmt, ap);
	va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vline("warning: ", fmt, ap);
	va_end(ap);
}

void cli_info(int quiet, const char *fmt, ...)
{
	if (quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	vput(fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "dbt3stab %s: ", cmd);
	va_start(ap, fmt);
	vput(fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'dbt3stab %s --help')\n", cmd);
	return CLI_USAGE;
}

/* "-" and a decimal number: "-1", "-0.5". */
static int negative_number(const char *s)
{
	return s[0] == '-' && (isdigit((unsigned char)s[1]) || s[1] == '.') &&
	       s[1 + strspn(s + 1, "0123456789.")] == '\0';
}

int cli_bad_option(const char *cmd, int c, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	if (c == ':')
		return cli_usage_error(cmd, "option '%s' needs a value", arg);
	if (optopt > 255) /* a long option's code (cli_opt.h's tables): "--flag=VALUE" */
		return cli_usage_error(cmd, "option '%.*s' takes no value", (int)strcspn(arg, "="),
				       arg);
	/* getopt takes "-1" for an option: say that it is a number no operand takes */
	if (optopt >= '0' && optopt <= '9') {
		const char *num = negative_number(arg)				  ? arg
				  : argv[optind] && negative_number(argv[optind]) ? argv[optind]
										  : NULL;
		if (num)
			return cli_usage_error(cmd,
					       "'%s' is a negative number, which no operand or "
					       "option of this command takes",
					       num);
	}
	if (optopt && optopt != '?')
		return cli_usage_error(cmd, "unknown option '-%c'", optopt);
	return cli_usage_error(cmd, "unknown option '%s'", arg);
}

void cli_getopt_reset(void)
{
	optind = 0; /* GNU: full reinitialisation */
	opterr = 0;
	optopt = 0;
}

int cli_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	/* strtol skips leading white space: " 5" is no number on a command line */
	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int cli_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int cli_parse_fraction(const char *s, double *out)
{
	char buf[64];
	size_t n = s ? strlen(s) : 0;
	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n + 1);
	int percent = buf[n - 1] == '%';
	if (percent)
		buf[n - 1] = '\0';
	double v;
	if (cli_parse_double(buf, 0.0, percent ? 1e6 : 1e4, &v) < 0)
		return -1;
	*out = percent ? v / 100.0 : v;
	return 0;
}

int cli_is_tty(FILE *f)
{
	return isatty(fileno(f));
}

int cli_same_file(FILE *a, FILE *b)
{
	struct stat sa, sb;
	if (fstat(fileno(a), &sa) != 0 || fstat(fileno(b), &sb) != 0)
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int cli_use_color(FILE *f)
{
	const char *term = getenv("TERM");
	if (getenv("NO_COLOR") || !cli_is_tty(f))
		return 0;
	return !(term && strcmp(term, "dumb") == 0);
}

/* One number with its unit: h, m or s (a bare number is seconds). */
static int duration_part(const char **p, double *out)
{
	char *end;
	errno = 0;
	if (!isdigit((unsigned char)**p) && **p != '.')
		return -1;
	double v = strtod(*p, &end);
	if (errno || end == *p || !isfinite(v) || v < 0)
		return -1;
	double unit = *end == 'h' ? 3600 : *end == 'm' ? 60 : 1;
	if (*end == 'h' || *end == 'm' || *end == 's')
		end++;
	*out = v * unit;
	*p = end;
	return 0;
}

int cli_parse_duration(const char *s, double *out)
{
	const char *p = s;
	double total = 0;
	int parts = 0;
	if (!s || !*s || s[strspn(s, "0123456789.hms")] != '\0')
		return -1;
	while (*p) {
		const char *before = p;
		double v;
		if (duration_part(&p, &v) < 0)
			return -1;
		/* a unitless number only alone: "90" is 90 s, "1h30" is refused */
		if (p > before && !strchr("hms", p[-1]) && (parts || *p))
			return -1;
		total += v;
		parts++;
	}
	if (!(total > 0) || total > 1e7)
		return -1;
	*out = total;
	return 0;
}
