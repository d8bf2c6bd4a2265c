/* SPDX-License-Identifier: MIT */
/* The refresh functions: the rows of gen_refresh.c sent as multi-row INSERTs and key-list
 * DELETEs in batches of at most RF_BATCH_BYTES of SQL, each function in one transaction. */
#include "dbt3/rf.h"

#include <errmsg.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbt3/gen_refresh.h"

#define RF_BATCH_BYTES (1 << 20) /* below every server's max_allowed_packet (default 16 MiB) */

static int server_gone(unsigned e)
{
	return e == CR_SERVER_GONE_ERROR || e == CR_SERVER_LOST || e == CR_CONNECTION_ERROR ||
	       e == CR_CONN_HOST_ERROR || e == 1053 /* ER_SERVER_SHUTDOWN */;
}

/* Runs sql (len bytes); *affected (may be NULL) gets the rows it changed. 0, -1 or RF_E_SERVER
 * with err filled. */
static int run_sql(MYSQL *m, const char *sql, size_t len, int64_t *affected, struct errbuf *err)
{
	if (mysql_real_query(m, sql, (unsigned long)len) != 0) {
		unsigned e = mysql_errno(m);
		errbuf_set(err, "'%.40s...' failed: %s (%u)", sql, mysql_error(m), e);
		return server_gone(e) ? RF_E_SERVER : -1;
	}
	if (mysql_field_count(m) == 0) {
		if (affected)
			*affected += (int64_t)mysql_affected_rows(m);
		return 0;
	}
	mysql_free_result(mysql_store_result(m));
	return 0;
}

static int run_text(MYSQL *m, const char *sql, struct errbuf *err)
{
	return run_sql(m, sql, strlen(sql), NULL, err);
}

/* Appends n bytes to b; -1 when out of memory. */
static int buf_add(struct gen_buf *b, const char *s, size_t n)
{
	if (gen_buf_reserve(b, b->len + n + 1) < 0)
		return -1;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

/* Appends one '|'-separated row (ending "|\n") as "('f1','f2',...)", each field escaped. */
static int row_add(MYSQL *m, struct gen_buf *b, const char *row, const char *end)
{
	if (buf_add(b, "(", 1) < 0)
		return -1;
	const char *p = row;
	int first = 1;
	while (p < end) {
		const char *bar = memchr(p, '|', (size_t)(end - p));
		if (!bar)
			bar = end;
		size_t n = (size_t)(bar - p);
		if (gen_buf_reserve(b, b->len + 2 * n + 4) < 0)
			return -1;
		if (!first)
			b->data[b->len++] = ',';
		b->data[b->len++] = '\'';
		b->len += mysql_real_escape_string(m, b->data + b->len, p, (unsigned long)n);
		b->data[b->len++] = '\'';
		first = 0;
		p = bar + 1;
	}
	return buf_add(b, ")", 1);
}

/* INSERTs the rows of `rows` (gen format, each ending "|\n") into table, in batches; *n gets
 * the rows the server took. 0, -1 or RF_E_SERVER. */
static int insert_rows(MYSQL *m, const char *table, const struct gen_buf *rows, int64_t *n,
		       struct errbuf *err)
{
	struct gen_buf sql = {0};
	const char *p = rows->data, *end = rows->data + rows->len;
	int rc = 0;
	while (rc == 0 && p < end) {
		sql.len = 0;
		if (buf_add(&sql, "INSERT INTO ", 12) < 0 ||
		    buf_add(&sql, table, strlen(table)) < 0 || buf_add(&sql, " VALUES ", 8) < 0) {
			rc = errbuf_set(err, "out of memory");
			break;
		}
		int nrows = 0;
		while (p < end && sql.len < RF_BATCH_BYTES) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *stop = nl ? nl : end;
			if ((nrows++ && buf_add(&sql, ",", 1) < 0) ||
			    row_add(m, &sql, p, stop > p && stop[-1] == '|' ? stop - 1 : stop) <
				0) {
				rc = errbuf_set(err, "out of memory");
				break;
			}
			p = nl ? nl + 1 : end;
		}
		if (rc == 0)
			rc = run_sql(m, sql.data, sql.len, n, err);
	}
	gen_buf_release(&sql);
	return rc;
}

/* DELETEs from table the rows whose `column` is one of the n keys, in batches; *deleted gets
 * the rows deleted. 0, -1 or RF_E_SERVER. */
static int delete_keys(MYSQL *m, const char *table, const char *column, const int64_t *keys,
		       int64_t n, int64_t *deleted, struct errbuf *err)
{
	struct gen_buf sql = {0};
	int rc = 0;
	for (int64_t i = 0; rc == 0 && i < n;) {
		char head[128], num[32];
		sql.len = 0;
		int hn =
		    snprintf(head, sizeof(head), "DELETE FROM %s WHERE %s IN (", table, column);
		if (buf_add(&sql, head, (size_t)hn) < 0) {
			rc = errbuf_set(err, "out of memory");
			break;
		}
		for (int64_t k = 0; i < n && sql.len < RF_BATCH_BYTES; i++, k++) {
			int len =
			    snprintf(num, sizeof(num), "%s%lld", k ? "," : "", (long long)keys[i]);
			if (buf_add(&sql, num, (size_t)len) < 0) {
				rc = errbuf_set(err, "out of memory");
				break;
			}
		}
		if (rc == 0 && buf_add(&sql, ")", 1) < 0)
			rc = errbuf_set(err, "out of memory");
		if (rc == 0)
			rc = run_sql(m, sql.data, sql.len, deleted, err);
	}
	gen_buf_release(&sql);
	return rc;
}

