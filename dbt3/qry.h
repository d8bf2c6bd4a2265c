/* SPDX-License-Identifier: MIT */
/* The 22 DBT-3 queries in the MySQL/MariaDB dialect with TPC-H substitution parameters: the
 * validation defaults, or the values TPC-H qgen draws with -r SEED (same random streams). */
#ifndef DBT3_QRY_H
#define DBT3_QRY_H
#include <mysql.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/util.h"

#define QRY_COUNT 22
#define QRY_MAX_PARAMS 10
#define QRY_STREAM_MAX 40 /* TPC-H's query streams: 0 (the power test) to 40 */

/* The order in which TPC-H query stream `stream` runs the 22 queries (TPC-H 2.17.3 Appendix A,
 * qgen -p stream): 0 with out filled, -1 outside 0..QRY_STREAM_MAX. */
int qry_stream_order(int stream, int out[QRY_COUNT]);

/* How parameters are chosen. seeded = 0: the TPC-H validation (qgen -d) values; otherwise qgen
 * -r seed. sf only changes Q11's fraction (0.0001 / sf), as in qgen -s. */
struct qry_opts {
	double sf;
	int seeded;
	long seed; /* 1 .. 2147483646 (0 leaves the stream at 0: refused) */
};

/* One query ready to run. Only sql is timed; pre and post (Q15's CREATE OR REPLACE VIEW and
 * DROP VIEW) run untimed around it on the same connection. Release with qry_release(). */
struct qry {
	int id;	    /* 1..22 */
	char *pre;  /* NULL or one statement to run before the timed one */
	char *sql;  /* the timed statement (no trailing ';') */
	char *post; /* NULL or one statement to run after the timed one */
	int nparams;
	char params[QRY_MAX_PARAMS + 1][64]; /* params[1..nparams], as substituted */
};

/* Builds query id (1..22) with opts. 0 on success; -1 with err filled. */
int qry_build(struct qry *out, int id, const struct qry_opts *opts, struct errbuf *err);

/* Frees the statements of q (not q itself); NULL is fine. */
void qry_release(struct qry *q);

/* The stable text of q, the basis of sql_sha256: "-- Q<id>\n" then pre, sql and post, each
 * followed by ";\n". Caller frees; NULL when out of memory. */
char *qry_text(const struct qry *q);

/* SHA-256 (64 hex digits) of qry_text(q); "" when out of memory. */
void qry_sha256(char out[65], const struct qry *q);

/* A query's result: column names, each row's cells as text (NULL for SQL NULL), and which
 * columns are fractional numbers (DECIMAL/FLOAT/DOUBLE with decimals). Filled by
 * qry_result_columns and qry_result_add_row (runner/run_once.h runs a query into one). */
struct qry_result {
	unsigned ncols;
	char **names;
	int *is_frac;
	uint64_t nrows;
	uint64_t cap;	/* rows allocated */
	char ***rows;	/* rows[r][c] */
	double seconds; /* wall time of the timed statement: send, execute, fetch every row */
};

/* Sets the columns of an empty r from a result set's fields. 0, or -1 when out of memory. */
int qry_result_columns(struct qry_result *r, const MYSQL_FIELD *fields, unsigned n);

/* Appends a copy of a row of r->ncols values (NULL for SQL NULL; len[c] bytes each, as
 * mysql_fetch_lengths gives them). 0, or -1 when out of memory. */
int qry_result_add_row(struct qry_result *r, char *const *row, const unsigned long *len);

/* Frees the result's contents (also of one filled in part); NULL is fine. */
void qry_result_release(struct qry_result *r);

/* Rounds the decimal string s to 2 places, half away from zero ("25.5220" -> "25.52"), into out
 * (size n). Strings that are not plain decimals are copied unchanged. */
void qry_round2(char *out, size_t n, const char *s);

/* Output formats of qry_result_print. */
enum qry_format {
	QRY_FORMAT_TABLE, /* aligned columns with a header rule, for people */
	QRY_FORMAT_TBL,	  /* header of names, then rows '|'-separated, fractions at 2 places */
	QRY_FORMAT_JSON	  /* {"query":N,"seconds":S,"columns":[...],"rows":[[...],...]} */
};

/* Parses "table" / "tbl" / "json"; 0 on success, -1 otherwise. */
int qry_format_parse(const char *s, enum qry_format *out);

/* Prints r (result of query id) to f in format fmt; -1 on a write error. */
int qry_result_print(FILE *f, const struct qry_result *r, int id, enum qry_format fmt);

#endif
