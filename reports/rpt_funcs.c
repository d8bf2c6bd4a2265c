/* SPDX-License-Identifier: MIT */
/* The functions behind a query's instruction change (run --instructions keeps each restart's
 * profile by function; reports/rpt.h; docs/work.md, "Which functions"). */
#include "reports/rpt.h"
#include "reports/rpt_html.h"
#include "result/res_funcs.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rpt_funcs_fn_changed(double old, double new, double bound, double total)
{
	return fabs(new - old) > bound * fmax(old, new) + RPT_FUNCS_FLOOR * total;
}

/* One side's mean profile: names (borrowed from the file) and self counts over its restarts. */
struct side {
	const char **name;
	double *self;
	size_t n, cap;
	double total;
	size_t restarts;
};

static long side_find(const struct side *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->name[i], name) == 0)
			return (long)i;
	return -1;
}

static int side_add(struct side *s, const char *name, double self)
{
	long k = side_find(s, name);
	if (k >= 0) {
		s->self[k] += self;
		return 0;
	}
	if (s->n == s->cap) {
		size_t nc = s->cap ? 2 * s->cap : 64;
		const char **nn = realloc(s->name, nc * sizeof(*nn));
		if (nn)
			s->name = nn;
		double *ns = nn ? realloc(s->self, nc * sizeof(*ns)) : NULL;
		if (!ns)
			return -1;
		s->self = ns;
		s->cap = nc;
	}
	s->name[s->n] = name;
	s->self[s->n++] = self;
	return 0;
}

/* The mean over q's ok restarts that have a profile (a function absent from one counts 0). */
static int side_of(struct side *s, const struct res_query *q)
{
	static struct res_funcs fs; /* large: not on the stack; read and used at once */
	memset(s, 0, sizeof(*s));
	for (size_t r = 0; r < q->n_restarts; r++) {
		if (q->restarts[r].status != RES_STATUS_OK || !res_funcs_get(&fs, &q->restarts[r]))
			continue;
		s->restarts++;
		s->total += (double)fs.total;
		for (size_t i = 0; i < fs.n; i++)
			if (side_add(s, fs.fn[i].name, (double)fs.fn[i].self) < 0)
				return -1;
	}
	for (size_t i = 0; s->restarts && i < s->n; i++)
		s->self[i] /= (double)s->restarts;
	if (s->restarts)
		s->total /= (double)s->restarts;
	return 0;
}

static void side_release(struct side *s)
{
	free(s->name);
	free(s->self);
}

