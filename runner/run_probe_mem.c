/* SPDX-License-Identifier: MIT */
/* The memory probe (run_memprobe.h) around each query's interference window: one probe before it
 * (the one after the previous query of the server start, or a new one) and one after, added to
 * the window's "interference" record; calibrated once per run in host.memory_probe. */
#include "runner/run_int.h"

/* The run's: the worker on the server's PUs and the last probe of the current server start. */
struct mem_run {
	struct run_memprobe *probe;
	struct run_memprobe_worker *worker;
	double last_ns;	     /* < 0: none yet in this server start */
	int start_seq;	     /* the server start last_ns belongs to */
	unsigned long takes; /* probes taken so far */
};

struct mem_probe {
	struct mem_run *run;
	struct run_session *s;
	double before;
	unsigned long seq; /* run->takes when the window opened */
};

/* One probe, by the worker on the server's PUs (the server is idle between queries; unpinned:
 * where the scheduler puts it); < 0 without one. Its time is a restart's fixed cost, like its
 * start and stop (--budget's plan counts it there), and not the paced queries'. */
static double take(struct run_state *c, struct mem_run *m)
{
	uint64_t t0 = util_now_ns();
	double ns = run_memprobe_worker_take(m->worker);
	uint64_t took = util_now_ns() - t0;
	m->takes++;
	c->start_ns += took;
	c->pace_t0 += c->pace_ns ? took : 0;
	return ns;
}

/* The probe's quiet level on this host: the fastest of CALIBRATION probes, kept in each
 * result's host.memory_probe (the lower of it and a resumed file's), with memory_ns, the
 * latency the ring was fitted against (> 0: known). */
#define CALIBRATION 9
static void calibrate(struct run_state *c, struct mem_run *m, double memory_ns)
{
	double floor = -1, cal[CALIBRATION];
	int n_cal = 0;
	for (int i = 0; i < CALIBRATION; i++) {
		double ns = take(c, m);
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
					      (json_int_t)run_memprobe_bytes(m->probe), "floor_ns",
					      was > 0 && was < floor ? was : floor,
					      "calibration_probes", CALIBRATION));
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

/* Before any server starts, where the run manages one (an external server has no interference
 * record either): the ring fitted to the cache of the server's PUs (run_memprobe_fit), then
 * calibrated. */
static void mem_start(void **out, struct run_state *c)
{
	struct errbuf perr;
	int managed = 0;
	for (int i = 0; i < c->n_targets; i++)
		managed |= !srv_is_external(c->ts[i].srv);
	if (!managed)
		return;
	struct mem_run *m = calloc(1, sizeof(*m));
	if (!m) {
		run_event(c, "no memory probe: out of memory");
		return;
	}
	m->last_ns = -1;
	m->start_seq = -1;
	size_t llc = c->pin ? pin_ctx_llc_bytes(c->pin) : 0;
	const struct pin_placement *pl = c->pin ? pin_ctx_placement(c->pin) : NULL;
	int pinned = pl && pl->pinned;
	double memory_ns = -1;
	if (run_memprobe_fit(&m->probe, &m->worker, &memory_ns, run_memprobe_ring_bytes(llc),
			     pinned ? pl->server_cpus : NULL, pinned ? pl->n_server : 0,
			     &perr) < 0) {
		run_event(c, "no memory probe: %s", perr.msg);
		free(m);
		return;
	}
	calibrate(c, m, memory_ns);
	*out = m;
}

static void mem_stop(void *run)
{
	struct mem_run *m = run;
	run_memprobe_worker_stop(m->worker);
	run_memprobe_free(m->probe);
	free(m);
}

static int mem_open(void **out, void *run, struct run_state *c, struct run_target_state *t,
		    struct run_session *s, struct errbuf *err)
{
	struct mem_run *m = run;
	struct mem_probe *p;
	(void)c;
	if (!m)
		return 0;
	if (!(p = calloc(1, sizeof(*p))))
		return errbuf_set(err, "out of memory");
	if (m->start_seq != t->start_seq) { /* a new server start: a new first probe */
		m->start_seq = t->start_seq;
		m->last_ns = -1;
	}
	p->run = m;
	p->s = s;
	*out = p;
	return 0;
}

/* The probe before the window, where the session has one: the last of this server start. */
static void mem_begin(void *st, struct run_state *c, const struct run_probe_query *q)
{
	struct mem_probe *p = st;
	(void)q;
	p->before = -1;
	if (!p->s->probe[RUN_PROBE_INTERF])
		return;
	if (p->run->last_ns < 0)
		p->run->last_ns = take(c, p->run);
	p->before = p->run->last_ns;
	p->seq = p->run->takes;
}

/* The probe after the window into its record: one taken since the window opened serves (side
 * by side: one after both servers' windows), else a new one. */
static void mem_record(void *st, struct run_state *c, const struct run_probe_query *q)
{
	struct mem_probe *p = st;
	json_t *rec = json_object_get(q->rr->extra, "interference");
	if (!rec)
		return;
	double after = p->run->takes != p->seq ? p->run->last_ns : take(c, p->run);
	p->run->last_ns = after;
	if (p->before < 0 || after < 0)
		return;
	json_object_set_new(rec, "memory_probe_before_ns", json_real(p->before));
	json_object_set_new(rec, "memory_probe_after_ns", json_real(after));
}

static void mem_close(void *st)
{
	free(st);
}

const struct run_probe run_probe_mem = {
    .name = "memory_probe",
    .start = mem_start,
    .stop = mem_stop,
    .open = mem_open,
    .begin = mem_begin,
    .record = mem_record,
    .close = mem_close,
};
