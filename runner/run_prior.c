/* SPDX-License-Identifier: MIT */
/* An earlier result's execution times as cost estimates (runner/run_prior.h). */
#include "runner/run_prior.h"
#include "result/res.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The mean of every execution of q's ok restarts (ms), 0 when there is none. */
static double query_mean_ms(const struct res_query *q)
{
	double sum = 0;
	size_t n = 0;
	for (size_t r = 0; r < q->n_restarts; r++) {
		const struct res_restart *e = &q->restarts[r];
		if (e->status != RES_STATUS_OK)
			continue;
		sum += res_entry_exec_ms(e);
		n += e->n_warmup + e->n_measured;
	}
	return n ? sum / (double)n : 0;
}

int run_prior_costs(const char *path, double scale, int instructions,
		    double out_ms[RUN_MAX_QUERIES + 1], double *out_fixed_s, struct errbuf *err)
{
	struct res_file *res = NULL;
	int found = 0;
	memset(out_ms, 0, sizeof(double) * (RUN_MAX_QUERIES + 1));
	*out_fixed_s = 0;
	if (res_file_read(&res, path, err) < 0)
		return -1;
	double sf = json_number_value(json_object_get(res->dataset, "scale_factor"));
	if (!(fabs(sf - scale) <= 1e-9 * scale)) {
		res_file_free(res);
		return errbuf_set(err, "--costs-from '%s' was measured at SF %g, not at SF %g",
				  path, sf, scale);
	}
	int vg = json_is_true(json_object_get(res->plan, "instructions"));
	if (vg != !!instructions) {
		res_file_free(res);
		return errbuf_set(err,
				  "--costs-from '%s' was measured %s --instructions: Valgrind's "
				  "slowdown makes its times no estimate of this run's",
				  path, vg ? "with" : "without");
	}
	for (int num = 1; num <= RUN_MAX_QUERIES; num++) {
		const struct res_query *q = res_file_find_query_num(res, num);
		out_ms[num] = q ? query_mean_ms(q) : 0;
		found |= out_ms[num] > 0;
	}
	*out_fixed_s = res_restart_fixed_s(res);
	res_file_free(res);
	if (!found)
		return errbuf_set(err, "--costs-from '%s' holds no finished execution", path);
	return 0;
}
