/* SPDX-License-Identifier: MIT */
/* The option tables of base/cli_opt.h: parsing into a struct, messages, aliases, --help. */
#include "base/cli.h"
#include "base/cli_opt.h"
#include "tests/harness.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct inner {
	int level;
	const char *where;
};

struct args {
	int verbose, keep, on, count, help, n_items;
	long big;
	size_t pairs;
	double ratio, share, seconds;
	const char *name, *items[2];
	struct inner in;
	char mode;
};

static int take_mode(void *dst, const struct cli_opt *row, const char *arg, struct errbuf *err)
{
	(void)row;
	(void)err;
	if (strcmp(arg, "a") != 0 && strcmp(arg, "b") != 0)
		return -1;
	*(char *)dst = arg[0];
	return 0;
}

static int take_fails(void *dst, const struct cli_opt *row, const char *arg, struct errbuf *err)
{
	(void)dst;
	(void)row;
	return errbuf_set(err, "the callback says no to '%s'", arg);
}

static const struct cli_opt inner_rows[] = {
    {.kind = CLI_OPT_INT,
     .name = "level",
     .arg = "N",
     .off = offsetof(struct inner, level),
     .min = 1,
     .max = 9,
     .help = "a level"},
    CLI_ROW_STRING("where", 0, "DIR", struct inner, where, "a place"),
    {.kind = CLI_OPT_END},
};

static const struct cli_opt rows[] = {
    {.kind = CLI_OPT_FLAG,
     .name = "verbose",
     .letter = 'v',
     .off = offsetof(struct args, verbose),
     .tags = 1u << 0,
     .help = "say more"},
    {.kind = CLI_OPT_FLAG,
     .name = "keep-decided",
     .old = "keep-all",
     .off = offsetof(struct args, keep),
     .tags = 1u << 1,
     .help = "keep them"},
    {.kind = CLI_OPT_UNSET, .name = "no-on", .off = offsetof(struct args, on), .help = "off"},
    {.kind = CLI_OPT_INT,
     .name = "count",
     .letter = 'n',
     .arg = "N",
     .off = offsetof(struct args, count),
     .min = 1,
     .max = 10,
     .tags = 1u << 0,
     .help = "how many"},
    {.kind = CLI_OPT_LONG,
     .name = "big",
     .arg = "N",
     .off = offsetof(struct args, big),
     .min = -5,
     .max = 5000000000L,
     .bad = "--big takes -5 to 5e9, not '%s' (100% sure)",
     .help = "a long"},
    {.kind = CLI_OPT_SIZE,
     .name = "pairs",
     .arg = "K",
     .off = offsetof(struct args, pairs),
     .min = 2,
     .max = 128,
     .help = "a size"},
    {.kind = CLI_OPT_DOUBLE,
     .name = "ratio",
     .arg = "R",
     .off = offsetof(struct args, ratio),
     .min = 0,
     .max = 1,
     .help = "a ratio"},
    {.kind = CLI_OPT_FRACTION,
     .name = "share",
     .arg = "PCT",
     .off = offsetof(struct args, share),
     .min = 0,
     .max = 1,
     .help = "a share"},
    {.kind = CLI_OPT_DURATION,
     .name = "time",
     .arg = "D",
     .off = offsetof(struct args, seconds),
     .help = "a duration"},
    CLI_ROW_STRING("name", 0, "TEXT", struct args, name, "a name"),
    {.kind = CLI_OPT_LIST,
     .name = "item",
     .arg = "X",
     .off = offsetof(struct args, items),
     .off2 = offsetof(struct args, n_items),
     .max = 2,
     .bad = "at most 2 items",
     .help = "an item (repeatable)"},
    {.kind = CLI_OPT_CALL,
     .name = "mode",
     .arg = "a|b",
     .off = offsetof(struct args, mode),
     .fn = take_mode,
     .bad = "--mode is a or b, not '%s'",
     .help = "the mode"},
    {.kind = CLI_OPT_CALL,
     .name = "fails",
     .arg = "X",
     .fn = take_fails,
     .flags = CLI_OPT_HIDDEN,
     .help = "never shown"},
    CLI_ROW_HELP(struct args, help),
    {.kind = CLI_OPT_GROUP,
     .help = "inner options",
     .table = inner_rows,
     .off = offsetof(struct args, in)},
    {.kind = CLI_OPT_END},
};

/* Parses the words of line (split at spaces, "t" as argv[0]) into *a; *msg gets what went to
 * stderr (its first line). The exit code. */
