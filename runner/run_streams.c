/* SPDX-License-Identifier: MIT */
/* run --streams S: every restart's throughput test after its single-stream queries (and refresh
 * pair): S connections, each running the queries once in its TPC-H stream order, and with
 * --refresh one refresh stream of S RF1/RF2 pairs beside them (docs/run.md, "Throughput"). */
#include "runner/run_int.h"
#include <pthread.h>

/* One stream of a restart: a query stream (stream >= 1) or the refresh stream (0). */
struct job {
	const struct run_state *c;
	int stream;
	MYSQL *conn;
	int order[RUN_MAX_QUERIES], n; /* query numbers, in the stream's order */
	struct qry q15;		       /* Q15 with the stream's view name (revenueS) */
	int hash;		       /* fingerprint the results (no refresh stream) */
	/* what it measured */
	double ms[RUN_MAX_QUERIES + 1]; /* by query number */
	long long rows[RUN_MAX_QUERIES + 1];
	char sha[RUN_MAX_QUERIES + 1][65];
	uint64_t t0, t1;
	/* the refresh stream: pair i runs sets[i] */
	const struct rf_set *sets;
	int n_sets;
	struct rf_stat rf1[RUN_STREAMS_MAX], rf2[RUN_STREAMS_MAX];
	int failed; /* nonzero: the query number (-1 the refresh stream) that failed, err says */
	enum run_exec_status st;
	struct errbuf err;
};

/* The query stream's executions, once each in its order; stops at the first failure. */
static void *query_stream(void *arg)
{
	struct job *j = arg;
	mysql_thread_init();
	j->t0 = util_now_ns();
	for (int i = 0; i < j->n && !j->failed; i++) {
		int num = j->order[i];
		const struct qry *q = num == 15 ? &j->q15 : &j->c->queries[num];
		struct run_exec_result x;
		j->st = q->pre ? run_exec_simple(j->conn, q->pre, &j->err) : RUN_EXEC_OK;
		if (j->st == RUN_EXEC_OK)
			j->st = run_exec(j->conn, q->sql, j->hash ? RUN_EXEC_HASH : 0, NULL, NULL,
					 NULL, &x, &j->err);
		if (j->st == RUN_EXEC_OK) {
			j->ms[num] = (double)x.wall_ns / 1e6;
			j->rows[num] = (long long)x.rows;
			memcpy(j->sha[num], x.result_sha256, sizeof(j->sha[num]));
			if (q->post)
				j->st = run_exec_simple(j->conn, q->post, &j->err);
		}
		if (j->st != RUN_EXEC_OK)
			j->failed = num;
	}
	j->t1 = util_now_ns();
	mysql_thread_end();
	return NULL;
}

/* The refresh stream: RF1 then RF2 of each of its sets, back to back. */
static void *refresh_stream(void *arg)
{
	struct job *j = arg;
	mysql_thread_init();
	j->t0 = util_now_ns();
	for (int i = 0; i < j->n_sets && !j->failed; i++) {
		int rc = rf_set_insert(j->conn, &j->sets[i], &j->rf1[i], &j->err);
		if (rc == 0)
			rc = rf_set_delete(j->conn, &j->sets[i], &j->rf2[i], &j->err);
		if (rc < 0) {
			j->failed = -1;
			j->st = rc == RF_E_SERVER ? RUN_EXEC_LOST : RUN_EXEC_ERROR;
		}
	}
	j->t1 = util_now_ns();
	mysql_thread_end();
	return NULL;
}

/* s with every "revenue0" (Q15's view) as "revenueN"; malloc'd, NULL for NULL or out of memory. */
static char *view_renamed(const char *s, int stream)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 64, at = 0;
	char *out = malloc(n * 2);
	for (const char *p = s; out && *p;) {
		if (strncmp(p, "revenue0", 8) == 0) {
			at += (size_t)snprintf(out + at, n * 2 - at, "revenue%d", stream);
			p += 8;
		} else {
			out[at++] = *p++;
		}
	}
	if (out)
		out[at] = '\0';
	return out;
}

