/* SPDX-License-Identifier: MIT */
/* The probes' table: one row per metric read around the executions (run_probe.h). A new probe is
 * a row here, its value in enum run_probe_id and its file (HACKING.md, "A new probe"). */
#include "runner/run_int.h"

static const struct run_probe *const probes[] = {
    [RUN_PROBE_CPU] = &run_probe_cpu,	    [RUN_PROBE_WORK] = &run_probe_work,
    [RUN_PROBE_INTERF] = &run_probe_interf, [RUN_PROBE_MEM] = &run_probe_mem,
    [RUN_PROBE_INSTR] = &run_probe_instr,   [RUN_PROBE_ANALYZE] = &run_probe_analyze,
    [RUN_PROBE_TRACE] = &run_probe_trace,
};
_Static_assert(sizeof(probes) / sizeof(probes[0]) == RUN_PROBES, "a row per enum run_probe_id");

void run_probes_start(struct run_state *c)
{
	for (int i = 0; i < RUN_PROBES; i++)
		if (probes[i]->start)
			probes[i]->start(&c->probe_run[i], c);
}

void run_probes_stop(struct run_state *c)
{
	for (int i = RUN_PROBES - 1; i >= 0; i--) {
		if (probes[i]->stop && c->probe_run[i])
			probes[i]->stop(c->probe_run[i]);
		c->probe_run[i] = NULL;
	}
}

int run_probes_open(struct run_state *c, struct run_target_state *t, struct run_session *s,
		    struct errbuf *err)
{
	for (int i = 0; i < RUN_PROBES; i++) {
		s->probe[i] = NULL;
		if (probes[i]->open &&
		    probes[i]->open(&s->probe[i], c->probe_run[i], c, t, s, err) < 0) {
			run_probes_close(s);
			return -1;
		}
	}
	return 0;
}

void run_probes_close(struct run_session *s)
{
	for (int i = RUN_PROBES - 1; i >= 0; i--) {
		if (probes[i]->close && s->probe[i])
			probes[i]->close(s->probe[i]);
		s->probe[i] = NULL;
	}
}

void run_probes_begin(struct run_state *c, struct run_session *s, const struct run_probe_query *q)
{
	for (int i = RUN_PROBES - 1; i >= 0; i--)
		if (probes[i]->begin && s->probe[i])
			probes[i]->begin(s->probe[i], c, q);
}

void run_probes_before(struct run_state *c, struct run_session *s, const struct run_probe_exec *e)
{
	for (int i = 0; i < RUN_PROBES; i++)
		if (probes[i]->before && s->probe[i])
			probes[i]->before(s->probe[i], c, e);
}

void run_probes_after(struct run_state *c, struct run_session *s, const struct run_probe_exec *e)
{
	for (int i = RUN_PROBES - 1; i >= 0; i--)
		if (probes[i]->after && s->probe[i])
			probes[i]->after(s->probe[i], c, e);
}

void run_probes_record(struct run_state *c, struct run_session *s, const struct run_probe_query *q)
{
	for (int i = 0; i < RUN_PROBES; i++)
		if (probes[i]->record && s->probe[i])
			probes[i]->record(s->probe[i], c, q);
}

int run_probes_steady(const struct run_state *c, const struct run_session *s, size_t nw)
{
	for (int i = 0; i < RUN_PROBES; i++)
		if (probes[i]->steady && s->probe[i] && probes[i]->steady(s->probe[i], c, nw))
			return 1;
	return 0;
}
