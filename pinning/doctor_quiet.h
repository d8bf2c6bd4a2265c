/* SPDX-License-Identifier: MIT */
/* The doctor's host-quietness check (docs/pinning.md, "host_noise"): a few seconds of run's memory
 * probe against this host's stored floor, and the steal time of the benchmark PUs, judged by
 * run's rule for memory contention. The sampling and the judgement are apart so that tests feed
 * either. */
#ifndef DBT3_DOC_QUIET_H
#define DBT3_DOC_QUIET_H
#include "pinning/doctor.h"
#include "pinning/doctor_floor.h"
#include <stddef.h>

/* Sampling: for DOCTOR_QUIET_MS (or DOCTOR_QUIET_MAX_PROBES probes), longer until there are
 * DOCTOR_QUIET_MIN_PROBES but not beyond DOCTOR_QUIET_MS_CAP times it; a memory reference
 * first and after every DOCTOR_QUIET_FAR_EVERY probes; /proc/stat before and after. */
#define DOCTOR_QUIET_MS 3000
#define DOCTOR_QUIET_MS_CAP 4
#define DOCTOR_QUIET_MAX_PROBES 400
#define DOCTOR_QUIET_FAR_EVERY 8
#define DOCTOR_QUIET_MIN_PROBES 8

/* The rule is run's for memory contention (result/res.h), with this host's stored floor
 * (pinning/doctor_floor.h) in place of a result file's fastest probe: a probe is under pressure
 * above DOCTOR_QUIET_PRESSURE_FACTOR times the floor (RES_MEM_PRESSURE_FACTOR), and the sample
 * is noisy when more than DOCTOR_QUIET_PRESSED of its probes are (RES_MEM_SHARE: run calls such
 * a restart contended), with at least DOCTOR_QUIET_MIN_JUDGED of them (RES_MEM_MIN_PROBES).
 * Steal above DOCTOR_QUIET_STEAL of the PUs' time is noisy too (run's level,
 * RES_INTERF_SHARE: such a restart is disturbed). Without a stored floor there is no verdict. */
#define DOCTOR_QUIET_PRESSURE_FACTOR 2.0
#define DOCTOR_QUIET_PRESSED 0.25
#define DOCTOR_QUIET_MIN_JUDGED 3
#define DOCTOR_QUIET_STEAL 0.05
/* The evidence, grouped by that rule (8 runs at SF 0.1 of 22 queries; docs/pinning.md): the 6
 * whose median restart had 0-20 % of its probes under pressure (5 on an AMD EPYC VM, an idle
 * quick start on an Intel Xeon VM) had a median restart noise of 2.7-13.4 %; the 2 at 34 and
 * 57 % (AMD), 17.0-20.6 %. Within a run a restart's share and its noise correlate r = 0.89 and
 * 0.93 (the A/A with memory probes, bench/data/noise-20261202). */
#define DOCTOR_QUIET_NOISE_QUIET_LO 0.027
#define DOCTOR_QUIET_NOISE_QUIET_HI 0.134
#define DOCTOR_QUIET_NOISE_PRESSED_LO 0.170
#define DOCTOR_QUIET_NOISE_PRESSED_HI 0.206
/* The verdict priced: one query among DBT-3's 22, compare's default test. */
#define DOCTOR_QUIET_QUERIES 22

struct doctor_quiet_sample {
	double near[DOCTOR_QUIET_MAX_PROBES];
	size_t n_near;
	double far[DOCTOR_QUIET_MAX_PROBES / DOCTOR_QUIET_FAR_EVERY + 1];
	size_t n_far;
	double steal_share; /* of the PUs' ticks over the sample; NaN when unknown */
};

/* Takes the sample with env->probe (which must be set) on env->cpus' /proc/stat lines (the
 * aggregate line when n_cpus is 0). 0, or -1 when the first probe failed. */
int doctor_quiet_sample(struct doctor_quiet_sample *out, const struct doctor_env *env);

enum doctor_quiet_memory {
	DOCTOR_QUIET_MEM_NONE = 0, /* no stored floor that fits, or too few probes */
	DOCTOR_QUIET_MEM_QUIET,	   /* at most DOCTOR_QUIET_PRESSED under pressure */
	DOCTOR_QUIET_MEM_PRESSED   /* more */
};

/* What the check saw and decided (doctor --json's "figures" of host_noise). */
struct doctor_quiet {
	enum doctor_status status; /* warn: pressed or steal (noisy); ok: quiet; else unknown */
	enum doctor_quiet_memory memory;
	int sampled;	     /* 0: no sample (not asked for, or the probe failed) */
	size_t n, pressured; /* probes; of them above the factor times the floor */
	double share;	     /* pressured / n (NaN: memory NONE) */
	double fastest_ns, median_ns, far_ns; /* the sample's; far: median reference (NaN) */
	double sample_floor_ns;		      /* doctor_floor_of the sample (NaN) */
	int have_floor;			      /* a stored floor that fits is in floor */
	struct doctor_floor floor;	      /* that floor */
	char floor_note[512];		      /* why none is used ("" when one is) */
	double pressure;		      /* median_ns / floor.ns (NaN: no floor) */
	double steal_share;		      /* NaN when unknown */
	int steal_high;
	double noise_lo, noise_hi; /* the restart noise to expect (NaN: no evidence) */
};

/* Judges a sample against floor (NULL: none stored that fits) by the rule above; floor_note is
 * left "" for the caller. */
void doctor_quiet_judge(struct doctor_quiet *out, const struct doctor_quiet_sample *s,
			const struct doctor_floor *floor);

/* The stored floor for this host into out: env->floor_file read (doctor_floor_load) and taken
 * on env->root's CPU model with env->probe's size (any size without a probe). 1, or 0 with why
 * none is used in note (absent, refused, taken elsewhere). */
int doctor_quiet_floor(struct doctor_floor *out, char *note, size_t len,
		       const struct doctor_env *env);

/* Fills the check c (name set by the caller) from the verdict: the value says the figures, the
 * floor and its date, quiet or noisy for time verdicts with the evidence, and with
 * env->restarts what a 5 % and a 10 % time verdict need; without a floor, how to get one. */
void doctor_quiet_describe(struct doctor_check *c, const struct doctor_quiet *n,
			   const struct doctor_env *env);

/* The whole check: the stored floor, the sample (unless env->probe is NULL), the judgement and
 * its text; the figures into env->quiet_out when set. */
void doctor_quiet_check(struct doctor_check *c, const struct doctor_env *env);

/* doctor --tune's floor: a sample of DOCTOR_FLOOR_TIMES times env->quiet_ms (the host is quiet,
 * says the user), its floor stored in env->floor_file unless a stored one that fits is as low
 * (a floor only goes down; *out_kept then 1). out: the floor now stored. 0, or -1 with err. */
int doctor_quiet_calibrate(struct doctor_floor *out, int *out_kept, const struct doctor_env *env,
			   struct errbuf *err);

/* {"verdict": "quiet"|"noisy"|"unknown", "floor": {...} or null, "floor_note", "pressure",
 *  "probes", "pressured", "share", "median_ns", "fastest_ns", "reference_ns", "steal_share",
 *  "rule": {...}, "restart_noise": [lo, hi] or null}: the caller owns the reference. */
json_t *doctor_quiet_json(const struct doctor_quiet *n);

#endif
