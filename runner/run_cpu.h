/* SPDX-License-Identifier: MIT */
/* CPU time of a whole process at nanosecond resolution: the sum over its threads of the first
 * field of /proc/PID/task/TID/schedstat (time spent on a CPU, in ns). */
#ifndef DBT3_RUN_CPU_H
#define DBT3_RUN_CPU_H
#include "runner/util.h"
#include <stdint.h>
#include <sys/types.h>

/* A sampler bound to one process; keeps one open file per thread between samples. */
struct run_cpu;

/* Starts sampling pid (takes a first sample); free with run_cpu_free(). */
int run_cpu_new(struct run_cpu **out, pid_t pid, struct errbuf *err);

/* CPU nanoseconds the process used since the previous sample (or run_cpu_new), as the sum of
 * per-thread deltas: threads born since count from zero, threads that ended are dropped. */
int run_cpu_sample(struct run_cpu *c, uint64_t *out, struct errbuf *err);

void run_cpu_free(struct run_cpu *c);

#endif
