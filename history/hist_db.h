/* SPDX-License-Identifier: MIT */
/* The history store's two backends behind one call: SQLite (a file) and MySQL/MariaDB (a URL).
 * Statements use '?' placeholders; rows come back as text. Internal to history/. */
#ifndef DBT3_HIST_DB_H
#define DBT3_HIST_DB_H
#include "base/util.h"
#include <stddef.h>

enum hist_db_kind { HIST_DB_SQLITE = 0, HIST_DB_MYSQL = 1 };

struct hist_db;

enum hist_arg_type { HIST_ARG_NULL = 0, HIST_ARG_TEXT, HIST_ARG_REAL, HIST_ARG_INT };
struct hist_arg {
	enum hist_arg_type type;
	const char *s;
	double d;
	long long i;
};
static inline struct hist_arg hist_text(const char *s)
{
	return (struct hist_arg){.type = s ? HIST_ARG_TEXT : HIST_ARG_NULL, .s = s};
}
#define HIST_TEXT(x) hist_text(x)
#define HIST_REAL(x) ((struct hist_arg){.type = HIST_ARG_REAL, .d = (x)})
#define HIST_INT(x) ((struct hist_arg){.type = HIST_ARG_INT, .i = (x)})

/* Called per row with the columns as text (NULL for SQL NULL); nonzero stops the query. */
typedef int (*hist_row_fn)(void *ctx, const char *const *cols, size_t n);

/* Opens location (see hist_store_open), read_only: nothing is created or written (SQLite
 * SQLITE_OPEN_READONLY, MySQL a read-only session); -1 with err filled. Messages name the
 * location with a URL's password hidden and control characters escaped. */
int hist_db_open(struct hist_db **out, const char *location, int read_only, struct errbuf *err);
void hist_db_close(struct hist_db *db);
enum hist_db_kind hist_db_kind(const struct hist_db *db);
const char *hist_db_name(const struct hist_db *db); /* for messages */

/* Runs one statement. HIST_DB_E_DUP when a unique key was violated. */
#define HIST_DB_E_DUP (-3)
/* A deadlock or lock wait timeout: the transaction was rolled back and may be run again. */
#define HIST_DB_E_RETRY (-4)
int hist_db_exec(struct hist_db *db, const char *sql, const struct hist_arg *args, size_t n_args,
		 hist_row_fn fn, void *ctx, struct errbuf *err);

/* A row callback: the first column of the first row into *(long long *)ctx. */
int hist_row_int(void *ctx, const char *const *cols, size_t n);

/* The id the last insert generated. */
long long hist_db_last_id(struct hist_db *db);

/* Transactions: an immediate (writer) transaction in SQLite, START TRANSACTION in MySQL. */
int hist_db_begin(struct hist_db *db, struct errbuf *err);
int hist_db_commit(struct hist_db *db, struct errbuf *err);
void hist_db_rollback(struct hist_db *db);

/* The backend of a store (history/hist_store.c). */
struct hist_store;
struct hist_db *hist_store_db(struct hist_store *st);

#endif
