/* SPDX-License-Identifier: MIT */
/* Placement on synthetic topologies, and a real child bound through pin_child_hook. */
#include "base/cli.h"
#include "pinning/pin.h"
#include "tests/harness.h"
#include "tests/th_pin.h"
#include "tests/th_spawn.h"
#include <hwloc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The Xeon E5-2690 box: 2 packages x 8 cores x 2 PUs, one NUMA node per package. */
#define XEON "synthetic:pack:2 numa:1 core:8 pu:2"
/* The same with Linux's numbering: SMT siblings are PU n and n+16. */
#define XEON_LINUX                                                                                 \
	"synthetic:pack:2 numa:1 core:8 "                                                          \
	"pu:2(indexes=0,16,1,17,2,18,3,19,4,20,5,21,6,22,7,23,8,24,9,"                             \
	"25,10,26,11,27,12,28,13,29,14,30,15,31)"
#define CI "synthetic:pack:1 core:2 pu:1"
#define NUMA4 "synthetic:pack:1 numa:4 core:4 pu:1"
/* No package objects: the NUMA node is the locality unit. */
#define NOPACK "synthetic:numa:4 core:2 pu:1"

struct place_case {
	const char *topology, *allowed, *server, *client, *membind;
	int pinned;
	const char *want_server, *want_client, *want_nodes; /* "none" for empty */
	const char *warning;				    /* substring, or NULL for none */
};

static const struct place_case place_cases[] = {
    /* Server on core 1 (PU 2, not PU 0's core), client on core 2 of the same package. */
    {XEON, NULL, NULL, NULL, NULL, 1, "2", "4", "0", NULL},
    {XEON_LINUX, NULL, NULL, NULL, NULL, 1, "1", "2", "0", NULL},
    /* Package 0 restricted to its first core: both go to package 1, memory on node 1. */
    {XEON, "0-1,16-31", NULL, NULL, NULL, 1, "16", "18", "1", NULL},
    /* The CI machine: server PU 1, client PU 0. */
    {CI, NULL, NULL, NULL, NULL, 1, "1", "0", "0", NULL},
    /* Four NUMA nodes: memory follows the server's core. */
    {NUMA4, NULL, NULL, NULL, NULL, 1, "1", "2", "0", NULL},
    {NUMA4, "9-12", NULL, NULL, NULL, 1, "9", "10", "2", NULL},
    {NUMA4, "0,13", NULL, NULL, NULL, 1, "13", "0", "3", NULL},
    /* No packages: server and client share a NUMA node away from PU 0's, memory there. */
    {NOPACK, NULL, NULL, NULL, NULL, 1, "2", "3", "1", NULL},
    {NOPACK, "1-2,4", NULL, NULL, NULL, 1, "1", "2", "0", "another NUMA node"},
    {NOPACK, NULL, "5", NULL, NULL, 1, "5", "4", "2", NULL},
    {"synthetic:core:2 pu:1", NULL, NULL, NULL, NULL, 1, "1", "0", "0", NULL},
    /* Restricted cpusets: one PU each in two packages, one core with two PUs, one PU. */
    {"synthetic:pack:2 core:8 pu:1", "0,8", NULL, NULL, NULL, 1, "8", "0", "0", "another package"},
    {"synthetic:pack:1 core:1 pu:2", NULL, NULL, NULL, NULL, 1, "1", "0", "0", "SMT sibling"},
    {XEON, "5", NULL, NULL, NULL, 0, "none", "none", "none", "single PU 5"},
    {CI, "0", NULL, NULL, NULL, 0, "none", "none", "none", "single PU 0"},
    /* Overrides: the other side follows the rules around them. */
    {XEON, NULL, "6", NULL, NULL, 1, "6", "2", "0", NULL},
    {XEON, NULL, NULL, "2", NULL, 1, "4", "2", "0", NULL},
    {XEON, NULL, "20", "24", "0", 1, "20", "24", "0", NULL},
    {XEON, NULL, "3", "3", NULL, 1, "3", "3", "0", "overlap"},
    {CI, NULL, "0-1", NULL, NULL, 1, "0-1", "none", "0", "no PU left for the client"},
    {NULL, NULL, NULL, NULL, NULL, -1, NULL, NULL, NULL, NULL},
};

