/* SPDX-License-Identifier: MIT */
/* The run protocol (docs/run.md): targets, the fixed loop, the results (parts in run_*.c). */
#include "runner/run_budget.h"
#include "runner/run_int.h"
#include "runner/run_sbs.h"

json_t *run_plan_to_json(const struct run_plan *p, const char *variant_name,
			 const char *variant_spec)
{
	json_t *o = json_object(), *qs = json_array();
	/* With --budget: the pairs so far (raised before each pair) and the upper bounds, so that
	 * the data always agrees with the plan as the reader checks. */
	int budget = run_budget_on(p);
	json_object_set_new(o, "restarts", json_integer(budget ? 1 : p->restarts));
	json_object_set_new(o, "warmup", json_integer(budget ? p->warmup_max : p->warmup));
	json_object_set_new(o, "runs", json_integer(budget ? p->runs_max : p->runs));
	for (int i = 0; i < p->n_queries; i++) {
		char id[8];
		snprintf(id, sizeof(id), "Q%d", p->queries[i]);
		json_array_append_new(qs, json_string(id));
	}
	json_object_set_new(o, "queries", qs);
	json_object_set_new(o, "query_order", json_string(p->shuffled ? "shuffled" : "fixed"));
	json_object_set_new(o, "seed",
			    p->seed_given ? json_integer((json_int_t)p->seed) : json_null());
	json_object_set_new(o, "variant", variant_name ? json_string(variant_name) : json_null());
	json_object_set_new(o, "variant_spec",
			    variant_spec ? json_string(variant_spec) : json_null());
	json_object_set_new(o, "query_timeout_s",
			    p->query_timeout > 0 ? json_real(p->query_timeout) : json_null());
	json_object_set_new(o, "max_crashes", json_integer(p->max_crashes));
	json_object_set_new(o, "steady_test", json_string("mann-kendall"));
	json_object_set_new(o, "steady_alpha", json_real(p->steady_alpha));
	json_object_set_new(o, "steady_correction", json_string("holm"));
	json_object_set_new(o, "variant_order",
			    json_string(p->seed_given			      ? "shuffled"
					: p->variant_order == RUN_VORDER_ABBA ? "abba"
									      : "fixed"));
	json_object_set_new(o, "parameters", json_string("tpch-validation"));
	if (p->profile)
		json_object_set(o, "profile", p->profile);
	if (p->instructions) {
		json_object_set_new(o, "instructions", json_true());
		json_object_set_new(o, "instructions_tol", json_real(p->instr_tol));
	}
	if (p->no_analyze)
		json_object_set_new(o, "analyze", json_false());
	if (p->optimizer_trace)
		json_object_set_new(o, "optimizer_trace", json_true());
	if (p->side_by_side) /* run_sbs_open adds the clones and pools */
		json_object_set_new(o, "side_by_side",
				    json_pack("{s:s}", "order", run_sbs_order_name(p->seed_given)));
	if (budget) {
		json_object_set_new(o, "budget_s", json_real(run_budget_total_s(p)));
		json_object_set_new(o, "detect", json_real(p->detect));
		json_object_set_new(o, "alpha", json_real(p->alpha));
		json_object_set_new(o, "warmup_min", json_integer(p->warmup_min));
		json_object_set_new(o, "warmup_max", json_integer(p->warmup_max));
		json_object_set_new(o, "runs_min", json_integer(p->runs_min));
		json_object_set_new(o, "runs_max", json_integer(p->runs_max));
		json_object_set_new(o, "keep_all", json_boolean(p->keep_all));
		json_object_set_new(o, "min_restarts", json_integer(p->min_restarts));
		if (p->costs_from)
			json_object_set_new(o, "costs_from", json_string(p->costs_from));
		json_object_set_new(o, "warmup_rule", json_string(p->instructions ? "instructions-steady"
									      : "window-means"));
	}
	return o;
}

