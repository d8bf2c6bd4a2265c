/* SPDX-License-Identifier: MIT */
/* The getopt loop server, load and query share. */
#include "commands/cmd_srv_args.h"
#include "base/cli.h"
#include "base/util.h"
#include <stdlib.h>
#include <string.h>

static const struct option common_opts[] = {
    {"quiet", no_argument, NULL, CMD_SRV_OPT_QUIET},
    {"help", no_argument, NULL, CMD_SRV_OPT_HELP},
    {NULL, 0, NULL, 0},
};

/* One getopt_long result: 0 taken (or help: out->help set), else the exit code. */
static int take(struct cmd_srv_args *out, int c, char **argv, cmd_srv_own_fn own, void *ctx)
{
	struct errbuf err = {{0}};
	int r;
	switch (c) {
	case CMD_SRV_OPT_HELP:
		out->help = 1;
		return 0;
	case CMD_SRV_OPT_QUIET:
		out->quiet = 1;
		return 0;
	case '?':
	case ':':
		return cli_bad_option(argv[0], c, argv);
	}
	if ((r = own(ctx, c, optarg)) >= 0)
		return r;
	if ((r = srv_opts_parse(&out->srv, c, optarg, &err)) < 0)
		return cli_usage_error(argv[0], "%s", err.msg);
	return r ? 0 : cli_bad_option(argv[0], c, argv);
}

int cmd_srv_args_parse(struct cmd_srv_args *out, int argc, char **argv, const char *shortopts,
		       const struct option *own_opts, cmd_srv_own_fn own, void *ctx)
{
	const struct option *const tables[] = {own_opts, common_opts, srv_long_options, NULL};
	int c, rc = CLI_OK;
	memset(out, 0, sizeof(*out));
	srv_opts_init(&out->srv);
	struct option *longopts = cli_options_merge(tables);
	if (!longopts) {
		cli_error("out of memory");
		return CLI_IO;
	}
	cli_getopt_reset();
	while (rc == CLI_OK && !out->help &&
	       (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1)
		rc = take(out, c, argv, own, ctx);
	free(longopts);
	return rc;
}