static void ids_str(char *out, size_t len, const unsigned *ids, int n)
{
	pin_ids_format(out, len, ids, n);
}

TH_TEST(pin, placement_table)
{
	for (const struct place_case *pc = place_cases; pc->topology; pc++) {
		struct errbuf err = {{0}};
		struct pin_topo *topo = NULL;
		struct pin_opts o = {0};
		static struct pin_placement p;
		o.server_cpus = pc->server;
		o.client_cpus = pc->client;
		o.membind = pc->membind;
		int rc = pin_topo_load(&topo, pc->topology, &err);
		if (rc == 0 && pc->allowed)
			rc = pin_topo_restrict(topo, pc->allowed, &err);
		if (rc == 0)
			rc = pin_placement_compute(&p, topo, &o, &err);
		if (rc != 0)
			fprintf(stderr, "\n%s (allowed %s): %s\n", pc->topology, pc->allowed,
				err.msg);
		CU_ASSERT_EQUAL_FATAL(rc, 0);
		char s[256], c[256], nn[256];
		ids_str(s, sizeof(s), p.server_cpus, p.n_server);
		ids_str(c, sizeof(c), p.client_cpus, p.n_client);
		ids_str(nn, sizeof(nn), p.membind_nodes, p.n_membind);
		if (p.pinned != pc->pinned || strcmp(s, pc->want_server) ||
		    strcmp(c, pc->want_client) || strcmp(nn, pc->want_nodes))
			fprintf(stderr,
				"\n%s (allowed %s): pinned %d server %s client %s nodes %s (%s)\n",
				pc->topology, pc->allowed, p.pinned, s, c, nn, p.reason);
		CU_ASSERT_EQUAL(p.pinned, pc->pinned);
		CU_ASSERT_STRING_EQUAL(s, pc->want_server);
		CU_ASSERT_STRING_EQUAL(c, pc->want_client);
		CU_ASSERT_STRING_EQUAL(nn, pc->want_nodes);
		CU_ASSERT(p.reason[0] != '\0');
		if (pc->warning) {
			CU_ASSERT_PTR_NOT_NULL(strstr(p.warning, pc->warning));
		} else {
			CU_ASSERT_STRING_EQUAL(p.warning, "");
		}
		pin_topo_free(topo);
	}
}

/* The reason names the locality unit the topology has, never a package it lacks. */
TH_TEST(pin, reason_names_the_locality_unit)
{
	static const struct {
		const char *topology, *allowed, *want, *not_want;
	} cases[] = {
	    {XEON, NULL, "another core of the same package", "NUMA node 0)"},
	    {NOPACK, NULL, "(core L#3, NUMA node 1), another core of the same NUMA node",
	     "package"},
	    {NOPACK, "1-2,4", "another NUMA node: no second core free in the server's", "package"},
	    {"synthetic:core:2 pu:1", NULL, "another core of the same NUMA node", "package"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct errbuf err = {{0}};
		struct pin_topo *topo = NULL;
		struct pin_opts o = {0};
		static struct pin_placement p;
		int rc = pin_topo_load(&topo, cases[i].topology, &err);
		if (rc == 0 && cases[i].allowed)
			rc = pin_topo_restrict(topo, cases[i].allowed, &err);
		if (rc == 0)
			rc = pin_placement_compute(&p, topo, &o, &err);
		CU_ASSERT_EQUAL_FATAL(rc, 0);
		if (!strstr(p.reason, cases[i].want) || strstr(p.reason, cases[i].not_want))
			fprintf(stderr, "\n%s: %s\n", cases[i].topology, p.reason);
		CU_ASSERT_PTR_NOT_NULL(strstr(p.reason, cases[i].want));
		CU_ASSERT_PTR_NULL(strstr(p.reason, cases[i].not_want));
		pin_topo_free(topo);
	}
}

TH_TEST(pin, overrides_outside_allowed_are_errors)
{
	static const struct {
		const char *allowed, *server, *client, *membind, *msg;
	} cases[] = {
	    {"0-7", "8", NULL, NULL, "server CPUs '8' not allowed"},
	    {NULL, NULL, "32", NULL, "client CPUs '32' not allowed"},
	    {NULL, NULL, NULL, "2", "NUMA nodes '2' not allowed"},
	    {NULL, "x", NULL, NULL, "invalid server CPUs list 'x'"},
	    {NULL, "3-", NULL, NULL, "invalid server CPUs list '3-'"},
	    {NULL, NULL, NULL, NULL, NULL},
	};
	for (int i = 0; cases[i].msg; i++) {
		struct errbuf err = {{0}};
		struct pin_topo *topo = NULL;
		struct pin_opts o = {0};
		static struct pin_placement p;
		o.server_cpus = cases[i].server;
		o.client_cpus = cases[i].client;
		o.membind = cases[i].membind;
		CU_ASSERT_EQUAL_FATAL(pin_topo_load(&topo, XEON, &err), 0);
		if (cases[i].allowed)
			CU_ASSERT_EQUAL(pin_topo_restrict(topo, cases[i].allowed, &err), 0);
		CU_ASSERT_EQUAL(pin_placement_compute(&p, topo, &o, &err), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, cases[i].msg));
		pin_topo_free(topo);
	}
}

