/* SPDX-License-Identifier: MIT */
/* Instructions per execution (run_instr.h, docs/work.md): callgrind's with --instructions, else
 * the PMU's where the host has one, read around every execution; the measured ones' counts as
 * the entry's "instructions", and with --instructions the counts end the warm-up. */
#include "result/res_counts.h"
#include "result/res_funcs.h"
#include "runner/run_callgrind.h"
#include "runner/run_int.h"
#include <string.h>

_Static_assert(RUN_CG_MAX == RES_FUNCS_MAX && RUN_CG_NAME == RES_FUNCS_NAME_MAX,
	       "the profile kept is what the reader takes");

struct instr_probe {
	struct run_instr *in;
	long long *icount, *icycles; /* the current query's counts, one per execution so far */
	size_t n, cap;
	int broken;		     /* a count of the current query failed: no record for it */
	struct srv *srv;	     /* callgrind: the server that dumps its profile */
	struct run_cg_profile *prof; /* callgrind: the query's first measured execution's */
	int have_prof;
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
	p->srv = t->srv;
	if (c->plan->instructions && !(p->prof = malloc(sizeof(*p->prof)))) {
		run_instr_free(in);
		free(p);
		return errbuf_set(err, "out of memory");
	}
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
	p->have_prof = 0;
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

/* In the child that reads the dump, as the server's user: the symbol list beside the server's
 * binary (when there is one) names the addresses. */
static int profile_read(void *arg, const char *text, size_t len, void *out, struct errbuf *err)
{
	struct run_cg_syms *syms = NULL;
	if (run_cg_syms_load(&syms, arg, err) < 0)
		return -1;
	int rc = run_cg_parse(text, len, syms, out, err);
	run_cg_syms_free(syms);
	return rc;
}

/* The first measured execution's profile by function, dumped right after its count was read
 * (the counts were zeroed before it). A failure is said and leaves the counts alone. */
static void profile_take(struct instr_probe *p, struct run_state *c, const struct run_probe_exec *e)
{
	struct errbuf perr;
	if (!p->prof || e->kind != RUN_SLOT_MEAS || e->nm != 0)
		return;
	if (srv_vg_dump(p->srv, profile_read, (void *)srv_binary(p->srv), p->prof, sizeof(*p->prof),
			&perr) < 0)
		run_event(c, "Q%d: no profile by function: %s", e->num, perr.msg);
	else
		p->have_prof = 1;
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
		profile_take(p, c, e);
	}
}

/* "functions": {"total", "named", "resolved", "unnamed", "list": [[name, self, inclusive],
 * ...]}. */
static json_t *profile_json(const struct run_cg_profile *pr)
{
	json_t *list = json_array();
	for (int i = 0; list && i < pr->n; i++)
		json_array_append_new(list, json_pack("[s,I,I]", pr->fn[i].name,
						      (json_int_t)pr->fn[i].self,
						      (json_int_t)pr->fn[i].incl));
	return json_pack("{s:I,s:I,s:I,s:I,s:o}", "total", (json_int_t)pr->total, "named",
			 (json_int_t)pr->named, "resolved", (json_int_t)pr->resolved, "unnamed",
			 (json_int_t)pr->unnamed, "list", list);
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
	if (p->have_prof && !p->broken)
		json_object_set_new(x, "functions", profile_json(p->prof));
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
	free(p->prof);
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
