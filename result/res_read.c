/* SPDX-License-Identifier: MIT */
/* The strict reader of result files: every member docs/result-format.md defines is checked for its
 * type, range and agreement with the plan; the first failure is one line with its JSON path. */
#include "result/res.h"
#include "result/res_analyze.h"
#include "result/res_counts.h"
#include "result/res_funcs.h"
#include "result/res_read_int.h"
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int copy_string(struct rd *rd, const char *path, const json_t *v, char **out)
{
	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (!(*out = strdup(json_string_value(v))))
		return rd_fail(rd, path, "out of memory");
	return 0;
}

static int is_sha256(const char *s)
{
	size_t n = 0;
	for (; s[n]; n++)
		if (!isxdigit((unsigned char)s[n]) || isupper((unsigned char)s[n]))
			return 0;
	return n == 64;
}

static int sha_member(struct rd *rd, json_t *obj, const char *path, const char *key, int nullable,
		      char **out)
{
	char p[256];
	json_t *v;
	*out = NULL;
	if (rd_member(rd, obj, path, key, W_STRING | (nullable ? W_NULL : 0), &v) < 0)
		return -1;
	rd_path_join(p, sizeof(p), path, key);
	if (json_is_string(v) && !is_sha256(json_string_value(v)))
		return rd_fail(rd, p, "not a SHA-256 (64 lowercase hex digits): \"%.80s\"",
			       json_string_value(v));
	return copy_string(rd, p, v, out);
}

/* An array of times >= 0 (> 0 when positive: measured times, whose log is taken). */
static int times_member(struct rd *rd, json_t *obj, const char *path, const char *key, int positive,
			double **out, size_t *n)
{
	char p[256];
	json_t *a, *v;
	size_t i;
	*out = NULL;
	*n = 0;
	if (rd_member(rd, obj, path, key, W_ARRAY, &a) < 0)
		return -1;
	if (json_array_size(a) == 0)
		return 0;
	if (!(*out = malloc(json_array_size(a) * sizeof(double))))
		return rd_fail(rd, path, "out of memory");
	json_array_foreach(a, i, v)
	{
		snprintf(p, sizeof(p), "%s.%s[%zu]", path, key, i);
		if (!json_is_number(v))
			return rd_fail(rd, p, "expected a number, found %s", rd_type_name(v));
		double t = json_number_value(v);
		if (!isfinite(t))
			return rd_fail(rd, p, "non-finite time %g", t);
		if (t < 0)
			return rd_fail(rd, p, "negative time %g", t);
		if (positive && t == 0)
			return rd_fail(rd, p, "zero time (a measured time must be > 0)");
		if (positive && t < RES_MIN_MEASURED_MS)
			return rd_fail(rd, p, "time %g ms below the writer's resolution of %g ms",
				       t, RES_MIN_MEASURED_MS);
		if (t > RES_MAX_TIME_MS)
			return rd_fail(rd, p, "time %g ms above the bound of %g ms", t,
				       RES_MAX_TIME_MS);
		(*out)[i] = t;
	}
	*n = json_array_size(a);
	return 0;
}

/* Keeps the members not in known[] as the producer's extra object. */
static int keep_extra(struct rd *rd, json_t *obj, const char *path, const char *const *known,
		      json_t **out)
{
	const char *key;
	json_t *value;
	*out = NULL;
	json_object_foreach(obj, key, value)
	{
		int found = 0;
		for (const char *const *k = known; *k && !found; k++)
			found = strcmp(*k, key) == 0;
		if (found)
			continue;
		if (!*out && !(*out = json_object()))
			return rd_fail(rd, path, "out of memory");
		json_object_set(*out, key, value);
	}
	return 0;
}

/* The warm-up and measured executions of a restart are at most what the plan asked for (fewer
 * when a query timed out, crashed or failed). */
static int plan_counts(struct rd *rd, const char *path, const struct res_restart *r)
{
	char p[256];
	rd_path_join(p, sizeof(p), path, "warmup_ms");
	if (rd->warmup >= 0 && r->n_warmup > (size_t)rd->warmup)
		return rd_fail(rd, p, "%zu entries, more than $.plan.warmup (%lld)", r->n_warmup,
			       rd->warmup);
	rd_path_join(p, sizeof(p), path, "measured_ms");
	if (rd->throughput) /* one time per stream (or refresh pair) */
		return r->n_measured > (size_t)rd->streams
			   ? rd_fail(rd, p, "%zu entries, more than $.plan.streams.count (%lld)",
				     r->n_measured, rd->streams)
			   : 0;
	if (rd->runs >= 0 && r->n_measured > (size_t)rd->runs)
		return rd_fail(rd, p, "%zu entries, more than $.plan.runs (%lld)", r->n_measured,
			       rd->runs);
	return 0;
}

