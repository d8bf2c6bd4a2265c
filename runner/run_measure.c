/* SPDX-License-Identifier: MIT */
/* One restart of a target: each query measured, paced and recorded (docs/run.md). */
#include "runner/run_int.h"
#include "result/res_counts.h"

/* Growing arrays of one restart's measurements. */
struct series {
	double *warm, *meas, *cpu;
	size_t nw, nm, nc;
};

static int exec_counted(struct run_state *c, int num, const char *sql, unsigned flags,
			struct run_exec_result *out, struct errbuf *err)
{
	enum run_exec_status st =
	    run_exec(c->sess->conn, sql, flags, c->sess->cpu, c->sess->watch, NULL, out, err);
	c->sess->execs_done++;
	if (c->rem_execs[num])
		c->rem_execs[num]--;
	if (st == RUN_EXEC_OK) {
		c->seen_ns[num] += out->wall_ns;
		c->seen_n[num]++;
	}
	return (int)st;
}

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

/* Every execution's row count against the first one's: each that differs is listed in
 * r->extra as row_count_changes [{execution (1-based, warm-up included), rows}]. */
static void check_rows(struct res_restart *r, long long first, long long rows, int execution)
{
	if (first < 0 || rows == first)
		return;
	json_t *list = json_object_get(r->extra, "row_count_changes");
	if (!list) {
		list = json_array();
		json_object_set_new(r->extra, "row_count_changes", list);
	}
	json_t *e = json_object();
	json_object_set_new(e, "execution", json_integer(execution));
	json_object_set_new(e, "rows", json_integer(rows));
	json_array_append_new(list, e);
}

/* The instructions of one execution, read from outside around it (never inside run_exec's
 * timed window): before zeroes or reads, after appends the count to c->sess->icount. A failure says
 * so once and leaves the query without a record. */
static void instr_around(struct run_state *c, int num, int after)
{
	struct errbuf ierr;
	long long v[2];
	if (!c->sess->instr || c->sess->instr_broken)
		return;
	if (!after ? run_instr_before(c->sess->instr, &ierr) == 0
		   : run_instr_after(c->sess->instr, v, &ierr) == 0 &&
			 c->sess->n_icount < c->sess->cap_icount) {
		if (after) {
			c->sess->icycles[c->sess->n_icount] = v[1];
			c->sess->icount[c->sess->n_icount++] = v[0];
		}
		return;
	}
	c->sess->instr_broken = 1;
	run_event(c, "Q%d: no instruction counts: %s", num,
		  c->sess->n_icount < c->sess->cap_icount ? ierr.msg
							  : "more executions than planned");
}

/* One execution of q for measure(): progress, run, fingerprint, rows. */
enum run_exec_status run_exec_one(struct run_state *c, int num, unsigned flags, int total,
				  struct res_restart *r, long long *rows, char *result_sha,
				  struct run_exec_result *x, struct errbuf *err)
{
	c->prog.run = c->sess->execs_done + 1;
	c->prog.runs = total;
	run_progress_tell(c);
	instr_around(c, num, 0);
	enum run_exec_status st = exec_counted(c, num, c->queries[num].sql, flags, x, err);
	if (st != RUN_EXEC_OK)
		return st;
	instr_around(c, num, 1);
	if (flags & RUN_EXEC_HASH)
		memcpy(result_sha, x->result_sha256, 65);
	check_rows(r, *rows, (long long)x->rows, c->sess->execs_done);
	if (*rows < 0)
		*rows = (long long)x->rows;
	return st;
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
	if (run_budget_fits(elapsed, left * per, p->budget_s * 1.05))
		return;
	c->owed_warned = 1;
	run_event(c,
		  "the %d restart%s --min-restarts still owes need%s at least %.0f s more: the run "
		  "will end near %.0f s of its %.0f s budget (fewer --queries, a lower "
		  "--warmup-min or --runs-min, or a larger --budget would fit)",
		  left, left == 1 ? "" : "s", left == 1 ? "s" : "", left * per,
		  elapsed + left * per, p->budget_s);
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
	double left = p->budget_s - (double)(util_now_ns() - c->t0) / 1e9;
	c->pace_t0 = util_now_ns();
	c->pace_ns = left > 0 ? (uint64_t)(left / owed * 1e9) : 1;
	c->pace_i = 0;
}

