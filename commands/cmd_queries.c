/* SPDX-License-Identifier: MIT */
/* dbt3stab queries: print or write the 22 statements. */
#include "base/cli.h"
#include "base/safe_write.h"
#include "commands/cmd.h"
#include "commands/cmd_qry_opts.h"
#include "dbt3/qry.h"
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the command line says. */
struct queries_args {
	struct qry_opts qo;
	const char *dir;
	int quiet, help;
};

static const struct cli_opt options[] = {
    CMD_ROW_SCALE(struct queries_args, qo.sf, 0,
		  "scale factor (changes Q11's fraction only; default 1)"),
    CMD_QRY_SEED_GROUP(struct queries_args, qo),
    CLI_ROW_STRING("output", 'o', "DIR", struct queries_args, dir,
		   "write one file per query instead of printing"),
    CLI_ROW_QUIET(struct queries_args, quiet, "no messages"),
    CLI_ROW_HELP(struct queries_args, help),
    {.kind = CLI_OPT_END},
};

static void usage(FILE *f)
{
	fputs("usage: dbt3stab queries [-s SF] [--seed N] [-o DIR]\n"
	      "\n"
	      "Prints the 22 DBT-3 queries (MySQL/MariaDB dialect) with their substitution\n"
	      "parameters, or writes them to DIR/1.sql ... DIR/22.sql. Q15's view statements\n"
	      "are included around its timed SELECT.\n"
	      "\n"
	      "options:\n",
	      f);
	cli_opts_usage(f, options);
	fputs("\nexit: 0 ok, 1 failure, 2 usage, or the statements cannot be written\n", f);
}

/* DIR/N.sql (N.sql in dfd) must each be absent or a regular file: checked before any is
 * written. CLI_OK or CLI_USAGE after one line. */
static int check_targets(int dfd, const char *dir)
{
	char path[4096], name[32];
	struct errbuf err;
	for (int id = 1; id <= QRY_COUNT; id++) {
		snprintf(name, sizeof(name), "%d.sql", id);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (util_out_kind_checkat(dfd, name, path, &err) < 0) {
			cli_error("%s", err.msg);
			return CLI_USAGE;
		}
	}
	return CLI_OK;
}

/* Writes the 22 statements to dfd (DIR) or, when dfd is -1, to standard output. A CLI_* code. */
static int write_queries(const struct qry_opts *qo, int dfd, const char *dir)
{
	for (int id = 1; id <= QRY_COUNT; id++) {
		struct qry q;
		struct errbuf err;
		if (qry_build(&q, id, qo, &err) < 0) {
			cli_error("%s", err.msg);
			return CLI_FOUND;
		}
		char *text = qry_text(&q);
		qry_release(&q);
		if (!text) {
			cli_error("out of memory");
			return CLI_IO;
		}
		if (dfd >= 0) {
			char path[4096], name[32];
			snprintf(name, sizeof(name), "%d.sql", id);
			snprintf(path, sizeof(path), "%s/%s", dir, name);
			int r = util_write_fileat(dfd, name, path, text, strlen(text), 0644, &err);
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
	return CLI_OK;
}

int cmd_queries(int argc, char **argv)
{
	struct queries_args a = {.qo = {.sf = 1}};
	struct cli_parse p = {.cmd = "queries", .base = &a};
	int rc = cmd_parse(&p, options, usage, 0, argc, argv);
	if (rc != CLI_OK || p.help)
		return rc;
	const struct qry_opts qo = a.qo;
	const char *dir = a.dir;
	const int quiet = a.quiet;
	if (dir && !*dir)
		return cli_usage_error(argv[0], "an empty output directory (-o)");
	int dfd = -1;
	struct errbuf err;
	if (dir && (dfd = util_outdir_open(dir, 0, NULL, &err)) < 0) {
		cli_error("%s", err.msg);
		return CLI_USAGE; /* a bad -o, like every bad argument */
	}
	rc = dir ? check_targets(dfd, dir) : CLI_OK;
	if (rc == CLI_OK)
		rc = write_queries(&qo, dfd, dir);
	if (dfd >= 0)
		close(dfd);
	if (rc == CLI_OK && dir)
		cli_info(quiet, "wrote %d queries to '%s'", QRY_COUNT, dir);
	return rc;
}
