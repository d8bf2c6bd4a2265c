/* SPDX-License-Identifier: MIT */
/* The getopt loop pin and doctor share. */
#include "commands/cmd_pin_opts.h"
#include "base/cli.h"
#include "base/util.h"
#include <string.h>

int cmd_pin_args_parse(struct cmd_pin_args *out, int argc, char **argv,
		       const struct option *longopts, cmd_pin_own_fn own, void *ctx)
{
	struct errbuf err = {{0}};
	int c;
	memset(out, 0, sizeof(*out));
	cli_getopt_reset();
	while ((c = getopt_long(argc, argv, ":hq", longopts, NULL)) != -1) {
		int r = pin_opts_parse(&out->pin, c, optarg, &err);
		if (r < 0)
			return cli_usage_error(argv[0], "%s", err.msg);
		if (r > 0)
			continue;
		switch (c) {
		case CMD_PIN_OPT_HELP:
			out->help = 1;
			return CLI_OK;
		case CMD_PIN_OPT_QUIET:
			out->quiet = 1;
			break;
		case CMD_PIN_OPT_JSON:
			out->as_json = 1;
			break;
		default:
			if (own(ctx, c, optarg) < 0)
				return cli_bad_option(argv[0], c, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error(argv[0], "unexpected argument '%s'", argv[optind]);
	return CLI_OK;
}
