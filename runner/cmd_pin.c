/* SPDX-License-Identifier: MIT */
#include "runner/cli.h"
#include "runner/cmd.h"

int cmd_pin(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'pin' is not implemented yet");
	return CLI_FOUND;
}
