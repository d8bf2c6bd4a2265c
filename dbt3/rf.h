/* SPDX-License-Identifier: MIT */
/* DBT-3's refresh functions on a loaded database (TPC-H 2.5): RF1 inserts a refresh set's new
 * orders with their lineitems, RF2 deletes the set's old orders with theirs, each as one
 * timed transaction; rf_restore undoes both, so the next measurement finds the same data. */
#ifndef DBT3_RF_H
#define DBT3_RF_H
#include <mysql.h>
#include <stdint.h>

#include "base/util.h"
#include "dbt3/gen.h"

/* Failures a caller handles (as load.h's LOAD_E_SERVER). */
enum rf_error {
	RF_E_SERVER = -3 /* the server failed or went away */
};

/* What one refresh function did: its transaction's wall time (statements and COMMIT, not the
 * generation of the rows) and the rows it changed. */
struct rf_stat {
	double seconds;
	int64_t orders, lineitems;
};

/* The database check: row counts and CHECKSUM TABLE of the two tables the refresh functions
 * change (order-independent: the server sums a CRC of each row). */
struct rf_check {
	int64_t orders, lineitems;
	uint64_t orders_sum, lineitems_sum;
};

/* RF1 of refresh set `set` (gen_refresh.h) on m, whose default database is a loaded one of
 * ctx's scale factor: START TRANSACTION, multi-row INSERTs of the set's orders then its
 * lineitems, COMMIT. 0 with out filled; -1 or RF_E_SERVER with err filled (rolled back). */
int rf_insert(MYSQL *m, const struct gen_ctx *ctx, int64_t set, struct rf_stat *out,
	      struct errbuf *err);

/* RF2 of refresh set `set`: START TRANSACTION, DELETE of the lineitems then of the orders
 * whose keys are in delete.N, COMMIT. Fails (rolled back) when not every order was there. */
int rf_delete(MYSQL *m, const struct gen_ctx *ctx, int64_t set, struct rf_stat *out,
	      struct errbuf *err);

/* Undoes set `set`'s RF1 and RF2 in one transaction, untimed: deletes the orders and lineitems
 * RF1 inserted and those of RF2's keys still there, and inserts again, from the generator, the
 * rows RF2 deletes. 0, -1 or RF_E_SERVER with err filled. */
int rf_restore(MYSQL *m, const struct gen_ctx *ctx, int64_t set, struct errbuf *err);

/* Reads the check (COUNT(*) and CHECKSUM TABLE of orders and lineitem): 0, -1 or RF_E_SERVER. */
int rf_check_read(MYSQL *m, struct rf_check *out, struct errbuf *err);

/* A refresh set staged in memory (generated once, before anything is timed): RF1's rows, RF2's
 * keys and, for the restore, the rows RF2 deletes. Release with rf_set_release. */
struct rf_set {
	int64_t set;
	int64_t n;			  /* orders inserted, and orders deleted */
	struct gen_buf orders, lineitem;  /* RF1's rows (dbgen's orders.tbl.uN, lineitem.tbl.uN) */
	int64_t *ins_keys, *del_keys;	  /* the n keys RF1 inserts, the n RF2 deletes */
	struct gen_buf old_orders, old_lineitem; /* the rows of the n orders RF2 deletes */
	char rf1_sha256[65], rf2_sha256[65]; /* of RF1's rows, of RF2's keys ("KEY\n" each) */
};

/* Generates set `set` of ctx's scale factor into out: 0, or -1 with err filled (no refresh
 * data at this scale factor, out of memory). */
int rf_set_stage(struct rf_set *out, const struct gen_ctx *ctx, int64_t set, struct errbuf *err);
void rf_set_release(struct rf_set *s);

/* rf_insert, rf_delete and rf_restore of a staged set (the same statements, no generation).
 * rf_set_restore brings the set's orders back from any state RF1 and RF2 left, complete or
 * not: it deletes the keys of both functions and inserts RF2's rows again. */
int rf_set_insert(MYSQL *m, const struct rf_set *s, struct rf_stat *out, struct errbuf *err);
int rf_set_delete(MYSQL *m, const struct rf_set *s, struct rf_stat *out, struct errbuf *err);
int rf_set_restore(MYSQL *m, const struct rf_set *s, struct errbuf *err);

/* Waits until InnoDB's purge has caught up (MariaDB 10.6+: SET GLOBAL
 * innodb_max_purge_lag_wait=0), so the next server start finds no purge work left: 1 done, 0
 * the server has no such variable, RF_E_SERVER the server went away. */
int rf_purge_wait(MYSQL *m, struct errbuf *err);

/* One measured refresh pair, as a restart of the protocol would record it. */
struct rf_pair {
	struct rf_stat rf1, rf2;
	struct rf_check before, after; /* around the pair and its restore */
	int same;		       /* before and after are equal: the data is as found */
};

/* The check, RF1 then RF2 of set `set`, rf_restore, the check again: 0 with out filled (also
 * when out->same is 0: the caller decides), -1 or RF_E_SERVER with err filled. */
int rf_pair_run(MYSQL *m, const struct gen_ctx *ctx, int64_t set, struct rf_pair *out,
		struct errbuf *err);

#endif
