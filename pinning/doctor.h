/* SPDX-License-Identifier: MIT */
/* Host checks for benchmark noise (dbt3stab doctor), and tune/reset of the knobs that have a
 * file in /proc or /sys (the model is pyperf's system tune/reset). */
#ifndef DBT3_DOC_H
#define DBT3_DOC_H
#include "base/util.h"
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

enum doctor_status { DOCTOR_OK = 0, DOCTOR_WARN, DOCTOR_UNKNOWN };

struct doctor_check {
	const char *name; /* stable identifier, e.g. "cpu_governor" */
	enum doctor_status status;
	char value[1024]; /* what was seen */
	char fix[512];	  /* the command that fixes a warn, "" when none */
};

/* The probes of the host-quietness check, given by the command (runner/run_memprobe.h): near takes
 * one probe of run's memory probe on the server's PUs, far one of the memory reference (a chase
 * far larger than the cache), each in ns a step (< 0: failed); ctx is theirs. The sizes are
 * for the text. */
struct doctor_probe {
	double (*near)(void *ctx);
	double (*far)(void *ctx);
	void *ctx;
	size_t near_bytes, far_bytes;
};

struct doctor_quiet;

/* Where to look: root "" is the real system; tests point it at a directory that mirrors the
 * files under /proc and /sys. cpus are the PUs the benchmark will use (server then client). */
struct doctor_env {
	const char *root;
	const unsigned *cpus;
	int n_cpus;
	int sample_ms; /* how long to watch the chosen CPUs for busy processes (0: 300) */
	/* host_noise: its probes (NULL: not sampled, the check is unknown), how long to sample
	 * (0: DOCTOR_QUIET_MS) and at most how many probes (0: DOCTOR_QUIET_MAX_PROBES); the
	 * restarts a side a change of effect needs at restart noise sd (the command's
	 * st_cost_restarts for DOCTOR_QUIET_QUERIES queries; 0: more than it prices; NULL: not
	 * said). */
	const struct doctor_probe *probe;
	int quiet_ms, quiet_max_probes;
	size_t (*restarts)(double sd, double effect);
	/* host_noise: the stored floor of the memory probe on this host (pinning/doctor_quiet.h;
	 * NULL: none is read), and where the check's figures go (NULL: not wanted). */
	const char *floor_file;
	struct doctor_quiet *quiet_out;
};

/* Number of checks doctor_run fills. */
#define DOCTOR_N_CHECKS 14

/* Runs every check into out[DOCTOR_N_CHECKS]; never fails: what cannot be read is DOCTOR_UNKNOWN.
 */
void doctor_run(struct doctor_check out[DOCTOR_N_CHECKS], const struct doctor_env *env);

const char *doctor_status_name(enum doctor_status s);

/* [{"name", "status", "value", "fix"}, ...]; the caller owns the reference. */
json_t *doctor_to_json(const struct doctor_check *checks, int n);

/* Writes the tuned values (performance governor, no turbo, ASLR off, THP madvise, NUMA
 * balancing off, perf_event_paranoid 1) where they differ, saving each previous value in
 * state_file first (values saved by an earlier --tune are kept). Reports each change or
 * failure as one line into log (may be NULL). Returns the number of failed writes, or -1. */
int doctor_tune(const char *root, const char *state_file, FILE *log, struct errbuf *err);

/* Writes back the values doctor_tune saved, then removes state_file. Returns the number of
 * failed writes, or -1 (no state file: err says so). */
int doctor_reset(const char *state_file, FILE *log, struct errbuf *err);

#endif
