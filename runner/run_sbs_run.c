/* SPDX-License-Identifier: MIT */
/* Side by side (docs/run.md, "Side by side"): both variants' servers up at once, each on its
 * clone of the data, every query's executions alternated between them, both restarted together
 * for the next pair. */
#include "runner/run_budget.h"
#include "runner/run_int.h"
#include "runner/run_sbs.h"
#include "server/srv_clone.h"
#include "server/srv_clone_live.h"
#include <sys/time.h>

#define ORDER_LEN 4096

static double unix_ms(void)
{
	struct timeval tv;
	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec * 1e3 + (double)tv.tv_usec / 1e3;
}

/* Each sampler counts the other server's CPU as the tool's (run_interf_set_partner). */
static void set_partners(struct run_state *c)
{
	for (int k = 0; k < 2; k++)
		if (run_probe_interf_partner(&c->ts[k].sess, srv_pid(c->ts[1 - k].srv)) < 0)
			run_event(c, "the other server's CPU time cannot be read: it counts as "
				     "interference");
}

/* Stops both servers (after a failure: whatever runs), closing their sessions. */
static int stop_both(struct run_state *c, struct errbuf *err)
{
	int rc = 0;
	for (int k = 0; k < 2; k++) {
		struct errbuf serr;
		if (run_server_stop(c, &c->ts[k], rc < 0 ? &serr : err) < 0)
			rc = RUN_E_SERVER;
	}
	return rc;
}

/* Starts both servers, one after the other, and keeps both up: their start times (Unix ms) in
 * started[]. */
static int start_both(struct run_state *c, double started[2], struct errbuf *err)
{
	for (int k = 0; k < 2; k++) {
		int rc = run_server_start(c, &c->ts[k], err);
		if (rc < 0) {
			struct errbuf serr;
			stop_both(c, &serr);
			return rc;
		}
		started[k] = unix_ms();
	}
	set_partners(c);
	return 0;
}

/* A query's order string as it grows, and the variant that executed last in the pair. */
struct sorder {
	char *s;
	int last; /* -1: nothing yet */
};

/* One execution of side v (0: A, 1: B) unless it has failed; the order string gets its letter. */
static void side_exec(struct run_state *c, struct run_side *sd, int v, int num, unsigned flags,
		      enum run_slot kind, struct sorder *o)
{
	if (sd[v].st != RUN_EXEC_OK)
		return;
	run_side_exec(c, &sd[v], num, flags, kind);
	if (sd[v].st != RUN_EXEC_OK)
		return;
	run_sbs_order_add(o->s, ORDER_LEN, v);
	o->last = v;
}

/* A slot: both sides once, the query's opener first (every slot: strict alternation). */
static void slot(struct run_state *c, struct run_side *sd, int first, int num, unsigned flags,
		 enum run_slot kind, struct sorder *o)
{
	side_exec(c, sd, first, num, flags, kind, o);
	side_exec(c, sd, 1 - first, num, flags, kind, o);
}

static int alive(const struct run_side *sd)
{
	return sd[0].st == RUN_EXEC_OK || sd[1].st == RUN_EXEC_OK;
}

/* The last slot's time (ms): both sides' last execution of the phase. */
static double last_slot_ms(const struct run_side *sd, int warm)
{
	double ms = 0;
	for (int v = 0; v < 2; v++) {
		size_t n = warm ? sd[v].nw : sd[v].nm;
		ms += n ? (warm ? sd[v].warm : sd[v].meas)[n - 1] : 0;
	}
	return ms;
}

/* The warm-up rule on both sides (a failed side counts as steady). */
static int both_steady(const struct run_side *sd, double tol)
{
	for (int v = 0; v < 2; v++)
		if (sd[v].st == RUN_EXEC_OK && !run_warmup_steady(sd[v].warm, sd[v].nw, tol))
			return 0;
	return 1;
}

/* The warm-up slots, then the measured ones, every slot opened by `first` (A B A B ...), as
 * measure() does for one server: the warm-up ends when both sides are steady (--budget) or at
 * its count; an owed restart's pacing cuts both sides alike. */
