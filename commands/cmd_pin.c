/* SPDX-License-Identifier: MIT */
/* dbt3stab pin --explain: the placement a run would use, and why. */
#include "base/cli.h"
#include "pinning/pin.h"
#include "commands/cmd.h"
#include "commands/cmd_pin_opts.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_EXPLAIN = 500, OPT_ALLOWED };

static void usage(FILE *f)
{
	fputs(
	    "usage: dbt3stab pin [--explain] [--json] [--topology FILE|synthetic:DESC]\n"
	    "                    [--allowed LIST] [placement options]\n\n"
	    "Prints the CPU and memory placement of the server and the client, and why.\n\n"
	    "  --explain                print the placement (the default action)\n"
	    "  --json                   as JSON: server_cpus, client_cpus, membind_nodes, reason\n"
	    "  --topology FILE          an XML topology (lstopo FILE.xml) instead of this "
	    "machine;\n"
	    "                           'synthetic:DESC' for an hwloc synthetic description\n"
	    "  --allowed LIST           restrict the allowed PUs, as taskset or a cgroup would\n"
	    "  -q, --quiet              no warning on stderr\n"
	    "  -h, --help               this help\n\n",
	    f);
	pin_opts_usage(f);
}

static void print_ids(const char *label, const char *unit, const unsigned *ids, int n, int pinned)
{
	char list[1024];
	pin_ids_format(list, sizeof(list), ids, n);
	if (!pinned || n == 0)
		printf("%-9s unbound\n", label);
	else
		printf("%-9s %s%s %s\n", label, unit, n == 1 ? "" : "s", list);
}

static int explain(const struct pin_opts *o, const char *allowed, int as_json, int quiet)
{
	struct errbuf err = {{0}};
	struct pin_topo *topo = NULL;
	struct pin_placement *p = malloc(sizeof(*p));
	int rc = CLI_USAGE;
	char desc[1024];
	if (!p) {
		cli_error("out of memory");
		return CLI_IO;
	}
	if (pin_topo_load(&topo, o->topology, &err) < 0 ||
	    (allowed && pin_topo_restrict(topo, allowed, &err) < 0) ||
	    pin_placement_compute(p, topo, o, &err) < 0) {
		cli_error("%s", err.msg);
		goto out;
	}
	pin_topo_describe(topo, desc, sizeof(desc));
	if (p->warning[0] && !quiet)
		cli_warn("%s", p->warning);
	if (as_json) {
		json_t *j = pin_placement_to_json(p);
		json_object_set_new(j, "topology", json_string(desc));
		json_object_set_new(j, "stabilizers", stab_opts_to_json(&o->stab));
		char *s = j ? json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
		json_decref(j);
		if (!s) {
			cli_error("out of memory");
			rc = CLI_IO;
			goto out;
		}
		printf("%s\n", s);
		free(s);
	} else {
		printf("%-9s %s\n", "topology", desc);
		print_ids("server", "PU", p->server_cpus, p->n_server, p->pinned);
		print_ids("client", "PU", p->client_cpus, p->n_client, p->pinned);
		print_ids("memory", "NUMA node", p->membind_nodes, p->n_membind, p->pinned);
		printf("%-9s %s\n", "reason", p->reason);
	}
	rc = CLI_OK;
out:
	pin_topo_free(topo);
	free(p);
	return rc;
}

/* --explain (the default) and --allowed, the options only pin has. */
static int pin_own_opt(void *ctx, int c, const char *arg)
{
	const char **allowed = ctx;
	if (c == OPT_ALLOWED)
		*allowed = arg;
	else if (c != OPT_EXPLAIN)
		return -1;
	return 0;
}

/* cmd_pin with its option table. */
static int pin_command(int argc, char **argv, const struct option *longopts)
{
	struct cmd_pin_args a;
	const char *allowed = NULL;
	int rc = cmd_pin_args_parse(&a, argc, argv, longopts, pin_own_opt, &allowed);
	if (rc != CLI_OK)
		return rc;
	if (a.help) {
		usage(stdout);
		return CLI_OK;
	}
	return explain(&a.pin, allowed, a.as_json, a.quiet);
}

int cmd_pin(int argc, char **argv)
{
	static const struct option own[] = {
	    CMD_PIN_LONGOPTS,
	    {"explain", no_argument, NULL, OPT_EXPLAIN},
	    {"allowed", required_argument, NULL, OPT_ALLOWED},
	    {"topology", required_argument, NULL, PIN_OPT_TOPOLOGY},
	    {NULL, 0, NULL, 0},
	};
	const struct option *const tables[] = {own, pin_long_options, NULL};
	struct option *longopts = cli_options_merge(tables);
	if (!longopts) {
		cli_error("out of memory");
		return CLI_IO;
	}
	int rc = pin_command(argc, argv, longopts);
	free(longopts);
	return rc;
}
