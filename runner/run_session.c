/* SPDX-License-Identifier: MIT */
/* A target's server in a run: start (pinned), session, dataset, crash recovery, probe. */
#include "runner/run_int.h"

void run_session_close(struct run_session *s)
{
	run_watch_free(s->watch);
	s->watch = NULL;
	run_cpu_free(s->cpu);
	s->cpu = NULL;
	run_interf_free(s->interf);
	s->interf = NULL;
	run_instr_free(s->instr);
	s->instr = NULL;
	if (s->conn)
		mysql_close(s->conn);
	s->conn = NULL;
	s->have_work = 0;
}

/* The work counters of the new session: the cost of a reading measured, recorded in the plan
 * (plan.work_source, plan.work_reading_cost: what one reading adds, subtracted). */
static void open_work(struct run_state *c, struct run_target_state *t)
{
	struct errbuf werr;
	enum run_work_flavour f =
	    srv_flavour(t->srv) == SRV_FLAVOUR_MYSQL ? RUN_WORK_MYSQL : RUN_WORK_MARIADB;
	c->sess->have_work = run_work_open(&c->sess->work, c->sess->conn, f, &werr) == 0;
	if (!c->sess->have_work) {
		run_event(c, "no work counters: %s", werr.msg);
		return;
	}
	json_t *cost = json_object();
	for (int i = 0; cost && i < RUN_WORK_MAX; i++)
		if ((c->sess->work.offset.have & (1ul << i)) && c->sess->work.offset.v[i])
			json_object_set_new(cost, run_work_name(i, f),
					    json_integer(c->sess->work.offset.v[i]));
	json_object_set_new(t->t->res->plan, "work_source", json_string("SHOW SESSION STATUS"));
	json_object_set_new(t->t->res->plan, "work_reading_cost", cost);
}

/* Instructions per execution on the new session (docs/work.md): with --instructions callgrind's,
 * which must answer (-1 otherwise: the run was asked for them); without, the PMU's where the
 * host has one, and where it has not the reason once in plan.pmu_unavailable. */
static int open_instr(struct run_state *c, struct run_target_state *t, struct errbuf *err)
{
	struct errbuf ierr;
	json_t *plan = t->t->res->plan;
	if (c->plan->instructions) {
		if (run_instr_open(&c->sess->instr, RUN_INSTR_CALLGRIND, t->srv, c->sess->conn,
				   &ierr) < 0)
			return errbuf_set(err, "run --instructions: %s", ierr.msg);
		json_object_set_new(plan, "instructions_source", json_string("callgrind"));
		return 0;
	}
	if (srv_is_external(t->srv) || srv_flavour(t->srv) != SRV_FLAVOUR_MARIADB)
		return 0; /* the session's thread id is MariaDB's PROCESSLIST.TID */
	if (run_instr_open(&c->sess->instr, RUN_INSTR_PMU, t->srv, c->sess->conn, &ierr) < 0) {
		json_object_set_new(plan, "pmu_unavailable", json_string(ierr.msg));
		return 0;
	}
	json_object_set_new(plan, "instructions_source", json_string("pmu"));
	json_object_del(plan, "pmu_unavailable");
	return 0;
}

/* Connections and the CPU sampler for a running server. */
static int open_session(struct run_state *c, struct run_target_state *t, struct errbuf *err)
{
	c->sess->conn = srv_connect(t->srv, RUN_DB, err);
	if (!c->sess->conn)
		return -1;
	pid_t pid = srv_pid(t->srv);
	if (pid > 0 && run_cpu_new(&c->sess->cpu, pid, RUN_CPU_AUTO, err) < 0)
		goto fail;
	if (c->sess->cpu)
		json_object_set_new(t->t->res->plan, "server_cpu_source",
				    json_string(run_cpu_source_name(c->sess->cpu)));
	struct errbuf nerr;
	if (pid > 0 && run_interf_open(&c->sess->interf, t->srv, c->sess->conn, c->pin, &nerr) < 0)
		run_event(c, "no interference record: %s", nerr.msg);
	open_work(c, t);
	if (open_instr(c, t, err) < 0)
		goto fail;
	if (c->plan->query_timeout > 0) {
		MYSQL *killer = srv_connect(t->srv, NULL, err);
		if (!killer)
			goto fail;
		uint64_t ns = (uint64_t)(c->plan->query_timeout * 1e9);
		if (run_watch_new(&c->sess->watch, killer, ns, err) < 0) {
			mysql_close(killer);
			goto fail;
		}
	}
	return 0;
fail:
	run_session_close(c->sess);
	return -1;
}

