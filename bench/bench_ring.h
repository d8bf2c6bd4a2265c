/* SPDX-License-Identifier: MIT */
/* The pointer-chase ring of the bench programs (as runner/run_memprobe.c builds run's): one
 * random cycle through all n slots (Sattolo's algorithm), xorshift64 13/7/17, fixed seed. */
#ifndef DBT3_BENCH_RING_H
#define DBT3_BENCH_RING_H
#include <stddef.h>
#include <stdint.h>

static inline void bench_ring_fill(size_t *ring, size_t n)
{
	uint64_t s = 88172645463325252ULL;
	for (size_t i = 0; i < n; i++)
		ring[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		size_t j = (size_t)(s % i), t = ring[i];
		ring[i] = ring[j], ring[j] = t;
	}
}

#endif
