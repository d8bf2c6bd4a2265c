/* SPDX-License-Identifier: MIT */
/* The budget's plan for the next pair (runner/run_budget_plan.h). */
#include "runner/run_budget_plan.h"
#include "runner/run_instr.h"
#include "stats/st.h"
#include "stats/st_instr.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PAIRS 1024

void run_budget_next_init(struct run_qnext *next, const struct run_plan *p)
{
	int runs = RUN_BUDGET_RUNS_FIRST;
	runs = runs < p->runs_min ? p->runs_min : runs > p->runs_max ? p->runs_max : runs;
	for (int i = 0; i < p->n_queries; i++) {
		memset(&next[i], 0, sizeof(next[i]));
		next[i].active = 1;
		next[i].runs = runs;
		next[i].warmup_tol = RUN_WARMUP_TOL_MIN;
		next[i].ratio = next[i].ci_lo = next[i].ci_hi = NAN;
		st_seq_state_init(&next[i].seq);
	}
}

int run_budget_design(struct st_seq_design *out, const struct run_plan *p, const size_t *h,
		      size_t n, struct errbuf *err)
{
	struct st_seq_opts o;
	size_t k[ST_SEQ_MAX_PAIRS];
	st_seq_opts_init(&o);
	o.alpha = p->alpha;
	o.m = (size_t)p->n_queries;
	o.first_look = p->side_by_side ? RUN_SBS_FIRST_LOOK : 2;
	o.min_effect = p->detect;
	o.alt = ST_TWO_SIDED;
	o.spending = p->side_by_side ? RUN_SBS_SPENDING : ST_SPEND_OBF;
	o.pairing = ST_SEQ_PAIRED;
	if (n > ST_SEQ_MAX_PAIRS)
		n = ST_SEQ_MAX_PAIRS;
	for (size_t i = 0; i < n; i++) /* a budget that holds fewer pairs: no look before it */
		k[i] = h[i] < o.first_look ? o.first_look : h[i];
	return st_seq_design_init_horizon(out, &o, k, n, err);
}

const char *run_budget_rule_name(const struct run_plan *p, int n_targets)
{
	if (n_targets == 1)
		return "precision";
	if (n_targets > 2)
		return "repeated-ci-bonferroni";
	return p->side_by_side ? "group-sequential-pocock" : "group-sequential-obf";
}

size_t run_budget_horizon(int pairs, int min_pairs, double budget_s, double elapsed_s,
			  double pair_s, double least_s)
{
	double lo = pairs > min_pairs ? pairs : min_pairs;
	lo = lo < 2 ? 2 : lo > ST_SEQ_MAX_PAIRS ? ST_SEQ_MAX_PAIRS : lo;
	double k = ST_SEQ_MAX_PAIRS, left = budget_s - elapsed_s;
	if (pair_s > 0 && isfinite(pair_s)) {
		double full = floor(left / pair_s);
		k = pairs + full;
		if (least_s > 0 && least_s < pair_s && left - full * pair_s >= least_s)
			k += 1; /* a paced last pair */
	}
	return k < lo ? (size_t)lo : k > ST_SEQ_MAX_PAIRS ? ST_SEQ_MAX_PAIRS : (size_t)k;
}

/* What one target's restarts of one query say. */
struct qfacts {
	double mean_ms[MAX_PAIRS]; /* restart mean by restart index, NaN when none */
	int n_ok;		   /* restarts with status ok and measured runs */
	double exec_s;		   /* mean time of every execution */
	int warmup_max;		   /* most warm-up executions of a restart */
	double cov2_within, cov2_between; /* relative variance components, NaN when unknown */
};

/* geo: side by side, a restart's mean is the geometric mean of its measured executions, so
 * that a pair's log ratio is its mean log ratio of alternated executions (as compare takes it). */
