/* SPDX-License-Identifier: MIT */
/* dbt3/rf.c on a real private MariaDB loaded at SF 0.01: RF1 inserts refresh set 1's orders and
 * lineitems, RF2 deletes the set's old ones, rf_restore brings back the same row counts and
 * CHECKSUM TABLE values, and a failed RF2 changes nothing. */
#include "dbt3/gen.h"
#include "dbt3/gen_refresh.h"
#include "dbt3/rf.h"
#include "harness.h"
#include "tests/th_db.h"

#include <stdio.h>
#include <string.h>

static struct th_db db; /* one loaded instance (made in main) */
static int loaded;

static int64_t count_lines(const struct gen_buf *b)
{
	int64_t n = 0;
	for (size_t i = 0; i < b->len; i++)
		n += b->data[i] == '\n';
	return n;
}

/* Rows of the set: inserted lineitems, and the lineitems of the orders it deletes. */
static void set_lines(const struct gen_ctx *ctx, int64_t *ins, int64_t *del)
{
	struct gen_buf o = {0}, l = {0};
	struct errbuf err;
	CU_ASSERT_EQUAL_FATAL(gen_refresh_inserts(ctx, 1, 0, &o, &l, &err), 0);
	*ins = count_lines(&l);
	int64_t u0 = gen_refresh_delete_unit(ctx, 1, 0);
	CU_ASSERT_EQUAL_FATAL(
	    gen_chunk(ctx, GEN_ORDERS, u0, u0 + gen_refresh_rows(ctx), 0, &o, &l, &err), 0);
	*del = count_lines(&l);
	gen_buf_release(&o);
	gen_buf_release(&l);
}

/* One refresh function's outcome: it worked (else fatal, its error on stderr), touched orders
 * orders and lines lineitem rows, and took some time. */
static void check_step(const char *what, int rc, const struct errbuf *err, const struct rf_stat *st,
		       int64_t orders, int64_t lines)
{
	if (rc)
		fprintf(stderr, "%s: %s\n", what, err->msg);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(st->orders, orders);
	CU_ASSERT_EQUAL(st->lineitems, lines);
	CU_ASSERT(st->seconds > 0);
}

static void check_functions(MYSQL *m, const struct gen_ctx *ctx)
{
	struct errbuf err;
	struct rf_check before, after, back;
	struct rf_stat st1, st2, again;
	int64_t ins, del, n = gen_refresh_rows(ctx);
	set_lines(ctx, &ins, &del);
	CU_ASSERT_EQUAL_FATAL(rf_check_read(m, &before, &err), 0);
	CU_ASSERT_EQUAL(before.orders, 15000);
	CU_ASSERT_EQUAL(before.lineitems, 60175);
	check_step("rf_insert", rf_insert(m, ctx, 1, &st1, &err), &err, &st1, n, ins);
	check_step("rf_delete", rf_delete(m, ctx, 1, &st2, &err), &err, &st2, n, del);
	CU_ASSERT_EQUAL_FATAL(rf_check_read(m, &after, &err), 0);
	CU_ASSERT_EQUAL(after.orders, before.orders);
	CU_ASSERT_EQUAL(after.lineitems, before.lineitems + ins - del);
	CU_ASSERT(after.orders_sum != before.orders_sum);
	/* RF2 again: the orders are gone, so it fails and changes nothing */
	CU_ASSERT_EQUAL(rf_delete(m, ctx, 1, &again, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "deleted 0 of its 10 orders"));
	CU_ASSERT_EQUAL_FATAL(rf_check_read(m, &back, &err), 0);
	CU_ASSERT(memcmp(&back, &after, sizeof(back)) == 0);
	/* restored: the same counts and checksums as before the pair */
	int rc = rf_restore(m, ctx, 1, &err);
	if (rc)
		fprintf(stderr, "rf_restore: %s\n", err.msg);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL_FATAL(rf_check_read(m, &back, &err), 0);
	CU_ASSERT_EQUAL(back.orders, before.orders);
	CU_ASSERT_EQUAL(back.lineitems, before.lineitems);
	CU_ASSERT_EQUAL(back.orders_sum, before.orders_sum);
	CU_ASSERT_EQUAL(back.lineitems_sum, before.lineitems_sum);
}

/* rf_pair_run: set 2's pair, restored, leaves counts and checksums as found; a second run of
 * the same set finds the same again. */
static void check_pair(MYSQL *m, const struct gen_ctx *ctx)
{
	struct errbuf err;
	struct rf_pair p, q;
	int rc = rf_pair_run(m, ctx, 2, &p, &err);
	if (rc)
		fprintf(stderr, "rf_pair_run: %s\n", err.msg);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT(p.same);
	CU_ASSERT_EQUAL(p.rf1.orders, 10);
	CU_ASSERT_EQUAL(p.rf2.orders, 10);
	CU_ASSERT(p.rf1.seconds > 0 && p.rf2.seconds > 0);
	CU_ASSERT_EQUAL(p.before.orders, 15000);
	CU_ASSERT_EQUAL_FATAL(rf_pair_run(m, ctx, 2, &q, &err), 0);
	CU_ASSERT(q.same);
	CU_ASSERT(memcmp(&q.after, &p.after, sizeof(q.after)) == 0);
}

/* Starts the loaded instance, runs fn on a connection to dbt3, stops it. */
static void with_server(void (*fn)(MYSQL *m, const struct gen_ctx *ctx))
{
	CU_ASSERT_FATAL(loaded);
	struct srv_opts o;
	struct srv *s = NULL;
	struct errbuf err;
	struct gen_ctx *ctx = NULL;
	CU_ASSERT_EQUAL_FATAL(gen_ctx_new_threads(&ctx, 0.01, 2, &err), 0);
	th_db_opts(&db, &o, 128u << 20);
	CU_ASSERT_EQUAL_FATAL(srv_open(&s, &o, &err), 0);
	struct srv_launch launch = {0};
	int rc = srv_start(s, &launch, &err);
	if (rc)
		fprintf(stderr, "srv_start: %s\n", err.msg);
	MYSQL *m = rc == 0 ? srv_connect(s, "dbt3", &err) : NULL;
	if (m)
		fn(m, ctx);
	else
		CU_FAIL("no connection to the loaded server");
	if (m)
		mysql_close(m);
	if (rc == 0)
		srv_stop(s, &err);
	srv_free(s);
	srv_opts_release(&o);
	gen_ctx_free(ctx);
}

TH_TEST(rf_db, pair_then_restore_leaves_the_data_as_found)
{
	with_server(check_functions);
}

TH_TEST(rf_db, pair_run_reports_the_data_as_found)
{
	with_server(check_pair);
}

int main(int argc, char **argv)
{
	return th_db_main_loaded(&db, &loaded, "rf", "rf_db", th_cases(), argc, argv);
}
