/* SPDX-License-Identifier: MIT */
/* Side by side (docs/run.md, "Side by side"): two variants' servers up at once, each on its own
 * clone of the data, every query's executions alternated between them; the order within a pair
 * and the two buffer pools. */
#ifndef DBT3_RUN_SBS_H
#define DBT3_RUN_SBS_H
#include "base/util.h"
#include <stdint.h>

/* Whether a run with two variants goes side by side when neither --side-by-side nor
 * --restart-paired is given and both servers fit: the one place that default is set (the
 * evidence: docs/statistics.md, "Side by side as the default"). */
#define RUN_SBS_DEFAULT 1

/* The order within a pair (docs/run.md, "Side by side"): strict alternation, A B A B ... over
 * the whole pair, warm-up and measured executions and from one query to the next, so that no
 * server executes twice in a row while both are up. */

/* plan.side_by_side.order of the files this version writes: "alternate" (the opener of pair r
 * is r % 2) or "alternate-coin" (with --seed: a coin per pair). The older "abba" and "coin"
 * were the ABBA order, which run --resume refuses. */
const char *run_sbs_order_name(int seed_given);

/* Whether name is one of run_sbs_order_name's: a run --resume can continue (NULL: no). */
int run_sbs_order_current(const char *name);

/* The variant (0 or 1, the run's order of --variant) that opens pair `pair`: without a seed A
 * in even pairs, B in odd ones; with a seed a coin drawn from (seed, pair). */
int run_sbs_first(uint64_t seed, int seed_given, int pair);

/* The variant that opens a query's executions: the pair's opener for its first query (last
 * < 0: nothing has executed yet in the pair), else the side that did not execute last (last:
 * the variant of the pair's last execution). Every slot of the query, warm-up and measured,
 * opens with it: A B, A B, ... */
int run_sbs_query_first(int pair_first, int last);

/* The order string of a pair in which no side fails: n queries of slots[i] slots each (two
 * executions a slot: warm-up, measured and the unrecorded one), opened by pair_first, as
 * run_sbs_query_first orders them; written to out (len bytes, cut with '+' as
 * run_sbs_order_add does). Returns the executions (2 x the slots). */
size_t run_sbs_pair_order(char *out, size_t len, int pair_first, const int *slots, int n);

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
 * --buffer-pool (0: none). RUN_SBS_NO_ROOM with one line saying what is short when they do not
 * fit (out is filled either way); the command says what to do. */
int run_sbs_pools_plan(struct run_sbs_pools *out, uint64_t data_bytes, double scale,
		       uint64_t ram_bytes, uint64_t option_bytes, const uint64_t own[2],
		       struct errbuf *err);

/* The order string of a query's pair so far gets one more letter: 'A' for variant 0, 'B' for 1
 * (s has room for len bytes; a full string is cut and ends in '+'). */
void run_sbs_order_add(char *s, size_t len, int variant);

/* Whether an order string alternates strictly from variant first (ABAB... or BABA...), then,
 * where a side failed at its turn, has only the other side's letters (ABABBB: A failed after
 * two executions, BBB with first A: at its first); a cut string ends in '+'. */
int run_sbs_order_valid(const char *s, int first);

#endif

/* ---- before anything is made (the command calls it) ---- */

struct run_target;

/* run_sbs_check's and run_sbs_pools_plan's return when this host has no room for the second
 * server (disk or RAM): the run can still measure restart-paired. */
#define RUN_SBS_NO_ROOM (-2)

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
 * rule's need) fit in RAM: RUN_SBS_NO_ROOM with one line saying what is short when they do not,
 * -1 when the instance cannot be read; nothing made but a probe file removed again. scale: the
 * plan's scale factor. */
int run_sbs_check(struct run_sbs_setup *out, const struct run_target *targets, int n,
		  double scale, struct errbuf *err);

/* The line the command says before the run: "side by side: two copy clones of 'DIR/data'
 * (401 MiB), buffer pools 512 + 512 MiB". */
void run_sbs_describe(char *buf, size_t len, const struct run_sbs_setup *su, const char *dir);

/* "reflink" or "copy": how the clones are made, for the messages and the result file. */
const char *run_sbs_clone_name(int reflink);
