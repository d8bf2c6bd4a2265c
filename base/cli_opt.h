/* SPDX-License-Identifier: MIT */
/* One table of options per command drives both getopt_long and --help (the shape of libgit2's
 * cli_opt_spec arrays): each row names the option, its argument, its help and what to do. */
#ifndef DBT3_CLI_OPT_H
#define DBT3_CLI_OPT_H
#include "base/util.h"
#include <stddef.h>
#include <stdio.h>

/* What a row does with the option. Rows store through an offset into the struct the parse is
 * given (its "base"), so tables are static const and hold no state. */
enum cli_opt_kind {
	CLI_OPT_END = 0,  /* ends a table */
	CLI_OPT_FLAG,	  /* int at off = 1 */
	CLI_OPT_UNSET,	  /* int at off = 0 (--no-THING of a default on) */
	CLI_OPT_STRING,	  /* const char * at off = the argument (argv's, not copied) */
	CLI_OPT_INT,	  /* int at off, cli_parse_long within [min, max] */
	CLI_OPT_LONG,	  /* long at off, the same */
	CLI_OPT_SIZE,	  /* size_t at off, the same (min >= 0) */
	CLI_OPT_DOUBLE,	  /* double at off, cli_parse_double within [min, max] */
	CLI_OPT_FRACTION, /* double at off, cli_parse_fraction ("3%" or 0.03), then (min, max] */
	CLI_OPT_DURATION, /* double at off, seconds by cli_parse_duration */
	CLI_OPT_LIST,	  /* appends the argument to const char *[max] at off, its count an int at
			     off2; more than max is refused */
	CLI_OPT_CALL,	  /* fn(base + off, row, arg, err): 0, or < 0 with err's message (none:
			     the row's bad message) */
	CLI_OPT_GROUP,	  /* the rows of table, their offsets from base + off; help: a heading
			     (NULL: the rows listed in place) */
};

/* Row flags. */
enum cli_opt_flag {
	CLI_OPT_HELP = 1 << 0,	 /* --help: stops parsing (the caller prints the usage) */
	CLI_OPT_HIDDEN = 1 << 1, /* parsed, not listed in --help */
};

struct cli_opt;
typedef int (*cli_opt_fn)(void *dst, const struct cli_opt *row, const char *arg,
			  struct errbuf *err);

struct cli_opt {
	enum cli_opt_kind kind;
	const char *name; /* long name without "--"; NULL: a short option only */
	char letter;	  /* short option, 0: none */
	const char *arg;  /* the argument's name in --help ("N", "FILE"); NULL: takes none */
	const char *help; /* help text, wrapped when printed; a group's heading */
	size_t off, off2; /* where the value goes (above) */
	double min, max;  /* bounds of INT, LONG, DOUBLE, FRACTION */
	const char *bad;  /* the message for a bad value, "%s" standing for it; NULL: a default */
	const char *old;  /* an old long name still accepted, said in --help */
	unsigned flags;	  /* enum cli_opt_flag */
	unsigned tags;	  /* bits of the command's own: cli_opts_given() tells which were given */
	int code;	  /* for fn: which option of a shared parser */
	cli_opt_fn fn;
	const struct cli_opt *table; /* CLI_OPT_GROUP */
	const char *values; /* the words an enumerated argument takes, '|' between them, for the
			       man pages and shell completion (dbt3stab --describe-options) */
};

/* The rows every command has: -h/--help and -q/--quiet (text: what quiet leaves out), into the
 * int members m of type t. */
#define CLI_ROW_HELP(t, m)                                                                         \
	{                                                                                          \
		.kind = CLI_OPT_FLAG, .name = "help", .letter = 'h', .help = "this help",          \
		.off = offsetof(t, m), .flags = CLI_OPT_HELP                                       \
	}
#define CLI_ROW_QUIET(t, m, text)                                                                  \
	{                                                                                          \
		.kind = CLI_OPT_FLAG, .name = "quiet", .letter = 'q', .help = text,                \
		.off = offsetof(t, m)                                                              \
	}