/* Job s's query order (the plan's queries in stream s's TPC-H order), Q15 and connection. */
static int job_open(struct job *j, struct run_state *c, struct run_target_state *t, int s,
		    struct errbuf *err)
{
	int perm[QRY_COUNT];
	j->c = c;
	j->stream = s;
	if (s > 0 && qry_stream_order(s, perm) == 0)
		for (int k = 0; k < QRY_COUNT; k++)
			for (int i = 0; i < c->plan->n_queries; i++)
				if (c->plan->queries[i] == perm[k])
					j->order[j->n++] = perm[k];
	const struct qry *q15 = &c->queries[15];
	if (s > 0 && q15->sql) {
		j->q15.pre = view_renamed(q15->pre, s);
		j->q15.sql = view_renamed(q15->sql, s);
		j->q15.post = view_renamed(q15->post, s);
		if (!j->q15.sql || (q15->pre && !j->q15.pre) || (q15->post && !j->q15.post))
			return errbuf_set(err, "out of memory");
	}
	j->conn = srv_connect(t->srv, RUN_DB, err);
	return j->conn ? 0 : RUN_E_SERVER;
}

static void jobs_close(struct job *jobs, int n)
{
	for (int i = 0; i < n; i++) {
		if (jobs[i].conn)
			mysql_close(jobs[i].conn);
		free(jobs[i].q15.pre);
		free(jobs[i].q15.sql);
		free(jobs[i].q15.post);
	}
	free(jobs);
}

int run_streams_prepare(struct run_state *c, struct run_target_state *t, struct errbuf *err)
{
	struct res_file *res = t->t->res;
	const struct run_plan *p = c->plan;
	if (p->streams < 1)
		return 0;
	int refresh = c->n_rf > p->streams;
	char id[16], sha[65];
	json_t *orders = json_array();
	for (int s = 1; orders && s <= p->streams; s++) {
		json_t *o = json_array();
		int perm[QRY_COUNT];
		qry_stream_order(s, perm);
		for (int k = 0; o && k < QRY_COUNT; k++)
			for (int i = 0; i < p->n_queries; i++)
				if (p->queries[i] == perm[k])
					json_array_append_new(o, json_integer(perm[k]));
		json_array_append_new(orders, o);
	}
	char *text = orders ? json_dumps(orders, JSON_COMPACT) : NULL;
	char stream_sha[65];
	util_sha256_hex(stream_sha, text ? text : "", text ? strlen(text) : 0);
	free(text);
	json_t *st = json_pack("{s:i, s:b, s:s, s:s, s:o}", "count", p->streams, "refresh_stream",
			       refresh, "order", "TPC-H 2.17.3 Appendix A (qgen -p N)", "parameters",
			       "tpch-validation, the same in every stream", "query_orders", orders);
	if (!st)
		return errbuf_set(err, "out of memory");
	json_object_set_new(res->plan, "streams", st);
	for (int i = 0; i < p->n_queries + 3; i++) {
		const char *sq = NULL;
		if (i < p->n_queries) {
			snprintf(id, sizeof(id), RUN_T_PREFIX "Q%d", p->queries[i]);
			qry_sha256(sha, &c->queries[p->queries[i]]);
			sq = sha;
		} else if (i == p->n_queries) {
			snprintf(id, sizeof(id), "%s", RUN_T_STREAM);
			sq = stream_sha; /* of the streams' query orders */
		} else if (refresh) {
			snprintf(id, sizeof(id), "%s", i == p->n_queries + 1 ? RUN_T_RF1 : RUN_T_RF2);
			sq = i == p->n_queries + 1 ? c->rf[1].rf1_sha256 : c->rf[1].rf2_sha256;
		} else {
			continue;
		}
		struct res_query *q = res_file_find_query(res, id);
		if (q && sq && q->sql_sha256 && strcmp(q->sql_sha256, sq) != 0)
			return errbuf_set(err, "'%s': %s was measured with another statement text",
					  t->t->out_path, id);
		if ((!q && !res_file_add_query(res, id, sq)) ||
		    run_plan_query_add(res->plan, id) < 0)
			return errbuf_set(err, "out of memory");
	}
	return 0;
}