static int check_restart_optional(struct rd *rd, json_t *o, const char *path);

/* The optional records of named per-execution counts (result/res_counts.h), one count or one per
 * measured run each; and a side-by-side entry's record of its pair (res_sbs_check). */
static int check_counts(struct rd *rd, json_t *o, const char *path, size_t n_measured)
{
	static const char *const members[] = {"work", "instructions", "side_by_side", "analyze"};
	char p[400], key[RES_MAX_NAME + 1], msg[160];
	json_t *rec;
	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++) {
		if (rd_member(rd, o, path, members[i], W_OBJECT | W_OPTIONAL, &rec) < 0)
			return -1;
		if (!rec || (i < 2   ? res_counts_check(rec, n_measured, key, sizeof(key), msg,
								sizeof(msg))
			     : i == 2 ? res_sbs_check(rec, key, sizeof(key), msg, sizeof(msg))
				      : res_analyze_check(rec, key, sizeof(key), msg, sizeof(msg))) == 0)
			continue;
		if (*key)
			snprintf(p, sizeof(p), "%s.%s.%s", path, members[i], key);
		else
			snprintf(p, sizeof(p), "%s.%s", path, members[i]);
		return rd_fail(rd, p, "%s", msg);
	}
	return 0;
}

static int parse_restart(struct rd *rd, json_t *o, const char *path, struct res_restart *r)
{
	static const char *const known[] = {
	    "index",	     "status",	    "warmup_ms",  "measured_ms", "server_cpu_ms", "rows",
	    "result_sha256", "plan_sha256", "not_steady", "error",	 "plan",	  NULL};
	char p[256];
	json_t *v;
	memset(r, 0, sizeof(*r));
	r->rows = -1;
	if (!json_is_object(o))
		return rd_fail(rd, path, "expected an object, found %s", rd_type_name(o));
	if (rd_member(rd, o, path, "index", W_INTEGER, &v) < 0)
		return -1;
	rd_path_join(p, sizeof(p), path, "index");
	if (json_integer_value(v) < 0 || json_integer_value(v) >= RES_MAX_RESTARTS)
		return rd_fail(rd, p, "out of range %lld", (long long)json_integer_value(v));
	if (rd->restarts >= 0 && json_integer_value(v) >= rd->restarts)
		return rd_fail(rd, p, "%lld is not below $.plan.restarts (%lld)",
			       (long long)json_integer_value(v), rd->restarts);
	r->index = (int)json_integer_value(v);
	if (rd_member(rd, o, path, "status", W_STRING, &v) < 0)
		return -1;
	rd_path_join(p, sizeof(p), path, "status");
	if (res_status_parse(json_string_value(v), &r->status) < 0)
		return rd_fail(rd, p, "unknown status \"%.40s\" (ok, timeout, crash or error)",
			       json_string_value(v));
	if (times_member(rd, o, path, "warmup_ms", 0, &r->warmup_ms, &r->n_warmup) < 0 ||
	    times_member(rd, o, path, "measured_ms", 1, &r->measured_ms, &r->n_measured) < 0 ||
	    times_member(rd, o, path, "server_cpu_ms", 0, &r->server_cpu_ms, &r->n_server_cpu) <
		0)
		return -1;
	if (plan_counts(rd, path, r) < 0)
		return -1;
	rd_path_join(p, sizeof(p), path, "measured_ms");
	if (r->status == RES_STATUS_OK && r->n_measured == 0)
		return rd_fail(rd, p, "empty measured runs in a restart with status ok");
	rd_path_join(p, sizeof(p), path, "server_cpu_ms");
	if (r->n_server_cpu != 0 && r->n_server_cpu != r->n_measured)
		return rd_fail(rd, p,
			       "%zu entries for %zu measured runs (expected as many, or none)",
			       r->n_server_cpu, r->n_measured);
	if (rd_member(rd, o, path, "rows", W_INTEGER | W_NULL, &v) < 0)
		return -1;
	rd_path_join(p, sizeof(p), path, "rows");
	if (json_is_integer(v) && json_integer_value(v) < 0)
		return rd_fail(rd, p, "negative row count %lld", (long long)json_integer_value(v));
	if (json_is_integer(v))
		r->rows = (long long)json_integer_value(v);
	if (sha_member(rd, o, path, "result_sha256", 1, &r->result_sha256) < 0 ||
	    sha_member(rd, o, path, "plan_sha256", 1, &r->plan_sha256) < 0)
		return -1;
	if (rd_member(rd, o, path, "not_steady", W_BOOL, &v) < 0)
		return -1;
	r->not_steady = json_is_true(v);
	if (rd_member(rd, o, path, "error", W_STRING | W_NULL, &v) < 0 ||
	    copy_string(rd, path, v, &r->error) < 0)
		return -1;
	if (rd_member(rd, o, path, "plan", W_STRING | W_NULL | W_OPTIONAL, &v) < 0 ||
	    copy_string(rd, path, v, &r->plan) < 0)
		return -1;
	if (rd_check_interf_entry(rd, o, path) < 0 || check_restart_optional(rd, o, path) < 0 ||
	    rd_check_refresh_entry(rd, o, path) < 0 || check_counts(rd, o, path, r->n_measured) < 0)
		return -1;
	return keep_extra(rd, o, path, known, &r->extra);
}

