/* SPDX-License-Identifier: MIT */
/* Parameter substitution follows TPC-H qgen (qgen.c, varsub.c): validation defaults, or per-query
 * random streams seeded from -r with dbgen's generator and lists (dbt3/gen_rng.h, gen_dists.h). */
#include "dbt3/qry.h"
#include "dbt3/qry_templates.h"
#include "dbt3/gen_dists.h"
#include "dbt3/gen_rng.h"
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* qgen -d values (varsub.c defaults[]); Q11's fraction is computed from the scale factor. */
static const char *const defaults[QRY_COUNT + 1][QRY_MAX_PARAMS + 1] = {
    {NULL},
    {NULL, "90"},
    {NULL, "15", "BRASS", "EUROPE"},
    {NULL, "BUILDING", "1995-03-15"},
    {NULL, "1993-07-01"},
    {NULL, "ASIA", "1994-01-01"},
    {NULL, "1994-01-01", ".06", "24"},
    {NULL, "FRANCE", "GERMANY"},
    {NULL, "BRAZIL", "AMERICA", "ECONOMY ANODIZED STEEL"},
    {NULL, "green"},
    {NULL, "1993-10-01"},
    {NULL, "GERMANY", NULL},
    {NULL, "MAIL", "SHIP", "1994-01-01"},
    {NULL, "special", "requests"},
    {NULL, "1995-09-01"},
    {NULL, "1996-01-01"},
    {NULL, "Brand#45", "MEDIUM POLISHED", "49", "14", "23", "45", "19", "3", "36", "9"},
    {NULL, "Brand#23", "MED BOX"},
    {NULL, "300"},
    {NULL, "Brand#12", "Brand#23", "Brand#34", "1", "10", "20"},
    {NULL, "forest", "1994-01-01", "CANADA"},
    {NULL, "SAUDI ARABIA"},
    {NULL, "13", "31", "23", "29", "30", "18", "17"},
};

static const int nparams[QRY_COUNT + 1] = {0, 1, 3, 2, 1,  2, 3, 2, 3, 1, 1, 2,
					   3, 2, 1, 1, 10, 2, 1, 6, 3, 1, 7};

/* qgen's Q13 word lists (not in dists.dss: members weigh 20 and 40 each, which scales the draw
 * but not the choice probabilities). The other lists are dbgen's (dbt3/gen_dists.c). */
static const char *const q13a[] = {"special", "pending", "unusual", "express"};
static const char *const q13b[] = {"packages", "requests", "accounts", "deposits"};

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define PLEN 64

static const char *dist_text(enum gen_dist_id d, int i)
{
	return gen_dists[d].list[i].text;
}

/* dbgen's UnifInt() on the query's stream. */
static int64_t unif(struct gen_rng *st, int64_t low, int64_t high)
{
	return gen_rng_int(st, (int32_t)low, (int32_t)high);
}

/* dbgen's pick_str() over n members of equal weight w: draws in [1, n*w]. qgen picks from every
 * list with equal weights (nations from "nations2"), so only the length of a list counts. */
static int pick(struct gen_rng *st, int n, int w)
{
	int64_t j = unif(st, 1, (int64_t)n * w);
	return (int)((j - 1) / w);
}

/* A uniform pick of one member of dbgen list d. */
static const char *pick_text(struct gen_rng *st, enum gen_dist_id d)
{
	return dist_text(d, pick(st, gen_dists[d].count, 1));
}

/* Region of nation i: the cumulative "nations" weights of dists.dss (as the generator reads them). */
static int nation_region(int i)
{
	int acc = 0;
	for (int k = 0; k <= i; k++)
		acc += gen_dists[GEN_DIST_NATIONS].list[k].weight;
	return acc;
}

/* dbgen's permute(): a Fisher-Yates pass with swaps drawn from [i, n-1]. */
static void permute(struct gen_rng *st, long *a, int n)
{
	for (int i = 0; i < n; i++) {
		int64_t s = unif(st, i, n - 1);
		long t = a[s];
		a[s] = a[i];
		a[i] = t;
	}
}

static void month_date(char *out, int64_t t)
{
	snprintf(out, PLEN, "19%02" PRId64 "-%02" PRId64 "-01", 93 + t / 12, t % 12 + 1);
}

static void year_date(char *out, struct gen_rng *st)
{
	snprintf(out, PLEN, "19%02" PRId64 "-01-01", unif(st, 93, 97));
}

static void brand(char *out, struct gen_rng *st)
{
	int64_t a = unif(st, 1, 5);
	int64_t b = unif(st, 1, 5);
	snprintf(out, PLEN, "Brand#%" PRId64 "%" PRId64, a, b);
}

