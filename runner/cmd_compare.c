/* SPDX-License-Identifier: MIT */
#include "runner/cli.h"
#include "runner/cmd.h"

int cmd_compare(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'compare' is not implemented yet");
	return CLI_FOUND;
}