TH_TEST(pin, no_pin_is_unpinned_and_exclusive)
{
	struct errbuf err = {{0}};
	struct pin_topo *topo = NULL;
	struct pin_opts o = {0};
	static struct pin_placement p;
	CU_ASSERT_EQUAL_FATAL(pin_topo_load(&topo, XEON, &err), 0);
	o.no_pin = 1;
	CU_ASSERT_EQUAL(pin_placement_compute(&p, topo, &o, &err), 0);
	CU_ASSERT_EQUAL(p.pinned, 0);
	CU_ASSERT_EQUAL(p.n_server + p.n_client + p.n_membind, 0);
	o.server_cpus = "2";
	CU_ASSERT_EQUAL(pin_placement_compute(&p, topo, &o, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "--no-pin cannot be combined"));
	pin_topo_free(topo);
}

TH_TEST(pin, bad_topology_is_an_error)
{
	struct errbuf err = {{0}};
	struct pin_topo *topo = NULL;
	CU_ASSERT_EQUAL(pin_topo_load(&topo, "synthetic:pack:x", &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "invalid synthetic topology"));
	CU_ASSERT_EQUAL(pin_topo_load(&topo, "/nonexistent/topo.xml", &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "cannot open '/nonexistent/topo.xml'"));
	CU_ASSERT_PTR_NULL(topo);
	CU_ASSERT_EQUAL_FATAL(pin_topo_load(&topo, CI, &err), 0);
	CU_ASSERT_EQUAL(pin_topo_restrict(topo, "1-2", &err), -1);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(err.msg, "CPUs '1-2' are not all allowed (allowed PUs: 0-1)"));
	CU_ASSERT_EQUAL(pin_topo_restrict(topo, "1", &err), 0);
	CU_ASSERT_EQUAL(pin_topo_restrict(topo, "0", &err), -1); /* restricting only narrows */
	pin_topo_free(topo);
}

TH_TEST(pin, xml_topology_gives_the_same_answer)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/tests/topologies/xeon-e5-2690.xml", DBT3_SOURCE_DIR);
	struct errbuf err = {{0}};
	struct pin_topo *topo = NULL;
	struct pin_opts o = {0};
	static struct pin_placement p;
	CU_ASSERT_EQUAL_FATAL(pin_topo_load(&topo, path, &err), 0);
	CU_ASSERT_EQUAL(pin_placement_compute(&p, topo, &o, &err), 0);
	CU_ASSERT_EQUAL(p.n_server, 1);
	CU_ASSERT_EQUAL(p.server_cpus[0], 1);
	CU_ASSERT_EQUAL(p.n_client, 1);
	CU_ASSERT_EQUAL(p.client_cpus[0], 2);
	CU_ASSERT_EQUAL(p.n_membind, 1);
	CU_ASSERT_EQUAL(p.membind_nodes[0], 0);
	pin_topo_free(topo);
}