/* Words [from, to) of a space-separated p_types member ("SMALL PLATED BRASS"). */
static void type_words(char *out, int i, int from, int to)
{
	const char *s = dist_text(GEN_DIST_P_TYPES, i);
	int w = 0;
	size_t o = 0;
	for (; *s && w < to; s++) {
		if (*s == ' ') {
			w++;
			if (w > from && w < to && o + 1 < PLEN)
				out[o++] = ' ';
		} else if (w >= from && o + 1 < PLEN) {
			out[o++] = *s;
		}
	}
	out[o] = '\0';
}

/* Two different members of list d, the second drawn again until it differs (qgen Q7, Q12). */
static void pick_two(char *out1, char *out2, struct gen_rng *st, enum gen_dist_id d)
{
	int n = gen_dists[d].count;
	int i = pick(st, n, 1), j;
	while ((j = pick(st, n, 1)) == i)
		;
	snprintf(out1, PLEN, "%s", dist_text(d, i));
	snprintf(out2, PLEN, "%s", dist_text(d, j));
}

static void draw_q8(char p[][PLEN], struct gen_rng *st)
{
	int i = pick(st, gen_dists[GEN_DIST_NATIONS].count, 1);
	snprintf(p[1], PLEN, "%s", dist_text(GEN_DIST_NATIONS, i));
	snprintf(p[2], PLEN, "%s", dist_text(GEN_DIST_REGIONS, nation_region(i)));
	snprintf(p[3], PLEN, "%s", pick_text(st, GEN_DIST_P_TYPES));
}

static void draw_q16(char p[][PLEN], struct gen_rng *st)
{
	brand(p[1], st);
	type_words(p[2], pick(st, gen_dists[GEN_DIST_P_TYPES].count, 1), 0, 2);
	long sizes[50];
	for (int k = 0; k < 50; k++)
		sizes[k] = k + 1;
	permute(st, sizes, 50);
	for (int k = 3; k <= 10; k++)
		snprintf(p[k], PLEN, "%ld", sizes[k - 3]);
}

static void draw_q19(char p[][PLEN], struct gen_rng *st)
{
	for (int k = 1; k <= 3; k++)
		brand(p[k], st);
	snprintf(p[4], PLEN, "%" PRId64, unif(st, 1, 10));
	snprintf(p[5], PLEN, "%" PRId64, unif(st, 10, 20));
	snprintf(p[6], PLEN, "%" PRId64, unif(st, 20, 30));
}

static void draw_q22(char p[][PLEN], struct gen_rng *st)
{
	long cc[25];
	for (int k = 0; k < 25; k++)
		cc[k] = k;
	permute(st, cc, 25);
	for (int k = 0; k < 7; k++)
		snprintf(p[k + 1], PLEN, "%ld", 10 + cc[k]);
}

/* Queries 1-11: varsub(qnum, 0, flags) without DFLT. */
static void draw_q1_q11(char p[][PLEN], int id, struct gen_rng *st)
{
	switch (id) {
	case 1:
		snprintf(p[1], PLEN, "%" PRId64, unif(st, 60, 120));
		break;
	case 2:
		snprintf(p[1], PLEN, "%" PRId64, unif(st, 1, 50));
		type_words(p[2], pick(st, gen_dists[GEN_DIST_P_TYPES].count, 1), 2, 3);
		snprintf(p[3], PLEN, "%s", pick_text(st, GEN_DIST_REGIONS));
		break;
	case 3:
		snprintf(p[1], PLEN, "%s", pick_text(st, GEN_DIST_MSEGMNT));
		snprintf(p[2], PLEN, "1995-03-%02" PRId64, unif(st, 0, 30) + 1);
		break;
	case 4:
		month_date(p[1], unif(st, 0, 57));
		break;
	case 5:
		snprintf(p[1], PLEN, "%s", pick_text(st, GEN_DIST_REGIONS));
		year_date(p[2], st);
		break;
	case 6:
		year_date(p[1], st);
		snprintf(p[2], PLEN, "0.%02" PRId64, unif(st, 2, 9));
		snprintf(p[3], PLEN, "%" PRId64, unif(st, 24, 25));
		break;
	case 7:
		pick_two(p[1], p[2], st, GEN_DIST_NATIONS);
		break;
	case 8:
		draw_q8(p, st);
		break;
	case 9:
		snprintf(p[1], PLEN, "%s", pick_text(st, GEN_DIST_COLORS));
		break;
	case 10:
		month_date(p[1], unif(st, 1, 24));
		break;
	case 11:
		snprintf(p[1], PLEN, "%s", pick_text(st, GEN_DIST_NATIONS));
		break;
	}
}

