/* SPDX-License-Identifier: MIT */
/* Instructions per execution (run_instr.h, docs/work.md): callgrind's with --instructions, else
 * the PMU's where the host has one, read around every execution; the measured ones' counts as
 * the entry's "instructions", and with --instructions the counts end the warm-up. */
#include "result/res_counts.h"
#include "runner/run_int.h"

struct instr_probe {
	struct run_instr *in;
	long long *icount, *icycles; /* the current query's counts, one per execution so far */
	size_t n, cap;
	int broken; /* a count of the current query failed: no record for it */
};

/* With --instructions callgrind's, which must answer (-1 otherwise: the run was asked for
 * them); without, the PMU's where the host has one, and where it has not the reason once in
 * plan.pmu_unavailable. */
static int instr_open(void **out, void *run, struct run_state *c, struct run_target_state *t,
		      struct run_session *s, struct errbuf *err)
{
	struct errbuf ierr;
	json_t *plan = t->t->res->plan;
	struct run_instr *in = NULL;
	(void)run;
	if (c->plan->instructions) {
		if (run_instr_open(&in, RUN_INSTR_CALLGRIND, t->srv, s->conn, &ierr) < 0)
			return errbuf_set(err, "run --instructions: %s", ierr.msg);
		json_object_set_new(plan, "instructions_source", json_string("callgrind"));
	} else if (srv_is_external(t->srv) || srv_flavour(t->srv) != SRV_FLAVOUR_MARIADB) {
		return 0; /* the session's thread id is MariaDB's PROCESSLIST.TID */
	} else if (run_instr_open(&in, RUN_INSTR_PMU, t->srv, s->conn, &ierr) < 0) {
		json_object_set_new(plan, "pmu_unavailable", json_string(ierr.msg));
		return 0;
	} else {
		json_object_set_new(plan, "instructions_source", json_string("pmu"));
		json_object_del(plan, "pmu_unavailable");
	}
	struct instr_probe *p = calloc(1, sizeof(*p));
	if (!p) {
		run_instr_free(in);
		return errbuf_set(err, "out of memory");
	}
	p->in = in;
	*out = p;
	return 0;
}

static void instr_begin(void *st, struct run_state *c, const struct run_probe_query *q)
{
	struct instr_probe *p = st;
	(void)c;
	free(p->icount);
	free(p->icycles);
	p->n = 0;
	p->broken = 0;
	p->cap = (size_t)(q->wmax + q->runs + 1);
	p->icount = calloc(p->cap, sizeof(long long));
	p->icycles = calloc(p->cap, sizeof(long long));
	if (!p->icount || !p->icycles)
		p->broken = 1;
}

/* A failure says so once and leaves the query without a record. */
static void instr_fail(struct instr_probe *p, struct run_state *c, int num, const char *why)
{
	p->broken = 1;
	run_event(c, "Q%d: no instruction counts: %s", num, why);
}

/* Before zeroes (callgrind) or reads (PMU) the counters, from outside the timed window. */
static void instr_before(void *st, struct run_state *c, const struct run_probe_exec *e)
{
	struct instr_probe *p = st;
	struct errbuf ierr;
	if (!p->broken && run_instr_before(p->in, &ierr) < 0)
		instr_fail(p, c, e->num, ierr.msg);
}

static void instr_after(void *st, struct run_state *c, const struct run_probe_exec *e)
{
	struct instr_probe *p = st;
	struct errbuf ierr;
	long long v[2];
	if (p->broken)
		return;
	if (run_instr_after(p->in, v, &ierr) < 0)
		instr_fail(p, c, e->num, ierr.msg);
	else if (p->n >= p->cap)
		instr_fail(p, c, e->num, "more executions than planned");
	else {
		p->icycles[p->n] = v[1];
		p->icount[p->n++] = v[0];
	}
}

/* The counts of the measured executions (after the nw warm-up ones) as "instructions"; with
 * --instructions also whether the warm-up ended steady. */
static void instr_record(void *st, struct run_state *c, const struct run_probe_query *q)
{
	struct instr_probe *p = st;
	json_t *x = q->rr->extra;
	size_t nw = q->nw, nm = q->nm;
	if (c->plan->instructions) {
		json_object_set_new(
		    x, "instructions_steady",
		    json_boolean(!p->broken && p->n >= nw &&
				 run_instr_steady(p->icount, nw, c->plan->instr_tol)));
		json_object_set_new(x, "instructions_tol", json_real(c->plan->instr_tol));
	}
	if (p->broken || nm == 0 || p->n < nw + nm)
		return;
	struct res_counts rc;
	res_counts_init(&rc, nm);
	int pmu = run_instr_source_of(p->in) == RUN_INSTR_PMU;
	if (res_counts_add(&rc, pmu ? RUN_INSTR_PMU_INSTRUCTIONS : RUN_INSTR_CALLGRIND_NAME,
			   p->icount + nw) == 0 &&
	    (!pmu || res_counts_add(&rc, RUN_INSTR_PMU_CYCLES, p->icycles + nw) == 0))
		json_object_set_new(x, "instructions", res_counts_json(&rc));
	res_counts_release(&rc);
}

/* --instructions: the warm-up is over once its last two counts agree (docs/work.md). */
static int instr_steady(const void *st, const struct run_state *c, size_t nw)
{
	const struct instr_probe *p = st;
	return c->plan->instructions && !p->broken && p->n == nw &&
	       run_instr_steady(p->icount, nw, c->plan->instr_tol);
}

static void instr_close(void *st)
{
	struct instr_probe *p = st;
	run_instr_free(p->in);
	free(p->icount);
	free(p->icycles);
	free(p);
}

const struct run_probe run_probe_instr = {
    .name = "instructions",
    .open = instr_open,
    .begin = instr_begin,
    .before = instr_before,
    .after = instr_after,
    .record = instr_record,
    .steady = instr_steady,
    .close = instr_close,
};
