/* SPDX-License-Identifier: MIT */
/* dbt3stab doctor: checks the host for sources of benchmark noise; --tune / --reset. */
#include "base/cli.h"
#include "pinning/doctor.h"
#include "pinning/pin.h"
#include "commands/cmd.h"
#include "commands/cmd_output.h"
#include "commands/cmd_pin_opts.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the command line says. */
struct doctor_args {
	struct pin_opts pin;
	int as_json, tune, reset, quiet, help;
};

static const struct cli_opt options[] = {
    CLI_ROW_FLAG("json", 0, struct doctor_args, as_json, "the checks as JSON"),
    CLI_ROW_FLAG("tune", 0, struct doctor_args, tune,
		 "as root, apply what has a file in /proc or /sys and save the previous values "
		 "(under $DBT3STAB_HOME or ~/.dbt3stab)"),
    CLI_ROW_FLAG("reset", 0, struct doctor_args, reset, "restore the values --tune saved"),
    CLI_ROW_QUIET(struct doctor_args, quiet, "no log of --tune/--reset changes"),
    CLI_ROW_HELP(struct doctor_args, help),
    CMD_PIN_ROW("server-cpus", "LIST", PIN_OPT_SERVER_CPUS, struct doctor_args, pin,
		"the server's benchmark PUs (default: the placement of 'dbt3stab pin')"),
    CMD_PIN_ROW("client-cpus", "LIST", PIN_OPT_CLIENT_CPUS, struct doctor_args, pin,
		"the client's benchmark PUs (the same default)"),
    {.kind = CLI_OPT_END},
};

static void usage(FILE *f)
{
	fputs("usage: dbt3stab doctor [--json] [--tune | --reset] [placement options]\n\n"
	      "Checks what makes single-threaded benchmarks unstable: CPU governor, turbo, SMT,\n"
	      "isolated CPUs, ASLR, transparent huge pages, NUMA balancing, swap, load, busy\n"
	      "processes on the benchmark PUs, irqbalance, hypervisor, performance counters.\n"
	      "Each check is ok, warn or unknown, with the value seen and the fix.\n"
	      "Exit status: 0 when nothing is warn, 1 otherwise.\n\n",
	      f);
	cli_opts_usage(f, options);
	fputs("\nDBT3STAB_SYSROOT=DIR reads (and tunes) DIR/proc and DIR/sys instead, for tests.\n",
	      f);
}

static char *state_file(void)
{
	char *dir = util_state_dir();
	if (!dir)
		return NULL;
	size_t n = strlen(dir) + 32;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/doctor-saved.json", dir);
	free(dir);
	return p;
}

/* The PUs of the placement a run would use: server then client. */
static int benchmark_cpus(const struct pin_opts *o, unsigned *cpus, int max, int *n)
{
	struct errbuf err = {{0}};
	struct pin_topo *topo = NULL;
	struct pin_placement *p = calloc(1, sizeof(*p));
	int rc = -1;
	*n = 0;
	if (p && pin_topo_load(&topo, o->topology, &err) == 0 &&
	    pin_placement_compute(p, topo, o, &err) == 0) {
		for (int i = 0; i < p->n_server && *n < max; i++)
			cpus[(*n)++] = p->server_cpus[i];
		for (int i = 0; i < p->n_client && *n < max; i++)
			cpus[(*n)++] = p->client_cpus[i];
		rc = 0;
	} else {
		cli_error("%s", p ? err.msg : "out of memory");
	}
	pin_topo_free(topo);
	free(p);
	return rc;
}

static int report(const struct doctor_check *checks, int as_json, const unsigned *cpus, int n_cpus)
{
	int warns = 0, unknown = 0;
	for (int i = 0; i < DOCTOR_N_CHECKS; i++) {
		warns += checks[i].status == DOCTOR_WARN;
		unknown += checks[i].status == DOCTOR_UNKNOWN;
	}
	if (as_json) {
		json_t *cp = json_array();
		for (int i = 0; i < n_cpus; i++)
			json_array_append_new(cp, json_integer(cpus[i]));
		json_t *j = json_pack("{s:o, s:o, s:i, s:i}", "benchmark_cpus", cp, "checks",
				      doctor_to_json(checks, DOCTOR_N_CHECKS), "warn", warns,
				      "unknown", unknown);
		if (cmd_json_print(j) != CLI_OK)
			return CLI_IO;
	} else {
		for (int i = 0; i < DOCTOR_N_CHECKS; i++) {
			printf("%-22s %-8s %s\n", checks[i].name,
			       doctor_status_name(checks[i].status), checks[i].value);
			if (checks[i].fix[0])
				printf("%-22s %-8s fix: %s\n", "", "", checks[i].fix);
		}
		printf("%d warn, %d unknown, %d ok\n", warns, unknown,
		       DOCTOR_N_CHECKS - warns - unknown);
	}
	return warns ? CLI_FOUND : CLI_OK;
}

int cmd_doctor(int argc, char **argv)
{
	struct doctor_args a = {.as_json = 0};
	struct cli_parse p = {.cmd = "doctor", .base = &a};
	struct errbuf err = {{0}};
	int rc = cmd_parse(&p, options, usage, 0, argc, argv);
	if (rc != CLI_OK || p.help)
		return rc;
	const struct pin_opts o = a.pin;
	const int as_json = a.as_json, quiet = a.quiet, tune = a.tune, reset = a.reset;
	if (tune && reset)
		return cli_usage_error("doctor", "--tune and --reset exclude each other");

	const char *root = getenv("DBT3STAB_SYSROOT");
	if (root && !*root)
		root = NULL;
	if ((tune || reset) && !root && geteuid() != 0) {
		cli_error("--%s needs root (it writes /proc/sys and /sys)",
			  tune ? "tune" : "reset");
		return CLI_FOUND;
	}
	if (tune || reset) {
		char *sf = state_file();
		if (!sf) {
			cli_error("out of memory");
			return CLI_IO;
		}
		int r = tune ? doctor_tune(root, sf, quiet ? NULL : stderr, &err)
			     : doctor_reset(sf, quiet ? NULL : stderr, &err);
		if (r < 0)
			cli_error("%s", err.msg);
		else if (r > 0)
			cli_error("%d value%s could not be written", r, r == 1 ? "" : "s");
		else if (reset)
			cli_info(quiet, "restored the values saved in '%s'", sf);
		else
			cli_info(quiet,
				 "previous values saved in '%s' ('dbt3stab doctor --reset' "
				 "restores them)",
				 sf);
		free(sf);
		if (r != 0 || reset)
			return r == 0 ? CLI_OK : CLI_FOUND;
	}

	unsigned cpus[PIN_MAX_IDS];
	int n_cpus = 0;
	if (benchmark_cpus(&o, cpus, PIN_MAX_IDS, &n_cpus) < 0)
		return CLI_USAGE;
	struct doctor_check checks[DOCTOR_N_CHECKS];
	struct doctor_env env = {.root = root, .cpus = cpus, .n_cpus = n_cpus, .sample_ms = 300};
	doctor_run(checks, &env);
	return report(checks, as_json, cpus, n_cpus);
}
