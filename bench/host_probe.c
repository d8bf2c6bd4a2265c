/* SPDX-License-Identifier: MIT */
/* The host's speed over time, outside any server: alternately a random pointer chase over a
 * ring (memory latency, the share of the last-level cache neighbours leave us) and a chain of
 * dependent multiplications (the core's clock), each timed; one line per pair.
 * usage: host_probe SECONDS [RING_BYTES]   (docs/stability.md; pin it: taskset -c 1) */
#include "bench_ring.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: host_probe SECONDS [RING_BYTES]\n");
		return 2;
	}
	double dur = strtod(argv[1], NULL);
	size_t n = (argc > 2 ? strtoull(argv[2], NULL, 10) : 8u << 20) / sizeof(size_t);
	size_t *ring = malloc(n * sizeof(size_t));
	if (!ring || n < 2)
		return 1;
	bench_ring_fill(ring, n);
	printf("# seconds chase_ms alu_ms (chase: 2e6 steps over %zu bytes; alu: 5e7 steps)\n",
	       n * sizeof(size_t));
	double t0 = now_s();
	volatile uint64_t sink = 0;
	while (now_s() - t0 < dur) {
		double a0 = now_s();
		size_t p = 0;
		for (long k = 0; k < 2000000; k++)
			p = ring[p];
		double a1 = now_s();
		uint64_t x = 1;
		for (long k = 0; k < 50000000; k++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		double a2 = now_s();
		sink += p + x;
		printf("%.3f %.6f %.6f\n", a0 - t0, 1e3 * (a1 - a0), 1e3 * (a2 - a1));
		fflush(stdout);
	}
	return (int)(sink & 0);
}