/* The data now against the content check its load stored (and a resumed file recorded):
 * changed data (e.g. by a refresh run killed before it restored it) is refused. */
static int content_check(struct run_state *c, struct run_target_state *t,
			 const struct load_fingerprint *fp, struct errbuf *err)
{
	char now[LOAD_CONTENT_LEN];
	if (!fp->content[0]) {
		run_event(c,
			  "the load in '%s' has no content check (an older dbt3stab made it): "
			  "'dbt3stab load --force' adds one",
			  srv_instdir(t->srv));
		return 0;
	}
	int rc = load_content_read(c->sess->conn, RUN_DB, now, err);
	if (rc < 0)
		return rc == LOAD_E_SERVER ? RUN_E_SERVER : -1;
	const char *old = json_string_value(json_object_get(t->t->res->dataset, "content_check"));
	int loaded = strcmp(now, fp->content) == 0;
	if (!loaded || (old && strcmp(old, now) != 0))
		return (
		    errbuf_set(err,
			       "the data in '%s' is not what was %s (content check %s, now %s): "
			       "reload it with 'dbt3stab load --force -s %g'",
			       srv_instdir(t->srv), loaded ? "measured" : "loaded",
			       loaded ? old : fp->content, now, c->plan->scale),
		    RUN_E_NODATA);
	return 0;
}

/* The dataset section from the load's fingerprint; the data must be a complete load of the
 * plan's scale factor, and the same data a resumed file was measured on. */
static int describe_dataset(struct run_state *c, struct run_target_state *t, struct errbuf *err)
{
	struct load_fingerprint fp;
	int rc = load_fingerprint_read(c->sess->conn, RUN_DB, &fp, err);
	if (rc == LOAD_E_NONE)
		return (errbuf_set(err,
				   "database '%s' in '%s' holds no complete load: run 'dbt3stab "
				   "load -s %g' with the same server options first",
				   RUN_DB, srv_instdir(t->srv), c->plan->scale),
			RUN_E_NODATA);
	if (rc < 0)
		return rc == LOAD_E_SERVER ? RUN_E_SERVER : -1;
	if (fabs(fp.sf - c->plan->scale) > 1e-9 * fmax(1, fp.sf))
		return (errbuf_set(err, "the loaded data is scale factor %g, not %g", fp.sf,
				   c->plan->scale),
			RUN_E_NODATA);
	char ident[1024], sha[65];
	size_t n =
	    (size_t)snprintf(ident, sizeof(ident), "sf=%.17g generator=%s indexes=%s rows=", fp.sf,
			     fp.generator, fp.indexes);
	for (int i = 0; i < GEN_NTABLES && n < sizeof(ident); i++)
		n += (size_t)snprintf(ident + n, sizeof(ident) - n, "%s%lld", i ? "," : "",
				      (long long)fp.rows[i]);
	util_sha256_hex(sha, ident, strlen(ident));
	const char *old = json_string_value(json_object_get(t->t->res->dataset, "fingerprint"));
	if (old && strcmp(old, sha) != 0)
		return (errbuf_set(err,
				   "'%s' was measured on other data (dataset fingerprint %.12s, "
				   "now %.12s): cannot resume on this data",
				   t->t->out_path, old, sha),
			RUN_E_NODATA);
	if ((rc = content_check(c, t, &fp, err)) < 0)
		return rc;
	json_t *ds = load_fingerprint_json(&fp);
	if (!ds)
		return errbuf_set(err, "out of memory");
	json_object_set_new(ds, "generator_version", json_string(fp.generator));
	json_object_set_new(ds, "fingerprint", json_string(sha));
	json_object_set_new(ds, "database", json_string(RUN_DB));
	res_set_section(&t->t->res->dataset, ds);
	return 0;
}

