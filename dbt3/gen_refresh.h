/* SPDX-License-Identifier: MIT */
/* DBT-3's refresh data: the update sets of TPC-H dbgen -U, byte-identical. Set n (1-based)
 * holds gen_refresh_rows() new orders with their lineitems (RF1: orders.tbl.uN,
 * lineitem.tbl.uN) and the keys of as many of the table's orders (RF2: delete.N). */
#ifndef DBT3_GEN_REFRESH_H
#define DBT3_GEN_REFRESH_H
#include <stdint.h>

#include "base/util.h"
#include "dbt3/gen.h"

/* Sets 1 to 999 (dbgen's sparse keys give the inserted orders sequence number 1 up to 999). */
#define GEN_REFRESH_SET_MAX 999

/* Orders inserted, and orders deleted, by each set at the context's scale factor: dbgen's
 * (orders per unit of scale / 10000) * scale * 10 in integer arithmetic, 0.1 % of the orders
 * at SF 1 and above (1500 at SF 1, 150 at SF 0.1, 10 at SF 0.01, none below SF 0.01). */
int64_t gen_refresh_rows(const struct gen_ctx *ctx);

/* 0 when the context's scale factor and set number `set` have refresh data: -1 with err filled
 * below SF 0.01 (no rows: dbgen writes empty delete files only), at SF 30000 and above (dbgen
 * draws those keys from 64-bit streams that its update skip does not advance as it generates
 * them) or for a set outside 1..GEN_REFRESH_SET_MAX. */
int gen_refresh_check(const struct gen_ctx *ctx, int64_t set, struct errbuf *err);

/* The key of the i-th order (0-based, i < gen_refresh_rows) set `set` inserts (RF1). */
int64_t gen_refresh_insert_key(const struct gen_ctx *ctx, int64_t set, int64_t i);

/* The key of the i-th order (0-based, i < gen_refresh_rows) set `set` deletes (RF2): the
 * table's orders in key order, gen_refresh_rows() of them per set. */
int64_t gen_refresh_delete_key(const struct gen_ctx *ctx, int64_t set, int64_t i);

/* The table unit (0-based, as in gen_chunk) of the i-th order set `set` deletes. */
int64_t gen_refresh_delete_unit(const struct gen_ctx *ctx, int64_t set, int64_t i);

/* Replaces the contents of orders and lineitem with set `set`'s inserted rows: the bytes of
 * dbgen's orders.tbl.uN and lineitem.tbl.uN (flags as in gen.h). 0, or -1 with err filled. */
int gen_refresh_inserts(const struct gen_ctx *ctx, int64_t set, unsigned flags,
			struct gen_buf *orders, struct gen_buf *lineitem, struct errbuf *err);

/* Replaces out's contents with dbgen's delete.N of set `set`: one key a line, "KEY|" (with
 * GEN_NO_TRAILING_DELIMITER "KEY", as dbgen 2.17 built with EOL_HANDLING). 0, or -1 with err. */
int gen_refresh_deletes(const struct gen_ctx *ctx, int64_t set, unsigned flags, struct gen_buf *out,
			struct errbuf *err);

/* Writes set `set`'s three files into the open directory dirfd (named dir in messages), as
 * dbgen -U names them: orders.tbl.uN, lineitem.tbl.uN and delete.N, each through a temp file
 * renamed when complete (base/safe_write.h). 0, or -1 with err filled (the files written
 * before stay). */
int gen_refresh_write(const struct gen_ctx *ctx, int dirfd, const char *dir, int64_t set,
		      unsigned flags, struct errbuf *err);

#endif
