/* SPDX-License-Identifier: MIT */
/* Test-only (in dbt3_harness): the pinning context a test that checks bindings needs. */
#ifndef DBT3_TH_PIN_H
#define DBT3_TH_PIN_H
#include "pinning/pin.h"
#include <jansson.h>
#include <stdint.h>
#include <sys/types.h>

/* The context of o (NULL: the default placement, no stabilizers) on this machine when its
 * placement is pinned; the caller frees it with pin_ctx_free. NULL after a failed assertion
 * (pin_ctx_init failed) or after th_skip when this machine allows no pinned placement (one
 * usable PU: the placement's warning says so). */
struct pin_ctx *th_pin_ctx_pinned(const struct pin_opts *o);

/* The kernel lists ("0-3,8") a bound process is checked against: the placement's server CPUs
 * and memory nodes. */
struct th_pin_want {
	char cpus[256], nodes[256];
};

/* th_pin_ctx_pinned with the stabilizers a bound child gets here (ASLR off, nice), and the
 * lists of its placement into want. NULL as th_pin_ctx_pinned. */
struct pin_ctx *th_pin_ctx_bound(int nice, struct th_pin_want *want);

/* Nonzero when every id of the kernel list want is in the kernel list have. */
int th_pin_list_includes(const char *have, const char *want);

/* The nice value of a thread (tid: the process itself when equal to pid), field 19 of its
 * /proc stat; -100 when it cannot be read. */
long th_pin_nice(pid_t pid, pid_t tid);

/* A JSON array of ids (a placement's "server_cpus": [1]) as a bit set of the ids below 64. */
uint64_t th_pin_ids_mask(const json_t *a);

#endif
