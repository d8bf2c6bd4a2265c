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

/* One placement option (pin_opts_parse's code c) in a command's own table, into its member m (a
 * struct pin_opts) of type t. */
#define CMD_PIN_ROW(n, a, c, t, m, text)                                                           \
	{                                                                                          \
		.kind = CLI_OPT_CALL, .name = n, .arg = a, .code = c, .fn = cmd_pin_take,          \
		.off = offsetof(t, m), .help = text                                                \
	}

/* The rows of a command's table holding both groups for its member m (a struct pin_opts) of
 * type t, each under its heading. */
#define CMD_PIN_GROUPS(t, m)                                                                       \
	CLI_ROW_GROUP(cmd_pin_options, "placement options (see 'dbt3stab pin --explain')", t, m),  \
	    CLI_ROW_GROUP(cmd_stab_options,                                                        \
			  "stabilizers (each optional, each recorded in the result)", t, m)

#endif
