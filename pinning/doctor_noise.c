/* SPDX-License-Identifier: MIT */
/* The doctor's host-noise check (pinning/doctor_noise.h). */
#include "pinning/doctor_noise.h"
#include "pinning/doctor_int.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Steal and all ticks of cpu's line of root/proc/stat ("cpu " when cpu < 0): user nice system
 * idle iowait irq softirq steal (guest time is inside user). 0, or -1 when absent. */
static int stat_ticks(const char *root, int cpu, unsigned long long *steal,
		      unsigned long long *total)
{
	unsigned long long v[8];
	if (doctor_stat_ticks(root, cpu, v) != 8)
		return -1;
	*steal = v[7];
	*total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
	return 0;
}

/* Steal and all ticks summed over the benchmark PUs (the aggregate line without any). */
static int pus_ticks(const struct doctor_env *env, unsigned long long *steal,
		     unsigned long long *total)
{
	*steal = *total = 0;
	if (env->n_cpus == 0)
		return stat_ticks(env->root, -1, steal, total);
	for (int i = 0; i < env->n_cpus; i++) {
		unsigned long long s, t;
		if (stat_ticks(env->root, (int)env->cpus[i], &s, &t) < 0)
			return -1;
		*steal += s;
		*total += t;
	}
	return 0;
}