/* A restart entry of a throughput id: times (n, by stream or pair), rows, fingerprints, the
 * failure; extra (taken over, may be NULL) joins it. */
static int add_entry(struct run_state *c, struct run_target_state *t, const char *id, int r,
		     double *ms, size_t n, long long rows, const char *sha, const char *plan_sha,
		     const char *error, json_t *extra)
{
	struct res_restart rr;
	memset(&rr, 0, sizeof(rr));
	rr.index = r;
	rr.status = error ? RES_STATUS_ERROR : RES_STATUS_OK;
	rr.measured_ms = error ? NULL : ms;
	rr.n_measured = error ? 0 : n;
	rr.rows = error ? -1 : rows;
	rr.result_sha256 = sha && *sha && !error ? (char *)sha : NULL;
	rr.plan_sha256 = (char *)plan_sha;
	rr.error = (char *)error;
	rr.extra = extra ? extra : json_object();
	if (rr.extra)
		json_object_set_new(rr.extra, "server_start", json_integer(t->start_seq));
	struct res_query *q = res_file_find_query(t->t->res, id);
	const struct res_restart *stored = q && rr.extra ? res_query_add_restart(q, &rr) : NULL;
	json_decref(rr.extra);
	(void)c;
	return stored ? 0 : -1;
}

/* The single stream's result fingerprint of query num in restart r, or NULL. */
static const char *single_sha(const struct run_target_state *t, int num, int r)
{
	const struct res_query *q = res_file_find_query_num(t->t->res, num);
	for (size_t i = 0; q && i < q->n_restarts; i++)
		if (q->restarts[i].index == r && q->restarts[i].status == RES_STATUS_OK)
			return q->restarts[i].result_sha256;
	return NULL;
}

/* The plan fingerprint of q into plan_sha (left "" when EXPLAIN fails: said as an event), on the
 * main connection, untimed; Q15's view made for it and dropped again. Nothing after a failure. */
static void explain(struct run_state *c, const char *id, const struct qry *q, const char *failure,
		    char plan_sha[65])
{
	char *text = NULL;
	struct errbuf perr;
	if (failure)
		return;
	if ((q->pre && run_exec_simple(c->sess->conn, q->pre, &perr) != RUN_EXEC_OK) ||
	    run_explain_fetch(c->sess->conn, q->sql, &text, plan_sha, &perr) < 0)
		run_event(c, "%s: %s", id, perr.msg);
	free(text);
	if (q->post && run_exec_simple(c->sess->conn, q->post, &perr) != RUN_EXEC_OK)
		run_event(c, "%s: %s", id, perr.msg);
}

/* Query num's entry: its time in every stream, the plan's fingerprint (EXPLAIN on the main
 * connection, untimed), and the results of all streams against the single stream's (or stream
 * 1's): a difference makes the entry an error. */
static int record_query(struct run_state *c, struct run_target_state *t, int r, int num,
			const struct job *jobs, int S, const char *failure)
{
	char id[16], plan_sha[65] = "", why[200] = "";
	double ms[RUN_STREAMS_MAX];
	json_t *pos = json_array();
	const char *ref = jobs[1].hash ? single_sha(t, num, r) : NULL;
	for (int s = 1; s <= S; s++) {
		ms[s - 1] = jobs[s].ms[num];
		for (int k = 0; k < jobs[s].n; k++)
			if (jobs[s].order[k] == num)
				json_array_append_new(pos, json_integer(k));
		const char *want = ref ? ref : jobs[1].sha[num];
		if (jobs[s].hash && !*why && strcmp(jobs[s].sha[num], want) != 0)
			snprintf(why, sizeof(why), "stream %d's result differs from the %s", s,
				 ref ? "single stream's" : "first stream's");
	}
	snprintf(id, sizeof(id), RUN_T_PREFIX "Q%d", num);
	if (*why)
		run_event(c, "%s restart %d: %s", id, r + 1, why);
	explain(c, id, &c->queries[num], failure, plan_sha);
	json_t *extra = json_object();
	if (extra)
		json_object_set_new(extra, "stream_positions", pos);
	else
		json_decref(pos);
	return add_entry(c, t, id, r, ms, (size_t)S, jobs[1].rows[num],
			 jobs[1].hash ? jobs[1].sha[num] : NULL, *plan_sha ? plan_sha : NULL,
			 failure ? failure : *why ? why : NULL, extra);
}

