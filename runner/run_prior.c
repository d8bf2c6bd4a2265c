/* SPDX-License-Identifier: MIT */
/* An earlier result's execution times as cost estimates (runner/run_prior.h). */
#include "runner/run_prior.h"
#include "result/res.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The sum of every execution of a restart entry (ms), warm-up and measured. */
static double restart_exec_ms(const struct res_restart *e)
{
	double sum = 0;
	for (size_t i = 0; i < e->n_warmup; i++)
		sum += e->warmup_ms[i];
	for (size_t i = 0; i < e->n_measured; i++)
		sum += e->measured_ms[i];
	return sum;
}

/* The mean of every execution of q's ok restarts (ms), 0 when there is none. */
static double query_mean_ms(const struct res_query *q)
{
	double sum = 0;
	size_t n = 0;
	for (size_t r = 0; r < q->n_restarts; r++) {
		const struct res_restart *e = &q->restarts[r];
		if (e->status != RES_STATUS_OK)
			continue;
		sum += restart_exec_ms(e);
		n += e->n_warmup + e->n_measured;
	}
	return n ? sum / (double)n : 0;
}

/* A restart's cost besides its executions (s), as run_prior_costs says; 0 when unknown. */
static double fixed_part_s(const struct res_file *res)
{
	json_t *b = res->extra ? json_object_get(res->extra, "budget") : NULL;
	json_t *ss = b ? json_object_get(b, "server_start_stop_s") : NULL;
	double exec_ms = 0;
	int restarts = 0;
	if (json_is_number(ss))
		return json_number_value(ss);
	if (json_is_string(json_object_get(res->plan, "variant")))
		return 0;
	for (size_t i = 0; i < res->n_queries; i++)
		for (size_t r = 0; r < res->queries[i].n_restarts; r++) {
			const struct res_restart *e = &res->queries[i].restarts[r];
			exec_ms += restart_exec_ms(e);
			restarts = e->index + 1 > restarts ? e->index + 1 : restarts;
		}
	double wall =
	    util_iso8601_seconds(res->finished_at) - util_iso8601_seconds(res->started_at);
	return restarts && isfinite(wall) ? fmax(0, (wall - exec_ms / 1e3) / restarts) : 0;
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
	*out_fixed_s = fixed_part_s(res);
	res_file_free(res);
	if (!found)
		return errbuf_set(err, "--costs-from '%s' holds no finished execution", path);
	return 0;
}
