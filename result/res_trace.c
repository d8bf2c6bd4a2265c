/* SPDX-License-Identifier: MIT */
/* Optimizer traces reduced to their decisions (result/res_trace.h). */
#include "result/res_trace.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tables in a join order: MariaDB joins at most 61, MySQL 61. */
#define MAX_DEPTH 64

static const char *const codes[] = {
    [RES_T_EXTENDED] = "",	  [RES_T_COMPLETE] = "full",
    [RES_T_CHOSEN] = "chosen",	  [RES_T_NOT_CHOSEN] = "not_chosen",
    [RES_T_PRUNED_COST] = "cost", [RES_T_PRUNED_HEURISTIC] = "heuristic",
};
static const char *const words[] = {
    [RES_T_EXTENDED] = "extended",
    [RES_T_COMPLETE] = "complete",
    [RES_T_CHOSEN] = "complete, kept as the best",
    [RES_T_NOT_CHOSEN] = "complete, not kept",
    [RES_T_PRUNED_COST] = "pruned by cost",
    [RES_T_PRUNED_HEURISTIC] = "pruned by heuristic",
};
#define N_OUTCOMES (sizeof(codes) / sizeof(codes[0]))

const char *res_tstep_code(enum res_tstep_outcome o)
{
	return (size_t)o < N_OUTCOMES ? codes[o] : "";
}

const char *res_tstep_words(enum res_tstep_outcome o)
{
	return (size_t)o < N_OUTCOMES ? words[o] : "";
}

/* ---- summarize ---- */

struct sum {
	json_t *blocks;
	size_t n_plans;
	long long dropped;
};

/* A table as the trace names it, without MySQL's quotes: "`lineitem` `l1`" is l1, "`orders`"
 * orders, MariaDB's "l1" itself. */
static json_t *table_name(const char *s)
{
	char buf[256];
	const char *last = s, *p;
	size_t n;
	if (!s)
		return NULL;
	/* MySQL writes "`table` `alias`": the alias is the last quoted name */
	for (p = s; (p = strchr(p, '`')) != NULL; p++) {
		const char *e = strchr(p + 1, '`');
		if (!e)
			break;
		last = p;
		p = e;
	}
	if (*last == '`') {
		const char *e = strchr(last + 1, '`');
		n = (size_t)(e - last - 1);
		if (n >= sizeof(buf))
			n = sizeof(buf) - 1;
		memcpy(buf, last + 1, n);
		buf[n] = '\0';
		return json_string(buf);
	}
	return json_string(s);
}

/* A number kept to 7 significant digits (the summary is compact): an integer when whole. */
static json_t *num7_of(double v)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%.7g", v);
	double d = strtod(buf, NULL);
	if (d == floor(d) && fabs(d) < 1e15)
		return json_integer((json_int_t)d);
	return json_real(d);
}

/* The trace's number so, or null. */
static json_t *num7(json_t *v)
{
	return json_is_number(v) ? num7_of(json_number_value(v)) : json_null();
}

static enum res_tstep_outcome outcome_of(json_t *e)
{
	json_t *c = json_object_get(e, "chosen");
	if (json_is_array(json_object_get(e, "rest_of_plan")))
		return RES_T_EXTENDED;
	if (json_is_true(json_object_get(e, "pruned_by_cost")))
		return RES_T_PRUNED_COST;
	if (json_is_true(json_object_get(e, "pruned_by_heuristic")))
		return RES_T_PRUNED_HEURISTIC;
	if (json_is_boolean(c))
		return json_is_true(c) ? RES_T_CHOSEN : RES_T_NOT_CHOSEN;
	return RES_T_COMPLETE;
}

/* The semi-join strategy chosen at a step: MariaDB {"chosen_strategy": S}, MySQL {"strategy": S,
 * "chosen": true}; NULL. */
static const char *sj_chosen(json_t *e)
{
	json_t *a = json_object_get(e, "semijoin_strategy_choice"), *x;
	size_t i;
	json_array_foreach(a, i, x)
	{
		const char *s = json_string_value(json_object_get(x, "chosen_strategy"));
		if (s)
			return s;
		if (json_is_true(json_object_get(x, "chosen")) &&
		    (s = json_string_value(json_object_get(x, "strategy"))))
			return s;
	}
	return NULL;
}

