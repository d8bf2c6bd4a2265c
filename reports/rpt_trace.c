/* SPDX-License-Identifier: MIT */
/* The optimizer traces of a changed plan, both builds side by side (reports/rpt_trace.h). */
#include "reports/rpt_trace.h"
#include "reports/rpt_html.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* snprintf into buf: the lines are cut at len, never overrun. */
__attribute__((format(printf, 3, 4))) static void put(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

static json_t *first_summary(const struct res_query *q)
{
	for (size_t i = 0; q && i < q->n_restarts; i++) {
		json_t *s = json_object_get(q->restarts[i].extra, "optimizer_trace");
		if (s)
			return s;
	}
	return NULL;
}

int rpt_trace_build(struct rpt_trace **out, const struct res_query *old,
		    const struct res_query *new)
{
	json_t *a = first_summary(old), *b = first_summary(new);
	struct errbuf err;
	*out = NULL;
	if (!a || !b)
		return 0;
	struct rpt_trace *t = calloc(1, sizeof(*t));
	if (!t)
		return -1;
	if (res_tsum_read(&t->old, a, &err) < 0 || res_tsum_read(&t->new, b, &err) < 0) {
		rpt_trace_free(t); /* a malformed summary: as if absent */
		return 0;
	}
	res_tsum_part(&t->part, &t->old, &t->new);
	*out = t;
	return 0;
}

void rpt_trace_free(struct rpt_trace *t)
{
	if (!t)
		return;
	res_tsum_release(&t->old);
	res_tsum_release(&t->new);
	free(t);
}

/* The chosen plan's order in the search's terms (res_tblock_chosen_path). */
struct path {
	const char *t[64];
	size_t n;
};

static void path_of(struct path *p, const struct res_tblock *b)
{
	p->n = b ? res_tblock_chosen_path(b, p->t, 64) : 0;
}

static int orders_equal(const struct res_tblock *a, const struct res_tblock *b)
{
	struct path pa, pb;
	path_of(&pa, a);
	path_of(&pb, b);
	if (pa.n != pb.n)
		return 0;
	for (size_t i = 0; i < pa.n; i++)
		if (strcmp(pa.t[i], pb.t[i]) != 0)
			return 0;
	return 1;
}

long rpt_trace_shown_block(const struct rpt_trace *t)
{
	long first = -1;
	for (size_t i = 0; i < t->old.n_blocks; i++) {
		const struct res_tblock *a = &t->old.blocks[i];
		const struct res_tblock *b = res_tsum_block(&t->new, a->select_id);
		if (!b)
			continue;
		if (first < 0)
			first = a->select_id;
		if (!orders_equal(a, b))
			return a->select_id;
	}
	if (first >= 0)
		return first;
	if (t->old.n_blocks)
		return t->old.blocks[0].select_id;
	return t->new.n_blocks ? t->new.blocks[0].select_id : -1;
}

/* Tables joined with ",", into buf. */
static void join(char *buf, size_t len, const char *const *t, size_t n)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? "," : "", t[i]);
	if (n == 0)
		put(buf, len, "none");
}

static void cost_text(char *buf, size_t len, double cost)
{
	if (isnan(cost))
		put(buf, len, "cost unknown");
	else
		put(buf, len, "cost %.6g", cost);
}

void rpt_trace_found_text(char *buf, size_t len, const struct res_tblock *b,
			  const char *const *order, size_t n)
{
	size_t got = 0;
	long i = b && n ? res_tblock_find(b, order, n, &got) : -1;
	char c[64];
	if (i < 0) {
		put(buf, len, "not considered");
		return;
	}
	cost_text(c, sizeof(c), b->steps[i].cost);
	if (got == n)
		put(buf, len, "%s, %s", c, res_tstep_words(b->steps[i].outcome));
	else
		put(buf, len, "first %zu of %zu tables, %s, %s", got, n, c,
		    res_tstep_words(b->steps[i].outcome));
}

/* "ORDER cost C (OTHER's order here: ...)" of side a against the other side's block b. */
static void side_text(char *buf, size_t len, const struct res_tblock *a, const struct res_tblock *b,
		      const char *other, const char *bt)
{
	char order[512], c[64], found[160];
	struct path pa, pb;
	if (!a) {
		put(buf, len, "no block");
		return;
	}
	path_of(&pa, a);
	path_of(&pb, b);
	join(order, sizeof(order), pa.t, pa.n);
	cost_text(c, sizeof(c), a->cost);
	if (b)
		rpt_trace_found_text(found, sizeof(found), a, pb.t, pb.n);
	else
		snprintf(found, sizeof(found), "no such block there");
	put(buf, len, "%s%s%s %s (%s's order here: %s)", bt, order, bt, c, other, found);
}

