/* SPDX-License-Identifier: MIT */
#include "runner/cli.h"
#include "runner/cmd.h"

int cmd_summary(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'summary' is not implemented yet");
	return CLI_FOUND;
}