static void plans_add(struct sum *sm, json_t *plans, json_t *arr, int depth)
{
	json_t *e;
	size_t i;
	if (depth >= MAX_DEPTH)
		return;
	json_array_foreach(arr, i, e)
	{
		const char *t = json_string_value(json_object_get(e, "table"));
		if (!t) /* MariaDB's get_costs_for_tables entries */
			continue;
		if (sm->n_plans >= RES_TRACE_MAX_PLANS) {
			sm->dropped++;
		} else {
			enum res_tstep_outcome o = outcome_of(e);
			const char *sj = sj_chosen(e);
			json_t *step =
			    json_pack("[i, o, o, o, s]", depth, table_name(t),
				      num7(json_object_get(e, "rows_for_plan")),
				      num7(json_object_get(e, "cost_for_plan")), codes[o]);
			if (step && sj)
				json_array_append_new(step, json_string(sj));
			json_array_append_new(plans, step);
			sm->n_plans++;
		}
		plans_add(sm, plans, json_object_get(e, "rest_of_plan"), depth + 1);
	}
}

static json_t *order_of(json_t *arr, int objects)
{
	json_t *o = json_array(), *e;
	size_t i;
	json_array_foreach(arr, i, e)
	{
		json_t *t = objects ? json_object_get(e, "table") : e;
		if (json_is_string(t))
			json_array_append_new(o, table_name(json_string_value(t)));
	}
	return o;
}

/* MariaDB's fix_semijoin_strategies_for_picked_join_order: "FirstMatch(partsupp,part)". */
static json_t *semijoin_of(json_t *arr)
{
	json_t *o = json_array(), *e, *t;
	size_t i, k;
	json_array_foreach(arr, i, e)
	{
		const char *s = json_string_value(json_object_get(e, "semi_join_strategy"));
		char buf[512];
		size_t n;
		if (!s)
			continue;
		n = (size_t)snprintf(buf, sizeof(buf), "%s(", s);
		json_array_foreach(json_object_get(e, "join_order"), k, t)
		{
			const char *tn = json_string_value(json_object_get(t, "table"));
			if (tn && n < sizeof(buf))
				n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
						      k ? "," : "", tn);
		}
		if (n < sizeof(buf))
			snprintf(buf + n, sizeof(buf) - n, ")");
		json_array_append_new(o, json_string(buf));
	}
	return o;
}

static void walk(struct sum *sm, json_t *node, json_t *block);

/* A block's first best_join_order is its own; MariaDB writes a materialized derived table's
 * later, among its parent's steps: a later one goes to the first block nested in this one
 * (optimized while its steps were written) that has none yet. */
static void order_set(struct sum *sm, json_t *block, json_t *order)
{
	size_t i, n = json_array_size(sm->blocks);
	json_t *b = block;
	for (i = 0; i < n && json_array_get(sm->blocks, i) != block; i++)
		;
	while (b && json_array_size(json_object_get(b, "best_join_order")) > 0)
		b = ++i < n ? json_array_get(sm->blocks, i) : NULL;
	if (b)
		json_object_set_new(b, "best_join_order", order);
	else
		json_decref(order);
}

static void walk_member(struct sum *sm, const char *key, json_t *v, json_t *block)
{
	if (strcmp(key, "join_optimization") == 0 && json_is_object(v)) {
		json_t *id = json_object_get(v, "select_id");
		if (!id)
			id = json_object_get(v, "select#");
		json_t *b = json_pack("{s:I, s:[], s:[], s:n, s:n, s:[]}", "select_id",
				      (json_int_t)json_integer_value(id), "plans",
				      "best_join_order", "chosen_step", "cost", "semijoin");
		json_array_append_new(sm->blocks, b);
		walk(sm, json_object_get(v, "steps"), b);
	} else if (strcmp(key, "execution_plan_for_potential_materialization") == 0) {
		return; /* a semi-join nest's own search, not the block's join order */
	} else if (strcmp(key, "considered_execution_plans") == 0 && block) {
		plans_add(sm, json_object_get(block, "plans"), v, 0);
	} else if (strcmp(key, "best_join_order") == 0 && block) {
		order_set(sm, block, order_of(v, 0));
	} else if (strcmp(key, "refine_plan") == 0 && block &&
		   json_array_size(json_object_get(block, "best_join_order")) == 0) {
		json_object_set_new(block, "best_join_order", order_of(v, 1));
	} else if (strcmp(key, "fix_semijoin_strategies_for_picked_join_order") == 0 && block) {
		json_object_set_new(block, "semijoin", semijoin_of(v));
	} else {
		walk(sm, v, block);
	}
}

