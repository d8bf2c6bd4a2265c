/* SPDX-License-Identifier: MIT */
/* run --refresh: per restart, after the queries, RF1 and RF2 of a staged refresh set as two
 * measured operations, then the restore and the database check (docs/run.md, "Refresh"). */
#include "runner/run_int.h"
#include "result/res_counts.h"

/* The refresh set every restart runs: the same set, so that every restart measures the same
 * work (TPC-H's power test takes a new set per run; here the restore undoes each pair). */
#define RUN_RF_SET 1

int run_rf_stage(struct run_state *c, struct errbuf *err)
{
	struct gen_ctx *ctx = NULL;
	struct errbuf gerr;
	int n = 1 + c->plan->streams; /* the refresh stream's pairs take sets 2 ... S + 1 */
	if (!c->plan->refresh)
		return 0;
	c->rf = calloc((size_t)n, sizeof(*c->rf));
	if (!c->rf)
		return errbuf_set(err, "out of memory");
	int rc = gen_ctx_new_threads(&ctx, c->plan->scale, 0, &gerr);
	for (c->n_rf = 0; rc == 0 && c->n_rf < n; c->n_rf++)
		rc = rf_set_stage(&c->rf[c->n_rf], ctx, RUN_RF_SET + c->n_rf, &gerr);
	gen_ctx_free(ctx);
	if (rc < 0) {
		run_rf_release(c);
		errbuf_set(err, "--refresh: %s", gerr.msg);
		return RUN_E_NODATA;
	}
	return 0;
}

void run_rf_release(struct run_state *c)
{
	for (int i = 0; c->rf && i < c->n_rf; i++)
		rf_set_release(&c->rf[i]);
	free(c->rf);
	c->rf = NULL;
	c->n_rf = 0;
}

int run_rf_prepare(struct run_state *c, struct run_target_state *t, struct errbuf *err)
{
	struct res_file *res = t->t->res;
	const struct rf_set *s = c->rf;
	static const char *const ids[] = {RUN_RF1, RUN_RF2};
	if (!s)
		return 0;
	for (int i = 0; i < 2; i++) {
		const char *sha = i ? s->rf2_sha256 : s->rf1_sha256;
		struct res_query *q = res_file_find_query(res, ids[i]);
		if (q && q->sql_sha256 && strcmp(q->sql_sha256, sha) != 0)
			return errbuf_set(err, "'%s': %s was measured with another refresh set",
					  t->t->out_path, ids[i]);
		if ((!q && !res_file_add_query(res, ids[i], sha)) ||
		    run_plan_query_add(res->plan, ids[i]) < 0)
			return errbuf_set(err, "out of memory");
	}
	json_t *rf = json_pack("{s:I, s:I, s:s, s:s, s:s}", "set", (json_int_t)s->set,
			       "orders_per_set", (json_int_t)s->n, "source",
			       "dbgen -U update set, generated in process", "check",
			       "count-checksum", "purge_wait", "innodb_max_purge_lag_wait=0");
	if (!rf)
		return errbuf_set(err, "out of memory");
	json_object_set_new(res->plan, "refresh", rf);
	return 0;
}

/* The checksums as decimal strings: CHECKSUM TABLE's unsigned 64-bit value does not fit a JSON
 * integer. */
json_t *run_rf_check_json(const struct rf_check *k)
{
	char so[24], sl[24];
	snprintf(so, sizeof(so), "%llu", (unsigned long long)k->orders_sum);
	snprintf(sl, sizeof(sl), "%llu", (unsigned long long)k->lineitems_sum);
	return json_pack("{s:I, s:I, s:s, s:s}", "orders", (json_int_t)k->orders, "lineitems",
			 (json_int_t)k->lineitems, "orders_checksum", so, "lineitem_checksum", sl);
}

/* The first recorded check before a pair (any earlier restart's RF2 entry), or NULL. */
static json_t *reference_check(const struct res_file *res)
{
	const struct res_query *q = res_file_find_query(res, RUN_RF2);
	json_t *best = NULL;
	int best_index = -1;
	for (size_t i = 0; q && i < q->n_restarts; i++) {
		json_t *dc = json_object_get(q->restarts[i].extra, "data_check");
		json_t *b = json_object_get(dc, "before");
		if (b && (best_index < 0 || q->restarts[i].index < best_index)) {
			best = b;
			best_index = q->restarts[i].index;
		}
	}
	return best;
}

/* One function's measurement around fn: the server's CPU and the session's work counters read
 * outside its transaction's timed window. */
struct rf_meas {
	struct rf_stat st;
	uint64_t cpu0, cpu1;
	int have_cpu, have_work;
	struct run_work *work; /* the session's work counters, NULL: none */
	struct run_work_snap snaps[2];
};

static void meas_before(struct run_state *c, struct rf_meas *m)
{
	struct errbuf e;
	memset(m, 0, sizeof(*m));
	m->have_cpu = c->sess->cpu && run_cpu_sample(c->sess->cpu, &m->cpu0, &e) == 0;
	m->work = run_probe_work_of(c->sess);
	m->have_work = m->work && run_work_read(m->work, c->sess->conn, &m->snaps[0], &e) == 0;
}

