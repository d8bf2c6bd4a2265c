/* SPDX-License-Identifier: MIT */
/* Callgrind's output read into a profile by function (run_callgrind.h). */
#include "runner/run_callgrind.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cg_fn {
	char *name;
	long long self, out; /* its cost lines; its calls' costs to other functions */
	long long incl_base; /* merged: the inclusive count of the name itself, -1 without */
	long long incl_max;  /* merged: the largest inclusive count of its recursion levels */
	int resolved;	     /* merged: named from the symbol list */
};

/* Functions by name (open addressing on indices + 1) and compressed ids to functions. */
struct cg_tab {
	struct cg_fn *f;
	size_t n, cap;
	size_t *slot, nslot;
	size_t *id, nid; /* id -> function index + 1 */
};

struct cg_parser {
	struct cg_tab t;	  /* the functions, by object and name ("OB\x01NAME") */
	struct cg_tab names, obs; /* the compressed names of functions and of objects */
	size_t ob, cob;		  /* the current object, the called function's (index + 1) */
	int npos;		  /* position columns of a cost line ("positions:"), 1 by default */
	size_t cur, cfn;	  /* the current function and the called one, index + 1 (0: none) */
	int call;		  /* the next cost line is a call's (after "calls=") */
	int events;		  /* an "events:" line naming Ir first was read */
	long long total;	  /* "totals:" or "summary:", -1 without */
	struct errbuf *err;
};

static uint64_t hash_of(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static int tab_grow_slots(struct cg_tab *t)
{
	size_t ns = t->nslot ? t->nslot * 2 : 1024;
	size_t *s = calloc(ns, sizeof(*s));
	if (!s)
		return -1;
	for (size_t i = 0; i < t->n; i++) {
		size_t h = (size_t)hash_of(t->f[i].name, strlen(t->f[i].name)) & (ns - 1);
		while (s[h])
			h = (h + 1) & (ns - 1);
		s[h] = i + 1;
	}
	free(t->slot);
	t->slot = s;
	t->nslot = ns;
	return 0;
}

/* The function named name[0..len): its index + 1, added when new; 0 when out of memory. */
static size_t tab_find(struct cg_tab *t, const char *name, size_t len)
{
	if ((t->n + 1) * 2 > t->nslot && tab_grow_slots(t) < 0)
		return 0;
	size_t h = (size_t)hash_of(name, len) & (t->nslot - 1);
	for (; t->slot[h]; h = (h + 1) & (t->nslot - 1)) {
		const char *s = t->f[t->slot[h] - 1].name;
		if (strncmp(s, name, len) == 0 && s[len] == '\0')
			return t->slot[h];
	}
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 256;
		struct cg_fn *f = realloc(t->f, nc * sizeof(*f));
		if (!f)
			return 0;
		t->f = f;
		t->cap = nc;
	}
	char *copy = malloc(len + 1);
	if (!copy)
		return 0;
	memcpy(copy, name, len);
	copy[len] = '\0';
	t->f[t->n] = (struct cg_fn){copy, 0, 0, -1, 0, 0};
	t->slot[h] = ++t->n;
	return t->n;
}

static void tab_release(struct cg_tab *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->f[i].name);
	free(t->f);
	free(t->slot);
	free(t->id);
	memset(t, 0, sizeof(*t));
}

/* A name field "(id) name", "(id)" or "name" (p[0..len)) of t's namespace: its index + 1 in
 * t, or 0 with the parser's err set. */
