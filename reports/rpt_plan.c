/* SPDX-License-Identifier: MIT */
/* Plan diffs in compare's reports (reports/rpt_plan.h). */
#include "reports/rpt_plan.h"
#include "base/text.h"
#include "result/res.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int rpt_plan_build(struct rpt_plan **out, const char *old_plan, const char *new_plan,
		   struct errbuf *err)
{
	struct rpt_plan *p = calloc(1, sizeof(*p));
	if (!p)
		return errbuf_set(err, "out of memory");
	if (res_xplan_parse(&p->old, old_plan, err) < 0)
		goto fail;
	if (res_xplan_parse(&p->new, new_plan, err) < 0)
		goto fail;
	if (res_xdiff_build(&p->diff, &p->old, &p->new) < 0) {
		errbuf_set(err, "out of memory");
		goto fail;
	}
	*out = p;
	return 0;
fail:
	rpt_plan_free(p);
	return -1;
}

void rpt_plan_free(struct rpt_plan *p)
{
	if (!p)
		return;
	res_xdiff_release(&p->diff);
	res_xplan_release(&p->old);
	res_xplan_release(&p->new);
	free(p);
}

/* Appends printf output to buf at *len (truncating at n). */
__attribute__((format(printf, 4, 5))) static void add(char *buf, size_t n, size_t *len,
						      const char *fmt, ...)
{
	va_list ap;
	if (*len >= n)
		return;
	va_start(ap, fmt);
	int k = vsnprintf(buf + *len, n - *len, fmt, ap);
	va_end(ap);
	if (k > 0)
		*len += (size_t)k;
}

static void access_text(char *buf, size_t n, const struct res_xtable *t)
{
	if (t->key)
		snprintf(buf, n, "%s(%s)", t->access ? t->access : "?", t->key);
	else
		snprintf(buf, n, "%s", t->access ? t->access : "?");
}

static const char *or_none(const char *s)
{
	return s ? s : "none";
}

/* A member's value as short compact JSON ("none" when absent). */
static void member_value(char *buf, size_t n, json_t *v)
{
	char *s = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS) : NULL;
	snprintf(buf, n, "%s", s ? s : "none");
	if (s && strlen(s) >= n && n > 4)
		memcpy(buf + n - 4, "...", 4);
	free(s);
}

static void members_text(char *buf, size_t n, size_t *len, const struct res_xtable_diff *t)
{
	json_t *a = t->old->members, *b = t->new->members;
	const char *k;
	json_t *v;
	char va[48], vb[48];
	json_object_foreach(a, k, v)
	{
		json_t *w = json_object_get(b, k);
		if (w && json_equal(v, w))
			continue;
		member_value(va, sizeof(va), v);
		member_value(vb, sizeof(vb), w);
		add(buf, n, len, ", %s %s -> %s", k, va, vb);
	}
	json_object_foreach(b, k, v) if (!json_object_get(a, k))
	{
		member_value(vb, sizeof(vb), v);
		add(buf, n, len, ", %s none -> %s", k, vb);
	}
}

/* An estimate: whole numbers in full, others to 4 significant digits. */
static void fmt_est(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "none");
	else if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.4g", v);
}

static void estimates_text(char *buf, size_t n, size_t *len, const struct res_xtable_diff *t)
{
	const struct res_xtable *a = t->old, *b = t->new;
	const char *sep = "; estimates: ";
	char x[32], y[32];
	if (t->what & RES_X_ROWS) {
		fmt_est(x, sizeof(x), a->rows);
		fmt_est(y, sizeof(y), b->rows);
		add(buf, n, len, "%srows %s -> %s", sep, x, y);
		sep = ", ";
	}
	if (t->what & RES_X_FILTERED) {
		fmt_est(x, sizeof(x), a->filtered);
		fmt_est(y, sizeof(y), b->filtered);
		add(buf, n, len, "%sfiltered %s -> %s", sep, x, y);
		sep = ", ";
	}
	if (t->what & RES_X_CONDITION)
		add(buf, n, len, "%scondition %s -> %s", sep, a->condition ? "attached" : "none",
		    b->condition ? "attached" : "none");
}

