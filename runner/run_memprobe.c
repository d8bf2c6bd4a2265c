/* SPDX-License-Identifier: MIT */
/* The memory-contention probe (runner/run_memprobe.h). */
#include "runner/run_memprobe.h"
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

struct run_memprobe {
	size_t *ring;
	size_t n;
	size_t steps, at;     /* a memory reference: steps a probe, where the last one stopped */
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

size_t run_memprobe_far_bytes(size_t ring_bytes)
{
	size_t b = ring_bytes * RUN_MEMPROBE_FAR_TIMES;
	if (b < RUN_MEMPROBE_FAR_MIN_BYTES)
		b = RUN_MEMPROBE_FAR_MIN_BYTES;
	if (b > RUN_MEMPROBE_FAR_MAX_BYTES)
		b = RUN_MEMPROBE_FAR_MAX_BYTES;
	return b;
}

/* The cycle is made over the line numbers in the first lines slots, then each is moved to its
 * line's first slot as a slot index, from the last down: slot 8 i >= i was read already. */
int run_memprobe_new_far(struct run_memprobe **out, size_t bytes, size_t steps, struct errbuf *err)
{
	const size_t per_line = 64 / sizeof(size_t);
	size_t lines = bytes / 64 < 2 ? 2 : bytes / 64;
	struct run_memprobe *p = calloc(1, sizeof(*p));
	*out = NULL;
	if (!p)
		return errbuf_set(err, "out of memory");
	p->n = lines * per_line;
	void *mem = NULL;
	if (posix_memalign(&mem, (size_t)2 << 20, p->n * sizeof(size_t)) != 0) {
		free(p);
		return errbuf_set(err, "out of memory (a memory reference of %zu bytes)", bytes);
	}
	/* huge pages where THP allows: a step is then a miss to memory without a page walk */
	madvise(mem, p->n * sizeof(size_t), MADV_HUGEPAGE);
	p->ring = mem;
	sattolo(p->ring, lines);
	for (size_t i = lines; i-- > 0;)
		p->ring[i * per_line] = p->ring[i] * per_line;
	p->steps = steps ? steps : 1;
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
	if (p->steps) {
		uint64_t t0 = thread_cpu_ns();
		p->at = chase(p->ring, p->steps, p->at);
		uint64_t t1 = thread_cpu_ns();
		return (double)(t1 > t0 ? t1 - t0 : 0) / (double)p->steps;
	}
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

struct run_memprobe_worker {
	struct run_memprobe *probe;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int asked, answered, quit;
	double ns;
};

/* A thread started with attr runs on cpus (n_cpus 0: wherever the scheduler puts it). */
static void set_affinity(pthread_attr_t *attr, const unsigned *cpus, int n_cpus)
{
	if (n_cpus <= 0)
		return;
	cpu_set_t set;
	CPU_ZERO(&set);
	for (int i = 0; i < n_cpus; i++)
		if (cpus[i] < CPU_SETSIZE)
			CPU_SET(cpus[i], &set);
	pthread_attr_setaffinity_np(attr, sizeof(set), &set);
}

static void *worker_main(void *arg)
{
	struct run_memprobe_worker *w = arg;
	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (!w->asked && !w->quit)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->quit)
			break;
		w->asked = 0;
		pthread_mutex_unlock(&w->mu);
		double ns = run_memprobe_take(w->probe);
		pthread_mutex_lock(&w->mu);
		w->ns = ns;
		w->answered = 1;
		pthread_cond_broadcast(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

int run_memprobe_worker_start(struct run_memprobe_worker **out, struct run_memprobe *p,
			      const unsigned *cpus, int n_cpus, struct errbuf *err)
{
	struct run_memprobe_worker *w = calloc(1, sizeof(*w));
	pthread_attr_t attr;
	*out = NULL;
	if (!w || pthread_attr_init(&attr) != 0) {
		free(w);
		return errbuf_set(err, "out of memory");
	}
	w->probe = p;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	set_affinity(&attr, cpus, n_cpus);
	int rc = pthread_create(&w->th, &attr, worker_main, w);
	pthread_attr_destroy(&attr);
	if (rc != 0) {
		pthread_mutex_destroy(&w->mu);
		pthread_cond_destroy(&w->cv);
		free(w);
		return errbuf_set(err, "cannot start the memory probe's thread: %s", strerror(rc));
	}
	*out = w;
	return 0;
}

double run_memprobe_worker_take(struct run_memprobe_worker *w)
{
	pthread_mutex_lock(&w->mu);
	w->asked = 1;
	w->answered = 0;
	pthread_cond_broadcast(&w->cv);
	while (!w->answered)
		pthread_cond_wait(&w->cv, &w->mu);
	double ns = w->ns;
	pthread_mutex_unlock(&w->mu);
	return ns;
}

void run_memprobe_worker_stop(struct run_memprobe_worker *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	w->quit = 1;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->th, NULL);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	free(w);
}

/* The fit runs in a thread of its own on the probe's PUs: the rings it tries, each timed quiet
 * (as run_memprobe_take) and right after a write pass over flush, larger than any cache
 * (timed without a loading pass: the ring as neighbours leave it when they evict it). */
struct fit {
	size_t bytes;
	char *flush;
	size_t flush_bytes;
	double quiet, cold;
	struct errbuf *err;
	int rc;
};

static double take_cold(struct run_memprobe *p, volatile char *flush, size_t flush_bytes)
{
	for (size_t i = 0; i < flush_bytes; i += 64)
		flush[i]++;
	uint64_t t0 = thread_cpu_ns();
	size_t at = chase(p->ring, p->n, 0);
	uint64_t t1 = thread_cpu_ns();
	p->sink = at;
	return (double)(t1 > t0 ? t1 - t0 : 0) / (double)p->n;
}

static void *fit_main(void *arg)
{
	struct fit *f = arg;
	for (;; f->bytes /= 2) {
		struct run_memprobe *p = NULL;
		if (run_memprobe_new(&p, f->bytes, f->err) < 0) {
			f->rc = -1;
			return NULL;
		}
		f->quiet = f->cold = -1;
		for (int i = 0; i < RUN_MEMPROBE_FIT_TAKES; i++) {
			double q = run_memprobe_take(p), c = take_cold(p, f->flush, f->flush_bytes);
			if (f->quiet < 0 || q < f->quiet)
				f->quiet = q;
			if (f->cold < 0 || c < f->cold)
				f->cold = c;
		}
		run_memprobe_free(p);
		if (f->quiet * RUN_MEMPROBE_FIT_RATIO <= f->cold ||
		    f->bytes / 2 < RUN_MEMPROBE_MIN_BYTES)
			return NULL;
	}
}

int run_memprobe_fit(struct run_memprobe **out, struct run_memprobe_worker **out_worker,
		     double *out_memory_ns, size_t bytes, const unsigned *cpus, int n_cpus,
		     struct errbuf *err)
{
	struct fit f = {.bytes = bytes, .flush_bytes = run_memprobe_far_bytes(bytes), .err = err};
	pthread_attr_t attr;
	pthread_t th;
	*out = NULL;
	*out_worker = NULL;
	*out_memory_ns = -1;
	if (!(f.flush = calloc(1, f.flush_bytes)))
		return errbuf_set(err, "out of memory (a memory probe's flush of %zu bytes)",
				  f.flush_bytes);
	int rc = pthread_attr_init(&attr);
	if (rc == 0) {
		set_affinity(&attr, cpus, n_cpus);
		rc = pthread_create(&th, &attr, fit_main, &f);
		pthread_attr_destroy(&attr);
	}
	if (rc == 0)
		pthread_join(th, NULL);
	free(f.flush);
	if (rc != 0)
		return errbuf_set(err, "cannot start the memory probe's thread: %s", strerror(rc));
	if (f.rc < 0)
		return -1;
	if (run_memprobe_new(out, f.bytes, err) < 0)
		return -1;
	if (run_memprobe_worker_start(out_worker, *out, cpus, n_cpus, err) < 0) {
		run_memprobe_free(*out);
		*out = NULL;
		return -1;
	}
	*out_memory_ns = f.cold;
	return 0;
}
