/* SPDX-License-Identifier: MIT */
/* dbt3stab doctor: checks the host for sources of benchmark noise; --tune / --reset. */
#include "base/cli.h"
#include "base/text.h"
#include "commands/cmd.h"
#include "commands/cmd_output.h"
#include "commands/cmd_pin_opts.h"
#include "pinning/doctor.h"
#include "pinning/doctor_quiet.h"
#include "pinning/pin.h"
#include "runner/run_memprobe.h"
#include "stats/st_cost.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the command line says. */
struct doctor_args {
	struct pin_opts pin;
	int as_json, tune, reset, quiet, help;
	double sample_s;
};

static const struct cli_opt options[] = {
    CLI_ROW_FLAG("json", 0, struct doctor_args, as_json, "the checks as JSON"),
    CLI_ROW_FLAG("tune", 0, struct doctor_args, tune,
		 "as root, apply what has a file in /proc or /sys and save the previous values "
		 "(under $DBT3STAB_HOME or ~/.dbt3stab); then, the host being quiet, store the "
		 "memory probe's floor that host_noise judges by (3 times --noise-seconds)"),
    CLI_ROW_FLAG("reset", 0, struct doctor_args, reset, "restore the values --tune saved"),
    CLI_ROW_NUM(CLI_OPT_DOUBLE, "noise-seconds", "S", struct doctor_args, sample_s, 0, 60,
		"bad --noise-seconds '%s' (0 to 60)",
		"how long host_noise samples the memory probe and steal time (default 3; 0: not "
		"at all)"),
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
	fputs("usage: dbt3stab doctor [--json] [--tune | --reset] [--noise-seconds S] [placement "
	      "options]\n\n"
	      "Checks what makes single-threaded benchmarks unstable: CPU governor, turbo, SMT,\n"
	      "isolated CPUs, ASLR, transparent huge pages, NUMA balancing, swap, load, busy\n"
	      "processes on the benchmark PUs, irqbalance, hypervisor, performance counters,\n"
	      "and the host's noise (a few seconds of run's memory probe against this host's\n"
	      "floor, stored by --tune on a quiet host, and the steal time).\n"
	      "Each check is ok, warn or unknown, with the value seen and the fix.\n"
	      "Exit status: 0 when nothing is warn, 1 otherwise.\n\n",
	      f);
	cli_opts_usage(f, options);
	fputs("\nDBT3STAB_SYSROOT=DIR reads (and tunes) DIR/proc and DIR/sys instead, for tests.\n",
	      f);
}

/* name in the state directory (malloc'd; NULL: out of memory). */
static char *state_file(const char *name)
{
	char *dir = util_state_dir();
	if (!dir)
		return NULL;
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	free(dir);
	return p;
}

/* What the host-quietness check needs of the placement. */
struct bench_place {
	int n_server; /* the first n_server of the PUs are the server's; 0: unpinned */
	size_t llc;   /* the largest data cache above the server's PU (0: unknown) */
};

/* The PUs of the placement a run would use: server then client. */
static int benchmark_cpus(const struct pin_opts *o, unsigned *cpus, int max, int *n,
			  struct bench_place *bp)
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
		bp->n_server = p->pinned ? *n : 0;
		for (int i = 0; i < p->n_client && *n < max; i++)
			cpus[(*n)++] = p->client_cpus[i];
		bp->llc = pin_topo_llc_bytes(topo, bp->n_server ? (int)cpus[0] : -1);
		rc = 0;
	} else {
		cli_error("%s", p ? err.msg : "out of memory");
	}
	pin_topo_free(topo);
	free(p);
	return rc;
}

/* The host-quietness check's probes: run's memory probe and the memory reference, each taken by a
 * thread of its own on the server's PUs (runner/run_memprobe.h), one at a time. */
struct quiet_probes {
	struct run_memprobe *near, *far;
	struct run_memprobe_worker *wn, *wf;
	struct doctor_probe p;
};

static double take_near(void *ctx)
{
	return run_memprobe_worker_take(((struct quiet_probes *)ctx)->wn);
}

static double take_far(void *ctx)
{
	return run_memprobe_worker_take(((struct quiet_probes *)ctx)->wf);
}

static void quiet_close(struct quiet_probes *n)
{
	run_memprobe_worker_stop(n->wn);
	run_memprobe_worker_stop(n->wf);
	run_memprobe_free(n->near);
	run_memprobe_free(n->far);
	memset(n, 0, sizeof(*n));
}

static int quiet_open(struct quiet_probes *n, const struct bench_place *bp, const unsigned *cpus,
		      struct errbuf *err)
{
	size_t ring = run_memprobe_ring_bytes(bp->llc), far = run_memprobe_far_bytes(ring);
	memset(n, 0, sizeof(*n));
	if (run_memprobe_new(&n->near, ring, err) < 0 ||
	    run_memprobe_new_far(&n->far, far, RUN_MEMPROBE_FAR_STEPS, err) < 0 ||
	    run_memprobe_worker_start(&n->wn, n->near, cpus, bp->n_server, err) < 0 ||
	    run_memprobe_worker_start(&n->wf, n->far, cpus, bp->n_server, err) < 0) {
		quiet_close(n);
		return -1;
	}
	n->p = (struct doctor_probe){.near = take_near,
				     .far = take_far,
				     .ctx = n,
				     .near_bytes = run_memprobe_bytes(n->near),
				     .far_bytes = run_memprobe_bytes(n->far)};
	return 0;
}

