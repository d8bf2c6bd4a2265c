/* SPDX-License-Identifier: MIT */
/* One restart of a target: each query measured, paced and recorded (docs/run.md). */
#include "result/res_counts.h"
#include "runner/run_budget.h"
#include "runner/run_int.h"

struct query_execs run_shape_of(const struct run_state *c, int num)
{
	const struct run_plan *p = c->plan;
	struct query_execs q = {p->warmup, p->warmup, p->runs, p->runs, 0};
	if (c->next) {
		const struct run_qnext *x = &c->next[c->qpos[num]];
		int rmin = p->runs_min < x->runs ? p->runs_min : x->runs;
		/* --instructions: the counts end the warm-up (instr_steady), not the times */
		q = (struct query_execs){p->warmup_min, p->warmup_max, x->runs, rmin,
					 p->instructions ? 0 : x->warmup_tol};
	}
	return q;
}

/* --min-restarts pacing: would another execution of the current query (as long as its last one,
 * last_ms) and `runs` more after it end after the query's deadline, pace_t0 +
 * pace_ns pace_cum[pace_i]? */
int run_past_pace(const struct run_state *c, double last_ms, int runs)
{
	if (!c->pace_ns)
		return 0;
	double now = (double)(util_now_ns() - c->pace_t0) / 1e9;
	double deadline = (double)c->pace_ns / 1e9 * c->pace_cum[c->pace_i];
	return run_warmup_over_pace(now, last_ms / 1e3, runs, deadline);
}

/* What query num is expected to take in this restart (ms): its mean execution so far times its
 * planned --warmup-min + runs; 0 before its first. */
static double pace_cost(const struct run_state *c, int num)
{
	struct query_execs sh = run_shape_of(c, num);
	return run_mean_exec_ms(c, num) * (sh.wmin + sh.runs);
}

/* Restarts owed from restart r of the current target on, r included: those --min-restarts
 * still owes, or in the paced last pair the rest of the pair. */
int run_restarts_owed(const struct run_state *c, int r)
{
	int owed = (c->plan->min_restarts - r) * c->n_targets - c->pair_pos;
	int pair = c->paced_pair ? c->n_targets - c->pair_pos : 0;
	if (c->sbs) /* side by side: one restart of both servers a pair */
		return (owed > pair ? owed : pair) / c->n_targets;
	return owed > pair ? owed : pair;
}

/* When the `left` restarts still owed cannot fit even at their irreducible cost (per restart
 * the longest start + stop, and per query measured its --warmup-min + --runs-min executions at
 * its mean so far, --costs-from's before the first), says once where the run will end: after
 * an owed restart, or before the first when --costs-from gave the costs. */
void run_warn_owed_over(struct run_state *c, int left)
{
	const struct run_plan *p = c->plan;
	if (left < 1 || c->owed_warned)
		return;
	double startstop = p->prior_fixed_s, elapsed = (double)(util_now_ns() - c->t0) / 1e9;
	struct run_qcost least[RUN_MAX_QUERIES];
	for (int t = 0; t < c->n_targets; t++)
		startstop = fmax(startstop, c->ts[t].startstop_s);
	for (int i = 0; i < p->n_queries; i++) {
		struct query_execs sh = run_shape_of(c, p->queries[i]);
		least[i] = (struct run_qcost){run_mean_exec_ms(c, p->queries[i]) / 1e3, sh.wmin,
					      sh.rmin, c->next[i].active};
	}
	double per = run_budget_restart_cost(startstop, least, (size_t)p->n_queries);
	if (run_budget_fits(elapsed, left * per, run_budget_total_s(p) * 1.05))
		return;
	c->owed_warned = 1;
	run_event(c,
		  "the %d restart%s --min-restarts still owes need%s at least %.0f s more: the run "
		  "will end near %.0f s of its %.0f s budget (fewer --queries, a lower "
		  "--warmup-min or --runs-min, or a larger --budget would fit)",
		  left, left == 1 ? "" : "s", left == 1 ? "s" : "", left * per,
		  elapsed + left * per, run_budget_total_s(p));
}

