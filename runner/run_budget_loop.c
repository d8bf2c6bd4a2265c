/* SPDX-License-Identifier: MIT */
/* --budget: pairs of restarts until every query is decided or the budget is spent. */
#include "runner/run_int.h"

/* Where a budget run stands, for its record: the pairs made, the estimate of the next, whether
 * the last was paced, and the elapsed time at the end of each pair (a JSON array, shared by the
 * targets' records). */
struct budget_log {
	int pairs;
	double next_cost_s;
	int last_paced;
	json_t *pair_ends;
};

/* The outcome of --budget in the result: per query its decision (query member "budget"), and the
 * run's (top-level member "budget"). */
static void budget_record(struct run_state *c, const struct run_qnext *next,
			  const struct budget_log *log, const char *stop_reason)
{
	int pairs = log->pairs;
	const struct run_plan *p = c->plan;
	for (int i = 0; i < c->n_targets; i++) {
		struct res_file *res = c->ts[i].t->res;
		for (int k = 0; k < p->n_queries; k++) {
			const struct run_qnext *x = &next[k];
			struct res_query *q = res_file_find_query_num(res, p->queries[k]);
			json_t *o = json_object();
			json_object_set_new(o, "decision",
					    json_string(run_decision_name(x->decision)));
			json_object_set_new(o, "decided_after_pairs",
					    x->decided_after ? json_integer(x->decided_after)
							     : json_null());
			json_object_set_new(o, "ratio",
					    isfinite(x->ratio) ? json_real(x->ratio) : json_null());
			json_object_set_new(o, "ci_lo",
					    isfinite(x->ci_lo) ? json_real(x->ci_lo) : json_null());
			json_object_set_new(o, "ci_hi",
					    isfinite(x->ci_hi) ? json_real(x->ci_hi) : json_null());
			if (p->instructions && x->decision != RUN_UNDECIDED)
				json_object_set_new(
				    o, "decided_on", json_string(x->on_instr ? "instructions" : "time"));
			if (!q->extra)
				q->extra = json_object();
			json_object_set_new(q->extra, "budget", o);
		}
		json_t *b = json_object();
		json_object_set_new(b, "pairs", json_integer(pairs));
		json_object_set_new(b, "elapsed_s",
				    json_real((double)(util_now_ns() - c->t0) / 1e9));
		json_object_set_new(b, "budget_s", json_real(p->budget_s));
		json_object_set_new(b, "next_pair_estimate_s",
				    isfinite(log->next_cost_s) ? json_real(log->next_cost_s)
							       : json_null());
		json_object_set_new(b, "server_start_stop_s", json_real(c->ts[i].startstop_s));
		json_object_set_new(b, "stop_reason",
				    stop_reason ? json_string(stop_reason) : json_null());
		if (log->last_paced)
			json_object_set_new(b, "last_pair_paced", json_true());
		if (log->pair_ends)
			json_object_set(b, "pair_elapsed_s", log->pair_ends);
		if (!res->extra)
			res->extra = json_object();
		json_object_set_new(res->extra, "budget", b);
		json_object_set_new(res->plan, "restarts", json_integer(pairs > 0 ? pairs : 1));
	}
}

/* Two variants: the horizon of the sequential test, as it stands after each look (plan.horizon,
 * K_k for pair k; plan.max_pairs the latest). */
static void horizon_record(struct run_state *c, const struct run_budget_seq *seq)
{
	for (int t = 0; t < c->n_targets; t++) {
		json_t *plan = c->ts[t].t->res->plan, *h = json_array();
		for (size_t k = 0; k < seq->n_horizon; k++)
			json_array_append_new(h, json_integer((json_int_t)seq->horizon[k]));
		json_object_set_new(plan, "horizon", h);
		json_object_set_new(plan, "max_pairs",
				    json_integer((json_int_t)seq->horizon[seq->n_horizon - 1]));
	}
}

/* Why the budget loop stops after `pairs` pairs, or NULL to go on (run_budget_stop); sets
 * c->paced_pair and says so when the next pair is the paced last one. */
static const char *budget_stop(struct run_state *c, const struct run_budget_seq *seq, int pairs,
			       int undecided, double elapsed, const struct run_pair_cost *cost)
{
	struct run_budget_state st = {
	    .pairs = pairs,
	    .min_pairs = c->plan->min_restarts,
	    .undecided = undecided,
	    .horizon = seq->n_horizon ? seq->horizon[seq->n_horizon - 1] : 0,
	    .elapsed_s = elapsed,
	    .budget_s = c->plan->budget_s,
	    .full_s = cost->full_s,
	    .least_s = cost->least_s,
	};
	const char *why = run_budget_stop(&st, &c->paced_pair);
	if (c->paced_pair)
		run_event(
		    c,
		    "budget: a pair as planned (%.0f s) would not fit in the %.0f s left; the last "
		    "pair is paced to fit (at least %.0f s)",
		    cost->full_s, c->plan->budget_s - elapsed, cost->least_s);
	return why;
}

