/* SPDX-License-Identifier: MIT */
/* The optimizer trace (MariaDB optimizer_trace, MySQL 8 OPTIMIZER_TRACE) reduced to its decision
 * summary: per query block the join orders the optimizer considered with their rows and costs,
 * the order it chose and the semi-join strategies; and what two summaries say against each
 * other (docs/explain.md, "Why the optimizer chose it"). Pure: nothing here prints. */
#ifndef DBT3_RES_TRACE_H
#define DBT3_RES_TRACE_H
#include "base/util.h"
#include <jansson.h>
#include <stddef.h>

/* At most this many considered plan steps are kept per query (the rest are counted). */
#define RES_TRACE_MAX_PLANS 1000

/* The summary of a trace text as the JSON a restart stores as "optimizer_trace":
 * {"trace_bytes", "missing_bytes", "plans_dropped", "blocks": [{"select_id", "plans":
 * [[depth, table, rows, cost, outcome(, semijoin strategy)]...], "best_join_order",
 * "chosen_step", "cost", "semijoin"}]}. missing_bytes is the server's
 * MISSING_BYTES_BEYOND_MAX_MEM_SIZE (a truncated trace does not parse: -1 and err). *out is a new
 * reference. */
int res_trace_summarize(json_t **out, const char *trace, size_t len, long long missing_bytes,
			struct errbuf *err);

/* About how many JSON keys and values the summaries of a run add (400 per query and restart:
 * the 22 queries' summaries at SF 0.1 hold about 6 000 together, Q8's 2 400 of them). */
size_t res_trace_tokens(long restarts, long n_queries);

/* A step's outcome: extended (the search went on from it), a complete plan (MySQL: kept as the
 * best so far or not), or pruned. */
enum res_tstep_outcome {
	RES_T_EXTENDED,
	RES_T_COMPLETE,
	RES_T_CHOSEN,
	RES_T_NOT_CHOSEN,
	RES_T_PRUNED_COST,
	RES_T_PRUNED_HEURISTIC,
};

/* The summary's short name of an outcome ("", "full", "chosen", "not_chosen", "cost",
 * "heuristic") and its words in the text ("extended", "complete", ...). */
const char *res_tstep_code(enum res_tstep_outcome o);
const char *res_tstep_words(enum res_tstep_outcome o);

struct res_tstep {
	int depth; /* 0: the first table of the order; the prefix is the steps above it */
	const char *table;
	double rows, cost;
	enum res_tstep_outcome outcome;
	const char *sj; /* the semi-join strategy chosen at this step, or NULL */
};

struct res_tblock {
	long select_id;
	struct res_tstep *steps;
	size_t n_steps;
	const char **order; /* best_join_order (MySQL: refine_plan's tables); n_order may be 0 */
	size_t n_order;
	long chosen;	  /* the step of the chosen plan (its path: the order in the search's
			   * terms), -1 when not found */
	double cost;	  /* cost_for_plan of that step; NaN: not found */
	json_t *semijoin; /* array of strings, borrowed */
};

/* A summary read back (from a result file: anything malformed makes it absent). The strings
 * point into the JSON, which must outlive it; release with res_tsum_release. */
struct res_tsum {
	struct res_tblock *blocks;
	size_t n_blocks;
	long long trace_bytes, missing_bytes, plans_dropped;
};

/* Reads a stored summary; -1 (err) when it is not one. */
int res_tsum_read(struct res_tsum *out, json_t *summary, struct errbuf *err);
void res_tsum_release(struct res_tsum *s);

/* The block of select_id, or NULL. */
const struct res_tblock *res_tsum_block(const struct res_tsum *s, long select_id);

/* The chosen plan's join order as the search built it (the chosen step's path), else
 * best_join_order: into out[] (at most max), its length. */
size_t res_tblock_chosen_path(const struct res_tblock *b, const char **out, size_t max);

/* The path of step i of b (its prefix and its table) into out[] (at most max): its length. */
size_t res_tblock_path(const struct res_tblock *b, size_t i, const char **out, size_t max);

/* Where the join order order[0..n) is in b: the index of the last step whose path is that
 * order, else of the step with the longest path that is a prefix of it (*out_len its length);
 * -1 when not even its first table was considered. */
long res_tblock_find(const struct res_tblock *b, const char *const *order, size_t n,
		     size_t *out_len);

/* The first point where two summaries' decisions part, walking both in order: per block its
 * select_id, then each step (depth, table, outcome), then its chosen order and semi-join
 * strategies. Rows and costs are not decisions. */
struct res_tpart {
	int parted;	  /* 0: the same decisions throughout */
	long select_id;	  /* the block where they part (old's, else new's) */
	long step;	  /* 0-based step index in it; -1 at the block itself or its end */
	const char *what; /* "block", "step", "order" or "semijoin" */
	const struct res_tblock *old_block, *new_block; /* NULL where that side has none */
};
void res_tsum_part(struct res_tpart *out, const struct res_tsum *old, const struct res_tsum *new);

#endif