/* With $.plan.queries, the data's queries are plan queries in plan order (a checkpoint may lack
 * the last ones). */
#define QUERY_ID_CHARS                                                                             \
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-"

static int plan_position(struct rd *rd, const char *path, const char *id)
{
	size_t i, n = json_array_size(rd->queries);
	if (!rd->queries)
		return 0;
	for (i = 0; i < n; i++)
		if (strcmp(json_string_value(json_array_get(rd->queries, i)), id) == 0)
			break;
	if (i == n)
		return rd_fail(rd, path, "\"%s\" is not in $.plan.queries", id);
	if (rd->next_query > i)
		return rd_fail(rd, path, "\"%s\" out of the order of $.plan.queries", id);
	rd->next_query = i + 1;
	return 0;
}

static int parse_query(struct rd *rd, struct res_file *res, json_t *o, const char *path)
{
	static const char *const known[] = {"id", "sql_sha256", "restarts", NULL};
	char p[256];
	json_t *id, *restarts, *v;
	struct res_query *q;
	size_t i;
	if (!json_is_object(o))
		return rd_fail(rd, path, "expected an object, found %s", rd_type_name(o));
	if (rd_member(rd, o, path, "id", W_STRING, &id) < 0)
		return -1;
	rd_path_join(p, sizeof(p), path, "id");
	if (json_string_length(id) == 0 || json_string_length(id) > 64)
		return rd_fail(rd, p, "empty or longer than 64 characters");
	/* an id is printed in every table and heading: no control or Markdown character */
	if (strspn(json_string_value(id), QUERY_ID_CHARS) != json_string_length(id))
		return rd_fail(rd, p, "not letters, digits, '_', '.', ':' or '-'");
	if (res_file_find_query(res, json_string_value(id)))
		return rd_fail(rd, p, "duplicate query \"%s\"", json_string_value(id));
	if (plan_position(rd, p, json_string_value(id)) < 0)
		return -1;
	if (!(q = res_file_add_query(res, json_string_value(id), NULL)))
		return rd_fail(rd, path, "out of memory");
	if (sha_member(rd, o, path, "sql_sha256", 0, &q->sql_sha256) < 0)
		return -1;
	if (rd_member(rd, o, path, "restarts", W_ARRAY, &restarts) < 0)
		return -1;
	/* run --streams' entries: their bound is the streams' count, not plan.runs */
	rd->throughput = rd->streams >= 0 && strncmp(q->id, "T:", 2) == 0;
	json_array_foreach(restarts, i, v)
	{
		struct res_restart r;
		snprintf(p, sizeof(p), "%s.restarts[%zu]", path, i);
		if (parse_restart(rd, v, p, &r) < 0) {
			res_restart_release(&r);
			return -1;
		}
		for (size_t j = 0; j < q->n_restarts; j++)
			if (q->restarts[j].index == r.index) {
				snprintf(p, sizeof(p), "%s.restarts[%zu].index", path, i);
				res_restart_release(&r);
				return rd_fail(rd, p, "duplicate restart index %d",
					       q->restarts[j].index);
			}
		struct res_restart *stored = res_query_add_restart(q, &r);
		res_restart_release(&r);
		if (!stored)
			return rd_fail(rd, p, "out of memory");
	}
	return keep_extra(rd, o, path, known, &q->extra);
}

