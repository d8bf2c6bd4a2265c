/* SPDX-License-Identifier: MIT */
/* dbt3stab queries: print or write the 22 statements. */
#include "base/cli.h"
#include "base/safe_write.h"
#include "dbt3/qry.h"
#include "commands/cmd.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_SEED = 1, OPT_SCALE = 's', OPT_OUT = 'o', OPT_QUIET = 'q', OPT_HELP = 'h' };

static void usage(FILE *f)
{
	fprintf(f, "usage: dbt3stab queries [-s SF] [--seed N] [-o DIR]\n"
		   "\n"
		   "Prints the 22 DBT-3 queries (MySQL/MariaDB dialect) with their substitution\n"
		   "parameters, or writes them to DIR/1.sql ... DIR/22.sql. Q15's view statements\n"
		   "are included around its timed SELECT.\n"
		   "\n"
		   "options:\n"
		   "  -s, --scale SF   scale factor (changes Q11's fraction only; default 1)\n"
		   "  --seed N         parameters as TPC-H qgen -r N draws them (default: the\n"
		   "                   validation parameters, qgen -d)\n"
		   "  -o, --output DIR write one file per query instead of printing\n"
		   "  -q, --quiet      no messages\n"
		   "  -h, --help       this help\n"
		   "\nexit: 0 ok, 1 failure, 2 usage, or the statements cannot be written\n");
}

/* DIR/N.sql must each be absent or a regular file: checked before any is written. CLI_OK or
 * CLI_USAGE after one line. */
static int check_targets(const char *dir)
{
	char path[4096];
	struct errbuf err;
	for (int id = 1; id <= QRY_COUNT; id++) {
		snprintf(path, sizeof(path), "%s/%d.sql", dir, id);
		if (util_out_kind_check(path, &err) < 0) {
			cli_error("%s", err.msg);
			return CLI_USAGE;
		}
	}
	return CLI_OK;
}

int cmd_queries(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"scale", required_argument, NULL, OPT_SCALE},
	    {"seed", required_argument, NULL, OPT_SEED},
	    {"output", required_argument, NULL, OPT_OUT},
	    {"quiet", no_argument, NULL, OPT_QUIET},
	    {"help", no_argument, NULL, OPT_HELP},
	    {NULL, 0, NULL, 0},
	};
	struct qry_opts qo = {.sf = 1};
	const char *dir = NULL;
	int quiet = 0, c;
	cli_getopt_reset();
	while ((c = getopt_long(argc, argv, ":s:o:qh", opts, NULL)) != -1) {
		switch (c) {
		case OPT_SCALE:
			if (cli_parse_double(optarg, 1e-6, 100000, &qo.sf) < 0)
				return cli_usage_error(argv[0], "invalid scale factor '%s'",
						       optarg);
			break;
		case OPT_SEED:
			if (cli_parse_long(optarg, 1, 2147483646, &qo.seed) < 0)
				return cli_usage_error(
				    argv[0], "--seed takes 1 to 2147483646, not '%s'", optarg);
			qo.seeded = 1;
			break;
		case OPT_OUT:
			dir = optarg;
			break;
		case OPT_QUIET:
			quiet = 1;
			break;
		case OPT_HELP:
			usage(stdout);
			return CLI_OK;
		default:
			return cli_bad_option(argv[0], c, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error(argv[0], "unexpected argument '%s'", argv[optind]);
	if (dir && !*dir)
		return cli_usage_error(argv[0], "an empty output directory (-o)");
	if (dir && util_mkdir_p(dir) < 0) {
		cli_error("cannot create directory '%s': %s", dir, strerror(errno));
		return CLI_USAGE; /* a bad -o, like every bad argument */
	}
	if (dir && check_targets(dir) != CLI_OK)
		return CLI_USAGE;
	for (int id = 1; id <= QRY_COUNT; id++) {
		struct qry q;
		struct errbuf err;
		if (qry_build(&q, id, &qo, &err) < 0) {
			cli_error("%s", err.msg);
			return CLI_FOUND;
		}
		char *text = qry_text(&q);
		qry_release(&q);
		if (!text) {
			cli_error("out of memory");
			return CLI_IO;
		}
		if (dir) {
			char path[4096];
			snprintf(path, sizeof(path), "%s/%d.sql", dir, id);
			int r = util_write_atomic(path, text, strlen(text), &err);
			free(text);
			if (r < 0) {
				cli_error("%s", err.msg);
				return CLI_IO;
			}
		} else {
			printf("%s%s", id > 1 ? "\n" : "", text);
			free(text);
		}
	}
	if (dir)
		cli_info(quiet, "wrote %d queries to '%s'", QRY_COUNT, dir);
	return CLI_OK;
}
