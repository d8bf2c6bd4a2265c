/* SPDX-License-Identifier: MIT */
/* The run plan: defaults, query lists, variants, deterministic shuffles, resume. */
#include "runner/run.h"
#include "runner/run_sbs.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void run_plan_init(struct run_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->restarts = 5;
	p->warmup = 8;
	p->runs = 10;
	for (int i = 0; i < RUN_MAX_QUERIES; i++)
		p->queries[i] = i + 1;
	p->n_queries = RUN_MAX_QUERIES;
	p->max_crashes = 3;
	p->scale = 1;
	p->steady_alpha = 0.05;
	p->variant_order = RUN_VORDER_ABBA;
	p->detect = 0.03;
	p->alpha = 0.05;
	p->instr_tol = 0.002; /* RUN_INSTR_TOL */
	p->warmup_min = 4;
	p->warmup_max = 20;
	p->runs_min = 3;
	p->runs_max = 10;
	p->min_restarts = 2;
}

void run_plan_instr_defaults(struct run_plan *p, unsigned given)
{
	if (!p->instructions)
		return;
	if (!(given & RUN_GIVEN_RESTARTS))
		p->restarts = 2;
	if (!(given & RUN_GIVEN_WARMUP))
		p->warmup = 10;
	if (!(given & RUN_GIVEN_RUNS))
		p->runs = 2;
	if (!(given & RUN_GIVEN_WARMUP_MIN))
		p->warmup_min = (given & RUN_GIVEN_WARMUP_MAX) && p->warmup_max < 2 ? p->warmup_max : 2;
	if (!(given & RUN_GIVEN_WARMUP_MAX))
		p->warmup_max = p->warmup_min > 10 ? p->warmup_min : 10;
	if (!(given & RUN_GIVEN_RUNS_MIN))
		p->runs_min = (given & RUN_GIVEN_RUNS_MAX) && p->runs_max < 2 ? p->runs_max : 2;
	if (!(given & RUN_GIVEN_RUNS_MAX))
		p->runs_max = p->runs_min > 2 ? p->runs_min : 2;
}

static int parse_qnum(const char *s, const char *end, int *out)
{
	if (s < end && (*s == 'Q' || *s == 'q'))
		s++;
	if (s == end || end - s > 2)
		return -1;
	int v = 0;
	for (; s < end; s++) {
		if (!isdigit((unsigned char)*s))
			return -1;
		v = v * 10 + (*s - '0');
	}
	if (v < 1 || v > RUN_MAX_QUERIES)
		return -1;
	*out = v;
	return 0;
}

int run_queries_parse(int out[RUN_MAX_QUERIES], const char *s, struct errbuf *err)
{
	int n = 0, seen[RUN_MAX_QUERIES + 1] = {0};
	const char *p = s;
	if (!s || !*s)
		return errbuf_set(err, "empty query list");
	while (*p) {
		const char *comma = strchr(p, ',');
		const char *end = comma ? comma : p + strlen(p);
		const char *dash = memchr(p, '-', (size_t)(end - p));
		int a, b;
		if (dash) {
			if (parse_qnum(p, dash, &a) < 0 || parse_qnum(dash + 1, end, &b) < 0 ||
			    b < a)
				return errbuf_set(
				    err, "bad query range '%.*s' in '%s' (queries are 1-22)",
				    (int)(end - p), p, s);
		} else {
			if (parse_qnum(p, end, &a) < 0)
				return errbuf_set(err,
						  "bad query '%.*s' in '%s' (queries are 1-22)",
						  (int)(end - p), p, s);
			b = a;
		}
		for (int q = a; q <= b; q++) {
			if (seen[q])
				return errbuf_set(err, "query %d listed twice in '%s'", q, s);
			seen[q] = 1;
			out[n++] = q;
		}
		if (!comma)
			break;
		p = comma + 1;
		if (!*p)
			return errbuf_set(err, "trailing comma in '%s'", s);
	}
	return n;
}

/* splitmix64 (Steele, Lea, Flood 2014): a seeded stream for the Fisher-Yates shuffles. */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void shuffle(int *a, int n, uint64_t seed, uint64_t stream, int restart)
{
	uint64_t st = seed ^ (stream * 0xd1b54a32d192ed03ull) ^ ((uint64_t)restart << 32);
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(splitmix64(&st) % (uint64_t)(i + 1));
		int t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
}

void run_plan_order(const struct run_plan *p, int restart, int out[RUN_MAX_QUERIES])
{
	memcpy(out, p->queries, sizeof(int) * (size_t)p->n_queries);
	if (p->shuffled)
		shuffle(out, p->n_queries, p->seed, 1, restart);
}

void run_variant_order(const struct run_plan *p, int restart, int n, int *out)
{
	int reverse = !p->seed_given && p->variant_order == RUN_VORDER_ABBA && restart % 2;
	for (int i = 0; i < n; i++)
		out[i] = reverse ? n - 1 - i : i;
	if (p->seed_given)
		shuffle(out, n, p->seed, 2, restart);
}

