/* SPDX-License-Identifier: MIT */
/* The instruction-count rule and a file's side of it (stats/st_instr.h). */
#include "stats/st_instr.h"
#include "result/res_counts.h"
#include <math.h>
#include <string.h>

/* A tolerance for what moves a count without the server's work changing, widened by the
 * restart spreads each file shows (docs/statistics.md, "Instructions"). */
int st_instr_changed(double ratio, double spread_old, double spread_new, double *out_bound)
{
	double bound = ST_INSTR_TOL + ST_INSTR_K * (spread_old + spread_new);
	if (out_bound)
		*out_bound = bound;
	return fabs(ratio - 1) > bound;
}

int st_instr_side_of(struct st_instr_side *out, const struct res_query *q, const char *name,
		     int max_index)
{
	memset(out, 0, sizeof(*out));
	double lo = INFINITY, hi = -INFINITY, sum = 0;
	for (size_t i = 0; q && i < q->n_restarts; i++) {
		const struct res_restart *rr = &q->restarts[i];
		struct res_counts c;
		if (rr->status != RES_STATUS_OK || (max_index >= 0 && rr->index >= max_index))
			continue;
		int got = res_counts_get(&c, rr, "instructions");
		if (got < 0)
			return -1;
		int k = got == 1 ? res_counts_find(&c, name) : -1;
		if (k >= 0 && c.n_exec > 0) {
			double m = 0;
			for (size_t e = 0; e < c.n_exec; e++)
				m += (double)c.v[(size_t)k * c.n_exec + e];
			m /= (double)c.n_exec;
			lo = fmin(lo, m);
			hi = fmax(hi, m);
			sum += m;
			out->restarts++;
		}
		res_counts_release(&c);
	}
	if (out->restarts) {
		out->mean = sum / (double)out->restarts;
		out->spread = lo > 0 ? (hi - lo) / lo : 0;
	}
	return 0;
}