/* --budget: pairs of restarts (one restart per target) while a query is undecided and the next
 * pair, estimated from the pairs so far, ends by the budget. The first --min-restarts pairs
 * always run. */
int run_budget_loop(struct run_state *c, int *vorder, struct errbuf *err)
{
	const struct run_plan *p = c->plan;
	struct run_qnext next[RUN_MAX_QUERIES];
	struct res_file *res[64];
	struct run_budget_seq seq;
	struct run_pair_cost cost = {NAN, NAN};
	struct budget_log log = {0, NAN, 0, json_array()};
	double ss[64];
	const char *reason = NULL;
	int pairs = 0, rc = 0;
	const char *rule = run_budget_rule_name(p, c->n_targets);
	if (c->n_targets > 64)
		return errbuf_set(err, "at most 64 variants with --budget");
	memset(&seq, 0, sizeof(seq));
	seq.budget_s = p->budget_s;
	seq.min_pairs = p->min_restarts;
	for (int i = 0; i < p->n_queries; i++)
		c->qpos[p->queries[i]] = i;
	for (int t = 0; t < c->n_targets; t++) {
		json_t *plan = c->ts[t].t->res->plan;
		json_object_set_new(plan, "decision_rule", json_string(rule));
		if (c->n_targets == 2) /* the pair after which the design first looks */
			json_object_set_new(plan, "first_look",
					    json_integer(p->side_by_side ? RUN_SBS_FIRST_LOOK : 2));
	}
	run_budget_next_init(next, p);
	c->next = next;
	if (p->costs_from)
		run_warn_owed_over(c, run_restarts_owed(c, 0));
	for (;; pairs++) {
		if (pairs > 0) {
			for (int t = 0; t < c->n_targets; t++) {
				res[t] = c->ts[t].t->res;
				ss[t] = c->ts[t].startstop_s;
			}
			double elapsed = (double)(util_now_ns() - c->t0) / 1e9;
			seq.elapsed_s = elapsed;
			double extra = c->over_n ? (double)c->over_ns / 1e9 / (double)c->over_n : 0;
			int undecided =
			    run_budget_next(next, p, res, c->n_targets, pairs, ss, extra,
					    c->n_targets == 2 ? &seq : NULL, &cost, err);
			if (undecided < 0) {
				json_decref(log.pair_ends);
				return -1;
			}
			if (c->n_targets == 2)
				horizon_record(c, &seq);
			log.pairs = pairs;
			log.next_cost_s = cost.full_s;
			budget_record(c, next, &log, NULL);
			if ((reason = budget_stop(c, &seq, pairs, undecided, elapsed, &cost)))
				break;
			log.last_paced = c->paced_pair;
		}
		run_variant_order(p, pairs, c->n_targets, vorder);
		for (int t = 0; t < c->n_targets; t++)
			json_object_set_new(c->ts[t].t->res->plan, "restarts",
					    json_integer(pairs + 1));
		for (int k = 0; k < c->n_targets && rc == 0 && !c->sbs; k++) {
			c->pair_pos = k;
			rc = run_restart(c, &c->ts[vorder[k]], pairs, err);
		}
		if (c->sbs) /* both servers at once, the executions alternated */
			rc = run_sbs_restart(c, pairs, err);
		c->pace_ns = 0;
		if (rc < 0) {
			budget_record(c, next, &log, "failed");
			json_decref(log.pair_ends);
			c->next = NULL;
			c->paced_pair = 0;
			return rc;
		}
		if (log.pair_ends)
			json_array_append_new(log.pair_ends,
					      json_real((double)(util_now_ns() - c->t0) / 1e9));
	}
	budget_record(c, next, &log, reason);
	json_decref(log.pair_ends);
	c->paced_pair = 0;
	run_event(c, "budget: %d %s%s, %s (%.0f s of %.0f s)", pairs,
		  c->n_targets == 1 ? "restart" : "pair", pairs == 1 ? "" : "s",
		  strcmp(reason, "budget") == 0	       ? "the next would not fit"
		  : strcmp(reason, "all-decided") == 0 ? "every query decided"
						       : "the most pairs",
		  (double)(util_now_ns() - c->t0) / 1e9, p->budget_s);
	c->next = NULL;
	return 0;
}