static void walk(struct sum *sm, json_t *node, json_t *block)
{
	const char *key;
	json_t *v;
	size_t i;
	if (json_is_object(node)) {
		json_object_foreach(node, key, v) walk_member(sm, key, v, block);
	} else if (json_is_array(node)) {
		json_array_foreach(node, i, v) walk(sm, v, block);
	}
}

static int complete(enum res_tstep_outcome o)
{
	return o == RES_T_COMPLETE || o == RES_T_CHOSEN;
}

/* Each block's chosen step: the one whose path is its chosen order (a complete one first), else
 * its last complete step (a semi-join nest materialized, "<subqueryN>" in the order: the search
 * reaches a complete plan only when it is cheaper than the best so far, MySQL marks it chosen);
 * and its cost. */
static void set_chosen(json_t *summary)
{
	struct res_tsum s;
	struct errbuf err;
	if (res_tsum_read(&s, summary, &err) < 0)
		return;
	for (size_t i = 0; i < s.n_blocks; i++) {
		const struct res_tblock *b = &s.blocks[i];
		json_t *o = json_array_get(json_object_get(summary, "blocks"), i);
		size_t len = 0;
		long k = b->n_order ? res_tblock_find(b, b->order, b->n_order, &len) : -1;
		if (k < 0 || len != b->n_order)
			for (k = (long)b->n_steps - 1; k >= 0 && !complete(b->steps[k].outcome);
			     k--)
				;
		if (k < 0)
			continue;
		json_object_set_new(o, "chosen_step", json_integer(k));
		if (!isnan(b->steps[k].cost))
			json_object_set_new(o, "cost", num7_of(b->steps[k].cost));
	}
	res_tsum_release(&s);
}

int res_trace_summarize(json_t **out, const char *trace, size_t len, long long missing_bytes,
			struct errbuf *err)
{
	json_error_t je;
	struct sum sm = {0};
	json_t *doc = json_loadb(trace, len, JSON_DECODE_ANY, &je);
	if (!doc)
		return errbuf_set(err, "the optimizer trace is not JSON%s: %s (line %d)",
				  missing_bytes > 0 ? " (truncated at optimizer_trace_max_mem_size)"
						    : "",
				  je.text, je.line);
	sm.blocks = json_array();
	walk(&sm, doc, NULL);
	json_decref(doc);
	*out = json_pack("{s:I, s:I, s:I, s:o}", "trace_bytes", (json_int_t)len, "missing_bytes",
			 (json_int_t)missing_bytes, "plans_dropped", (json_int_t)sm.dropped,
			 "blocks", sm.blocks);
	if (!*out)
		return errbuf_set(err, "out of memory");
	set_chosen(*out);
	return 0;
}

/* ---- read back ---- */