/* Queries 12-22: varsub(qnum, 0, flags) without DFLT. */
static void draw_q12_q22(char p[][PLEN], int id, struct gen_rng *st)
{
	switch (id) {
	case 12:
		pick_two(p[1], p[2], st, GEN_DIST_SMODE);
		year_date(p[3], st);
		break;
	case 13:
		snprintf(p[1], PLEN, "%s", q13a[pick(st, NELEM(q13a), 20)]);
		snprintf(p[2], PLEN, "%s", q13b[pick(st, NELEM(q13b), 40)]);
		break;
	case 14:
		month_date(p[1], unif(st, 0, 59));
		break;
	case 15:
		month_date(p[1], unif(st, 0, 57));
		break;
	case 16:
		draw_q16(p, st);
		break;
	case 17:
		brand(p[1], st);
		snprintf(p[2], PLEN, "%s", pick_text(st, GEN_DIST_P_CNTR));
		break;
	case 18:
		snprintf(p[1], PLEN, "%" PRId64, unif(st, 312, 315));
		break;
	case 19:
		draw_q19(p, st);
		break;
	case 20:
		snprintf(p[1], PLEN, "%s", pick_text(st, GEN_DIST_COLORS));
		year_date(p[2], st);
		snprintf(p[3], PLEN, "%s", pick_text(st, GEN_DIST_NATIONS));
		break;
	case 21:
		snprintf(p[1], PLEN, "%s", pick_text(st, GEN_DIST_NATIONS));
		break;
	case 22:
		draw_q22(p, st);
		break;
	}
}

/* varsub(qnum, 0, flags) without DFLT: draws the parameters of query id from its stream. */
static void draw(char p[][PLEN], int id, struct gen_rng *st)
{
	if (id <= 11)
		draw_q1_q11(p, id, st);
	else
		draw_q12_q22(p, id, st);
}

/* Replaces ":N" in tmpl with p[N]; caller frees. */
static char *substitute(const char *tmpl, char p[][64], int np)
{
	size_t cap = strlen(tmpl) + 1;
	for (const char *s = tmpl; *s; s++)
		if (*s == ':' && isdigit((unsigned char)s[1]))
			cap += 64;
	char *out = malloc(cap), *o = out;
	if (!out)
		return NULL;
	for (const char *s = tmpl; *s;) {
		if (*s == ':' && isdigit((unsigned char)s[1])) {
			char *end;
			long k = strtol(s + 1, &end, 10);
			if (k >= 1 && k <= np) {
				size_t len = strlen(p[k]);
				memcpy(o, p[k], len);
				o += len;
				s = end;
				continue;
			}
		}
		*o++ = *s++;
	}
	*o = '\0';
	return out;
}

int qry_build(struct qry *out, int id, const struct qry_opts *opts, struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	if (id < 1 || id > QRY_COUNT)
		return errbuf_set(err, "no query %d: queries are numbered 1 to %d", id, QRY_COUNT);
	if (!(opts->sf > 0))
		return errbuf_set(err, "invalid scale factor %g", opts->sf);
	if (opts->seeded && (opts->seed % GEN_RNG_MOD == 0 || opts->seed <= -GEN_RNG_MOD))
		return errbuf_set(err, "seed %ld: the Park-Miller stream stays at 0", opts->seed);
	out->id = id;
	out->nparams = nparams[id];
	if (opts->seeded) {
		/* qgen main(): Seed[0] = rndm; Seed[i] = NextRand^i(rndm) for query i. */
		struct gen_rng st = {.seed = opts->seed < 0 ? opts->seed + GEN_RNG_MOD : opts->seed};
		for (int i = 1; i <= id; i++)
			gen_rng_next(&st);
		draw(out->params, id, &st);
	} else {
		for (int k = 1; k <= out->nparams; k++)
			if (defaults[id][k])
				snprintf(out->params[k], sizeof(out->params[k]), "%s",
					 defaults[id][k]);
	}
	if (id == 11)
		snprintf(out->params[2], sizeof(out->params[2]), "%11.10f", 0.0001 / opts->sf);
	out->sql = substitute(qry_template(id), out->params, out->nparams);
	if (id == 15) {
		out->pre = substitute(qry_q15_pre, out->params, out->nparams);
		out->post = strdup(qry_q15_post);
	}
	if (!out->sql || (id == 15 && (!out->pre || !out->post))) {
		qry_release(out);
		return errbuf_set(err, "out of memory");
	}
	return 0;
}

