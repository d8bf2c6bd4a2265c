/* SPDX-License-Identifier: MIT */
#include "commands/cmd.h"
#include <string.h>

const struct cmd cmd_table[] = {
	{"server", cmd_server, "manage the private database server (init, start, stop, status)"},
	{"gen", cmd_gen, "generate DBT-3 data, byte-identical to TPC-H dbgen"},
	{"load", cmd_load, "create the schema and bulk-load a scale factor"},
	{"queries", cmd_queries, "print or write the 22 query statements"},
	{"query", cmd_query, "run one query and print its result and time"},
	{"run", cmd_run, "measure the queries over several server restarts"},
	{"summary", cmd_summary, "restart-level statistics of one result file"},
	{"compare", cmd_compare, "flag regressions beyond restart variance between two results"},
	{"report", cmd_report, "write an HTML report of one or more result files"},
	{"history", cmd_history, "store results nightly; change points across builds, trend page"},
	{"pin", cmd_pin, "show the CPU and memory placement of server and client"},
	{"doctor", cmd_doctor, "check the host for sources of benchmark noise"},
	{"stabilize", cmd_stabilize, "measure which stabilizers shrink restart noise on this host"},
	{NULL, NULL, NULL},
};

const struct cmd *cmd_find(const char *name)
{
	for (const struct cmd *c = cmd_table; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}
