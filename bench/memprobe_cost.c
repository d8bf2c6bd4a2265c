/* SPDX-License-Identifier: MIT */
/* The cost of run's memory-contention probe (runner/run_memprobe.h): N probes of the ring run
 * uses on this host, each timed whole (load pass + timed pass) on the wall clock, printed as
 * the median and the 90th percentile per probe and the median of the probe's own figure; then
 * the same with 64 MiB written before each probe, as a query leaves the caches.
 * usage: memprobe_cost [N] [RING_BYTES]   (docs/run.md, "The runner's own cost") */
#include "runner/run_memprobe.h"
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 200;
	size_t bytes = argc > 2 ? strtoull(argv[2], NULL, 10) : run_memprobe_ring_bytes(0);
	struct run_memprobe *p;
	struct errbuf err;
	if (n < 1 || run_memprobe_new(&p, bytes, &err) < 0)
		return 2;
	double *wall = calloc((size_t)n, sizeof(double)), *fig = calloc((size_t)n, sizeof(double));
	size_t evict_n = (size_t)64 << 20;
	volatile char *evict = malloc(evict_n);
	if (!wall || !fig || !evict)
		return 1;
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < n; i++) {
			for (size_t k = 0; pass && k < evict_n; k += 64)
				evict[k] = (char)i;
			uint64_t t0 = util_now_ns();
			fig[i] = run_memprobe_take(p);
			wall[i] = (double)(util_now_ns() - t0) / 1e6;
		}
		qsort(wall, (size_t)n, sizeof(double), cmp);
		qsort(fig, (size_t)n, sizeof(double), cmp);
		printf("%d probes of a %zu-byte ring%s: %.2f ms each (median; 90th percentile "
		       "%.2f ms), figure %.1f ns per step (median; 90th percentile %.1f)\n",
		       n, run_memprobe_bytes(p), pass ? " after 64 MiB written" : " in a row",
		       wall[n / 2], wall[n * 9 / 10], fig[n / 2], fig[n * 9 / 10]);
	}
	run_memprobe_free(p);
	free(wall);
	free(fig);
	free((void *)evict);
	return 0;
}