/* The keys of the orders set `set` inserts (deleted == 0) or deletes; caller frees. */
static int64_t *set_keys(const struct gen_ctx *ctx, int64_t set, int deleted, int64_t n)
{
	int64_t *keys = malloc(sizeof(*keys) * (size_t)(n > 0 ? n : 1));
	for (int64_t i = 0; keys && i < n; i++)
		keys[i] = deleted ? gen_refresh_delete_key(ctx, set, i)
				  : gen_refresh_insert_key(ctx, set, i);
	return keys;
}

/* Ends the transaction: COMMIT when rc is 0, else ROLLBACK (its own failure ignored: the
 * first error is the one reported). */
static int finish(MYSQL *m, int rc, struct errbuf *err)
{
	if (rc == 0)
		return run_text(m, "COMMIT", err);
	struct errbuf ignored;
	if (rc != RF_E_SERVER)
		run_text(m, "ROLLBACK", &ignored);
	return rc;
}

void rf_set_release(struct rf_set *s)
{
	if (!s)
		return;
	gen_buf_release(&s->orders);
	gen_buf_release(&s->lineitem);
	gen_buf_release(&s->old_orders);
	gen_buf_release(&s->old_lineitem);
	free(s->ins_keys);
	free(s->del_keys);
	memset(s, 0, sizeof(*s));
}

/* SHA-256 of the n keys written "KEY\n" each. */
static int keys_sha256(char out[65], const int64_t *keys, int64_t n)
{
	struct gen_buf b = {0};
	char num[32];
	for (int64_t i = 0; i < n; i++) {
		int len = snprintf(num, sizeof(num), "%lld\n", (long long)keys[i]);
		if (buf_add(&b, num, (size_t)len) < 0) {
			gen_buf_release(&b);
			return -1;
		}
	}
	util_sha256_hex(out, b.data ? b.data : "", b.len);
	gen_buf_release(&b);
	return 0;
}

int rf_set_stage(struct rf_set *out, const struct gen_ctx *ctx, int64_t set, struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	if (gen_refresh_check(ctx, set, err) < 0)
		return -1;
	out->set = set;
	out->n = gen_refresh_rows(ctx);
	int64_t u0 = gen_refresh_delete_unit(ctx, set, 0);
	if (gen_refresh_inserts(ctx, set, 0, &out->orders, &out->lineitem, err) < 0 ||
	    gen_chunk(ctx, GEN_ORDERS, u0, u0 + out->n, 0, &out->old_orders, &out->old_lineitem,
		      err) < 0) {
		rf_set_release(out);
		return -1;
	}
	out->ins_keys = set_keys(ctx, set, 0, out->n);
	out->del_keys = set_keys(ctx, set, 1, out->n);
	struct gen_buf both = {0};
	if (!out->ins_keys || !out->del_keys ||
	    buf_add(&both, out->orders.data ? out->orders.data : "", out->orders.len) < 0 ||
	    buf_add(&both, out->lineitem.data ? out->lineitem.data : "", out->lineitem.len) < 0 ||
	    keys_sha256(out->rf2_sha256, out->del_keys, out->n) < 0) {
		gen_buf_release(&both);
		rf_set_release(out);
		return errbuf_set(err, "out of memory");
	}
	util_sha256_hex(out->rf1_sha256, both.data, both.len);
	gen_buf_release(&both);
	return 0;
}

int rf_set_insert(MYSQL *m, const struct rf_set *s, struct rf_stat *out, struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	uint64_t t0 = util_now_ns();
	int rc = run_text(m, "START TRANSACTION", err);
	if (rc == 0)
		rc = insert_rows(m, "orders", &s->orders, &out->orders, err);
	if (rc == 0)
		rc = insert_rows(m, "lineitem", &s->lineitem, &out->lineitems, err);
	rc = finish(m, rc, err);
	out->seconds = (double)(util_now_ns() - t0) / 1e9;
	return rc;
}

int rf_set_delete(MYSQL *m, const struct rf_set *s, struct rf_stat *out, struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	uint64_t t0 = util_now_ns();
	int rc = run_text(m, "START TRANSACTION", err);
	if (rc == 0)
		rc = delete_keys(m, "lineitem", "l_orderkey", s->del_keys, s->n, &out->lineitems,
				 err);
	if (rc == 0)
		rc = delete_keys(m, "orders", "o_orderkey", s->del_keys, s->n, &out->orders, err);
	if (rc == 0 && out->orders != s->n)
		rc = errbuf_set(err, "refresh set %lld: deleted %lld of its %lld orders",
				(long long)s->set, (long long)out->orders, (long long)s->n);
	rc = finish(m, rc, err);
	out->seconds = (double)(util_now_ns() - t0) / 1e9;
	return rc;
}