static void facts_of(struct qfacts *f, const struct res_query *q, int geo)
{
	double sum = 0, *runs = NULL;
	size_t n = 0, nall = 0, *nruns = NULL, k = 0;
	for (int i = 0; i < MAX_PAIRS; i++)
		f->mean_ms[i] = NAN;
	f->n_ok = 0;
	f->exec_s = NAN;
	f->warmup_max = 0;
	f->cov2_within = f->cov2_between = NAN;
	if (!q)
		return;
	for (size_t i = 0; i < q->n_restarts; i++)
		nall += q->restarts[i].n_measured;
	runs = malloc((nall ? nall : 1) * sizeof(double));
	nruns = malloc((q->n_restarts ? q->n_restarts : 1) * sizeof(size_t));
	for (size_t i = 0; runs && nruns && i < q->n_restarts; i++) {
		const struct res_restart *r = &q->restarts[i];
		if ((int)r->n_warmup > f->warmup_max)
			f->warmup_max = (int)r->n_warmup;
		for (size_t j = 0; j < r->n_warmup; j++, n++)
			sum += r->warmup_ms[j];
		double m = 0, lm = 0;
		for (size_t j = 0; j < r->n_measured; j++, n++) {
			sum += r->measured_ms[j];
			m += r->measured_ms[j];
			lm += log(r->measured_ms[j] > 0 ? r->measured_ms[j] : 1e-9);
		}
		if (r->status != RES_STATUS_OK || r->n_measured == 0)
			continue;
		if (r->index >= 0 && r->index < MAX_PAIRS)
			f->mean_ms[r->index] = geo ? exp(lm / (double)r->n_measured)
						   : m / (double)r->n_measured;
		size_t off = 0;
		for (size_t t = 0; t < k; t++)
			off += nruns[t];
		memcpy(runs + off, r->measured_ms, r->n_measured * sizeof(double));
		nruns[k++] = r->n_measured;
		f->n_ok++;
	}
	if (n)
		f->exec_s = sum / (double)n / 1000.0;
	struct st_anova a;
	if (runs && nruns && k >= 1 && st_anova_oneway(&a, runs, nruns, k, NULL) == 0 &&
	    a.grand_mean > 0) {
		double g2 = a.grand_mean * a.grand_mean;
		f->cov2_within = a.var_within / g2;
		f->cov2_between = k >= 2 ? a.var_between / g2 : NAN;
	}
	free(runs);
	free(nruns);
}

/* Two variants: feeds the pairs not yet looked at to the query's sequential test. */
static void decide_seq(struct run_qnext *x, const struct st_seq_design *d, const struct qfacts *f,
		       int pairs)
{
	int at = 0;
	for (int r = x->fed; r < pairs && r < MAX_PAIRS && !at; r++)
		if (!isnan(f[0].mean_ms[r]) && !isnan(f[1].mean_ms[r]) &&
		    st_seq_feed(&x->seq, d, f[0].mean_ms[r], f[1].mean_ms[r], NULL) == 0 &&
		    x->seq.decision != ST_SEQ_UNDECIDED)
			at = r + 1; /* decided after pair r + 1 */
	x->fed = pairs;
	x->ratio = x->seq.look.ratio;
	x->ci_lo = x->seq.look.ci_lo;
	x->ci_hi = x->seq.look.ci_hi;
	switch (x->seq.decision) {
	case ST_SEQ_UNCHANGED:
		x->decision = RUN_DECIDED_UNCHANGED;
		break;
	case ST_SEQ_IMPROVEMENT:
		x->decision = RUN_DECIDED_IMPROVEMENT;
		break;
	case ST_SEQ_REGRESSION:
		x->decision = RUN_DECIDED_REGRESSION;
		break;
	case ST_SEQ_UNDECIDED:
		break;
	}
	if (x->decision != RUN_UNDECIDED)
		x->decided_after = at;
}

enum run_decision run_budget_instr(const struct run_plan *p, const struct res_query *const *q,
				   int n, int pairs, double *out_ratio)
{
	struct st_instr_side s[64];
	enum run_decision worst = RUN_DECIDED_UNCHANGED;
	if (out_ratio)
		*out_ratio = NAN;
	if (pairs < 2 || n < 1 || n > 64)
		return RUN_UNDECIDED;
	for (int t = 0; t < n; t++)
		if (st_instr_side_of(&s[t], q[t], RUN_INSTR_CALLGRIND_NAME, pairs) < 0 ||
		    s[t].restarts < 2 || !(s[t].mean > 0))
			return RUN_UNDECIDED;
	if (n == 1)
		return ST_INSTR_TOL + 2 * ST_INSTR_K * s[0].spread <= p->detect ? RUN_DECIDED_PRECISE
										: RUN_UNDECIDED;
	for (int v = 1; v < n; v++) {
		double bound, ratio = s[v].mean / s[0].mean;
		enum run_decision d = RUN_DECIDED_UNCHANGED;
		if (out_ratio)
			*out_ratio = ratio;
		if (st_instr_changed(ratio, s[0].spread, s[v].spread, &bound))
			d = ratio > 1 ? RUN_DECIDED_REGRESSION : RUN_DECIDED_IMPROVEMENT;
		else if (bound > p->detect)
			return RUN_UNDECIDED;
		if (d == RUN_DECIDED_REGRESSION ||
		    (d == RUN_DECIDED_IMPROVEMENT && worst == RUN_DECIDED_UNCHANGED))
			worst = d;
	}
	return worst;
}

