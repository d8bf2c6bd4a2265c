/* SPDX-License-Identifier: MIT */
/* The result model: construction, copies and release (result/res.h). */
#include "result/res.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const status_names[] = {"ok", "timeout", "crash", "error"};

const char *res_status_name(enum res_status s)
{
	if ((unsigned)s < sizeof(status_names) / sizeof(status_names[0]))
		return status_names[s];
	return "unknown";
}

int res_status_parse(const char *s, enum res_status *out)
{
	for (size_t i = 0; i < sizeof(status_names) / sizeof(status_names[0]); i++)
		if (strcmp(s, status_names[i]) == 0) {
			*out = (enum res_status)i;
			return 0;
		}
	return -1;
}

int res_set_string(char **member, const char *s)
{
	char *copy = NULL;
	if (s && !(copy = strdup(s)))
		return -1;
	free(*member);
	*member = copy;
	return 0;
}

void res_set_section(json_t **member, json_t *obj)
{
	json_decref(*member);
	*member = obj;
}

struct res_file *res_file_new(void)
{
	struct res_file *res = calloc(1, sizeof(*res));
	char now[32];
	if (!res)
		return NULL;
	util_utc_iso8601(now);
	res->format_version = RES_FORMAT_VERSION;
	res->tool_version = strdup(DBT3STAB_VERSION);
	res->started_at = strdup(now);
	res->host = json_object();
	res->server = json_object();
	res->dataset = json_object();
	res->plan = json_object();
	res->pinning = json_object();
	if (!res->tool_version || !res->started_at || !res->host || !res->server || !res->dataset ||
	    !res->plan || !res->pinning) {
		res_file_free(res);
		return NULL;
	}
	return res;
}

int res_file_finish(struct res_file *res)
{
	char now[32];
	util_utc_iso8601(now);
	return res_set_string(&res->finished_at, now);
}

void res_restart_release(struct res_restart *r)
{
	free(r->warmup_ms);
	free(r->measured_ms);
	free(r->server_cpu_ms);
	free(r->result_sha256);
	free(r->plan_sha256);
	free(r->plan);
	free(r->error);
	json_decref(r->extra);
	memset(r, 0, sizeof(*r));
}

static void query_release(struct res_query *q)
{
	for (size_t i = 0; i < q->n_restarts; i++)
		res_restart_release(&q->restarts[i]);
	free(q->restarts);
	free(q->id);
	free(q->sql_sha256);
	json_decref(q->extra);
	memset(q, 0, sizeof(*q));
}

void res_file_free(struct res_file *res)
{
	if (!res)
		return;
	for (size_t i = 0; i < res->n_queries; i++)
		query_release(&res->queries[i]);
	free(res->queries);
	free(res->tool_version);
	free(res->label);
	free(res->started_at);
	free(res->finished_at);
	json_decref(res->host);
	json_decref(res->server);
	json_decref(res->dataset);
	json_decref(res->plan);
	json_decref(res->pinning);
	json_decref(res->extra);
	free(res);
}

struct res_query *res_file_find_query(const struct res_file *res, const char *id)
{
	for (size_t i = 0; i < res->n_queries; i++)
		if (strcmp(res->queries[i].id, id) == 0)
			return &res->queries[i];
	return NULL;
}

struct res_query *res_file_find_query_num(const struct res_file *res, int num)
{
	char id[16];
	snprintf(id, sizeof(id), "Q%d", num);
	return res_file_find_query(res, id);
}

struct res_query *res_file_add_query(struct res_file *res, const char *id, const char *sql_sha256)
{
	if (!id || res_file_find_query(res, id))
		return NULL;
	if (res->n_queries == res->cap_queries) {
		size_t cap = res->cap_queries ? 2 * res->cap_queries : 32;
		struct res_query *q = realloc(res->queries, cap * sizeof(*q));
		if (!q)
			return NULL;
		res->queries = q;
		res->cap_queries = cap;
	}
	struct res_query *q = &res->queries[res->n_queries];
	memset(q, 0, sizeof(*q));
	q->id = strdup(id);
	if (sql_sha256)
		q->sql_sha256 = strdup(sql_sha256);
	if (!q->id || (sql_sha256 && !q->sql_sha256)) {
		query_release(q);
		return NULL;
	}
	res->n_queries++;
	return q;
}

static int dup_array(double **out, const double *src, size_t n)
{
	*out = NULL;
	if (n == 0)
		return 0;
	*out = malloc(n * sizeof(double));
	if (!*out)
		return -1;
	memcpy(*out, src, n * sizeof(double));
	return 0;
}

static int dup_string(char **out, const char *s)
{
	*out = NULL;
	return s && !(*out = strdup(s)) ? -1 : 0;
}

struct res_restart *res_query_add_restart(struct res_query *q, const struct res_restart *r)
{
	if (q->n_restarts == q->cap_restarts) {
		size_t cap = q->cap_restarts ? 2 * q->cap_restarts : 8;
		struct res_restart *p = realloc(q->restarts, cap * sizeof(*p));
		if (!p)
			return NULL;
		q->restarts = p;
		q->cap_restarts = cap;
	}
	struct res_restart *c = &q->restarts[q->n_restarts];
	*c = *r;
	c->warmup_ms = c->measured_ms = c->server_cpu_ms = NULL;
	c->result_sha256 = c->plan_sha256 = c->plan = c->error = NULL;
	c->extra = NULL;
	if (dup_array(&c->warmup_ms, r->warmup_ms, r->n_warmup) < 0 ||
	    dup_array(&c->measured_ms, r->measured_ms, r->n_measured) < 0 ||
	    dup_array(&c->server_cpu_ms, r->server_cpu_ms, r->n_server_cpu) < 0 ||
	    dup_string(&c->result_sha256, r->result_sha256) < 0 ||
	    dup_string(&c->plan_sha256, r->plan_sha256) < 0 || dup_string(&c->plan, r->plan) < 0 ||
	    dup_string(&c->error, r->error) < 0) {
		res_restart_release(c);
		return NULL;
	}
	if (r->extra)
		c->extra = json_incref(r->extra);
	q->n_restarts++;
	return c;
}

double res_file_scale_factor(const struct res_file *res)
{
	json_t *sf = res->dataset ? json_object_get(res->dataset, "scale_factor") : NULL;
	return json_is_number(sf) ? json_number_value(sf) : 0.0;
}

const char *res_file_dataset_fingerprint(const struct res_file *res)
{
	json_t *fp = res->dataset ? json_object_get(res->dataset, "fingerprint") : NULL;
	return json_is_string(fp) ? json_string_value(fp) : NULL;
}

const char *res_file_content_check(const struct res_file *res)
{
	json_t *c = res->dataset ? json_object_get(res->dataset, "content_check") : NULL;
	return json_is_string(c) ? json_string_value(c) : NULL;
}

int res_file_pool_fits(const struct res_file *res)
{
	json_t *bp = res && res->server ? json_object_get(res->server, "buffer_pool") : NULL;
	json_t *fits = json_object_get(bp, "fits");
	return json_is_boolean(fits) ? json_is_true(fits) : -1;
}

void res_query_remove_restart(struct res_query *q, size_t i)
{
	if (i >= q->n_restarts)
		return;
	res_restart_release(&q->restarts[i]);
	memmove(&q->restarts[i], &q->restarts[i + 1],
		(q->n_restarts - i - 1) * sizeof(q->restarts[0]));
	q->n_restarts--;
}
