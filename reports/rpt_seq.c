/* SPDX-License-Identifier: MIT */
/* compare: restarts paired within one interleaved run, and the replay of the sequential rule. */
#include "reports/rpt.h"
#include "stats/st_seq_tbounds.h"
#include "stats/st_var.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *plan_string(const struct res_file *r, const char *key)
{
	json_t *v = r && r->plan ? json_object_get(r->plan, key) : NULL;
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A file of run --side-by-side: plan.side_by_side is an object. */
static int side_by_side(const struct res_file *r)
{
	return json_is_object(json_object_get(r->plan, "side_by_side"));
}

void rpt_pairing_decide(struct rpt_compare *c)
{
	const struct res_file *a = c->old.res, *b = c->new.res;
	const char *va = plan_string(a, "variant"), *vb = plan_string(b, "variant");
	int one_run = va && vb && strcmp(va, vb) != 0 && a->started_at && b->started_at &&
		      strcmp(a->started_at, b->started_at) == 0;
	c->paired = 0;
	c->sbs = one_run && side_by_side(a) && side_by_side(b);
	if (c->opts.unpaired)
		c->pairing_why = "--unpaired";
	else if (c->opts.adjust_memory)
		c->pairing_why = "--adjust-memory: the probe carries the host's state a pair shares";
	else if (!va || !vb || strcmp(va, vb) == 0)
		c->pairing_why = "not two variants of one run (plan.variant)";
	else if (!one_run)
		c->pairing_why = "variants of different runs (started_at differs)";
	else {
		c->paired = 1;
		c->pairing_why = c->sbs ? "side by side: each pair's executions alternated between "
					  "the two servers (its mean log ratio)"
					: "variants of one interleaved run";
	}
	for (size_t i = 0; i < c->n_queries; i++)
		c->queries[i].sbs = c->paired && c->sbs;
}

/* Restart index's entry of q with status ok, or NULL. */
static const struct res_restart *ok_restart(const struct res_query *q, int index)
{
	for (size_t i = 0; q && i < q->n_restarts; i++)
		if (q->restarts[i].index == index && q->restarts[i].status == RES_STATUS_OK)
			return &q->restarts[i];
	return NULL;
}

/* Side by side: the geometric means of a's and b's first m measured executions, m the fewer of
 * the two (log(gb / ga) = the mean over k of log(b_k / a_k)); 0, or -1 without a pair. */
static int sbs_pair(double *ga, double *gb, const struct res_restart *a,
		    const struct res_restart *b)
{
	size_t m = a && b ? (a->n_measured < b->n_measured ? a->n_measured : b->n_measured) : 0;
	double la = 0, lb = 0;
	if (m == 0)
		return -1;
	for (size_t k = 0; k < m; k++) {
		if (!(a->measured_ms[k] > 0 && b->measured_ms[k] > 0))
			return -1;
		la += log(a->measured_ms[k]);
		lb += log(b->measured_ms[k]);
	}
	*ga = exp(la / (double)m);
	*gb = exp(lb / (double)m);
	return 0;
}

size_t rpt_query_pairs(double *out_a, double *out_b, const struct rpt_query *q)
{
	size_t n = 0;
	for (size_t i = 0; i < q->old.n_used; i++)
		for (size_t j = 0; j < q->new.n_used; j++)
			if (q->old.indices[i] == q->new.indices[j]) {
				out_a[n] = q->old.means_ms[i];
				out_b[n] = q->new.means_ms[j];
				if (!q->sbs)
					n++;
				else if (sbs_pair(&out_a[n], &out_b[n],
						  ok_restart(q->old.q, q->old.indices[i]),
						  ok_restart(q->new.q, q->new.indices[j])) == 0)
					n++;
				break;
			}
	return n;
}

/* Room for the pairs of q (the smaller side). */
static size_t pair_room(const struct rpt_query *q)
{
	size_t n = q->old.n_used < q->new.n_used ? q->old.n_used : q->new.n_used;
	return n ? n : 1;
}

/* q's restart pairs (rpt_query_pairs) in new arrays *a and *b, their number in *n: 0, or -1 when
 * out of memory (*n untouched). The caller frees both arrays either way. */
static int query_pairs_alloc(double **a, double **b, size_t *n, const struct rpt_query *q)
{
	size_t room = pair_room(q);
	*a = malloc(room * sizeof(double));
	*b = malloc(room * sizeof(double));
	if (!*a || !*b)
		return -1;
	*n = rpt_query_pairs(*a, *b, q);
	return 0;
}

int rpt_paired_tests(struct rpt_compare *c, struct st_test *tests, const size_t *map, size_t m,
		     const struct st_compare_opts *so, struct errbuf *err)
{
	for (size_t j = 0; j < m; j++) {
		struct rpt_query *q = &c->queries[map[j]];
		double *a, *b;
		int rc = 0;
		if (query_pairs_alloc(&a, &b, &q->n_pairs, q) < 0)
			rc = errbuf_set(err, "out of memory");
		else if (q->n_pairs >= 2)
			rc = st_compare_paired(&tests[j], a, b, q->n_pairs, so, err);
		if (rc == 0 && tests[j].kind == ST_TEST_PAIRED && c->baseline.res)
			tests[j].base_use = ST_BASE_UNUSED_PAIRED;
		free(a);
		free(b);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* The most pairs any query has (rpt_seq_replay counts them first). */
static size_t most_pairs(const struct rpt_compare *c)
{
	size_t k = 0;
	for (size_t i = 0; i < c->n_queries; i++)
		if (c->queries[i].n_pairs > k)
			k = c->queries[i].n_pairs;
	return k;
}

static size_t plan_max_pairs(const struct res_file *r)
{
	json_t *v = r && r->plan ? json_object_get(r->plan, "max_pairs") : NULL;
	json_int_t k = json_is_integer(v) ? json_integer_value(v) : 0;
	return k > 0 && k <= ST_SEQ_MAX_PAIRS ? (size_t)k : 0;
}

/* plan.horizon of run --budget (K after each pair) into out; its length, 0 when absent or not a
 * list of integers in [2, ST_SEQ_MAX_PAIRS]. */
static size_t plan_horizon(size_t *out, const struct res_file *r)
{
	json_t *h = r && r->plan ? json_object_get(r->plan, "horizon") : NULL, *k;
	size_t i, n = json_is_array(h) ? json_array_size(h) : 0;
	if (n > ST_SEQ_MAX_PAIRS)
		return 0;
	json_array_foreach(h, i, k)
	{
		json_int_t v = json_is_integer(k) ? json_integer_value(k) : 0;
		if (v < 2 || v > ST_SEQ_MAX_PAIRS)
			return 0;
		out[i] = (size_t)v;
	}
	return n;
}

/* K of the replay: --max-pairs, else the plan's max_pairs (old file, then new; as run --budget
 * records it), else the most pairs any query has; the caller raises it to the first look (2). */
static size_t replay_max_pairs(const struct rpt_compare *c)
{
	size_t k = 0;
	if (c->opts.max_pairs)
		return c->opts.max_pairs;
	if ((k = plan_max_pairs(c->old.res)) || (k = plan_max_pairs(c->new.res)))
		return k;
	return most_pairs(c);
}

/* The K of each look the replay uses, into out (room for ST_SEQ_MAX_PAIRS); returns the looks.
 * Without --max-pairs, a plan.horizon (old file, then new) is replayed as the run used it, one
 * K per pair, its last K for pairs after it (a failed last pair); else K (replay_max_pairs) at
 * every look, raised to first_look. */
static size_t replay_horizon(size_t *out, const struct rpt_compare *c, size_t first_look)
{
	size_t n = 0, pairs = most_pairs(c);
	if (!c->opts.max_pairs && !(n = plan_horizon(out, c->old.res)))
		n = plan_horizon(out, c->new.res);
	if (n == 0) {
		size_t K = replay_max_pairs(c);
		if (K < first_look)
			K = first_look; /* too few pairs to decide anything: all undecided */
		if (K > ST_SEQ_MAX_PAIRS)
			K = ST_SEQ_MAX_PAIRS;
		for (n = 0; n < K; n++)
			out[n] = K;
		return n;
	}
	for (; n < pairs && n < ST_SEQ_MAX_PAIRS; n++)
		out[n] = out[n - 1];
	for (size_t i = 0; i < n; i++) /* as run_budget_design: no look before the first */
		if (out[i] < first_look)
			out[i] = first_look;
	return n;
}

const struct st_seq_design *rpt_seq_design_of(const struct rpt_compare *c,
					      const struct rpt_query *q)
{
	return q->seq_prior.df > 0 ? &c->seq_base : &c->seq;
}

int rpt_seq_state_start(struct st_seq_state *s, const struct rpt_query *q, struct errbuf *err)
{
	st_seq_state_init(s);
	if (q->seq_prior.df > 0 &&
	    st_seq_state_set_prior(s, q->seq_prior.var, (size_t)q->seq_prior.df, err) < 0)
		return -1;
	return 0;
}

/* Tonight's own variance of what q's test borrows for: paired, of the pairs' log ratios; unpaired,
 * of the log restart means within each variant, pooled (st_sample_pooled_var of the sides'
 * sd_log). df 0 when there is none. */
static int own_var(struct st_prior *out, const struct rpt_compare *c, const struct rpt_query *q)
{
	*out = (struct st_prior){NAN, 0};
	if (!c->paired) {
		struct st_sample a = {q->old.n_used, NAN, q->old.sd_log * q->old.sd_log},
				 b = {q->new.n_used, NAN, q->new.sd_log * q->new.sd_log};
		st_sample_pooled_var(out, &a, &b);
		return 0;
	}
	double *a, *b;
	size_t n = 0;
	int rc = query_pairs_alloc(&a, &b, &n, q);
	for (size_t i = 0; rc == 0 && i < n; i++)
		a[i] = b[i] / a[i];
	double sd = rc == 0 ? st_log_sd(a, n) : NAN;
	if (n >= 2 && isfinite(sd))
		*out = (struct st_prior){sd * sd, (double)(n - 1)};
	free(a);
	free(b);
	return rc;
}

/* Whether tonight is noisier than the lent variances say, over the queries that borrow (each
 * lent variance on its own baseline's df): st_var_ratio_test into c->lend; refused below
 * RPT_LEND_ALPHA. */
static int lend_check(struct rpt_compare *c, const struct st_prior *lent, struct errbuf *err)
{
	struct st_prior *own = calloc(c->n_queries ? c->n_queries : 1, sizeof(*own));
	if (!own)
		return errbuf_set(err, "out of memory");
	for (size_t i = 0; i < c->n_queries; i++)
		if (lent[i].df > 0 && own_var(&own[i], c, &c->queries[i]) < 0) {
			free(own);
			return errbuf_set(err, "out of memory");
		}
	st_var_ratio_test(&c->lend, own, lent, c->n_queries);
	c->lend_refused = c->lend.p < RPT_LEND_ALPHA;
	free(own);
	return 0;
}

/* --sequential with --baseline: the variance each query's test borrows (docs/statistics.md, "A
 * variance borrowed from a baseline"). Paired, twice the baseline's restart variance: what the
 * log ratio of two independent restarts has (pairing can only take drift out of it, so this
 * errs on the safe side); unpaired, the restart variance itself. All on the fewest df any such
 * query's baseline has, so that one design serves them: a query whose baseline has more restarts
 * lends a better estimate than the design assumes, which is conservative. A query whose baseline
 * lacks 2 restarts (or whose restart means there are all equal) borrows nothing; none does when
 * the lend check refuses. lent: room for n_queries. */
static int seq_priors(struct rpt_compare *c, struct st_prior *lent, size_t *out_df,
		      struct errbuf *err)
{
	double df = 0;
	for (size_t i = 0; i < c->n_queries; i++) {
		struct rpt_query *q = &c->queries[i];
		struct st_prior p;
		q->seq_prior = lent[i] = (struct st_prior){NAN, 0};
		if (!c->baseline.res || q->n_pairs == 0)
			continue;
		if (rpt_baseline_prior(&p, &c->baseline, q->id, err) < 0)
			return -1;
		if (!(p.df >= 1) || !(p.var > 0) || !isfinite(p.var))
			continue;
		lent[i] = (struct st_prior){c->paired ? 2 * p.var : p.var, p.df};
		if (df == 0 || p.df < df)
			df = p.df;
	}
	if (df > 0 && lend_check(c, lent, err) < 0)
		return -1;
	if (df > ST_SEQ_T_MAX_PRIOR_DF)
		df = ST_SEQ_T_MAX_PRIOR_DF;
	if (c->lend_refused)
		df = 0;
	for (size_t i = 0; i < c->n_queries; i++)
		if (df > 0 && lent[i].df > 0)
			c->queries[i].seq_prior = (struct st_prior){lent[i].var, df};
	*out_df = (size_t)df;
	return 0;
}

static int replay_query(struct rpt_compare *c, struct rpt_query *q, struct errbuf *err)
{
	double *a, *b;
	int rc = rpt_seq_state_start(&q->seq, q, err);
	if (query_pairs_alloc(&a, &b, &q->n_pairs, q) < 0)
		rc = errbuf_set(err, "out of memory");
	else
		for (size_t i = 0; i < q->n_pairs && rc == 0; i++)
			rc = st_seq_feed(&q->seq, rpt_seq_design_of(c, q), a[i], b[i], err);
	free(a);
	free(b);
	return rc < 0 ? -1 : 0;
}

static void recount(struct rpt_compare *c)
{
	memset(c->counts, 0, sizeof(c->counts));
	c->worst = RPT_UNCHANGED;
	for (size_t i = 0; i < c->n_queries; i++) {
		c->counts[c->queries[i].verdict]++;
		if (c->queries[i].verdict > c->worst)
			c->worst = c->queries[i].verdict;
	}
}

static const enum rpt_verdict verdict_of[] = {
    [ST_SEQ_UNDECIDED] = RPT_INCONCLUSIVE,
    [ST_SEQ_UNCHANGED] = RPT_UNCHANGED,
    [ST_SEQ_IMPROVEMENT] = RPT_IMPROVEMENT,
    [ST_SEQ_REGRESSION] = RPT_REGRESSION,
};

static double plan_number(const struct res_file *r, const char *key)
{
	json_t *v = r && r->plan ? json_object_get(r->plan, key) : NULL;
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The replay's options: compare's, except for files of run --budget (plan.budget_s), whose rule
 * is replayed as the run applied it: plan.alpha, plan.detect as the margin, two-sided, and the
 * spending and first look of plan.decision_rule and plan.first_look (run --side-by-side:
 * "group-sequential-pocock" from pair 3; before first_look existed, 2). */
static void replay_opts(struct st_seq_opts *o, const struct rpt_compare *c,
			enum st_alternative alt)
{
	const struct res_file *r = c->old.res;
	double a = plan_number(r, "alpha"), d = plan_number(r, "detect");
	double f = plan_number(r, "first_look");
	const char *rule = plan_string(r, "decision_rule");
	st_seq_opts_init(o);
	o->alpha = c->opts.alpha;
	o->min_effect = c->opts.min_effect;
	o->alt = alt;
	o->spending = c->opts.spending;
	if (plan_number(r, "budget_s") > 0 && a > 0 && a < 1 && d >= 0 && isfinite(d)) {
		o->alpha = a;
		o->min_effect = d;
		o->alt = ST_TWO_SIDED;
		if (rule && strncmp(rule, "group-sequential-", 17) == 0)
			st_seq_spending_parse(rule + 17, &o->spending);
		if (f >= 1 && f <= ST_SEQ_MAX_PAIRS)
			o->first_look = (size_t)f;
	}
	o->m = c->n_queries ? c->n_queries : 1;
	o->pairing = c->paired ? ST_SEQ_PAIRED : ST_SEQ_UNPAIRED;
}

/* Whether old's plan records the group-sequential rule of run --budget: plan.decision_rule
 * "group-sequential-*", or (files before decision_rule) plan.budget_s with plan.max_pairs. */
static int plan_has_seq_rule(const struct res_file *r)
{
	const char *rule = plan_string(r, "decision_rule");
	if (rule)
		return strncmp(rule, "group-sequential", 16) == 0;
	return plan_number(r, "budget_s") > 0 && plan_max_pairs(r) > 0;
}

int rpt_seq_recorded(const struct rpt_compare *c)
{
	const struct res_file *a = c->old.res, *b = c->new.res;
	const char *va = plan_string(a, "variant"), *vb = plan_string(b, "variant");
	return va && vb && strcmp(va, vb) != 0 && a->started_at && b->started_at &&
	       strcmp(a->started_at, b->started_at) == 0 && plan_has_seq_rule(a) &&
	       plan_has_seq_rule(b);
}

int rpt_seq_replay(struct rpt_compare *c, enum st_alternative alt, struct errbuf *err)
{
	struct st_seq_opts o;
	for (size_t i = 0; i < c->n_queries; i++) {
		double *a, *b;
		int rc = query_pairs_alloc(&a, &b, &c->queries[i].n_pairs, &c->queries[i]);
		free(a);
		free(b);
		if (rc < 0)
			return errbuf_set(err, "out of memory");
	}
	size_t horizon[ST_SEQ_MAX_PAIRS];
	replay_opts(&o, c, alt);
	size_t n = replay_horizon(horizon, c, o.first_look);
	if (st_seq_design_init_horizon(&c->seq, &o, horizon, n, err) < 0)
		return -1;
	memset(&c->seq_base, 0, sizeof(c->seq_base));
	c->lend = (struct st_var_ratio){0, NAN, NAN};
	c->lend_refused = 0;
	struct st_prior *lent = malloc((c->n_queries ? c->n_queries : 1) * sizeof(*lent));
	if (!lent)
		return errbuf_set(err, "out of memory");
	int rc = seq_priors(c, lent, &o.prior_df, err);
	free(lent);
	if (rc < 0)
		return -1;
	if (o.prior_df && st_seq_design_init_horizon(&c->seq_base, &o, horizon, n, err) < 0)
		return -1;
	for (size_t i = 0; i < c->n_queries; i++) {
		struct rpt_query *q = &c->queries[i];
		if (replay_query(c, q, err) < 0)
			return -1;
		if (q->verdict == RPT_WRONG_RESULT || q->data_differs || q->bound ||
		    !q->old.n_used || !q->new.n_used)
			continue; /* decided by the fingerprints or a timeout, or nothing to test */
		q->verdict = verdict_of[q->seq.decision];
		q->why = q->seq.decision == ST_SEQ_UNDECIDED
			     ? "undecided by the sequential rule (more pairs needed)"
			     : NULL;
	}
	recount(c);
	return 0;
}

static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* How many queries borrowed a baseline's variance. */
static size_t n_borrowing(const struct rpt_compare *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n_queries; i++)
		n += c->queries[i].seq_prior.df > 0;
	return n;
}

/* {"baseline", "df", "queries", "lent"} or null when no query borrowed. */
static json_t *borrowed_json(const struct rpt_compare *c)
{
	if (!c->seq_base.opts.prior_df)
		return json_null();
	return json_pack(
	    "{s:s, s:I, s:I, s:s}", "baseline", c->baseline.path ? c->baseline.path : "", "df",
	    (json_int_t)c->seq_base.opts.prior_df, "queries", (json_int_t)n_borrowing(c), "lent",
	    c->paired ? "twice the restart variance" : "the restart variance");
}

/* {"queries", "ratio", "p", "alpha", "refused"} of the lend check, or null without a baseline. */
static json_t *lend_json(const struct rpt_compare *c)
{
	if (!c->baseline.res)
		return json_null();
	return json_pack("{s:I, s:o, s:o, s:f, s:b}", "queries", (json_int_t)c->lend.queries,
			 "ratio", num(c->lend.ratio), "p", num(c->lend.p), "alpha", RPT_LEND_ALPHA,
			 "refused", c->lend_refused);
}

json_t *rpt_seq_query_json(const struct rpt_compare *c, const struct rpt_query *q)
{
	const struct st_seq_state *s = &q->seq;
	if (!c->opts.sequential)
		return json_null();
	return json_pack("{s:s, s:o, s:I, s:o, s:o, s:o, s:[o, o], s:o, s:I}", "decision",
			 st_seq_decision_name(s->decision), "decided_after_pairs",
			 s->decided_at ? json_integer((json_int_t)s->decided_at) : json_null(),
			 "pairs", (json_int_t)q->n_pairs, "ratio", num(s->look.ratio), "t",
			 num(s->look.t), "t_bound", num(s->look.t_bound), "rci", num(s->look.ci_lo),
			 num(s->look.ci_hi), "df", num(s->look.df), "borrowed_df",
			 (json_int_t)q->seq_prior.df);
}

void rpt_seq_json(json_t *report, const struct rpt_compare *c)
{
	json_t *pairing = json_pack("{s:b, s:s}", "paired", c->paired, "why", c->pairing_why);
	if (pairing && c->sbs) /* only for the files of run --side-by-side */
		json_object_set_new(pairing, "side_by_side", json_true());
	json_object_set_new(report, "pairing", pairing);
	if (!c->opts.sequential) {
		json_object_set_new(report, "sequential", json_null());
		return;
	}
	const struct st_seq_opts *o = &c->seq.opts;
	json_t *h = json_array();
	for (size_t k = 1; k <= c->seq.looks; k++)
		json_array_append_new(h, json_integer((json_int_t)c->seq.horizon[k]));
	json_object_set_new(
	    report, "sequential",
	    json_pack("{s:s, s:I, s:I, s:o, s:I, s:f, s:f, s:s, s:s, s:s, s:o, s:o}", "spending",
		      st_seq_spending_name(o->spending), "first_look", (json_int_t)o->first_look,
		      "max_pairs", (json_int_t)o->max_pairs,
		      "horizon", h, "queries", (json_int_t)o->m, "alpha_per_query",
		      c->seq.alpha_query, "margin", o->min_effect, "alternative",
		      o->alt == ST_GREATER ? "greater" : "two-sided", "pairing",
		      o->pairing == ST_SEQ_PAIRED ? "paired" : "unpaired", "why",
		      c->opts.seq_auto ? "recorded" : "requested", "borrowed_variance",
		      borrowed_json(c), "baseline_check", lend_json(c)));
}

/* "over 10 pairs", or for a horizon that changed between looks "over a horizon re-estimated
 * after each pair (K 8, then 12)": its first and last K. */
static void horizon_text(char *buf, size_t size, const struct st_seq_design *d)
{
	size_t lo = d->opts.max_pairs, hi = lo;
	for (size_t k = 1; k <= d->looks; k++) {
		lo = d->horizon[k] < lo ? d->horizon[k] : lo;
		hi = d->horizon[k] > hi ? d->horizon[k] : hi;
	}
	if (lo == hi || d->looks == 0)
		snprintf(buf, size, "over %zu pairs", d->opts.max_pairs);
	else
		snprintf(buf, size, "over a horizon re-estimated after each pair (K %zu, then %zu)",
			 d->horizon[1], d->horizon[d->looks]);
}

void rpt_lend_text(char *buf, size_t size, const struct rpt_compare *c, const char *times)
{
	if (!c->lend.queries) {
		snprintf(buf, size, "not checked: no query has 2 pairs");
		return;
	}
	snprintf(buf, size,
		 "tonight's variance %s%.3g the lent one over %zu quer%s (Fisher's combination of "
		 "one-sided F tests, p %.3g)",
		 times, c->lend.ratio, c->lend.queries, c->lend.queries == 1 ? "y" : "ies",
		 c->lend.p);
}

/* The "variance:" line of --baseline: borrowed (and checked, or why not), or refused. */
static void lend_write(FILE *f, const struct rpt_compare *c, const char *bullet)
{
	const char *base = c->baseline.path ? c->baseline.path : "";
	char check[192];
	if (!c->baseline.res)
		return;
	rpt_lend_text(check, sizeof(check), c, "x");
	if (c->lend_refused)
		fprintf(f,
			"%svariance: not borrowed from the baseline '%s': %s < %g; each query "
			"uses its own pairs only\n",
			bullet, base, check, RPT_LEND_ALPHA);
	else if (c->seq_base.opts.prior_df)
		fprintf(
		    f,
		    "%svariance: %zu of %zu queries borrow the restart variance of the baseline "
		    "'%s'%s on %zu df (the fewest it has of them), pooled with their pairs'; %s\n",
		    bullet, n_borrowing(c), c->n_queries, base,
		    c->paired ? " (twice it, for a pair's log ratio)" : "",
		    c->seq_base.opts.prior_df, check);
}

void rpt_seq_write(FILE *f, const struct rpt_compare *c, int md)
{
	const char *bullet = md ? "- " : "", *sub = md ? "  - " : "  ";
	fprintf(f, "%spairing: %s (%s)\n", bullet,
		c->paired ? "paired t on log ratios of restart i old / restart i new" : "unpaired",
		c->pairing_why);
	if (!c->opts.sequential)
		return;
	const struct st_seq_opts *o = &c->seq.opts;
	char over[128];
	horizon_text(over, sizeof(over), &c->seq);
	if (o->first_look != 2) /* side by side: the first look after pair 3 */
		snprintf(over + strlen(over), sizeof(over) - strlen(over),
			 ", first look after pair %zu", o->first_look);
	fprintf(f,
		"%ssequential: group-sequential t, %s spending %s, alpha %g / %zu "
		"per query %s, margin %g%%, repeated CIs; pairs replayed in file order\n",
		bullet, o->spending == ST_SPEND_OBF ? "O'Brien-Fleming-type" : "Pocock-type", over,
		o->alpha, o->m,
		o->alt == ST_GREATER ? "for regressions and again for improvements"
				     : "over both directions",
		100 * o->min_effect);
	lend_write(f, c, bullet);
	if (c->opts.seq_auto)
		fprintf(f,
			"%sverdicts: the sequential rule's, by default: the files are the variants of "
			"one run --budget, which stopped by that rule (a fixed-sample test on them "
			"would not keep alpha; --fixed-sample forces it)\n",
			bullet);
	for (size_t i = 0; i < c->n_queries; i++) {
		const struct rpt_query *q = &c->queries[i];
		const struct st_seq_state *s = &q->seq;
		if (s->decided_at)
			fprintf(f, "%s%s %s after pair %zu of %zu (ratio %.4f, RCI %.4f-%.4f)\n",
				sub, q->id, st_seq_decision_name(s->decision), s->decided_at,
				q->n_pairs, s->look.ratio, s->look.ci_lo, s->look.ci_hi);
		else if (q->n_pairs < o->first_look)
			fprintf(f, "%s%s undecided: %zu pair%s, the first look is after pair %zu\n",
				sub, q->id, q->n_pairs, q->n_pairs == 1 ? "" : "s", o->first_look);
		else
			fprintf(f, "%s%s undecided after %zu pairs\n", sub, q->id, q->n_pairs);
	}
}
