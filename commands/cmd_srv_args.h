/* SPDX-License-Identifier: MIT */
/* The getopt loop of the commands that take the server options (server, load, query): their own
 * options, --help, --quiet and the options of srv_long_options, with one message per bad option
 * or value. run takes the placement options too and keeps a loop of its own. */
#ifndef DBT3_CMD_SRV_ARGS_H
#define DBT3_CMD_SRV_ARGS_H
#include "server/srv.h"
#include <getopt.h>

enum { CMD_SRV_OPT_HELP = 'h', CMD_SRV_OPT_QUIET = 'q' };

struct cmd_srv_args {
	struct srv_opts srv; /* the server options; srv_opts_release() them in every case */
	int help, quiet;
};

/* Takes one option of the command's own: 0 taken, -1 not one of its options, or the exit code
 * (> 0) of the one line it printed for a bad value. */
typedef int (*cmd_srv_own_fn)(void *ctx, int c, const char *arg);

/* srv_opts_init(&out->srv), then parses argv with getopt_long (short options shortopts, which
 * starts with ':' and holds "hq"; long options own_opts, --help, --quiet and the server ones),
 * the command's own options through own(ctx). Stops at --help (out->help set). CLI_OK with
 * optind at the first operand, or the exit code of the one line printed. */
int cmd_srv_args_parse(struct cmd_srv_args *out, int argc, char **argv, const char *shortopts,
		       const struct option *own_opts, cmd_srv_own_fn own, void *ctx);

#endif
