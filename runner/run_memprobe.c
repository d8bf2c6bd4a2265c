/* SPDX-License-Identifier: MIT */
/* The memory-contention probe (runner/run_memprobe.h). */
#include "runner/run_memprobe.h"
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

struct run_memprobe {
	size_t *ring;
	size_t n;
	volatile size_t sink; /* keeps the chase from being optimised away */
};

size_t run_memprobe_ring_bytes(size_t llc_bytes)
{
	size_t b = (llc_bytes ? llc_bytes : (size_t)32 << 20) / 8;
	if (b < RUN_MEMPROBE_MIN_BYTES)
		b = RUN_MEMPROBE_MIN_BYTES;
	if (b > RUN_MEMPROBE_MAX_BYTES)
		b = RUN_MEMPROBE_MAX_BYTES;
	return b;
}

/* xorshift64 (Marsaglia 2003, "Xorshift RNGs", J. Stat. Softw. 8(14), the 13/7/17 triple). */
static uint64_t xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Sattolo's algorithm (S. Sattolo, "An algorithm to generate a random cyclic permutation",
 * Inf. Process. Lett. 22 (1986) 315-317; Knuth TAOCP vol. 2, 3.4.2): like Fisher-Yates but j
 * is drawn from [0, i), which yields one cycle through all n slots. The modulo's bias is
 * irrelevant here: any single cycle serves. */
static void sattolo(size_t *ring, size_t n)
{
	uint64_t s = 88172645463325252ULL;
	for (size_t i = 0; i < n; i++)
		ring[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(xorshift64(&s) % i);
		size_t t = ring[i];
		ring[i] = ring[j];
		ring[j] = t;
	}
}

int run_memprobe_new(struct run_memprobe **out, size_t bytes, struct errbuf *err)
{
	struct run_memprobe *p = calloc(1, sizeof(*p));
	*out = NULL;
	if (!p)
		return errbuf_set(err, "out of memory");
	p->n = bytes / sizeof(size_t);
	if (p->n < 2)
		p->n = 2;
	p->ring = malloc(p->n * sizeof(size_t));
	if (!p->ring) {
		free(p);
		return errbuf_set(err, "out of memory (a memory probe of %zu bytes)", bytes);
	}
	sattolo(p->ring, p->n);
	*out = p;
	return 0;
}

void run_memprobe_free(struct run_memprobe *p)
{
	if (!p)
		return;
	free(p->ring);
	free(p);
}

size_t run_memprobe_bytes(const struct run_memprobe *p)
{
	return p->n * sizeof(size_t);
}

static size_t chase(const size_t *ring, size_t n, size_t at)
{
	for (size_t k = 0; k < n; k++)
		at = ring[at];
	return at;
}

/* The calling thread's CPU time in ns: a probe preempted by another task (which the CPU
 * counters of the record see) does not count the other task's time as memory latency. */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return util_now_ns();
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double run_memprobe_take(struct run_memprobe *p)
{
	size_t at = chase(p->ring, p->n, 0);
	uint64_t t0 = thread_cpu_ns();
	at = chase(p->ring, p->n, at);
	uint64_t t1 = thread_cpu_ns();
	p->sink = at;
	return (double)(t1 > t0 ? t1 - t0 : 0) / (double)p->n;
}

size_t run_memprobe_cycle_length(const struct run_memprobe *p)
{
	size_t at = p->ring[0], len = 1;
	while (at != 0 && len <= p->n) {
		at = p->ring[at];
		len++;
	}
	return len;
}
