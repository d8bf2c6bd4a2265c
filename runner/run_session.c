/* SPDX-License-Identifier: MIT */
/* A target's server in a run: start (pinned), session, dataset, crash recovery. */
#include "runner/run_int.h"

void run_session_close(struct run_session *s)
{
	run_watch_free(s->watch);
	s->watch = NULL;
	run_probes_close(s);
	if (s->conn)
		mysql_close(s->conn);
	s->conn = NULL;
}

/* The connection, the probes and the query-timeout watch for a running server. */
static int open_session(struct run_state *c, struct run_target_state *t, struct errbuf *err)
{
	c->sess->conn = srv_connect(t->srv, RUN_DB, err);
	if (!c->sess->conn)
		return -1;
	if (run_probes_open(c, t, c->sess, err) < 0)
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