static void meas_after(struct run_state *c, struct rf_meas *m)
{
	struct errbuf e;
	m->have_cpu = m->have_cpu && run_cpu_sample(c->sess->cpu, &m->cpu1, &e) == 0;
	m->have_work = m->have_work && run_work_read(m->work, c->sess->conn, &m->snaps[1], &e) == 0;
}

/* The restart entry of one function from its measurement (rc: how it ended). */
static int record(struct run_state *c, struct run_target_state *t, const char *id, int r,
		  int pos, const struct rf_meas *m, int rc, const struct errbuf *ferr,
		  json_t *data_check)
{
	struct res_restart rr;
	double ms = m->st.seconds * 1e3, cpu = (double)(m->cpu1 - m->cpu0) / 1e6;
	memset(&rr, 0, sizeof(rr));
	rr.index = r;
	rr.status = rc == 0 ? RES_STATUS_OK : RES_STATUS_ERROR;
	rr.rows = rc == 0 ? (long long)(m->st.orders + m->st.lineitems) : -1;
	if (rc == 0) {
		rr.measured_ms = &ms;
		rr.n_measured = 1;
		if (m->have_cpu && m->cpu1 >= m->cpu0) {
			rr.server_cpu_ms = &cpu;
			rr.n_server_cpu = 1;
		}
	} else {
		rr.error = (char *)ferr->msg;
	}
	rr.extra = json_object();
	if (!rr.extra)
		return -1;
	json_object_set_new(rr.extra, "refresh",
			    json_pack("{s:I, s:I, s:I}", "set", (json_int_t)c->rf->set, "orders",
				      (json_int_t)m->st.orders, "lineitems",
				      (json_int_t)m->st.lineitems));
	if (rc == 0 && m->have_work) {
		struct res_counts counts;
		struct errbuf werr;
		res_counts_init(&counts, 1);
		if (run_work_counts(&counts, m->work, m->snaps, 1, &werr) < 0)
			run_event(c, "%s: no work counters: %s", id, werr.msg);
		else if (counts.n)
			json_object_set_new(rr.extra, "work", res_counts_json(&counts));
		res_counts_release(&counts);
	}
	if (data_check)
		json_object_set(rr.extra, "data_check", data_check);
	json_object_set_new(rr.extra, "position", json_integer(pos));
	json_object_set_new(rr.extra, "server_start", json_integer(t->start_seq));
	struct res_query *q = res_file_find_query(t->t->res, id);
	const struct res_restart *stored = q ? res_query_add_restart(q, &rr) : NULL;
	json_decref(rr.extra);
	return stored ? 0 : -1;
}

/* RF1 and RF2 measured, restored, checked: fills the measurements and dc ({"before", "after",
 * "same", "purge_waited"}); 0, -1 or RF_E_SERVER with err filled (*failed: 1 the check before
 * or RF1, 2 RF2, 3 the restore or the check after). */
static int pair(struct run_state *c, struct rf_meas *m1, struct rf_meas *m2, json_t *dc,
		int *failed, struct errbuf *err)
{
	struct rf_check before, after;
	memset(m1, 0, sizeof(*m1));
	memset(m2, 0, sizeof(*m2));
	*failed = 1;
	int rc = rf_check_read(c->sess->conn, &before, err);
	if (rc < 0)
		return rc;
	json_object_set_new(dc, "before", run_rf_check_json(&before));
	struct errbuf ignored;
	meas_before(c, m1);
	rc = rf_set_insert(c->sess->conn, c->rf, &m1->st, err);
	meas_after(c, m1);
	if (rc < 0) { /* the data back as found, when the server is still there */
		if (rc != RF_E_SERVER)
			rf_set_restore(c->sess->conn, c->rf, &ignored);
		return (*failed = 1, rc);
	}
	meas_before(c, m2);
	rc = rf_set_delete(c->sess->conn, c->rf, &m2->st, err);
	meas_after(c, m2);
	if (rc < 0) {
		if (rc != RF_E_SERVER)
			rf_set_restore(c->sess->conn, c->rf, &ignored);
		return (*failed = 2, rc);
	}
	*failed = 3;
	if ((rc = rf_set_restore(c->sess->conn, c->rf, err)) < 0)
		return rc;
	struct errbuf perr;
	int purged = rf_purge_wait(c->sess->conn, &perr);
	if (purged == RF_E_SERVER)
		return (*err = perr, RF_E_SERVER);
	if ((rc = rf_check_read(c->sess->conn, &after, err)) < 0)
		return rc;
	json_object_set_new(dc, "after", run_rf_check_json(&after));
	json_object_set_new(dc, "same",
			    json_boolean(memcmp(&before, &after, sizeof(before)) == 0));
	json_object_set_new(dc, "purge_waited", json_boolean(purged == 1));
	*failed = 0;
	return 0;
}

