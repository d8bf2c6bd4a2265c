/* SPDX-License-Identifier: MIT */
/* The refresh snapshot's cost on a loaded, stopped instance (server/srv_snapshot.h): N rounds of
 * srv_snapshot_take (the clone of DIR/data, in a child that became the server's user) and
 * srv_snapshot_restore (the swap back and the removal of the changed data), each timed whole on
 * the wall clock; one line per round, then the median of each. Nothing is changed between take
 * and restore, so each restore swaps back identical data.
 * usage: snapshot_cost DIR [N]   (bench/snapshot.sh; docs/server.md, "Snapshot") */
#include "server/srv.h"
#include "server/srv_snapshot.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int rounds(struct srv *s, int n, double *take, double *restore)
{
	struct errbuf err;
	for (int i = 0; i < n; i++) {
		struct srv_snapshot_info si;
		double t0 = now_s();
		if (srv_snapshot_take(s, &si, &err) < 0)
			return fprintf(stderr, "snapshot_cost: take: %s\n", err.msg), -1;
		double t1 = now_s();
		if (srv_snapshot_restore(s, &err) != 1)
			return fprintf(stderr, "snapshot_cost: restore: %s\n", err.msg), -1;
		take[i] = t1 - t0;
		restore[i] = now_s() - t1;
		printf("round %d: take %.3f s (%llu files reflinked, %llu copied, %.2f GiB), "
		       "restore %.3f s\n",
		       i + 1, take[i], (unsigned long long)si.clone.files_reflinked,
		       (unsigned long long)si.clone.files_copied,
		       (double)si.clone.bytes / 1073741824.0, restore[i]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3)
		return fprintf(stderr, "usage: snapshot_cost DIR [N]\n"), 2;
	int n = argc > 2 ? atoi(argv[2]) : 3;
	struct srv_opts o;
	struct srv *s;
	struct errbuf err;
	srv_opts_init(&o);
	o.datadir = argv[1];
	if (n < 1 || srv_opts_finish(&o, &err) < 0 || srv_open(&s, &o, &err) < 0 ||
	    srv_lock(s, &err) < 0)
		return fprintf(stderr, "snapshot_cost: %s\n", n < 1 ? "bad N" : err.msg), 2;
	double *take = calloc((size_t)n, sizeof(double)), *restore = calloc((size_t)n, sizeof(double));
	if (!take || !restore || rounds(s, n, take, restore) < 0)
		return 1;
	qsort(take, (size_t)n, sizeof(double), cmp);
	qsort(restore, (size_t)n, sizeof(double), cmp);
	printf("median of %d: take %.3f s, restore %.3f s\n", n, take[n / 2], restore[n / 2]);
	srv_free(s);
	return 0;
}
