/* SPDX-License-Identifier: MIT */
/* The subcommand table: one cmd_<name>.c per verb, each taking its own argv (argv[0] = name). */
#ifndef DBT3_CMD_H
#define DBT3_CMD_H
#include "base/cli_opt.h"
#include <stdio.h>

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

int cmd_server(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_queries(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_pin(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_stabilize(int argc, char **argv);

/* The table, terminated by a NULL name. */
extern const struct cmd cmd_table[];

/* Finds a command by name; NULL when unknown. */
const struct cmd *cmd_find(const char *name);

/* The -s/--scale SF row into the double member m of type t, with tags (base/cli_opt.h). */
#define CMD_ROW_SCALE(t, m, tg, text)                                                              \
	{                                                                                          \
		.kind = CLI_OPT_DOUBLE, .name = "scale", .letter = 's', .arg = "SF",               \
		.off = offsetof(t, m), .min = 1e-6, .max = 1e5, .tags = tg,                        \
		.bad = "bad scale factor '%s'", .help = text                                       \
	}

/* What every command's parse does: cli_opts_parse of argv with its table opts into p->base
 * (p->cmd and p->base set by the caller), and --help prints usage(stdout). CLI_OK with the
 * operands in argv[p->next..argc-1] (or, p->help set, with the usage printed and nothing left to
 * do), or CLI_USAGE after one line: a bad option or value, or more than max_operands operands
 * (-1: any number, the command checks them). */
int cmd_parse(struct cli_parse *p, const struct cli_opt *opts, void (*usage)(FILE *f),
	      int max_operands, int argc, char **argv);

#endif