/* A new result for a target, or the checks of a resumed one. */
static int prepare_result(struct run_state *c, struct run_target_state *t, const char *variant_spec,
			  struct errbuf *err)
{
	struct res_file *res = t->t->res;
	if (!res) {
		res = res_file_new();
		if (!res)
			return errbuf_set(err, "out of memory");
		t->t->res = res;
		res_set_string(&res->label, c->plan->label);
		res_set_section(&res->plan, run_plan_to_json(c->plan, t->t->name, variant_spec));
		json_t *pin = c->pin ? pin_ctx_to_json(c->pin) : NULL;
		json_t *topo = pin ? json_object_get(pin, "topology") : NULL;
		res_set_section(&res->host, run_host_json(json_string_value(topo)));
		if (!pin) {
			pin = json_object();
			json_object_set_new(pin, "placement", json_null());
		}
		res_set_section(&res->pinning, pin);
		json_object_set_new(res->dataset, "scale_factor", json_real(c->plan->scale));
	} else {
		res_set_string(&res->finished_at, NULL);
	}
	for (int i = 0; i < c->plan->n_queries; i++) {
		int num = c->plan->queries[i];
		char id[8], sha[65];
		snprintf(id, sizeof(id), "Q%d", num);
		qry_sha256(sha, &c->queries[num]);
		struct res_query *q = res_file_find_query(res, id);
		if (q && q->sql_sha256 && strcmp(q->sql_sha256, sha) != 0)
			return errbuf_set(err, "'%s': %s was measured with another statement text",
					  t->t->out_path, id);
		if (!q && !res_file_add_query(res, id, sha))
			return errbuf_set(err, "out of memory");
	}
	if (run_rf_prepare(c, t, err) < 0)
		return -1;
	return run_streams_prepare(c, t, err);
}

/* --redo-disturbed N: up to N disturbed restarts (target by target, in order) measured again;
 * their entries move to the top-level "redone" list first (run_interf_set_aside). */
static int redo_disturbed(struct run_state *c, struct errbuf *err)
{
	int left = c->plan->redo_disturbed, rc = 0;
	for (int i = 0; i < c->n_targets && left > 0 && rc == 0; i++) {
		struct run_target_state *t = &c->ts[i];
		for (int r = 0; r < c->plan->restarts && left > 0 && rc == 0; r++) {
			char why[160];
			if (!run_interf_disturbed(t->t->res, r, why, sizeof(why)))
				continue;
			if (run_interf_set_aside(t->t->res, r) < 0)
				return errbuf_set(err, "out of memory");
			run_event(c, "%s%smeasuring restart %d again (it was disturbed: %s)",
				  t->t->name ? t->t->name : "", t->t->name ? ": " : "", r + 1, why);
			left--;
			rc = run_restart(c, t, r, err);
		}
	}
	return rc;
}

/* Each target: its result prepared (new, or the checks of a resumed one) and its managed server
 * opened, locked, and stopped when it was running. */
