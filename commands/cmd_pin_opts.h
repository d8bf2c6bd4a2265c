/* SPDX-License-Identifier: MIT */
/* The options pin and doctor share (--help, --quiet, --json and the placement options of
 * pin_opts_parse): one getopt loop; each command hands it the options only it knows. */
#ifndef DBT3_CMD_PIN_OPTS_H
#define DBT3_CMD_PIN_OPTS_H
#include "pinning/pin.h"
#include <getopt.h>

enum { CMD_PIN_OPT_HELP = 'h', CMD_PIN_OPT_QUIET = 'q', CMD_PIN_OPT_JSON = 400 };

/* The getopt_long entries of the shared options, to copy into a command's table. */
#define CMD_PIN_LONGOPTS                                                                           \
	{"help", no_argument, NULL, CMD_PIN_OPT_HELP},                                             \
	    {"quiet", no_argument, NULL, CMD_PIN_OPT_QUIET},                                       \
	{                                                                                          \
		"json", no_argument, NULL, CMD_PIN_OPT_JSON                                        \
	}

struct cmd_pin_args {
	struct pin_opts pin;
	int help, quiet, as_json;
};

/* Takes one option of the command's own: 0 taken, -1 not one of its options. */
typedef int (*cmd_pin_own_fn)(void *ctx, int c, const char *arg);

/* Parses argv with longopts into *out (zeroed first), the command's own options through own(ctx).
 * Stops at --help (out->help set). CLI_OK, or the exit code of the one line it printed
 * (bad option or value, an argument left over). */
int cmd_pin_args_parse(struct cmd_pin_args *out, int argc, char **argv,
		       const struct option *longopts, cmd_pin_own_fn own, void *ctx);

#endif
