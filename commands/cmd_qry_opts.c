/* SPDX-License-Identifier: MIT */
/* The qgen seed's row. */
#include "commands/cmd_qry_opts.h"
#include "base/cli.h"

/* qgen -r N: a seed in 1..2147483646 (0 leaves the stream at 0). */
static int take_seed(void *dst, const struct cli_opt *row, const char *arg, struct errbuf *err)
{
	struct qry_opts *o = dst;
	(void)row;
	(void)err;
	if (cli_parse_long(arg, 1, 2147483646, &o->seed) < 0)
		return -1;
	o->seeded = 1;
	return 0;
}

const struct cli_opt cmd_qry_seed_options[] = {
    {.kind = CLI_OPT_CALL,
     .name = "seed",
     .arg = "N",
     .fn = take_seed,
     .bad = "--seed takes 1 to 2147483646, not '%s'",
     .help = "parameters as TPC-H qgen -r N draws them (default: the validation "
	     "parameters, qgen -d)"},
    {.kind = CLI_OPT_END},
};