/* Starts the pacing of restart r when it is owed (docs/run.md, "--min-restarts", "The last
 * pair"): an equal share of the budget left among the restarts still owed, this one included,
 * split among its queries (order: the restart's query order) by their expected cost. */
void run_pace_start(struct run_state *c, int r, const int *order)
{
	const struct run_plan *p = c->plan;
	int owed = run_restarts_owed(c, r), n = 0;
	double cost[RUN_MAX_QUERIES];
	c->pace_ns = 0;
	if (!c->next || owed < 1)
		return;
	for (int i = 0; i < p->n_queries; i++)
		if (c->next[c->qpos[order[i]]].active)
			cost[n++] = pace_cost(c, order[i]);
	if (n < 1)
		return;
	run_pace_shares(cost, n, c->pace_cum);
	double left = run_budget_left_s(p, (double)(util_now_ns() - c->t0) / 1e9);
	c->pace_t0 = util_now_ns();
	c->pace_ns = left > 0 ? (uint64_t)(left / owed * 1e9) : 1;
	c->pace_i = 0;
}

/* The measured executions, each capped by an owed restart's pacing after --runs-min. */
static void measured_runs(struct run_state *c, struct run_side *s, int num,
			  const struct query_execs *sh)
{
	for (int i = 0; i < sh->runs && s->st == RUN_EXEC_OK; i++) {
		if (i >= sh->rmin && i > 0 && run_past_pace(c, s->meas[s->nm - 1], 0)) {
			json_object_set_new(s->rr.extra, "runs_capped", json_true());
			break;
		}
		/* no warm-up (--warmup 0): the first measured execution fingerprints the result */
		unsigned flags = i == 0 && s->nw == 0 ? RUN_EXEC_HASH : 0;
		run_side_exec(c, s, num, flags, RUN_SLOT_MEAS);
	}
}

/* Measures one query in one restart into s: the warm-up, ended by its rule (--budget), the
 * counts (--instructions), an owed restart's pacing or its count; the measured runs; the
 * plan and the statement after. */
static void measure(struct run_state *c, struct run_side *s, int num)
{
	const struct qry *q = &c->queries[num];
	const struct query_execs sh = run_shape_of(c, num);
	int steady = 0, capped = 0;

	run_side_pre(s, q);
	while ((int)s->nw < sh.wmax && s->st == RUN_EXEC_OK) {
		if ((int)s->nw >= sh.wmin && sh.tol > 0 &&
		    (steady = run_warmup_steady(s->warm, s->nw, sh.tol)))
			break;
		if ((!c->next || (int)s->nw >= sh.wmin) && run_side_steady(c, s))
			break;
		if ((int)s->nw >= sh.wmin && s->nw > 0 &&
		    run_past_pace(c, s->warm[s->nw - 1], sh.rmin)) {
			capped = 1;
			break;
		}
		run_side_exec(c, s, num, s->nw == 0 ? RUN_EXEC_HASH : 0, RUN_SLOT_WARM);
	}
	if (s->st == RUN_EXEC_OK && sh.tol > 0) {
		steady = steady || run_warmup_steady(s->warm, s->nw, sh.tol);
		json_object_set_new(s->rr.extra, "warmup_steady", json_boolean(steady));
		json_object_set_new(s->rr.extra, "warmup_tol", json_real(sh.tol));
		if (capped)
			json_object_set_new(s->rr.extra, "warmup_capped", json_true());
	}
	measured_runs(c, s, num, &sh);
	run_side_post(c, s, q, num);
}

/* What measure() took beyond the executions it recorded, added to c->over_ns per execution. */
static void over_add(struct run_state *c, uint64_t wall_ns, const struct run_side *s)
{
	double exec_ms = 0;
	for (size_t i = 0; i < s->nw; i++)
		exec_ms += s->warm[i];
	for (size_t i = 0; i < s->nm; i++)
		exec_ms += s->meas[i];
	double over = (double)wall_ns - exec_ms * 1e6;
	if (s->nw + s->nm == 0 || !(over > 0))
		return;
	c->over_ns += (uint64_t)over;
	c->over_n += s->nw + s->nm;
}

/* One query in one restart of target t: measure, record, checkpoint; handles crashes.
 * Returns 0, -1 or RUN_E_SERVER. */
