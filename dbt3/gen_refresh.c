/* SPDX-License-Identifier: MIT */
/* dbgen -U's update sets (TPC-H dbgen 2.17.3, driver.c, print.c pr_drange, build.c mk_order):
 * set n inserts the orders the streams draw after the table's last order, keyed into the gaps
 * of the sparse keys, and deletes the table's orders with indexes (n-1)*rows+1 .. n*rows. */
#include "dbt3/gen_refresh.h"

#include <stdio.h>
#include <string.h>

#include "base/safe_write.h"

/* dbgen's integer `scale`: 1 below SF 1 (the row counts carry the fraction), else (long)SF. */
static int64_t dbgen_scale(const struct gen_ctx *ctx)
{
	double sf = gen_ctx_scale(ctx);
	return sf < 1.0 ? 1 : (int64_t)sf;
}

int64_t gen_refresh_rows(const struct gen_ctx *ctx)
{
	/* driver.c: rowcnt = tdefs[ORDER_LINE].base / 10000 * scale * UPD_PCT (UPD_PCT = 10),
	 * where base is the orders per unit of scale (1500000, or 1500 * (int)(1000 * SF)). */
	int64_t scale = dbgen_scale(ctx);
	int64_t base = gen_rows(ctx, GEN_ORDERS) / scale;
	return base / 10000 * scale * 10;
}

int gen_refresh_check(const struct gen_ctx *ctx, int64_t set, struct errbuf *err)
{
	if (gen_ctx_scale(ctx) >= 30000.0)
		return errbuf_set(err, "refresh data is not made at scale factor 30000 or above");
	if (gen_refresh_rows(ctx) == 0)
		return errbuf_set(
		    err,
		    "scale factor %g has no refresh data (dbgen's update sets are empty "
		    "below 0.01)",
		    gen_ctx_scale(ctx));
	if (set < 1 || set > GEN_REFRESH_SET_MAX)
		return errbuf_set(err, "refresh set %lld is out of range [1, %d]", (long long)set,
				  GEN_REFRESH_SET_MAX);
	return 0;
}

/* The 1-based order index of the i-th order of set `set` (both the inserted and the deleted). */
static int64_t set_index(const struct gen_ctx *ctx, int64_t set, int64_t i)
{
	return (set - 1) * gen_refresh_rows(ctx) + 1 + i;
}

int64_t gen_refresh_insert_key(const struct gen_ctx *ctx, int64_t set, int64_t i)
{
	/* mk_order(index, o, upd_num % 10000): seq = 1 + upd_num / (10000 / UPD_PCT) */
	return gen_order_key(set_index(ctx, set, i), 1 + (set % 10000) / 1000);
}

int64_t gen_refresh_delete_key(const struct gen_ctx *ctx, int64_t set, int64_t i)
{
	/* pr_drange: MK_SPARSE(index, num / (10000 / UPD_PCT)), seq masked to 2 bits */
	return gen_order_key(set_index(ctx, set, i), (set / 1000) & 3);
}

int64_t gen_refresh_delete_unit(const struct gen_ctx *ctx, int64_t set, int64_t i)
{
	return set_index(ctx, set, i) - 1;
}

int gen_refresh_inserts(const struct gen_ctx *ctx, int64_t set, unsigned flags,
			struct gen_buf *orders, struct gen_buf *lineitem, struct errbuf *err)
{
	if (gen_refresh_check(ctx, set, err) < 0)
		return -1;
	/* set_state(ORDER, scale, 100, 101): every order and lineitem stream skips the table's
	 * orders (a multiple of 100 at any SF, so the lineitem streams' remainder skip is moot);
	 * then set n's orders follow set n-1's. */
	int64_t rows = gen_refresh_rows(ctx);
	int64_t first = gen_rows(ctx, GEN_ORDERS) + (set - 1) * rows;
	return gen_orders_extra(ctx, first, rows, set_index(ctx, set, 0), 1 + (set % 10000) / 1000,
				flags, orders, lineitem, err);
}

int gen_refresh_deletes(const struct gen_ctx *ctx, int64_t set, unsigned flags, struct gen_buf *out,
			struct errbuf *err)
{
	if (gen_refresh_check(ctx, set, err) < 0)
		return -1;
	int64_t rows = gen_refresh_rows(ctx);
	const char *end = (flags & GEN_NO_TRAILING_DELIMITER) ? "\n" : "|\n";
	out->len = 0;
	for (int64_t i = 0; i < rows; i++) {
		if (gen_buf_reserve(out, out->len + 32) < 0)
			return errbuf_set(err, "out of memory");
		int n = snprintf(out->data + out->len, 32, "%lld%s",
				 (long long)gen_refresh_delete_key(ctx, set, i), end);
		out->len += (size_t)n;
	}
	return 0;
}

static int write_one(int dirfd, const char *dir, const char *name, const struct gen_buf *b,
		     struct errbuf *err)
{
	char path[4096];
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return errbuf_set(err, "output path '%s/%s' is too long", dir, name);
	return util_write_fileat(dirfd, name, path, b->len ? b->data : "", b->len, 0644, err);
}

int gen_refresh_write(const struct gen_ctx *ctx, int dirfd, const char *dir, int64_t set,
		      unsigned flags, struct errbuf *err)
{
	struct gen_buf o = {0}, l = {0}, d = {0};
	char name[64];
	int rc = gen_refresh_inserts(ctx, set, flags, &o, &l, err);
	if (rc == 0)
		rc = gen_refresh_deletes(ctx, set, flags, &d, err);
	if (rc == 0) {
		snprintf(name, sizeof(name), "orders.tbl.u%lld", (long long)set);
		rc = write_one(dirfd, dir, name, &o, err);
	}
	if (rc == 0) {
		snprintf(name, sizeof(name), "lineitem.tbl.u%lld", (long long)set);
		rc = write_one(dirfd, dir, name, &l, err);
	}
	if (rc == 0) {
		snprintf(name, sizeof(name), "delete.%lld", (long long)set);
		rc = write_one(dirfd, dir, name, &d, err);
	}
	gen_buf_release(&o);
	gen_buf_release(&l);
	gen_buf_release(&d);
	return rc < 0 ? -1 : 0;
}