/* YYYY-MM-DDTHH:MM:SS[.fraction]Z, the shape the writer uses. */
static int is_timestamp(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";
	size_t i = 0;
	for (; shape[i]; i++)
		if (shape[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != shape[i])
			return 0;
	if (s[i] == '.') {
		size_t start = ++i;
		while (isdigit((unsigned char)s[i]))
			i++;
		if (i == start)
			return 0;
	}
	return s[i] == 'Z' && s[i + 1] == '\0';
}

/* A top-level string member into *out (NULL for null); timestamp: checked for its shape. */
static int top_string(struct rd *rd, json_t *root, const char *key, unsigned w, int timestamp,
		      char **out)
{
	char p[64];
	json_t *v;
	if (rd_member(rd, root, "$", key, W_STRING | w, &v) < 0)
		return -1;
	rd_path_join(p, sizeof(p), "$", key);
	const char *text = json_is_string(v) ? json_string_value(v) : NULL;
	if (text && timestamp && !is_timestamp(text))
		return rd_fail(rd, p, "not a UTC timestamp like YYYY-MM-DDThh:mm:ssZ: \"%.40s\"",
			       text);
	if (text && !timestamp && json_string_length(v) > 256)
		return rd_fail(rd, p, "longer than 256 characters");
	if (res_set_string(out, text) < 0)
		return rd_fail(rd, p, "out of memory");
	return 0;
}

/* obj.key: a string of at most max characters, or one of the values of oneof[] when given. */
static int str_member(struct rd *rd, json_t *obj, const char *path, const char *key, size_t max,
		      const char *const *oneof, unsigned w)
{
	char p[256];
	json_t *v;
	if (rd_member(rd, obj, path, key, W_STRING | w, &v) < 0)
		return -1;
	if (!json_is_string(v))
		return 0;
	rd_path_join(p, sizeof(p), path, key);
	if (json_string_length(v) > max)
		return rd_fail(rd, p, "longer than %zu characters", max);
	if (!oneof)
		return 0;
	for (const char *const *o = oneof; *o; o++)
		if (strcmp(*o, json_string_value(v)) == 0)
			return 0;
	char list[256] = "";
	for (const char *const *o = oneof; *o; o++) /* "a, b or c" */
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 o == oneof ? "" : o[1] ? ", " : " or ", *o);
	return rd_fail(rd, p, "\"%.40s\" is not one of %s", json_string_value(v), list);
}

#define OPT_NULL (W_OPTIONAL | W_NULL)

/* An optional member the schema defines: its kind and range. */
enum mkind { M_INT, M_NUM, M_STR, M_BOOL };
struct mspec {
	const char *key;
	enum mkind kind;
	double lo, hi;		    /* M_INT, M_NUM: the range; M_STR: hi is the longest */
	unsigned w;		    /* W_NULL when null is allowed, W_LO_INCL */
	const char *const *oneof; /* M_STR: the allowed values, or NULL */
};

static int check_specs(struct rd *rd, json_t *obj, const char *path, const struct mspec *m,
		       size_t n)
{
	long long ignored;
	json_t *v;
	for (size_t i = 0; i < n; i++) {
		unsigned w = W_OPTIONAL | m[i].w;
		int rc = 0;
		switch (m[i].kind) {
		case M_INT:
			rc = rd_int_member(rd, obj, path, m[i].key, (long long)m[i].lo,
					   (long long)m[i].hi, w & ~W_LO_INCL, &ignored);
			break;
		case M_NUM:
			rc = rd_num_member(rd, obj, path, m[i].key, m[i].lo, m[i].hi, w);
			break;
		case M_STR:
			rc = str_member(rd, obj, path, m[i].key, (size_t)m[i].hi, m[i].oneof, w);
			break;
		case M_BOOL:
			rc = rd_member(rd, obj, path, m[i].key, W_BOOL | w, &v);
			break;
		}
		if (rc < 0)
			return -1;
	}
	return 0;
}

static const char *const variant_orders[] = {"abba", "shuffled", "fixed", NULL};
static const char *const corrections[] = {"holm", NULL};
static const char *const decision_rules[] = {"group-sequential-obf", "group-sequential-pocock",
					     "repeated-ci-bonferroni", "precision", NULL};
static const char *const stop_reasons[] = {"all-decided", "budget", "max-pairs", "failed", NULL};

