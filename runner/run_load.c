/* SPDX-License-Identifier: MIT */
/* Server restarts around the loader's three steps (runner/run_load.h). */
#include "runner/run_load.h"
#include <string.h>

static double since(uint64_t t0)
{
	return (double)(util_now_ns() - t0) / 1e9;
}

/* Stops a managed server and starts it again, with the bulk profile or without it; one that
 * ran before the load (outlive) keeps running after it. */
static int restart(struct srv *s, int bulk, int outlive, struct errbuf *err)
{
	if (srv_stop(s, err) < 0)
		return LOAD_E_SERVER;
	struct srv_launch launch = {.outlive = outlive};
	if (bulk)
		launch.overlay = load_bulk_profile(&launch.n_overlay);
	if (srv_start(s, &launch, err) < 0)
		return LOAD_E_SERVER;
	return 0;
}

/* The restart without the bulk profile, timed and shown as the restore phase. */
static int restore(struct srv *s, const struct load_opts *o, int outlive, struct load_report *out,
		   struct errbuf *err)
{
	uint64_t t0 = util_now_ns();
	if (o->progress) {
		struct load_progress p = {.phase = LOAD_PHASE_RESTORE};
		o->progress(o->progress_arg, &p);
	}
	int rc = restart(s, 0, outlive, err);
	out->phase_seconds[LOAD_PHASE_RESTORE] = since(t0);
	return rc;
}

/* The steps, with the server on the bulk profile for load_data when *bulk_now or when a
 * managed server may be restarted into it (outlive: it ran before the load, and stays up). */
static int steps(struct srv *s, const struct load_opts *o, int managed, int outlive, int *bulk_now,
		 struct load_report *out, struct errbuf *err)
{
	int rc = load_begin(s, o, out, err);
	if (rc < 0 || out->noop)
		return rc;
	if (managed && o->bulk_profile && !*bulk_now) {
		if ((rc = restart(s, 1, outlive, err)) < 0)
			return rc;
		*bulk_now = 1;
	}
	if ((rc = load_data(s, o, out, err)) < 0)
		return rc;
	if (*bulk_now) {
		if ((rc = restore(s, o, outlive, out, err)) < 0)
			return rc;
		*bulk_now = 0;
	}
	return load_finish(s, o, out, err);
}

int run_load(struct srv *s, const struct load_opts *o, struct load_report *out, struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	if (load_check_opts(o, err) < 0)
		return -1;
	uint64_t t_all = util_now_ns();
	int managed = !srv_is_external(s);
	int was_running = managed ? srv_ping(s) : 1;
	int rc = 0, started = 0, bulk_now = 0;

	if (managed) {
		if (!srv_is_initialised(s) && srv_init_datadir(s, err) < 0)
			return LOAD_E_SERVER;
		struct srv_launch launch = {0};
		if (!was_running && o->bulk_profile) {
			launch.overlay = load_bulk_profile(&launch.n_overlay);
			bulk_now = 1;
		}
		if (srv_ensure_started(s, &launch, &started, err) < 0)
			return LOAD_E_SERVER;
	}
	rc = steps(s, o, managed, was_running, &bulk_now, out, err);
	if (managed) {
		struct errbuf e2;
		if (!was_running) {
			if (srv_stop(s, &e2) < 0 && rc == 0)
				rc = errbuf_set(err, "%s", e2.msg);
		} else {
			if (rc < 0 && bulk_now && rc != LOAD_E_SERVER && restart(s, 0, 1, &e2) < 0)
				rc = errbuf_set(err, "%s; restoring the server failed: %s",
						err->msg, e2.msg);
			srv_detach(s); /* it was up before: leave it up (restarted if we did) */
		}
	}
	out->total_seconds = since(t_all);
	return rc < 0 ? rc : 0;
}
