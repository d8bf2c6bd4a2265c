/* SPDX-License-Identifier: MIT */
/* `stabilize`'s analysis: per candidate the between-restart CoVs, the variance against the
 * default's, the time against the default's, and the recommendation (runner/run_stabilize.h). */
#include "result/res.h"
#include "runner/run_stabilize.h"
#include "stats/st_var.h"
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Here, not in run_stabilize.c: the rounds write these files and this analysis reads them. */
void run_stab_result_path(char *out, size_t len, const struct run_stab_opts *o,
			  const struct run_stab_cand *c, int round, const char *ext)
{
	snprintf(out, len, "%s/%s/r%03d.%s", o->dir, c->name, round, ext);
}

#define MAXQ 22

/* A setting is not recommended when it slows the queries by more than this (the geometric mean
 * of its restart means over the default's): it changes the server measured, not its noise
 * (docs/stability.md, "Recommended"). */
#define STAB_MAX_SLOWDOWN 0.05
/* The permutation test's random splits (st_var_perm_test) are drawn from this seed, so that
 * --analyze gives the same p-values as the run that measured. */
#define STAB_PERM_SEED 20261202UL

/* The restart means of candidate c, one row per round file found. */
struct series {
	double *rows;  /* files x MAXQ: restart means (ms) by round and query of ids[], NAN: none */
	double wall_s; /* mean wall time of a restart (started_at .. finished_at of the files) */
	size_t files;
	size_t disturbed; /* restarts left out: disturbed by other processes or steal */
};

static double restart_mean(const struct res_query *q)
{
	if (q->n_restarts < 1 || q->restarts[0].status != RES_STATUS_OK ||
	    q->restarts[0].n_measured == 0)
		return NAN;
	double s = 0;
	for (size_t i = 0; i < q->restarts[0].n_measured; i++)
		s += q->restarts[0].measured_ms[i];
	return s / (double)q->restarts[0].n_measured;
}

/* A round file whose restart was disturbed (result/res.h, RES_INTERF_SHARE): another process
 * or the hypervisor took the benchmark PUs, so its means measure the neighbour, not the setting
 * (seen on this host: 3-5 s of others in a 48 s restart while engineers started work). */
static int restart_disturbed(const struct res_file *res)
{
	char line[256];
	return res_interf_line(res, line, sizeof(line)) > 0;
}

/* Room for one more round in s->rows, every query NAN until measured. */
static int series_add_row(struct series *s)
{
	double *p = realloc(s->rows, (s->files + 1) * MAXQ * sizeof(double));
	if (!p)
		return -1;
	s->rows = p;
	for (int q = 0; q < MAXQ; q++)
		p[s->files * MAXQ + (size_t)q] = NAN;
	return 0;
}

static int load_series(struct series *s, const struct run_stab_cand *c,
		       const struct run_stab_opts *o, char ids[MAXQ][8], int *nq,
		       struct errbuf *err)
{
	char path[4200];
	double wall = 0;
	memset(s, 0, sizeof(*s));
	for (int r = 0; r < RUN_STAB_MAX_ROUNDS; r++) {
		struct res_file *res = NULL;
		run_stab_result_path(path, sizeof(path), o, c, r, "json");
		if (access(path, F_OK) != 0)
			break;
		if (res_file_read(&res, path, err) < 0)
			return -1;
		if (!o->keep_disturbed && restart_disturbed(res)) {
			s->disturbed++;
			res_file_free(res);
			continue;
		}
		if (*nq == 0)
			for (size_t i = 0; i < res->n_queries && *nq < MAXQ; i++)
				snprintf(ids[(*nq)++], 8, "%s", res->queries[i].id);
		if (series_add_row(s) < 0) {
			res_file_free(res);
			return errbuf_set(err, "out of memory");
		}
		for (int q = 0; q < *nq; q++) {
			const struct res_query *rq = res_file_find_query(res, ids[q]);
			double m = rq ? restart_mean(rq) : NAN;
			if (m > 0)
				s->rows[s->files * MAXQ + (size_t)q] = m;
		}
		wall +=
		    util_iso8601_seconds(res->finished_at) - util_iso8601_seconds(res->started_at);
		s->files++;
		res_file_free(res);
	}
	s->wall_s = s->files ? wall / (double)s->files : NAN;
	return 0;
}

static void series_release(struct series *s)
{
	free(s->rows);
}

/* Query q's restart means in round order into out (s->files long at most); how many. */
static size_t query_means(const struct series *s, int q, double *out)
{
	size_t k = 0;
	for (size_t r = 0; r < s->files; r++)
		if (isfinite(s->rows[r * MAXQ + (size_t)q]))
			out[k++] = s->rows[r * MAXQ + (size_t)q];
	return k;
}