/* The decision of one query from the targets' facts (and with --instructions their restarts
 * q[0..n-1]) after `pairs` pairs. */
static void decide(struct run_qnext *x, const struct run_plan *p, const struct qfacts *f, int n,
		   int pairs, const struct st_seq_design *design, const struct res_query *const *q)
{
	if (x->decision != RUN_UNDECIDED)
		return;
	if (p->instructions &&
	    (x->decision = run_budget_instr(p, q, n, pairs, &x->ratio)) != RUN_UNDECIDED) {
		x->on_instr = 1;
		x->ci_lo = x->ci_hi = NAN;
		x->decided_after = pairs;
		return;
	}
	if (n == 2 && design) {
		decide_seq(x, design, f, pairs);
		return;
	}
	if (n == 1) {
		double m[MAX_PAIRS];
		size_t k = 0;
		for (int r = 0; r < pairs && r < MAX_PAIRS; r++)
			if (!isnan(f[0].mean_ms[r]))
				m[k++] = f[0].mean_ms[r];
		x->decision = run_budget_decide_single(m, k, p->detect, p->alpha,
						       (size_t)p->n_queries);
	} else {
		/* Every variant against the first, paired by restart; Bonferroni over them. */
		enum run_decision worst = RUN_DECIDED_UNCHANGED;
		size_t m = (size_t)p->n_queries * (size_t)(n - 1);
		for (int v = 1; v < n; v++) {
			double a[MAX_PAIRS], b[MAX_PAIRS];
			size_t k = 0;
			for (int r = 0; r < pairs && r < MAX_PAIRS; r++)
				if (!isnan(f[0].mean_ms[r]) && !isnan(f[v].mean_ms[r])) {
					a[k] = f[0].mean_ms[r];
					b[k++] = f[v].mean_ms[r];
				}
			enum run_decision d = run_budget_decide_paired(
			    a, b, k, p->detect, p->alpha, m, &x->ratio, &x->ci_lo, &x->ci_hi);
			if (d == RUN_UNDECIDED) {
				worst = RUN_UNDECIDED;
				break;
			}
			if (d == RUN_DECIDED_REGRESSION ||
			    (d == RUN_DECIDED_IMPROVEMENT && worst == RUN_DECIDED_UNCHANGED))
				worst = d;
		}
		x->decision = worst;
	}
	if (x->decision != RUN_UNDECIDED)
		x->decided_after = pairs;
}

/* Runs of the next pair by the cost-optimal allocation, from the components averaged over the
 * targets; the restart's fixed cost of this query is its share of the server start and stop plus
 * its warm-up. */
static int runs_of(const struct run_plan *p, const struct qfacts *f, int n, double startstop_s,
		   int n_active)
{
	double vw = 0, vb = 0, ce = 0;
	int w = 0, nw = 0, nb = 0;
	for (int t = 0; t < n; t++) {
		if (!isnan(f[t].cov2_within)) {
			vw += f[t].cov2_within;
			nw++;
		}
		if (!isnan(f[t].cov2_between)) {
			vb += f[t].cov2_between;
			nb++;
		}
		ce += isnan(f[t].exec_s) ? 0 : f[t].exec_s / n;
		w = f[t].warmup_max > w ? f[t].warmup_max : w;
	}
	int first = RUN_BUDGET_RUNS_FIRST;
	first = first < p->runs_min ? p->runs_min : first > p->runs_max ? p->runs_max : first;
	if (nw == 0 || nb < n || !(ce > 0))
		return first;
	double cf = startstop_s / (n_active ? n_active : 1) + w * ce;
	int r = run_budget_runs(cf, ce, vw / nw, vb / nb, p->runs_min, p->runs_max);
	return r < 0 ? first : r;
}

/* The estimated wall time of a pair: per target the longest start + stop and, for each query
 * next[] marks active, at its mean execution time its warm-up (the most it needed, at least
 * --warmup-min) and planned runs (full_s), or --warmup-min and min(--runs-min, planned)
 * (least_s). */
