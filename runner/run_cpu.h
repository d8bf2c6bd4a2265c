/* SPDX-License-Identifier: MIT */
/* CPU time of a whole process at nanosecond resolution: the kernel's sum over its threads of
 * their time on a CPU (sum_exec_runtime), read with one clock_gettime on the process's CPU clock
 * (clock_getcpuclockid), or else summed from /proc/PID/task/TID/schedstat (the same counter). */
#ifndef DBT3_RUN_CPU_H
#define DBT3_RUN_CPU_H
#include "base/util.h"
#include <stdint.h>
#include <sys/types.h>

/* A sampler bound to one process; keeps one open file per thread between samples. */
struct run_cpu;

enum run_cpu_source {
	RUN_CPU_AUTO = 0,      /* the process CPU clock when the kernel lets us read it */
	RUN_CPU_CLOCK = 1,     /* clock_getcpuclockid(pid): one system call, counts ended threads */
	RUN_CPU_SCHEDSTAT = 2, /* /proc/PID/task/TID/schedstat: one read per thread */
};

/* Starts sampling pid (takes a first sample); free with run_cpu_free(). */
int run_cpu_new(struct run_cpu **out, pid_t pid, enum run_cpu_source source, struct errbuf *err);

/* "clock_getcpuclockid" or "schedstat": what the sampler reads. */
const char *run_cpu_source_name(const struct run_cpu *c);

/* CPU nanoseconds the process used since the previous sample (or run_cpu_new). With schedstat,
 * the sum of per-thread deltas: threads born since count from zero, ended ones are dropped. */
int run_cpu_sample(struct run_cpu *c, uint64_t *out, struct errbuf *err);

void run_cpu_free(struct run_cpu *c);

#endif
