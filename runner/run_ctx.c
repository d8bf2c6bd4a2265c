/* SPDX-License-Identifier: MIT */
/* What one run_execute call shares: events, progress, checkpoints. */
#include "runner/run_budget.h"
#include "runner/run_int.h"
#include "runner/run_report.h"

void run_event(struct run_state *c, const char *fmt, ...)
{
	char msg[1200];
	va_list ap;
	if (!c->hooks || !c->hooks->event)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->hooks->event(c->hooks->arg, msg);
}

/* Query num's mean execution so far (ms; every target, warm-up included); 0 before its first. */
double run_mean_exec_ms(const struct run_state *c, int num)
{
	return c->seen_n[num] ? (double)c->seen_ns[num] / (double)c->seen_n[num] / 1e6 : 0;
}

static double eta_seconds(const struct run_state *c)
{
	uint64_t all_ns = 0, all_n = 0;
	for (int q = 1; q <= RUN_MAX_QUERIES; q++) {
		all_ns += c->seen_ns[q];
		all_n += c->seen_n[q];
	}
	if (all_n == 0)
		return NAN;
	double s = 0, global = (double)all_ns / (double)all_n;
	for (int q = 1; q <= RUN_MAX_QUERIES; q++) {
		double per = c->seen_n[q] ? run_mean_exec_ms(c, q) * 1e6 : global;
		s += per * (double)c->rem_execs[q];
	}
	if (c->start_n)
		s += (double)c->rem_starts * (double)c->start_ns / (double)c->start_n;
	return s / 1e9;
}

void run_progress_tell(struct run_state *c)
{
	if (!c->hooks || !c->hooks->progress)
		return;
	c->prog.elapsed_ns = util_now_ns() - c->t0;
	c->prog.eta_s = c->next
			    ? fmax(0, run_budget_left_s(c->plan, (double)c->prog.elapsed_ns / 1e9))
			    : eta_seconds(c);
	c->hooks->progress(c->hooks->arg, &c->prog);
}

int run_has_restart(const struct res_query *q, int r)
{
	for (size_t i = 0; i < q->n_restarts; i++)
		if (q->restarts[i].index == r)
			return 1;
	return 0;
}

/* Queries of the plan that restart r of this target still lacks. */
int run_pending(const struct run_state *c, const struct run_target_state *t, int r)
{
	int n = 0;
	for (int i = 0; i < c->plan->n_queries; i++)
		if (!run_has_restart(res_file_find_query_num(t->t->res, c->plan->queries[i]), r))
			n++;
	const struct res_query *rf2 = c->rf ? res_file_find_query(t->t->res, RUN_RF2) : NULL;
	const struct res_query *ts =
	    c->plan->streams ? res_file_find_query(t->t->res, RUN_T_STREAM) : NULL;
	return n + (rf2 && !run_has_restart(rf2, r)) + (ts && !run_has_restart(ts, r));
}

int run_checkpoint(struct run_target_state *t, struct errbuf *err)
{
	if (!t->t->written)
		t->t->written = 1; /* the signal handler's hint: the rename may have happened */
	if (run_interf_update(t->t->res) < 0)
		return errbuf_set(err, "out of memory");
	if (t->t->res->finished_at && run_report_cost_update(t->t->res) < 0)
		return errbuf_set(err, "out of memory");
	if (res_file_write(t->t->res, t->t->out_path, err) < 0)
		return -1;
	t->t->written = 2;
	return 0;
}

int run_plan_query_add(json_t *plan, const char *id)
{
	json_t *qs = json_object_get(plan, "queries"), *q;
	size_t i;
	if (!json_is_array(qs))
		return -1;
	json_array_foreach(qs, i, q)
	{
		if (json_is_string(q) && strcmp(json_string_value(q), id) == 0)
			return 0;
	}
	return json_array_append_new(qs, json_string(id));
}