int rf_set_restore(MYSQL *m, const struct rf_set *s, struct errbuf *err)
{
	int64_t done = 0;
	int rc = run_text(m, "START TRANSACTION", err);
	if (rc == 0)
		rc = delete_keys(m, "lineitem", "l_orderkey", s->ins_keys, s->n, &done, err);
	if (rc == 0)
		rc = delete_keys(m, "orders", "o_orderkey", s->ins_keys, s->n, &done, err);
	/* what RF2 left (nothing after a complete RF2; all of it after a failed one) */
	if (rc == 0)
		rc = delete_keys(m, "lineitem", "l_orderkey", s->del_keys, s->n, &done, err);
	if (rc == 0)
		rc = delete_keys(m, "orders", "o_orderkey", s->del_keys, s->n, &done, err);
	if (rc == 0)
		rc = insert_rows(m, "orders", &s->old_orders, &done, err);
	if (rc == 0)
		rc = insert_rows(m, "lineitem", &s->old_lineitem, &done, err);
	return finish(m, rc, err);
}

int rf_insert(MYSQL *m, const struct gen_ctx *ctx, int64_t set, struct rf_stat *out,
	      struct errbuf *err)
{
	struct rf_set s;
	memset(out, 0, sizeof(*out));
	if (rf_set_stage(&s, ctx, set, err) < 0)
		return -1;
	int rc = rf_set_insert(m, &s, out, err);
	rf_set_release(&s);
	return rc;
}

int rf_delete(MYSQL *m, const struct gen_ctx *ctx, int64_t set, struct rf_stat *out,
	      struct errbuf *err)
{
	struct rf_set s;
	memset(out, 0, sizeof(*out));
	if (rf_set_stage(&s, ctx, set, err) < 0)
		return -1;
	int rc = rf_set_delete(m, &s, out, err);
	rf_set_release(&s);
	return rc;
}

int rf_restore(MYSQL *m, const struct gen_ctx *ctx, int64_t set, struct errbuf *err)
{
	struct rf_set s;
	if (rf_set_stage(&s, ctx, set, err) < 0)
		return -1;
	int rc = rf_set_restore(m, &s, err);
	rf_set_release(&s);
	return rc;
}

int rf_purge_wait(MYSQL *m, struct errbuf *err)
{
	if (run_text(m, "SET GLOBAL innodb_max_purge_lag_wait=0", err) == 0)
		return 1;
	return server_gone(mysql_errno(m)) ? RF_E_SERVER : 0;
}

/* The first two columns of the first row of sql as unsigned integers. */
static int query_pair(MYSQL *m, const char *sql, uint64_t *a, uint64_t *b, struct errbuf *err)
{
	if (mysql_real_query(m, sql, strlen(sql)) != 0) {
		unsigned e = mysql_errno(m);
		errbuf_set(err, "'%s' failed: %s (%u)", sql, mysql_error(m), e);
		return server_gone(e) ? RF_E_SERVER : -1;
	}
	MYSQL_RES *r = mysql_store_result(m);
	MYSQL_ROW row = r && mysql_num_fields(r) >= 2 ? mysql_fetch_row(r) : NULL;
	int rc = 0;
	if (!row || !row[0] || !row[1])
		rc = errbuf_set(err, "'%s' returned no value", sql);
	else {
		*a = strtoull(row[0], NULL, 10);
		*b = strtoull(row[1], NULL, 10);
	}
	mysql_free_result(r);
	return rc;
}

int rf_check_read(MYSQL *m, struct rf_check *out, struct errbuf *err)
{
	uint64_t o, l, name_unused;
	memset(out, 0, sizeof(*out));
	int rc =
	    query_pair(m, "SELECT (SELECT COUNT(*) FROM orders), (SELECT COUNT(*) FROM lineitem)",
		       &o, &l, err);
	if (rc < 0)
		return rc;
	out->orders = (int64_t)o;
	out->lineitems = (int64_t)l;
	/* CHECKSUM TABLE's rows are (Table, Checksum): the name is read as 0, the sum kept */
	if ((rc = query_pair(m, "CHECKSUM TABLE orders", &name_unused, &out->orders_sum, err)) < 0)
		return rc;
	return query_pair(m, "CHECKSUM TABLE lineitem", &name_unused, &out->lineitems_sum, err);
}

int rf_pair_run(MYSQL *m, const struct gen_ctx *ctx, int64_t set, struct rf_pair *out,
		struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	int rc = rf_check_read(m, &out->before, err);
	if (rc == 0)
		rc = rf_insert(m, ctx, set, &out->rf1, err);
	if (rc == 0)
		rc = rf_delete(m, ctx, set, &out->rf2, err);
	if (rc == 0)
		rc = rf_restore(m, ctx, set, err);
	if (rc == 0)
		rc = rf_check_read(m, &out->after, err);
	if (rc == 0)
		out->same = memcmp(&out->before, &out->after, sizeof(out->before)) == 0;
	return rc;
}
