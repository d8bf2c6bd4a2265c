/* SPDX-License-Identifier: MIT */
/* What the work counters cost a restart (issue 29): one reading of the session's status
 * (run_work_read, what 'dbt3stab run' sends between two executions, outside the timed window)
 * against the round trip of SELECT 1, interleaved in rounds on one session.
 * usage: work_read_cost CLIENT_CNF [N [ROUNDS]]   (built and run by bench/work-overhead.sh)
 * Prints one line per figure; the last line, "reading_us MEDIAN", is what the script reads. */
#include "base/util.h"
#include "runner/run_work.h"
#include "bench/bench_mysql.h"
#include <mysql.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROUNDS 100

static double median(double *v, long n)
{
	qsort(v, (size_t)n, sizeof(double), bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* n round trips of SELECT 1: microseconds each. */
static double select1_us(MYSQL *m, long n)
{
	uint64_t t0 = util_now_ns();
	for (long i = 0; i < n; i++) {
		if (mysql_real_query(m, "SELECT 1", 8) != 0)
			exit(1);
		MYSQL_RES *res = mysql_store_result(m);
		mysql_free_result(res);
	}
	return (double)(util_now_ns() - t0) / 1e3 / (double)n;
}

/* n readings of the work counters: microseconds each. */
static double readings_us(struct run_work *w, MYSQL *m, long n)
{
	struct run_work_snap s;
	struct errbuf err;
	uint64_t t0 = util_now_ns();
	for (long i = 0; i < n; i++) {
		if (run_work_read(w, m, &s, &err) < 0) {
			fprintf(stderr, "work_read_cost: %s\n", err.msg);
			exit(1);
		}
	}
	return (double)(util_now_ns() - t0) / 1e3 / (double)n;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: work_read_cost CLIENT_CNF [N [ROUNDS]]\n");
		return 2;
	}
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : 2000;
	long rounds = argc > 3 ? strtol(argv[3], NULL, 10) : 11;
	if (n < 1 || rounds < 1 || rounds > MAX_ROUNDS)
		return 2;
	MYSQL *m = bench_connect("work_read_cost", argv[1]);
	struct run_work w;
	struct errbuf err;
	if (run_work_open(&w, m, RUN_WORK_MARIADB, &err) < 0) {
		fprintf(stderr, "work_read_cost: %s\n", err.msg);
		return 1;
	}
	double sel[MAX_ROUNDS], rd[MAX_ROUNDS];
	for (long r = 0; r < rounds; r++) {
		if (r % 2) { /* alternate which goes first */
			rd[r] = readings_us(&w, m, n);
			sel[r] = select1_us(m, n);
		} else {
			sel[r] = select1_us(m, n);
			rd[r] = readings_us(&w, m, n);
		}
	}
	double lo = rd[0], hi = rd[0];
	for (long r = 1; r < rounds; r++) {
		lo = rd[r] < lo ? rd[r] : lo;
		hi = rd[r] > hi ? rd[r] : hi;
	}
	printf("%ld rounds x %ld of each, interleaved; medians over rounds\n", rounds, n);
	printf("SELECT 1 round trip: %.2f us\n", median(sel, rounds));
	printf("one work-counter reading (%s): %.2f us (rounds %.2f to %.2f)\n",
	       run_work_sql(RUN_WORK_MARIADB) ? "SHOW SESSION STATUS WHERE ..." : "?",
	       median(rd, rounds), lo, hi);
	printf("reading_us %.3f\n", median(rd, rounds));
	mysql_close(m);
	return 0;
}
