/* SPDX-License-Identifier: MIT */
/* EXPLAIN plan shapes (runner/run_explain.h). */
#include "runner/run_explain.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Scalar members that describe the shape; every other scalar (cost, rows, filtered, conditions,
 * buffer sizes, r_* statistics of ANALYZE) is dropped. */
static const char *const keep_scalars[] = {
    "select_id",
    "table_name",
    "access_type",
    "key",
    "used_key_parts",
    "ref",
    "join_type",
    "using_index",
    "using_index_for_group_by",
    "using_join_buffer",
    "using_filesort",
    "using_temporary_table",
    "loose_scan",
    "first_match",
    "materialized_from_subquery",
    "message",
    "sort_key",
    "dependent",
    "cacheable",
    "operation",
    "partitions",
    "duplicates_removal",
    "distinct",
    "index_merge",
    NULL,
};

/* Containers that hold only estimates or column lists. */
static const char *const drop_objects[] = {
    "cost_info", "possible_keys", "used_columns", "r_loops", "r_total_time_ms", NULL,
};

static int listed(const char *const *list, const char *key)
{
	for (; *list; list++)
		if (strcmp(*list, key) == 0)
			return 1;
	return 0;
}

static int all_scalars(json_t *a)
{
	size_t i;
	json_t *v;
	json_array_foreach(a, i, v) if (json_is_object(v) || json_is_array(v)) return 0;
	return 1;
}

static json_t *shape(json_t *v);

static json_t *shape_object(json_t *o)
{
	json_t *out = json_object();
	const char *key;
	json_t *v;
	json_object_foreach(o, key, v)
	{
		json_t *kept = NULL;
		if (listed(drop_objects, key) || strncmp(key, "r_", 2) == 0)
			continue;
		if (json_is_object(v) || (json_is_array(v) && !all_scalars(v)))
			kept = shape(v);
		else if (listed(keep_scalars, key))
			kept = json_deep_copy(v);
		if (kept)
			json_object_set_new(out, key, kept);
	}
	return out;
}

static json_t *shape(json_t *v)
{
	if (json_is_object(v))
		return shape_object(v);
	if (json_is_array(v)) {
		json_t *out = json_array();
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e)
		{
			if (json_is_object(e) || json_is_array(e))
				json_array_append_new(out, shape(e));
			else
				json_array_append_new(out, json_deep_copy(e));
		}
		return out;
	}
	return json_deep_copy(v);
}

int run_explain_shape(const char *explain_json, char **out, struct errbuf *err)
{
	json_error_t je;
	json_t *doc = json_loads(explain_json, 0, &je);
	if (!doc)
		return errbuf_set(err, "cannot parse the plan: %s (line %d)", je.text, je.line);
	json_t *s = shape(doc);
	json_decref(doc);
	char *text = json_dumps(s, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(s);
	if (!text)
		return errbuf_set(err, "out of memory");
	*out = text;
	return 0;
}

int run_explain_fetch(MYSQL *m, const char *sql, char **out_text, char out_sha256[65],
		      struct errbuf *err)
{
	char *q = NULL;
	int rc = -1;
	if (asprintf(&q, "EXPLAIN FORMAT=JSON %s", sql) < 0)
		return errbuf_set(err, "out of memory");
	if (mysql_real_query(m, q, (unsigned long)strlen(q)) != 0) {
		errbuf_set(err, "EXPLAIN failed: %s (error %u)", mysql_error(m), mysql_errno(m));
		goto out;
	}
	MYSQL_RES *res = mysql_store_result(m);
	MYSQL_ROW row = res ? mysql_fetch_row(res) : NULL;
	if (!row || !row[0]) {
		errbuf_set(err, "EXPLAIN returned no plan: %s", mysql_error(m));
		mysql_free_result(res);
		goto out;
	}
	char *text = strdup(row[0]);
	mysql_free_result(res);
	char *s = NULL;
	if (!text || run_explain_shape(text, &s, err) < 0) {
		if (!text)
			errbuf_set(err, "out of memory");
		free(text);
		goto out;
	}
	util_sha256_hex(out_sha256, s, strlen(s));
	free(s);
	*out_text = text;
	rc = 0;
out:
	free(q);
	return rc;
}