static int get_int(json_t *obj, const char *key, int *out, struct errbuf *err)
{
	json_t *v = json_object_get(obj, key);
	if (!json_is_integer(v))
		return errbuf_set(err, "plan.%s missing or not an integer", key);
	*out = (int)json_integer_value(v);
	return 0;
}

int run_plan_from_result(struct run_plan *out, const struct res_file *res, struct errbuf *err)
{
	json_t *p = res->plan;
	run_plan_init(out);
	if (!json_is_object(p))
		return errbuf_set(err, "no plan section");
	if (get_int(p, "restarts", &out->restarts, err) < 0 ||
	    get_int(p, "warmup", &out->warmup, err) < 0 || get_int(p, "runs", &out->runs, err) < 0)
		return -1;
	/* "query_order"; files of 0.1.0 also carry it as "order", older ones only as "order" */
	json_t *order = json_object_get(p, "query_order");
	if (!json_is_string(order))
		order = json_object_get(p, "order");
	out->shuffled = json_is_string(order) && strcmp(json_string_value(order), "shuffled") == 0;
	if (json_object_get(p, "budget_s"))
		return errbuf_set(err, "a --budget run cannot be resumed (the restarts it measured "
				       "are in the file; start a new run)");
	/* Files from before the balanced order have no variant_order: A B A B. */
	json_t *vo = json_object_get(p, "variant_order");
	out->variant_order = json_is_string(vo) && strcmp(json_string_value(vo), "abba") == 0
				 ? RUN_VORDER_ABBA
				 : RUN_VORDER_FIXED;
	/* Side-by-side files from before strict alternation ("abba", "coin") are in the ABBA order,
	 * whose pairs carry the slot effect (docs/run.md): not continued in either order. */
	json_t *sbs = json_object_get(p, "side_by_side");
	out->side_by_side = json_is_object(sbs);
	if (out->side_by_side &&
	    !run_sbs_order_current(json_string_value(json_object_get(sbs, "order"))))
		return errbuf_set(err, "a side-by-side run in the ABBA order of older versions "
				       "cannot be resumed: pairs now alternate strictly (the pairs "
				       "it measured are in the file; start a new run)");
	json_t *seed = json_object_get(p, "seed");
	if (json_is_integer(seed)) {
		out->seed = (uint64_t)json_integer_value(seed);
		out->seed_given = 1;
	}
	json_t *qs = json_object_get(p, "queries");
	out->refresh = json_is_object(json_object_get(p, "refresh"));
	json_t *sc = json_object_get(json_object_get(p, "streams"), "count");
	if (json_is_integer(sc) && json_integer_value(sc) >= 1 &&
	    json_integer_value(sc) <= RUN_STREAMS_MAX)
		out->streams = (int)json_integer_value(sc);
	if (!json_is_array(qs) || json_array_size(qs) == 0 ||
	    json_array_size(qs) > 2 * RUN_MAX_QUERIES + 8)
		return errbuf_set(err, "plan.queries missing or malformed");
	out->n_queries = 0;
	size_t i;
	json_t *q;
	json_array_foreach(qs, i, q)
	{
		int num;
		const char *s = json_string_value(q);
		if (out->refresh && s && (strcmp(s, RUN_RF1) == 0 || strcmp(s, RUN_RF2) == 0))
			continue; /* the refresh functions' entries (run --refresh) */
		if (out->streams && s && strncmp(s, RUN_T_PREFIX, strlen(RUN_T_PREFIX)) == 0)
			continue; /* the throughput test's entries (run --streams) */
		if (!s || parse_qnum(s, s + strlen(s), &num) < 0 || out->n_queries >= RUN_MAX_QUERIES)
			return errbuf_set(err, "plan.queries[%zu] is not a query id", i);
		out->queries[out->n_queries++] = num;
	}
	if (out->n_queries == 0)
		return errbuf_set(err, "plan.queries missing or malformed");
	json_t *t = json_object_get(p, "query_timeout_s");
	out->query_timeout = json_is_number(t) ? json_number_value(t) : 0;
	json_t *mc = json_object_get(p, "max_crashes");
	if (json_is_integer(mc))
		out->max_crashes = (int)json_integer_value(mc);
	out->scale = res_file_scale_factor(res);
	out->instructions = json_is_true(json_object_get(p, "instructions"));
	out->no_analyze = json_is_false(json_object_get(p, "analyze"));
	out->optimizer_trace = json_is_true(json_object_get(p, "optimizer_trace"));
	json_t *itol = json_object_get(p, "instructions_tol");
	if (json_is_number(itol) && json_number_value(itol) > 0 && json_number_value(itol) < 1)
		out->instr_tol = json_number_value(itol);
	if (out->restarts < 1 || out->runs < 1 || out->warmup < 0)
		return errbuf_set(err, "plan has a bad restarts/warmup/runs value");
	return 0;
}