/* The members run --budget and later writers add to plan (docs/result.schema.json). */
static const struct mspec plan_more[] = {
    {"variant_order", M_STR, 0, 16, 0, variant_orders},
    {"steady_correction", M_STR, 0, 16, 0, corrections},
    {"budget_s", M_NUM, 0, 1e7, 0, NULL},
    {"detect", M_NUM, 0, 1, 0, NULL},
    {"alpha", M_NUM, 0, 0.5, 0, NULL},
    {"warmup_min", M_INT, 0, RES_MAX_RUNS, 0, NULL},
    {"warmup_max", M_INT, 1, RES_MAX_RUNS, 0, NULL},
    {"runs_min", M_INT, 1, RES_MAX_RUNS, 0, NULL},
    {"runs_max", M_INT, 1, RES_MAX_RUNS, 0, NULL},
    {"keep_all", M_BOOL, 0, 0, 0, NULL},
    {"warmup_rule", M_STR, 0, 64, 0, NULL},
    {"decision_rule", M_STR, 0, 64, 0, decision_rules},
    {"max_pairs", M_INT, 2, 128, 0, NULL},
    {"first_look", M_INT, 1, 128, 0, NULL},
    {"min_restarts", M_INT, 1, RES_MAX_RESTARTS, 0, NULL},
    {"costs_from", M_STR, 1, 4096, 0, NULL},
    {"analyze", M_BOOL, 0, 0, 0, NULL},
    {"analyze_source", M_STR, 1, 64, 0, NULL},
};

/* $.budget, the outcome of run --budget (optional; these members required when present). */
static const struct mspec budget_members[] = {
    {"pairs", M_INT, 0, RES_MAX_RESTARTS, 0, NULL},
    {"elapsed_s", M_NUM, 0, 1e9, W_LO_INCL, NULL},
    {"budget_s", M_NUM, 0, 1e7, 0, NULL},
    {"next_pair_estimate_s", M_NUM, 0, 1e9, W_LO_INCL | W_NULL, NULL},
    {"server_start_stop_s", M_NUM, 0, 1e9, W_LO_INCL, NULL},
    {"stop_reason", M_STR, 0, 16, W_NULL, stop_reasons},
    {"last_pair_paced", M_BOOL, 0, 0, 0, NULL},
};

/* Optional members of a restart entry. */
static const struct mspec restart_more[] = {
    {"trend_p", M_NUM, 0, 1, W_LO_INCL, NULL},
    {"warmup_steady", M_BOOL, 0, 0, 0, NULL},
    {"warmup_tol", M_NUM, 0, 1e6, 0, NULL},
    {"warmup_capped", M_BOOL, 0, 0, 0, NULL},
    {"runs_capped", M_BOOL, 0, 0, 0, NULL},
    {"instructions_steady", M_BOOL, 0, 0, 0, NULL},
    {"instructions_tol", M_NUM, 0, 1, 0, NULL},
};

static int check_restart_optional(struct rd *rd, json_t *o, const char *path)
{
	char p[320];
	json_t *a, *e;
	size_t i;
	char msg[160];
	if (check_specs(rd, o, path, restart_more, sizeof(restart_more) / sizeof(restart_more[0])) <
		0 ||
	    rd_member(rd, o, path, "functions", W_OBJECT | W_OPTIONAL, &a) < 0)
		return -1;
	snprintf(p, sizeof(p), "%s.functions", path);
	if (a && res_funcs_check(a, msg, sizeof(msg)) < 0)
		return rd_fail(rd, p, "%s", msg);
	if (rd_member(rd, o, path, "row_count_changes", W_ARRAY | W_OPTIONAL, &a) < 0)
		return -1;
	json_array_foreach(a, i, e)
	{
		long long x;
		snprintf(p, sizeof(p), "%s.row_count_changes[%zu]", path, i);
		if (!json_is_object(e))
			return rd_fail(rd, p, "expected an object, found %s", rd_type_name(e));
		if (rd_int_member(rd, e, p, "execution", 2, 2 * (long long)RES_MAX_RUNS + 1, 0,
				  &x) < 0 ||
		    rd_int_member(rd, e, p, "rows", 0, INT64_MAX, 0, &x) < 0)
			return -1;
	}
	return 0;
}

