/* SPDX-License-Identifier: MIT */
/* An aligned terminal table for the text outputs of compare and summary. */
#ifndef DBT3_RPT_TABLE_H
#define DBT3_RPT_TABLE_H
#include <stddef.h>
#include <stdio.h>

struct rpt_cell {
	char *text;
	const char *color; /* ANSI SGR sequence (static), or NULL */
};

struct rpt_table {
	size_t ncols, nrows, col;
	const char *align; /* one 'l' or 'r' per column */
	struct rpt_cell *cells;
};

/* A table with a header row; align is borrowed. Release with rpt_table_release. */
void rpt_table_init(struct rpt_table *t, size_t ncols, const char *const *heads, const char *align);
void rpt_table_release(struct rpt_table *t);

/* Starts a row; then one rpt_table_cell per column (missing cells stay empty). */
int rpt_table_row(struct rpt_table *t);
int rpt_table_cell(struct rpt_table *t, const char *color, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prints the table, columns separated by two spaces; colours only when color is nonzero. */
int rpt_table_print(FILE *f, const struct rpt_table *t, const char *indent, int color);

#endif
