/* SPDX-License-Identifier: MIT */
/* DBT-3 data generator: rows byte-identical to TPC-H dbgen, streamed as '|'-separated text
 * from any row of any table (the random streams jump ahead, as dbgen's -C/-S chunks do). */
#ifndef DBT3_GEN_H
#define DBT3_GEN_H
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

/* The eight tables, in alphabetical order (the order of the NAME.tbl files). */
enum gen_table {
	GEN_CUSTOMER,
	GEN_LINEITEM,
	GEN_NATION,
	GEN_ORDERS,
	GEN_PART,
	GEN_PARTSUPP,
	GEN_REGION,
	GEN_SUPPLIER,
	GEN_NTABLES
};

/* Stream flags. */
enum gen_flags {
	GEN_NO_TRAILING_DELIMITER =
	    1 << 0 /* rows end "...|last\n" (DBT-3 MySQL build), not "...|last|\n" */
};

/* The longest text of one unit (see gen_rows): gen_stream_read writes units straight into the
 * caller's buffer while this much room is left, the rest through a copy. */
#define GEN_ROW_MAX 4096

/* The shared, read-only state for one scale factor (the 300 MiB text pool, the distributions).
 * Build it once and share it between threads; it must outlive every stream made from it. */
struct gen_ctx;

/* Builds the context for scale factor sf (dbgen's range: 0 < sf <= 100000; fractions below 1
 * follow dbgen's rules). 0 on success; -1 with err filled. Free with gen_ctx_free(). */
int gen_ctx_new(struct gen_ctx **out, double sf, struct errbuf *err);

/* Like gen_ctx_new, building the text pool on `threads` threads (<= 0: one per online CPU; the
 * pool is the same bytes for any count). */
int gen_ctx_new_threads(struct gen_ctx **out, double sf, int threads, struct errbuf *err);

/* Frees the context; NULL is fine. Free every stream made from it first. */
void gen_ctx_free(struct gen_ctx *ctx);

/* The scale factor the context was built for. */
double gen_ctx_scale(const struct gen_ctx *ctx);

/* Number of range units of table t at the context's scale factor. A unit is a row of the table,
 * except: lineitem is counted in ORDERS (unit i = all lineitem rows of order row i, 1 to 7 rows)
 * and partsupp in PARTS (unit i = the 4 partsupp rows of part row i). Ranges passed to
 * gen_stream_new are in these units, 0-based: [0, gen_rows(ctx, t)). */
int64_t gen_rows(const struct gen_ctx *ctx, enum gen_table t);

/* "customer", "lineitem", ... (no extension). */
const char *gen_table_name(enum gen_table t);

/* Parses a table name as written by gen_table_name; 0 on success, -1 when unknown. */
int gen_table_parse(const char *name, enum gen_table *out);

/* A pull-style generator of the units [first, last) of one table. Each stream owns its random
 * state and buffers, so any number of streams may run in parallel threads over one context;
 * a single stream must not be used by two threads at once. */
struct gen_stream;

/* Opens a stream over units [first, last) of t (see gen_rows; last is clamped to gen_rows).
 * Starting at first costs O(log first), not O(first). 0 on success; -1 with err filled.
 * The caller frees the stream with gen_stream_free(); the context must outlive it. */
int gen_stream_new(struct gen_stream **out, const struct gen_ctx *ctx, enum gen_table t,
		   int64_t first, int64_t last, unsigned flags, struct errbuf *err);

/* Fills buf with the next len bytes of rows ('|'-separated, '\n'-terminated), like fread: fewer
 * only at the end of the range, 0 once it is exhausted; a row can be split between calls.
 * Signature-compatible with the body of a mysql_set_local_infile_handler read callback, where a
 * full buffer matters: each call is one protocol packet, and packets of one 120-byte row made
 * the server load orders twice as slowly as from a file. */
size_t gen_stream_read(struct gen_stream *s, char *buf, size_t len);

/* Number of units (see gen_rows) generated so far by this stream, for progress displays. */
int64_t gen_stream_done(const struct gen_stream *s);

/* Frees the stream; NULL is fine. */
void gen_stream_free(struct gen_stream *s);

/* A growable byte buffer; the holder frees data with gen_buf_release(). */
struct gen_buf {
	char *data;
	size_t len, cap;
};

/* Grows b to hold at least need bytes; 0 on success, -1 when out of memory. */
int gen_buf_reserve(struct gen_buf *b, size_t need);

/* Frees b's data and empties it. */
void gen_buf_release(struct gen_buf *b);

/* Replaces out's contents with the rows of units [first, last) of t (see gen_rows). For
 * t = GEN_ORDERS or GEN_PART, a non-NULL out_child also receives the lineitem or partsupp rows of
 * the same units in the same pass (the two tables share random streams); otherwise pass NULL.
 * Thread-safe over a shared ctx. 0 on success; -1 with err filled. */
int gen_chunk(const struct gen_ctx *ctx, enum gen_table t, int64_t first, int64_t last,
	      unsigned flags, struct gen_buf *out, struct gen_buf *out_child, struct errbuf *err);

/* dbgen mk_sparse(): the key of the order with 1-based index `index` and sequence number seq
 * (0 in the table, 1 in dbgen -U's update sets): seq as 2 bits above the index's low 3 bits. */
int64_t gen_order_key(int64_t index, int64_t seq);

/* Replaces the contents of orders and lineitem with the rows of `count` orders drawn from the
 * orders' random streams at unit `first` (0-based, may lie past gen_rows: dbgen -U continues
 * the streams after the table), the orders keyed as dbgen's mk_sparse(index, seq) with index
 * key_first, key_first + 1, ... (the tables' own units are index unit + 1, seq 0).
 * 0 on success; -1 with err filled. */
int gen_orders_extra(const struct gen_ctx *ctx, int64_t first, int64_t count, int64_t key_first,
		     int64_t seq, unsigned flags, struct gen_buf *orders, struct gen_buf *lineitem,
		     struct errbuf *err);

#endif