static int parse_line(const char *line, struct args *a, struct cli_parse *p, char *msg, size_t len)
{
	char buf[512], *argv[32];
	int argc = 0;
	snprintf(buf, sizeof(buf), "t %s", line);
	for (char *w = strtok(buf, " "); w && argc < 31; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	memset(a, 0, sizeof(*a));
	a->on = 1;
	memset(p, 0, sizeof(*p));
	p->cmd = "t";
	p->base = a;
	FILE *err = tmpfile();
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	fflush(stderr);
	int saved = dup(STDERR_FILENO);
	dup2(fileno(err), STDERR_FILENO);
	int rc = cli_opts_parse(p, rows, argc, argv);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(err);
	msg[0] = '\0';
	if (!fgets(msg, (int)len, err))
		msg[0] = '\0';
	msg[strcspn(msg, "\n")] = '\0';
	fclose(err);
	return rc;
}

TH_TEST(cli_opt, every_kind_lands_in_its_member)
{
	struct args a;
	struct cli_parse p;
	char msg[512];
	int rc = parse_line("-v --count 3 --big 4000000000 --pairs 7 --ratio 0.25 --share 3% "
			    "--time 1h30m --name x --item p --item q --mode b --no-on --level 4 "
			    "--where d operand",
			    &a, &p, msg, sizeof(msg));
	CU_ASSERT_EQUAL_FATAL(rc, CLI_OK);
	CU_ASSERT_STRING_EQUAL(msg, "");
	CU_ASSERT_EQUAL(a.verbose, 1);
	CU_ASSERT_EQUAL(a.count, 3);
	CU_ASSERT_EQUAL(a.big, 4000000000L);
	CU_ASSERT_EQUAL(a.pairs, 7);
	CU_ASSERT_DOUBLE_EQUAL(a.ratio, 0.25, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(a.share, 0.03, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(a.seconds, 5400, 1e-9);
	CU_ASSERT_STRING_EQUAL(a.name, "x");
	CU_ASSERT_EQUAL(a.n_items, 2);
	CU_ASSERT_STRING_EQUAL(a.items[1], "q");
	CU_ASSERT_EQUAL(a.mode, 'b');
	CU_ASSERT_EQUAL(a.on, 0);
	CU_ASSERT_EQUAL(a.in.level, 4); /* a group's rows land in its member */
	CU_ASSERT_STRING_EQUAL(a.in.where, "d");
	CU_ASSERT_EQUAL(p.help, 0);
	CU_ASSERT_EQUAL(p.next, 27); /* the operand, after "t" and the 26 option words */
}

TH_TEST(cli_opt, unknown_option_is_one_line_exit_2)
{
	struct args a;
	struct cli_parse p;
	char msg[512];
	CU_ASSERT_EQUAL(parse_line("--nosuch", &a, &p, msg, sizeof(msg)), CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(msg,
			       "dbt3stab t: unknown option '--nosuch' (see 'dbt3stab t --help')");
	CU_ASSERT_EQUAL(parse_line("-x", &a, &p, msg, sizeof(msg)), CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(msg, "dbt3stab t: unknown option '-x' (see 'dbt3stab t --help')");
	/* a flag takes no value: named without it, never by its code as a letter */
	CU_ASSERT_EQUAL(parse_line("--verbose=1", &a, &p, msg, sizeof(msg)), CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(
	    msg, "dbt3stab t: option '--verbose' takes no value (see 'dbt3stab t --help')");
	CU_ASSERT_EQUAL(parse_line("--keep-all=yes", &a, &p, msg, sizeof(msg)), CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(
	    msg, "dbt3stab t: option '--keep-all' takes no value (see 'dbt3stab t --help')");
}

TH_TEST(cli_opt, missing_value_is_named)
{
	struct args a;
	struct cli_parse p;
	char msg[512];
	CU_ASSERT_EQUAL(parse_line("--count", &a, &p, msg, sizeof(msg)), CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(
	    msg, "dbt3stab t: option '--count' needs a value (see 'dbt3stab t --help')");
	CU_ASSERT_EQUAL(parse_line("-n", &a, &p, msg, sizeof(msg)), CLI_USAGE);
	CU_ASSERT_STRING_EQUAL(msg,
			       "dbt3stab t: option '-n' needs a value (see 'dbt3stab t --help')");
}

TH_TEST(cli_opt, bad_numbers_are_refused_with_their_message)
{
	static const struct {
		const char *line, *msg;
	} cases[] = {
	    {"--count 11", "--count needs an integer in 1..10, not '11'"},
	    {"-n 3x", "-n needs an integer in 1..10, not '3x'"},
	    {"--big 5000000001", "--big takes -5 to 5e9, not '5000000001' (100% sure)"},
	    {"--pairs 1", "--pairs needs an integer in 2..128, not '1'"},
	    {"--ratio 1.5", "bad --ratio '1.5'"},
	    {"--ratio nan", "bad --ratio 'nan'"},
	    {"--share 0", "bad --share '0'"}, /* a fraction above min, not at it */
	    {"--share 150%", "bad --share '150%'"},
	    {"--time 1h30", "bad --time '1h30'"},
	    {"--level 0", "--level needs an integer in 1..9, not '0'"},
	    {"--mode c", "--mode is a or b, not 'c'"},
	    {"--fails v", "the callback says no to 'v'"},
	    {"--item a --item b --item c", "at most 2 items"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct args a;
		struct cli_parse p;
		char msg[512], want[600];
		snprintf(want, sizeof(want), "dbt3stab t: %s (see 'dbt3stab t --help')",
			 cases[i].msg);
		CU_ASSERT_EQUAL(parse_line(cases[i].line, &a, &p, msg, sizeof(msg)), CLI_USAGE);
		CU_ASSERT_STRING_EQUAL(msg, want);
	}
}

TH_TEST(cli_opt, old_name_is_an_alias_and_tags_tell_what_was_given)
{
	struct args a;
	struct cli_parse p;
	char msg[512];
	CU_ASSERT_EQUAL(parse_line("--keep-all", &a, &p, msg, sizeof(msg)), CLI_OK);
	CU_ASSERT_EQUAL(a.keep, 1);
	CU_ASSERT_STRING_EQUAL(cli_opts_given(&p, 1), "--keep-all"); /* as spelled */
	CU_ASSERT_PTR_NULL(cli_opts_given(&p, 0));
	CU_ASSERT_EQUAL(parse_line("--keep-decided -n 2 -v", &a, &p, msg, sizeof(msg)), CLI_OK);
	CU_ASSERT_STRING_EQUAL(cli_opts_given(&p, 1), "--keep-decided");
	CU_ASSERT_STRING_EQUAL(cli_opts_given(&p, 0), "-v"); /* the last of its tag */
	CU_ASSERT_PTR_NULL(cli_opts_given(&p, 7));
}

TH_TEST(cli_opt, help_stops_the_parse)
{
	struct args a;
	struct cli_parse p;
	char msg[512];
	CU_ASSERT_EQUAL(parse_line("--help --nosuch", &a, &p, msg, sizeof(msg)), CLI_OK);
	CU_ASSERT_EQUAL(p.help, 1);
	CU_ASSERT_EQUAL(parse_line("--nosuch --help", &a, &p, msg, sizeof(msg)), CLI_USAGE);
}

/* The expected text follows the rule by hand: the left column at 2, the help at 2 + the widest
 * left column ("--keep-decided", 14) + 2 = 18, groups under their heading after a blank line,
 * hidden rows left out, an old name said. */
TH_TEST(cli_opt, help_text_is_generated_from_the_table)
{
	static const char want[] = "  -v, --verbose   say more\n"
				   "  --keep-decided  keep them (old name: --keep-all)\n"
				   "  --no-on         off\n"
				   "  -n, --count N   how many\n"
				   "  --big N         a long\n"
				   "  --pairs K       a size\n"
				   "  --ratio R       a ratio\n"
				   "  --share PCT     a share\n"
				   "  --time D        a duration\n"
				   "  --name TEXT     a name\n"
				   "  --item X        an item (repeatable)\n"
				   "  --mode a|b      the mode\n"
				   "  -h, --help      this help\n"
				   "\n"
				   "inner options:\n"
				   "  --level N       a level\n"
				   "  --where DIR     a place\n";
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	cli_opts_usage(f, rows);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, want);
	free(buf);
}

TH_TEST(cli_opt, long_help_wraps_at_79_and_long_names_get_their_own_line)
{
	static const struct cli_opt t[] = {
	    {.kind = CLI_OPT_FLAG,
	     .name = "a",
	     .help = "one two three four five six seven eight nine ten eleven twelve thirteen "
		     "fourteen"},
	    {.kind = CLI_OPT_STRING,
	     .name = "a-very-long-option-name",
	     .arg = "VALUE",
	     .help = "short\nnext line"},
	    {.kind = CLI_OPT_END},
	};
	/* widest visible left column under 24: "--a" (3), so help at column 7 */
	static const char want[] = "  --a  one two three four five six seven eight nine ten eleven "
				   "twelve thirteen\n"
				   "       fourteen\n"
				   "  --a-very-long-option-name VALUE\n"
				   "       short\n"
				   "       next line\n";
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	cli_opts_usage(f, t);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, want);
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		CU_ASSERT(strlen(line) <= 79);
	free(buf);
}

struct scanned {
	char words[256];
};

static void on_scan(void *ctx, const struct cli_opt *row, char *const *words, int n)
{
	struct scanned *s = ctx;
	size_t at = strlen(s->words);
	at += (size_t)snprintf(s->words + at, sizeof(s->words) - at, "[%s:", row->name);
	for (int i = 0; i < n; i++)
		at += (size_t)snprintf(s->words + at, sizeof(s->words) - at, " %s", words[i]);
	snprintf(s->words + at, sizeof(s->words) - at, "]");
}

TH_TEST(cli_opt, scan_reports_rows_and_words_without_acting)
{
	char *argv[] = {"t", "-n3", "--where", "d", "--keep-all", "--level=2", NULL};
	struct scanned s = {""};
	CU_ASSERT_EQUAL(cli_opts_scan(rows, 6, argv, on_scan, &s), 0);
	CU_ASSERT_STRING_EQUAL(
	    s.words, "[count: -n3][where: --where d][keep-decided: --keep-all][level: --level=2]");
	CU_ASSERT_STRING_EQUAL(argv[1], "-n3"); /* argv is not permuted */
	char *bad[] = {"t", "--nosuch", NULL};
	CU_ASSERT_EQUAL(cli_opts_scan(rows, 2, bad, on_scan, &s), -1);
	CU_ASSERT(cli_opts_has(rows, &inner_rows[1]));
	CU_ASSERT(!cli_opts_has(inner_rows, &rows[0]));
}

TH_MAIN(cli_opt)