static double mean_log(const double *x, size_t n)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += log(x[i]);
	return sum / (double)n;
}

/* The time of s against d: exp of the mean over the queries of the difference of their mean
 * log restart means (the geometric mean of the ratios); NAN when no query has both. */
static double time_ratio(const struct series *s, const struct series *d, int nq)
{
	double sum = 0, xs[RUN_STAB_MAX_ROUNDS], xd[RUN_STAB_MAX_ROUNDS];
	int m = 0;
	for (int q = 0; q < nq; q++) {
		size_t ks = query_means(s, q, xs), kd = query_means(d, q, xd);
		if (ks && kd) {
			sum += mean_log(xs, ks) - mean_log(xd, kd);
			m++;
		}
	}
	return m ? exp(sum / m) : NAN;
}

/* The logs of s->rows for the queries use[0..m-1], packed into out (files x m). */
static void pack_rows(double *out, const struct series *s, const int *use, int m)
{
	for (size_t r = 0; r < s->files; r++)
		for (int j = 0; j < m; j++)
			out[r * (size_t)m + (size_t)j] = log(s->rows[r * MAXQ + (size_t)use[j]]);
}

/* The permutation test of s against d (st_var_perm_test) on the queries measured in every
 * round of both; NAN when either has fewer than 2 rounds or no query is complete. */
static double perm_p(const struct series *s, const struct series *d, int nq)
{
	int use[MAXQ], m = 0;
	double ratio, p = NAN;
	for (int q = 0; q < nq && s->files >= 2 && d->files >= 2; q++) {
		int all = 1;
		for (size_t r = 0; r < s->files; r++)
			all &= isfinite(s->rows[r * MAXQ + (size_t)q]);
		for (size_t r = 0; r < d->files; r++)
			all &= isfinite(d->rows[r * MAXQ + (size_t)q]);
		if (all)
			use[m++] = q;
	}
	if (m == 0)
		return NAN;
	double *a = malloc(s->files * (size_t)m * sizeof(double)),
	       *b = malloc(d->files * (size_t)m * sizeof(double));
	if (a && b) {
		pack_rows(a, s, use, m);
		pack_rows(b, d, use, m);
		if (st_var_perm_test(a, s->files, b, d->files, (size_t)m, STAB_PERM_SEED, &ratio,
				     &p) < 0)
			p = NAN;
	}
	free(a);
	free(b);
	return p;
}

/* One candidate's row: per query the between-restart CoV (SD of the log restart means), the
 * median and worst over the queries, the pooled variance against the default's with its F CI
 * (a screen), the permutation p of a lower variance and the time against the default's. */
static json_t *cand_json(const struct run_stab_cand *c, const struct series *s,
			 const struct series *d, char ids[MAXQ][8], int nq, double alpha,
			 int is_default)
{
	double cov[MAXQ], sorted[MAXQ], ss = 0, df = 0, ssd = 0, dfd = 0;
	double xs[RUN_STAB_MAX_ROUNDS], xd[RUN_STAB_MAX_ROUNDS];
	int m = 0;
	json_t *per = json_object();
	for (int q = 0; q < nq; q++) {
		size_t ks = query_means(s, q, xs), kd = query_means(d, q, xd);
		cov[q] = st_log_sd(xs, ks);
		json_object_set_new(per, ids[q], res_json_num(cov[q]));
		double sd = st_log_sd(xd, kd);
		if (isfinite(cov[q]) && isfinite(sd)) {
			sorted[m++] = cov[q];
			ss += cov[q] * cov[q] * (double)(ks - 1);
			df += (double)(ks - 1);
			ssd += sd * sd * (double)(kd - 1);
			dfd += (double)(kd - 1);
		}
	}
	gsl_sort(sorted, 1, (size_t)m);
	double med = m ? gsl_stats_median_from_sorted_data(sorted, 1, (size_t)m) : NAN;
	double ratio = NAN, lo = NAN, hi = NAN;
	if (st_var_ratio_ci(ss, df, ssd, dfd, alpha, &ratio, &lo, &hi) < 0)
		ratio = lo = hi = NAN;
	json_t *row = json_pack(
	    "{s:s, s:s, s:b, s:s?, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "name", c->name,
	    "what", c->what, "available", c->available, "unavailable_because",
	    c->available ? NULL : c->why, "restarts", (json_int_t)s->files, "disturbed_left_out",
	    (json_int_t)s->disturbed, "median_cov", res_json_num(med), "worst_cov",
	    res_json_num(m ? sorted[m - 1] : NAN), "variance_ratio", res_json_num(ratio),
	    "ratio_ci_low", res_json_num(lo), "ratio_ci_high", res_json_num(hi), "restart_wall_s",
	    res_json_num(s->wall_s), "cov_per_query", per);
	json_object_set_new(row, "perm_p", res_json_num(is_default ? NAN : perm_p(s, d, nq)));
	json_object_set_new(row, "perm_min_p",
			    res_json_num(is_default ? NAN : st_var_perm_min_p(s->files, d->files)));
	json_object_set_new(row, "time_ratio", res_json_num(time_ratio(s, d, nq)));
	return row;
}