TH_TEST(pin, options_parse_and_reject)
{
	static const struct {
		int code;
		const char *arg;
		int want;
	} cases[] = {
	    {PIN_OPT_SERVER_CPUS, "2-3", 1},
	    {PIN_OPT_SERVER_CPUS, "two", -1},
	    {PIN_OPT_CLIENT_CPUS, "", -1},
	    {PIN_OPT_MEMBIND, "0", 1},
	    {PIN_OPT_NICE, "-5", 1},
	    {PIN_OPT_NICE, "20", -1},
	    {PIN_OPT_NICE, "1x", -1},
	    {PIN_OPT_SCHED_FIFO, "0", -1},
	    {PIN_OPT_SCHED_FIFO, "99", 1},
	    {PIN_OPT_NO_ASLR, NULL, 1},
	    {PIN_OPT_NO_PIN, NULL, 1},
	    {'x', NULL, 0},
	    {0, NULL, 0},
	};
	struct pin_opts o = {0};
	for (int i = 0; cases[i].code; i++) {
		struct errbuf err = {{0}};
		CU_ASSERT_EQUAL(pin_opts_parse(&o, cases[i].code, cases[i].arg, &err),
				cases[i].want);
	}
	CU_ASSERT_STRING_EQUAL(o.server_cpus, "2-3");
	CU_ASSERT_EQUAL(o.stab.nice_set, 1);
	CU_ASSERT_EQUAL(o.stab.nice, -5);
	CU_ASSERT_EQUAL(o.stab.sched_fifo, 99);
	CU_ASSERT_EQUAL(o.stab.no_aslr, 1);
	struct errbuf err = {{0}};
	CU_ASSERT_EQUAL(pin_opts_check(&o, &err), -1); /* --no-pin with --server-cpus */
}

/* Starts /bin/sleep through the hook (or without it) and waits until it has exec'd. */
static pid_t start_sleep(struct pin_ctx *ctx)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (ctx && pin_child_hook(ctx) != 0)
			_exit(127);
		execl("/bin/sleep", "sleep", "30", (char *)NULL);
		_exit(127);
	}
	for (int i = 0; pid > 0 && i < 500; i++) {
		char path[64], comm[64] = "";
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
		FILE *f = fopen(path, "r");
		if (f) {
			if (!fgets(comm, sizeof(comm), f))
				comm[0] = '\0';
			fclose(f);
		}
		if (strncmp(comm, "sleep", 5) == 0)
			break;
		struct timespec ts = {0, 10 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	return pid;
}

static void stop_child(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static int read_proc_line(pid_t pid, const char *file, char *out, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	return th_read_line(path, out, len);
}

TH_TEST(pin, child_runs_bound)
{
	struct errbuf err = {{0}};
	struct th_pin_want want;
	struct pin_ctx *ctx = th_pin_ctx_bound(7, &want);
	if (!ctx)
		return;
	char cpus[256], mems[256], line[4096];
	pid_t pid = start_sleep(ctx);
	CU_ASSERT_FATAL(pid > 0);
	CU_ASSERT_EQUAL(pin_proc_allowed(pid, pid, cpus, sizeof(cpus), mems, sizeof(mems), &err),
			0);
	CU_ASSERT_STRING_EQUAL(cpus, want.cpus);
	/* the cgroup's set holds the bound nodes */
	CU_ASSERT(th_pin_list_includes(mems, want.nodes));
	CU_ASSERT_EQUAL(pin_ctx_verify(ctx, pid, &err), 1);
	/* The memory policy itself, as the kernel reports it. */
	CU_ASSERT_EQUAL(read_proc_line(pid, "numa_maps", line, sizeof(line)), 0);
	char want_pol[300];
	snprintf(want_pol, sizeof(want_pol), " bind:%s ", want.nodes);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, want_pol));
	/* ADDR_NO_RANDOMIZE is 0x0040000 */
	CU_ASSERT_EQUAL(read_proc_line(pid, "personality", line, sizeof(line)), 0);
	CU_ASSERT_STRING_EQUAL(line, "00040000");
	CU_ASSERT_EQUAL(read_proc_line(pid, "stat", line, sizeof(line)), 0);
	CU_ASSERT_EQUAL(th_pin_nice(pid, pid), 7);
	stop_child(pid);
	pin_ctx_free(ctx);
}