static int run_query(struct run_state *c, struct run_target_state *t, int r, int num, int pos,
		     struct errbuf *err)
{
	const struct query_execs sh = run_shape_of(c, num);
	struct run_side s;
	int rc;
	if (run_side_init(&s, t, r, num, &sh, sh.wmax + sh.runs) < 0) {
		rc = errbuf_set(err, "out of memory");
		goto out;
	}
	run_side_begin(c, &s, &sh);
	uint64_t m0 = util_now_ns();
	measure(c, &s, num);
	over_add(c, util_now_ns() - m0, &s);
	run_side_end(c, &s);
	rc = run_side_record(c, &s, r, num, pos, NULL, err);
out:
	run_side_release(&s);
	return rc;
}

int run_each_query(struct run_state *c, int r, const int *order, const struct run_target_state *ts,
		   int n, run_query_fn *fn, void *arg, struct errbuf *err)
{
	int rc = 0;
	for (int i = 0; i < c->plan->n_queries && rc == 0; i++) {
		int num = order[i], lacks = 0;
		for (int k = 0; k < n; k++)
			lacks |= !run_has_restart(res_file_find_query_num(ts[k].t->res, num), r);
		if (!lacks)
			continue;
		if (c->next && !c->next[c->qpos[num]].active)
			continue; /* --budget: decided, no longer measured */
		char id[8];
		snprintf(id, sizeof(id), "Q%d", num);
		c->prog.query = id;
		c->prog.qpos = i;
		c->prog.nq = c->plan->n_queries;
		rc = fn(c, r, num, i, arg, err);
		c->pace_i++;
		c->prog.query = NULL;
	}
	return rc;
}

static int one_query(struct run_state *c, int r, int num, int pos, void *t, struct errbuf *err)
{
	return run_query(c, t, r, num, pos, err);
}

/* Restart r of target t: start, every pending query, stop. */
int run_restart(struct run_state *c, struct run_target_state *t, int r, struct errbuf *err)
{
	int order[RUN_MAX_QUERIES], rc;
	run_plan_order(c->plan, r, order);
	c->prog.variant = t->t->name;
	c->prog.restart = r;
	c->prog.query = NULL;
	run_progress_tell(c);
	if (c->rem_starts)
		c->rem_starts--;
	uint64_t ss0 = c->start_ns;
	if ((rc = run_server_start(c, t, err)) < 0)
		return rc;
	run_pace_start(c, r, order);
	if ((rc = run_each_query(c, r, order, t, 1, one_query, t, err)) < 0) {
		struct errbuf serr;
		run_session_close(&t->sess);
		srv_stop(t->srv, &serr);
		return rc;
	}
	if ((c->rf && (rc = run_rf_restart(c, t, r, err)) < 0) ||
	    (c->plan->streams && (rc = run_streams_restart(c, t, r, err)) < 0)) {
		struct errbuf serr;
		run_session_close(&t->sess);
		srv_stop(t->srv, &serr);
		return rc;
	}
	rc = run_server_stop(c, t, err);
	if (rc < 0)
		return RUN_E_SERVER;
	/* disturbed: said here, its cause once in the end-of-run table (and summary, compare) */
	char why[160];
	const char *dist =
	    run_interf_disturbed(t->t->res, r, why, sizeof(why)) ? ", disturbed so far" : "";
	double ss = (double)(c->start_ns - ss0) / 1e9;
	if (ss > t->startstop_s)
		t->startstop_s = ss;
	if (c->next)
		run_event(c, "%s%srestart %d done (elapsed %.0f s of %.0f s%s)",
			  t->t->name ? t->t->name : "", t->t->name ? ": " : "", r + 1,
			  (double)(util_now_ns() - c->t0) / 1e9, run_budget_total_s(c->plan), dist);
	else
		run_event(c, "%s%srestart %d of %d done%s", t->t->name ? t->t->name : "",
			  t->t->name ? ": " : "", r + 1, c->plan->restarts,
			  *dist ? " (disturbed so far)" : "");
	if (c->pace_ns && !c->paced_pair)
		run_warn_owed_over(c, run_restarts_owed(c, r) - 1);
	return 0;
}