void rpt_plan_table_text(char *buf, size_t n, const struct res_xtable_diff *t)
{
	char x[160], y[160];
	size_t len = 0;
	buf[0] = '\0';
	if (t->what & (RES_X_ADDED | RES_X_REMOVED)) {
		const struct res_xtable *s = t->new ? t->new : t->old;
		access_text(x, sizeof(x), s);
		add(buf, n, &len, "%s #%ld position %d, %s", t->new ? "added at" : "removed from",
		    s->select_id, s->position, x);
		return;
	}
	const struct res_xtable *a = t->old, *b = t->new;
	const char *sep = "";
	if (t->what & RES_X_POSITION) {
		if (a->select_id == b->select_id)
			add(buf, n, &len, "position %d -> %d", a->position, b->position);
		else
			add(buf, n, &len, "#%ld position %d -> #%ld position %d", a->select_id,
			    a->position, b->select_id, b->position);
		sep = ", ";
	}
	if (t->what & (RES_X_ACCESS | RES_X_KEY)) {
		access_text(x, sizeof(x), a);
		access_text(y, sizeof(y), b);
		add(buf, n, &len, "%s%s -> %s", sep, x, y);
		sep = ", ";
	}
	if ((t->what & RES_X_KEY_PARTS) && !(t->what & RES_X_KEY)) {
		add(buf, n, &len, "%skey parts %s -> %s", sep, or_none(a->key_parts),
		    or_none(b->key_parts));
		sep = ", ";
	}
	if (t->what & RES_X_REF) {
		add(buf, n, &len, "%sref %s -> %s", sep, or_none(a->ref), or_none(b->ref));
		sep = ", ";
	}
	if (t->what & RES_X_MEMBERS) {
		size_t at = len;
		members_text(buf, n, &len, t);
		if (!*sep && len > at && len < n) /* no ", " before the first part */
			memmove(buf + at, buf + at + 2, len - at - 1), len -= 2;
	}
	estimates_text(buf, n, &len, t);
}

static void strategy_list(char *buf, size_t n, size_t *len, const struct res_xdiff *d, int added)
{
	int any = 0;
	for (size_t i = 0; i < d->n_strategies; i++) {
		if (d->strategies[i].added != added)
			continue;
		add(buf, n, len, "%s%s in #%ld", any ? ", " : "", d->strategies[i].s->name,
		    d->strategies[i].s->select_id);
		any = 1;
	}
	if (!any)
		add(buf, n, len, "none");
}

void rpt_plan_strategy_text(char *buf, size_t n, const struct res_xdiff *d)
{
	size_t len = 0;
	buf[0] = '\0';
	strategy_list(buf, n, &len, d, 0);
	add(buf, n, &len, " -> ");
	strategy_list(buf, n, &len, d, 1);
}

/* One line "PREFIX ID SUBJECT: TEXT", both from the plan escaped for the terminal or Markdown. */
static void line(FILE *f, const char *prefix, const char *id, const char *subject, const char *text,
		 int md)
{
	fprintf(f, "%s%s ", prefix, id);
	md ? util_md_fputs(f, subject) : util_term_fputs(f, subject, 0);
	fputs(": ", f);
	md ? util_md_fputs(f, text) : util_term_fputs(f, text, 0);
	fputc('\n', f);
}

static const char *table_alias(const struct res_xtable_diff *t, char *buf, size_t n)
{
	const struct res_xtable *s = t->new ? t->new : t->old;
	if (s->occurrence)
		snprintf(buf, n, "%s (%d)", s->alias, s->occurrence + 1);
	else
		snprintf(buf, n, "%s", s->alias);
	return buf;
}

size_t rpt_plan_write(FILE *f, const char *id, const struct rpt_plan *p, const char *prefix, int md)
{
	const struct res_xdiff *d = &p->diff;
	char text[1024], alias[160];
	size_t budget = RPT_PLAN_LINES - (d->n_strategies > 0) - (size_t)d->other, lines = 0;
	size_t shown = d->n_tables <= budget ? d->n_tables : budget - 1;
	for (size_t i = 0; i < shown; i++, lines++) {
		rpt_plan_table_text(text, sizeof(text), &d->tables[i]);
		line(f, prefix, id, table_alias(&d->tables[i], alias, sizeof(alias)), text, md);
	}
	if (shown < d->n_tables) {
		fprintf(f, "%s%s and %zu more tables changed (JSON and HTML list them)\n", prefix,
			id, d->n_tables - shown);
		lines++;
	}
	if (d->n_strategies) {
		rpt_plan_strategy_text(text, sizeof(text), d);
		line(f, prefix, id, "strategy", text, md);
		lines++;
	}
	if (d->other) {
		line(f, prefix, id, "plan", d->other_path, md);
		lines++;
	}
	return lines;
}

