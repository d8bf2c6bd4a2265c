/* SPDX-License-Identifier: MIT */
/* One hardware performance counter (perf_event_open(2)), as doctor's check and run's
 * instruction counts open it. */
#ifndef DBT3_UTIL_PERF_H
#define DBT3_UTIL_PERF_H
#include <stdint.h>
#include <sys/types.h>

/* Opens the hardware counter config (PERF_COUNT_HW_*) of thread tid (0: the caller), user space
 * only, in group (the leader's descriptor, -1: a group of its own) with read_format (its
 * PERF_FORMAT_* bits), stopped when disabled. The descriptor (close-on-exec), or -1 with
 * errno. */
int util_perf_open(uint64_t config, pid_t tid, int group, uint64_t read_format, int disabled);

#endif