static struct run_pair_cost pair_cost(const struct run_qnext *next, const struct run_plan *p,
				      const struct qfacts *f, int n_targets,
				      const double *startstop_s)
{
	struct run_pair_cost cost = {0, 0};
	for (int t = 0; t < n_targets; t++) {
		struct run_qcost full[RUN_MAX_QUERIES], least[RUN_MAX_QUERIES];
		for (int i = 0; i < p->n_queries; i++) {
			const struct qfacts *x = &f[(size_t)i * (size_t)n_targets + (size_t)t];
			int w = x->warmup_max > p->warmup_min ? x->warmup_max : p->warmup_min;
			int r = next[i].runs, rmin = p->runs_min < r ? p->runs_min : r;
			full[i] = (struct run_qcost){x->exec_s, w, r, next[i].active};
			least[i] =
			    (struct run_qcost){x->exec_s, p->warmup_min, rmin, next[i].active};
		}
		cost.full_s += run_budget_restart_cost(startstop_s[t], full, (size_t)p->n_queries);
		cost.least_s +=
		    run_budget_restart_cost(startstop_s[t], least, (size_t)p->n_queries);
	}
	return cost;
}

/* K after `pairs` pairs from the cost of another pair like the last one (next[] as it was
 * measured, before this look decides anything), then the design over K_1..K_pairs. Looks not
 * yet made (several pairs fed at once) get the same K. */
static int horizon_update(struct run_budget_seq *seq, const struct run_qnext *next,
			  const struct run_plan *p, const struct qfacts *f, int pairs,
			  const double *startstop_s, struct errbuf *err)
{
	size_t n = pairs < ST_SEQ_MAX_PAIRS ? (size_t)pairs : ST_SEQ_MAX_PAIRS;
	if (seq->n_horizon >= n)
		return 0;
	struct run_pair_cost c = pair_cost(next, p, f, 2, startstop_s);
	size_t K = run_budget_horizon(pairs, seq->min_pairs, seq->budget_s, seq->elapsed_s,
				      c.full_s, c.least_s);
	if (p->side_by_side && K < RUN_SBS_FIRST_LOOK) /* as the design counts it */
		K = RUN_SBS_FIRST_LOOK;
	while (seq->n_horizon < n)
		seq->horizon[seq->n_horizon++] = K;
	return run_budget_design(&seq->design, p, seq->horizon, seq->n_horizon, err);
}

int run_budget_next(struct run_qnext *next, const struct run_plan *p, struct res_file *const *res,
		    int n_targets, int pairs, const double *startstop_s, double exec_extra_s,
		    struct run_budget_seq *seq, struct run_pair_cost *out_cost, struct errbuf *err)
{
	struct qfacts *f = calloc((size_t)p->n_queries * (size_t)n_targets, sizeof(*f));
	int undecided = 0, n_active = 0;
	double ss = 0;
	*out_cost = (struct run_pair_cost){INFINITY, INFINITY};
	if (!f)
		return errbuf_set(err, "out of memory");
	for (int t = 0; t < n_targets; t++)
		ss += startstop_s[t] / n_targets;
	for (int i = 0; i < p->n_queries; i++)
		for (int t = 0; t < n_targets; t++) {
			struct qfacts *x = &f[(size_t)i * (size_t)n_targets + (size_t)t];
			facts_of(x, res_file_find_query_num(res[t], p->queries[i]), p->side_by_side);
			if (isfinite(x->exec_s) && exec_extra_s > 0)
				x->exec_s += exec_extra_s;
		}
	if (seq && n_targets == 2 && horizon_update(seq, next, p, f, pairs, startstop_s, err) < 0) {
		free(f);
		return -1;
	}
	const struct st_seq_design *design = seq && n_targets == 2 ? &seq->design : NULL;
	for (int i = 0; i < p->n_queries; i++) {
		const struct res_query *q[64];
		for (int t = 0; t < n_targets && t < 64; t++)
			q[t] = res_file_find_query_num(res[t], p->queries[i]);
		decide(&next[i], p, &f[(size_t)i * (size_t)n_targets], n_targets, pairs, design, q);
		undecided += next[i].decision == RUN_UNDECIDED;
		next[i].active = next[i].decision == RUN_UNDECIDED || p->keep_all;
		n_active += next[i].active;
	}
	for (int i = 0; i < p->n_queries; i++) {
		struct qfacts *fi = &f[(size_t)i * (size_t)n_targets];
		double cw = 0;
		int ncw = 0;
		for (int t = 0; t < n_targets; t++)
			if (!isnan(fi[t].cov2_within)) {
				cw += sqrt(fi[t].cov2_within);
				ncw++;
			}
		next[i].warmup_tol = run_warmup_tol(ncw ? cw / ncw : NAN);
		next[i].runs = runs_of(p, fi, n_targets, ss, n_active);
	}
	*out_cost = pair_cost(next, p, f, n_targets, startstop_s);
	free(f);
	return undecided;
}