/* The two commonest rows: a flag and a string, into member m of type t. */
#define CLI_ROW_FLAG(n, l, t, m, text)                                                             \
	{                                                                                          \
		.kind = CLI_OPT_FLAG, .name = n, .letter = l, .off = offsetof(t, m), .help = text  \
	}
#define CLI_ROW_STRING(n, l, a, t, m, text)                                                        \
	{                                                                                          \
		.kind = CLI_OPT_STRING, .name = n, .letter = l, .arg = a, .off = offsetof(t, m),   \
		.help = text                                                                       \
	}

/* A bounded number (k: CLI_OPT_INT, _LONG, _SIZE, _DOUBLE or _FRACTION) with its argument's name
 * a, into member m of type t; msg: the message for a value not in [lo, hi]. */
#define CLI_ROW_NUM(k, n, a, t, m, lo, hi, msg, text)                                              \
	{                                                                                          \
		.kind = k, .name = n, .arg = a, .off = offsetof(t, m), .min = lo, .max = hi,       \
		.bad = msg, .help = text                                                           \
	}

/* A row whose action is f (CLI_OPT_CALL) on member m of type t; msg as for CLI_ROW_NUM (NULL:
 * f's own message). */
#define CLI_ROW_CALL(n, a, f, t, m, msg, text)                                                     \
	{                                                                                          \
		.kind = CLI_OPT_CALL, .name = n, .arg = a, .fn = f, .off = offsetof(t, m),         \
		.bad = msg, .help = text                                                           \
	}

/* CLI_ROW_CALL of an argument taking one of the words vals ("a|b|c", the row's .values). */
#define CLI_ROW_ENUM(n, a, f, t, m, vals, msg, text)                                               \
	{                                                                                          \
		.kind = CLI_OPT_CALL, .name = n, .arg = a, .fn = f, .off = offsetof(t, m),         \
		.values = vals, .bad = msg, .help = text                                           \
	}

/* The rows of another table (a fragment several commands share) into member m of type t, under
 * heading (NULL: listed in place). */
#define CLI_ROW_GROUP(tab, heading, t, m)                                                          \
	{                                                                                          \
		.kind = CLI_OPT_GROUP, .help = heading, .table = tab, .off = offsetof(t, m)        \
	}

#define CLI_OPT_NTAGS 16

/* One parse: what to parse into, and what it saw. */
struct cli_parse {
	const char *cmd; /* for messages: "dbt3stab CMD: ..." */
	void *base;	 /* the struct the rows' offsets are into */
	int help;	 /* out: a CLI_OPT_HELP row was given (parsing stopped there) */
	int next;	 /* out: index in argv of the first operand (argv is permuted) */
	char given[CLI_OPT_NTAGS][64]; /* out: per tag bit, the last option given with it */
};

/* Parses argv[1..] (argv[0] the command) with the rows of opts into p->base. CLI_OK, or CLI_USAGE
 * after one line on stderr: an unknown option, a missing or bad value. p->cmd and p->base set by
 * the caller; the rest is filled. Operands stay in argv[p->next..argc-1]. */
int cli_opts_parse(struct cli_parse *p, const struct cli_opt *opts, int argc, char **argv);

/* Calls fn(ctx, row, words, n) for each option of argv, in order, without doing what the rows
 * say: row is its row, words[0..n-1] the option and its value as given (argv is not changed).
 * 0, or -1 when argv has an unknown option or a missing value, or out of memory. */
typedef void (*cli_opt_scan_fn)(void *ctx, const struct cli_opt *row, char *const *words, int n);
int cli_opts_scan(const struct cli_opt *opts, int argc, char *const *argv, cli_opt_scan_fn fn,
		  void *ctx);

/* "--NAME" (or "-L") of the option given last among the rows with tag bit (1 << bit), NULL when
 * none was. */
const char *cli_opts_given(const struct cli_parse *p, int bit);

/* The rows as --help lists them: "  -s, --scale SF" then the help wrapped at width 79 from
 * column 27, a group under its heading after a blank line. */
void cli_opts_usage(FILE *f, const struct cli_opt *opts);

/* Nonzero when row is one of table's, its groups' included. */
int cli_opts_has(const struct cli_opt *table, const struct cli_opt *row);

#endif
