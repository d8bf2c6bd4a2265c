/* SPDX-License-Identifier: MIT */
/* The server options' rows. */
#include "commands/cmd_srv_args.h"
#include "base/cli.h"
#include "server/srv_snapshot.h"

/* One server option into the struct srv_opts at dst, by srv_opts_parse's code. */
static int take(void *dst, const struct cli_opt *row, const char *arg, struct errbuf *err)
{
	return srv_opts_parse(dst, row->code, arg, err) < 0 ? -1 : 0;
}

#define SRV_ROW(n, a, c, h)                                                                        \
	{                                                                                          \
		.kind = CLI_OPT_CALL, .name = n, .arg = a, .code = c, .fn = take, .help = h        \
	}

const struct cli_opt cmd_srv_options[] = {
    SRV_ROW("datadir", "DIR", SRV_OPT_DATADIR,
	    "private instance directory (default ~/.dbt3stab/server; as root " SRV_ROOT_DATADIR
	    ")"),
    SRV_ROW("mysqld", "PATH", SRV_OPT_MYSQLD,
	    "server binary (default: mariadbd or mysqld on PATH)"),
    SRV_ROW("basedir", "DIR", SRV_OPT_BASEDIR, "server installation directory (bin/, share/)"),
    SRV_ROW("port", "N", SRV_OPT_PORT, "also listen on 127.0.0.1:N (default: the socket only)"),
    SRV_ROW("server-option", "NAME=VALUE", SRV_OPT_SERVER_OPTION,
	    "add or override a server option (repeatable)"),
    SRV_ROW("defaults-extra-file", "F", SRV_OPT_DEFAULTS_EXTRA_FILE,
	    "option file included after the generated template"),
    SRV_ROW("buffer-pool", "SIZE", SRV_OPT_BUFFER_POOL,
	    "InnoDB buffer pool, e.g. 4G (default from the loaded data, at most 3/4 of RAM "
	    "leaving 4G)"),
    SRV_ROW("performance-schema", NULL, SRV_OPT_PERFORMANCE_SCHEMA,
	    "turn the performance schema on (off by default)"),
    SRV_ROW("start-timeout", "S", SRV_OPT_START_TIMEOUT,
	    "seconds to wait for the server to answer (default 120)"),
    SRV_ROW("stop-timeout", "S", SRV_OPT_STOP_TIMEOUT,
	    "seconds to wait for a clean shutdown (default 120)"),
    SRV_ROW("host", "H", SRV_OPT_HOST,
	    "use a server the tool does not manage, on host H (no restarts); password from "
	    "MYSQL_PWD or an option file"),
    SRV_ROW("socket", "PATH", SRV_OPT_SOCKET, "the same, through its socket PATH"),
    SRV_ROW("user", "U", SRV_OPT_USER, "the same, as user U"),
    {.kind = CLI_OPT_END},
};

void cmd_srv_say_restored(const struct srv *s)
{
	if (s && srv_snapshot_restored(s))
		cli_warn("restored '%s/data' from the snapshot an interrupted refresh run left",
			 srv_instdir(s));
}
