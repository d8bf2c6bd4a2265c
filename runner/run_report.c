/* SPDX-License-Identifier: MIT */
#include "runner/run_report.h"
#include "stats/st_figs.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
static size_t noise_cells(char cb[32], char ub[32], char *notes, size_t len,
			  const struct st_figs *g)
{
	size_t nl = 0;
	if (!g->have_noise)
		return 0;
	pct(cb, 32, g->noise.sd_log);
	pct(ub, 32, g->noise.sd_ucb);
	if (!g->position_effect)
		return 0;
	nl = (size_t)snprintf(notes, len, "warm-up? runs");
	for (size_t j = 0; j < g->position.n && nl < len; j++)
		if (g->position_runs & (1u << j))
			nl += (size_t)snprintf(notes + nl, len - nl, " %zu", j + 1);
	if (nl < len)
		nl += (size_t)snprintf(notes + nl, len - nl, " differ; ");
	return nl < len ? nl : len - 1;
}

/* The restart counts of g after the notes' first nl characters. */
static void count_notes(char *notes, size_t len, size_t nl, const struct st_figs *g)
{
	const struct {
		size_t n;
		const char *what;
	} c[] = {{g->not_steady, "not steady"}, {g->warmup_cut, "warm-up cut"},
		 {g->timeout, "timeout"},	{g->crash, "crash"},
		 {g->error, "error"}};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]) && nl < len; i++)
		if (c[i].n)
			nl += (size_t)snprintf(notes + nl, len - nl, "%zu %s ", c[i].n, c[i].what);
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
		char mean[32] = "-", cw[32] = "-", cb[32] = "-", ub[32] = "-", rows[32] = "-",
		     notes[160] = "";
		struct st_figs g;
		struct errbuf err;
		if (st_figs_compute(&g, q, 0.05 / 22, &err) < 0) {
			st_figs_release(&g);
			return -1;
		}
		if (g.rows >= 0)
			snprintf(rows, sizeof(rows), "%lld", g.rows);
		if (g.have_stats) {
			snprintf(mean, sizeof(mean), "%.3f", g.stats.mean);
			pct(cw, sizeof(cw), g.stats.cov_within);
		}
		count_notes(notes, sizeof(notes), noise_cells(cb, ub, notes, sizeof(notes), &g),
			    &g);
		size_t k = g.n_ok;
		st_figs_release(&g);
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
