/* SPDX-License-Identifier: MIT */
/* EXPLAIN plan shapes and their tables and strategies (result/res_explain.h). */
#include "result/res_explain.h"
#include <math.h>
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

static int dropped(const char *key)
{
	return listed(drop_objects, key) || strncmp(key, "r_", 2) == 0;
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
		if (dropped(key))
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

json_t *res_explain_shape_tree(json_t *plan)
{
	return shape(plan);
}

int res_explain_shape(const char *explain_json, char **out, struct errbuf *err)
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

/* ---- tables and strategies ---- */

struct walk {
	struct res_xplan *p;
	int oom;
};

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* A string member, or a list of strings joined with ",", as a new string; NULL when absent. */
static char *joined(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	if (json_is_string(v))
		return strdup(json_string_value(v));
	if (!json_is_array(v))
		return NULL;
	size_t len = 1, i;
	json_t *e;
	json_array_foreach(v, i, e) len +=
	    (json_is_string(e) ? strlen(json_string_value(e)) : 8) + 1;
	char *s = calloc(1, len);
	if (!s)
		return NULL;
	json_array_foreach(v, i, e)
	{
		if (i)
			strcat(s, ",");
		strcat(s, json_is_string(e) ? json_string_value(e) : "?");
	}
	return s;
}

double res_json_number(const json_t *v)
{
	if (json_is_number(v))
		return json_number_value(v);
	if (json_is_string(v)) {
		char *end;
		double d = strtod(json_string_value(v), &end);
		if (end != json_string_value(v) && *end == '\0')
			return d;
	}
	return NAN;
}

static int add_strategy(struct walk *w, const char *name, long sel)
{
	struct res_xplan *p = w->p;
	struct res_xstrategy *n = realloc(p->strategies, (p->n_strategies + 1) * sizeof(*n));
	if (!n)
		return w->oom = -1;
	p->strategies = n;
	n[p->n_strategies].name = strdup(name);
	n[p->n_strategies].select_id = sel;
	if (!n[p->n_strategies].name)
		return w->oom = -1;
	p->n_strategies++;
	return 0;
}

/* The table's shape members other than alias, access, key, key parts and ref; a nested block's
 * query_block is left to its own tables. */
static json_t *table_members(json_t *shape_t)
{
	static const char *const named[] = {"table_name",     "access_type", "key",
					    "used_key_parts", "ref",	     NULL};
	json_t *m = json_object();
	const char *key;
	json_t *v;
	json_object_foreach(shape_t, key, v)
	{
		if (listed(named, key))
			continue;
		json_t *c = json_deep_copy(v);
		if (json_is_object(c))
			json_object_del(c, "query_block");
		json_object_set_new(m, key, c);
	}
	return m;
}

static void add_table(struct walk *w, json_t *t, long sel, int position)
{
	struct res_xplan *p = w->p;
	struct res_xtable *n = realloc(p->tables, (p->n_tables + 1) * sizeof(*n));
	if (!n) {
		w->oom = -1;
		return;
	}
	p->tables = n;
	struct res_xtable *x = &n[p->n_tables++];
	memset(x, 0, sizeof(*x));
	json_t *s = shape(t);
	const char *alias = json_string_value(json_object_get(s, "table_name"));
	x->alias = strdup(alias ? alias : "?");
	for (size_t i = 0; i + 1 < p->n_tables; i++)
		x->occurrence += x->alias && strcmp(p->tables[i].alias, x->alias) == 0;
	x->select_id = sel;
	x->position = position;
	x->access = dup_or_null(json_string_value(json_object_get(s, "access_type")));
	x->key = dup_or_null(json_string_value(json_object_get(s, "key")));
	x->key_parts = joined(s, "used_key_parts");
	x->ref = joined(s, "ref");
	x->members = table_members(s);
	json_t *rows = json_object_get(t, "rows");
	x->rows = res_json_number(rows ? rows : json_object_get(t, "rows_examined_per_scan"));
	x->filtered = res_json_number(json_object_get(t, "filtered"));
	x->condition = json_object_get(t, "attached_condition") != NULL;
	json_decref(s);
	if (!x->alias || !x->members)
		w->oom = -1;
}

/* A subquery run for each row of its outer block: an element of "subqueries" (MariaDB) or
 * "attached_subqueries" (MySQL) that is its query block itself. */
static void plain_subqueries(struct walk *w, json_t *list, long sel)
{
	size_t i;
	json_t *e;
	char buf[64];
	json_array_foreach(list, i, e)
	{
		json_t *id = json_object_get(json_object_get(e, "query_block"), "select_id");
		if (!id)
			continue;
		snprintf(buf, sizeof(buf), "subquery(#%ld)", (long)json_integer_value(id));
		add_strategy(w, buf, sel);
	}
}

/* The strategy a member of a plan object names (key k, value v, in object o whose own key is
 * parent), or none. */
static void member_strategy(struct walk *w, json_t *o, const char *parent, const char *k, json_t *v,
			    long sel)
{
	char buf[300];
	const char *alias = json_string_value(json_object_get(o, "table_name"));
	if (strcmp(k, "subqueries") == 0 || strcmp(k, "attached_subqueries") == 0) {
		plain_subqueries(w, v, sel);
	} else if (strcmp(k, "first_match") == 0) {
		snprintf(buf, sizeof(buf), "FirstMatch(%s)",
			 json_is_string(v) ? json_string_value(v) : "");
		add_strategy(w, buf, sel);
	} else if (strcmp(k, "loose_scan") == 0 && !json_is_false(v)) {
		add_strategy(w, "LooseScan", sel);
	} else if (strcmp(k, "duplicates_removal") == 0 && !json_is_false(v)) {
		add_strategy(w, "DuplicateWeedout", sel);
	} else if (strcmp(k, "materialized") == 0 || strcmp(k, "materialized_from_subquery") == 0) {
		int sj = alias && strncmp(alias, "<subquery", 9) == 0;
		snprintf(buf, sizeof(buf), "%s(%s)",
			 sj ? "semi-join materialization" : "materialized", alias ? alias : "?");
		add_strategy(w, buf, sel);
	} else if ((strcmp(k, "materialization") == 0 && strcmp(parent, "materialized") != 0) ||
		   strcmp(k, "expression_cache") == 0) {
		long inner = (long)json_integer_value(
		    json_object_get(json_object_get(v, "query_block"), "select_id"));
		snprintf(buf, sizeof(buf), "%s(#%ld)",
			 k[0] == 'm' ? "subquery materialization" : "expression cache", inner);
		add_strategy(w, buf, sel);
	} else if (strcmp(k, "temporary_table") == 0 ||
		   (strcmp(k, "using_temporary_table") == 0 && json_is_true(v))) {
		add_strategy(w, "temporary table", sel);
	} else if (strcmp(k, "filesort") == 0 ||
		   (strcmp(k, "using_filesort") == 0 && json_is_true(v))) {
		add_strategy(w, "filesort", sel);
	} else if (strcmp(k, "block-nl-join") == 0 || strcmp(k, "using_join_buffer") == 0) {
		json_t *jt = json_is_object(v) ? json_object_get(v, "join_type") : v;
		snprintf(buf, sizeof(buf), "join buffer(%s)",
			 json_is_string(jt) ? json_string_value(jt) : "?");
		add_strategy(w, buf, sel);
	}
}

static void walk(struct walk *w, json_t *v, const char *parent, long sel, int *counter)
{
	if (w->oom)
		return;
	if (json_is_array(v)) {
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) walk(w, e, parent, sel, counter);
		return;
	}
	if (!json_is_object(v))
		return;
	int local = 0;
	json_t *id = json_object_get(v, "select_id");
	if (json_is_integer(id)) {
		sel = (long)json_integer_value(id);
		counter = &local;
	}
	const char *k;
	json_t *m;
	json_object_foreach(v, k, m)
	{
		if (dropped(k))
			continue;
		if (strcmp(k, "table") == 0 && json_is_object(m))
			add_table(w, m, sel, ++*counter);
		member_strategy(w, v, parent, k, m, sel);
		walk(w, m, k, sel, counter);
	}
}

int res_xplan_parse(struct res_xplan *out, const char *explain_json, struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	json_error_t je;
	json_t *doc = json_loads(explain_json, 0, &je);
	if (!doc)
		return errbuf_set(err, "cannot parse the plan: %s (line %d)", je.text, je.line);
	struct walk w = {out, 0};
	int top = 0;
	out->shape = shape(doc);
	walk(&w, doc, "", -1, &top);
	json_decref(doc);
	if (w.oom || !out->shape) {
		res_xplan_release(out);
		return errbuf_set(err, "out of memory");
	}
	return 0;
}

void res_xplan_release(struct res_xplan *p)
{
	if (!p)
		return;
	json_decref(p->shape);
	for (size_t i = 0; i < p->n_tables; i++) {
		struct res_xtable *t = &p->tables[i];
		free(t->alias);
		free(t->access);
		free(t->key);
		free(t->key_parts);
		free(t->ref);
		json_decref(t->members);
	}
	free(p->tables);
	for (size_t i = 0; i < p->n_strategies; i++)
		free(p->strategies[i].name);
	free(p->strategies);
	memset(p, 0, sizeof(*p));
}
