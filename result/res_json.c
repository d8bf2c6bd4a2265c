/* SPDX-License-Identifier: MIT */
/* The result file as JSON: the writer (docs/result-format.md); the reader is res_read.c. */
#include "result/res.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 15 significant digits print every nanosecond-rounded time below 10^9 ms exactly (DBL_DIG). */
#define RES_DUMP_FLAGS (JSON_INDENT(1) | JSON_REAL_PRECISION(15))

/* ---- writer ---- */

json_t *res_json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *res_json_str(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *times_array(const double *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, json_real(round(v[i] * 1e6) / 1e6));
	return a;
}

static json_t *section(json_t *obj)
{
	return obj ? json_incref(obj) : json_object();
}

/* Adds the members of extra that the fixed layout does not already hold. */
static void add_extra(json_t *dst, json_t *extra)
{
	const char *key;
	json_t *value;
	if (!json_is_object(extra))
		return;
	json_object_foreach(extra, key, value)
	{
		if (!json_object_get(dst, key))
			json_object_set(dst, key, value);
	}
}

static json_t *restart_to_json(const struct res_restart *r)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	json_object_set_new(o, "index", json_integer(r->index));
	json_object_set_new(o, "status", json_string(res_status_name(r->status)));
	json_object_set_new(o, "warmup_ms", times_array(r->warmup_ms, r->n_warmup));
	json_object_set_new(o, "measured_ms", times_array(r->measured_ms, r->n_measured));
	json_object_set_new(o, "server_cpu_ms", times_array(r->server_cpu_ms, r->n_server_cpu));
	json_object_set_new(o, "rows", r->rows >= 0 ? json_integer(r->rows) : json_null());
	json_object_set_new(o, "result_sha256", res_json_str(r->result_sha256));
	json_object_set_new(o, "plan_sha256", res_json_str(r->plan_sha256));
	json_object_set_new(o, "not_steady", json_boolean(r->not_steady));
	json_object_set_new(o, "error", res_json_str(r->error));
	json_object_set_new(o, "plan", res_json_str(r->plan));
	add_extra(o, r->extra);
	return o;
}

json_t *res_file_to_json(const struct res_file *res)
{
	json_t *o = json_object(), *queries = json_array();
	if (!o || !queries) {
		json_decref(o);
		json_decref(queries);
		return NULL;
	}
	json_object_set_new(o, "format", json_string(RES_FORMAT));
	json_object_set_new(o, "format_version", json_integer(res->format_version));
	json_object_set_new(o, "tool_version", res_json_str(res->tool_version));
	json_object_set_new(o, "label", res_json_str(res->label));
	json_object_set_new(o, "started_at", res_json_str(res->started_at));
	json_object_set_new(o, "finished_at", res_json_str(res->finished_at));
	json_object_set_new(o, "host", section(res->host));
	json_object_set_new(o, "server", section(res->server));
	json_object_set_new(o, "dataset", section(res->dataset));
	json_object_set_new(o, "plan", section(res->plan));
	json_object_set_new(o, "pinning", section(res->pinning));
	add_extra(o, res->extra);
	for (size_t i = 0; i < res->n_queries; i++) {
		const struct res_query *q = &res->queries[i];
		json_t *jq = json_object(), *restarts = json_array();
		json_object_set_new(jq, "id", json_string(q->id));
		json_object_set_new(jq, "sql_sha256", res_json_str(q->sql_sha256));
		for (size_t j = 0; j < q->n_restarts; j++)
			json_array_append_new(restarts, restart_to_json(&q->restarts[j]));
		json_object_set_new(jq, "restarts", restarts);
		add_extra(jq, q->extra);
		json_array_append_new(queries, jq);
	}
	json_object_set_new(o, "queries", queries);
	return o;
}

char *res_file_dumps(const struct res_file *res)
{
	json_t *o = res_file_to_json(res);
	if (!o)
		return NULL;
	char *text = json_dumps(o, RES_DUMP_FLAGS);
	json_decref(o);
	return text;
}

int res_file_write(const struct res_file *res, const char *path, struct errbuf *err)
{
	char *text = res_file_dumps(res);
	if (!text)
		return errbuf_set(err, "cannot write '%s': out of memory", path);
	size_t len = strlen(text);
	text[len] = '\n'; /* replaces the NUL: the buffer is written by length */
	int rc = util_write_atomic(path, text, len + 1, err);
	free(text);
	return rc;
}
