/* SPDX-License-Identifier: MIT */
/* Test-only (in dbt3_harness): the pinning context a test that checks bindings needs. */
#ifndef DBT3_TH_PIN_H
#define DBT3_TH_PIN_H
#include "pinning/pin.h"
#include <jansson.h>
#include <stdint.h>

/* The context of o (NULL: the default placement, no stabilizers) on this machine when its
 * placement is pinned; the caller frees it with pin_ctx_free. NULL after a failed assertion
 * (pin_ctx_init failed) or after th_skip when this machine allows no pinned placement (one
 * usable PU: the placement's warning says so). */
struct pin_ctx *th_pin_ctx_pinned(const struct pin_opts *o);

/* A JSON array of ids (a placement's "server_cpus": [1]) as a bit set of the ids below 64. */
uint64_t th_pin_ids_mask(const json_t *a);

#endif