static double num_or_nan(json_t *row, const char *key)
{
	json_t *v = json_object_get(row, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Why a candidate row is not recommended ("" when it is), at permutation level `level`; the
 * default made default_k restarts. */
static void why_not(char *why, size_t len, json_t *row, double level, double default_median,
		    json_int_t default_k)
{
	double p = num_or_nan(row, "perm_p"), med = num_or_nan(row, "median_cov"),
	       t = num_or_nan(row, "time_ratio"), least = num_or_nan(row, "perm_min_p");
	why[0] = '\0';
	if (!isfinite(p))
		snprintf(why, len, "not measured in 2 or more rounds");
	else if (!(least < level))
		snprintf(why, len,
			 "too few rounds: with %lld + %lld restarts the smallest possible p is "
			 "%.3g, not below %.3g",
			 (long long)json_integer_value(json_object_get(row, "restarts")),
			 (long long)default_k, least, level);
	else if (!(p < level))
		snprintf(why, len, "variance not lower (permutation p %.3g, needs < %.3g)", p,
			 level);
	else if (!(med < default_median))
		snprintf(why, len, "median CoV not lower (%.2f%% against the default's %.2f%%)",
			 100 * med, 100 * default_median);
	else if (!(t <= 1 + STAB_MAX_SLOWDOWN))
		snprintf(why, len,
			 "%.0f%% slower than the default (geometric mean): it changes the server "
			 "measured",
			 100 * (t - 1));
}

/* The recommendation (docs/stability.md, "Recommended"): a candidate whose permutation p is
 * below alpha / m (Bonferroni over the m candidates tested against the default: at most alpha
 * of recommending any setting that does not lower the variance), whose median CoV is lower than
 * the default's and which is at most STAB_MAX_SLOWDOWN slower. Sets each candidate row's
 * "recommended" and "not_recommended_because"; returns the names recommended. */
static json_t *recommend(json_t *rows, double alpha, double *out_level)
{
	json_t *rec = json_array(), *row;
	size_t i, m = 0;
	json_array_foreach(rows, i, row) m += i > 0 && isfinite(num_or_nan(row, "perm_p"));
	*out_level = alpha / (double)(m ? m : 1);
	json_t *def = json_array_get(rows, 0);
	double dmed = num_or_nan(def, "median_cov");
	json_int_t dk = json_integer_value(json_object_get(def, "restarts"));
	json_array_foreach(rows, i, row)
	{
		char why[200];
		if (i == 0)
			continue;
		why_not(why, sizeof(why), row, *out_level, dmed, dk);
		json_object_set_new(row, "recommended", json_boolean(!why[0]));
		json_object_set_new(row, "not_recommended_because",
				    why[0] ? json_string(why) : json_null());
		if (!why[0])
			json_array_append(rec, json_object_get(row, "name"));
	}
	return rec;
}

json_t *run_stab_analyze(const struct run_stab_cand *c, int n, const struct run_stab_opts *o,
			 struct errbuf *err)
{
	struct series d, s;
	char ids[MAXQ][8];
	int nq = 0;
	if (load_series(&d, &c[0], o, ids, &nq, err) < 0) {
		series_release(&d);
		return NULL;
	}
	if (d.files < 2) {
		series_release(&d);
		return errbuf_set(err,
				  "'%s/default' holds %zu undisturbed restart(s): at least 2 are "
				  "needed (%zu disturbed left out; --keep-disturbed analyses them)",
				  o->dir, d.files, d.disturbed),
		       NULL;
	}
	json_t *rows = json_array();
	for (int i = 0; i < n; i++) {
		if (load_series(&s, &c[i], o, ids, &nq, err) < 0) {
			series_release(&s);
			series_release(&d);
			json_decref(rows);
			return NULL;
		}
		json_array_append_new(rows, cand_json(&c[i], &s, &d, ids, nq, o->alpha, i == 0));
		series_release(&s);
	}
	series_release(&d);
	double level;
	json_t *rec = recommend(rows, o->alpha, &level);
	return json_pack("{s:s, s:i, s:f, s:i, s:i, s:f, s:f, s:f, s:o, s:o}", "format",
			 RES_FORMAT_STABILIZE, "format_version", 1, "scale_factor", o->scale,
			 "warmup", o->warmup, "runs", o->runs, "alpha", o->alpha, "perm_level",
			 level, "max_slowdown", STAB_MAX_SLOWDOWN, "candidates", rows,
			 "recommended", rec);
}