/* Why the data of this pair is not what the run measures: the restore did not bring it back,
 * or it differs from the first restart's; "" when it is. */
static void data_problem(char *out, size_t len, json_t *dc, json_t *ref)
{
	json_t *before = json_object_get(dc, "before");
	*out = '\0';
	if (!json_is_true(json_object_get(dc, "same")))
		snprintf(out, len, "the database check after the restore differs from the one "
				   "before RF1 (rows or CHECKSUM TABLE of orders, lineitem)");
	else if (ref && !json_equal(ref, before))
		snprintf(out, len, "the database check before RF1 differs from the first "
				   "restart's: the data changed between restarts");
}

int run_rf_restart(struct run_state *c, struct run_target_state *t, int r, struct errbuf *err)
{
	struct rf_meas m1, m2;
	struct errbuf ferr = {{0}};
	int failed = 0, pos = c->plan->n_queries;
	if (!c->rf || run_has_restart(res_file_find_query(t->t->res, RUN_RF2), r))
		return 0;
	json_t *dc = json_object(), *ref = reference_check(t->t->res);
	if (!dc)
		return errbuf_set(err, "out of memory");
	ref = ref ? json_incref(ref) : NULL;
	c->prog.query = RUN_RF1 "+" RUN_RF2;
	run_progress_tell(c);
	int rc = pair(c, &m1, &m2, dc, &failed, &ferr);
	c->prog.query = NULL;
	char why[200] = "";
	if (rc == 0)
		data_problem(why, sizeof(why), dc, ref);
	json_decref(ref);
	/* RF1's entry fails with RF1, RF2's with anything after RF1 (not run, restore, check) */
	struct errbuf e2 = ferr;
	int r1 = failed == 1 ? rc : 0, r2 = failed >= 1 ? -1 : 0;
	if (failed == 1)
		snprintf(e2.msg, sizeof(e2.msg), "not run: RF1 failed");
	else if (rc == 0 && *why) {
		snprintf(e2.msg, sizeof(e2.msg), "%s", why);
		r2 = -1;
	}
	if (record(c, t, RUN_RF1, r, pos, &m1, r1, &ferr, NULL) < 0 ||
	    record(c, t, RUN_RF2, r, pos + 1, &m2, r2, &e2, dc) < 0) {
		json_decref(dc);
		return errbuf_set(err, "out of memory");
	}
	json_decref(dc);
	if (run_steady_flags(t->t->res, c->plan->steady_alpha) < 0)
		return errbuf_set(err, "out of memory");
	if (run_checkpoint(t, err) < 0)
		return -1;
	if (rc == 0 && !*why)
		return 0;
	errbuf_set(err, "restart %d: %s%s", r + 1,
		   rc < 0 && failed == 1   ? "RF1 failed: "
		   : rc < 0 && failed == 2 ? "RF2 failed: "
		   : rc < 0		   ? "the refresh restore or check failed: "
					   : "",
		   rc < 0 ? ferr.msg : why);
	return rc == RF_E_SERVER ? RUN_E_SERVER : -1;
}

/* ---- the data snapshot (server/srv_snapshot.h; docs/run.md, "Refresh functions") ---- */

int run_rf_snapshot_open(struct run_state *c, struct run_target_state *t, struct errbuf *err)
{
	if (srv_snapshot_owned(t->srv))
		return 0; /* another target on the same instance took it */
	int r = srv_snapshot_restore(t->srv, err);
	if (r < 0)
		return RUN_E_SERVER;
	if (r > 0)
		run_event(c, "restored '%s/data' from the snapshot an interrupted refresh run left",
			  srv_instdir(t->srv));
	if (!c->plan->refresh)
		return 0;
	struct srv_snapshot_info si;
	if (srv_snapshot_take(t->srv, &si, err) < 0)
		return RUN_E_REFUSED;
	run_event(c,
		  "--refresh: snapshot of '%s/data' taken (%llu files reflinked, %llu copied); "
		  "restored at the end of the run",
		  srv_instdir(t->srv), (unsigned long long)si.clone.files_reflinked,
		  (unsigned long long)si.clone.files_copied);
	return 0;
}

int run_rf_snapshot_close(struct run_state *c, int rc, struct errbuf *err)
{
	struct run_target_state *owner = NULL;
	for (int i = 0; i < c->n_targets && !owner; i++)
		if (c->ts[i].srv && srv_snapshot_owned(c->ts[i].srv))
			owner = &c->ts[i];
	if (!owner)
		return rc;
	struct errbuf serr;
	int stopped = 0;
	for (int i = 0; i < c->n_targets; i++)
		stopped |= c->ts[i].srv && srv_stop(c->ts[i].srv, &serr) < 0;
	int r = stopped ? -1 : srv_snapshot_restore(owner->srv, &serr);
	if (r >= 0)
		return rc;
	if (rc == 0) {
		*err = serr;
		return RUN_E_SERVER;
	}
	run_event(c, "the snapshot of '%s/data' was not restored: %s", srv_instdir(owner->srv),
		  serr.msg);
	return rc;
}