/* What compare's default test needs a side for a change of effect at restart noise sd. */
static size_t restarts_for(double sd, double effect)
{
	return st_cost_restarts(NULL, DOCTOR_QUIET_QUERIES, effect, sd);
}

/* The checks as JSON, host_noise with its figures. */
static json_t *checks_json(const struct doctor_check *checks, const struct doctor_quiet *hq)
{
	json_t *a = doctor_to_json(checks, DOCTOR_N_CHECKS);
	size_t i;
	json_t *c;
	json_array_foreach(a, i, c)
	{
		const char *name = json_string_value(json_object_get(c, "name"));
		if (name && strcmp(name, "host_noise") == 0)
			json_object_set_new(c, "figures", doctor_quiet_json(hq));
	}
	return a;
}

static int report(const struct doctor_check *checks, const struct doctor_quiet *hq, int as_json,
		  const unsigned *cpus, int n_cpus)
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
				      checks_json(checks, hq), "warn", warns, "unknown", unknown);
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

/* --tune's knobs or --reset: the exit code, and *go_on set when the checks follow (a --tune
 * that wrote every value). */
static int tune_or_reset(const char *root, int tune, int quiet, int *go_on)
{
	struct errbuf err = {{0}};
	char *sf = state_file("doctor-saved.json");
	*go_on = 0;
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
	else if (!tune)
		cli_info(quiet, "restored the values saved in '%s'", sf);
	else
		cli_info(quiet,
			 "previous values saved in '%s' ('dbt3stab doctor --reset' restores them)",
			 sf);
	free(sf);
	*go_on = r == 0 && tune;
	return r == 0 ? CLI_OK : CLI_FOUND;
}

/* --tune's floor of the memory probe (the host is quiet, says the user). */
static void tune_floor(const struct doctor_env *env, int quiet)
{
	struct errbuf err = {{0}};
	struct doctor_floor f;
	char date[64];
	int kept = 0;
	if (!env->probe) {
		cli_warn("no floor of the memory probe taken (--noise-seconds 0, or no probe)");
		return;
	}
	if (doctor_quiet_calibrate(&f, &kept, env, &err) < 0) {
		cli_warn("%s", err.msg);
		return;
	}
	if (kept)
		cli_info(
		    quiet,
		    "memory probe's floor: kept the stored %.1f ns (%s), as low as now; remove "
		    "'%s' to take a new one",
		    f.ns, util_term(date, sizeof(date), f.date), env->floor_file);
	else
		cli_info(quiet,
			 "memory probe's floor: %.1f ns (%zu probes, median %.1f ns) saved in '%s'",
			 f.ns, f.probes, f.median_ns, env->floor_file);
}

int cmd_doctor(int argc, char **argv)
{
	struct doctor_args a = {.sample_s = DOCTOR_QUIET_MS / 1000.0};
	struct cli_parse p = {.cmd = "doctor", .base = &a};
	struct errbuf err = {{0}};
	int rc = cmd_parse(&p, options, usage, 0, argc, argv);
	if (rc != CLI_OK || p.help)
		return rc;
	const struct pin_opts o = a.pin;
	if (a.tune && a.reset)
		return cli_usage_error("doctor", "--tune and --reset exclude each other");

	const char *root = getenv("DBT3STAB_SYSROOT");
	if (root && !*root)
		root = NULL;
	if ((a.tune || a.reset) && !root && geteuid() != 0) {
		cli_error("--%s needs root (it writes /proc/sys and /sys)",
			  a.tune ? "tune" : "reset");
		return CLI_FOUND;
	}
	int go_on = 1;
	if (a.tune || a.reset)
		rc = tune_or_reset(root, a.tune, a.quiet, &go_on);
	if (!go_on)
		return rc;

	unsigned cpus[PIN_MAX_IDS];
	int n_cpus = 0;
	struct bench_place bp = {0};
	if (benchmark_cpus(&o, cpus, PIN_MAX_IDS, &n_cpus, &bp) < 0)
		return CLI_USAGE;
	struct doctor_check checks[DOCTOR_N_CHECKS];
	struct doctor_quiet hq;
	char *floor_file = state_file(DOCTOR_FLOOR_FILE);
	struct doctor_env env = {.root = root,
				 .cpus = cpus,
				 .n_cpus = n_cpus,
				 .sample_ms = 300,
				 .quiet_ms = (int)(a.sample_s * 1000 + 0.5),
				 .restarts = restarts_for,
				 .floor_file = floor_file,
				 .quiet_out = &hq};
	struct quiet_probes np;
	if (env.quiet_ms > 0 && quiet_open(&np, &bp, cpus, &err) == 0)
		env.probe = &np.p;
	else if (env.quiet_ms > 0)
		cli_warn("no memory probe: %s", err.msg);
	if (a.tune)
		tune_floor(&env, a.quiet);
	doctor_run(checks, &env);
	if (env.probe)
		quiet_close(&np);
	free(floor_file);
	return report(checks, &hq, a.as_json, cpus, n_cpus);
}
