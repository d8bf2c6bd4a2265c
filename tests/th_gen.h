/* SPDX-License-Identifier: MIT */
/* Test-only (in dbt3_harness): the generator context the tests of dbt3/gen*.c share. */
#ifndef DBT3_TH_GEN_H
#define DBT3_TH_GEN_H

struct gen_ctx;

/* The context of SF 0.01, made on the first call (it takes a while) and freed at exit; NULL
 * when it cannot be made (the reason on stderr). */
struct gen_ctx *th_gen_sf001(void);

#endif
