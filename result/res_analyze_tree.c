/* SPDX-License-Identifier: MIT */
/* MySQL 8's EXPLAIN ANALYZE (FORMAT=TREE) read into per-table actuals (res_analyze.h). The
 * iterator lines as the MySQL 8.0 reference manual documents them ("EXPLAIN ANALYZE", "Obtaining
 * Information with EXPLAIN ANALYZE"):
 *     -> Filter: (t3.pk > 17)  (cost=1.26 rows=5) (actual time=0.013..0.016 rows=5 loops=1)
 *         -> Index range scan on t3 using PRIMARY  (cost=1.26 rows=5) (actual time=... rows=5
 * loops=1) an iterator that never ran says "(never executed)". */
#include "result/res_analyze.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TREE_DEPTH 128

/* One iterator line (its continuation lines joined to it). */
struct node {
	int indent;
	long sel;
	double est, rows, loops; /* NaN when not said */
	struct res_atable *table;
	int filter; /* a "Filter:" line */
};

/* The number after "key=" inside s (up to end), NaN when absent. */
static double field(const char *s, const char *end, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = s; p && p + n <= end; p++) {
		if (strncmp(p, key, n) != 0 || (p > s && isalnum((unsigned char)p[-1])))
			continue;
		char *e;
		double d = strtod(p + n, &e);
		return e != p + n ? d : NAN;
	}
	return NAN;
}

/* The estimate "(cost=... rows=E)", the actuals "(actual time=.. rows=R loops=L)" or "(never
 * executed)" of a line; the description ends where the first of them starts. */
static void numbers(struct node *nd, char *line)
{
	char *cost = strstr(line, "(cost="), *act = strstr(line, "(actual "),
	     *never = strstr(line, "(never executed)");
	char *rows_only = strstr(line, "  (rows=");
	nd->est = nd->rows = nd->loops = NAN;
	if (cost || rows_only) {
		char *s = cost ? cost : rows_only, *e = strchr(s, ')');
		nd->est = field(s, e ? e : s + strlen(s), "rows=");
	}
	if (act) {
		char *e = strchr(act, ')');
		e = e ? e : act + strlen(act);
		nd->rows = field(act, e, "rows=");
		nd->loops = field(act, e, "loops=");
	} else if (never) {
		nd->rows = nd->loops = 0;
	}
	char *cut = line + strlen(line);
	char *marks[] = {cost, act, never, rows_only};
	for (size_t i = 0; i < 4; i++)
		if (marks[i] && marks[i] < cut)
			cut = marks[i];
	while (cut > line && cut[-1] == ' ')
		cut--;
	*cut = '\0';
}

/* A table access ("Table scan on T", "Index lookup on T using K (...)", "Covering index range
 * scan on T ...", "Single-row index lookup on T ..."): its alias copied into buf, else NULL. */
static const char *access_alias(const char *desc, char *buf, size_t n)
{
	const char *on = strstr(desc, " on ");
	if (!on && strncmp(desc, "Constant row from ", 18) == 0)
		on = desc + 14;
	if (!on)
		return NULL;
	size_t pre = (size_t)(on - desc);
	char head[160];
	snprintf(head, sizeof(head), "%.*s", (int)(pre < sizeof(head) - 1 ? pre : sizeof(head) - 1),
		 desc);
	if (!strstr(head, "scan") && !strstr(head, "lookup") && !strstr(head, "search") &&
	    !strstr(head, "Constant row"))
		return NULL;
	const char *a = on + 4;
	size_t len = strcspn(a, " ");
	if (len == 0 || len >= n)
		return NULL;
	memcpy(buf, a, len);
	buf[len] = '\0';
	return buf;
}

/* The op a line is, or NULL. */
static const char *op_of(const char *desc, const char *alias)
{
	if (alias && strcmp(alias, "<temporary>") == 0)
		return "temporary table";
	if (strncmp(desc, "Sort", 4) == 0)
		return "filesort";
	if (strncmp(desc, "Materialize", 11) == 0)
		return "materialized";
	if (strstr(desc, "temporary table"))
		return "temporary table";
	return NULL;
}