static int read_step(struct res_tstep *st, json_t *a, int prev_depth)
{
	size_t n = json_array_size(a);
	json_t *d = json_array_get(a, 0), *r = json_array_get(a, 2), *c = json_array_get(a, 3);
	const char *code = json_string_value(json_array_get(a, 4));
	if ((n != 5 && n != 6) || !json_is_integer(d) || !code ||
	    !json_is_string(json_array_get(a, 1)) || (!json_is_number(r) && !json_is_null(r)) ||
	    (!json_is_number(c) && !json_is_null(c)))
		return -1;
	st->depth = (int)json_integer_value(d);
	if (st->depth < 0 || st->depth >= MAX_DEPTH || st->depth > prev_depth + 1)
		return -1;
	st->table = json_string_value(json_array_get(a, 1));
	st->rows = json_is_number(r) ? json_number_value(r) : NAN;
	st->cost = json_is_number(c) ? json_number_value(c) : NAN;
	size_t o;
	for (o = 0; o < N_OUTCOMES && strcmp(codes[o], code) != 0; o++)
		;
	if (o == N_OUTCOMES)
		return -1;
	st->outcome = (enum res_tstep_outcome)o;
	st->sj = n == 6 ? json_string_value(json_array_get(a, 5)) : NULL;
	return n == 6 && !st->sj ? -1 : 0;
}

static int read_block(struct res_tblock *b, json_t *o)
{
	json_t *plans = json_object_get(o, "plans"), *order = json_object_get(o, "best_join_order");
	json_t *cost = json_object_get(o, "cost"), *e;
	size_t i;
	b->semijoin = json_object_get(o, "semijoin");
	if (!json_is_integer(json_object_get(o, "select_id")) || !json_is_array(plans) ||
	    !json_is_array(order) || json_array_size(order) > MAX_DEPTH ||
	    (b->semijoin && !json_is_array(b->semijoin)) ||
	    (cost && !json_is_number(cost) && !json_is_null(cost)))
		return -1;
	b->select_id = (long)json_integer_value(json_object_get(o, "select_id"));
	b->cost = json_is_number(cost) ? json_number_value(cost) : NAN;
	json_t *ch = json_object_get(o, "chosen_step");
	if (ch && !json_is_integer(ch) && !json_is_null(ch))
		return -1;
	b->chosen = json_is_integer(ch) ? (long)json_integer_value(ch) : -1;
	b->steps = calloc(json_array_size(plans) + 1, sizeof(*b->steps));
	b->order = calloc(json_array_size(order) + 1, sizeof(*b->order));
	if (!b->steps || !b->order)
		return -1;
	json_array_foreach(plans, i, e)
	{
		int prev = i ? b->steps[i - 1].depth : -1;
		if (read_step(&b->steps[i], e, prev) < 0)
			return -1;
		b->n_steps++;
	}
	json_array_foreach(order, i, e)
	{
		if (!(b->order[i] = json_string_value(e)))
			return -1;
		b->n_order++;
	}
	json_array_foreach(b->semijoin, i, e) if (!json_is_string(e)) return -1;
	return b->chosen < -1 || b->chosen >= (long)b->n_steps ? -1 : 0;
}

static long long int_of(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

int res_tsum_read(struct res_tsum *out, json_t *summary, struct errbuf *err)
{
	json_t *blocks = json_object_get(summary, "blocks"), *e;
	size_t i;
	memset(out, 0, sizeof(*out));
	if (!json_is_array(blocks))
		return errbuf_set(err, "optimizer_trace: no blocks array");
	out->trace_bytes = int_of(summary, "trace_bytes");
	out->missing_bytes = int_of(summary, "missing_bytes");
	out->plans_dropped = int_of(summary, "plans_dropped");
	if (!(out->blocks = calloc(json_array_size(blocks) + 1, sizeof(*out->blocks))))
		return errbuf_set(err, "out of memory");
	json_array_foreach(blocks, i, e)
	{
		out->n_blocks++;
		if (!json_is_object(e) || read_block(&out->blocks[i], e) < 0) {
			res_tsum_release(out);
			return errbuf_set(err, "optimizer_trace: blocks[%zu] is not a block", i);
		}
	}
	return 0;
}

void res_tsum_release(struct res_tsum *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_blocks; i++) {
		free(s->blocks[i].steps);
		free(s->blocks[i].order);
	}
	free(s->blocks);
	memset(s, 0, sizeof(*s));
}

const struct res_tblock *res_tsum_block(const struct res_tsum *s, long select_id)
{
	for (size_t i = 0; s && i < s->n_blocks; i++)
		if (s->blocks[i].select_id == select_id)
			return &s->blocks[i];
	return NULL;
}

