/* SPDX-License-Identifier: MIT */
/* ANALYZE FORMAT=JSON read into per-table actuals, their record and the rule (res_analyze.h). */
#include "result/res_analyze.h"
#include "result/res_explain.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct res_atable *res_analyze_add_table(struct res_analyze *a, const char *alias, long sel)
{
	struct res_atable *n = realloc(a->tables, (a->n_tables + 1) * sizeof(*n));
	if (!n)
		return NULL;
	a->tables = n;
	struct res_atable *t = &n[a->n_tables];
	memset(t, 0, sizeof(*t));
	if (!(t->alias = strdup(alias)))
		return NULL;
	for (size_t i = 0; i < a->n_tables; i++)
		t->occurrence += strcmp(n[i].alias, alias) == 0;
	t->select_id = sel;
	t->r_loops = t->r_rows = t->r_filtered = t->rows = t->filtered = NAN;
	a->n_tables++;
	return t;
}

struct res_aop *res_analyze_add_op(struct res_analyze *a, const char *name, long sel)
{
	struct res_aop *n = realloc(a->ops, (a->n_ops + 1) * sizeof(*n));
	if (!n)
		return NULL;
	a->ops = n;
	struct res_aop *o = &n[a->n_ops];
	o->select_id = sel;
	o->name = strdup(name);
	o->r = json_object();
	if (!o->name || !o->r) {
		free(o->name);
		json_decref(o->r);
		return NULL;
	}
	a->n_ops++;
	return o;
}

void res_analyze_release(struct res_analyze *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->n_tables; i++)
		free(a->tables[i].alias);
	for (size_t i = 0; i < a->n_ops; i++) {
		free(a->ops[i].name);
		json_decref(a->ops[i].r);
	}
	free(a->tables);
	free(a->ops);
	memset(a, 0, sizeof(*a));
}

static void set_num(json_t *o, const char *k, double v)
{
	if (isnan(v))
		return;
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		json_object_set_new(o, k, json_integer((json_int_t)v));
	else
		json_object_set_new(o, k, json_real(v));
}

/* The op an ANALYZE member names, written into buf; NULL when it is none. */
static const char *op_name(const char *k, json_t *v, char *buf, size_t n)
{
	if (!json_is_object(v))
		return NULL;
	if (strcmp(k, "filesort") == 0)
		return "filesort";
	if (strcmp(k, "temporary_table") == 0)
		return "temporary table";
	if (strcmp(k, "expression_cache") == 0 || strcmp(k, "materialization") == 0) {
		json_t *id = json_object_get(json_object_get(v, "query_block"), "select_id");
		snprintf(buf, n, "%s(#%lld)",
			 k[0] == 'e' ? "expression cache" : "subquery materialization",
			 (long long)json_integer_value(id));
		return buf;
	}
	return NULL;
}

/* The op's numeric r_ members but the times. */
static int op_members(struct res_aop *o, json_t *v)
{
	const char *k;
	json_t *m;
	json_object_foreach(v, k, m)
	{
		if (strncmp(k, "r_", 2) != 0 || strstr(k, "time") || !json_is_number(m))
			continue;
		set_num(o->r, k, json_number_value(m));
		if (!json_object_get(o->r, k))
			return -1;
	}
	return 0;
}

static int table_of(struct res_analyze *a, json_t *t, long sel)
{
	const char *alias = json_string_value(json_object_get(t, "table_name"));
	struct res_atable *x = res_analyze_add_table(a, alias ? alias : "?", sel);
	if (!x)
		return -1;
	json_t *rows = json_object_get(t, "rows");
	x->rows = res_json_number(rows ? rows : json_object_get(t, "rows_examined_per_scan"));
	x->filtered = res_json_number(json_object_get(t, "filtered"));
	/* MariaDB reads an index_subquery or unique_subquery table in the subquery engine, which
	 * ANALYZE does not count (r_loops 0): not counted, rather than none read. */
	const char *access = json_string_value(json_object_get(t, "access_type"));
	json_t *loops = json_object_get(t, "r_loops");
	if (access && strstr(access, "_subquery") && json_is_integer(loops) &&
	    json_integer_value(loops) == 0)
		return 0;
	x->r_loops = res_json_number(loops);
	x->r_rows = res_json_number(json_object_get(t, "r_rows"));
	x->r_filtered = res_json_number(json_object_get(t, "r_filtered"));
	return 0;
}

