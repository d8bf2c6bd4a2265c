/* SPDX-License-Identifier: MIT */
/* Where the rows went: the tables whose rows examined changed between two result files and the
 * estimate errors of each (reports/rpt.h; docs/explain.md, "Where the rows went"). */
#include "reports/rpt.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The record of q's first ok restart that has one into *out: 1, 0 without, -1 OOM; *varies
 * when another ok restart's record differs from it in a table's rows examined. */
static int side_of(struct res_analyze *out, const struct res_query *q, int *varies)
{
	int have = 0;
	for (size_t i = 0; i < q->n_restarts; i++) {
		const struct res_restart *r = &q->restarts[i];
		struct res_analyze o;
		if (r->status != RES_STATUS_OK)
			continue;
		int rc =
		    res_analyze_from_json(have ? &o : out, json_object_get(r->extra, "analyze"));
		if (rc < 0)
			return -1;
		if (rc == 0)
			continue;
		if (!have) {
			have = 1;
			continue;
		}
		for (size_t t = 0; t < out->n_tables; t++) {
			const struct res_atable *b = res_analyze_find(&o, &out->tables[t]);
			*varies |=
			    !b || res_analyze_rows_changed(res_atable_examined(&out->tables[t]),
							   res_atable_examined(b));
		}
		*varies |= o.n_tables != out->n_tables;
		res_analyze_release(&o);
	}
	return have;
}

static int add_rows(struct rpt_analyze *a, const struct res_atable *o, const struct res_atable *n)
{
	double eo = o ? res_atable_examined(o) : 0, en = n ? res_atable_examined(n) : 0;
	if (!res_analyze_rows_changed(eo, en))
		return 0;
	struct rpt_arows *m = realloc(a->rows, (a->n_rows + 1) * sizeof(*m));
	if (!m)
		return -1;
	a->rows = m;
	m[a->n_rows++] = (struct rpt_arows){o, n, eo, en};
	return 0;
}

static int add_est(struct rpt_analyze *a, const struct res_analyze *s, int new_side)
{
	for (size_t i = 0; i < s->n_tables; i++) {
		if (!res_analyze_estimate_off(&s->tables[i]))
			continue;
		struct rpt_aest *m = realloc(a->est, (a->n_est + 1) * sizeof(*m));
		if (!m)
			return -1;
		a->est = m;
		m[a->n_est++] = (struct rpt_aest){&s->tables[i], new_side};
	}
	return 0;
}

int rpt_analyze_build(struct rpt_analyze *a, const struct res_query *old,
		      const struct res_query *new)
{
	memset(a, 0, sizeof(*a));
	int ho = side_of(&a->old, old, &a->varies), hn = side_of(&a->new, new, &a->varies);
	if (ho < 0 || hn < 0)
		goto oom;
	if (!ho || !hn) {
		rpt_analyze_release(a);
		return 0;
	}
	a->compared = 1;
	for (size_t i = 0; i < a->old.n_tables; i++)
		if (add_rows(a, &a->old.tables[i], res_analyze_find(&a->new, &a->old.tables[i])) <
		    0)
			goto oom;
	for (size_t i = 0; i < a->new.n_tables; i++)
		if (!res_analyze_find(&a->old, &a->new.tables[i]) &&
		    add_rows(a, NULL, &a->new.tables[i]) < 0)
			goto oom;
	if (add_est(a, &a->old, 0) < 0 || add_est(a, &a->new, 1) < 0)
		goto oom;
	return 0;
oom:
	rpt_analyze_release(a);
	return -1;
}

void rpt_analyze_release(struct rpt_analyze *a)
{
	res_analyze_release(&a->old);
	res_analyze_release(&a->new);
	free(a->rows);
	free(a->est);
	memset(a, 0, sizeof(*a));
}

static json_t *rows_num(double v)
{
	return isnan(v) ? json_null() : json_integer((json_int_t)llround(v));
}