void qry_release(struct qry *q)
{
	if (!q)
		return;
	free(q->pre);
	free(q->sql);
	free(q->post);
	q->pre = q->sql = q->post = NULL;
}

char *qry_text(const struct qry *q)
{
	size_t n = 32 + strlen(q->sql) + (q->pre ? strlen(q->pre) : 0) +
		   (q->post ? strlen(q->post) : 0) + 8;
	char *s = malloc(n);
	if (!s)
		return NULL;
	int len = snprintf(s, n, "-- Q%d\n", q->id);
	if (q->pre)
		len += snprintf(s + len, n - (size_t)len, "%s;\n", q->pre);
	len += snprintf(s + len, n - (size_t)len, "%s;\n", q->sql);
	if (q->post)
		snprintf(s + len, n - (size_t)len, "%s;\n", q->post);
	return s;
}

void qry_sha256(char out[65], const struct qry *q)
{
	char *t = qry_text(q);
	if (!t) {
		out[0] = '\0';
		return;
	}
	util_sha256_hex(out, t, strlen(t));
	free(t);
}

static int is_frac_field(const MYSQL_FIELD *f)
{
	switch (f->type) {
	case MYSQL_TYPE_DECIMAL:
	case MYSQL_TYPE_NEWDECIMAL:
		return f->decimals > 0;
	case MYSQL_TYPE_FLOAT:
	case MYSQL_TYPE_DOUBLE:
		return 1;
	default:
		return 0;
	}
}

int qry_result_columns(struct qry_result *r, const MYSQL_FIELD *fields, unsigned n)
{
	r->ncols = n;
	r->names = calloc(n ? n : 1, sizeof(char *));
	r->is_frac = calloc(n ? n : 1, sizeof(int));
	if (!r->names || !r->is_frac)
		return -1;
	for (unsigned c = 0; c < n; c++) {
		r->is_frac[c] = is_frac_field(&fields[c]);
		if (!(r->names[c] = strdup(fields[c].name)))
			return -1;
	}
	return 0;
}

int qry_result_add_row(struct qry_result *r, char *const *row, const unsigned long *len)
{
	if (r->nrows == r->cap) {
		uint64_t cap = r->cap ? 2 * r->cap : 64;
		char ***rows = realloc(r->rows, cap * sizeof(*rows));
		if (!rows)
			return -1;
		r->rows = rows;
		r->cap = cap;
	}
	char **cells = calloc(r->ncols ? r->ncols : 1, sizeof(char *));
	if (!cells)
		return -1;
	r->rows[r->nrows++] = cells;
	for (unsigned c = 0; c < r->ncols; c++) {
		if (!row[c])
			continue;
		if (!(cells[c] = malloc(len[c] + 1)))
			return -1;
		memcpy(cells[c], row[c], len[c]);
		cells[c][len[c]] = '\0';
	}
	return 0;
}

void qry_result_release(struct qry_result *r)
{
	if (!r)
		return;
	for (uint64_t i = 0; i < r->nrows; i++) {
		for (unsigned c = 0; c < r->ncols; c++)
			free(r->rows[i][c]);
		free(r->rows[i]);
	}
	free(r->rows);
	if (r->names)
		for (unsigned c = 0; c < r->ncols; c++)
			free(r->names[c]);
	free(r->names);
	free(r->is_frac);
	memset(r, 0, sizeof(*r));
}

void qry_round2(char *out, size_t n, const char *s)
{
	const char *p = s;
	int neg = 0;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	const char *ip = p;
	while (isdigit((unsigned char)*p))
		p++;
	size_t ilen = (size_t)(p - ip);
	const char *fp = NULL;
	size_t flen = 0;
	if (*p == '.') {
		fp = ++p;
		while (isdigit((unsigned char)*p))
			p++;
		flen = (size_t)(p - fp);
	}
	if (*p != '\0' || ilen + flen == 0 || ilen > 60) {
		snprintf(out, n, "%s", s);
		return;
	}
	/* digits = integer part and two decimals, as one number; then round on the third decimal */
	char d[72];
	size_t k = 0;
	d[k++] = '0'; /* room for a carry */
	for (size_t i = 0; i < ilen; i++)
		d[k++] = ip[i];
	for (size_t i = 0; i < 2; i++)
		d[k++] = i < flen ? fp[i] : '0';
	if (flen > 2 && fp[2] >= '5')
		for (size_t i = k; i-- > 0;) {
			if (d[i] == '9') {
				d[i] = '0';
				continue;
			}
			d[i]++;
			break;
		}
	d[k] = '\0';
	size_t start = 0;
	while (start < k - 3 && d[start] == '0')
		start++;
	int zero = 1;
	for (size_t i = start; i < k; i++)
		if (d[i] != '0')
			zero = 0;
	snprintf(out, n, "%s%.*s.%.2s", neg && !zero ? "-" : "", (int)(k - 2 - start), d + start,
		 d + k - 2);
}