static int walk(struct res_analyze *a, json_t *v, long sel)
{
	if (json_is_array(v)) {
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) if (walk(a, e, sel) < 0) return -1;
		return 0;
	}
	if (!json_is_object(v))
		return 0;
	json_t *id = json_object_get(v, "select_id");
	if (json_is_integer(id))
		sel = (long)json_integer_value(id);
	const char *k;
	json_t *m;
	char buf[80];
	json_object_foreach(v, k, m)
	{
		const char *op = op_name(k, m, buf, sizeof(buf));
		struct res_aop *o = op ? res_analyze_add_op(a, op, sel) : NULL;
		if ((op && (!o || op_members(o, m) < 0)) ||
		    (strcmp(k, "table") == 0 && json_is_object(m) && table_of(a, m, sel) < 0) ||
		    walk(a, m, sel) < 0)
			return -1;
	}
	return 0;
}

int res_analyze_parse_json(struct res_analyze *out, const char *text, struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	json_error_t je;
	json_t *doc = json_loads(text, 0, &je);
	if (!doc)
		return errbuf_set(err, "cannot parse the ANALYZE output: %s (line %d)", je.text,
				  je.line);
	int rc = walk(out, doc, -1);
	json_decref(doc);
	if (rc < 0) {
		res_analyze_release(out);
		return errbuf_set(err, "out of memory");
	}
	if (out->n_tables == 0) {
		res_analyze_release(out);
		return errbuf_set(err, "the ANALYZE output names no table");
	}
	return 0;
}

double res_atable_examined(const struct res_atable *t)
{
	if (t->r_loops == 0)
		return 0;
	if (isnan(t->r_loops))
		return NAN;
	if (isnan(t->r_rows))
		return 0; /* MariaDB: r_rows null when the table gave no row */
	return t->r_loops * t->r_rows;
}

int res_analyze_rows_changed(double old_examined, double new_examined)
{
	if (isnan(old_examined) || isnan(new_examined))
		return isnan(old_examined) != isnan(new_examined);
	return llround(old_examined) != llround(new_examined);
}

int res_analyze_estimate_off(const struct res_atable *t)
{
	if (isnan(t->rows) || isnan(t->r_rows) || !(t->r_loops > 0))
		return 0;
	double e = t->rows < 1 ? 1 : t->rows, r = t->r_rows < 1 ? 1 : t->r_rows;
	return e / r >= RES_ANALYZE_EST_FACTOR || r / e >= RES_ANALYZE_EST_FACTOR;
}

const struct res_atable *res_analyze_find(const struct res_analyze *b, const struct res_atable *a)
{
	for (size_t i = 0; i < b->n_tables; i++)
		if (b->tables[i].occurrence == a->occurrence &&
		    strcmp(b->tables[i].alias, a->alias) == 0)
			return &b->tables[i];
	return NULL;
}

/* ---- the record ---- */

json_t *res_analyze_json(const struct res_analyze *a)
{
	json_t *rec = json_object(), *tables = json_array(), *ops = json_array();
	if (!rec || !tables || !ops) {
		json_decref(rec);
		json_decref(tables);
		json_decref(ops);
		return NULL;
	}
	json_object_set_new(rec, "tables", tables);
	json_object_set_new(rec, "ops", ops);
	for (size_t i = 0; i < a->n_tables; i++) {
		const struct res_atable *t = &a->tables[i];
		json_t *o = json_object();
		json_object_set_new(o, "table", json_string(t->alias));
		json_object_set_new(o, "select", json_integer(t->select_id));
		set_num(o, "r_loops", t->r_loops);
		set_num(o, "r_rows", t->r_rows);
		set_num(o, "r_filtered", t->r_filtered);
		set_num(o, "rows", t->rows);
		set_num(o, "filtered", t->filtered);
		if (json_array_append_new(tables, o) < 0)
			goto oom;
	}
	for (size_t i = 0; i < a->n_ops; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "op", json_string(a->ops[i].name));
		json_object_set_new(o, "select", json_integer(a->ops[i].select_id));
		json_object_set_new(o, "r", json_deep_copy(a->ops[i].r));
		if (json_array_append_new(ops, o) < 0 || json_object_size(o) != 3)
			goto oom;
	}
	return rec;
oom:
	json_decref(rec);
	return NULL;
}

