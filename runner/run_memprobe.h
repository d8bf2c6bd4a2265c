/* SPDX-License-Identifier: MIT */
/* The memory-contention probe of the interference record (docs/run.md, "Interference"): a
 * random pointer chase over a ring of a few MiB, read once to load it and once more timed. On a
 * quiet host the timed pass hits the last-level cache; when neighbours (other processes, other
 * VMs on the same socket) evict it, it runs at memory latency, several times slower. */
#ifndef DBT3_RUN_MEMPROBE_H
#define DBT3_RUN_MEMPROBE_H
#include "base/util.h"
#include <stddef.h>

/* Ring size: an eighth of the last-level cache (llc_bytes, 0 when unknown: 32 MiB assumed),
 * within [RUN_MEMPROBE_MIN_BYTES, RUN_MEMPROBE_MAX_BYTES]. */
#define RUN_MEMPROBE_MIN_BYTES (1u << 20)
#define RUN_MEMPROBE_MAX_BYTES (16u << 20)
size_t run_memprobe_ring_bytes(size_t llc_bytes);

/* A ring of bytes / sizeof(size_t) slots holding one random cycle through all of them
 * (Sattolo's algorithm, fixed seed: the same ring in every run). Free with run_memprobe_free. */
struct run_memprobe;
int run_memprobe_new(struct run_memprobe **out, size_t bytes, struct errbuf *err);
void run_memprobe_free(struct run_memprobe *p);

size_t run_memprobe_bytes(const struct run_memprobe *p);

/* The memory reference of doctor's host-quietness check: a ring far larger than the cache, one
 * slot per 64-byte line in one random cycle through the lines (Sattolo's algorithm, the same
 * seed), so that every step of a chase misses the cache whatever the neighbours do; in huge
 * pages where transparent huge pages allow (MADV_HUGEPAGE), so that a step is not also a page
 * walk. Its probe
 * (run_memprobe_take) times steps steps from where the previous one stopped, without a loading
 * pass. run_memprobe_far_bytes: RUN_MEMPROBE_FAR_TIMES the ring of run's probe, within
 * [RUN_MEMPROBE_FAR_MIN_BYTES, RUN_MEMPROBE_FAR_MAX_BYTES]. */
#define RUN_MEMPROBE_FAR_TIMES 16
#define RUN_MEMPROBE_FAR_MIN_BYTES (64u << 20)
#define RUN_MEMPROBE_FAR_MAX_BYTES (256u << 20)
#define RUN_MEMPROBE_FAR_STEPS (1u << 16)
size_t run_memprobe_far_bytes(size_t ring_bytes);
int run_memprobe_new_far(struct run_memprobe **out, size_t bytes, size_t steps, struct errbuf *err);

/* One probe: a pass over the ring to load it, then a timed pass; the timed pass's nanoseconds
 * of the calling thread's CPU time per step (time other tasks took the CPU is not counted).
 * A memory reference (run_memprobe_new_far): its steps, timed the same way. */
double run_memprobe_take(struct run_memprobe *p);

/* A thread that takes the probes on the given PUs (n_cpus 0: wherever the scheduler puts
 * it), started once before any server: its placement is set when it is born and never seen
 * otherwise. run_memprobe_worker_take asks it for one probe and waits for the figure; the
 * worker does not own p. Stop (and free) with run_memprobe_worker_stop, which accepts NULL. */
struct run_memprobe_worker;
int run_memprobe_worker_start(struct run_memprobe_worker **out, struct run_memprobe *p,
			      const unsigned *cpus, int n_cpus, struct errbuf *err);
double run_memprobe_worker_take(struct run_memprobe_worker *w);
void run_memprobe_worker_stop(struct run_memprobe_worker *w);

/* run's probe fitted to the cache its PUs really get: a last-level cache size from the
 * topology can be wrong (a VM may report the host's, or none), and a ring that does not fit
 * runs at memory latency even on a quiet host, where no eviction can slow it further. From
 * bytes down by halves to RUN_MEMPROBE_MIN_BYTES, the first ring whose quiet probe (the fastest
 * of RUN_MEMPROBE_FIT_TAKES, as run_memprobe_take) is at most 1 / RUN_MEMPROBE_FIT_RATIO of the
 * same ring's probe right after a write pass over run_memprobe_far_bytes(bytes) (evicted, as a
 * neighbour leaves it) is kept, the smallest when none is; taken by a thread on cpus. *out the
 * ring, *out_worker its worker (as run_memprobe_worker_start), *out_memory_ns its evicted
 * probe: what a probe under pressure costs. */
#define RUN_MEMPROBE_FIT_RATIO 3.0
#define RUN_MEMPROBE_FIT_TAKES 2
int run_memprobe_fit(struct run_memprobe **out, struct run_memprobe_worker **out_worker,
		     double *out_memory_ns, size_t bytes, const unsigned *cpus, int n_cpus,
		     struct errbuf *err);

/* The length of the cycle that starts at slot 0 (the slot count when the ring is one cycle
 * through every slot; for a memory reference, the line count): for the tests. */
size_t run_memprobe_cycle_length(const struct run_memprobe *p);

#endif
