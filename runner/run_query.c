/* SPDX-License-Identifier: MIT */
/* One query of one restart on one target's session, the path every execution takes: measure()
 * (run_measure.c) fills one side, the side-by-side alternation (run_sbs_run.c) two. */
#include "result/res_counts.h"
#include "runner/run_int.h"

int run_side_init(struct run_side *s, struct run_target_state *t, int r,
		  const struct query_execs *sh, int total)
{
	memset(s, 0, sizeof(*s));
	s->t = t;
	s->total = total;
	s->rr.index = r;
	s->rr.rows = -1;
	s->rows = -1;
	s->warm = calloc((size_t)sh->wmax + 1, sizeof(double));
	s->meas = calloc((size_t)sh->runs + 1, sizeof(double));
	s->cpu = calloc((size_t)sh->runs + 1, sizeof(double));
	s->rr.extra = json_object();
	return s->warm && s->meas && s->cpu && s->rr.extra ? 0 : -1;
}

void run_side_release(struct run_side *s)
{
	free(s->rr.plan);
	free(s->rr.plan_sha256);
	free(s->rr.result_sha256);
	free(s->rr.error);
	json_decref(s->rr.extra);
	free(s->warm);
	free(s->meas);
	free(s->cpu);
	free(s->snaps);
	free(s->icount);
	free(s->icycles);
}

/* The window opens: the memory probe before it, the interference sampler, the buffers of the
 * work counters and instruction counts. */
void run_side_begin(struct run_state *c, struct run_side *s, const struct query_execs *sh)
{
	struct run_session *ss = &s->t->sess;
	struct errbuf nerr;
	s->probe_before = ss->interf ? run_probe_last(c, &s->probe_seq) : -1;
	s->interf = ss->interf && run_interf_begin(ss->interf, &nerr) == 0;
	if (ss->have_work)
		s->snaps = calloc((size_t)sh->runs + 1, sizeof(*s->snaps));
	s->cap_icount = (size_t)(sh->wmax + sh->runs + 1);
	s->icount = calloc(s->cap_icount, sizeof(long long));
	s->icycles = calloc(s->cap_icount, sizeof(long long));
	if (!s->icount || !s->icycles)
		s->instr_broken = 1;
}

void run_side_pre(struct run_side *s, const struct qry *q)
{
	if (q->pre)
		s->st = run_exec_simple(s->t->sess.conn, q->pre, &s->xerr);
}

/* The work counters into snaps[i], outside the timed window (docs/work.md). */
static void work_read(struct run_state *c, struct run_side *s, int num, size_t i)
{
	struct errbuf werr;
	if (run_work_read(&s->t->sess.work, s->t->sess.conn, &s->snaps[i], &werr) < 0) {
		run_event(c, "Q%d: no work counters: %s", num, werr.msg);
		free(s->snaps);
		s->snaps = NULL;
	}
}

/* The instructions of one execution, read from outside around it (never inside run_exec's
 * timed window): before zeroes or reads, after appends the count. A failure says so once and
 * leaves the query without a record. */