size_t res_tblock_path(const struct res_tblock *b, size_t i, const char **out, size_t max)
{
	int want;
	size_t n;
	if (i >= b->n_steps)
		return 0;
	n = (size_t)b->steps[i].depth + 1;
	if (n > max)
		return 0;
	out[n - 1] = b->steps[i].table;
	want = b->steps[i].depth - 1;
	for (size_t k = i; want >= 0 && k-- > 0;)
		if (b->steps[k].depth == want)
			out[want--] = b->steps[k].table;
	return n;
}

long res_tblock_find(const struct res_tblock *b, const char *const *order, size_t n,
		     size_t *out_len)
{
	const char *path[MAX_DEPTH];
	long exact = -1, longest = -1;
	size_t best = 0;
	for (size_t i = 0; i < b->n_steps; i++) {
		int d = b->steps[i].depth;
		size_t len = (size_t)d + 1, k;
		path[d] = b->steps[i].table;
		if (len > n)
			continue;
		for (k = 0; k < len && strcmp(path[k], order[k]) == 0; k++)
			;
		if (k < len)
			continue;
		if (len == n) {
			if (exact < 0 || complete(b->steps[i].outcome) ||
			    !complete(b->steps[exact].outcome))
				exact = (long)i;
		} else if (len > best) {
			best = len;
			longest = (long)i;
		}
	}
	*out_len = exact >= 0 ? n : best;
	return exact >= 0 ? exact : longest;
}

static int step_same(const struct res_tstep *a, const struct res_tstep *b)
{
	return a->depth == b->depth && strcmp(a->table, b->table) == 0 &&
	       a->outcome == b->outcome && !a->sj == !b->sj && (!a->sj || !strcmp(a->sj, b->sj));
}

static int order_same(const struct res_tblock *a, const struct res_tblock *b)
{
	if (a->n_order != b->n_order)
		return 0;
	for (size_t i = 0; i < a->n_order; i++)
		if (strcmp(a->order[i], b->order[i]) != 0)
			return 0;
	return 1;
}

static int block_part(struct res_tpart *p, const struct res_tblock *a, const struct res_tblock *b)
{
	size_t n = a->n_steps > b->n_steps ? a->n_steps : b->n_steps;
	p->old_block = a;
	p->new_block = b;
	p->select_id = a->select_id;
	p->step = -1;
	for (size_t k = 0; k < n; k++)
		if (k >= a->n_steps || k >= b->n_steps || !step_same(&a->steps[k], &b->steps[k])) {
			p->step = (long)k;
			p->what = "step";
			return 1;
		}
	if (!order_same(a, b))
		p->what = "order";
	else if (!json_equal(a->semijoin, b->semijoin) && (a->semijoin || b->semijoin))
		p->what = "semijoin";
	return p->what != NULL;
}

void res_tsum_part(struct res_tpart *out, const struct res_tsum *old, const struct res_tsum *new)
{
	size_t n = old->n_blocks > new->n_blocks ? old->n_blocks : new->n_blocks;
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		const struct res_tblock *a = i < old->n_blocks ? &old->blocks[i] : NULL;
		const struct res_tblock *b = i < new->n_blocks ? &new->blocks[i] : NULL;
		if (!a || !b || a->select_id != b->select_id) {
			out->parted = 1;
			out->what = "block";
			out->step = -1;
			out->select_id = a ? a->select_id : b->select_id;
			out->old_block = a;
			out->new_block = b;
			return;
		}
		if (block_part(out, a, b)) {
			out->parted = 1;
			return;
		}
	}
	memset(out, 0, sizeof(*out));
}

size_t res_tblock_chosen_path(const struct res_tblock *b, const char **out, size_t max)
{
	if (b->chosen >= 0)
		return res_tblock_path(b, (size_t)b->chosen, out, max);
	size_t n = b->n_order < max ? b->n_order : max;
	for (size_t i = 0; i < n; i++)
		out[i] = b->order[i];
	return n;
}

size_t res_trace_tokens(long restarts, long n_queries)
{
	double n = (double)restarts * (double)n_queries * 400.0;
	return n > 1e15 ? (size_t)1e15 : (size_t)n;
}