static int open_targets(struct run_state *c, struct run_target *targets, struct errbuf *err)
{
	if (c->plan->side_by_side) { /* each on its clone of the instance the targets name */
		for (int i = 0; i < c->n_targets; i++) {
			c->ts[i].t = &targets[i];
			if (prepare_result(c, &c->ts[i], targets[i].spec, err) < 0)
				return -1;
		}
		return run_sbs_open(c, targets, err);
	}
	for (int i = 0; i < c->n_targets; i++) {
		struct run_target_state *t = &c->ts[i];
		t->t = &targets[i];
		if (prepare_result(c, t, targets[i].spec, err) < 0)
			return -1;
		if (srv_open(&t->srv, targets[i].opts, err) < 0)
			return -1;
		if (srv_is_external(t->srv))
			return errbuf_set(err, "run needs a server it manages (restarts are the "
					       "method): give --datadir, not --host/--socket");
		/* the lock first: a busy instance is refused before anything is said about it */
		if (srv_lock(t->srv, err) < 0)
			return RUN_E_SERVER;
		if (srv_is_alive(t->srv)) {
			run_event(c, "stopping the server already running in '%s'",
				  srv_instdir(t->srv));
			if (srv_stop(t->srv, err) < 0)
				return RUN_E_SERVER; /* e.g. the instance is in use */
		}
		int rc = run_rf_snapshot_open(c, t, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Server starts continue their numbering over a resumed file. */
static void continue_start_seq(struct run_state *c)
{
	for (int i = 0; i < c->n_targets; i++) {
		const struct res_file *res = c->ts[i].t->res;
		for (size_t q = 0; q < res->n_queries; q++)
			for (size_t k = 0; k < res->queries[q].n_restarts; k++) {
				json_t *x = res->queries[q].restarts[k].extra;
				json_t *v = x ? json_object_get(x, "server_start") : NULL;
				if (json_is_integer(v) && json_integer_value(v) >= c->start_seq)
					c->start_seq = (int)json_integer_value(v) + 1;
			}
	}
}

/* ETA bookkeeping: every pending execution and server start. */
static void count_pending(struct run_state *c)
{
	const struct run_plan *plan = c->plan;
	for (int i = 0; i < c->n_targets; i++)
		for (int r = 0; r < plan->restarts; r++) {
			if (run_pending(c, &c->ts[i], r))
				c->rem_starts++;
			for (int k = 0; k < plan->n_queries; k++) {
				int num = plan->queries[k];
				if (!run_has_restart(res_file_find_query_num(c->ts[i].t->res, num),
						     r))
					c->rem_execs[num] +=
					    (uint64_t)(plan->warmup + plan->runs +
						       (plan->warmup == 0 && plan->side_by_side));
			}
		}
}

/* The fixed protocol: restart after restart, the targets of each in the variant order. */
static int fixed_loop(struct run_state *c, int *vorder, struct errbuf *err)
{
	int rc = 0;
	for (int r = 0; r < c->plan->restarts && rc == 0; r++) {
		run_variant_order(c->plan, r, c->n_targets, vorder);
		if (c->sbs && (run_pending(c, &c->ts[0], r) || run_pending(c, &c->ts[1], r))) {
			rc = run_sbs_restart(c, r, err);
			continue;
		}
		for (int k = 0; k < c->n_targets && rc == 0 && !c->sbs; k++) {
			struct run_target_state *t = &c->ts[vorder[k]];
			if (run_pending(c, t, r) == 0)
				continue;
			rc = run_restart(c, t, r, err);
		}
	}
	return rc;
}

/* Every restart: --budget's pairs, or the fixed protocol then --redo-disturbed. */
static int measure_all(struct run_state *c, struct errbuf *err)
{
	const struct run_plan *plan = c->plan;
	int *vorder = calloc((size_t)c->n_targets, sizeof(int));
	if (!vorder)
		return errbuf_set(err, "out of memory");
	int rc = run_budget_on(plan) ? run_budget_loop(c, vorder, err) : fixed_loop(c, vorder, err);
	free(vorder);
	if (rc == 0 && plan->redo_disturbed > 0 && !run_budget_on(plan) && !c->sbs)
		rc = redo_disturbed(c, err);
	return rc;
}

/* --costs-from: each query's mean execution there counts as one execution seen, so the first
 * restart's pacing and the owed-restarts note have a cost from the start. */
static void seed_costs(struct run_state *c)
{
	for (int q = 1; q <= RUN_MAX_QUERIES; q++)
		if (c->plan->prior_ms[q] > 0 && c->seen_n[q] == 0) {
			c->seen_ns[q] = (uint64_t)(c->plan->prior_ms[q] * 1e6);
			c->seen_n[q] = 1;
		}
}

/* Each result finished and written, except one complete before this call (left as it is). */
static int finish_results(struct run_state *c, struct errbuf *err)
{
	for (int i = 0; i < c->n_targets; i++) {
		if (c->ts[i].starts == 0 && c->ts[i].t->res->finished_at)
			continue;
		res_file_finish(c->ts[i].t->res);
		if (run_checkpoint(&c->ts[i], err) < 0)
			return -1;
	}
	return 0;
}

int run_execute(const struct run_plan *plan, struct run_target *targets, int n_targets,
		struct pin_ctx *pin, const struct run_hooks *hooks, struct errbuf *err)
{
	struct run_state c;
	int rc = -1;
	memset(&c, 0, sizeof(c));
	c.plan = plan;
	c.pin = pin;
	c.hooks = hooks;
	c.n_targets = n_targets;
	c.t0 = util_now_ns();
	c.prog.restarts = run_budget_on(plan) ? 0 : plan->restarts;
	c.ts = calloc((size_t)n_targets, sizeof(*c.ts));
	if (!c.ts)
		return errbuf_set(err, "out of memory");
	struct qry_opts qo = {.sf = plan->scale, .seeded = 0, .seed = 0};
	for (int i = 0; i < plan->n_queries; i++)
		if (qry_build(&c.queries[plan->queries[i]], plan->queries[i], &qo, err) < 0)
			goto out;
	if ((rc = run_rf_stage(&c, err)) < 0 || (rc = open_targets(&c, targets, err)) < 0)
		goto out;
	continue_start_seq(&c);
	run_probes_start(&c);
	count_pending(&c);
	seed_costs(&c);
	rc = measure_all(&c, err);
	if (rc == 0)
		rc = finish_results(&c, err);
out:
	for (int i = 0; i < n_targets; i++)
		run_session_close(&c.ts[i].sess);
	run_sbs_close(&c); /* side by side: both servers stopped, the clones removed */
	rc = run_rf_snapshot_close(&c, rc, err); /* --refresh: the data as it was */
	run_probes_stop(&c);
	run_rf_release(&c);
	for (int i = 0; i < n_targets; i++)
		srv_free(c.ts[i].srv);
	for (int q = 1; q <= RUN_MAX_QUERIES; q++)
		qry_release(&c.queries[q]);
	free(c.ts);
	return rc;
}