TH_TEST(pin, verify_catches_an_unbound_child)
{
	struct pin_ctx *ctx = th_pin_ctx_pinned(NULL);
	if (!ctx)
		return;
	struct errbuf err = {{0}};
	pid_t pid = start_sleep(NULL);
	CU_ASSERT_FATAL(pid > 0);
	CU_ASSERT_EQUAL(pin_ctx_verify(ctx, pid, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "may run on PUs"));
	stop_child(pid);
	pin_ctx_free(ctx);
}

static void *client_thread(void *arg)
{
	struct pin_ctx *ctx = arg;
	struct errbuf err = {{0}};
	static int result;
	result = -1;
	if (pin_ctx_bind_client(ctx, &err) == 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		if (sched_getaffinity(0, sizeof(set), &set) == 0) {
			const struct pin_placement *p = pin_ctx_placement(ctx);
			result =
			    CPU_COUNT(&set) == p->n_client && CPU_ISSET(p->client_cpus[0], &set);
		}
	}
	return &result;
}

TH_TEST(pin, client_binds_its_own_thread)
{
	struct pin_ctx *ctx = th_pin_ctx_pinned(NULL);
	if (!ctx)
		return;
	if (pin_ctx_placement(ctx)->n_client == 0) {
		th_skip("the placement has no client PU");
		pin_ctx_free(ctx);
		return;
	}
	pthread_t th;
	void *res = NULL;
	CU_ASSERT_EQUAL_FATAL(pthread_create(&th, NULL, client_thread, ctx), 0);
	pthread_join(th, &res);
	CU_ASSERT_EQUAL(*(int *)res, 1);
	pin_ctx_free(ctx);
}

TH_TEST(pin, json_records_placement_and_stabilizers)
{
	struct errbuf err = {{0}};
	struct pin_ctx *ctx = NULL;
	struct pin_opts o = {0};
	o.stab.no_aslr = 1;
	o.stab.sched_fifo = 5;
	o.stab.large_pages = 1;
	CU_ASSERT_EQUAL_FATAL(pin_ctx_init(&ctx, &o, &err), 0);
	json_t *j = pin_ctx_to_json(ctx);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	json_t *pl = json_object_get(j, "placement"), *st = json_object_get(j, "stabilizers");
	CU_ASSERT(json_is_array(json_object_get(pl, "server_cpus")));
	CU_ASSERT(json_is_array(json_object_get(pl, "client_cpus")));
	CU_ASSERT(json_is_array(json_object_get(pl, "membind_nodes")));
	CU_ASSERT(json_is_string(json_object_get(pl, "reason")));
	CU_ASSERT(json_is_true(json_object_get(st, "no_aslr")));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(st, "sched_fifo")), 5);
	CU_ASSERT(json_is_null(json_object_get(st, "nice")));
	const char *lp = json_string_value(json_object_get(st, "large_pages"));
	CU_ASSERT_STRING_EQUAL(lp, stab_hugepages_total() > 0 ? "on" : "unavailable");
	const char *args[4];
	CU_ASSERT_EQUAL(pin_ctx_server_args(ctx, args, 4), stab_hugepages_total() > 0 ? 1 : 0);
	json_decref(j);
	pin_ctx_free(ctx);
}

TH_TEST(pin, binding_needs_this_machine)
{
	struct errbuf err = {{0}};
	struct pin_ctx *ctx = NULL;
	struct pin_opts o = {0};
	o.topology = XEON;
	CU_ASSERT_EQUAL(pin_ctx_init(&ctx, &o, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not this machine's"));
	CU_ASSERT_PTR_NULL(ctx);
	pin_ctx_free(NULL);
}

/* The machine's allowed PUs follow taskset: one PU left means unpinned with a warning. */
TH_TEST(pin, taskset_restricts_the_machine)
{
	char out[8192];
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "taskset -c 0 '%s' pin --json", DBT3_BINARY), 0);
	const char *brace = strchr(out, '{');
	CU_ASSERT_PTR_NOT_NULL_FATAL(brace);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "warning: single PU 0: server and client run unpinned"));
	json_t *j = json_loads(brace, 0, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT(json_is_false(json_object_get(j, "pinned")));
	CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "server_cpus")), 0);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(json_string_value(json_object_get(j, "topology")), "allowed PUs 0"));
	json_decref(j);
}

TH_MAIN(pin)
