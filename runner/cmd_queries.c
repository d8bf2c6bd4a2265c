/* SPDX-License-Identifier: MIT */
#include "runner/cli.h"
#include "runner/cmd.h"

int cmd_queries(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'queries' is not implemented yet");
	return CLI_FOUND;
}
