/* SPDX-License-Identifier: MIT */
/* The corrected `not_steady` check (runner/run_steady.h). */
#include "runner/run_steady.h"
#include "runner/run.h"
#include "stats/st.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t run_steady_holm(int *flags, const double *p, size_t m, double alpha)
{
	double *adj = malloc((m ? m : 1) * sizeof(double));
	size_t n = 0;
	if (!adj)
		return 0;
	st_p_adjust(adj, p, m, ST_CORR_HOLM);
	for (size_t i = 0; i < m; i++) {
		flags[i] = !isnan(adj[i]) && adj[i] < alpha;
		n += (size_t)flags[i];
	}
	free(adj);
	return n;
}

/* The Mann-Kendall p of one restart's measured runs, NaN when it is not tested. */
static double trend_p(const struct res_restart *r)
{
	struct st_mk mk;
	if (r->status != RES_STATUS_OK || r->n_measured < RUN_STEADY_MIN_RUNS)
		return NAN;
	if (st_mann_kendall(&mk, r->measured_ms, r->n_measured, NULL) != 0)
		return NAN;
	return mk.p;
}

int run_steady_flags(struct res_file *res, double alpha)
{
	size_t m = 0, i = 0;
	for (size_t q = 0; q < res->n_queries; q++)
		m += res->queries[q].n_restarts;
	double *p = malloc((m ? m : 1) * sizeof(double));
	int *flags = malloc((m ? m : 1) * sizeof(int));
	if (!p || !flags) {
		free(p);
		free(flags);
		return -1;
	}
	for (size_t q = 0; q < res->n_queries; q++) {
		/* run --streams' entries hold one time per stream, not a series in time */
		int series = strncmp(res->queries[q].id, RUN_T_PREFIX, strlen(RUN_T_PREFIX)) != 0;
		for (size_t k = 0; k < res->queries[q].n_restarts; k++)
			p[i++] = series ? trend_p(&res->queries[q].restarts[k]) : NAN;
	}
	size_t n = run_steady_holm(flags, p, m, alpha);
	i = 0;
	for (size_t q = 0; q < res->n_queries; q++)
		for (size_t k = 0; k < res->queries[q].n_restarts; k++, i++) {
			struct res_restart *r = &res->queries[q].restarts[k];
			r->not_steady = flags[i];
			if (isnan(p[i]))
				continue;
			if (!r->extra)
				r->extra = json_object();
			json_object_set_new(r->extra, "trend_p", json_real(p[i]));
		}
	free(p);
	free(flags);
	return (int)n;
}