static void instr_around(struct run_state *c, struct run_side *s, int num, int after)
{
	struct run_instr *in = s->t->sess.instr;
	struct errbuf ierr;
	long long v[2];
	if (!in || s->instr_broken)
		return;
	if (!after ? run_instr_before(in, &ierr) == 0
		   : run_instr_after(in, v, &ierr) == 0 && s->n_icount < s->cap_icount) {
		if (after) {
			s->icycles[s->n_icount] = v[1];
			s->icount[s->n_icount++] = v[0];
		}
		return;
	}
	s->instr_broken = 1;
	run_event(c, "Q%d: no instruction counts: %s", num,
		  s->n_icount < s->cap_icount ? ierr.msg : "more executions than planned");
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

/* The ETA's bookkeeping of one execution. */
static void exec_counted(struct run_state *c, struct run_side *s, int num,
			 const struct run_exec_result *x)
{
	s->execs++;
	if (c->rem_execs[num])
		c->rem_execs[num]--;
	if (s->st == RUN_EXEC_OK) {
		c->seen_ns[num] += x->wall_ns;
		c->seen_n[num]++;
	}
}

void run_side_exec(struct run_state *c, struct run_side *s, int num, unsigned flags,
		   enum run_slot kind)
{
	struct run_session *ss = &s->t->sess;
	struct run_exec_result x;
	if (s->st != RUN_EXEC_OK)
		return;
	c->prog.variant = s->t->t->name;
	c->prog.run = s->execs + 1;
	c->prog.runs = s->total;
	run_progress_tell(c);
	if (kind == RUN_SLOT_MEAS && s->nm == 0 && s->snaps)
		work_read(c, s, num, 0);
	instr_around(c, s, num, 0);
	s->st =
	    run_exec(ss->conn, c->queries[num].sql, flags, ss->cpu, ss->watch, NULL, &x, &s->xerr);
	exec_counted(c, s, num, &x);
	if (s->st != RUN_EXEC_OK)
		return;
	instr_around(c, s, num, 1);
	if (flags & RUN_EXEC_HASH)
		memcpy(s->sha, x.result_sha256, 65);
	check_rows(&s->rr, s->rows, (long long)x.rows, s->execs);
	if (s->rows < 0)
		s->rows = (long long)x.rows;
	if (kind == RUN_SLOT_WARM)
		s->warm[s->nw++] = (double)x.wall_ns / 1e6;
	if (kind != RUN_SLOT_MEAS)
		return;
	s->meas[s->nm++] = (double)x.wall_ns / 1e6;
	if (ss->cpu)
		s->cpu[s->nc++] = (double)x.cpu_ns / 1e6;
	if (s->snaps)
		work_read(c, s, num, s->nm);
}

void run_side_post(struct run_state *c, struct run_side *s, const struct qry *q, int num)
{
	MYSQL *conn = s->t->sess.conn;
	if (s->st == RUN_EXEC_OK) {
		char plan_sha[65], *plan_text = NULL;
		struct errbuf perr;
		if (run_explain_fetch(conn, q->sql, &plan_text, plan_sha, &perr) == 0) {
			res_set_string(&s->rr.plan, plan_text);
			res_set_string(&s->rr.plan_sha256, plan_sha);
			free(plan_text);
		} else {
			run_event(c, "Q%d: %s", num, perr.msg);
		}
	}
	s->rr.rows = s->rows;
	if (*s->sha)
		res_set_string(&s->rr.result_sha256, s->sha);
	if (q->post && s->st != RUN_EXEC_LOST) {
		struct errbuf perr2;
		enum run_exec_status pst = run_exec_simple(conn, q->post, &perr2);
		if (s->st == RUN_EXEC_OK && pst != RUN_EXEC_OK) {
			s->xerr = perr2;
			s->st = pst;
		}
	}
}

/* The work of the measured executions between readings snaps[0..nm] as "work". */
static void work_record(struct run_state *c, struct run_side *s, int num)
{
	struct res_counts rc;
	struct errbuf werr;
	if (!s->snaps || s->nm == 0)
		return;
	res_counts_init(&rc, s->nm);
	if (run_work_counts(&rc, &s->t->sess.work, s->snaps, s->nm, &werr) < 0)
		run_event(c, "Q%d: no work counters: %s", num, werr.msg);
	else if (rc.n)
		json_object_set_new(s->rr.extra, "work", res_counts_json(&rc));
	res_counts_release(&rc);
}

/* The counts of the measured executions (after the warm-up ones) as "instructions"; with
 * --instructions also whether the warm-up ended steady. */
static void instr_record(struct run_state *c, struct run_side *s)
{
	struct run_instr *in = s->t->sess.instr;
	json_t *x = s->rr.extra;
	size_t nw = s->nw, nm = s->nm;
	if (!in)
		return;
	if (c->plan->instructions) {
		json_object_set_new(
		    x, "instructions_steady",
		    json_boolean(!s->instr_broken && s->n_icount >= nw &&
				 run_instr_steady(s->icount, nw, c->plan->instr_tol)));
		json_object_set_new(x, "instructions_tol", json_real(c->plan->instr_tol));
	}
	if (s->instr_broken || nm == 0 || s->n_icount < nw + nm)
		return;
	struct res_counts rc;
	res_counts_init(&rc, nm);
	int pmu = run_instr_source_of(in) == RUN_INSTR_PMU;
	if (res_counts_add(&rc, pmu ? RUN_INSTR_PMU_INSTRUCTIONS : RUN_INSTR_CALLGRIND_NAME,
			   s->icount + nw) == 0 &&
	    (!pmu || res_counts_add(&rc, RUN_INSTR_PMU_CYCLES, s->icycles + nw) == 0))
		json_object_set_new(x, "instructions", res_counts_json(&rc));
	res_counts_release(&rc);
}

int run_side_steady(const struct run_state *c, const struct run_side *s)
{
	return c->plan->instructions && s->t->sess.instr && !s->instr_broken &&
	       s->n_icount == s->nw && run_instr_steady(s->icount, s->nw, c->plan->instr_tol);
}

/* The window closes: the work counters recorded, the interference record with the memory probe
 * after it, the instruction counts. */
void run_side_end(struct run_state *c, struct run_side *s, int num)
{
	struct run_interf_rec nrec;
	struct errbuf nerr;
	work_record(c, s, num);
	if (s->interf && run_interf_end(s->t->sess.interf, &nrec, &nerr) == 0) {
		json_t *rec = run_interf_rec_json(&nrec);
		run_probe_record(c, rec, s->probe_before, s->probe_seq);
		json_object_set_new(s->rr.extra, "interference", rec);
	}
	instr_record(c, s);
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
static int record_status(struct run_state *c, struct run_target_state *t, struct res_restart *rr,
			 enum run_exec_status st, int num, int r, const struct errbuf *xerr)
{
	switch (st) {
	case RUN_EXEC_OK:
		rr->status = RES_STATUS_OK;
		break;
	case RUN_EXEC_TIMEOUT:
		rr->status = RES_STATUS_TIMEOUT;
		res_set_string(&rr->error, xerr->msg);
		run_event(c, "Q%d restart %d: timeout after %g s, killed", num, r + 1,
			  c->plan->query_timeout);
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

int run_side_record(struct run_state *c, struct run_side *s, int r, int num, int pos,
		    const json_t *pair, struct errbuf *err)
{
	struct run_target_state *t = s->t;
	/* Executions a failure skipped leave the ETA. */
	uint64_t skipped = s->total > s->execs ? (uint64_t)(s->total - s->execs) : 0;
	c->rem_execs[num] -= skipped < c->rem_execs[num] ? skipped : c->rem_execs[num];
	int crashed = record_status(c, t, &s->rr, s->st, num, r, &s->xerr);
	s->rr.warmup_ms = s->warm;
	s->rr.n_warmup = s->nw;
	s->rr.measured_ms = s->meas;
	s->rr.n_measured = s->nm;
	s->rr.server_cpu_ms = s->cpu;
	s->rr.n_server_cpu = s->nc;
	json_object_set_new(s->rr.extra, "position", json_integer(pos));
	json_object_set_new(s->rr.extra, "server_start", json_integer(t->start_seq));
	if (pair)
		json_object_set_new(s->rr.extra, "side_by_side", json_deep_copy(pair));
	struct res_query *q = res_file_find_query_num(t->t->res, num);
	for (size_t i = 0; i < q->n_restarts; i++) /* an entry kept from an interrupted pair */
		if (q->restarts[i].index == r) {
			res_query_remove_restart(q, i);
			break;
		}
	if (!res_query_add_restart(q, &s->rr) ||
	    run_steady_flags(t->t->res, c->plan->steady_alpha) < 0)
		return errbuf_set(err, "out of memory");
	if (run_checkpoint(t, err) < 0)
		return -1;
	return s->st == RUN_EXEC_LOST ? run_recover(c, t, crashed, err) : 0;
}