/* The work of the n measured executions between readings snaps[0..n] as r's "work". */
void run_work_record(struct run_state *c, int num, struct res_restart *r,
		     const struct run_work_snap *snaps, size_t n)
{
	struct res_counts rc;
	struct errbuf werr;
	res_counts_init(&rc, n);
	if (run_work_counts(&rc, &c->sess->work, snaps, n, &werr) < 0)
		run_event(c, "Q%d: no work counters: %s", num, werr.msg);
	else if (rc.n)
		json_object_set_new(r->extra, "work", res_counts_json(&rc));
	res_counts_release(&rc);
}

/* The measured executions; with work counters, the session's status read before the first and
 * after each, outside run_exec's timed window (docs/work.md). */
static enum run_exec_status measured_runs(struct run_state *c, int num,
					  const struct query_execs *sh, struct res_restart *r,
					  struct series *s, long long *rows, char *result_sha,
					  int total, struct errbuf *err)
{
	struct run_exec_result x;
	struct errbuf werr;
	enum run_exec_status st = RUN_EXEC_OK;
	struct run_work_snap *snaps =
	    c->sess->have_work ? calloc((size_t)sh->runs + 1, sizeof(*snaps)) : NULL;
	int work = snaps && run_work_read(&c->sess->work, c->sess->conn, &snaps[0], &werr) == 0;
	for (int i = 0; i < sh->runs; i++) {
		if (i >= sh->rmin && i > 0 && run_past_pace(c, s->meas[s->nm - 1], 0)) {
			json_object_set_new(r->extra, "runs_capped", json_true());
			break;
		}
		/* no warm-up (--warmup 0): the first measured execution fingerprints the result */
		unsigned flags = i == 0 && s->nw == 0 ? RUN_EXEC_HASH : 0;
		if ((st = run_exec_one(c, num, flags, total, r, rows, result_sha, &x, err)))
			break;
		s->meas[s->nm++] = (double)x.wall_ns / 1e6;
		if (c->sess->cpu)
			s->cpu[s->nc++] = (double)x.cpu_ns / 1e6;
		if (work &&
		    run_work_read(&c->sess->work, c->sess->conn, &snaps[s->nm], &werr) < 0) {
			run_event(c, "Q%d: no work counters: %s", num, werr.msg);
			work = 0;
		}
	}
	if (work && s->nm > 0)
		run_work_record(c, num, r, snaps, s->nm);
	free(snaps);
	return st;
}

/* --instructions: the warm-up is over once its last two counts agree (docs/work.md). */
static int instr_steady(const struct run_state *c, size_t nw)
{
	return c->plan->instructions && c->sess->instr && !c->sess->instr_broken &&
	       c->sess->n_icount == nw && run_instr_steady(c->sess->icount, nw, c->plan->instr_tol);
}

/* The counts of the measured executions (after the nw warm-up ones) as r's "instructions"; with
 * --instructions also whether the warm-up ended steady. */
static void instr_record(struct run_state *c, struct res_restart *r, size_t nw, size_t nm)
{
	if (!c->sess->instr)
		return;
	if (c->plan->instructions) {
		json_object_set_new(
		    r->extra, "instructions_steady",
		    json_boolean(!c->sess->instr_broken && c->sess->n_icount >= nw &&
				 run_instr_steady(c->sess->icount, nw, c->plan->instr_tol)));
		json_object_set_new(r->extra, "instructions_tol", json_real(c->plan->instr_tol));
	}
	if (c->sess->instr_broken || nm == 0 || c->sess->n_icount < nw + nm)
		return;
	struct res_counts rc;
	res_counts_init(&rc, nm);
	int pmu = run_instr_source_of(c->sess->instr) == RUN_INSTR_PMU;
	if (res_counts_add(&rc, pmu ? RUN_INSTR_PMU_INSTRUCTIONS : RUN_INSTR_CALLGRIND_NAME,
			   c->sess->icount + nw) == 0 &&
	    (!pmu || res_counts_add(&rc, RUN_INSTR_PMU_CYCLES, c->sess->icycles + nw) == 0))
		json_object_set_new(r->extra, "instructions", res_counts_json(&rc));
	res_counts_release(&rc);
}

