/* SPDX-License-Identifier: MIT */
/* The structural diff of two plans (result/res_explain.h). */
#include "result/res_explain.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int str_differ(const char *a, const char *b)
{
	if (!a || !b)
		return a != b;
	return strcmp(a, b) != 0;
}

/* Two estimates differ (NaN: not said; said on one side only is a difference). */
static int est_differ(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) != isnan(b);
	return a != b;
}

static unsigned table_changes(const struct res_xtable *a, const struct res_xtable *b)
{
	unsigned w = 0;
	if (a->select_id != b->select_id || a->position != b->position)
		w |= RES_X_POSITION;
	if (str_differ(a->access, b->access))
		w |= RES_X_ACCESS;
	if (str_differ(a->key, b->key))
		w |= RES_X_KEY;
	if (str_differ(a->key_parts, b->key_parts))
		w |= RES_X_KEY_PARTS;
	if (str_differ(a->ref, b->ref))
		w |= RES_X_REF;
	if (!json_equal(a->members, b->members))
		w |= RES_X_MEMBERS;
	if (est_differ(a->rows, b->rows))
		w |= RES_X_ROWS;
	if (est_differ(a->filtered, b->filtered))
		w |= RES_X_FILTERED;
	if (a->condition != b->condition)
		w |= RES_X_CONDITION;
	return w;
}

static const struct res_xtable *find_table(const struct res_xplan *p, const struct res_xtable *t)
{
	for (size_t i = 0; i < p->n_tables; i++)
		if (p->tables[i].occurrence == t->occurrence &&
		    strcmp(p->tables[i].alias, t->alias) == 0)
			return &p->tables[i];
	return NULL;
}

static int push_table(struct res_xdiff *d, const struct res_xtable *o, const struct res_xtable *n,
		      unsigned what)
{
	struct res_xtable_diff *t = realloc(d->tables, (d->n_tables + 1) * sizeof(*t));
	if (!t)
		return -1;
	d->tables = t;
	t[d->n_tables++] = (struct res_xtable_diff){o, n, what};
	return 0;
}

/* How many of p's strategies equal s (name and block). */
static size_t count_strategy(const struct res_xplan *p, const struct res_xstrategy *s)
{
	size_t n = 0;
	for (size_t i = 0; i < p->n_strategies; i++)
		n += p->strategies[i].select_id == s->select_id &&
		     strcmp(p->strategies[i].name, s->name) == 0;
	return n;
}

/* The strategies of a (as a multiset) that b has fewer of, each excess occurrence once. */
static int strategies_only(struct res_xdiff *d, const struct res_xplan *a,
			   const struct res_xplan *b, int added)
{
	for (size_t i = 0; i < a->n_strategies; i++) {
		const struct res_xstrategy *s = &a->strategies[i];
		size_t before = 0;
		for (size_t j = 0; j < i; j++)
			before += a->strategies[j].select_id == s->select_id &&
				  strcmp(a->strategies[j].name, s->name) == 0;
		if (before < count_strategy(b, s))
			continue;
		struct res_xstrategy_diff *n =
		    realloc(d->strategies, (d->n_strategies + 1) * sizeof(*n));
		if (!n)
			return -1;
		d->strategies = n;
		n[d->n_strategies++] = (struct res_xstrategy_diff){s, added};
	}
	return 0;
}

/* The path of the first place where a and b differ (objects compared by member name). */
static void first_difference(char *buf, size_t n, json_t *a, json_t *b)
{
	size_t at = strlen(buf);
	if (json_is_object(a) && json_is_object(b)) {
		const char *k;
		json_t *v;
		json_object_foreach(a, k, v)
		{
			json_t *w = json_object_get(b, k);
			if (w && json_equal(v, w))
				continue;
			snprintf(buf + at, n - at, ".%s", k);
			if (w)
				first_difference(buf, n, v, w);
			return;
		}
		json_object_foreach(b, k, v) if (!json_object_get(a, k))
		{
			snprintf(buf + at, n - at, ".%s", k);
			return;
		}
	} else if (json_is_array(a) && json_is_array(b)) {
		size_t i;
		for (i = 0; i < json_array_size(a) && i < json_array_size(b); i++)
			if (!json_equal(json_array_get(a, i), json_array_get(b, i)))
				break;
		snprintf(buf + at, n - at, "[%zu]", i);
		if (i < json_array_size(a) && i < json_array_size(b))
			first_difference(buf, n, json_array_get(a, i), json_array_get(b, i));
	}
}

int res_xdiff_build(struct res_xdiff *out, const struct res_xplan *old, const struct res_xplan *new)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < new->n_tables; i++) {
		const struct res_xtable *n = &new->tables[i], *o = find_table(old, n);
		unsigned w = o ? table_changes(o, n) : RES_X_ADDED;
		if ((w & RES_X_PLAN) && push_table(out, o, n, w) < 0)
			goto oom;
	}
	for (size_t i = 0; i < old->n_tables; i++)
		if (!find_table(new, &old->tables[i]) &&
		    push_table(out, &old->tables[i], NULL, RES_X_REMOVED) < 0)
			goto oom;
	if (strategies_only(out, old, new, 0) < 0 || strategies_only(out, new, old, 1) < 0)
		goto oom;
	if (!out->n_tables && !out->n_strategies && !json_equal(old->shape, new->shape)) {
		out->other = 1;
		first_difference(out->other_path, sizeof(out->other_path), old->shape, new->shape);
	}
	return 0;
oom:
	res_xdiff_release(out);
	return -1;
}

void res_xdiff_release(struct res_xdiff *d)
{
	if (!d)
		return;
	free(d->tables);
	free(d->strategies);
	memset(d, 0, sizeof(*d));
}

size_t res_xdiff_plan_changes(const struct res_xdiff *d)
{
	return d->n_tables + d->n_strategies + (size_t)d->other;
}