static size_t name_ref(struct cg_parser *ps, struct cg_tab *t, const char *p, size_t len)
{
	if (len == 0 || p[0] != '(')
		return len ? tab_find(t, p, len)
			   : (errbuf_set(ps->err, "an empty function name"), 0);
	char *end;
	errno = 0;
	unsigned long long id = strtoull(p + 1, &end, 10);
	if (end == p + 1 || *end != ')' || errno || id > 100000000ull) {
		errbuf_set(ps->err, "a compressed name that is not '(id)'");
		return 0;
	}
	const char *rest = end + 1;
	size_t rlen = len - (size_t)(rest - p);
	while (rlen && (*rest == ' ' || *rest == '\t'))
		rest++, rlen--;
	if (rlen == 0) {
		if (id >= t->nid || !t->id[id]) {
			errbuf_set(ps->err,
				   "the compressed name (%llu) is used before it is defined", id);
			return 0;
		}
		return t->id[id];
	}
	if (id >= t->nid) {
		size_t nn = (size_t)id * 2 + 16;
		size_t *ni = realloc(t->id, nn * sizeof(*ni));
		if (!ni)
			return (errbuf_set(ps->err, "out of memory"), 0);
		memset(ni + t->nid, 0, (nn - t->nid) * sizeof(*ni));
		t->id = ni;
		t->nid = nn;
	}
	t->id[id] = tab_find(t, rest, rlen);
	if (!t->id[id])
		errbuf_set(ps->err, "out of memory");
	return t->id[id];
}

/* The function named by the field p[0..len) in object ob (index + 1, 0: none). */
static size_t fn_ref(struct cg_parser *ps, size_t ob, const char *p, size_t len)
{
	size_t k = name_ref(ps, &ps->names, p, len);
	if (!k)
		return 0;
	const char *name = ps->names.f[k - 1].name;
	size_t nl = strlen(name);
	char *key = malloc(nl + 24);
	if (!key)
		return (errbuf_set(ps->err, "out of memory"), 0);
	int kl = snprintf(key, nl + 24, "%zu\x01%s", ob, name);
	size_t r = tab_find(&ps->t, key, (size_t)kl);
	free(key);
	if (!r)
		errbuf_set(ps->err, "out of memory");
	return r;
}