static int check_budget(struct rd *rd, json_t *root)
{
	/* pairs, elapsed_s, budget_s and stop_reason are required; the others optional */
	static const char *const required[] = {"pairs", "elapsed_s", "budget_s", "stop_reason"};
	char p[64];
	json_t *b;
	if (rd_member(rd, root, "$", "budget", W_OBJECT | W_OPTIONAL, &b) < 0)
		return -1;
	if (!b)
		return 0;
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!json_object_get(b, required[i])) {
			rd_path_join(p, sizeof(p), "$.budget", required[i]);
			return rd_fail(rd, p, "missing");
		}
	return check_specs(rd, b, "$.budget", budget_members,
			   sizeof(budget_members) / sizeof(budget_members[0]));
}

/* $.server.buffer_pool (optional; null when it could not be measured): the sizes, the rule. */
static int check_buffer_pool(struct rd *rd, json_t *server)
{
	static const char *const sizes[] = {"data_bytes", "need_bytes", "cap_bytes", "ram_bytes",
					    "pool_bytes"};
	static const char *const data_src[] = {"tablespace_files", "scale_estimate", NULL};
	static const char *const pool_src[] = {"rule", "option", NULL};
	const char *path = "$.server.buffer_pool";
	json_t *bp, *v;
	long long x;
	if (rd_member(rd, server, "$.server", "buffer_pool", W_OBJECT | OPT_NULL, &bp) < 0)
		return -1;
	if (!json_is_object(bp))
		return 0;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (rd_int_member(rd, bp, path, sizes[i], 0, RES_MAX_BYTES, 0, &x) < 0)
			return -1;
	if (str_member(rd, bp, path, "rule", 4096, NULL, 0) < 0 ||
	    str_member(rd, bp, path, "data_source", 64, data_src, 0) < 0 ||
	    str_member(rd, bp, path, "pool_source", 64, pool_src, 0) < 0)
		return -1;
	return rd_member(rd, bp, path, "fits", W_BOOL, &v);
}

/* $.host and $.server: the members the schema names; the rest is free-form. */
static int check_host_server(struct rd *rd, const struct res_file *res)
{
	static const char *const host_keys[] = {"name", "cpu_model", "kernel"};
	char *sha = NULL;
	json_t *v;
	for (size_t i = 0; i < sizeof(host_keys) / sizeof(host_keys[0]); i++)
		if (str_member(rd, res->host, "$.host", host_keys[i], 4096, NULL, OPT_NULL) < 0)
			return -1;
	if (rd_check_host_contention(rd, res->host) < 0)
		return -1;
	if (str_member(rd, res->server, "$.server", "version", 4096, NULL, OPT_NULL) < 0 ||
	    str_member(rd, res->server, "$.server", "binary", 4096, NULL, OPT_NULL) < 0)
		return -1;
	if (json_object_get(res->server, "binary_sha256") &&
	    sha_member(rd, res->server, "$.server", "binary_sha256", 1, &sha) < 0)
		return -1;
	free(sha);
	if (rd_member(rd, res->server, "$.server", "options", W_OBJECT | W_ARRAY | OPT_NULL, &v) <
	    0)
		return -1;
	return check_buffer_pool(rd, res->server);
}

/* $.dataset: scale_factor (required), generator_version, content_check, fingerprint. */
static int check_dataset(struct rd *rd, const struct res_file *res)
{
	json_t *v;
	if (rd_num_member(rd, res->dataset, "$.dataset", "scale_factor", 0, RES_MAX_SCALE, 0) < 0 ||
	    str_member(rd, res->dataset, "$.dataset", "generator_version", 4096, NULL, OPT_NULL) <
		0 ||
	    str_member(rd, res->dataset, "$.dataset", "content_check", 128, NULL, OPT_NULL) < 0)
		return -1;
	return rd_member(rd, res->dataset, "$.dataset", "fingerprint", W_STRING | OPT_NULL, &v);
}

/* $.plan.queries: distinct query ids, kept for the check of the data's order. */
static int check_plan_queries(struct rd *rd, json_t *plan)
{
	char p[64];
	json_t *qs, *q;
	size_t i;
	if (rd_member(rd, plan, "$.plan", "queries", W_ARRAY | W_OPTIONAL, &qs) < 0)
		return -1;
	if (!qs)
		return 0;
	json_array_foreach(qs, i, q)
	{
		snprintf(p, sizeof(p), "$.plan.queries[%zu]", i);
		if (!json_is_string(q))
			return rd_fail(rd, p, "expected a string, found %s", rd_type_name(q));
		if (json_string_length(q) == 0 || json_string_length(q) > RES_MAX_NAME)
			return rd_fail(rd, p, "empty or longer than %d characters", RES_MAX_NAME);
		for (size_t k = 0; k < i; k++)
			if (strcmp(json_string_value(json_array_get(qs, k)),
				   json_string_value(q)) == 0)
				return rd_fail(rd, p, "duplicate query \"%s\"",
					       json_string_value(q));
	}
	rd->queries = qs;
	return 0;
}

