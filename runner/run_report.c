/* SPDX-License-Identifier: MIT */
#include "runner/run_report.h"
#include "result/res_counts.h"
#include "stats/st_cost.h"
#include "stats/st_restart_summary.h"
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
			  const struct st_restart_summary *g)
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
static void count_notes(char *notes, size_t len, size_t nl, const struct st_restart_summary *g)
{
	const struct {
		size_t n;
		const char *what;
	} c[] = {{g->not_steady, "not steady"},
		 {g->warmup_cut, "warm-up cut"},
		 {g->timeout, "timeout"},
		 {g->crash, "crash"},
		 {g->error, "error"}};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]) && nl < len; i++)
		if (c[i].n)
			nl += (size_t)snprintf(notes + nl, len - nl, "%zu %s ", c[i].n, c[i].what);
}

/* The work column (docs/work.md): Rows_read of the warm measured executions, "12.3 k" when
 * every one of every ok restart agrees, with " varies" when not; "-" without work records. */
static void work_cell(char *out, size_t len, const struct res_query *q)
{
	long long first;
	size_t restarts;
	int varies = res_query_rows_read(q, &first, &restarts);
	snprintf(out, len, "-");
	if (first < 0)
		return;
	double v = (double)first;
	if (v < 1e4)
		snprintf(out, len, "%lld%s", first, varies ? " varies" : "");
	else
		snprintf(out, len, "%.1f %s%s", v < 1e6 ? v / 1e3 : v / 1e6, v < 1e6 ? "k" : "M",
			 varies ? " varies" : "");
}

int run_report_table(FILE *f, const struct res_file *res, const char *name)
{
	if (name)
		fprintf(f, "variant %s\n", name);
	char noise[1024];
	if (res_file_pool_fits(res) == 0)
		fprintf(f, "warning: " RES_POOL_NOT_FIT "\n");
	if (res_interf_line(res, noise, sizeof(noise)))
		fprintf(f, "warning: %s\n", noise);
	fprintf(f, "%-5s %8s %12s %10s %10s %10s %10s %14s  %s\n", "query", "restarts", "mean ms",
		"cov within", "noise sd", "(95% ucb)", "rows", "work rows read", "notes");
	for (size_t i = 0; i < res->n_queries; i++) {
		const struct res_query *q = &res->queries[i];
		char mean[32] = "-", cw[32] = "-", cb[32] = "-", ub[32] = "-", rows[32] = "-",
		     notes[160] = "";
		struct st_restart_summary g;
		struct errbuf err;
		if (st_restart_summary_compute(&g, q, 0.05 / 22, &err) < 0) {
			st_restart_summary_release(&g);
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
		st_restart_summary_release(&g);
		char work[48];
		work_cell(work, sizeof(work), q);
		fprintf(f, "%-5s %4zu/%-3zu %12s %10s %10s %10s %10s %14s  %s\n", q->id, k,
			q->n_restarts, mean, cw, cb, ub, rows, work, notes);
	}
	struct errbuf err;
	if (st_cost_host_line(noise, sizeof(noise), res, &err) > 0)
		fprintf(f, "host: %s\n", noise);
	struct st_cost cost;
	if (st_cost_compute(&cost, res, NULL, &err) == 0) {
		fprintf(f, "\n");
		st_cost_write(f, &cost, 0);
	}
	fprintf(f, "\n");
	return ferror(f) ? -1 : 0;
}

/* The notes of one restart: not steady, failed. */
static int restart_notes(FILE *f, const char *name, const char *id, const struct res_restart *r)
{
	const char *who = name ? name : "", *sep = name ? " " : "";
	int notes = 0;
	if (r->not_steady) {
		fprintf(f,
			"%s%s%s restart %d: not steady (the measured runs still trend: "
			"Mann-Kendall, Holm over the file, p < 0.05; more --warmup?)\n",
			who, sep, id, r->index + 1);
		notes++;
	}
	if (r->status != RES_STATUS_OK) {
		char first[200];
		snprintf(first, sizeof(first), "%s", r->error ? r->error : "");
		first[strcspn(first, "\n")] = '\0';
		fprintf(f, "%s%s%s restart %d: %s: %s\n", who, sep, id, r->index + 1,
			res_status_name(r->status), first);
		notes++;
	}
	return notes;
}

/* The notes of one query: its restarts', then whether its result or plan differs between
 * restarts by the per-query figures' rule (stats/st_restart_summary.h: results of ok restarts
 * only). */
static int query_notes(FILE *f, const char *name, const struct res_query *q)
{
	const char *who = name ? name : "", *sep = name ? " " : "";
	int notes = 0;
	for (size_t j = 0; j < q->n_restarts; j++)
		notes += restart_notes(f, name, q->id, &q->restarts[j]);
	struct st_restart_summary g;
	struct errbuf err;
	if (st_restart_summary_compute(&g, q, 0.05 / 22, &err) == 0) {
		if (g.results_differ) {
			fprintf(f, "%s%s%s: the result differs between restarts\n", who, sep,
				q->id);
			notes++;
		}
		if (g.plans_differ) {
			fprintf(f, "%s%s%s: the plan differs between restarts\n", who, sep, q->id);
			notes++;
		}
	}
	st_restart_summary_release(&g);
	return notes;
}

/* The result fingerprint of q by the per-query figures' rule (its first ok restart's), or NULL;
 * it points into q. */
static const char *figs_result_sha(const struct res_query *q)
{
	struct st_restart_summary g;
	struct errbuf err;
	const char *sha =
	    st_restart_summary_compute(&g, q, 0.05 / 22, &err) == 0 ? g.result_sha256 : NULL;
	st_restart_summary_release(&g);
	return sha;
}

int run_report_notes(FILE *f, const struct run_target *targets, int n)
{
	int notes = 0;
	for (int t = 0; t < n; t++) {
		const struct res_file *res = targets[t].res;
		for (size_t i = 0; res && i < res->n_queries; i++)
			notes += query_notes(f, targets[t].name, &res->queries[i]);
	}
	/* Results across variants: the same data must give the same answers. */
	for (int t = 1; t < n; t++) {
		const struct res_file *a = targets[0].res, *b = targets[t].res;
		if (!a || !b)
			continue;
		for (size_t i = 0; i < b->n_queries; i++) {
			const struct res_query *qb = &b->queries[i];
			const struct res_query *qa = res_file_find_query(a, qb->id);
			const char *sa = qa ? figs_result_sha(qa) : NULL, *sb = figs_result_sha(qb);
			if (sa && sb && strcmp(sa, sb) != 0) {
				fprintf(f, "%s: the result of %s differs from %s's\n",
					targets[t].name, qb->id, targets[0].name);
				notes++;
			}
		}
	}
	return notes;
}

int run_report_cost_update(struct res_file *res)
{
	struct st_cost c;
	struct errbuf err;
	if (st_cost_compute(&c, res, NULL, &err) < 0)
		return -1;
	json_t *j = st_cost_json(&c);
	if (!j || (!res->extra && !(res->extra = json_object()))) {
		json_decref(j);
		return -1;
	}
	json_object_set_new(res->extra, "verdict_cost", j);
	return 0;
}
