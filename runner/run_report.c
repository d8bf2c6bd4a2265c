/* SPDX-License-Identifier: MIT */
#include "runner/run_report.h"
#include "stats/st.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Concatenated measured runs of the ok restarts of q, for st_query_stats_compute. */
static int collect(const struct res_query *q, double **out_runs, size_t **out_n, size_t *out_k)
{
	size_t total = 0, k = 0;
	for (size_t i = 0; i < q->n_restarts; i++)
		if (q->restarts[i].status == RES_STATUS_OK && q->restarts[i].n_measured > 0)
			total += q->restarts[i].n_measured;
	double *runs = malloc((total + 1) * sizeof(double));
	size_t *nr = malloc((q->n_restarts + 1) * sizeof(size_t));
	if (!runs || !nr) {
		free(runs);
		free(nr);
		return -1;
	}
	total = 0;
	for (size_t i = 0; i < q->n_restarts; i++) {
		const struct res_restart *r = &q->restarts[i];
		if (r->status != RES_STATUS_OK || r->n_measured == 0)
			continue;
		memcpy(runs + total, r->measured_ms, r->n_measured * sizeof(double));
		total += r->n_measured;
		nr[k++] = r->n_measured;
	}
	*out_runs = runs;
	*out_n = nr;
	*out_k = k;
	return 0;
}

static void pct(char *out, size_t len, double v)
{
	if (isfinite(v))
		snprintf(out, len, "%.2f%%", v * 100);
	else
		snprintf(out, len, "-");
}

/* The noise columns (sd of log restart means and its 95% upper bound: what compare sees) and
 * a note on a run-position effect (warm-up transient) judged at 0.05 / 22; returns the length
 * of the note. */
static size_t noise_cells(char cb[32], char ub[32], char *notes, size_t len, const double *runs,
			  const size_t *nr, size_t k)
{
	struct st_noise z;
	struct st_position p;
	double eff[32];
	int flag[32];
	struct errbuf err;
	size_t nl = 0;
	if (k < 2 || st_noise_compute(&z, runs, nr, k, 0.95, &err) < 0)
		return 0;
	pct(cb, 32, z.sd_log);
	pct(ub, 32, z.sd_ucb);
	if (st_position_effect(&p, eff, flag, 32, runs, nr, k, 0.05 / 22, &err) < 0 ||
	    !(p.p < 0.05 / 22))
		return 0;
	nl = (size_t)snprintf(notes, len, "warm-up? runs");
	for (size_t j = 0; j < p.n && nl < len; j++)
		if (flag[j])
			nl += (size_t)snprintf(notes + nl, len - nl, " %zu", j + 1);
	if (nl < len)
		nl += (size_t)snprintf(notes + nl, len - nl, " differ; ");
	return nl < len ? nl : len - 1;
}

int run_report_table(FILE *f, const struct res_file *res, const char *name)
{
	if (name)
		fprintf(f, "variant %s\n", name);
	char noise[1024];
	if (res_file_pool_fits(res) == 0)
		fprintf(f, "warning: " RES_POOL_NOT_FIT "\n");
	if (res_noise_line(res, noise, sizeof(noise)))
		fprintf(f, "warning: %s\n", noise);
	fprintf(f, "%-5s %8s %12s %10s %10s %10s %10s  %s\n", "query", "restarts", "mean ms",
		"cov within", "noise sd", "(95% ucb)", "rows", "notes");
	for (size_t i = 0; i < res->n_queries; i++) {
		const struct res_query *q = &res->queries[i];
		double *runs = NULL;
		size_t *nr = NULL, k = 0;
		char mean[32] = "-", cw[32] = "-", cb[32] = "-", ub[32] = "-", rows[32] = "-",
		     notes[160] = "";
		int ns = 0, to = 0, cr = 0, er = 0, wc = 0;
		size_t nl = 0;
		for (size_t j = 0; j < q->n_restarts; j++) {
			const struct res_restart *r = &q->restarts[j];
			ns += r->not_steady;
			/* --budget: the warm-up reached --warmup-max before it was steady */
			wc += json_is_false(json_object_get(r->extra, "warmup_steady"));
			to += r->status == RES_STATUS_TIMEOUT;
			cr += r->status == RES_STATUS_CRASH;
			er += r->status == RES_STATUS_ERROR;
			if (r->rows >= 0)
				snprintf(rows, sizeof(rows), "%lld", r->rows);
		}
		if (collect(q, &runs, &nr, &k) == 0 && k > 0) {
			struct st_query_stats s;
			struct errbuf err;
			if (st_query_stats_compute(&s, NULL, runs, nr, k, &err) == 0) {
				snprintf(mean, sizeof(mean), "%.3f", s.mean);
				pct(cw, sizeof(cw), s.cov_within);
			}
			nl = noise_cells(cb, ub, notes, sizeof(notes), runs, nr, k);
		}
		free(runs);
		free(nr);
		if (ns)
			nl +=
			    (size_t)snprintf(notes + nl, sizeof(notes) - nl, "%d not steady ", ns);
		if (wc && nl < sizeof(notes))
			nl += (size_t)snprintf(notes + nl, sizeof(notes) - nl, "%d warm-up cut ", wc);
		if (to && nl < sizeof(notes))
			nl += (size_t)snprintf(notes + nl, sizeof(notes) - nl, "%d timeout ", to);
		if (cr && nl < sizeof(notes))
			nl += (size_t)snprintf(notes + nl, sizeof(notes) - nl, "%d crash ", cr);
		if (er && nl < sizeof(notes))
			snprintf(notes + nl, sizeof(notes) - nl, "%d error ", er);
		fprintf(f, "%-5s %4zu/%-3zu %12s %10s %10s %10s %10s  %s\n", q->id, k,
			q->n_restarts, mean, cw, cb, ub, rows, notes);
	}
	fprintf(f, "\n");
	return ferror(f) ? -1 : 0;
}