/* The refresh stream's entries and its sets restored and checked against `before` (the check
 * before the streams); 0, -1 or RUN_E_SERVER with err filled when the data did not come back. */
static int record_refresh(struct run_state *c, struct run_target_state *t, int r,
			  const struct job *j, const struct rf_check *before, const char *failure,
			  struct errbuf *err)
{
	double ms1[RUN_STREAMS_MAX], ms2[RUN_STREAMS_MAX];
	long long rows1 = 0, rows2 = 0;
	struct rf_check after;
	int rc = 0;
	for (int i = 0; i < j->n_sets && rc == 0; i++)
		rc = rf_set_restore(c->sess->conn, &j->sets[i], err);
	struct errbuf perr;
	int purged = rc == 0 ? rf_purge_wait(c->sess->conn, &perr) : 0;
	if (rc == 0 && purged == RF_E_SERVER)
		rc = (*err = perr, RF_E_SERVER);
	if (rc == 0)
		rc = rf_check_read(c->sess->conn, &after, err);
	if (rc < 0)
		return rc == RF_E_SERVER ? RUN_E_SERVER : -1;
	int same = memcmp(before, &after, sizeof(after)) == 0;
	json_t *dc = json_pack("{s:o, s:o, s:b, s:b}", "before", run_rf_check_json(before), "after",
			       run_rf_check_json(&after), "same", same, "purge_waited", purged == 1);
	json_t *sets = json_array(), *sets2 = json_array();
	for (int i = 0; i < j->n_sets; i++) {
		ms1[i] = j->rf1[i].seconds * 1e3;
		ms2[i] = j->rf2[i].seconds * 1e3;
		rows1 += j->rf1[i].orders + j->rf1[i].lineitems;
		rows2 += j->rf2[i].orders + j->rf2[i].lineitems;
		json_array_append_new(sets, json_integer(j->sets[i].set));
		json_array_append_new(sets2, json_integer(j->sets[i].set));
	}
	json_t *x1 = json_pack("{s:o}", "refresh_sets", sets);
	json_t *x2 = json_pack("{s:o, s:o}", "refresh_sets", sets2, "data_check", dc);
	const char *bad = failure ? failure
			  : !same ? "the database check after the restore differs from the one "
				    "before the throughput test"
				  : NULL;
	/* rows: the first pair's, as the same rows each pair (every set has as many orders) */
	if (add_entry(c, t, RUN_T_RF1, r, ms1, (size_t)j->n_sets, rows1 / j->n_sets, NULL, NULL,
		      failure, x1) < 0 ||
	    add_entry(c, t, RUN_T_RF2, r, ms2, (size_t)j->n_sets, rows2 / j->n_sets, NULL, NULL, bad,
		      x2) < 0)
		return errbuf_set(err, "out of memory");
	if (same)
		return 0;
	return errbuf_set(err, "restart %d: %s", r + 1, bad);
}

