/* SPDX-License-Identifier: MIT */
/* What a time verdict costs on this host (docs/statistics.md, "What a verdict costs here"):
 * one result file's restart noise, and from it the restarts a side and the wall time compare
 * needs to see a change with the power asked, what the file decides already, and which other
 * signal would decide. */
#ifndef DBT3_ST_COST_H
#define DBT3_ST_COST_H
#include "result/res.h"
#include "stats/st.h"
#include <jansson.h>
#include <stdio.h>

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
 * res_interf_host): 1 and the line in out, else 0 and out "". -1 when out of memory. */
int st_cost_host_line(char *out, size_t len, const struct res_file *res, struct errbuf *err);

/* The test the verdict is asked of: compare's defaults (reports/rpt_model.c,
 * rpt_compare_opts_init) unless summary's options say otherwise. */
struct st_cost_opts {
	double alpha, power, min_effect;
	enum st_correction corr;
	enum st_method method;
	enum st_alternative alt;
	int min_effect_test;
	size_t max_restarts; /* the most restarts a side the answer names (100) */
};

/* alpha 0.05, power 0.8, min_effect 0.02, Holm, auto (pooled), one-sided, max 100. */
void st_cost_opts_init(struct st_cost_opts *o);

#define ST_COST_EFFECTS 2 /* the changes priced: 5 % and 10 % */
/* The side-by-side noise against restart-paired on this host: the largest A/A ratio measured
 * but the ABBA session's (docs/statistics.md, "Side by side as the default"). */
#define ST_COST_SBS_RATIO 0.41

/* Restarts a side for a change of effect (0.05: 5 %) of one query among m at the restart noise
 * sd (the sd of the log restart means), under the test of o (NULL: st_cost_opts_init): what
 * st_cost_compute answers for a file of m queries with that noise; 0 when more than
 * o->max_restarts or sd is not finite. doctor's host-noise check prices its expected noise so. */
size_t st_cost_restarts(const struct st_cost_opts *o, size_t m, double effect, double sd);

/* One change priced: restarts a side at the noise and at both ends of its CI (0: more than
 * max_restarts), and the wall time of the whole comparison, 2 x restarts x a restart. */
struct st_cost_effect {
	double effect;
	size_t restarts, restarts_lo, restarts_hi;
	double wall_s, wall_lo_s, wall_hi_s; /* NaN when a restart's cost is unknown */
	size_t sbs_restarts;		     /* side by side, at ST_COST_SBS_RATIO x the noise */
};

struct st_cost {
	struct st_cost_opts opts;
	struct st_cost_noise noise;
	size_t m;	  /* queries in the family (the file's) */
	double sf;	  /* the scale factor */
	double restart_s; /* one restart here: its executions and its fixed part; NaN unknown */
	struct st_cost_effect eff[ST_COST_EFFECTS];
	double detect_now; /* the smallest change found with opts.power at noise.k a side (NaN) */
	size_t decided, budget_queries; /* run --budget's decisions: decided of the queries */
	size_t work_queries, work_steady; /* queries with work records; identical over restarts */
	size_t instr_queries;		  /* queries with instruction counts */
	int side_by_side;		  /* the file is of run --side-by-side */
};

/* Fills out from res: the noise, the restarts and wall time for 5 % and 10 % (st_power,
 * st_restarts_needed), what is decided, the other signals. -1 when out of memory. */
int st_cost_compute(struct st_cost *out, const struct res_file *res, const struct st_cost_opts *o,
		    struct errbuf *err);

/* The lines at the end of run and summary ("verdict cost here: ..."), Markdown when md; each
 * line starts with prefix. Returns -1 when f fails. */
int st_cost_write(FILE *f, const struct st_cost *c, int md);

/* {"noise": {...}, "test": {...}, "restart_s", "changes": [...], "decided": {...},
 *  "signals": {...}} (docs/result-format.md, "verdict_cost"); NULL when out of memory. */
json_t *st_cost_json(const struct st_cost *c);

#endif
