/* SPDX-License-Identifier: MIT */
#include "runner/cli.h"
#include "runner/cmd.h"

int cmd_load(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'load' is not implemented yet");
	return CLI_FOUND;
}