int qry_format_parse(const char *s, enum qry_format *out)
{
	if (strcmp(s, "table") == 0)
		*out = QRY_FORMAT_TABLE;
	else if (strcmp(s, "tbl") == 0)
		*out = QRY_FORMAT_TBL;
	else if (strcmp(s, "json") == 0)
		*out = QRY_FORMAT_JSON;
	else
		return -1;
	return 0;
}

static const char *cell_text(const struct qry_result *r, uint64_t i, unsigned c, char *buf,
			     size_t n, int round)
{
	const char *v = r->rows[i][c];
	if (!v)
		return "NULL";
	if (round && r->is_frac[c]) {
		qry_round2(buf, n, v);
		return buf;
	}
	return v;
}

static int print_table(FILE *f, const struct qry_result *r)
{
	size_t *w = calloc(r->ncols ? r->ncols : 1, sizeof(size_t));
	if (!w)
		return -1;
	for (unsigned c = 0; c < r->ncols; c++)
		w[c] = strlen(r->names[c]);
	for (uint64_t i = 0; i < r->nrows; i++)
		for (unsigned c = 0; c < r->ncols; c++) {
			size_t l = strlen(r->rows[i][c] ? r->rows[i][c] : "NULL");
			if (l > w[c])
				w[c] = l;
		}
	for (unsigned c = 0; c < r->ncols; c++)
		fprintf(f, "%s%-*s", c ? "  " : "", (int)w[c], r->names[c]);
	fputc('\n', f);
	for (unsigned c = 0; c < r->ncols; c++) {
		fputs(c ? "  " : "", f);
		for (size_t k = 0; k < w[c]; k++)
			fputc('-', f);
	}
	fputc('\n', f);
	for (uint64_t i = 0; i < r->nrows; i++) {
		for (unsigned c = 0; c < r->ncols; c++) {
			const char *v = r->rows[i][c] ? r->rows[i][c] : "NULL";
			int num = r->rows[i][c] && (isdigit((unsigned char)v[0]) || v[0] == '-');
			fprintf(f, num ? "%s%*s" : "%s%-*s", c ? "  " : "", (int)w[c], v);
		}
		fputc('\n', f);
	}
	free(w);
	return 0;
}

static int print_json(FILE *f, const struct qry_result *r, int id)
{
	json_t *o = json_object(), *cols = json_array(), *rows = json_array();
	json_object_set_new(o, "query", json_integer(id));
	json_object_set_new(o, "seconds", json_real(r->seconds));
	json_object_set_new(o, "row_count", json_integer((json_int_t)r->nrows));
	for (unsigned c = 0; c < r->ncols; c++)
		json_array_append_new(cols, json_string(r->names[c]));
	for (uint64_t i = 0; i < r->nrows; i++) {
		json_t *row = json_array();
		for (unsigned c = 0; c < r->ncols; c++)
			json_array_append_new(row, r->rows[i][c] ? json_string(r->rows[i][c])
								 : json_null());
		json_array_append_new(rows, row);
	}
	json_object_set_new(o, "columns", cols);
	json_object_set_new(o, "rows", rows);
	int rc = json_dumpf(o, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(o);
	return rc;
}

int qry_result_print(FILE *f, const struct qry_result *r, int id, enum qry_format fmt)
{
	char buf[80];
	int rc = 0;
	switch (fmt) {
	case QRY_FORMAT_TABLE:
		rc = print_table(f, r);
		break;
	case QRY_FORMAT_JSON:
		rc = print_json(f, r, id);
		break;
	case QRY_FORMAT_TBL:
		for (unsigned c = 0; c < r->ncols; c++)
			fprintf(f, "%s%s", c ? "|" : "", r->names[c]);
		fputc('\n', f);
		for (uint64_t i = 0; i < r->nrows; i++) {
			for (unsigned c = 0; c < r->ncols; c++)
				fprintf(f, "%s%s", c ? "|" : "",
					cell_text(r, i, c, buf, sizeof(buf), 1));
			fputc('\n', f);
		}
		break;
	}
	return rc < 0 || ferror(f) ? -1 : 0;
}
