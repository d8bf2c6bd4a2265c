/* SPDX-License-Identifier: MIT */
/* dbt3stab: a restart-aware DBT-3 query regression suite for MySQL and MariaDB. */
#include "base/cli.h"
#include "commands/cmd.h"
#include "commands/cmd_describe.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: dbt3stab [--version] [--help] <command> [<args>]\n\ncommands:\n");
	for (const struct cmd *c = cmd_table; c->name; c++)
		fprintf(f, "  %-9s %s\n", c->name, c->summary);
	fprintf(f, "\n'dbt3stab help <command>' or 'dbt3stab <command> --help' for a command's options.\n");
}

static int run_help(int argc, char **argv)
{
	if (argc < 2) {
		usage(stdout);
		return CLI_OK;
	}
	if (strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return CLI_OK;
	}
	const struct cmd *c = cmd_find(argv[1]);
	if (!c) {
		cli_error("unknown command '%s' (see 'dbt3stab --help')", argv[1]);
		return CLI_USAGE;
	}
	char *help_argv[] = {(char *)c->name, "--help", NULL};
	return c->fn(2, help_argv);
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return CLI_USAGE;
	}
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0)
		return run_help(argc - 1, argv + 1);
	if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
		printf("dbt3stab %s\n", DBT3STAB_VERSION);
		return CLI_OK;
	}
	if (argc == 2 && strcmp(name, CMD_DESCRIBE_ARG) == 0) /* the build's doc generator */
		return cmd_describe_commands(stdout) < 0 ? CLI_IO : CLI_OK;
	const struct cmd *c = cmd_find(name);
	if (!c) {
		cli_error("unknown %s '%s' (see 'dbt3stab --help')",
			  name[0] == '-' ? "option" : "command", name);
		return CLI_USAGE;
	}
	return c->fn(argc - 1, argv + 1);
}

/* Like git's run_builtin(): a failed write of stdout is an error, not a short report. The one
 * place that says so (commands leave it here), with exit 2 in place of 0 or 1: a report that
 * could not be written must not read as "nothing flagged" or "regression". */
static int close_stdout(int rc)
{
	errno = 0;
	int failed = fflush(stdout) != 0;
	int e = errno;
	failed |= ferror(stdout) != 0;
	if (fclose(stdout) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	if (!failed)
		return rc;
	if (e)
		cli_error("cannot write standard output: %s", strerror(e));
	else
		cli_error("cannot write standard output");
	return rc < CLI_IO ? CLI_IO : rc;
}

int main(int argc, char **argv)
{
	return close_stdout(dispatch(argc, argv));
}
