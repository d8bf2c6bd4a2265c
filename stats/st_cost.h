/* SPDX-License-Identifier: MIT */
/* What a time verdict costs on this host (docs/statistics.md, "What a verdict costs here"):
 * one result file's restart noise, and from it the restarts a side and the wall time compare
 * needs to see a change with the power asked. */
#ifndef DBT3_ST_COST_H
#define DBT3_ST_COST_H
#include "result/res.h"
#include "stats/st.h"

/* The restart noise of a file: the median over its queries with 2 or more ok restarts of the
 * sd of the log restart means (what compare tests against), with the chi-square CI of one
 * query's sd on k - 1 df at level 0.95 (k: the median restart count of those queries). */
struct st_cost_noise {
	size_t n_queries; /* queries with a noise sd (0: none; the rest is NaN) */
	size_t k;	  /* restarts */
	double sd, sd_lo, sd_hi;
};

/* Fills out from res; -1 when out of memory. */
int st_cost_noise(struct st_cost_noise *out, const struct res_file *res, struct errbuf *err);

/* "memory contention in 6 of 8 restarts (probe median 2.0x its floor); restart noise here is
 * about 16%" when the host was contended throughout most of the run (result/res.h,
 * res_noise_host): 1 and the line in out, else 0 and out "". -1 when out of memory. */
int st_cost_host_line(char *out, size_t len, const struct res_file *res, struct errbuf *err);

#endif
