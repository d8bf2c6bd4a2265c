/* SPDX-License-Identifier: MIT */
/* Named per-execution counts (result/res_counts.h). */
#include "result/res_counts.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void res_counts_init(struct res_counts *c, size_t n_exec)
{
	memset(c, 0, sizeof(*c));
	c->n_exec = n_exec;
}

void res_counts_release(struct res_counts *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->names[i]);
	free(c->names);
	free(c->v);
	memset(c, 0, sizeof(*c));
}

int res_counts_add(struct res_counts *c, const char *name, const long long *per_exec)
{
	if (c->n >= RES_COUNTS_MAX)
		return -1;
	char **names = realloc(c->names, (c->n + 1) * sizeof(*names));
	if (!names)
		return -1;
	c->names = names;
	long long *v = realloc(c->v, ((c->n + 1) * c->n_exec + 1) * sizeof(*v));
	if (!v)
		return -1;
	c->v = v;
	if (!(c->names[c->n] = strdup(name)))
		return -1;
	if (c->n_exec)
		memcpy(c->v + c->n * c->n_exec, per_exec, c->n_exec * sizeof(*v));
	c->n++;
	return 0;
}

int res_counts_find(const struct res_counts *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->names[i], name) == 0)
			return (int)i;
	return -1;
}

json_t *res_counts_json(const struct res_counts *c)
{
	json_t *o = json_object();
	for (size_t i = 0; o && i < c->n; i++) {
		const long long *x = c->v + i * c->n_exec;
		size_t same = 1;
		while (same < c->n_exec && x[same] == x[0])
			same++;
		json_t *val;
		if (c->n_exec > 0 && same == c->n_exec) {
			val = json_integer(x[0]);
		} else {
			val = json_array();
			for (size_t e = 0; val && e < c->n_exec; e++)
				if (json_array_append_new(val, json_integer(x[e])) < 0) {
					json_decref(val);
					val = NULL;
				}
		}
		if (!val || json_object_set_new(o, c->names[i], val) < 0) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

/* What a server's status variable names are made of; names are printed in reports as they are. */
#define NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"

static int count_ok(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) >= 0 &&
	       json_integer_value(v) <= RES_COUNT_MAX;
}

int res_counts_check(const json_t *o, size_t n_exec, char *key, size_t key_len, char *msg,
		     size_t msg_len)
{
	const char *name;
	json_t *v;
	snprintf(key, key_len, "%s", "");
	if (!json_is_object(o))
		return snprintf(msg, msg_len, "expected an object"), -1;
	if (json_object_size(o) > RES_COUNTS_MAX)
		return snprintf(msg, msg_len, "%zu counters, more than %d", json_object_size(o),
				RES_COUNTS_MAX),
		       -1;
	json_object_foreach((json_t *)o, name, v)
	{
		size_t len = strlen(name);
		snprintf(key, key_len, "%.*s", RES_MAX_NAME, name);
		if (len == 0 || len > RES_MAX_NAME)
			return snprintf(msg, msg_len, "a counter name of %zu characters (1 to %d)",
					len, RES_MAX_NAME),
			       -1;
		if (strspn(name, NAME_CHARS) != len)
			return snprintf(msg, msg_len,
					"a counter name is letters, digits and '_' only"),
			       -1;
		if (json_is_array(v)) {
			if (json_array_size(v) != n_exec)
				return snprintf(msg, msg_len,
						"%zu counts for %zu measured runs (expected as "
						"many, or one integer)",
						json_array_size(v), n_exec),
				       -1;
			for (size_t e = 0; e < n_exec; e++)
				if (!count_ok(json_array_get(v, e)))
					return snprintf(msg, msg_len,
							"entry %zu: expected an integer 0 to 2^53",
							e),
					       -1;
		} else if (!count_ok(v)) {
			return snprintf(msg, msg_len,
					"expected an integer 0 to 2^53 or an array of them"),
			       -1;
		}
	}
	return 0;
}

int res_counts_get(struct res_counts *out, const struct res_restart *r, const char *member)
{
	const json_t *o = r->extra ? json_object_get(r->extra, member) : NULL;
	char key[RES_MAX_NAME + 1], msg[128];
	res_counts_init(out, r->n_measured);
	if (!o || r->n_measured == 0 ||
	    res_counts_check(o, r->n_measured, key, sizeof(key), msg, sizeof(msg)) < 0)
		return 0;
	long long *x = malloc(r->n_measured * sizeof(*x));
	if (!x)
		return -1;
	const char *name;
	json_t *v;
	json_object_foreach((json_t *)o, name, v)
	{
		for (size_t e = 0; e < r->n_measured; e++)
			x[e] = (long long)json_integer_value(json_is_array(v) ? json_array_get(v, e)
									  : v);
		if (res_counts_add(out, name, x) < 0) {
			free(x);
			res_counts_release(out);
			return -1;
		}
	}
	free(x);
	return 1;
}

size_t res_counts_first_warm(const struct res_counts *c, const struct res_restart *r)
{
	return r->n_warmup == 0 && c->n_exec > 1 ? 1 : 0;
}

int res_query_rows_read(const struct res_query *q, long long *out_first, size_t *out_restarts)
{
	int varies = 0;
	*out_first = -1;
	*out_restarts = 0;
	for (size_t i = 0; i < q->n_restarts; i++) {
		struct res_counts c;
		const struct res_restart *r = &q->restarts[i];
		if (r->status != RES_STATUS_OK || res_counts_get(&c, r, "work") != 1)
			continue;
		int k = res_counts_find(&c, "Rows_read");
		if (k < 0)
			k = res_counts_find(&c,
					    "Handler_read_rnd_next"); /* MySQL 8: no Rows_read */
		*out_restarts += k >= 0;
		for (size_t e = k < 0 ? c.n_exec : res_counts_first_warm(&c, r); e < c.n_exec;
		     e++) {
			long long v = c.v[(size_t)k * c.n_exec + e];
			varies |= *out_first >= 0 && v != *out_first;
			if (*out_first < 0)
				*out_first = v;
		}
		res_counts_release(&c);
	}
	return varies;
}