static void alternate(struct run_state *c, struct run_side *sd, int num, int first,
		      const struct query_execs *sh, struct sorder *o)
{
	int steady = 0, capped = 0, k;
	for (k = 0; k < sh->wmax && alive(sd); k++) {
		if (k >= sh->wmin && sh->tol > 0 && (steady = both_steady(sd, sh->tol)))
			break;
		if (k >= sh->wmin && k > 0 && run_past_pace(c, last_slot_ms(sd, 1), sh->rmin)) {
			capped = 1;
			break;
		}
		slot(c, sd, first, num, k == 0 ? RUN_EXEC_HASH : 0, RUN_SLOT_WARM, o);
	}
	for (int v = 0; v < 2 && sh->tol > 0; v++) {
		json_t *x = sd[v].rr.extra;
		json_object_set_new(
		    x, "warmup_steady",
		    json_boolean(steady || run_warmup_steady(sd[v].warm, sd[v].nw, sh->tol)));
		json_object_set_new(x, "warmup_tol", json_real(sh->tol));
		if (capped)
			json_object_set_new(x, "warmup_capped", json_true());
	}
	for (k = 0; k < sh->runs && alive(sd); k++) {
		if (k >= sh->rmin && k > 0 && run_past_pace(c, last_slot_ms(sd, 0), 0)) {
			for (int v = 0; v < 2; v++)
				json_object_set_new(sd[v].rr.extra, "runs_capped", json_true());
			break;
		}
		slot(c, sd, first, num, 0, RUN_SLOT_MEAS, o);
	}
	if (sh->wmax == 0) /* no warm-up to hash the result in: one more, unrecorded slot */
		slot(c, sd, first, num, RUN_EXEC_HASH, RUN_SLOT_UNRECORDED, o);
}

/* The pair's record in each side's entry: who opened the query's executions, the order they ran
 * in ('A': the first variant of the run, 'B' the second), the two servers' start times and pids. */
static json_t *pair_json(struct run_state *c, int first, const char *order, const double started[2])
{
	return json_pack("{s:s, s:s, s:[f,f], s:[i,i]}", "first", c->ts[first].t->name, "order",
			 order, "started_unix_ms", started[0], started[1], "pids",
			 (int)srv_pid(c->ts[0].srv), (int)srv_pid(c->ts[1].srv));
}

/* Query num of pair r on both servers: each side's window (the interference sampler, the memory
 * probe) around the alternated executions, then each side's entry (an entry r a side kept from
 * an interrupted pair is replaced). The query opens with the side that did not execute last in
 * the pair (*last; -1: the pair's opener pair_first), and *last becomes the variant that
 * executed last. */
static int sbs_query(struct run_state *c, int r, int num, int pos, int pair_first, int *last,
		     const double started[2], struct errbuf *err)
{
	const struct qry *q = &c->queries[num];
	const struct query_execs sh = run_shape_of(c, num);
	const int first = run_sbs_query_first(pair_first, *last);
	const int total = sh.wmax + sh.runs + (sh.wmax == 0);
	struct run_side sd[2];
	struct sorder order = {calloc(ORDER_LEN, 1), *last};
	int rc = 0;
	if (run_side_init(&sd[0], &c->ts[0], r, num, &sh, total) < 0 ||
	    run_side_init(&sd[1], &c->ts[1], r, num, &sh, total) < 0 || !order.s) {
		rc = errbuf_set(err, "out of memory");
		goto out;
	}
	for (int v = 0; v < 2; v++) {
		run_side_begin(c, &sd[v], &sh);
		run_side_pre(&sd[v], q);
	}
	alternate(c, sd, num, first, &sh, &order);
	*last = order.last;
	for (int v = 0; v < 2; v++) {
		run_side_post(c, &sd[v], q, num);
		run_side_end(c, &sd[v]);
	}
	json_t *pair = pair_json(c, first, order.s, started);
	for (int v = 0; v < 2 && rc == 0; v++) {
		rc = run_side_record(c, &sd[v], r, num, pos, pair, err);
		if (sd[v].st == RUN_EXEC_LOST)
			set_partners(c); /* the recovered side has a new sampler or server */
	}
	json_decref(pair);
out:
	run_side_release(&sd[0]);
	run_side_release(&sd[1]);
	free(order.s);
	return rc;
}

