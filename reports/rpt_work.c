/* SPDX-License-Identifier: MIT */
/* The work counters of a query in one or two result files, and the rule that calls them changed
 * (reports/rpt.h; docs/work.md, docs/statistics.md "Work"). */
#include "reports/rpt.h"
#include "base/util.h"
#include "result/res_counts.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The work records of a query's ok restarts, each with its first warm execution. */
struct recs {
	struct res_counts *r;
	size_t *first;
	size_t n;
};

static void recs_release(struct recs *x)
{
	for (size_t i = 0; i < x->n; i++)
		res_counts_release(&x->r[i]);
	free(x->r);
	free(x->first);
	memset(x, 0, sizeof(*x));
}

static int recs_load(struct recs *x, const struct res_query *q)
{
	memset(x, 0, sizeof(*x));
	if (!q || !q->n_restarts)
		return 0;
	x->r = calloc(q->n_restarts, sizeof(*x->r));
	x->first = calloc(q->n_restarts, sizeof(*x->first));
	if (!x->r || !x->first)
		return -1;
	for (size_t i = 0; i < q->n_restarts; i++) {
		const struct res_restart *rr = &q->restarts[i];
		if (rr->status != RES_STATUS_OK)
			continue;
		int got = res_counts_get(&x->r[x->n], rr, "work");
		if (got < 0)
			return -1;
		if (got == 1) {
			x->first[x->n] = res_counts_first_warm(&x->r[x->n], rr);
			x->n++;
		}
	}
	return 0;
}

/* Counter name over the records: constant or not, the restart means' median and range. means
 * has room for x->n values. */
static void side_stats(struct rpt_work_side *out, const struct recs *x, const char *name,
		       double *means)
{
	long long first_val = 0;
	memset(out, 0, sizeof(*out));
	out->constant = 1;
	out->lo = INFINITY;
	out->hi = -INFINITY;
	for (size_t k = 0; k < x->n; k++) {
		const struct res_counts *c = &x->r[k];
		int j = res_counts_find(c, name);
		if (j < 0 || x->first[k] >= c->n_exec)
			continue;
		double sum = 0;
		for (size_t e = x->first[k]; e < c->n_exec; e++) {
			long long v = c->v[(size_t)j * c->n_exec + e];
			if (out->restarts == 0 && e == x->first[k])
				first_val = v;
			else if (v != first_val)
				out->constant = 0;
			sum += (double)v;
		}
		double mean = sum / (double)(c->n_exec - x->first[k]);
		means[out->restarts++] = mean;
		out->lo = fmin(out->lo, mean);
		out->hi = fmax(out->hi, mean);
	}
	if (!out->restarts)
		return;
	util_sort_doubles(means, out->restarts);
	out->value =
	    out->constant ? (double)first_val : util_median_sorted(means, out->restarts);
}

/* The rule (docs/statistics.md, "Work"): constant in both files and different; or, when it
 * varies in a file, restarts that do not overlap and medians more than RPT_WORK_TOL apart. */
int rpt_work_counter_changed(const struct rpt_work_side *a, const struct rpt_work_side *b)
{
	if (a->constant && b->constant)
		return a->value != b->value;
	if (!(a->hi < b->lo || b->hi < a->lo))
		return 0;
	return fabs(b->value - a->value) > RPT_WORK_TOL * a->value;
}

static int add_counter(struct rpt_work *w, const char *name, const struct recs *a,
		       const struct recs *b, double *means)
{
	struct rpt_work_counter *c = &w->c[w->n];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	side_stats(&c->old, a, name, means);
	if (b) {
		side_stats(&c->new, b, name, means);
		if (!c->new.restarts)
			return 0; /* only in the old file: not compared */
		c->changed = rpt_work_counter_changed(&c->old, &c->new);
		c->ratio = c->old.value == 0 ? (c->new.value == 0 ? 1 : INFINITY)
					     : c->new.value / c->old.value;
		w->changed |= c->changed;
		w->varies |= !c->new.constant;
	}
	w->varies |= !c->old.constant;
	w->n++;
	return 0;
}

