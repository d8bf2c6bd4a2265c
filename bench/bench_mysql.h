/* SPDX-License-Identifier: MIT */
/* What the bench programs that time a server share (bare_loop.c, work_read_cost.c). */
#ifndef DBT3_BENCH_MYSQL_H
#define DBT3_BENCH_MYSQL_H
#include <mysql.h>
#include <stdio.h>
#include <stdlib.h>

/* A connection with the [client] group of the option file cnf (an instance's client.cnf); prog
 * names the program in the message when it fails, which exits 1. */
static inline MYSQL *bench_connect(const char *prog, const char *cnf)
{
	MYSQL *m = mysql_init(NULL);
	mysql_options(m, MYSQL_READ_DEFAULT_FILE, cnf);
	mysql_options(m, MYSQL_READ_DEFAULT_GROUP, "client");
	if (!mysql_real_connect(m, NULL, NULL, NULL, NULL, 0, NULL, 0)) {
		fprintf(stderr, "%s: cannot connect with '%s': %s\n", prog, cnf, mysql_error(m));
		exit(1);
	}
	return m;
}

/* qsort's order of doubles, ascending. */
static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

#endif