/* Skips one position of a cost line ("123", "+3", "-3", "*", "0x1f"); NULL when p holds none. */
static const char *skip_position(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	const char *s = p;
	if (p < end && (*p == '+' || *p == '-' || *p == '*'))
		p++;
	if (*s == '*')
		return p;
	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	const char *digits = p;
	while (p < end &&
	       ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F')))
		p++;
	return p > digits ? p : NULL;
}

/* A cost line: its Ir (the first cost after the positions; absent is 0). */
static int cost_line(struct cg_parser *ps, const char *p, const char *end)
{
	for (int i = 0; i < ps->npos; i++)
		if (!(p = skip_position(p, end)))
			return errbuf_set(ps->err, "a cost line without its position");
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	long long v = 0;
	if (p < end && *p != '\r') {
		char *e;
		errno = 0;
		v = strtoll(p, &e, 10);
		if (e == p || errno || v < 0 || (e < end && *e != ' ' && *e != '\t' && *e != '\r'))
			return errbuf_set(ps->err, "a cost that is not a count");
	}
	if (!ps->cur)
		return errbuf_set(ps->err, "a cost line before any 'fn='");
	struct cg_fn *f = &ps->t.f[ps->cur - 1];
	if (!ps->call) {
		f->self += v;
	} else {
		if (ps->cfn != ps->cur)
			f->out += v;
		ps->call = 0;
	}
	return 0;
}

/* "events: Ir ..." (1), another first event (0), "positions: instr line" (the columns). */
static int header_line(struct cg_parser *ps, const char *p, const char *end)
{
	if (end - p >= 7 && strncmp(p, "events:", 7) == 0) {
		p += 7;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (end - p < 2 || strncmp(p, "Ir", 2) != 0 ||
		    (end - p > 2 && p[2] != ' ' && p[2] != '\t' && p[2] != '\r'))
			return errbuf_set(ps->err,
					  "callgrind does not count instructions (Ir) first");
		ps->events = 1;
	} else if (end - p >= 10 && strncmp(p, "positions:", 10) == 0) {
		ps->npos = 0;
		for (p += 10; p < end;) {
			while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
				p++;
			if (p < end)
				ps->npos++;
			while (p < end && *p != ' ' && *p != '\t' && *p != '\r')
				p++;
		}
		if (ps->npos < 1 || ps->npos > 2)
			return errbuf_set(ps->err, "a 'positions:' line of %d columns", ps->npos);
	} else if ((end - p >= 7 && strncmp(p, "totals:", 7) == 0) ||
		   (end - p >= 8 && strncmp(p, "summary:", 8) == 0)) {
		p += p[0] == 't' ? 7 : 8;
		char *e;
		errno = 0;
		long long v = strtoll(p, &e, 10);
		if (e == p || errno || v < 0)
			return errbuf_set(ps->err, "a total that is not a count");
		if (ps->total < 0 || p[-2] == 's') /* "totals:" wins over "summary:" */
			ps->total = v;
	}
	return 0;
}

/* key=value lines: the ones that name functions or start a call; the others are skipped. */
static int assign_line(struct cg_parser *ps, const char *p, const char *end)
{
	size_t len = (size_t)(end - p);
	while (len && p[len - 1] == '\r')
		len--;
	if (len >= 3 && strncmp(p, "fn=", 3) == 0) {
		ps->call = 0;
		return (ps->cur = fn_ref(ps, ps->ob, p + 3, len - 3)) ? 0 : -1;
	}
	if (len >= 4 && strncmp(p, "cfn=", 4) == 0)
		return (ps->cfn = fn_ref(ps, ps->cob ? ps->cob : ps->ob, p + 4, len - 4)) ? 0 : -1;
	if (len >= 4 && strncmp(p, "jfn=", 4) == 0) /* may define a compressed name */
		return name_ref(ps, &ps->names, p + 4, len - 4) ? 0 : -1;
	if (len >= 3 && strncmp(p, "ob=", 3) == 0)
		return (ps->ob = name_ref(ps, &ps->obs, p + 3, len - 3)) ? 0 : -1;
	if (len >= 4 && strncmp(p, "cob=", 4) == 0)
		return (ps->cob = name_ref(ps, &ps->obs, p + 4, len - 4)) ? 0 : -1;
	if (len >= 6 && strncmp(p, "calls=", 6) == 0) {
		if (!ps->cfn)
			return errbuf_set(ps->err, "a 'calls=' line without 'cfn='");
		ps->call = 1;
		ps->cob = 0; /* a "cob=" names the object of the next call only */
	}
	return 0;
}

static int parse_line(struct cg_parser *ps, const char *p, const char *end)
{
	if (p == end || *p == '#' || *p == '\r')
		return 0;
	if ((*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '*')
		return cost_line(ps, p, end);
	const char *eq = memchr(p, '=', (size_t)(end - p));
	const char *colon = memchr(p, ':', (size_t)(end - p));
	if (eq && (!colon || eq < colon))
		return assign_line(ps, p, end);
	if (colon)
		return header_line(ps, p, end);
	return errbuf_set(ps->err, "a line callgrind does not write");
}

/* The length of the name without a recursion level's "'N". */
static size_t base_len(const char *name)
{
	size_t len = strlen(name), i = len;
	while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
		i--;
	return i > 1 && i < len && name[i - 1] == '\'' ? i - 1 : len;
}

/* The symbol list's name for an address name "0x..." (name[0..len)), or NULL. */
static const char *sym_name(const struct run_cg_syms *syms, const char *name, size_t len)
{
	if (!syms || len < 3 || len > 18 || name[0] != '0' || name[1] != 'x')
		return NULL;
	unsigned long long a = 0;
	for (size_t i = 2; i < len; i++) {
		char c = name[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0)
			return NULL;
		a = a * 16 + (unsigned)d;
	}
	return run_cg_syms_at(syms, a);
}

/* The functions merged over their recursion levels (into m), addresses named from syms. */
static int merge_levels(const struct cg_tab *t, const struct run_cg_syms *syms, struct cg_tab *m)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct cg_fn *f = &t->f[i];
		const char *name = strchr(f->name, '\x01') + 1;
		size_t bl = base_len(name);
		const char *sn = sym_name(syms, name, bl);
		size_t k = sn ? tab_find(m, sn, strlen(sn)) : tab_find(m, name, bl);
		if (!k)
			return -1;
		struct cg_fn *g = &m->f[k - 1];
		g->resolved |= sn != NULL;
		long long incl = f->self + f->out;
		g->self += f->self;
		if (bl == strlen(name) && incl > g->incl_base)
			g->incl_base = incl; /* one name in several objects: the largest */
		if (incl > g->incl_max)
			g->incl_max = incl;
	}
	return 0;
}