/* $.plan.horizon (optional; absent in files before it): run --budget's K after each pair, each
 * within [2, 128] as max_pairs. */
static int check_plan_horizon(struct rd *rd, json_t *plan)
{
	char p[64];
	json_t *h, *k;
	size_t i;
	if (rd_member(rd, plan, "$.plan", "horizon", W_ARRAY | W_OPTIONAL, &h) < 0)
		return -1;
	if (h && json_array_size(h) > 128)
		return rd_fail(rd, "$.plan.horizon", "more than 128 entries");
	json_array_foreach(h, i, k)
	{
		snprintf(p, sizeof(p), "$.plan.horizon[%zu]", i);
		if (!json_is_integer(k))
			return rd_fail(rd, p, "expected an integer, found %s", rd_type_name(k));
		if (json_integer_value(k) < 2 || json_integer_value(k) > 128)
			return rd_fail(rd, p, "%lld out of range (2 to 128)",
				       (long long)json_integer_value(k));
	}
	return 0;
}

/* $.plan: the schema's members (each optional, checked when present); restarts, warmup, runs
 * and queries bound the data. */
static int check_plan(struct rd *rd, json_t *plan)
{
	static const char *const orders[] = {"fixed", "shuffled", NULL};
	long long ignored;
	if (rd_int_member(rd, plan, "$.plan", "restarts", 1, RES_MAX_RESTARTS, W_OPTIONAL,
			  &rd->restarts) < 0 ||
	    rd_int_member(rd, plan, "$.plan", "warmup", 0, RES_MAX_RUNS, W_OPTIONAL, &rd->warmup) <
		0 ||
	    rd_int_member(rd, plan, "$.plan", "runs", 1, RES_MAX_RUNS, W_OPTIONAL, &rd->runs) < 0 ||
	    check_plan_queries(rd, plan) < 0 ||
	    str_member(rd, plan, "$.plan", "query_order", 16, orders, W_OPTIONAL) < 0 ||
	    str_member(rd, plan, "$.plan", "order", 16, orders, W_OPTIONAL) < 0 ||
	    rd_int_member(rd, plan, "$.plan", "seed", 0, INT64_MAX, OPT_NULL, &ignored) < 0 ||
	    str_member(rd, plan, "$.plan", "variant", RES_MAX_NAME, NULL, OPT_NULL) < 0 ||
	    str_member(rd, plan, "$.plan", "variant_spec", 65536, NULL, OPT_NULL) < 0 ||
	    rd_num_member(rd, plan, "$.plan", "query_timeout_s", 0, RES_MAX_TIMEOUT_S, OPT_NULL) <
		0 ||
	    rd_int_member(rd, plan, "$.plan", "max_crashes", 0, RES_MAX_CRASHES, W_OPTIONAL,
			  &ignored) < 0 ||
	    str_member(rd, plan, "$.plan", "steady_test", 64, NULL, OPT_NULL) < 0 ||
	    rd_num_member(rd, plan, "$.plan", "steady_alpha", 0, 0.5, OPT_NULL) < 0 ||
	    str_member(rd, plan, "$.plan", "parameters", 64, NULL, OPT_NULL) < 0 ||
	    check_specs(rd, plan, "$.plan", plan_more, sizeof(plan_more) / sizeof(plan_more[0])) <
		0 ||
	    check_plan_horizon(rd, plan) < 0 || rd_check_refresh_plan(rd, plan) < 0 ||
	    rd_check_streams_plan(rd, plan) < 0)
		return -1;
	return 0;
}

