/* SPDX-License-Identifier: MIT */
/* Named per-execution counts in a restart entry (docs/result-format.md, "work"): the server's
 * work counters, and any other count taken per measured execution. In the file each name maps
 * to one integer when every measured execution had that count, else to an array of them. */
#ifndef DBT3_RES_COUNTS_H
#define DBT3_RES_COUNTS_H
#include "result/res.h"
#include <stddef.h>

#define RES_COUNTS_MAX 64	       /* names in one record */
#define RES_COUNT_MAX 9007199254740992LL /* 2^53: exact in a double, so in any JSON reader */

/* Counter c's count in execution e is v[c * n_exec + e]. The struct owns names and v. */
struct res_counts {
	size_t n;      /* names */
	size_t n_exec; /* executions (a restart's measured ones) */
	char **names;
	long long *v;
};

/* An empty record for n_exec executions. */
void res_counts_init(struct res_counts *c, size_t n_exec);

/* Frees what c holds and empties it; a zeroed struct is fine. */
void res_counts_release(struct res_counts *c);

/* Appends name with its n_exec counts (copied). -1 on out of memory or past RES_COUNTS_MAX. */
int res_counts_add(struct res_counts *c, const char *name, const long long *per_exec);

/* Index of name (exact spelling), or -1. */
int res_counts_find(const struct res_counts *c, const char *name);

/* The file's form (a new reference): {name: count} when the executions agree, else
 * {name: [count per execution]}. NULL on out of memory. */
json_t *res_counts_json(const struct res_counts *c);

/* Checks a record as the reader does: an object of at most RES_COUNTS_MAX names of 1 to
 * RES_MAX_NAME letters, digits or '_', each an integer in [0, RES_COUNT_MAX] or an array of exactly n_exec
 * of them. On failure returns -1, key names the offending member ("" for the record itself)
 * and msg says what is wrong. */
int res_counts_check(const json_t *o, size_t n_exec, char *key, size_t key_len, char *msg,
		     size_t msg_len);

/* Checks a side-by-side entry's "side_by_side" record of its pair (not counts; the reader checks
 * it with them): "first" a string, "order" a string of 'A' and 'B' (at most RES_MAX_ORDER, '+'
 * at the end when cut), "started_unix_ms" two times and "pids" two pids. As res_counts_check. */
int res_sbs_check(const json_t *o, char *key, size_t key_len, char *msg, size_t msg_len);

/* Reads member (e.g. "work") of a restart entry (r->extra) into out, expanded to r->n_measured
 * executions: 1 when present, 0 when absent or not a valid record (out empty), -1 on OOM. */
int res_counts_get(struct res_counts *out, const struct res_restart *r, const char *member);

/* The first of counter c's executions that is warm: 1 when the restart had no warm-up and more
 * than one measured execution (the first execution after a start opens tables: docs/work.md),
 * else 0. */
size_t res_counts_first_warm(const struct res_counts *c, const struct res_restart *r);

/* The rows q read in the warm measured executions of its ok restarts with work records
 * (Rows_read, else Handler_read_rnd_next: MySQL 8 has no Rows_read): *out_first the first
 * execution's count (-1: none), *out_restarts the restarts that had one. 1 when another
 * execution's count differs from the first, else 0. */
int res_query_rows_read(const struct res_query *q, long long *out_first, size_t *out_restarts);

#endif
