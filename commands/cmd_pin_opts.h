/* SPDX-License-Identifier: MIT */
/* The placement and stabilizer options pin, doctor and run take (--server-cpus, --no-aslr, ...):
 * fragments of an option table (base/cli_opt.h) that parse into a struct pin_opts through
 * pin_opts_parse. */
#ifndef DBT3_CMD_PIN_OPTS_H
#define DBT3_CMD_PIN_OPTS_H
#include "base/cli_opt.h"
#include "pinning/pin.h"
#include <stddef.h>

/* The rows, their offsets into a struct pin_opts: the placement, and the stabilizers. */
extern const struct cli_opt cmd_pin_options[];
extern const struct cli_opt cmd_stab_options[];

/* A row's action: the option row->code of pin_opts_parse into the struct pin_opts at dst. */
int cmd_pin_take(void *dst, const struct cli_opt *row, const char *arg, struct errbuf *err);

/* The rows of a command's table holding both groups for its member m (a struct pin_opts) of
 * type t, each under its heading. */
#define CMD_PIN_GROUPS(t, m)                                                                       \
	{.kind = CLI_OPT_GROUP,                                                                    \
	 .help = "placement options (see 'dbt3stab pin --explain')",                               \
	 .table = cmd_pin_options,                                                                 \
	 .off = offsetof(t, m)},                                                                   \
	{                                                                                          \
		.kind = CLI_OPT_GROUP,                                                             \
		.help = "stabilizers (each optional, each recorded in the result)",                \
		.table = cmd_stab_options, .off = offsetof(t, m)                                   \
	}

#endif
