/* SPDX-License-Identifier: MIT */
/* The placement and stabilizer options' rows. */
#include "commands/cmd_pin_opts.h"
#include "base/cli.h"

int cmd_pin_take(void *dst, const struct cli_opt *row, const char *arg, struct errbuf *err)
{
	return pin_opts_parse(dst, row->code, arg, err) < 0 ? -1 : 0;
}

#define PIN_ROW(n, a, c, h)                                                                        \
	{                                                                                          \
		.kind = CLI_OPT_CALL, .name = n, .arg = a, .code = c, .fn = cmd_pin_take,          \
		.help = h                                                                          \
	}

const struct cli_opt cmd_pin_options[] = {
    PIN_ROW("server-cpus", "LIST", PIN_OPT_SERVER_CPUS,
	    "bind the server to these PUs (OS indexes, e.g. 2 or 2-3)"),
    PIN_ROW("client-cpus", "LIST", PIN_OPT_CLIENT_CPUS, "bind the client thread to these PUs"),
    PIN_ROW("membind", "NODES", PIN_OPT_MEMBIND, "bind the server's memory to these NUMA nodes"),
    PIN_ROW("no-pin", NULL, PIN_OPT_NO_PIN, "no CPU or memory binding at all"),
    {.kind = CLI_OPT_END},
};

const struct cli_opt cmd_stab_options[] = {
    PIN_ROW("no-aslr", NULL, PIN_OPT_NO_ASLR,
	    "start the server with address-space randomisation off"),
    PIN_ROW("nice", "N", PIN_OPT_NICE, "run the server at nice N (-20..19; below 0 needs root)"),
    PIN_ROW("sched-fifo", "PRIO", PIN_OPT_SCHED_FIFO,
	    "run the server SCHED_FIFO at PRIO (1..99, root)"),
    PIN_ROW("drop-caches", NULL, PIN_OPT_DROP_CACHES,
	    "drop the page cache before each start (root)"),
    PIN_ROW("large-pages", NULL, PIN_OPT_LARGE_PAGES,
	    "InnoDB large pages, when the host has huge pages"),
    {.kind = CLI_OPT_END},
};