/* Measures one query in one restart into r (r->extra an object); returns the run_exec status of
 * the failure that ended it (RUN_EXEC_OK when all went well). */
static enum run_exec_status measure(struct run_state *c, int num, struct res_restart *r,
				    struct series *s, struct errbuf *err)
{
	const struct qry *q = &c->queries[num];
	const struct query_execs sh = run_shape_of(c, num);
	struct run_exec_result x;
	enum run_exec_status st = RUN_EXEC_OK;
	char result_sha[65] = "";
	long long rows = -1;
	int total = sh.wmax + sh.runs, steady = 0, capped = 0;

	if (q->pre && (st = run_exec_simple(c->sess->conn, q->pre, err)) != RUN_EXEC_OK)
		return st;
	while ((int)s->nw < sh.wmax) {
		if ((int)s->nw >= sh.wmin && sh.tol > 0 &&
		    (steady = run_warmup_steady(s->warm, s->nw, sh.tol)))
			break;
		if ((!c->next || (int)s->nw >= sh.wmin) && instr_steady(c, s->nw))
			break;
		if ((int)s->nw >= sh.wmin && s->nw > 0 &&
		    run_past_pace(c, s->warm[s->nw - 1], sh.rmin)) {
			capped = 1;
			break;
		}
		unsigned flags = s->nw == 0 ? RUN_EXEC_HASH : 0;
		if ((st = run_exec_one(c, num, flags, total, r, &rows, result_sha, &x, err)))
			goto post;
		s->warm[s->nw++] = (double)x.wall_ns / 1e6;
	}
	if (sh.tol > 0) {
		steady = steady || run_warmup_steady(s->warm, s->nw, sh.tol);
		json_object_set_new(r->extra, "warmup_steady", json_boolean(steady));
		json_object_set_new(r->extra, "warmup_tol", json_real(sh.tol));
		if (capped)
			json_object_set_new(r->extra, "warmup_capped", json_true());
	}
	if ((st = measured_runs(c, num, &sh, r, s, &rows, result_sha, total, err)))
		goto post;
	char plan_sha[65];
	char *plan_text = NULL;
	struct errbuf perr;
	if (run_explain_fetch(c->sess->conn, q->sql, &plan_text, plan_sha, &perr) == 0) {
		res_set_string(&r->plan, plan_text);
		res_set_string(&r->plan_sha256, plan_sha);
		free(plan_text);
	} else {
		run_event(c, "Q%d: %s", num, perr.msg);
	}
post:
	r->rows = rows;
	if (*result_sha)
		res_set_string(&r->result_sha256, result_sha);
	if (q->post && st != RUN_EXEC_LOST) {
		struct errbuf perr2;
		enum run_exec_status pst = run_exec_simple(c->sess->conn, q->post, &perr2);
		if (st == RUN_EXEC_OK && pst != RUN_EXEC_OK) {
			*err = perr2;
			st = pst;
		}
	}
	return st;
}

/* After a lost connection: has the server died? A killed process drops its sockets a moment
 * before it can be reaped, so wait up to 10 s for either an exit or an answer to a ping. */