static double member_num(const json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

int res_analyze_from_json(struct res_analyze *out, const json_t *rec)
{
	char key[64], msg[160];
	memset(out, 0, sizeof(*out));
	if (!rec || res_analyze_check(rec, key, sizeof(key), msg, sizeof(msg)) < 0)
		return 0;
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(rec, "tables"), i, e)
	{
		struct res_atable *t =
		    res_analyze_add_table(out, json_string_value(json_object_get(e, "table")),
					  (long)json_integer_value(json_object_get(e, "select")));
		if (!t)
			goto oom;
		t->r_loops = member_num(e, "r_loops");
		t->r_rows = member_num(e, "r_rows");
		t->r_filtered = member_num(e, "r_filtered");
		t->rows = member_num(e, "rows");
		t->filtered = member_num(e, "filtered");
	}
	json_array_foreach(json_object_get(rec, "ops"), i, e)
	{
		struct res_aop *o =
		    res_analyze_add_op(out, json_string_value(json_object_get(e, "op")),
				       (long)json_integer_value(json_object_get(e, "select")));
		if (!o || json_object_update(o->r, json_object_get(e, "r")) < 0)
			goto oom;
	}
	return 1;
oom:
	res_analyze_release(out);
	return -1;
}

/* ---- the reader's check ---- */

static int fail(char *key, size_t key_len, const char *k, char *msg, size_t msg_len,
		const char *what)
{
	snprintf(key, key_len, "%s", k);
	snprintf(msg, msg_len, "%s", what);
	return -1;
}

static int check_name(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s && *s && strlen(s) <= RES_ANALYZE_NAME ? 0 : -1;
}

static int check_select(const json_t *o)
{
	json_t *v = json_object_get(o, "select");
	return json_is_integer(v) && json_integer_value(v) >= -1 && json_integer_value(v) < 1000000
		   ? 0
		   : -1;
}

/* A member that is absent or a finite number in [0, hi]. */
static int check_num(const json_t *o, const char *k, double hi)
{
	json_t *v = json_object_get(o, k);
	if (!v)
		return 0;
	double d = json_is_number(v) ? json_number_value(v) : NAN;
	return isfinite(d) && d >= 0 && d <= hi ? 0 : -1;
}

static int check_table(const json_t *e)
{
	static const char *const known[] = {"table",	  "select", "r_loops",	"r_rows",
					    "r_filtered", "rows",   "filtered", NULL};
	const char *k;
	json_t *v;
	if (!json_is_object(e) || check_name(e, "table") < 0 || check_select(e) < 0)
		return -1;
	json_object_foreach((json_t *)e, k, v)
	{
		int ok = 0;
		for (size_t i = 0; known[i]; i++)
			ok |= strcmp(known[i], k) == 0;
		if (!ok)
			return -1;
	}
	return check_num(e, "r_loops", 1e15) < 0 || check_num(e, "r_rows", 1e15) < 0 ||
		       check_num(e, "rows", 1e15) < 0 || check_num(e, "r_filtered", 100) < 0 ||
		       check_num(e, "filtered", 100) < 0
		   ? -1
		   : 0;
}

static int check_op(const json_t *e)
{
	const char *k;
	json_t *v, *r = json_object_get(e, "r");
	if (!json_is_object(e) || json_object_size(e) != 3 || check_name(e, "op") < 0 ||
	    check_select(e) < 0 || !json_is_object(r) || json_object_size(r) > 32)
		return -1;
	json_object_foreach(r, k, v) if (strlen(k) > 64 || check_num(r, k, 1e15) < 0) return -1;
	return 0;
}

int res_analyze_check(const json_t *rec, char *key, size_t key_len, char *msg, size_t msg_len)
{
	static const char *const lists[] = {"tables", "ops"};
	char k[64];
	*key = '\0';
	if (!json_is_object(rec) || json_object_size(rec) != 2)
		return fail(key, key_len, "", msg, msg_len,
			    "expected an object of \"tables\" and \"ops\"");
	for (int l = 0; l < 2; l++) {
		json_t *a = json_object_get(rec, lists[l]);
		if (!json_is_array(a) || json_array_size(a) > RES_ANALYZE_MAX)
			return fail(key, key_len, lists[l], msg, msg_len,
				    "expected an array of at most 256 entries");
		size_t i;
		json_t *e;
		json_array_foreach(a, i, e)
		{
			if ((l == 0 ? check_table(e) : check_op(e)) == 0)
				continue;
			snprintf(k, sizeof(k), "%s[%zu]", lists[l], i);
			return fail(key, key_len, k, msg, msg_len,
				    l == 0 ? "not a table record (docs/result-format.md)"
					   : "not an op record (docs/result-format.md)");
		}
	}
	return 0;
}
