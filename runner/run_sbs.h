/* SPDX-License-Identifier: MIT */
/* Side by side (docs/run.md, "Side by side"): two variants' servers up at once, each on its own
 * clone of the data, every query's executions alternated between them; the order within a pair
 * and the two buffer pools. */
#ifndef DBT3_RUN_SBS_H
#define DBT3_RUN_SBS_H
#include "base/util.h"
#include <stdint.h>

/* Whether a run with two variants goes side by side when neither --side-by-side nor
 * --restart-paired is given: the one place that default is set (issue 32: it stays opt-in
 * until bench/sbs-vs-paired.sh has been run on a quiet host). */
#define RUN_SBS_DEFAULT 0

/* The variant (0 or 1, the run's order of --variant) whose execution comes first in slot 0 of
 * every query of pair `pair`: without a seed A in even pairs, B in odd ones; with a seed a coin
 * drawn from (seed, pair). */
int run_sbs_first(uint64_t seed, int seed_given, int pair);

/* The variant that executes first in slot k of a phase (the warm-up, then the measured runs,
 * each counting its slots from 0) when `first` opens the pair: first, other, other, first, ...
 * as pairs of slots: slot k opens with first when k is even (A B, B A, A B, ...). */
int run_sbs_slot_first(int first, int k);

/* The two buffer pools: each the rule's need for the data (srv_pool_plan), or --buffer-pool,
 * or the variant's own innodb_buffer_pool_size (own[k] nonzero), and whether both fit in what
 * RAM gives one server's pools (the cap of srv_pool_plan). */
struct run_sbs_pools {
	uint64_t pool[2];
	uint64_t need; /* what the rule asks for the data */
	uint64_t cap;  /* the most RAM gives the pools together (0: RAM unknown) */
	uint64_t data; /* the data the need is for */
	int fits;      /* pool[0] + pool[1] <= cap (or RAM unknown) */
};

/* Sizes the pools (data_bytes 0: estimated from scale) for ram_bytes of RAM; option_bytes the
 * --buffer-pool (0: none). -1 with one line naming the restart-paired mode when they do not
 * fit (out is filled either way). */
int run_sbs_pools_plan(struct run_sbs_pools *out, uint64_t data_bytes, double scale,
		       uint64_t ram_bytes, uint64_t option_bytes, const uint64_t own[2],
		       struct errbuf *err);

/* The order string of a query's pair so far gets one more letter: 'A' for variant 0, 'B' for 1
 * (s has room for len bytes; a full string is cut and ends in '+'). */
void run_sbs_order_add(char *s, size_t len, int variant);

/* Whether an order string is alternated as run_sbs_slot_first says for its warm-up of nw slots
 * and the measured slots after it, opening with variant first; each slot is two letters, one
 * of each variant (a side that failed leaves the other's letters alone at the end). */
int run_sbs_order_valid(const char *s, int first, int nw);

#endif

/* ---- before anything is made (the command calls it) ---- */

struct run_target;

/* What side by side needs on this host: the source instance's data, whether its filesystem
 * makes reflinks, the disk space two clones need and the space free, and the two pools. */
struct run_sbs_setup {
	uint64_t tree_bytes; /* every file of DIR/data (what a copy writes) */
	uint64_t data_bytes; /* its tablespaces (what the pools are sized for), 0: not loaded */
	int reflink;	     /* DIR's filesystem makes reflinks */
	uint64_t need_bytes, free_bytes;
	struct run_sbs_pools pools;
};

/* Checks that two clones of the instance the n (two) targets name fit on its disk and that both
 * servers' buffer pools (a target's --buffer-pool or innodb_buffer_pool_size option, else the
 * rule's need) fit in RAM: -1 with one line when not (the command exits 2), nothing made but a
 * probe file removed again. scale: the plan's scale factor. */
int run_sbs_check(struct run_sbs_setup *out, const struct run_target *targets, int n,
		  double scale, struct errbuf *err);

/* The line the command says before the run: "side by side: two copy clones of 'DIR/data'
 * (401 MiB), buffer pools 512 + 512 MiB". */
void run_sbs_describe(char *buf, size_t len, const struct run_sbs_setup *su, const char *dir);

/* "reflink" or "copy": how the clones are made, for the messages and the result file. */
const char *run_sbs_clone_name(int reflink);
