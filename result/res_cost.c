/* SPDX-License-Identifier: MIT */
/* What one restart of a result file cost (result/res.h, res_restart_cost). */
#include "result/res.h"
#include <math.h>

double res_entry_exec_ms(const struct res_restart *e)
{
	double sum = 0;
	for (size_t i = 0; i < e->n_warmup; i++)
		sum += e->warmup_ms[i];
	for (size_t i = 0; i < e->n_measured; i++)
		sum += e->measured_ms[i];
	return sum;
}

/* The executions of every entry (ms) and the restarts they span (the highest index + 1). */
static double exec_total_ms(const struct res_file *res, int *out_restarts)
{
	double ms = 0;
	*out_restarts = 0;
	for (size_t i = 0; i < res->n_queries; i++)
		for (size_t r = 0; r < res->queries[i].n_restarts; r++) {
			const struct res_restart *e = &res->queries[i].restarts[r];
			ms += res_entry_exec_ms(e);
			if (e->index + 1 > *out_restarts)
				*out_restarts = e->index + 1;
		}
	return ms;
}

double res_restart_fixed_s(const struct res_file *res)
{
	json_t *b = res->extra ? json_object_get(res->extra, "budget") : NULL;
	json_t *ss = b ? json_object_get(b, "server_start_stop_s") : NULL;
	int restarts;
	if (json_is_number(ss))
		return json_number_value(ss);
	if (json_is_string(json_object_get(res->plan, "variant")))
		return 0;
	double exec_ms = exec_total_ms(res, &restarts);
	double wall =
	    util_iso8601_seconds(res->finished_at) - util_iso8601_seconds(res->started_at);
	return restarts && isfinite(wall) ? fmax(0, (wall - exec_ms / 1e3) / restarts) : 0;
}

double res_restart_cost_s(const struct res_file *res)
{
	int restarts;
	double exec_ms = exec_total_ms(res, &restarts);
	if (!restarts || !(exec_ms > 0))
		return NAN;
	return exec_ms / 1e3 / restarts + res_restart_fixed_s(res);
}