int rpt_work_build(struct rpt_work *w, const struct res_query *a, const struct res_query *b)
{
	struct recs ra, rb;
	double *means = NULL;
	int rc = -1;
	memset(w, 0, sizeof(*w));
	memset(&rb, 0, sizeof(rb));
	if (recs_load(&ra, a) < 0 || (b && recs_load(&rb, b) < 0))
		goto out;
	rc = 0;
	if (!ra.n || (b && !rb.n))
		goto out;
	rc = -1;
	size_t most = ra.n > rb.n ? ra.n : rb.n;
	means = malloc(most * sizeof(*means));
	w->c = calloc(RES_COUNTS_MAX, sizeof(*w->c));
	if (!means || !w->c)
		goto out;
	/* the names of the first record; the others have the same unless a file mixes servers */
	for (size_t i = 0; i < ra.r[0].n; i++)
		add_counter(w, ra.r[0].names[i], &ra, b ? &rb : NULL, means);
	w->compared = b != NULL && w->n > 0;
	rc = 0;
out:
	free(means);
	recs_release(&ra);
	recs_release(&rb);
	if (rc < 0)
		rpt_work_release(w);
	return rc;
}

void rpt_work_release(struct rpt_work *w)
{
	free(w->c);
	memset(w, 0, sizeof(*w));
}

void rpt_work_fmt_count(char *buf, size_t n, double v)
{
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else if (v < 1e4)
		snprintf(buf, n, v == floor(v) ? "%.0f" : "%.1f", v);
	else if (v < 1e6)
		snprintf(buf, n, "%.1f k", v / 1e3);
	else if (v < 1e9)
		snprintf(buf, n, "%.2f M", v / 1e6);
	else
		snprintf(buf, n, "%.2f G", v / 1e9);
}

/* How far a counter moved, for the order of the list: |log ratio|, a counter from or to 0 first. */
static double moved(const struct rpt_work_counter *c)
{
	if (c->old.value == 0 || c->new.value == 0)
		return INFINITY;
	return fabs(log(c->new.value / c->old.value));
}

void rpt_work_changes_text(char *buf, size_t n, const struct rpt_work *w, size_t max)
{
	size_t len = 0, shown = 0;
	int done[RES_COUNTS_MAX] = {0};
	buf[0] = '\0';
	while (shown < max) {
		int best = -1;
		for (size_t i = 0; i < w->n; i++)
			if (w->c[i].changed && !done[i] &&
			    (best < 0 || moved(&w->c[i]) > moved(&w->c[best])))
				best = (int)i;
		if (best < 0)
			break;
		done[best] = 1;
		const struct rpt_work_counter *c = &w->c[best];
		char a[32], b[32], r[32];
		rpt_work_fmt_count(a, sizeof(a), c->old.value);
		rpt_work_fmt_count(b, sizeof(b), c->new.value);
		if (c->old.value == 0)
			snprintf(r, sizeof(r), "from 0");
		else
			snprintf(r, sizeof(r), "x%.2g", c->ratio);
		if (len < n)
			len += (size_t)snprintf(buf + len, n - len, "%s%s %s -> %s (%s)",
						shown ? ", " : "", c->name, a, b, r);
		shown++;
	}
	size_t more = 0;
	for (size_t i = 0; i < w->n; i++)
		more += w->c[i].changed && !done[i];
	if (more && len < n)
		snprintf(buf + len, n - len, " and %zu more", more);
}

/* A count for JSON: an integer when it is one (a constant counter), else a number. */
static json_t *count_json(double v)
{
	if (v == floor(v) && fabs(v) <= (double)RES_COUNT_MAX)
		return json_integer((json_int_t)v);
	return res_json_num(v);
}

json_t *rpt_work_json(const struct rpt_work *w, int compare)
{
	json_t *o = json_object(), *counters = json_object(), *list = json_array();
	if (!o || !counters || !list) {
		json_decref(o);
		json_decref(counters);
		json_decref(list);
		return NULL;
	}
	for (size_t i = 0; i < w->n; i++) {
		const struct rpt_work_counter *c = &w->c[i];
		if (compare) {
			json_t *pair = json_array();
			json_array_append_new(pair, count_json(c->old.value));
			json_array_append_new(pair, count_json(c->new.value));
			json_object_set_new(counters, c->name, pair);
			if (c->changed)
				json_array_append_new(list, json_string(c->name));
		} else {
			json_object_set_new(counters, c->name, count_json(c->old.value));
			if (!c->old.constant)
				json_array_append_new(list, json_string(c->name));
		}
	}
	if (compare) {
		json_object_set_new(o, "changed", json_boolean(w->changed));
		json_object_set_new(o, "varies", json_boolean(w->varies));
		json_object_set_new(o, "counters", counters);
		json_object_set_new(o, "changed_counters", list);
	} else {
		json_object_set_new(o, "constant", json_boolean(!w->varies));
		json_object_set_new(o, "counters", counters);
		json_object_set_new(o, "varying", list);
	}
	return o;
}

