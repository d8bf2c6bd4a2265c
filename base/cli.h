/* SPDX-License-Identifier: MIT */
/* Command-line helpers shared by every cmd_<name>.c: exit codes, messages, number parsing. */
#ifndef DBT3_CLI_H
#define DBT3_CLI_H
#include <stddef.h>
#include <stdio.h>

/* Exit codes, documented in README.md. */
enum cli_exit {
	CLI_OK = 0,           /* success */
	CLI_FOUND = 1,        /* the check found something (compare: regression) or a run-time failure */
	CLI_USAGE = 2,        /* usage or input error: bad flag, bad value, malformed file */
	CLI_IO = 2,           /* a file or standard output cannot be read or written, out of memory:
			       * never 1, which for compare means "regression" */
	CLI_WRONG = 3,        /* wrong query results */
	CLI_SERVER = 4,       /* the database server failed: cannot start, crashed too often, lost */
	CLI_INTERRUPTED = 130 /* SIGINT/SIGTERM; servers the tool started were stopped */
};

#define CLI_PRINTF(n, m) __attribute__((format(printf, n, m)))

/* "dbt3stab: <msg>" on stderr. */
void cli_error(const char *fmt, ...) CLI_PRINTF(1, 2);

/* "dbt3stab: warning: <msg>" on stderr. */
void cli_warn(const char *fmt, ...) CLI_PRINTF(1, 2);

/* An informational line on stderr, unless quiet. */
void cli_info(int quiet, const char *fmt, ...) CLI_PRINTF(2, 3);

/* One-line usage error plus a hint to "dbt3stab <cmd> --help"; returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) CLI_PRINTF(2, 3);

/* Reports getopt_long's '?' or ':' result for cmd (call with opterr = 0); returns CLI_USAGE.
 * cli_opts_parse (base/cli_opt.h) calls it; commands parse with an option table. */
int cli_bad_option(const char *cmd, int c, char **argv);

/* Resets getopt_long for a fresh parse of a subcommand's argv. */
void cli_getopt_reset(void);

/* Strict number parsing: the whole string (no white space before it), within [min, max]; 0 on
 * success, -1 otherwise. */
int cli_parse_long(const char *s, long min, long max, long *out);
int cli_parse_double(const char *s, double min, double max, double *out);

/* A percentage like "3%" or "0.03" becomes 0.03; 0 on success, -1 otherwise. */
int cli_parse_fraction(const char *s, double *out);

/* A duration like "45m", "90s", "1h30m", "1.5h" or "90" (seconds) in seconds; > 0 and at most
 * 1e7 s. 0 on success, -1 otherwise. */
int cli_parse_duration(const char *s, double *out);

/* Nonzero when f is a terminal that should get colour (NO_COLOR unset, TERM not dumb). */
int cli_use_color(FILE *f);

/* Nonzero when f is a terminal (for progress displays). */
int cli_is_tty(FILE *f);

/* Nonzero when a and b write to the same open file (device and inode): one terminal, one log
 * file, one pipe. A report on a that carries its warnings then needs no copy of them on b. */
int cli_same_file(FILE *a, FILE *b);

#endif