static int server_died(struct srv *s, struct errbuf *err)
{
	for (int i = 0; i < 500; i++) {
		if (srv_check(s, err) == SRV_E_EXITED)
			return 1;
		if (i >= 5 && srv_ping(s))
			return 0;
		struct timespec ts = {0, 20000000L};
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* A lost connection: a crash (status "crash", the error log's first lines kept) when the server
 * died, else an error. Returns 1 for a crash. */
static int record_lost(struct run_state *c, struct run_target_state *t, struct res_restart *rr,
		       int num, int r, const struct errbuf *xerr)
{
	int crashed = 0;
	struct errbuf cerr;
	if (server_died(t->srv, &cerr)) {
		char *tail = srv_error_log_tail(t->srv, RUN_LOG_TAIL_LINES);
		char *msg = NULL;
		crashed = 1;
		rr->status = RES_STATUS_CRASH;
		/* srv_check's first line says how it ended (without its "; from 'LOG':"
		 * lead-in); the tail comes in full, or "(error log empty)". */
		cerr.msg[strcspn(cerr.msg, "\n")] = '\0';
		char *cut = strstr(cerr.msg, "; last lines");
		if (!cut)
			cut = strstr(cerr.msg, "; from '");
		if (cut)
			*cut = '\0';
		int empty = !tail || tail[strspn(tail, " \t\r\n")] == '\0';
		if (asprintf(&msg, "%s\n%s", cerr.msg, empty ? "(error log empty)" : tail) >= 0) {
			res_set_string(&rr->error, msg);
			free(msg);
		}
		free(tail);
		if (empty)
			run_event(c, "Q%d restart %d: %s (error log empty)", num, r + 1, cerr.msg);
		else
			run_event(c,
				  "Q%d restart %d: %s (error log '%s/error.log': its last lines "
				  "are in the result file)",
				  num, r + 1, cerr.msg, srv_instdir(t->srv));
	} else {
		rr->status = RES_STATUS_ERROR;
		res_set_string(&rr->error, xerr->msg);
		run_event(c, "Q%d restart %d: connection lost: %s", num, r + 1, xerr->msg);
	}
	return crashed;
}

/* Status and error of restart r from how the measurement ended. Returns 1 for a crash. */
int run_record_status(struct run_state *c, struct run_target_state *t, struct res_restart *rr,
			 enum run_exec_status st, int num, int r, const struct errbuf *xerr)
{
	const struct run_plan *p = c->plan;
	switch (st) {
	case RUN_EXEC_OK:
		rr->status = RES_STATUS_OK;
		break;
	case RUN_EXEC_TIMEOUT:
		rr->status = RES_STATUS_TIMEOUT;
		res_set_string(&rr->error, xerr->msg);
		run_event(c, "Q%d restart %d: timeout after %g s, killed", num, r + 1,
			  p->query_timeout);
		break;
	case RUN_EXEC_ERROR:
		rr->status = RES_STATUS_ERROR;
		res_set_string(&rr->error, xerr->msg);
		run_event(c, "Q%d restart %d: error: %s", num, r + 1, xerr->msg);
		break;
	case RUN_EXEC_LOST:
		return record_lost(c, t, rr, num, r, xerr);
	}
	return 0;
}

/* What measure() took beyond the executions it recorded, added to c->over_ns per execution. */
static void over_add(struct run_state *c, uint64_t wall_ns, const struct series *s)
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
	const struct run_plan *p = c->plan;
	struct res_restart rr;
	struct series s = {0};
	struct errbuf xerr = {{0}};
	int rc = 0;
	memset(&rr, 0, sizeof(rr));
	rr.index = r;
	rr.rows = -1;
	const struct query_execs sh = run_shape_of(c, num);
	s.warm = calloc((size_t)sh.wmax + 1, sizeof(double));
	s.meas = calloc((size_t)sh.runs + 1, sizeof(double));
	s.cpu = calloc((size_t)sh.runs + 1, sizeof(double));
	rr.extra = json_object();
	if (!s.warm || !s.meas || !s.cpu || !rr.extra) {
		rc = errbuf_set(err, "out of memory");
		goto out;
	}
	c->sess->execs_done = 0;
	c->sess->n_icount = 0;
	c->sess->instr_broken = 0;
	c->sess->cap_icount = (size_t)(sh.wmax + sh.runs + 1);
	c->sess->icount = calloc(c->sess->cap_icount, sizeof(long long));
	c->sess->icycles = calloc(c->sess->cap_icount, sizeof(long long));
	if (!c->sess->icount || !c->sess->icycles)
		c->sess->instr_broken = 1;
	struct errbuf nerr;
	struct run_interf_rec nrec;
	double probe_before = c->sess->interf ? run_probe_last(c) : -1;
	int noise = c->sess->interf && run_interf_begin(c->sess->interf, &nerr) == 0;
	uint64_t m0 = util_now_ns();
	enum run_exec_status st = measure(c, num, &rr, &s, &xerr);
	over_add(c, util_now_ns() - m0, &s);
	if (noise && run_interf_end(c->sess->interf, &nrec, &nerr) == 0) {
		json_t *rec = run_interf_rec_json(&nrec);
		run_probe_record(c, rec, probe_before);
		json_object_set_new(rr.extra, "interference", rec);
	}
	/* Executions a failure skipped leave the ETA. */
	int planned = sh.wmax + sh.runs;
	uint64_t skipped =
	    planned > c->sess->execs_done ? (uint64_t)(planned - c->sess->execs_done) : 0;
	c->rem_execs[num] -= skipped < c->rem_execs[num] ? skipped : c->rem_execs[num];
	int crashed = run_record_status(c, t, &rr, st, num, r, &xerr);
	rr.warmup_ms = s.warm;
	rr.n_warmup = s.nw;
	rr.measured_ms = s.meas;
	rr.n_measured = s.nm;
	rr.server_cpu_ms = s.cpu;
	rr.n_server_cpu = s.nc;
	instr_record(c, &rr, s.nw, s.nm);
	json_object_set_new(rr.extra, "position", json_integer(pos));
	json_object_set_new(rr.extra, "server_start", json_integer(t->start_seq));
	struct res_query *q = res_file_find_query_num(t->t->res, num);
	if (!res_query_add_restart(q, &rr) || run_steady_flags(t->t->res, p->steady_alpha) < 0) {
		rc = errbuf_set(err, "out of memory");
		goto out;
	}
	if ((rc = run_checkpoint(t, err)) < 0)
		goto out;
	if (st == RUN_EXEC_LOST)
		rc = run_recover(c, t, crashed, err);
out:
	free(rr.plan);
	free(rr.plan_sha256);
	free(rr.result_sha256);
	free(rr.error);
	json_decref(rr.extra);
	free(s.warm);
	free(s.meas);
	free(s.cpu);
	free(c->sess->icount);
	free(c->sess->icycles);
	c->sess->icount = c->sess->icycles = NULL;
	c->sess->cap_icount = c->sess->n_icount = 0;
	return rc;
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
	for (int i = 0; i < c->plan->n_queries; i++) {
		int num = order[i];
		if (run_has_restart(res_file_find_query_num(t->t->res, num), r))
			continue;
		if (c->next && !c->next[c->qpos[num]].active)
			continue; /* --budget: decided, no longer measured */
		char id[8];
		snprintf(id, sizeof(id), "Q%d", num);
		c->prog.query = id;
		c->prog.qpos = i;
		c->prog.nq = c->plan->n_queries;
		rc = run_query(c, t, r, num, i, err);
		c->pace_i++;
		c->prog.query = NULL;
		if (rc < 0) {
			struct errbuf serr;
			run_session_close(&t->sess);
			srv_stop(t->srv, &serr);
			return rc;
		}
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
			  (double)(util_now_ns() - c->t0) / 1e9, c->plan->budget_s, dist);
	else
		run_event(c, "%s%srestart %d of %d done%s", t->t->name ? t->t->name : "",
			  t->t->name ? ": " : "", r + 1, c->plan->restarts,
			  *dist ? " (disturbed so far)" : "");
	if (c->pace_ns && !c->paced_pair)
		run_warn_owed_over(c, run_restarts_owed(c, r) - 1);
	return 0;
}