/* One side at the parting step: "nation,supplier rows 500 cost 631.049 extended". */
static void step_text(char *buf, size_t len, const struct res_tblock *b, long k)
{
	const char *path[64];
	char p[512], c[64];
	if (!b || k < 0 || (size_t)k >= b->n_steps) {
		put(buf, len, "no step %ld (its search ended)", k + 1);
		return;
	}
	const struct res_tstep *s = &b->steps[k];
	join(p, sizeof(p), path, res_tblock_path(b, (size_t)k, path, 64));
	cost_text(c, sizeof(c), s->cost);
	put(buf, len, "%s rows %.6g %s %s%s%s", p, s->rows, c, res_tstep_words(s->outcome),
	    s->sj ? ", semi-join " : "", s->sj ? s->sj : "");
}

static void semijoin_text(char *buf, size_t len, const struct res_tblock *b)
{
	size_t k = 0, i;
	json_t *e;
	buf[0] = '\0';
	json_array_foreach(b ? b->semijoin : NULL, i, e) if (k < len) k +=
	    (size_t)snprintf(buf + k, len - k, "%s%s", i ? "," : "", json_string_value(e));
	if (!*buf)
		put(buf, len, "none");
}

static void part_text(char *buf, size_t len, const struct res_tpart *p)
{
	char a[600], b[600];
	const struct res_tblock *o = p->old_block, *n = p->new_block;
	if (!p->parted) {
		put(buf, len, "the same decisions throughout (only rows or costs differ)");
	} else if (!strcmp(p->what, "block")) {
		if (o && n)
			put(buf, len, "decisions part at the block: old optimizes #%ld, new #%ld",
			    o->select_id, n->select_id);
		else
			put(buf, len, "decisions part at #%ld: only %s optimizes it", p->select_id,
			    o ? "old" : "new");
	} else if (!strcmp(p->what, "step")) {
		step_text(a, sizeof(a), o, p->step);
		step_text(b, sizeof(b), n, p->step);
		put(buf, len, "decisions part at #%ld step %ld: old %s; new %s", p->select_id,
		    p->step + 1, a, b);
	} else if (!strcmp(p->what, "order")) {
		join(a, sizeof(a), o->order, o->n_order);
		join(b, sizeof(b), n->order, n->n_order);
		put(buf, len, "decisions part at #%ld's chosen order: old %s; new %s", p->select_id,
		    a, b);
	} else {
		semijoin_text(a, sizeof(a), o);
		semijoin_text(b, sizeof(b), n);
		put(buf, len, "decisions part at #%ld's semi-join strategies: old %s; new %s",
		    p->select_id, a, b);
	}
}

size_t rpt_trace_write(FILE *f, const char *id, const struct rpt_trace *t, const char *prefix,
		       int md)
{
	char a[1024], b[1024], line[1400];
	long sid = rpt_trace_shown_block(t);
	const struct res_tblock *o = res_tsum_block(&t->old, sid),
				*n = res_tsum_block(&t->new, sid);
	const char *bt = md ? "`" : "";
	side_text(a, sizeof(a), o, n, "new", bt);
	side_text(b, sizeof(b), n, o, "old", bt);
	fprintf(f, "%s%s trace #%ld: old %s; new %s\n", prefix, id, sid, a, b);
	part_text(line, sizeof(line), &t->part);
	fprintf(f, "%s%s trace: %s\n", prefix, id, line);
	return RPT_TRACE_LINES;
}

/* ---- JSON ---- */

static json_t *order_json(const struct res_tblock *b)
{
	json_t *a = json_array();
	for (size_t i = 0; b && i < b->n_order; i++)
		json_array_append_new(a, json_string(b->order[i]));
	return a;
}

static json_t *num_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

/* Where a's side finds b's order: {"tables", "of", "cost", "outcome"}, or null. */
static json_t *found_json(const struct res_tblock *a, const struct res_tblock *b)
{
	size_t got = 0;
	struct path pb;
	path_of(&pb, b);
	long i = a && b && pb.n ? res_tblock_find(a, pb.t, pb.n, &got) : -1;
	if (i < 0)
		return json_null();
	return json_pack("{s:I, s:I, s:o, s:s}", "tables", (json_int_t)got, "of", (json_int_t)pb.n,
			 "cost", num_or_null(a->steps[i].cost), "outcome",
			 res_tstep_words(a->steps[i].outcome));
}

static json_t *side_json(const struct res_tblock *b)
{
	if (!b)
		return json_null();
	struct path p;
	json_t *pj = json_array();
	path_of(&p, b);
	for (size_t i = 0; i < p.n; i++)
		json_array_append_new(pj, json_string(p.t[i]));
	return json_pack("{s:o, s:o, s:o, s:O, s:I}", "order", order_json(b), "path", pj, "cost",
			 num_or_null(b->cost), "semijoin", b->semijoin ? b->semijoin : json_null(),
			 "steps", (json_int_t)b->n_steps);
}