static int op_add(struct res_analyze *a, const char *name, const struct node *nd)
{
	struct res_aop *o = res_analyze_add_op(a, name, nd->sel);
	if (!o)
		return -1;
	if (!isnan(nd->loops))
		json_object_set_new(o->r, "r_loops", json_real(nd->loops));
	if (!isnan(nd->rows))
		json_object_set_new(o->r, "r_rows", json_real(nd->rows));
	return 0;
}

/* One iterator at stack depth d (its parent at d - 1). */
static int node_add(struct res_analyze *a, struct node *st, int d, char *desc)
{
	struct node *nd = &st[d], *up = d > 0 ? &st[d - 1] : NULL;
	char buf[RES_ANALYZE_NAME + 1];
	nd->sel = up ? up->sel : 1;
	nd->table = NULL;
	nd->filter = strncmp(desc, "Filter:", 7) == 0;
	if (strncmp(desc, "Select #", 8) == 0)
		nd->sel = strtol(desc + 8, NULL, 10);
	const char *alias = access_alias(desc, buf, sizeof(buf));
	const char *op = op_of(desc, alias);
	if (op)
		return op_add(a, op, nd);
	if (!alias)
		return 0;
	struct res_atable *t = res_analyze_add_table(a, alias, nd->sel);
	if (!t)
		return -1;
	t->rows = nd->est;
	t->r_loops = nd->loops;
	t->r_rows = nd->rows;
	/* A filter right above the access: the share of the rows read it kept. */
	if (up && up->filter) {
		if (!isnan(up->rows) && nd->rows > 0)
			t->r_filtered = fmin(100.0, 100.0 * up->rows / nd->rows);
		if (!isnan(up->est) && nd->est > 0)
			t->filtered = fmin(100.0, 100.0 * up->est / nd->est);
	}
	nd->table = t;
	return 0;
}

/* The iterator of one joined line; a line without "->" is none. */
static int line_node(struct res_analyze *a, struct node *st, int *depth, char *line)
{
	char *arrow = strstr(line, "->");
	int indent = 0;
	while (line[indent] == ' ')
		indent++;
	if (!arrow)
		return 0;
	if (arrow != line + indent)
		indent = 0; /* "EXPLAIN: -> ..." as the client shows the first line */
	while (*depth > 0 && st[*depth - 1].indent >= indent)
		(*depth)--;
	if (*depth >= TREE_DEPTH)
		return 0;
	struct node *nd = &st[*depth];
	memset(nd, 0, sizeof(*nd));
	nd->indent = indent;
	char *desc = arrow + 2;
	while (*desc == ' ')
		desc++;
	numbers(nd, desc);
	if (node_add(a, st, *depth, desc) < 0)
		return -1;
	(*depth)++;
	return 0;
}

/* The text with each continuation line (one without "->", as the manual wraps "(actual ...)")
 * joined to the line before it. A new string. */
static char *joined(const char *text)
{
	size_t n = strlen(text);
	char *out = malloc(n + 1), *o = out;
	if (!out)
		return NULL;
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		const char *q = p;
		while (q < p + len && (*q == ' ' || *q == '\t'))
			q++;
		int arrow = 0;
		for (const char *r = p; r + 1 < p + len; r++)
			arrow |= r[0] == '-' && r[1] == '>';
		int cont = o > out && !arrow;
		if (cont) {
			*o++ = ' ';
			memcpy(o, q, (size_t)(p + len - q));
			o += p + len - q;
		} else {
			if (o > out)
				*o++ = '\n';
			memcpy(o, p, len);
			o += len;
		}
		p += len + (e != NULL);
	}
	*o = '\0';
	return out;
}

int res_analyze_parse_tree(struct res_analyze *out, const char *text, struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	char *all = joined(text);
	struct node *st = calloc(TREE_DEPTH, sizeof(*st));
	int depth = 0, rc = all && st ? 0 : -1;
	for (char *save = NULL, *line = all ? strtok_r(all, "\n", &save) : NULL; line && rc == 0;
	     line = strtok_r(NULL, "\n", &save))
		rc = line_node(out, st, &depth, line);
	free(all);
	free(st);
	if (rc < 0) {
		res_analyze_release(out);
		return errbuf_set(err, "out of memory");
	}
	if (out->n_tables == 0) {
		res_analyze_release(out);
		return errbuf_set(err, "the EXPLAIN ANALYZE output names no table");
	}
	return 0;
}
