/* SPDX-License-Identifier: MIT */
#include "stats/st_restart_summary.h"
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void st_restart_summary_release(struct st_restart_summary *f)
{
	if (!f)
		return;
	free(f->means);
	free(f->indices);
	free(f->runs);
	free(f->nruns);
	memset(f, 0, sizeof(*f));
}

static int counts_ok(const struct res_restart *r)
{
	return r->status == RES_STATUS_OK && r->n_measured > 0;
}

/* Counts, rows, plans, fingerprints and error text of every restart of q. */
static void figs_marks(struct st_restart_summary *out, const struct res_query *q)
{
	for (size_t i = 0; i < q->n_restarts; i++) {
		const struct res_restart *r = &q->restarts[i];
		out->not_steady += r->not_steady != 0;
		/* --budget: the warm-up reached --warmup-max before it was steady */
		out->warmup_cut += json_is_false(json_object_get(r->extra, "warmup_steady"));
		out->timeout += r->status == RES_STATUS_TIMEOUT;
		out->crash += r->status == RES_STATUS_CRASH;
		out->error += r->status == RES_STATUS_ERROR;
		if (json_array_size(json_object_get(r->extra, "row_count_changes")) > 0)
			out->rows_vary = 1;
		if (r->plan_sha256 && !out->plan_sha256) {
			out->plan_sha256 = r->plan_sha256;
			out->plan = r->plan;
		} else if (r->plan_sha256 && strcmp(r->plan_sha256, out->plan_sha256)) {
			out->plans_differ = 1;
		}
		if (r->error && !out->error_text)
			out->error_text = r->error;
		if (r->rows >= 0 && out->rows < 0)
			out->rows = r->rows;
		/* a failed restart's fingerprint is of a partial or no result: it never counts */
		if (!counts_ok(r))
			continue;
		if (r->rows >= 0 && out->ok_rows < 0)
			out->ok_rows = r->rows;
		if (!r->result_sha256)
			continue;
		if (!out->result_sha256)
			out->result_sha256 = r->result_sha256;
		else if (strcmp(r->result_sha256, out->result_sha256))
			out->results_differ = 1;
	}
}

/* Noise (sd of log restart means, 95% CI and bound: st_noise_compute) and the run-position F
 * test (st_position_effect) of the n_ok >= 2 restarts. */
static void figs_noise(struct st_restart_summary *out, double position_alpha)
{
	double eff[32];
	int flag[32];
	struct errbuf e = {""};
	if (st_noise_compute(&out->noise, out->runs, out->nruns, out->n_ok, 0.95, &e) < 0) {
		snprintf(out->why, sizeof(out->why), "%s", e.msg);
		return;
	}
	out->have_noise = 1;
	if (st_position_effect(&out->position, eff, flag, 32, out->runs, out->nruns, out->n_ok,
			       position_alpha, &e) < 0)
		return; /* fewer than 2 runs a restart: no position to compare */
	out->have_position = 1;
	out->position_effect = out->position.p < position_alpha;
	for (size_t j = 0; out->position_effect && j < out->position.n; j++)
		if (flag[j])
			out->position_runs |= 1u << j;
}

int st_restart_summary_compute(struct st_restart_summary *out, const struct res_query *q,
			       double position_alpha, struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	out->rows = out->ok_rows = -1;
	out->n_restarts = q->n_restarts;
	size_t total = 0;
	for (size_t i = 0; i < q->n_restarts; i++)
		if (counts_ok(&q->restarts[i]))
			total += q->restarts[i].n_measured;
	out->runs = malloc((total + 1) * sizeof(double));
	out->nruns = malloc((q->n_restarts + 1) * sizeof(size_t));
	out->means = malloc((q->n_restarts + 1) * sizeof(double));
	out->indices = malloc((q->n_restarts + 1) * sizeof(int));
	if (!out->runs || !out->nruns || !out->means || !out->indices)
		return errbuf_set(err, "out of memory");
	figs_marks(out, q);
	size_t at = 0;
	for (size_t i = 0; i < q->n_restarts; i++) {
		const struct res_restart *r = &q->restarts[i];
		if (!counts_ok(r))
			continue;
		double sum = 0;
		for (size_t j = 0; j < r->n_measured; j++)
			sum += r->measured_ms[j];
		memcpy(out->runs + at, r->measured_ms, r->n_measured * sizeof(double));
		at += r->n_measured;
		out->nruns[out->n_ok] = r->n_measured;
		out->indices[out->n_ok] = r->index;
		out->means[out->n_ok++] = sum / (double)r->n_measured;
	}
	if (out->n_ok == 0)
		return 0;
	struct errbuf e = {""};
	if (st_query_stats_compute(&out->stats, NULL, out->runs, out->nruns, out->n_ok, &e) < 0)
		snprintf(out->why, sizeof(out->why), "%s", e.msg);
	else
		out->have_stats = 1;
	if (out->n_ok >= 2)
		figs_noise(out, position_alpha);
	return 0;
}
