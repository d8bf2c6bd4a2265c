/* SPDX-License-Identifier: MIT */
/* One query of one restart on one target's session, the path every execution takes: measure()
 * (run_measure.c) fills one side, the side-by-side alternation (run_sbs_run.c) two. */
#include "runner/run_int.h"

int run_side_init(struct run_side *s, struct run_target_state *t, int r, int num,
		  const struct query_execs *sh, int total)
{
	memset(s, 0, sizeof(*s));
	s->t = t;
	s->num = num;
	s->total = total;
	s->rr.index = r;
	s->rr.rows = -1;
	s->rows = -1;
	s->warm = calloc((size_t)sh->wmax + 1, sizeof(double));
	s->meas = calloc((size_t)sh->runs + 1, sizeof(double));
	s->rr.extra = json_object();
	return s->warm && s->meas && s->rr.extra ? 0 : -1;
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
}

/* The window opens: the probes' begin. */
void run_side_begin(struct run_state *c, struct run_side *s, const struct query_execs *sh)
{
	struct run_probe_query q = {.num = s->num, .wmax = sh->wmax, .runs = sh->runs};
	run_probes_begin(c, &s->t->sess, &q);
}

void run_side_pre(struct run_side *s, const struct qry *q)
{
	if (q->pre)
		s->st = run_exec_simple(s->t->sess.conn, q->pre, &s->xerr);
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
	struct run_probe_exec e = {num, kind, s->nw, s->nm, NULL};
	if (s->st != RUN_EXEC_OK)
		return;
	c->prog.variant = s->t->t->name;
	c->prog.run = s->execs + 1;
	c->prog.runs = s->total;
	run_progress_tell(c);
	run_probes_before(c, ss, &e);
	s->st =
	    run_exec(ss->conn, c->queries[num].sql, flags, ss->cpu, ss->watch, NULL, &x, &s->xerr);
	exec_counted(c, s, num, &x);
	if (s->st != RUN_EXEC_OK)
		return;
	e.x = &x;
	run_probes_after(c, ss, &e);
	if (flags & RUN_EXEC_HASH)
		memcpy(s->sha, x.result_sha256, 65);
	check_rows(&s->rr, s->rows, (long long)x.rows, s->execs);
	if (s->rows < 0)
		s->rows = (long long)x.rows;
	if (kind == RUN_SLOT_WARM)
		s->warm[s->nw++] = (double)x.wall_ns / 1e6;
	else if (kind == RUN_SLOT_MEAS)
		s->meas[s->nm++] = (double)x.wall_ns / 1e6;
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

int run_side_steady(const struct run_state *c, const struct run_side *s)
{
	return run_probes_steady(c, &s->t->sess, s->nw);
}

/* The window closes: the probes' records into the entry. */
void run_side_end(struct run_state *c, struct run_side *s)
{
	struct run_probe_query q = {s->num, 0, 0, s->nw, s->nm, &s->rr, s->st == RUN_EXEC_OK};
	run_probes_record(c, &s->t->sess, &q);
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