/* A pair as its queries go: its opener, the variant that executed last, the start times. */
struct pair {
	int first, last;
	double started[2];
};

static int pair_query(struct run_state *c, int r, int num, int pos, void *arg, struct errbuf *err)
{
	struct pair *p = arg;
	return sbs_query(c, r, num, pos, p->first, &p->last, p->started, err);
}

/* Pair r: both servers started, every query either side still lacks measured alternately,
 * both stopped. Returns 0, -1 or RUN_E_SERVER. */
int run_sbs_restart(struct run_state *c, int r, struct errbuf *err)
{
	int order[RUN_MAX_QUERIES], rc;
	double started[2];
	int first = run_sbs_first(c->plan->seed, c->plan->seed_given, r);
	run_plan_order(c->plan, r, order);
	c->prog.variant = NULL;
	c->prog.restart = r;
	c->prog.query = NULL;
	run_progress_tell(c);
	for (int k = 0; k < 2 && c->rem_starts; k++)
		c->rem_starts--;
	uint64_t ss0 = c->start_ns;
	if ((rc = start_both(c, started, err)) < 0)
		return rc;
	c->pair_pos = 0;
	run_pace_start(c, r, order);
	struct pair pair = {first, -1, {started[0], started[1]}};
	rc = run_each_query(c, r, order, c->ts, 2, pair_query, &pair, err);
	struct errbuf serr;
	if (rc < 0) {
		stop_both(c, &serr);
		return rc;
	}
	if ((rc = stop_both(c, err)) < 0)
		return rc;
	double ss = (double)(c->start_ns - ss0) / 1e9 / 2; /* a side's share */
	for (int k = 0; k < 2; k++)
		if (ss > c->ts[k].startstop_s)
			c->ts[k].startstop_s = ss;
	char why[160];
	int dist = run_interf_disturbed(c->ts[0].t->res, r, why, sizeof(why)) ||
		   run_interf_disturbed(c->ts[1].t->res, r, why, sizeof(why));
	if (c->next)
		run_event(c, "pair %d side by side done (elapsed %.0f s of %.0f s%s)", r + 1,
			  (double)(util_now_ns() - c->t0) / 1e9, run_budget_total_s(c->plan),
			  dist ? ", disturbed so far" : "");
	else
		run_event(c, "pair %d of %d side by side done%s", r + 1, c->plan->restarts,
			  dist ? " (disturbed so far)" : "");
	if (c->pace_ns && !c->paced_pair)
		run_warn_owed_over(c, run_restarts_owed(c, r) - 1);
	return 0;
}

/* plan.side_by_side of both files: the variants, the order rule, how the data was cloned, the
 * pools. */
static void record_setup(struct run_state *c, const struct run_sbs_setup *su)
{
	for (int k = 0; k < 2; k++) {
		json_t *o = json_pack(
		    "{s:[s,s], s:s, s:s, s:I, s:[I,I]}", "variants", c->ts[0].t->name,
		    c->ts[1].t->name, "order", run_sbs_order_name(c->plan->seed_given), "clone",
		    run_sbs_clone_name(su->reflink), "data_bytes", (json_int_t)su->tree_bytes,
		    "pool_bytes", (json_int_t)su->pools.pool[0], (json_int_t)su->pools.pool[1]);
		json_object_set_new(c->ts[k].t->res->plan, "side_by_side", o);
	}
}

/* Target k's server on clone k of the instance the targets name: its own options with the
 * clone's directory, its pool and, with TCP, its own port. */
