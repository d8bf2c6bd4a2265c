/* SPDX-License-Identifier: MIT */
/* CPU and memory placement of the server and the client with hwloc: topology, default
 * placement, overrides, binding in the forked child, verification through /proc. */
#ifndef DBT3_PIN_H
#define DBT3_PIN_H
#include "base/util.h"
#include "pinning/stabilizers.h"
#include <jansson.h>
#include <stdio.h>
#include <sys/types.h>

/* Most OS indexes a placement list holds (CPUs or NUMA nodes). */
#define PIN_MAX_IDS 1024

struct pin_topo;

/* Loads a topology: spec NULL (or "machine") is this machine, "synthetic:DESC" an hwloc
 * synthetic description such as "synthetic:pack:2 numa:1 core:8 pu:2", anything else an
 * XML file (lstopo out.xml). The machine's allowed cpuset is the cgroup's intersected with
 * the process's affinity (taskset). Free with pin_topo_free(). */
int pin_topo_load(struct pin_topo **out, const char *spec, struct errbuf *err);

/* Restricts the allowed PUs to the list (hwloc list syntax "0-3,8", OS indexes), as cgroups
 * or taskset would; for tests on synthetic or XML topologies. */
int pin_topo_restrict(struct pin_topo *topo, const char *cpulist, struct errbuf *err);

/* Short description, e.g. "machine: 1 package, 2 cores, 2 PUs, 1 NUMA node" into out. */
void pin_topo_describe(const struct pin_topo *topo, char *out, size_t len);

void pin_topo_free(struct pin_topo *topo);

/* The largest data cache above the PU of OS index pu (pu < 0 or absent: the first PU), in
 * bytes; 0 when the topology says none. */
size_t pin_topo_llc_bytes(const struct pin_topo *topo, int pu);

/* What the user asked for on the command line (all strings borrowed from argv). */
struct pin_opts {
	const char *topology;	 /* --topology FILE|synthetic:DESC, NULL = machine */
	const char *server_cpus; /* --server-cpus LIST */
	const char *client_cpus; /* --client-cpus LIST */
	const char *membind;	 /* --membind NODES */
	int no_pin;		 /* --no-pin */
	struct stab_opts stab;	 /* --no-aslr, --nice, --sched-fifo, --drop-caches, --large-pages */
};

/* A computed placement, plain data. Lists are sorted OS indexes. */
struct pin_placement {
	int pinned; /* 0: run unpinned (single PU or --no-pin) */
	int n_server, n_client, n_membind;
	unsigned server_cpus[PIN_MAX_IDS];   /* PU OS indexes for the server process */
	unsigned client_cpus[PIN_MAX_IDS];   /* PU OS indexes for the client thread */
	unsigned membind_nodes[PIN_MAX_IDS]; /* NUMA node OS indexes for the server's memory */
	char reason[512];		     /* why, in one or two sentences */
	char warning[256];		     /* empty, or what the user should know (unpinned) */
};

/* Computes the placement for opts on topo (default rules of docs/pinning.md plus overrides).
 * An override outside the allowed cpuset or nodeset is an error. */
int pin_placement_compute(struct pin_placement *out, struct pin_topo *topo,
			  const struct pin_opts *opts, struct errbuf *err);

/* A list of OS indexes as "1,3-5" into out. */
void pin_ids_format(char *out, size_t len, const unsigned *ids, int n);

/* JSON {"pinned", "server_cpus", "client_cpus", "membind_nodes", "reason", "warning"};
 * the caller owns the reference. */
json_t *pin_placement_to_json(const struct pin_placement *p);

/* The codes pin_opts_parse takes: --server-cpus, --client-cpus, --membind, --no-pin and the
 * stabilizer flags (--no-aslr, --nice, --sched-fifo, --drop-caches, --large-pages); the
 * command layer's table of them is commands/cmd_pin_opts.c. PIN_OPT_TOPOLOGY: only `pin`. */
#define PIN_OPT_BASE 0x7000
enum pin_opt_code {
	PIN_OPT_SERVER_CPUS = PIN_OPT_BASE,
	PIN_OPT_CLIENT_CPUS,
	PIN_OPT_MEMBIND,
	PIN_OPT_NO_PIN,
	PIN_OPT_NO_ASLR,
	PIN_OPT_NICE,
	PIN_OPT_SCHED_FIFO,
	PIN_OPT_DROP_CACHES,
	PIN_OPT_LARGE_PAGES,
	PIN_OPT_TOPOLOGY
};

/* Handles one getopt_long result c with its optarg: 1 when c is a pin or stabilizer option
 * (stored into opts), 0 when it is not one of ours, -1 on a bad value (err filled). */
int pin_opts_parse(struct pin_opts *opts, int c, const char *arg, struct errbuf *err);

/* Checks combinations once parsing is done (--no-pin with a CPU list, root-only flags). */
int pin_opts_check(const struct pin_opts *opts, struct errbuf *err);

/* Everything a run needs: topology, placement, stabilizers, the cpusets prepared for the
 * child. Made once before the first start; free with pin_ctx_free(). */
struct pin_ctx;

int pin_ctx_init(struct pin_ctx **out, const struct pin_opts *opts, struct errbuf *err);
const struct pin_placement *pin_ctx_placement(const struct pin_ctx *ctx);
void pin_ctx_free(struct pin_ctx *ctx);

/* The child hook for srv_start (arg is the struct pin_ctx *): in the forked child before
 * exec, binds CPUs for the whole process and the memory policy (inherited by every thread
 * the server creates), then applies --no-aslr, --nice and --sched-fifo. Returns 0, or -1
 * after writing one line on stderr. Async-signal-safe apart from hwloc's binding calls. */
int pin_child_hook(void *arg);

/* Parent side, before each start: --drop-caches (sync, then /proc/sys/vm/drop_caches). */
int pin_ctx_before_start(struct pin_ctx *ctx, struct errbuf *err);

/* Extra server options the stabilizers add, as option names for a srv_kv overlay without
 * value ("large-pages" when asked for and the host has huge pages): up to max pointers to
 * static strings into out; returns the count. */
int pin_ctx_server_args(const struct pin_ctx *ctx, const char **out, int max);

/* Parent side, after the server is up: reads Cpus_allowed_list, Mems_allowed_list and the
 * memory policy (numa_maps) of every thread in /proc/PID/task; any thread that differs from
 * the placement is an error naming the thread (-1). Returns the number of threads checked,
 * 0 for an unpinned placement. */
int pin_ctx_verify(const struct pin_ctx *ctx, pid_t pid, struct errbuf *err);

/* Binds the calling thread (the client) to the client CPUs and its memory to membind_nodes. */
int pin_ctx_bind_client(const struct pin_ctx *ctx, struct errbuf *err);

/* The size in bytes of the largest data cache above the server's first PU (the first PU when
 * unpinned) in the topology; 0 when the topology names no cache. */
size_t pin_ctx_llc_bytes(const struct pin_ctx *ctx);

/* {"topology": "...", "placement": {...}, "stabilizers": {...}} for the result file; the
 * caller owns the reference. */
json_t *pin_ctx_to_json(const struct pin_ctx *ctx);

/* Reads one thread's Cpus_allowed_list and Mems_allowed_list from /proc/PID/task/TID/status
 * into the buffers (as printed by the kernel, e.g. "0-1"). For tests and verify. */
int pin_proc_allowed(pid_t pid, pid_t tid, char *cpus, size_t cpus_len, char *mems, size_t mems_len,
		     struct errbuf *err);

#endif
