/* SPDX-License-Identifier: MIT */
/* Where the rows went: the server's per-table actuals of one execution, MariaDB's ANALYZE
 * FORMAT=JSON or MySQL 8's EXPLAIN ANALYZE (tree), reduced to per-table numbers, their record in
 * a restart entry ("analyze", docs/result-format.md) and the rule compare applies to them
 * (docs/explain.md, "Where the rows went"). Pure: nothing here prints. */
#ifndef DBT3_RES_ANALYZE_H
#define DBT3_RES_ANALYZE_H
#include "base/util.h"
#include <jansson.h>
#include <stddef.h>

/* One table as the execution read it; NaN where the output does not say. */
struct res_atable {
	char *alias;
	int occurrence;	   /* 0 for the alias's first table in document order, 1 for the next */
	long select_id;	   /* the query block that joins it; -1 when none is said */
	double r_loops;	   /* times the table was read (scans or lookups) */
	double r_rows;	   /* rows read per loop (average) */
	double r_filtered; /* percent of them the table's condition kept */
	double rows;	   /* the optimizer's estimate of rows per loop */
	double filtered;   /* its estimate of r_filtered, percent */
};

/* A temporary table, filesort, materialization or expression cache and its numeric r_ members
 * (the time ones left out: they vary between executions). */
struct res_aop {
	char *name;	/* "filesort", "temporary table", "expression cache(#4)", ... */
	long select_id; /* -1 when none is said */
	json_t *r;	/* {"r_loops": 1, "r_output_rows": 5, ...} */
};

struct res_analyze {
	struct res_atable *tables;
	size_t n_tables;
	struct res_aop *ops;
	size_t n_ops;
};

/* Reads MariaDB's ANALYZE FORMAT=JSON text into *out. */
int res_analyze_parse_json(struct res_analyze *out, const char *text, struct errbuf *err);
/* Reads MySQL 8's EXPLAIN ANALYZE (FORMAT=TREE) text into *out: each "->" line an iterator,
 * nested by indentation; table accesses ("Table scan on T", "Index lookup on T using K", ...)
 * are tables, with "(actual ... rows=R loops=L)" as r_rows and r_loops and "(cost=... rows=E)"
 * as the estimate; a "Filter:" right above one gives its r_filtered and filtered; "Sort",
 * "Table scan on <temporary>", "Materialize" are ops; "Select #N" starts block N. */
int res_analyze_parse_tree(struct res_analyze *out, const char *text, struct errbuf *err);
void res_analyze_release(struct res_analyze *a);

/* For the parsers (result/res_analyze_tree.c): appends a table named alias (its occurrence
 * counted, numbers NaN) or an op; NULL on out of memory. */
struct res_atable *res_analyze_add_table(struct res_analyze *a, const char *alias, long sel);
struct res_aop *res_analyze_add_op(struct res_analyze *a, const char *name, long sel);

/* Rows examined of a table: r_loops x r_rows, 0 when it was never read, NaN when not counted
 * (no r_loops: MariaDB leaves an index_subquery or unique_subquery table's reads uncounted). */
double res_atable_examined(const struct res_atable *t);

/* The record (a new reference; NULL on out of memory):
 * {"tables": [{"table", "select", "r_loops", "r_rows", "r_filtered", "rows", "filtered"}],
 *  "ops": [{"op", "select", "r": {...}}]}, members whose value is unknown left out. */
json_t *res_analyze_json(const struct res_analyze *a);
/* Reads a record back into *out: 1 when read, 0 when rec is NULL or not a valid record, -1 on
 * out of memory. */
int res_analyze_from_json(struct res_analyze *out, const json_t *rec);
/* Checks a record as the reader does (at most RES_ANALYZE_MAX tables and ops, names of at most
 * RES_ANALYZE_NAME bytes, numbers finite and not negative, r_filtered and filtered at most 100).
 * On failure returns -1, key names the offending member and msg says what is wrong. */
#define RES_ANALYZE_MAX 256
#define RES_ANALYZE_NAME 128
int res_analyze_check(const json_t *rec, char *key, size_t key_len, char *msg, size_t msg_len);

/* The rule: rows examined changed when the two counts, rounded to whole rows, differ at all
 * (within one build they are identical), or when only one side counted them (NaN: not counted,
 * e.g. MariaDB's index_subquery tables). */
int res_analyze_rows_changed(double old_examined, double new_examined);
/* An estimate error: the table was read (r_loops > 0) and its estimate of rows per loop (rows)
 * and the rows it read per loop (r_rows) differ by a factor of RES_ANALYZE_EST_FACTOR or more,
 * each taken as at least 1. */
#define RES_ANALYZE_EST_FACTOR 10.0
int res_analyze_estimate_off(const struct res_atable *t);

/* The table of b matching a's alias and occurrence, or NULL. */
const struct res_atable *res_analyze_find(const struct res_analyze *b, const struct res_atable *a);

#endif