static int parse_header(struct rd *rd, struct res_file *res, json_t *root)
{
	json_t *v;
	if (!json_is_object(root))
		return rd_fail(rd, "$", "expected an object, found %s", rd_type_name(root));
	if (rd_member(rd, root, "$", "format", W_STRING, &v) < 0)
		return -1;
	if (strcmp(json_string_value(v), RES_FORMAT) != 0)
		return rd_fail(rd, "$.format",
			       "not a dbt3stab result file (\"%.40s\", expected \"%s\")",
			       json_string_value(v), RES_FORMAT);
	if (rd_member(rd, root, "$", "format_version", W_INTEGER, &v) < 0)
		return -1;
	if (json_integer_value(v) != RES_FORMAT_VERSION)
		return rd_fail(rd, "$.format_version",
			       "unsupported format version %lld (this dbt3stab reads %d)",
			       (long long)json_integer_value(v), RES_FORMAT_VERSION);
	res->format_version = RES_FORMAT_VERSION;
	if (top_string(rd, root, "tool_version", 0, 0, &res->tool_version) < 0 ||
	    rd_member(rd, root, "$", "label", W_STRING | OPT_NULL, &v) < 0 ||
	    res_set_string(&res->label, json_is_string(v) ? json_string_value(v) : NULL) < 0 ||
	    top_string(rd, root, "started_at", 0, 1, &res->started_at) < 0 ||
	    top_string(rd, root, "finished_at", W_NULL, 1, &res->finished_at) < 0)
		return -1;
	return 0;
}

static int parse_sections(struct rd *rd, struct res_file *res, json_t *root)
{
	static const struct {
		const char *key;
		size_t off;
	} sections[] = {
	    {"host", offsetof(struct res_file, host)},
	    {"server", offsetof(struct res_file, server)},
	    {"dataset", offsetof(struct res_file, dataset)},
	    {"plan", offsetof(struct res_file, plan)},
	    {"pinning", offsetof(struct res_file, pinning)},
	};
	json_t *v;
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		if (rd_member(rd, root, "$", sections[i].key, W_OBJECT, &v) < 0)
			return -1;
		res_set_section((json_t **)((char *)res + sections[i].off), json_incref(v));
	}
	if (check_host_server(rd, res) < 0 || check_dataset(rd, res) < 0 ||
	    check_plan(rd, res->plan) < 0 || check_budget(rd, root) < 0)
		return -1;
	return 0;
}

static int parse_top(struct rd *rd, struct res_file *res, json_t *root)
{
	static const char *const known[] = {
	    "format", "format_version", "tool_version", "label", "started_at", "finished_at",
	    "host",   "server",		"dataset",	"plan",	 "pinning",    "queries",
	    NULL};
	json_t *v, *queries;
	size_t i;
	if (parse_header(rd, res, root) < 0 || parse_sections(rd, res, root) < 0)
		return -1;
	if (rd_member(rd, root, "$", "queries", W_ARRAY, &queries) < 0)
		return -1;
	json_array_foreach(queries, i, v)
	{
		char p[64];
		snprintf(p, sizeof(p), "$.queries[%zu]", i);
		if (parse_query(rd, res, v, p) < 0)
			return -1;
	}
	json_t *cost;
	if (rd_check_interf_top(rd, root) < 0 ||
	    rd_member(rd, root, "$", "verdict_cost", W_OBJECT | W_OPTIONAL, &cost) < 0)
		return -1;
	return keep_extra(rd, root, "$", known, &res->extra);
}

/* Messages quote the file (strings, jansson's tokens): control characters, a newline or a
 * terminal escape among them, become '?' so that the message stays one plain line. */
static int one_line(struct errbuf *err)
{
	for (char *c = err->msg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return -1;
}

static int parse_text(struct res_file **out, const char *text, size_t len, const char *name,
		      struct errbuf *err)
{
	struct rd rd = {name, err, -1, -1, -1, NULL, 0, -1, 0};
	json_error_t jerr;
	*out = NULL;
	if (res_text_check(text, len, name, err) < 0)
		return -1;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return errbuf_set(err, "'%s': not JSON: %s (line %d, column %d)", name, jerr.text,
				  jerr.line, jerr.column);
	struct res_file *res = calloc(1, sizeof(*res));
	if (!res) {
		json_decref(root);
		return errbuf_set(err, "'%s': out of memory", name);
	}
	int rc = parse_top(&rd, res, root);
	json_decref(root);
	if (rc < 0) {
		res_file_free(res);
		return -1;
	}
	*out = res;
	return 0;
}

int res_file_parse(struct res_file **out, const char *text, size_t len, const char *name,
		   struct errbuf *err)
{
	return parse_text(out, text, len, name, err) < 0 ? one_line(err) : 0;
}

int res_file_read(struct res_file **out, const char *path, struct errbuf *err)
{
	char *text;
	size_t len;
	*out = NULL;
	if (res_text_load(path, &text, &len, err) < 0)
		return -1;
	int rc = res_file_parse(out, text, len, path, err);
	free(text);
	return rc;
}