/* Starts the target's server (pinned), verifies the placement, opens the session. */
int run_server_start(struct run_state *c, struct run_target_state *t, struct errbuf *err)
{
	const char *extra[8];
	struct srv_kv overlay[8];
	int n_extra = 0;
	struct srv_launch launch = {0};
	uint64_t t0 = util_now_ns();
	if (c->pin) {
		if (pin_ctx_before_start(c->pin, err) < 0)
			return -1;
		n_extra = pin_ctx_server_args(c->pin, extra, 8);
		for (int i = 0; i < n_extra; i++) {
			overlay[i].name = (char *)extra[i];
			overlay[i].value = NULL;
		}
		launch.child_hook = pin_child_hook;
		launch.arg = c->pin;
		launch.overlay = overlay;
		launch.n_overlay = (size_t)n_extra;
	}
	c->sess = &t->sess;
	if (srv_start(t->srv, &launch, err) < 0)
		return RUN_E_SERVER;
	t->starts++;
	t->start_seq = c->start_seq++;
	c->probe_last_ns = -1;
	if (c->pin) {
		struct errbuf verr;
		if (pin_ctx_verify(c->pin, srv_pid(t->srv), &verr) < 0) {
			run_event(c, "placement check failed: %s", verr.msg);
			json_object_set_new(t->t->res->pinning, "verify_error",
					    json_string(verr.msg));
		} else {
			json_object_set_new(t->t->res->pinning, "verified", json_true());
		}
	}
	if (open_session(c, t, err) < 0)
		return RUN_E_SERVER;
	if (!t->described) {
		struct errbuf ierr;
		int drc = describe_dataset(c, t, err);
		if (drc < 0) {
			run_session_close(c->sess);
			srv_stop(t->srv, &ierr);
			return drc;
		}
		json_t *info = srv_info_json(t->srv, &ierr);
		if (info)
			res_set_section(&t->t->res->server, info);
		else
			run_event(c, "cannot describe the server: %s", ierr.msg);
		t->described = 1;
	}
	c->start_ns += util_now_ns() - t0;
	c->start_n++;
	return 0;
}

int run_server_stop(struct run_state *c, struct run_target_state *t, struct errbuf *err)
{
	uint64_t t0 = util_now_ns();
	run_session_close(&t->sess);
	int rc = srv_stop(t->srv, err);
	c->start_ns += util_now_ns() - t0;
	return rc;
}

/* After a lost connection: a new session, or after a crash a new server (up to --max-crashes). */
int run_recover(struct run_state *c, struct run_target_state *t, int crashed, struct errbuf *err)
{
	const struct run_plan *p = c->plan;
	c->sess = &t->sess;
	if (!crashed) {
		run_session_close(c->sess);
		return open_session(c, t, err) < 0 ? RUN_E_SERVER : 0;
	}
	t->crashes++;
	run_session_close(c->sess);
	struct errbuf serr;
	srv_stop(t->srv, &serr); /* cleans up after the dead process */
	if (t->crashes > p->max_crashes) {
		errbuf_set(err,
			   "the server crashed %d times (more than --max-crashes %d): giving up",
			   t->crashes, p->max_crashes);
		return RUN_E_SERVER;
	}
	run_event(c, "restarting the server (crash %d of at most %d)", t->crashes, p->max_crashes);
	return run_server_start(c, t, err);
}

/* One memory probe, by the worker on the server's PUs (the server is idle between queries;
 * unpinned: where the scheduler puts it); < 0 without a probe. Its time is a restart's fixed
 * cost, like its start and stop (--budget's plan counts it there), and not the paced queries'. */