int run_report_notes(FILE *f, const struct run_target *targets, int n)
{
	int notes = 0;
	for (int t = 0; t < n; t++) {
		const struct res_file *res = targets[t].res;
		const char *name = targets[t].name;
		if (!res)
			continue;
		for (size_t i = 0; i < res->n_queries; i++) {
			const struct res_query *q = &res->queries[i];
			const char *sha = NULL, *plan = NULL;
			int res_differs = 0, plan_differs = 0;
			for (size_t j = 0; j < q->n_restarts; j++) {
				const struct res_restart *r = &q->restarts[j];
				const char *who = name ? name : "";
				const char *sep = name ? " " : "";
				if (r->not_steady) {
					fprintf(
					    f,
					    "%s%s%s restart %d: not steady (the measured runs "
					    "still trend: Mann-Kendall, Holm over the file, p < "
					    "0.05; more --warmup?)\n",
					    who, sep, q->id, r->index + 1);
					notes++;
				}
				if (r->status != RES_STATUS_OK) {
					char first[200];
					snprintf(first, sizeof(first), "%s",
						 r->error ? r->error : "");
					first[strcspn(first, "\n")] = '\0';
					fprintf(f, "%s%s%s restart %d: %s: %s\n", who, sep, q->id,
						r->index + 1, res_status_name(r->status), first);
					notes++;
				}
				if (r->result_sha256) {
					if (sha && strcmp(sha, r->result_sha256) != 0)
						res_differs = 1;
					sha = r->result_sha256;
				}
				if (r->plan_sha256) {
					if (plan && strcmp(plan, r->plan_sha256) != 0)
						plan_differs = 1;
					plan = r->plan_sha256;
				}
			}
			if (res_differs) {
				fprintf(f, "%s%s%s: the result differs between restarts\n",
					name ? name : "", name ? " " : "", q->id);
				notes++;
			}
			if (plan_differs) {
				fprintf(f, "%s%s%s: the plan differs between restarts\n",
					name ? name : "", name ? " " : "", q->id);
				notes++;
			}
		}
	}
	/* Results across variants: the same data must give the same answers. */
	for (int t = 1; t < n; t++) {
		const struct res_file *a = targets[0].res, *b = targets[t].res;
		if (!a || !b)
			continue;
		for (size_t i = 0; i < b->n_queries; i++) {
			const struct res_query *qb = &b->queries[i];
			const struct res_query *qa = res_file_find_query(a, qb->id);
			if (!qa || !qa->n_restarts || !qb->n_restarts)
				continue;
			const char *sa = qa->restarts[0].result_sha256;
			const char *sb = qb->restarts[0].result_sha256;
			if (sa && sb && strcmp(sa, sb) != 0) {
				fprintf(f, "%s: the result of %s differs from %s's\n",
					targets[t].name, qb->id, targets[0].name);
				notes++;
			}
		}
	}
	return notes;
}
