/* SPDX-License-Identifier: MIT */
/* Interference around each query (run_interf.h, docs/run.md "Interference"): the sampler's
 * window from before the query's first statement to after its last, as the entry's
 * "interference". */
#include "runner/run_int.h"

struct interf_probe {
	struct run_interf *in;
	int on; /* the current query's window is open */
};

static int interf_open(void **out, void *run, struct run_state *c, struct run_target_state *t,
		       struct run_session *s, struct errbuf *err)
{
	struct errbuf nerr;
	struct interf_probe *p;
	(void)run;
	if (srv_pid(t->srv) <= 0)
		return 0;
	if (!(p = calloc(1, sizeof(*p))))
		return errbuf_set(err, "out of memory");
	if (run_interf_open(&p->in, t->srv, s->conn, c->pin, &nerr) < 0) {
		run_event(c, "no interference record: %s", nerr.msg);
		free(p);
		return 0;
	}
	*out = p;
	return 0;
}

static void interf_begin(void *st, struct run_state *c, const struct run_probe_query *q)
{
	struct interf_probe *p = st;
	struct errbuf nerr;
	(void)c;
	(void)q;
	p->on = run_interf_begin(p->in, &nerr) == 0;
}

static void interf_record(void *st, struct run_state *c, const struct run_probe_query *q)
{
	struct interf_probe *p = st;
	struct run_interf_rec nrec;
	struct errbuf nerr;
	(void)c;
	if (p->on && run_interf_end(p->in, &nrec, &nerr) == 0)
		json_object_set_new(q->rr->extra, "interference", run_interf_rec_json(&nrec));
	p->on = 0;
}

static void interf_close(void *st)
{
	struct interf_probe *p = st;
	run_interf_free(p->in);
	free(p);
}

int run_probe_interf_partner(struct run_session *s, pid_t partner)
{
	struct interf_probe *p = s->probe[RUN_PROBE_INTERF];
	return p ? run_interf_set_partner(p->in, partner) : 0;
}

const struct run_probe run_probe_interf = {
    .name = "interference",
    .open = interf_open,
    .begin = interf_begin,
    .record = interf_record,
    .close = interf_close,
};