/* Starts every job's thread, waits for all: 0, or -1 when a thread could not start. */
static int run_jobs(struct job *jobs, int S, int refresh, uint64_t *elapsed_ns)
{
	pthread_t th[RUN_STREAMS_MAX + 1];
	int started[RUN_STREAMS_MAX + 1] = {0}, rc = 0;
	uint64_t t0 = util_now_ns();
	for (int s = refresh ? 0 : 1; s <= S && rc == 0; s++) {
		rc = pthread_create(&th[s], NULL, s ? query_stream : refresh_stream, &jobs[s]);
		started[s] = rc == 0;
	}
	for (int s = 0; s <= S; s++)
		if (started[s])
			pthread_join(th[s], NULL);
	*elapsed_ns = util_now_ns() - t0;
	return rc ? -1 : 0;
}

/* The first failure of the jobs as text into out; NULL when none failed. */
static const char *failure_of(char *out, size_t len, const struct job *jobs, int S, int refresh,
			      int *lost)
{
	*lost = 0;
	for (int s = refresh ? 0 : 1; s <= S; s++) {
		if (!jobs[s].failed)
			continue;
		*lost = jobs[s].st == RUN_EXEC_LOST;
		if (s == 0)
			snprintf(out, len, "refresh stream: %s", jobs[s].err.msg);
		else
			snprintf(out, len, "stream %d: Q%d: %s", s, jobs[s].failed, jobs[s].err.msg);
		return out;
	}
	return NULL;
}

int run_streams_restart(struct run_state *c, struct run_target_state *t, int r,
			struct errbuf *err)
{
	const int S = c->plan->streams;
	const int refresh = c->n_rf > S;
	if (S < 1 || run_has_restart(res_file_find_query(t->t->res, RUN_T_STREAM), r))
		return 0;
	struct job *jobs = calloc((size_t)S + 1, sizeof(*jobs));
	struct rf_check before;
	int rc = jobs ? 0 : errbuf_set(err, "out of memory");
	for (int s = refresh ? 0 : 1; s <= S && rc == 0; s++) {
		rc = job_open(&jobs[s], c, t, s, err);
		jobs[s].hash = !refresh;
	}
	if (rc == 0 && refresh) {
		jobs[0].sets = &c->rf[1];
		jobs[0].n_sets = S;
		if ((rc = rf_check_read(c->sess->conn, &before, err)) < 0)
			rc = rc == RF_E_SERVER ? RUN_E_SERVER : -1;
	}
	uint64_t elapsed = 0;
	c->prog.query = "streams";
	run_progress_tell(c);
	if (rc == 0 && run_jobs(jobs, S, refresh, &elapsed) < 0)
		rc = errbuf_set(err, "cannot start the streams' threads");
	c->prog.query = NULL;
	char fail[1200];
	int lost = 0;
	const char *failure = rc == 0 ? failure_of(fail, sizeof(fail), jobs, S, refresh, &lost) : NULL;
	if (failure)
		run_event(c, "restart %d: %s", r + 1, failure);
	for (int i = 0; rc == 0 && i < c->plan->n_queries; i++)
		if (record_query(c, t, r, c->plan->queries[i], jobs, S, failure) < 0)
			rc = errbuf_set(err, "out of memory");
	if (rc == 0) {
		double ms[RUN_STREAMS_MAX];
		for (int s = 1; s <= S; s++)
			ms[s - 1] = (double)(jobs[s].t1 - jobs[s].t0) / 1e6;
		json_t *x = json_pack("{s:f}", "elapsed_ms", (double)elapsed / 1e6);
		if (add_entry(c, t, RUN_T_STREAM, r, ms, (size_t)S, -1, NULL, NULL, failure, x) < 0)
			rc = errbuf_set(err, "out of memory");
	}
	if (rc == 0 && refresh && !lost)
		rc = record_refresh(c, t, r, &jobs[0], &before, failure, err);
	jobs_close(jobs, jobs ? S + 1 : 0);
	if (rc == 0 && run_steady_flags(t->t->res, c->plan->steady_alpha) < 0)
		rc = errbuf_set(err, "out of memory");
	if (rc == 0)
		rc = run_checkpoint(t, err);
	if (rc == 0 && lost)
		rc = (errbuf_set(err, "restart %d: %s", r + 1, failure), RUN_E_SERVER);
	return rc;
}
