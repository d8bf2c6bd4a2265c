/* SPDX-License-Identifier: MIT */
/* One side of a comparison: a file's restart means and marks of one query. */
#include "reports/rpt.h"
#include "stats/st_restart_summary.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void rpt_side_release(struct rpt_side *s)
{
	free(s->means_ms);
	free(s->indices);
	memset(s, 0, sizeof(*s));
}

/* The side of q from its figures g (st_restart_summary_compute of q, a query of f): counts,
 * fingerprints and rows; the restart means (taken from g) and their geometric mean and sd of logs.
 */
static int side_from_figs(struct rpt_side *s, struct st_restart_summary *g,
			  const struct rpt_file_info *f, const struct res_query *q,
			  struct errbuf *err)
{
	s->q = q;
	s->present = 1;
	s->n_restarts = g->n_restarts;
	s->not_steady = g->not_steady;
	s->timeouts = g->timeout;
	s->crashes = g->crash;
	s->errors = g->error;
	s->rows_vary = g->rows_vary;
	s->plan_sha256 = g->plan_sha256;
	s->plan = g->plan;
	s->plans_vary = g->plans_differ;
	s->result_sha256 = g->result_sha256;
	s->results_vary = g->results_differ;
	s->rows = g->ok_rows;
	s->means_ms = g->means;
	s->indices = g->indices;
	s->n_used = g->n_ok;
	g->means = NULL;
	g->indices = NULL;
	for (size_t k = 0; k < s->n_used; k++)
		if (!(isfinite(s->means_ms[k]) && s->means_ms[k] > 0))
			return errbuf_set(err,
					  "'%s': $.queries[%td]: query %s restart %d: unusable "
					  "times (mean %g)",
					  f->path, q - f->res->queries, q->id, s->indices[k],
					  s->means_ms[k]);
	if (s->n_used) {
		struct st_sample smp;
		if (st_sample_init(&smp, s->means_ms, s->n_used, err) < 0)
			return -1;
		s->gmean_ms = exp(smp.mean_log);
		s->sd_log = s->n_used >= 2 ? sqrt(smp.var_log) : NAN;
	}
	return 0;
}

static void side_empty(struct rpt_side *s)
{
	memset(s, 0, sizeof(*s));
	s->gmean_ms = s->sd_log = NAN;
	s->rows = -1;
}

/* q is a query of f (or NULL). figs, when not NULL, gets q's figures whole (the run-position
 * effect judged at position_alpha); the caller releases them. */
int rpt_side_init_figs(struct rpt_side *s, struct st_restart_summary *figs,
		       const struct rpt_file_info *f, const struct res_query *q,
		       double position_alpha, struct errbuf *err)
{
	struct st_restart_summary own, *g = figs ? figs : &own;
	side_empty(s);
	memset(g, 0, sizeof(*g));
	if (!q)
		return 0;
	int rc = st_restart_summary_compute(g, q, position_alpha, err);
	if (rc == 0)
		rc = side_from_figs(s, g, f, q, err);
	if (!figs)
		st_restart_summary_release(g);
	return rc;
}

/* A side of compare, which does not use the run-position effect (its alpha does not matter). */
int rpt_side_init(struct rpt_side *s, const struct rpt_file_info *f, const struct res_query *q,
		  struct errbuf *err)
{
	return rpt_side_init_figs(s, NULL, f, q, 0.05, err);
}

unsigned rpt_side_warn(const struct rpt_side *s)
{
	return (s->not_steady ? RPT_W_NOT_STEADY : 0u) | (s->timeouts ? RPT_W_TIMEOUT : 0u) |
	       (s->crashes ? RPT_W_CRASH : 0u) | (s->errors ? RPT_W_ERROR : 0u) |
	       (s->plans_vary ? RPT_W_PLAN_VARIES : 0u) |
	       (s->results_vary ? RPT_W_RESULT_VARIES : 0u) | (s->rows_vary ? RPT_W_ROWS_VARY : 0u);
}

int rpt_baseline_prior(struct st_prior *out, const struct rpt_file_info *baseline, const char *id,
		       struct errbuf *err)
{
	struct rpt_side s;
	out->var = NAN;
	out->df = 0;
	if (!baseline->res)
		return 0;
	if (rpt_side_init(&s, baseline, res_file_find_query(baseline->res, id), err) < 0) {
		rpt_side_release(&s);
		return -1;
	}
	int rc = 0;
	if (s.n_used >= 2)
		rc = st_baseline_prior(out, s.means_ms, s.n_used, err);
	rpt_side_release(&s);
	return rc;
}
