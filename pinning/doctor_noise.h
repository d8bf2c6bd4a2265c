/* SPDX-License-Identifier: MIT */
/* The doctor's host-noise check (docs/pinning.md, "host_noise"): a few seconds of run's memory
 * probe against a memory reference, and the steal time of the benchmark PUs, judged by the
 * restart noise of the runs measured so far. The sampling and the judgement are apart so that
 * tests feed either. */
#ifndef DBT3_DOC_NOISE_H
#define DBT3_DOC_NOISE_H
#include "pinning/doctor.h"
#include <stddef.h>

/* Sampling: for DOCTOR_NOISE_MS (or DOCTOR_NOISE_MAX_PROBES probes), longer until there are
 * DOCTOR_NOISE_MIN_PROBES but not beyond DOCTOR_NOISE_MS_CAP times it; a memory reference
 * first and after every DOCTOR_NOISE_FAR_EVERY probes; /proc/stat before and after. */
#define DOCTOR_NOISE_MS 3000
#define DOCTOR_NOISE_MS_CAP 4
#define DOCTOR_NOISE_MAX_PROBES 400
#define DOCTOR_NOISE_FAR_EVERY 8
#define DOCTOR_NOISE_MIN_PROBES 8 /* fewer: no share (never in cache is seen from one) */

/* A probe is under pressure above DOCTOR_NOISE_PRESSURE_FACTOR times the fastest of the sample
 * (run's rule, RES_MEM_PRESSURE_FACTOR); the fastest is a reference only when the ring was in
 * cache then: below DOCTOR_NOISE_IN_CACHE times the median memory reference. A step of the
 * reference is a miss to memory, loaded and with a page walk when huge pages are refused, so a
 * last-level cache hit is a tenth of it or less and a probe that misses a quarter to a half
 * (seen on the Intel VM, under load: 113 ns against 296, 185 against 516). Otherwise the
 * probe was never in cache and cannot show pressure. */
#define DOCTOR_NOISE_PRESSURE_FACTOR 2.0
#define DOCTOR_NOISE_IN_CACHE 0.2
/* Warn above DOCTOR_NOISE_PRESSED of the probes under pressure (the gap between the runs of
 * the evidence below), or steal above DOCTOR_NOISE_STEAL of the PUs' time (run's level,
 * RES_NOISE_SHARE: such a restart is disturbed). */
#define DOCTOR_NOISE_PRESSED 0.125
#define DOCTOR_NOISE_STEAL 0.05
/* The evidence (7 runs at SF 0.1 on the AMD EPYC VM of 2026-12-02/03, 8 restarts of 22
 * queries, run's probe of 4 MiB in cache at 11-13 ns): the 4 whose median restart had 0-4.5 %
 * of its probes under pressure had a median restart noise of 8.1-12.8 %; the 3 at 20-57 %,
 * 13.4-20.6 %. */
#define DOCTOR_NOISE_QUIET_LO 0.081
#define DOCTOR_NOISE_QUIET_HI 0.128
#define DOCTOR_NOISE_PRESSED_LO 0.134
#define DOCTOR_NOISE_PRESSED_HI 0.206
/* The verdict priced: one query among DBT-3's 22, compare's default test. */
#define DOCTOR_NOISE_QUERIES 22

struct doctor_noise_sample {
	double near[DOCTOR_NOISE_MAX_PROBES];
	size_t n_near;
	double far[DOCTOR_NOISE_MAX_PROBES / DOCTOR_NOISE_FAR_EVERY + 1];
	size_t n_far;
	double steal_share; /* of the PUs' ticks over the sample; NaN when unknown */
};

/* Takes the sample with env->probe (which must be set) on env->cpus' /proc/stat lines (the
 * aggregate line when n_cpus is 0). 0, or -1 when the first probe failed. */
int doctor_noise_sample(struct doctor_noise_sample *out, const struct doctor_env *env);

enum doctor_noise_memory {
	DOCTOR_NOISE_MEM_NONE = 0, /* no reference, or in cache with too few probes for a share */
	DOCTOR_NOISE_MEM_QUIET,	   /* in cache, at most DOCTOR_NOISE_PRESSED under pressure */
	DOCTOR_NOISE_MEM_PRESSED,  /* in cache, more under pressure */
	DOCTOR_NOISE_MEM_UNCACHED  /* at memory latency throughout: cannot tell */
};

struct doctor_noise {
	enum doctor_status status; /* warn: pressed or steal; ok: quiet; else unknown */
	enum doctor_noise_memory memory;
	size_t n, pressured;
	double share;			    /* pressured / n (NaN: memory NONE) */
	double floor_ns, median_ns, far_ns; /* fastest, median probe; median reference (NaN) */
	double steal_share;		    /* NaN when unknown */
	int steal_high;
	double noise_lo, noise_hi; /* the restart noise to expect (NaN: no evidence) */
};

/* Judges a sample by the rule above. */
void doctor_noise_judge(struct doctor_noise *out, const struct doctor_noise_sample *s);

/* Fills the check c (name set by the caller) from the verdict: the value says the figures, the
 * restart noise to expect and its evidence, and with env->restarts what a 5 % and a 10 % time
 * verdict need. */
void doctor_noise_describe(struct doctor_check *c, const struct doctor_noise *n,
			   const struct doctor_env *env);

/* The whole check: sample (unless env->probe is NULL), judge, describe. */
void doctor_noise_check(struct doctor_check *c, const struct doctor_env *env);

#endif
