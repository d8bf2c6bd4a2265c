/* SPDX-License-Identifier: MIT */
/* The server's CPU time of each measured execution (run_cpu.h): the sampler run_exec reads
 * around the statement, its figures as the entry's server_cpu_ms. */
#include "runner/run_int.h"

struct cpu_probe {
	struct run_session *s;
	double *ms; /* the current query's measured executions */
	size_t n, cap;
};

static int cpu_open(void **out, void *run, struct run_state *c, struct run_target_state *t,
		    struct run_session *s, struct errbuf *err)
{
	(void)run;
	(void)c;
	pid_t pid = srv_pid(t->srv);
	struct cpu_probe *p;
	if (pid <= 0)
		return 0;
	if (!(p = calloc(1, sizeof(*p))))
		return errbuf_set(err, "out of memory");
	if (run_cpu_new(&s->cpu, pid, RUN_CPU_AUTO, err) < 0) {
		free(p);
		return -1;
	}
	p->s = s;
	json_object_set_new(t->t->res->plan, "server_cpu_source",
			    json_string(run_cpu_source_name(s->cpu)));
	*out = p;
	return 0;
}

static void cpu_begin(void *st, struct run_state *c, const struct run_probe_query *q)
{
	struct cpu_probe *p = st;
	(void)c;
	free(p->ms);
	p->n = 0;
	p->cap = (size_t)q->runs + 1;
	if (!(p->ms = calloc(p->cap, sizeof(double))))
		p->cap = 0;
}

static void cpu_after(void *st, struct run_state *c, const struct run_probe_exec *e)
{
	struct cpu_probe *p = st;
	(void)c;
	if (e->kind == RUN_SLOT_MEAS && p->n < p->cap)
		p->ms[p->n++] = (double)e->x->cpu_ns / 1e6;
}

/* The figures stay the probe's until its next query: the entry is stored before that. */
static void cpu_record(void *st, struct run_state *c, const struct run_probe_query *q)
{
	struct cpu_probe *p = st;
	(void)c;
	q->rr->server_cpu_ms = p->ms;
	q->rr->n_server_cpu = p->n;
}

static void cpu_close(void *st)
{
	struct cpu_probe *p = st;
	run_cpu_free(p->s->cpu);
	p->s->cpu = NULL;
	free(p->ms);
	free(p);
}

const struct run_probe run_probe_cpu = {
    .name = "server_cpu",
    .open = cpu_open,
    .begin = cpu_begin,
    .after = cpu_after,
    .record = cpu_record,
    .close = cpu_close,
};
