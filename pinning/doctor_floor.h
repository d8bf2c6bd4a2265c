/* SPDX-License-Identifier: MIT */
/* The stored floor of the memory probe on this host (docs/pinning.md, "host_noise"): a low order
 * statistic of a quiet sample, kept in the state directory with the CPU model and the probe's
 * size, so that doctor judges a sample against the host's quiet latency, not its own. */
#ifndef DBT3_DOC_FLOOR_H
#define DBT3_DOC_FLOOR_H
#include "base/util.h"
#include <stddef.h>

/* The file's name in the state directory (util_state_dir). */
#define DOCTOR_FLOOR_FILE "host-floor.json"
/* The floor of a sample of n probes: its (DOCTOR_FLOOR_QUANTILE n)-th fastest, counted from 0
 * (the fastest up to 19 probes, the second fastest from 20): one odd fast probe does not set
 * it, and it stays as low as run's floor (the fastest probe of a result file). */
#define DOCTOR_FLOOR_QUANTILE 0.05
/* --tune samples DOCTOR_FLOOR_TIMES times --noise-seconds for it. */
#define DOCTOR_FLOOR_TIMES 3

struct doctor_floor {
	double ns;	     /* the floor, ns a step */
	double median_ns;    /* the median of the sample it came from */
	size_t probes;	     /* in that sample */
	size_t probe_bytes;  /* the probe's ring */
	char date[32];	     /* UTC, ISO 8601 */
	char source[64];     /* "doctor --tune" */
	char cpu_model[256]; /* /proc/cpuinfo's "model name" ("" when it has none) */
};

/* A sorted copy of v[0..n) for the caller to free; NULL when n is 0 or out of memory. */
double *doctor_sorted_copy(const double *v, size_t n);

/* The floor of the n probes v (order statistic above); NaN when n is 0. */
double doctor_floor_of(const double *v, size_t n);

/* Reads path without following a symbolic link: 1 read, 0 absent, -1 refused (a link, not a
 * regular file, owned by neither the caller nor root, writable by group or others, or not a
 * floor file) with why in err. */
int doctor_floor_load(struct doctor_floor *out, const char *path, struct errbuf *err);

/* Writes f to path through util_write_file (base/safe_write.h), making its directory; refuses,
 * leaving it as it is, what is at path when that is not a regular file of the caller's (a
 * symbolic link another user planted is neither followed nor replaced). 0, or -1 with err. */
int doctor_floor_save(const struct doctor_floor *f, const char *path, struct errbuf *err);

/* Nonzero when f was taken on this CPU model with this probe size; else 0 and why in why (the
 * models shown with their control characters escaped). */
int doctor_floor_fits(const struct doctor_floor *f, const char *cpu_model, size_t probe_bytes,
		      char *why, size_t len);

#endif
