/* SPDX-License-Identifier: MIT */
/* The work counters (run_work.h, docs/work.md): the session's status read before the first
 * measured execution and after each, their differences as the entry's "work". */
#include "result/res_counts.h"
#include "runner/run_int.h"

struct work_probe {
	struct run_session *s;
	struct run_work work;
	struct run_work_snap *snaps; /* the current query's readings, NULL: none (any more) */
};

/* The cost of a reading measured on the new session, recorded in the plan (plan.work_source,
 * plan.work_reading_cost: what one reading adds, subtracted). */
static int work_open(void **out, void *run, struct run_state *c, struct run_target_state *t,
		     struct run_session *s, struct errbuf *err)
{
	struct errbuf werr;
	struct work_probe *p = calloc(1, sizeof(*p));
	(void)run;
	enum run_work_flavour f =
	    srv_flavour(t->srv) == SRV_FLAVOUR_MYSQL ? RUN_WORK_MYSQL : RUN_WORK_MARIADB;
	if (!p)
		return errbuf_set(err, "out of memory");
	if (run_work_open(&p->work, s->conn, f, &werr) < 0) {
		run_event(c, "no work counters: %s", werr.msg);
		free(p);
		return 0;
	}
	p->s = s;
	json_t *cost = json_object();
	for (int i = 0; cost && i < RUN_WORK_MAX; i++)
		if ((p->work.offset.have & (1ul << i)) && p->work.offset.v[i])
			json_object_set_new(cost, run_work_name(i, f),
					    json_integer(p->work.offset.v[i]));
	json_object_set_new(t->t->res->plan, "work_source", json_string("SHOW SESSION STATUS"));
	json_object_set_new(t->t->res->plan, "work_reading_cost", cost);
	*out = p;
	return 0;
}

static void work_begin(void *st, struct run_state *c, const struct run_probe_query *q)
{
	struct work_probe *p = st;
	(void)c;
	free(p->snaps);
	p->snaps = calloc((size_t)q->runs + 1, sizeof(*p->snaps));
}

/* Reading i of the current query, outside the timed window; a failure ends its readings. */
static void work_read(struct run_state *c, struct work_probe *p, int num, size_t i)
{
	struct errbuf werr;
	if (run_work_read(&p->work, p->s->conn, &p->snaps[i], &werr) < 0) {
		run_event(c, "Q%d: no work counters: %s", num, werr.msg);
		free(p->snaps);
		p->snaps = NULL;
	}
}

static void work_before(void *st, struct run_state *c, const struct run_probe_exec *e)
{
	struct work_probe *p = st;
	if (p->snaps && e->kind == RUN_SLOT_MEAS && e->nm == 0)
		work_read(c, p, e->num, 0);
}

static void work_after(void *st, struct run_state *c, const struct run_probe_exec *e)
{
	struct work_probe *p = st;
	if (p->snaps && e->kind == RUN_SLOT_MEAS)
		work_read(c, p, e->num, e->nm + 1);
}

/* The work of the measured executions between readings snaps[0..nm] as "work". */
static void work_record(void *st, struct run_state *c, const struct run_probe_query *q)
{
	struct work_probe *p = st;
	struct res_counts rc;
	struct errbuf werr;
	if (!p->snaps || q->nm == 0)
		return;
	res_counts_init(&rc, q->nm);
	if (run_work_counts(&rc, &p->work, p->snaps, q->nm, &werr) < 0)
		run_event(c, "Q%d: no work counters: %s", q->num, werr.msg);
	else if (rc.n)
		json_object_set_new(q->rr->extra, "work", res_counts_json(&rc));
	res_counts_release(&rc);
}

static void work_close(void *st)
{
	struct work_probe *p = st;
	free(p->snaps);
	free(p);
}

struct run_work *run_probe_work_of(struct run_session *s)
{
	struct work_probe *p = s->probe[RUN_PROBE_WORK];
	return p ? &p->work : NULL;
}

const struct run_probe run_probe_work = {
    .name = "work",
    .open = work_open,
    .begin = work_begin,
    .before = work_before,
    .after = work_after,
    .record = work_record,
    .close = work_close,
};
