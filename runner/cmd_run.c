/* SPDX-License-Identifier: MIT */
#include "runner/cli.h"
#include "runner/cmd.h"

int cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'run' is not implemented yet");
	return CLI_FOUND;
}
