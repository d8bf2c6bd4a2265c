/* SPDX-License-Identifier: MIT */
/* What the man pages and shell completions are generated from (scripts/gen-docs.py at build
 * time): a command's option table and usage text, or the command list, as JSON on stdout. */
#ifndef DBT3_CMD_DESCRIBE_H
#define DBT3_CMD_DESCRIBE_H
#include "base/cli_opt.h"
#include <stdio.h>

/* The hidden first argument of every command that asks for its description. */
#define CMD_DESCRIBE_ARG "--describe-options"

/* {"usage": the --help text, "options_text": its option list, "options": [{"long", "short",
 * "arg", "help", "old", "values": [...], "heading"}...]} of a command's table opts and usage
 * function on f: 0, or -1 when out of memory. Hidden rows are left out, as --help does. */
int cmd_describe(FILE *f, const struct cli_opt *opts, void (*usage)(FILE *f));

/* {"commands": [{"name", "summary"}...], "version"} on f: 0, or -1 when out of memory. */
int cmd_describe_commands(FILE *f);

#endif
