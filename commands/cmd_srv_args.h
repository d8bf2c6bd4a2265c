/* SPDX-License-Identifier: MIT */
/* The server options server, load, query and run take (--datadir, --port, ...): a fragment of
 * an option table (base/cli_opt.h) that parses into a struct srv_opts through srv_opts_parse. */
#ifndef DBT3_CMD_SRV_ARGS_H
#define DBT3_CMD_SRV_ARGS_H
#include "base/cli_opt.h"
#include "server/srv.h"
#include <stddef.h>

/* The rows, their offsets into a struct srv_opts. */
extern const struct cli_opt cmd_srv_options[];

/* A row of a command's table holding the server options of its member m (a struct srv_opts)
 * of type t, under the heading "server options". */
#define CMD_SRV_GROUP(t, m) CLI_ROW_GROUP(cmd_srv_options, "server options", t, m)

/* The line a command that opened s says when its start restored a snapshot an interrupted
 * refresh run left (server/srv_snapshot.h); nothing otherwise. */
void cmd_srv_say_restored(const struct srv *s);

#endif
