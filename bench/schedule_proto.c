/* SPDX-License-Identifier: MIT */
/* One server process, three ways to order a restart's executions (docs/stability.md): blocked
 * (each query's warm-ups then its measured runs, as `run` does), rounds (all warm-ups, then the
 * measured runs round-robin over the queries) and rewarm (rounds, each measured run right after
 * an unrecorded one of the same query). A memory probe (bench/host_probe.c's chase, 4 MiB) is
 * taken before each query's block (blocked) or each round. One line per execution or probe.
 * usage: schedule_proto CLIENT_CNF QUERY_DIR b|r|s WARMUP RUNS TAG */
#define _GNU_SOURCE
#include "bench_ring.h"
#include <mysql.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NQ 22
static char *sel[NQ + 1], *pre[NQ + 1];
static size_t *ring, ringn;
static volatile size_t sinkp;

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* DIR/N.sql as `dbt3stab queries -o DIR` writes it: a comment line, then one statement, or
 * (Q15) the view, the select and the drop; the view is made once, only the select timed. */
static void read_query(const char *dir, int q)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%d.sql", dir, q);
	FILE *f = fopen(path, "r");
	if (!f) {
		perror(path);
		exit(2);
	}
	char *buf = calloc(1, 1 << 16), *s = buf, *tok, *parts[3];
	size_t got = fread(buf, 1, (1 << 16) - 1, f);
	fclose(f);
	buf[got] = '\0';
	if (!strncmp(s, "--", 2))
		s = strchr(s, '\n') + 1;
	int n = 0;
	while (n < 3 && (tok = strsep(&s, ";"))) {
		tok += strspn(tok, " \n");
		if (*tok)
			parts[n++] = tok;
	}
	pre[q] = n > 1 ? parts[0] : NULL;
	sel[q] = n > 1 ? parts[1] : parts[0];
}

static double exec_ms(MYSQL *m, int q)
{
	double t0 = now_s();
	if (mysql_real_query(m, sel[q], strlen(sel[q]))) {
		fprintf(stderr, "Q%d: %s\n", q, mysql_error(m));
		exit(1);
	}
	MYSQL_RES *r = mysql_use_result(m);
	if (r) {
		while (mysql_fetch_row(r))
			;
		mysql_free_result(r);
	}
	return 1e3 * (now_s() - t0);
}

static double probe_ns(void)
{
	size_t p = 0;
	for (size_t k = 0; k < ringn; k++)
		p = ring[p];
	double t0 = now_s();
	for (size_t k = 0; k < ringn; k++)
		p = ring[p];
	double t = now_s() - t0;
	sinkp = p;
	return t * 1e9 / (double)ringn;
}

static void ring_init(size_t bytes)
{
	ringn = bytes / sizeof(size_t);
	ring = malloc(bytes);
	if (!ring)
		exit(1);
	bench_ring_fill(ring, ringn);
}

int main(int argc, char **argv)
{
	if (argc != 7) {
		fprintf(stderr, "usage: schedule_proto CLIENT_CNF QUERY_DIR b|r|s WARMUP RUNS TAG\n");
		return 2;
	}
	const char *tag = argv[6];
	char mode = argv[3][0];
	int W = atoi(argv[4]), R = atoi(argv[5]);
	for (int q = 1; q <= NQ; q++)
		read_query(argv[2], q);
	MYSQL *m = mysql_init(NULL);
	mysql_options(m, MYSQL_READ_DEFAULT_FILE, argv[1]);
	mysql_options(m, MYSQL_READ_DEFAULT_GROUP, "client");
	if (!mysql_real_connect(m, NULL, NULL, NULL, "dbt3", 0, NULL, 0)) {
		fprintf(stderr, "%s\n", mysql_error(m));
		return 1;
	}
	for (int q = 1; q <= NQ; q++)
		if (pre[q] && mysql_query(m, pre[q])) {
			fprintf(stderr, "Q%d: %s\n", q, mysql_error(m));
			return 1;
		}
	ring_init(4u << 20);
	double T0 = now_s();
#define OUT(q, kind, i, v) printf("%s %c %d %c %d %.3f %.6f\n", tag, mode, q, kind, i, now_s() - T0, v)
	if (mode == 'b') {
		for (int q = 1; q <= NQ; q++) {
			OUT(q, 'p', 0, probe_ns());
			for (int i = 0; i < W; i++)
				OUT(q, 'w', i, exec_ms(m, q));
			for (int i = 0; i < R; i++)
				OUT(q, 'm', i, exec_ms(m, q));
		}
	} else {
		for (int q = 1; q <= NQ; q++)
			for (int i = 0; i < W; i++)
				OUT(q, 'w', i, exec_ms(m, q));
		for (int i = 0; i < R; i++) {
			OUT(0, 'p', i, probe_ns());
			for (int q = 1; q <= NQ; q++) {
				if (mode == 's')
					exec_ms(m, q);
				OUT(q, 'm', i, exec_ms(m, q));
			}
		}
	}
	OUT(NQ + 1, 'p', 0, probe_ns());
	mysql_close(m);
	return 0;
}