static int open_clone(struct run_state *c, struct run_target *target, int k,
		      const struct run_sbs_setup *su, const char *src, struct errbuf *err)
{
	struct run_target_state *t = &c->ts[k];
	char dst[4200];
	struct util_clone_stats st;
	if (srv_clone_path(dst, sizeof(dst), src, k) < 0)
		return errbuf_set(err, "instance path too long: '%s'", src);
	run_event(c, "%s: cloning '%s/data' to '%s' (%s)", target->name, src, dst,
		  run_sbs_clone_name(su->reflink));
	int rc = srv_instance_clone(src, dst, &st, err);
	if (rc < 0) /* a full disk, a planted DIR/sbs: like too little room, the run cannot go on */
		return rc == SRV_CLONE_E_NOSPACE || rc == SRV_CLONE_E_REFUSED ? RUN_E_REFUSED : -1;
	t->sbs_opts = *target->opts;
	if (!(t->sbs_dir = strdup(dst)))
		return errbuf_set(err, "out of memory");
	t->sbs_opts.datadir = t->sbs_dir;
	t->sbs_opts.buffer_pool = su->pools.pool[k];
	if (t->sbs_opts.port > 0)
		t->sbs_opts.port += k;
	if (srv_open(&t->srv, &t->sbs_opts, err) < 0)
		return -1;
	return srv_lock(t->srv, err) < 0 ? RUN_E_SERVER : 0;
}

/* The servers an earlier run left on the clones (killed, so nothing stopped them) are stopped
 * before their directories are made again, under this run's lock on the instance: never a
 * clone tree removed under a live server. */
static int stop_left_clones(struct run_state *c, const struct srv_opts *o, struct errbuf *err)
{
	struct srv_clone_live stopped[SRV_CLONES_MAX];
	int n = 0, rc = srv_clones_stop(stopped, &n, o, err);
	for (int i = 0; i < n; i++)
		run_event(c, "stopped the server left running on clone '%s' (pid %ld)",
			  stopped[i].dir, stopped[i].pid);
	return rc < 0 ? -1 : 0;
}

int run_sbs_open(struct run_state *c, struct run_target *targets, struct errbuf *err)
{
	struct run_sbs_setup su;
	if (srv_open(&c->sbs_src, targets[0].opts, err) < 0)
		return -1;
	if (srv_lock(c->sbs_src, err) < 0)
		return RUN_E_SERVER;
	if (srv_is_alive(c->sbs_src)) { /* its data is cloned: it must be stopped */
		run_event(c, "stopping the server already running in '%s'",
			  srv_instdir(c->sbs_src));
		if (srv_stop(c->sbs_src, err) < 0)
			return RUN_E_SERVER;
	}
	if (stop_left_clones(c, targets[0].opts, err) < 0)
		return RUN_E_SERVER;
	int restored = srv_snapshot_restore(c->sbs_src, err); /* data an interrupted run changed */
	if (restored < 0)
		return RUN_E_SERVER;
	if (restored)
		run_event(c, "restored '%s/data' from the snapshot an interrupted refresh run left",
			  srv_instdir(c->sbs_src));
	if (c->n_targets != 2)
		return errbuf_set(err, "side by side measures two variants, not %d", c->n_targets);
	if (run_sbs_check(&su, targets, c->n_targets, c->plan->scale, err) < 0)
		return RUN_E_REFUSED;
	c->sbs = 1;
	for (int k = 0; k < 2; k++) {
		int rc = open_clone(c, &targets[k], k, &su, srv_instdir(c->sbs_src), err);
		if (rc < 0)
			return rc;
	}
	record_setup(c, &su);
	return 0;
}

void run_sbs_close(struct run_state *c)
{
	for (int k = 0; k < c->n_targets && c->sbs; k++) {
		struct errbuf err;
		struct run_target_state *t = &c->ts[k];
		run_session_close(&t->sess);
		srv_free(t->srv); /* stops a server still up */
		t->srv = NULL;
		long pid = t->sbs_dir ? srv_server_pid(&t->sbs_opts) : 0;
		if (pid) /* never a tree removed under a live server */
			run_event(c, "'%s' not removed: its server (pid %ld) still runs",
				  t->sbs_dir, pid);
		else if (t->sbs_dir && srv_clone_remove(t->sbs_dir, &err) < 0)
			run_event(c, "%s", err.msg);
		free(t->sbs_dir);
		t->sbs_dir = NULL;
	}
	srv_free(c->sbs_src);
	c->sbs_src = NULL;
}
