/* SPDX-License-Identifier: MIT */
/* Internals shared by the doctor's sources, in doctor_sys.c. */
#ifndef DBT3_DOC_INT_H
#define DBT3_DOC_INT_H
#include <stddef.h>

/* root + path into out (root NULL or "" is the real system). */
void doctor_path(char *out, size_t len, const char *root, const char *path);

/* The first line of root+path without its newline; 0, or -1 when it cannot be opened. */
int doctor_read_line(const char *root, const char *path, char *out, size_t len);

/* The tick counts of cpu's line of root/proc/stat ("cpu " when cpu < 0) into v[0..7] (user nice
 * system idle iowait irq softirq steal; those the line lacks are 0): how many it had, or -1 when
 * the file or the line is absent. */
int doctor_stat_ticks(const char *root, int cpu, unsigned long long v[8]);

/* The first "model name" of root/proc/cpuinfo into out ("" when there is none, as on some ARM
 * kernels); 0, or -1 when the file cannot be opened. */
int doctor_cpu_model(const char *root, char *out, size_t len);

/* Nonzero when the kernel list "0-3,8" holds id. */
int doctor_list_has(const char *list, unsigned id);

#endif