/* ---- JSON ---- */

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *change(const char *type, const struct res_xtable_diff *t)
{
	const struct res_xtable *s = t->new ? t->new : t->old;
	return json_pack("{s:s, s:b, s:s, s:i}", "type", type, "plan_change", 1, "table", s->alias,
			 "occurrence", s->occurrence);
}

static void pair(json_t *arr, const char *type, const struct res_xtable_diff *t, json_t *o,
		 json_t *n)
{
	json_t *c = change(type, t);
	json_object_set_new(c, "old", o);
	json_object_set_new(c, "new", n);
	json_array_append_new(arr, c);
}

static json_t *where(const struct res_xtable *t)
{
	return json_pack("{s:I, s:i}", "select", (json_int_t)t->select_id, "position", t->position);
}

static json_t *est(double a, double b)
{
	return json_pack("{s:o, s:o}", "old", res_json_num(a), "new", res_json_num(b));
}

static void table_json(json_t *arr, const struct res_xtable_diff *t)
{
	const struct res_xtable *a = t->old, *b = t->new;
	if (t->what & (RES_X_ADDED | RES_X_REMOVED)) {
		const struct res_xtable *s = b ? b : a;
		json_t *c = change(b ? "table_added" : "table_removed", t);
		json_object_update_new(c, json_pack("{s:I, s:i, s:o, s:o}", "select",
						    (json_int_t)s->select_id, "position",
						    s->position, "access", str_or_null(s->access),
						    "key", str_or_null(s->key)));
		json_array_append_new(arr, c);
		return;
	}
	if (t->what & RES_X_POSITION)
		pair(arr, "position", t, where(a), where(b));
	if (t->what & RES_X_ACCESS)
		pair(arr, "access", t, str_or_null(a->access), str_or_null(b->access));
	if (t->what & RES_X_KEY)
		pair(arr, "key", t, str_or_null(a->key), str_or_null(b->key));
	if (t->what & RES_X_KEY_PARTS)
		pair(arr, "key_parts", t, str_or_null(a->key_parts), str_or_null(b->key_parts));
	if (t->what & RES_X_REF)
		pair(arr, "ref", t, str_or_null(a->ref), str_or_null(b->ref));
	if (t->what & RES_X_MEMBERS)
		pair(arr, "members", t, json_deep_copy(a->members), json_deep_copy(b->members));
	if (t->what & (RES_X_ROWS | RES_X_FILTERED | RES_X_CONDITION)) {
		json_t *c = change("estimates", t);
		json_object_set_new(c, "plan_change", json_false());
		json_object_set_new(c, "rows", est(a->rows, b->rows));
		json_object_set_new(c, "filtered", est(a->filtered, b->filtered));
		json_object_set_new(
		    c, "condition",
		    json_pack("{s:b, s:b}", "old", a->condition, "new", b->condition));
		json_array_append_new(arr, c);
	}
}

json_t *rpt_plan_json(const struct rpt_plan *p)
{
	json_t *arr = json_array();
	const struct res_xdiff *d = &p->diff;
	for (size_t i = 0; i < d->n_tables; i++)
		table_json(arr, &d->tables[i]);
	for (size_t i = 0; i < d->n_strategies; i++)
		json_array_append_new(
		    arr, json_pack("{s:s, s:b, s:s, s:I, s:s}", "type", "strategy", "plan_change",
				   1, "strategy", d->strategies[i].s->name, "select",
				   (json_int_t)d->strategies[i].s->select_id, "change",
				   d->strategies[i].added ? "added" : "removed"));
	if (d->other)
		json_array_append_new(arr, json_pack("{s:s, s:b, s:s}", "type", "other",
						     "plan_change", 1, "path", d->other_path));
	return arr;
}