void rpt_work_query_line(char *buf, size_t n, const struct rpt_query *q)
{
	char changes[768];
	buf[0] = '\0';
	if (!q->work.compared)
		return;
	if (q->work.changed) {
		rpt_work_changes_text(changes, sizeof(changes), &q->work, 3);
		snprintf(buf, n, "%s work changed: %s%s", q->id, changes,
			 q->plan_changed ? ", plan changed" : "");
	} else if (q->verdict == RPT_REGRESSION || q->verdict == RPT_IMPROVEMENT) {
		snprintf(buf, n,
			 "%s %s, work unchanged: the same counts in both files; the time moved "
			 "without the work (host, memory layout or CPU efficiency)",
			 q->id, q->verdict == RPT_REGRESSION ? "slower" : "faster");
	}
}

void rpt_work_write(FILE *f, const struct rpt_compare *c, const char *prefix, int md)
{
	char line[1024];
	if (!c->n_work_compared)
		return;
	fprintf(f,
		"\n%s (server counters of the warm executions; docs/work.md): %zu of %zu quer%s "
		"changed\n%s",
		md ? "**Work**" : "work", c->n_work_changed, c->n_work_compared,
		c->n_work_compared == 1 ? "y" : "ies", md ? "\n" : "");
	for (size_t i = 0; i < c->n_queries; i++) {
		rpt_work_query_line(line, sizeof(line), &c->queries[i]);
		if (*line)
			fprintf(f, "%s%s\n", prefix, line);
	}
}

/* The n largest counters of w (by the old side's value) as "Rows_read 17.8 k, ...". */
static void main_counts(char *buf, size_t n, const struct rpt_work *w, size_t max)
{
	int done[RES_COUNTS_MAX] = {0};
	size_t len = 0;
	buf[0] = '\0';
	for (size_t k = 0; k < max; k++) {
		int best = -1;
		for (size_t i = 0; i < w->n; i++)
			if (!done[i] && w->c[i].old.value > 0 &&
			    (best < 0 || w->c[i].old.value > w->c[best].old.value))
				best = (int)i;
		if (best < 0)
			break;
		done[best] = 1;
		char v[32];
		rpt_work_fmt_count(v, sizeof(v), w->c[best].old.value);
		if (len < n)
			len += (size_t)snprintf(buf + len, n - len, "%s%s %s", k ? ", " : "",
						w->c[best].name, v);
	}
}

/* The counters that vary within the file, with their range of restart means. */
static void varying_counts(char *buf, size_t n, const struct rpt_work *w)
{
	size_t len = 0, k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < w->n && len < n; i++) {
		const struct rpt_work_side *s = &w->c[i].old;
		if (s->constant)
			continue;
		double spread = s->value > 0 ? 100 * (s->hi - s->lo) / s->value : 0;
		len += (size_t)snprintf(buf + len, n - len, "%s%s restart means %.2g%% apart",
					k++ ? ", " : "", w->c[i].name, spread);
	}
}

void rpt_work_summary_write(FILE *f, const struct rpt_summary *s, const char *prefix, int md)
{
	size_t have = 0, constant = 0;
	char top[512], vary[512];
	for (size_t i = 0; i < s->n_queries; i++) {
		have += s->queries[i].work.n > 0;
		constant += s->queries[i].work.n > 0 && !s->queries[i].work.varies;
	}
	if (!have)
		return;
	fprintf(f,
		"\n%s (server counters of the warm executions; docs/work.md): %zu of %zu "
		"quer%s constant across restarts\n%s",
		md ? "**Work**" : "work", constant, have, have == 1 ? "y" : "ies", md ? "\n" : "");
	for (size_t i = 0; i < s->n_queries; i++) {
		const struct rpt_summary_query *q = &s->queries[i];
		if (!q->work.n)
			continue;
		main_counts(top, sizeof(top), &q->work, 3);
		size_t r = q->work.c[0].old.restarts;
		if (!q->work.varies) {
			fprintf(f, "%s%s constant over %zu restart%s: %s\n", prefix, q->id, r,
				r == 1 ? "" : "s", top);
		} else {
			varying_counts(vary, sizeof(vary), &q->work);
			fprintf(f, "%s%s varies (%s): %s\n", prefix, q->id, vary, top);
		}
	}
}
