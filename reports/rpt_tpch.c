/* SPDX-License-Identifier: MIT */
/* summary's TPC-H-style figures of one result file: power, throughput and their composite, as
 * information only ("not a TPC-H result"; docs/report.md, "TPC-H-style figures"). */
#include "reports/rpt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The entries of run --refresh and --streams (runner/run.h's RUN_RF1, RUN_RF2, RUN_T_STREAM,
 * RUN_T_PREFIX; the ids are part of the result format, docs/result-format.md). */
#define RF1 "RF1"
#define RF2 "RF2"
#define T_STREAM "T:stream"
#define T_QUERY "T:Q"

/* The restart mean (s) of entry q in restart r; NaN when absent or not ok. */
static double restart_s(const struct res_query *q, int r)
{
	for (size_t i = 0; q && i < q->n_restarts; i++) {
		const struct res_restart *e = &q->restarts[i];
		if (e->index != r)
			continue;
		if (e->status != RES_STATUS_OK || e->n_measured == 0)
			return NAN;
		double sum = 0;
		for (size_t k = 0; k < e->n_measured; k++)
			sum += e->measured_ms[k];
		return sum / (double)e->n_measured / 1e3;
	}
	return NAN;
}

/* A single-stream query entry ("Q<n>"). */
static int is_query(const char *id)
{
	return id[0] == 'Q' && id[1] >= '1' && id[1] <= '9';
}

/* TPC-H 2.17.3, clause 5.4.1: Power@Size = 3600 x SF / (prod_i QI(i,0) x prod_j RI(j,0))^(1/24),
 * QI and RI the power test's query and refresh times in seconds (here restart r's restart means;
 * the exponent is 1 over the items present). NaN when an item of the file lacks restart r. */
static double power_of(const struct res_file *res, int r, double sf, int *n_items, int *have_rf)
{
	double sum_ln = 0;
	int n = 0, rf = 0;
	for (size_t i = 0; i < res->n_queries; i++) {
		const struct res_query *q = &res->queries[i];
		int refresh = strcmp(q->id, RF1) == 0 || strcmp(q->id, RF2) == 0;
		if (!refresh && !is_query(q->id))
			continue;
		double s = restart_s(q, r);
		if (!(s > 0))
			return NAN;
		sum_ln += log(s);
		n++;
		rf += refresh;
	}
	*n_items = n;
	*have_rf = rf == 2;
	return n ? 3600.0 * sf / exp(sum_ln / n) : NAN;
}

/* TPC-H 2.17.3, clause 5.4.2: Throughput@Size = (S x 22 x 3600 / Ts) x SF, Ts the throughput
 * test's elapsed seconds (T:stream's elapsed_ms; 22: the queries each stream ran). */
static double throughput_of(const struct res_file *res, int r, double sf, int *streams)
{
	const struct res_query *ts = res_file_find_query(res, T_STREAM);
	int nq = 0;
	for (size_t i = 0; i < res->n_queries; i++)
		nq += strncmp(res->queries[i].id, T_QUERY, 3) == 0;
	for (size_t i = 0; ts && i < ts->n_restarts; i++) {
		const struct res_restart *e = &ts->restarts[i];
		double el = json_number_value(json_object_get(e->extra, "elapsed_ms")) / 1e3;
		if (e->index != r || e->status != RES_STATUS_OK || !(el > 0) || nq == 0)
			continue;
		*streams = (int)e->n_measured;
		return (double)e->n_measured * nq * 3600.0 / el * sf;
	}
	return NAN;
}

void rpt_tpch_compute(struct rpt_tpch *out, const struct res_file *res)
{
	double lp = 0, lt = 0;
	int max_index = -1;
	memset(out, 0, sizeof(*out));
	out->sf = res_file_scale_factor(res);
	for (size_t i = 0; i < res->n_queries; i++)
		for (size_t k = 0; k < res->queries[i].n_restarts; k++)
			if (res->queries[i].restarts[k].index > max_index)
				max_index = res->queries[i].restarts[k].index;
	for (int r = 0; r <= max_index; r++) {
		int n = 0, rf = 0, s = 0;
		double p = power_of(res, r, out->sf, &n, &rf);
		double t = throughput_of(res, r, out->sf, &s);
		if (p > 0) {
			lp += log(p);
			out->restarts++;
			out->n_items = n;
			out->have_rf = rf;
		}
		if (t > 0) {
			lt += log(t);
			out->t_restarts++;
			out->streams = s;
		}
	}
	/* over the restarts: the geometric mean of each restart's figure */
	out->power = out->restarts ? exp(lp / (double)out->restarts) : NAN;
	out->throughput = out->t_restarts ? exp(lt / (double)out->t_restarts) : NAN;
	/* clause 5.4.3: QphH@Size = sqrt(Power@Size x Throughput@Size) */
	out->composite = sqrt(out->power * out->throughput);
}

void rpt_tpch_write(FILE *f, const struct rpt_tpch *t, const char *prefix, int md)
{
	if (!t->t_restarts && !t->have_rf) /* neither --streams nor --refresh: nothing */
		return;
	fprintf(f, "\n%sTPC-H-style figures at SF %g%s (information only, not a TPC-H result: "
		   "not audited, warm executions, each restart's means; TPC-H 2.17.3 clause 5.4):\n",
		md ? "**" : "", t->sf, md ? "**" : "");
	if (t->restarts)
		fprintf(f, "%spower %.1f (geometric mean over %zu restart%s of %d queries%s)\n",
			prefix, t->power, t->restarts, t->restarts == 1 ? "" : "s",
			t->n_items - 2 * t->have_rf, t->have_rf ? " and RF1, RF2" : ", no refresh");
	if (t->t_restarts)
		fprintf(f, "%sthroughput %.1f (%d stream%s, geometric mean over %zu restart%s)\n",
			prefix, t->throughput, t->streams, t->streams == 1 ? "" : "s",
			t->t_restarts, t->t_restarts == 1 ? "" : "s");
	if (t->restarts && t->t_restarts)
		fprintf(f, "%scomposite %.1f (sqrt of power x throughput, QphH-like)\n", prefix,
			t->composite);
}

json_t *rpt_tpch_json(const struct rpt_tpch *t)
{
	if (!t->t_restarts && !t->have_rf)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:I, s:I, s:i, s:b, s:s}", "power", res_json_num(t->power),
			 "throughput", res_json_num(t->throughput), "composite",
			 res_json_num(t->composite), "restarts", (json_int_t)t->restarts,
			 "throughput_restarts", (json_int_t)t->t_restarts, "streams", t->streams,
			 "refresh", t->have_rf, "note", "information only, not a TPC-H result");
}
