/* SPDX-License-Identifier: MIT */
#include "runner/cli.h"
#include "runner/cmd.h"

int cmd_gen(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'gen' is not implemented yet");
	return CLI_FOUND;
}
