/* SPDX-License-Identifier: MIT */
#include "runner/cli.h"
#include "runner/cmd.h"

int cmd_server(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("'server' is not implemented yet");
	return CLI_FOUND;
}