static int by_abs_diff(const void *a, const void *b)
{
	const struct rpt_fn_diff *x = a, *y = b;
	double dx = fabs(x->new - x->old), dy = fabs(y->new - y->old);
	if (dx != dy)
		return dx < dy ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Every function of either side that changed by the rule, into out->fn (unsorted). */
static int changed_of(struct rpt_funcs *out, const struct side *o, const struct side *n,
		      double bound)
{
	double total = fmax(o->total, n->total), whole = n->total - o->total;
	out->fn = calloc(o->n + n->n + 1, sizeof(*out->fn));
	if (!out->fn)
		return -1;
	for (int pass = 0; pass < 2; pass++) {
		const struct side *s = pass ? n : o, *t = pass ? o : n;
		for (size_t i = 0; i < s->n; i++) {
			long k = side_find(t, s->name[i]);
			if (pass && k >= 0)
				continue; /* already taken from the old side */
			double a = s->self[i], b = k >= 0 ? t->self[k] : 0;
			double ov = pass ? b : a, nv = pass ? a : b;
			if (!rpt_funcs_fn_changed(ov, nv, bound, total))
				continue;
			struct rpt_fn_diff *d = &out->fn[out->n_changed++];
			if (!(d->name = strdup(s->name[i])))
				return -1;
			d->old = ov;
			d->new = nv;
			d->share = whole != 0 ? (nv - ov) / whole : 0;
		}
	}
	return 0;
}

int rpt_funcs_build(struct rpt_funcs *out, const struct res_query *a, const struct res_query *b,
		    const struct rpt_instr *in)
{
	struct side o, n;
	memset(out, 0, sizeof(*out));
	if (!in->compared || !in->changed)
		return 0;
	int rc = side_of(&o, a) < 0 || side_of(&n, b) < 0 ? -1 : 0;
	if (rc == 0 && o.restarts && n.restarts) {
		out->compared = 1;
		out->old_total = o.total;
		out->new_total = n.total;
		rc = changed_of(out, &o, &n, in->bound);
	}
	if (rc == 0 && out->n_changed) {
		qsort(out->fn, out->n_changed, sizeof(*out->fn), by_abs_diff);
		double sum = 0;
		for (out->n = 0; out->n < out->n_changed && out->n < RPT_FUNCS_MAX;) {
			sum += out->fn[out->n++].share;
			if (sum >= RPT_FUNCS_COVER)
				break;
		}
		out->covered = sum;
	}
	side_release(&o);
	side_release(&n);
	if (rc < 0)
		rpt_funcs_release(out);
	return rc;
}

void rpt_funcs_release(struct rpt_funcs *f)
{
	for (size_t i = 0; f->fn && i < f->n_changed; i++)
		free(f->fn[i].name);
	free(f->fn);
	memset(f, 0, sizeof(*f));
}

json_t *rpt_funcs_json(const struct rpt_funcs *f)
{
	if (!f->compared)
		return json_null();
	json_t *list = json_array();
	for (size_t i = 0; list && i < f->n; i++) {
		const struct rpt_fn_diff *d = &f->fn[i];
		json_array_append_new(list, json_pack("{s:s, s:f, s:f, s:f, s:f}", "name", d->name,
						      "old", d->old, "new", d->new, "diff",
						      d->new - d->old, "share", d->share));
	}
	return json_pack("{s:f, s:f, s:I, s:f, s:o}", "old_total", f->old_total, "new_total",
			 f->new_total, "changed", (json_int_t)f->n_changed, "covered", f->covered,
			 "list", list);
}

/* The name without its parameter list: "row_search_mvcc(unsigned char*, ...)" ->
 * "row_search_mvcc" (a template's or an operator's parentheses kept as they come). */
static void short_name(char *out, size_t n, const char *name)
{
	const char *paren = strrchr(name, '(');
	size_t len = paren && paren != name && name[strlen(name) - 1] == ')' &&
			     strchr(paren, ')') == name + strlen(name) - 1
			 ? (size_t)(paren - name)
			 : strlen(name);
	const char *sp = memchr(name, ' ', len); /* a return type: "void f<..>" */
	if (sp && memchr(name, '<', len) > (void *)sp) {
		len -= (size_t)(sp + 1 - name);
		name = sp + 1;
	}
	snprintf(out, n, "%.*s", (int)(len < 80 ? len : 80), name);
}

void rpt_funcs_write(FILE *f, const struct rpt_funcs *fs, const char *id, const char *prefix,
		     int md)
{
	char d[32], nm[96];
	if (!fs->compared)
		return;
	if (!fs->n) {
		fprintf(f, "%s%s functions: none changed beyond the rule\n", prefix, id);
		return;
	}
	fprintf(f, "%s%s functions (self instructions; %zu of %zu changed cover %.0f%%):", prefix,
		id, fs->n, fs->n_changed, 100 * fs->covered);
	for (size_t i = 0; i < fs->n && i < 3; i++) {
		const struct rpt_fn_diff *x = &fs->fn[i];
		rpt_work_fmt_count(d, sizeof(d), fabs(x->new - x->old));
		short_name(nm, sizeof(nm), x->name);
		fprintf(f, "%s%s%s%s %c%s (%.0f%%)", i ? "," : "", md ? " `" : " ", nm,
			md ? "`" : "", x->new >= x->old ? '+' : '-', d, 100 * x->share);
	}
	fputs("\n", f);
}

void rpt_funcs_html(FILE *f, const struct rpt_funcs *fs)
{
	char a[32], b[32], d[32];
	if (!fs->compared || !fs->n)
		return;
	fputs("<table class=\"funcs\"><tr><th>function</th><th>old</th><th>new</th>"
	      "<th>difference</th><th>share</th></tr>\n",
	      f);
	for (size_t i = 0; i < fs->n; i++) {
		const struct rpt_fn_diff *x = &fs->fn[i];
		rpt_work_fmt_count(a, sizeof(a), x->old);
		rpt_work_fmt_count(b, sizeof(b), x->new);
		rpt_work_fmt_count(d, sizeof(d), fabs(x->new - x->old));
		fputs("<tr><td><code>", f);
		rpt_html_escape(f, x->name);
		fprintf(f, "</code></td><td>%s</td><td>%s</td><td>%c%s</td><td>%.1f%%</td></tr>\n",
			a, b, x->new >= x->old ? '+' : '-', d, 100 * x->share);
	}
	fputs("</table>\n", f);
}