static void block_json(json_t *arr, const struct rpt_trace *t, long sid)
{
	const struct res_tblock *o = res_tsum_block(&t->old, sid),
				*n = res_tsum_block(&t->new, sid);
	json_array_append_new(arr, json_pack("{s:I, s:o, s:o, s:o, s:o}", "select_id",
					     (json_int_t)sid, "old", side_json(o), "new",
					     side_json(n), "new_order_in_old", found_json(o, n),
					     "old_order_in_new", found_json(n, o)));
}

static json_t *part_json(const struct res_tpart *p)
{
	char a[600], b[600];
	if (!p->parted)
		return json_null();
	json_t *o =
	    json_pack("{s:I, s:s, s:o}", "select_id", (json_int_t)p->select_id, "what", p->what,
		      "step", p->step >= 0 ? json_integer(p->step + 1) : json_null());
	if (p->step >= 0) {
		step_text(a, sizeof(a), p->old_block, p->step);
		step_text(b, sizeof(b), p->new_block, p->step);
		json_object_set_new(o, "old", json_string(a));
		json_object_set_new(o, "new", json_string(b));
	}
	part_text(a, sizeof(a), p);
	json_object_set_new(o, "text", json_string(a));
	return o;
}

json_t *rpt_trace_json(const struct rpt_trace *t)
{
	if (!t)
		return json_null();
	json_t *blocks = json_array();
	for (size_t i = 0; i < t->old.n_blocks; i++)
		block_json(blocks, t, t->old.blocks[i].select_id);
	for (size_t i = 0; i < t->new.n_blocks; i++)
		if (!res_tsum_block(&t->old, t->new.blocks[i].select_id))
			block_json(blocks, t, t->new.blocks[i].select_id);
	return json_pack("{s:I, s:o, s:o, s:{s:I, s:I}, s:{s:I, s:I}}", "shown_block",
			 (json_int_t)rpt_trace_shown_block(t), "blocks", blocks, "part",
			 part_json(&t->part), "old", "trace_bytes", (json_int_t)t->old.trace_bytes,
			 "missing_bytes", (json_int_t)t->old.missing_bytes, "new", "trace_bytes",
			 (json_int_t)t->new.trace_bytes, "missing_bytes",
			 (json_int_t)t->new.missing_bytes);
}

/* ---- HTML ---- */

static void html_cell(FILE *out, const struct res_tblock *a, const struct res_tblock *b)
{
	char order[512], c[64], found[160];
	struct path pa, pb;
	path_of(&pa, a);
	path_of(&pb, b);
	fputs("<td class=\"mono\">", out);
	if (a) {
		join(order, sizeof(order), pa.t, pa.n);
		cost_text(c, sizeof(c), a->cost);
		rpt_html_escape(out, order);
		fprintf(out, " <span class=\"muted\">%s</span><br>", c);
		rpt_trace_found_text(found, sizeof(found), a, pb.t, pb.n);
		fputs("<span class=\"muted\">the other's order here: ", out);
		rpt_html_escape(out, found);
		fputs("</span>", out);
	} else {
		fputs("<span class=\"muted\">no such block</span>", out);
	}
	fputs("</td>", out);
}

void rpt_trace_html(FILE *out, const struct rpt_trace *t, const char *old_name,
		    const char *new_name)
{
	char line[1400];
	long shown = rpt_trace_shown_block(t);
	fputs("<div class=\"trace\"><h4>Why the optimizer chose it (optimizer trace)</h4>"
	      "<table><tr><th>block</th><th>",
	      out);
	rpt_html_escape(out, old_name);
	fputs(": chosen join order</th><th>", out);
	rpt_html_escape(out, new_name);
	fputs(": chosen join order</th></tr>", out);
	for (int side = 0; side < 2; side++) {
		const struct res_tsum *s = side ? &t->new : &t->old;
		for (size_t i = 0; i < s->n_blocks; i++) {
			long sid = s->blocks[i].select_id;
			if (side && res_tsum_block(&t->old, sid))
				continue;
			fprintf(out, "<tr%s><td>#%ld</td>",
				sid == shown ? " class=\"changed\"" : "", sid);
			html_cell(out, res_tsum_block(&t->old, sid), res_tsum_block(&t->new, sid));
			html_cell(out, res_tsum_block(&t->new, sid), res_tsum_block(&t->old, sid));
			fputs("</tr>", out);
		}
	}
	part_text(line, sizeof(line), &t->part);
	fputs("</table><p>", out);
	rpt_html_escape(out, line);
	fputs("</p></div>", out);
}