static double probe_take(struct run_state *c)
{
	if (!c->probe_worker)
		return -1;
	uint64_t t0 = util_now_ns();
	double ns = run_memprobe_worker_take(c->probe_worker);
	c->probe_takes++;
	uint64_t took = util_now_ns() - t0;
	c->start_ns += took;
	c->pace_t0 += c->pace_ns ? took : 0;
	return ns;
}

double run_probe_last(struct run_state *c, unsigned long *seq)
{
	if (c->probe_last_ns < 0)
		c->probe_last_ns = probe_take(c);
	*seq = c->probe_takes;
	return c->probe_last_ns;
}

void run_probe_record(struct run_state *c, json_t *rec, double before, unsigned long seq)
{
	double after = c->probe_takes != seq ? c->probe_last_ns : probe_take(c);
	c->probe_last_ns = after;
	if (!rec || before < 0 || after < 0)
		return;
	json_object_set_new(rec, "memory_probe_before_ns", json_real(before));
	json_object_set_new(rec, "memory_probe_after_ns", json_real(after));
}

/* The probe's ring fitted to the cache of the server's PUs (run_memprobe_fit), then its quiet
 * level on this host, before any server starts: the fastest of RUN_MEMPROBE_CALIBRATION probes,
 * kept in each result's host.memory_probe (the lower of it and a resumed file's). */
#define RUN_MEMPROBE_CALIBRATION 9
void run_probe_open(struct run_state *c)
{
	struct errbuf perr;
	int managed = 0;
	for (int i = 0; i < c->n_targets; i++)
		managed |= !srv_is_external(c->ts[i].srv);
	if (!managed)
		return; /* no interference record either */
	size_t llc = c->pin ? pin_ctx_llc_bytes(c->pin) : 0;
	const struct pin_placement *pl = c->pin ? pin_ctx_placement(c->pin) : NULL;
	int pinned = pl && pl->pinned;
	double memory_ns = -1;
	if (run_memprobe_fit(&c->probe, &c->probe_worker, &memory_ns, run_memprobe_ring_bytes(llc),
			     pinned ? pl->server_cpus : NULL, pinned ? pl->n_server : 0,
			     &perr) < 0) {
		run_event(c, "no memory probe: %s", perr.msg);
		return;
	}
	double floor = -1, cal[RUN_MEMPROBE_CALIBRATION];
	int n_cal = 0;
	for (int i = 0; i < RUN_MEMPROBE_CALIBRATION; i++) {
		double ns = probe_take(c);
		if (ns >= 0)
			cal[n_cal++] = ns;
		if (ns >= 0 && (floor < 0 || ns < floor))
			floor = ns;
	}
	if (floor < 0)
		return;
	for (int i = 0; i < c->n_targets; i++) {
		struct res_file *res = c->ts[i].t->res;
		if (!res->host && !(res->host = json_object()))
			continue;
		json_t *old = json_object_get(res->host, "memory_probe");
		double was = json_number_value(json_object_get(old, "floor_ns"));
		json_object_set_new(res->host, "memory_probe",
				    json_pack("{s:I, s:f, s:i}", "ring_bytes",
					      (json_int_t)run_memprobe_bytes(c->probe), "floor_ns",
					      was > 0 && was < floor ? was : floor,
					      "calibration_probes", RUN_MEMPROBE_CALIBRATION));
		/* the probes themselves: the memory rule's reference at start (result/res.h) */
		json_t *a = json_array();
		for (int k = 0; a && k < n_cal; k++)
			json_array_append_new(a, json_real(cal[k]));
		json_object_set_new(json_object_get(res->host, "memory_probe"), "calibration_ns",
				    a);
		if (memory_ns > 0) /* the latency the ring was fitted against */
			json_object_set_new(json_object_get(res->host, "memory_probe"), "memory_ns",
					    json_real(memory_ns));
	}
}