static int by_self_desc(const void *a, const void *b)
{
	const struct run_cg_fn *x = a, *y = b;
	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* The name as kept: cut to RUN_CG_NAME - 1 bytes, bytes outside printable ASCII as '?'. */
static void name_keep(char *out, const char *name)
{
	size_t i = 0;
	for (; name[i] && i < RUN_CG_NAME - 1; i++) {
		unsigned char c = (unsigned char)name[i];
		out[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	out[i] = '\0';
}

/* Fills out from the merged functions m: shares, the kept ones sorted by self. */
static void profile_fill(struct run_cg_profile *out, const struct cg_tab *m, long long total)
{
	long long sum = 0;
	for (size_t i = 0; i < m->n; i++) {
		if (strncmp(m->f[i].name, "0x", 2) == 0)
			out->unnamed += m->f[i].self;
		else
			out->named += m->f[i].self;
		if (m->f[i].resolved)
			out->resolved += m->f[i].self;
		sum += m->f[i].self;
	}
	out->total = total >= 0 ? total : sum;
	double floor = RUN_CG_SHARE * (double)out->total;
	struct run_cg_fn *all = calloc(m->n ? m->n : 1, sizeof(*all));
	size_t na = 0;
	for (size_t i = 0; all && i < m->n; i++) {
		const struct cg_fn *g = &m->f[i];
		long long incl = g->incl_base >= 0 ? g->incl_base : g->incl_max;
		if ((double)g->self < floor && (double)incl < floor)
			continue;
		name_keep(all[na].name, g->name);
		all[na].self = g->self;
		all[na++].incl = incl;
	}
	if (all)
		qsort(all, na, sizeof(*all), by_self_desc);
	out->n = na > RUN_CG_MAX ? RUN_CG_MAX : (int)na;
	if (out->n)
		memcpy(out->fn, all, (size_t)out->n * sizeof(*all));
	free(all);
}

int run_cg_parse(const char *text, size_t len, const struct run_cg_syms *syms,
		 struct run_cg_profile *out, struct errbuf *err)
{
	struct cg_parser ps = {.npos = 1, .total = -1, .err = err};
	struct cg_tab merged = {0};
	memset(out, 0, sizeof(*out));
	int rc = 0;
	size_t line = 0;
	for (const char *p = text, *end = text + len; p < end && rc == 0; line++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		rc = parse_line(&ps, p, le);
		p = nl ? nl + 1 : end;
	}
	if (rc < 0) {
		struct errbuf e = *err;
		errbuf_set(err, "callgrind output line %zu: %s", line, e.msg);
	} else if (!ps.events) {
		rc = errbuf_set(err, "no 'events:' line in callgrind's output (not callgrind?)");
	} else if (merge_levels(&ps.t, syms, &merged) < 0) {
		rc = errbuf_set(err, "out of memory");
	} else {
		profile_fill(out, &merged, ps.total);
	}
	tab_release(&ps.t);
	tab_release(&ps.names);
	tab_release(&ps.obs);
	tab_release(&merged);
	return rc;
}
