/* SPDX-License-Identifier: MIT */
/* Test-only (in dbt3_harness): hand-made result files for the HTML report tests (test_rpt_html*.c):
 * 22 queries, a designed regression (Q5 +15%), an improvement with a plan change (Q9 -15%), a
 * wrong result (Q18), an inconclusive query (Q20: one restart on the new side), a not-steady
 * restart (Q3), a crash (Q21 old, restart 1) and a timeout (Q22 new, restart 0). */
#ifndef DBT3_TH_FX_H
#define DBT3_TH_FX_H
#include <stddef.h>

/* Writes old.json, labelled with a script and an img onerror that must never run
 * (window.__pwned), and new.json into dir, restarts a side: 0, or -1. */
int th_fx_write_pair(const char *dir, size_t restarts);

#endif
