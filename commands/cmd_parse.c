/* SPDX-License-Identifier: MIT */
/* What every command's parse does (commands/cmd.h). */
#include "commands/cmd.h"
#include "base/cli.h"
#include "commands/cmd_describe.h"
#include <string.h>

int cmd_parse(struct cli_parse *p, const struct cli_opt *opts, void (*usage)(FILE *f),
	      int max_operands, int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], CMD_DESCRIBE_ARG) == 0) { /* the build's doc generator */
		p->help = 1;
		return cmd_describe(stdout, opts, usage) < 0 ? CLI_IO : CLI_OK;
	}
	int rc = cli_opts_parse(p, opts, argc, argv);
	if (rc != CLI_OK)
		return rc;
	if (p->help) {
		usage(stdout);
		return CLI_OK;
	}
	if (max_operands >= 0 && argc - p->next > max_operands)
		return cli_usage_error(p->cmd, "unexpected argument '%s'",
				       argv[p->next + max_operands]);
	return CLI_OK;
}
