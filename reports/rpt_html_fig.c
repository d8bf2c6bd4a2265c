/* SPDX-License-Identifier: MIT */
/* Figures of one query in one result, for the HTML pages. */
#include "reports/rpt_html.h"
#include "reports/rpt_html_int.h"
#include "stats/st_restart_summary.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- figures of one query in one result ---- */

void rpt_html_fig_release(struct rpt_html_fig *f)
{
	free(f->means);
	memset(f, 0, sizeof(*f));
}

/* The figures of st_restart_summary_compute; the run-position effect judged at 0.05 / 22 as in the
 * end-of-run table. */
int rpt_html_fig_compute(struct rpt_html_fig *out, const struct res_query *q)
{
	memset(out, 0, sizeof(*out));
	out->gmean = out->cov_within = out->cov_between = NAN;
	out->sd_log = out->sd_lo = out->sd_hi = out->sd_between = out->sd_ucb = NAN;
	out->rows = -1;
	if (!q)
		return 0;
	struct st_restart_summary g;
	struct errbuf e;
	if (st_restart_summary_compute(&g, q, 0.05 / 22, &e) < 0) {
		st_restart_summary_release(&g);
		return -1;
	}
	out->present = 1;
	out->n_restarts = g.n_restarts;
	out->n_ok = g.n_ok;
	out->means = g.means;
	g.means = NULL;
	out->not_steady = g.not_steady;
	out->timeout = g.timeout;
	out->crash = g.crash;
	out->error = g.error;
	out->rows = g.rows;
	out->plan = g.plan;
	out->plan_sha256 = g.plan_sha256;
	out->result_sha256 = g.result_sha256;
	out->error_text = g.error_text;
	out->plans_differ = g.plans_differ;
	out->results_differ = g.results_differ;
	if (g.have_stats) {
		out->gmean = g.stats.gmean;
		out->cov_within = g.stats.cov_within;
		out->cov_between = g.n_ok >= 2 ? g.stats.cov_between : NAN;
	} else if (g.n_ok > 0) {
		out->gmean = st_gmean(out->means, g.n_ok);
	}
	if (g.have_noise) {
		out->sd_log = g.noise.sd_log;
		out->sd_lo = g.noise.sd_lo;
		out->sd_hi = g.noise.sd_hi;
		out->sd_between = g.noise.sd_between;
		out->sd_ucb = g.noise.sd_ucb;
	}
	out->position_effect = g.position_effect;
	out->position_runs = g.position_runs;
	st_restart_summary_release(&g);
	if (st_instr_side_of(&out->instr, q, "callgrind_ir", -1) < 0 ||
	    (!out->instr.restarts && st_instr_side_of(&out->instr, q, "pmu_instructions", -1) < 0))
		return -1;
	return 0;
}