int doctor_noise_sample(struct doctor_noise_sample *out, const struct doctor_env *env)
{
	const struct doctor_probe *p = env->probe;
	size_t max =
	    env->noise_max_probes > 0 ? (size_t)env->noise_max_probes : DOCTOR_NOISE_MAX_PROBES;
	uint64_t ms = env->noise_ms > 0 ? (uint64_t)env->noise_ms : DOCTOR_NOISE_MS;
	unsigned long long s0, t0, s1, t1;
	memset(out, 0, sizeof(*out));
	out->steal_share = NAN;
	if (max > DOCTOR_NOISE_MAX_PROBES)
		max = DOCTOR_NOISE_MAX_PROBES;
	int have0 = pus_ticks(env, &s0, &t0) == 0;
	uint64_t start = util_now_ns();
	for (size_t i = 0; out->n_near < max; i++) {
		if (i % DOCTOR_NOISE_FAR_EVERY == 0 && p->far) {
			double f = p->far(p->ctx);
			if (f > 0)
				out->far[out->n_far++] = f;
		}
		double v = p->near(p->ctx);
		if (!(v > 0))
			break;
		out->near[out->n_near++] = v;
		uint64_t took = util_now_ns() - start;
		if (took >= DOCTOR_NOISE_MS_CAP * ms * 1000000u ||
		    (took >= ms * 1000000u && out->n_near >= DOCTOR_NOISE_MIN_PROBES))
			break;
	}
	if (have0 && pus_ticks(env, &s1, &t1) == 0 && t1 > t0 && s1 >= s0)
		out->steal_share = (double)(s1 - s0) / (double)(t1 - t0);
	return out->n_near ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of v[0..n) (the mean of the middle two when n is even); NaN when n is 0. */
static double median_of(const double *v, size_t n)
{
	if (n == 0)
		return NAN;
	double *c = malloc(n * sizeof(*c));
	if (!c)
		return NAN;
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return m;
}

void doctor_noise_judge(struct doctor_noise *out, const struct doctor_noise_sample *s)
{
	memset(out, 0, sizeof(*out));
	out->n = s->n_near;
	out->share = out->floor_ns = out->noise_lo = out->noise_hi = NAN;
	out->median_ns = median_of(s->near, s->n_near);
	out->far_ns = median_of(s->far, s->n_far);
	out->steal_share = s->steal_share;
	out->steal_high = s->steal_share > DOCTOR_NOISE_STEAL;
	for (size_t i = 0; i < s->n_near; i++)
		if (isnan(out->floor_ns) || s->near[i] < out->floor_ns)
			out->floor_ns = s->near[i];
	if (s->n_near > 0 && s->n_far > 0) {
		if (!(out->floor_ns < DOCTOR_NOISE_IN_CACHE * out->far_ns)) {
			out->memory = DOCTOR_NOISE_MEM_UNCACHED;
		} else if (s->n_near >= DOCTOR_NOISE_MIN_PROBES) {
			for (size_t i = 0; i < s->n_near; i++)
				out->pressured +=
				    s->near[i] > DOCTOR_NOISE_PRESSURE_FACTOR * out->floor_ns;
			out->share = (double)out->pressured / (double)out->n;
			out->memory = out->share > DOCTOR_NOISE_PRESSED ? DOCTOR_NOISE_MEM_PRESSED
									: DOCTOR_NOISE_MEM_QUIET;
			int p = out->memory == DOCTOR_NOISE_MEM_PRESSED;
			out->noise_lo = p ? DOCTOR_NOISE_PRESSED_LO : DOCTOR_NOISE_QUIET_LO;
			out->noise_hi = p ? DOCTOR_NOISE_PRESSED_HI : DOCTOR_NOISE_QUIET_HI;
		}
	}
	if (out->steal_high || out->memory == DOCTOR_NOISE_MEM_PRESSED)
		out->status = DOCTOR_WARN;
	else if (out->memory == DOCTOR_NOISE_MEM_QUIET)
		out->status = DOCTOR_OK;
	else
		out->status = DOCTOR_UNKNOWN;
}

static void add(char *out, size_t len, const char *fmt, ...) UTIL_PRINTF(3, 4);
static void add(char *out, size_t len, const char *fmt, ...)
{
	size_t at = strlen(out);
	if (at + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out + at, len - at, fmt, ap);
	va_end(ap);
}

/* "12-34" restarts a side at the two ends of the noise band (0: more than priced). */
static void add_range(char *out, size_t len, size_t lo, size_t hi)
{
	if (lo == 0)
		add(out, len, "more than 100");
	else if (hi == 0)
		add(out, len, "%zu to more than 100", lo);
	else if (lo == hi)
		add(out, len, "%zu", lo);
	else
		add(out, len, "%zu-%zu", lo, hi);
}

/* The memory part of the value. */
static void describe_memory(char *v, size_t len, const struct doctor_noise *n,
			    const struct doctor_probe *p)
{
	double mib = p ? (double)p->near_bytes / (1 << 20) : 0;
	double far_mib = p ? (double)p->far_bytes / (1 << 20) : 0;
	switch (n->memory) {
	case DOCTOR_NOISE_MEM_QUIET:
	case DOCTOR_NOISE_MEM_PRESSED:
		add(v, len,
		    "memory probe under pressure in %zu of %zu probes (%.0f%%; median %.1fx the "
		    "fastest, %.1f ns; memory reference %.0f ns)",
		    n->pressured, n->n, 100 * n->share, n->median_ns / n->floor_ns, n->floor_ns,
		    n->far_ns);
		break;
	case DOCTOR_NOISE_MEM_UNCACHED:
		add(v, len,
		    "memory probe (%.0f MiB) never in a fast cache (fastest %.1f ns, median %.1f "
		    "ns; the reference chase over %.0f MiB %.0f ns, the fastest not below %g of "
		    "it): pressure cannot show",
		    mib, n->floor_ns, n->median_ns, far_mib, n->far_ns, DOCTOR_NOISE_IN_CACHE);
		break;
	default:
		if (isnan(n->far_ns))
			add(v, len, "no memory reference (its probe failed)");
		else
			add(v, len,
			    "%zu memory probes in cache, too few for a share (fastest %.1f ns, "
			    "median %.1f ns; memory reference %.0f ns)",
			    n->n, n->floor_ns, n->median_ns, n->far_ns);
	}
}

void doctor_noise_describe(struct doctor_check *c, const struct doctor_noise *n,
			   const struct doctor_env *env)
{
	char *v = c->value;
	size_t len = sizeof(c->value);
	v[0] = c->fix[0] = '\0';
	c->status = n->status;
	describe_memory(v, len, n, env->probe);
	if (isnan(n->steal_share))
		add(v, len, ", steal unknown");
	else
		add(v, len, ", steal %.1f%%", 100 * n->steal_share);
	if (n->memory == DOCTOR_NOISE_MEM_PRESSED)
		add(v, len,
		    ": expect restart noise about %.0f-%.0f%% (3 runs with 20-57%% of their "
		    "probes under pressure; 4 with 0-5%% had 8-13%%)",
		    100 * n->noise_lo, 100 * n->noise_hi);
	else if (n->memory == DOCTOR_NOISE_MEM_QUIET)
		add(v, len,
		    ": quiet now; expect restart noise about %.0f-%.0f%% (4 runs with 0-5%% of "
		    "their probes under pressure)",
		    100 * n->noise_lo, 100 * n->noise_hi);
	else if (n->memory == DOCTOR_NOISE_MEM_UNCACHED)
		add(v, len,
		    ": no evidence to expect a noise from (an idle quick start on such a host had "
		    "2.7%% restart noise; a run whose probes were evicted most of the time on a "
		    "host where they fit, 17%%)");
	if (!isnan(n->noise_lo) && env->restarts) {
		add(v, len, "; a 5%% time verdict needs ");
		add_range(v, len, env->restarts(n->noise_lo, 0.05),
			  env->restarts(n->noise_hi, 0.05));
		add(v, len, " restarts a side here, a 10%% one ");
		add_range(v, len, env->restarts(n->noise_lo, 0.10),
			  env->restarts(n->noise_hi, 0.10));
		add(v, len, " (one query of %d, Holm)", DOCTOR_NOISE_QUERIES);
	}
	if (n->status != DOCTOR_WARN)
		return;
	snprintf(c->fix, sizeof(c->fix), "%s",
		 n->steal_high
		     ? "none inside the guest: a host without neighbours (dedicated or bare metal)"
		     : "doctor again when the neighbours are quieter, or decide by what this noise "
		       "does not touch: compare's work test, run --side-by-side, compare "
		       "--adjust-memory");
}

void doctor_noise_check(struct doctor_check *c, const struct doctor_env *env)
{
	struct doctor_noise_sample *s = NULL;
	struct doctor_noise n;
	if (!env->probe || !(s = calloc(1, sizeof(*s))) || doctor_noise_sample(s, env) < 0) {
		c->status = DOCTOR_UNKNOWN;
		c->fix[0] = '\0';
		snprintf(c->value, sizeof(c->value), "%s",
			 !env->probe ? "not sampled (--noise-seconds 0, or no memory probe)"
			 : s	     ? "no memory probe (it failed)"
				     : "out of memory");
		free(s);
		return;
	}
	doctor_noise_judge(&n, s);
	free(s);
	doctor_noise_describe(c, &n, env);
}