json_t *rpt_analyze_json(const struct rpt_analyze *a)
{
	if (!a->compared)
		return json_null();
	json_t *rows = json_array(), *est = json_array();
	for (size_t i = 0; i < a->n_rows; i++) {
		const struct rpt_arows *r = &a->rows[i];
		const struct res_atable *t = r->old ? r->old : r->new;
		json_array_append_new(rows, json_pack("{s:s, s:i, s:o, s:o}", "table", t->alias,
						      "occurrence", t->occurrence, "old",
						      rows_num(r->old_rows), "new",
						      rows_num(r->new_rows)));
	}
	for (size_t i = 0; i < a->n_est; i++) {
		const struct res_atable *t = a->est[i].t;
		json_array_append_new(est, json_pack("{s:s, s:i, s:s, s:f, s:f}", "table", t->alias,
						     "occurrence", t->occurrence, "side",
						     a->est[i].new_side ? "new" : "old",
						     "estimated", t->rows, "read", t->r_rows));
	}
	return json_pack("{s:b, s:o, s:o}", "varies", a->varies, "tables", rows, "estimate_errors",
			 est);
}

void rpt_analyze_fmt_rows(char *buf, size_t n, double v)
{
	char digits[32];
	if (isnan(v)) {
		snprintf(buf, n, "not counted");
		return;
	}
	int len = snprintf(digits, sizeof(digits), "%lld", llround(v)), o = 0;
	for (int i = 0; i < len && (size_t)o + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ' ';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

/* "Q20 rows examined: partsupp 2 569 -> 80 000, ..."; the tables past RPT_ANALYZE_TABLES
 * counted. */
static void rows_line(FILE *f, const char *id, const struct rpt_analyze *a, const char *prefix)
{
	char o[40], n[40];
	fprintf(f, "%s%s rows examined:", prefix, id);
	for (size_t i = 0; i < a->n_rows && i < RPT_ANALYZE_TABLES; i++) {
		const struct rpt_arows *r = &a->rows[i];
		rpt_analyze_fmt_rows(o, sizeof(o), r->old_rows);
		rpt_analyze_fmt_rows(n, sizeof(n), r->new_rows);
		fprintf(f, "%s %s %s -> %s%s", i ? "," : "", (r->old ? r->old : r->new)->alias, o,
			n,
			!r->old	  ? " (added)"
			: !r->new ? " (removed)"
				  : "");
	}
	if (a->n_rows > RPT_ANALYZE_TABLES)
		fprintf(f, ", and %zu more", a->n_rows - RPT_ANALYZE_TABLES);
	fprintf(f, "%s\n", a->varies ? " (varies between restarts)" : "");
}

/* "Q20 estimates off 10x or more: supplier: estimated 10, read 1 000 (new), ...". */
static void est_line(FILE *f, const char *id, const struct rpt_analyze *a, const char *prefix)
{
	char e[40], r[40];
	fprintf(f, "%s%s estimates off %gx or more:", prefix, id, RES_ANALYZE_EST_FACTOR);
	for (size_t i = 0; i < a->n_est && i < RPT_ANALYZE_TABLES; i++) {
		const struct res_atable *t = a->est[i].t;
		rpt_analyze_fmt_rows(e, sizeof(e), t->rows);
		rpt_analyze_fmt_rows(r, sizeof(r), t->r_rows);
		fprintf(f, "%s %s: estimated %s, read %s (%s)", i ? "," : "", t->alias, e, r,
			a->est[i].new_side ? "new" : "old");
	}
	if (a->n_est > RPT_ANALYZE_TABLES)
		fprintf(f, ", and %zu more", a->n_est - RPT_ANALYZE_TABLES);
	fputc('\n', f);
}

void rpt_analyze_write(FILE *f, const struct rpt_compare *c, const char *prefix, int md)
{
	if (!c->n_analyze_changed)
		return;
	fprintf(f,
		"\n%s (ANALYZE per table, r_loops x r_rows, of the queries whose work changed; "
		"docs/explain.md): %zu quer%s\n%s",
		md ? "**Where the rows went**" : "where the rows went", c->n_analyze_changed,
		c->n_analyze_changed == 1 ? "y" : "ies", md ? "\n" : "");
	for (size_t i = 0; i < c->n_queries; i++) {
		const struct rpt_query *q = &c->queries[i];
		if (!q->work.changed || !q->analyze.compared || !q->analyze.n_rows)
			continue;
		rows_line(f, q->id, &q->analyze, prefix);
		if (q->analyze.n_est)
			est_line(f, q->id, &q->analyze, prefix);
	}
}
