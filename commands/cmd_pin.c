/* SPDX-License-Identifier: MIT */
/* dbt3stab pin --explain: the placement a run would use, and why. */
#include "base/cli.h"
#include "pinning/pin.h"
#include "commands/cmd.h"
#include "commands/cmd_output.h"
#include "commands/cmd_pin_opts.h"
#include <stdlib.h>
#include <string.h>

/* What the command line says. */
struct pin_args {
	struct pin_opts pin;
	const char *allowed;
	int explain, as_json, quiet, help;
};

static const struct cli_opt options[] = {
    CLI_ROW_FLAG("explain", 0, struct pin_args, explain,
		 "print the placement (the default action)"),
    CLI_ROW_FLAG("json", 0, struct pin_args, as_json,
		 "as JSON: server_cpus, client_cpus, membind_nodes, reason"),
    CMD_PIN_ROW("topology", "FILE", PIN_OPT_TOPOLOGY, struct pin_args, pin,
		"an XML topology (lstopo FILE.xml) instead of this machine; 'synthetic:DESC' for "
		"an hwloc synthetic description"),
    CLI_ROW_STRING("allowed", 0, "LIST", struct pin_args, allowed,
		   "restrict the allowed PUs, as taskset or a cgroup would"),
    CLI_ROW_QUIET(struct pin_args, quiet, "no warning on stderr"),
    CLI_ROW_HELP(struct pin_args, help),
    CMD_PIN_GROUPS(struct pin_args, pin),
    {.kind = CLI_OPT_END},
};

static void usage(FILE *f)
{
	fputs("usage: dbt3stab pin [--explain] [--json] [--topology FILE|synthetic:DESC]\n"
	      "                    [--allowed LIST] [placement options]\n\n"
	      "Prints the CPU and memory placement of the server and the client, and why.\n\n",
	      f);
	cli_opts_usage(f, options);
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
		if ((rc = cmd_json_print(j)) != CLI_OK)
			goto out;
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

int cmd_pin(int argc, char **argv)
{
	struct pin_args a = {.allowed = NULL};
	struct cli_parse p = {.cmd = "pin", .base = &a};
	int rc = cmd_parse(&p, options, usage, 0, argc, argv);
	if (rc != CLI_OK || p.help)
		return rc;
	return explain(&a.pin, a.allowed, a.as_json, a.quiet);
}
