/* SPDX-License-Identifier: MIT */
/* DBT-3 data generator: TPC-H dbgen's algorithm (per-column Park-Miller streams that advance a
 * fixed number of draws per row, a 300 MiB grammar-built text pool), rewritten for speed. */
#include "dbt3/gen.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dbt3/gen_dists.h"
#include "dbt3/gen_rng.h"

/* ---- dbgen constants ---------------------------------------------------------------------- */
#define RND64_MULT 6364136223846793005ULL
#define TEXT_POOL_SIZE (300 * 1024 * 1024)
#define POOL_SLACK 1024
#define DATE_MIN 92001	   /* dbgen's STARTDATE as a linear day number */
#define DATE_TOTAL 2557	   /* 1992-01-01 .. 1998-12-31 */
#define DATE_CURRENT 93264 /* 1995-06-17 (dbgen CURRENTDATE 95168) in linear days */
#define ORDER_DATE_MAX (DATE_MIN + DATE_TOTAL - 151 - 1)
#define SCALE_MAX 100000.0

/* ---- random streams ----------------------------------------------------------------------- */

/* dbgen NthElement: advances a seed by n draws. Written with the same (wrapping) arithmetic as
 * dbgen so that it also gives dbgen's result on a 64-bit seed. */
static int64_t nth_element(int64_t seed, int64_t n)
{
	int64_t mult = GEN_RNG_MULT;
	int64_t z = seed;
	while (n > 0) {
		if (n % 2 != 0)
			z = (int64_t)((uint64_t)mult * (uint64_t)z) % GEN_RNG_MOD;
		n /= 2;
		mult = (mult * mult) % GEN_RNG_MOD;
	}
	return z;
}

static void rng_init(struct gen_rng *r, int64_t seed, int per_row)
{
	r->seed = seed;
	r->usage = 0;
	r->per_row = per_row;
}

/* Jumps to the start of row `rows` (0-based) from the initial seed. */
static void rng_skip_rows(struct gen_rng *r, int64_t rows)
{
	r->seed = nth_element(r->seed, (int64_t)r->per_row * rows);
	r->usage = 0;
}

/* UnifInt over a 64-bit range (keys beyond 2^31 rows). */
static inline int64_t rng_long(struct gen_rng *r, int64_t lo, int64_t hi)
{
	int64_t s = gen_rng_next(r);
	if (hi - lo + 1 < ((int64_t)1 << 32))
		return lo + gen_rng_scale(s, (uint64_t)(hi - lo + 1));
	double range = (double)(hi - lo + 1);
	return lo + (int64_t)(((double)s / (double)GEN_RNG_MOD) * range);
}

/* dbgen's RANDOM(x, 0, MAX_LONG): the range overflows to -2^31 in 32 bits. */
static inline int64_t rng_int_maxlong(struct gen_rng *r)
{
	int64_t s = gen_rng_next(r);
	return (int64_t)(((double)s / (double)GEN_RNG_MOD) * -2147483648.0);
}

/* 16807^k mod M for the per-row skips; a constant table, filled once (pthread_once). */
static int64_t pow_table[256];
static pthread_once_t pow_once = PTHREAD_ONCE_INIT;

static void pow_table_fill(void)
{
	pow_table[0] = 1;
	for (int i = 1; i < 256; i++)
		pow_table[i] = gen_rng_mod((uint64_t)pow_table[i - 1] * GEN_RNG_MULT);
}

static inline void rng_row_done(struct gen_rng *r)
{
	int32_t left = r->per_row - r->usage;
	if (left > 0)
		r->seed = gen_rng_mod((uint64_t)r->seed * (uint64_t)pow_table[left]);
	r->usage = 0;
}

/* The 64-bit stream dbgen uses for o_custkey and l_partkey at scale >= 30000. */
static inline int64_t rng64_long(struct gen_rng *r, int64_t lo, int64_t hi)
{
	r->seed = (int64_t)((uint64_t)r->seed * RND64_MULT + 1);
	r->usage++;
	int64_t t = r->seed;
	if (t < 0)
		t = (int64_t)(0 - (uint64_t)t);
	t %= (hi - lo + 1);
	return lo + t;
}

static inline void rng64_row_done(struct gen_rng *r)
{
	r->seed = nth_element(r->seed, r->per_row - r->usage);
	r->usage = 0;
}

/* ---- distributions ------------------------------------------------------------------------ */

/* A distribution expanded for O(1) weighted picks: pick[r] is the index for draw r in [0, total).
 */
struct dist {
	const char **text;
	char (*pad)[32]; /* the values NUL-padded to 32 bytes, for fixed-size copies */
	uint8_t *len;
	uint16_t *pick;
	int count;
	int total;
};

static int dist_build(struct dist *d, const struct gen_dist *src)
{
	int total = 0;
	for (int i = 0; i < src->count; i++)
		total += src->list[i].weight;
	d->count = src->count;
	d->total = total;
	d->text = malloc(sizeof(*d->text) * (size_t)src->count);
	d->len = malloc((size_t)src->count);
	d->pick = malloc(sizeof(*d->pick) * (size_t)(total > 0 ? total : 1));
	d->pad = calloc((size_t)src->count, sizeof(*d->pad));
	if (!d->text || !d->len || !d->pick || !d->pad)
		return -1;
	int k = 0;
	for (int i = 0; i < src->count; i++) {
		d->text[i] = src->list[i].text;
		d->len[i] = (uint8_t)strlen(src->list[i].text);
		memcpy(d->pad[i], src->list[i].text, d->len[i]);
		for (int w = 0; w < src->list[i].weight; w++)
			d->pick[k++] = (uint16_t)i;
	}
	return 0;
}

static void dist_release(struct dist *d)
{
	free(d->text);
	free(d->len);
	free(d->pick);
	free(d->pad);
}

/* dbgen pick_str. */
static inline int dist_pick(const struct dist *d, struct gen_rng *r)
{
	return d->pick[gen_rng_int(r, 0, d->total - 1)];
}

/* ---- context ------------------------------------------------------------------------------ */

struct gen_ctx {
	double sf;
	int64_t scale; /* dbgen's integer `scale` (1 below SF 1) */
	int64_t rows[GEN_NTABLES];
	int64_t nsupp, npart, ncust;
	int use64;
	struct dist d[GEN_DIST_COUNT];
	char *pool;
	size_t pool_map;
	char dates[DATE_TOTAL][10];
	int nation_region[25];
};

/* The grammar walk that writes the text pool: one stream, sentence after sentence. Words are
 * copied 16 bytes at a time (the tail is overwritten by what follows) except near `safe`, the end
 * of a segment another thread writes after. */
struct poolgen {
	const struct dist *d;
	struct gen_rng r;
	char *p;
	char *safe;
};

static inline void pg_word(struct poolgen *g, int id)
{
	const struct dist *d = &g->d[id];
	int i = dist_pick(d, &g->r);
	if (g->p < g->safe)
		memcpy(g->p, d->pad[i], 16);
	else
		memcpy(g->p, d->pad[i], d->len[i]);
	g->p += d->len[i];
}

static void pg_noun_phrase(struct poolgen *g)
{
	const struct dist *np = &g->d[GEN_DIST_NP];
	const char *syn = np->text[dist_pick(np, &g->r)];
	for (; *syn; syn++) {
		int id;
		switch (*syn) {
		case 'A':
			id = GEN_DIST_ARTICLES;
			break;
		case 'J':
			id = GEN_DIST_ADJECTIVES;
			break;
		case 'D':
			id = GEN_DIST_ADVERBS;
			break;
		case 'N':
			id = GEN_DIST_NOUNS;
			break;
		case ',':
			g->p[-1] = ',';
			*g->p++ = ' ';
			continue;
		default:
			continue;
		}
		pg_word(g, id);
		*g->p++ = ' ';
	}
}

static void pg_verb_phrase(struct poolgen *g)
{
	const struct dist *vp = &g->d[GEN_DIST_VP];
	const char *syn = vp->text[dist_pick(vp, &g->r)];
	for (; *syn; syn += 2) {
		int id = *syn == 'D'   ? GEN_DIST_ADVERBS
			 : *syn == 'V' ? GEN_DIST_VERBS
				       : GEN_DIST_AUXILLARIES;
		pg_word(g, id);
		*g->p++ = ' ';
		if (!syn[1])
			break;
	}
}

static void pg_sentence(struct poolgen *g)
{
	const struct dist *gr = &g->d[GEN_DIST_GRAMMAR];
	const char *syn = gr->text[dist_pick(gr, &g->r)];
	for (; *syn; syn += 2) {
		switch (*syn) {
		case 'V':
			pg_verb_phrase(g);
			break;
		case 'N':
			pg_noun_phrase(g);
			break;
		case 'P':
			pg_word(g, GEN_DIST_PREPOSITIONS);
			memcpy(g->p, " the ", 5);
			g->p += 5;
			pg_noun_phrase(g);
			break;
		case 'T':
			g->p--;
			pg_word(g, GEN_DIST_TERMINATORS);
			break;
		}
		if (g->p[-1] != ' ')
			*g->p++ = ' ';
		if (!syn[1])
			break;
	}
}

/* The pool is one sequential walk, but a sentence depends only on the stream's seed at its start.
 * These are the byte offsets and seeds of the sentences that start nearest to k/16 of the pool
 * (k = 1..15), recorded once from the sequential walk; with them the 16 segments are written in
 * parallel, byte-identical to the sequential pool (the tests compare both). */
#define POOL_SEGMENTS 16
static const struct {
	int64_t off, seed;
} pool_splits[POOL_SEGMENTS - 1] = {
    {19660810, 563391851},   {39321619, 374858592},   {58982448, 1037153816},
    {78643223, 123793686},   {98304011, 181171974},   {117964817, 1062410537},
    {137625648, 652432975},  {157286442, 400078567},  {176947229, 46453828},
    {196608019, 1105413057}, {216268868, 1956087994}, {235929648, 1407925218},
    {255590452, 1660456561}, {275251227, 42055684},   {294912013, 2013011059},
};

struct pool_job {
	struct gen_ctx *ctx;
	int segs_from, segs_step; /* segments segs_from, +step, ... */
	int failed;
};

/* Writes one segment; -1 if it does not end exactly where the next one starts. */
static int pool_segment(struct gen_ctx *ctx, int k)
{
	int64_t start = k == 0 ? 0 : pool_splits[k - 1].off;
	int64_t seed = k == 0 ? 933588178 : pool_splits[k - 1].seed;
	int last = k == POOL_SEGMENTS - 1;
	char *end = ctx->pool + (last ? TEXT_POOL_SIZE : pool_splits[k].off);
	struct poolgen g = {.d = ctx->d, .p = ctx->pool + start};
	g.safe = last ? ctx->pool + ctx->pool_map - 64 : end - 64;
	rng_init(&g.r, seed, 0x7fffffff);
	while (g.p < end)
		pg_sentence(&g);
	return last || g.p == end ? 0 : -1;
}

static void *pool_worker(void *arg)
{
	struct pool_job *j = arg;
	for (int k = j->segs_from; k < POOL_SEGMENTS; k += j->segs_step)
		if (pool_segment(j->ctx, k) < 0)
			j->failed = 1;
	return NULL;
}

static int pool_build(struct gen_ctx *ctx, int threads)
{
	size_t want = (size_t)TEXT_POOL_SIZE + POOL_SLACK;
	void *m = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return -1;
#ifdef MADV_HUGEPAGE
	madvise(m, want, MADV_HUGEPAGE);
#endif
	ctx->pool = m;
	ctx->pool_map = want;
	if (threads > POOL_SEGMENTS)
		threads = POOL_SEGMENTS;
	if (threads < 1)
		threads = 1;
	struct pool_job jobs[POOL_SEGMENTS];
	pthread_t tids[POOL_SEGMENTS];
	int started = 0;
	for (int t = 1; t < threads; t++) {
		jobs[t] = (struct pool_job){.ctx = ctx, .segs_from = t, .segs_step = threads};
		if (pthread_create(&tids[t], NULL, pool_worker, &jobs[t]) != 0)
			break;
		started = t;
	}
	/* this thread takes segment 0 and every segment no helper was started for */
	int failed = 0;
	for (int k = 0; k < POOL_SEGMENTS; k++) {
		int owner = k % threads;
		if (owner == 0 || owner > started)
			failed |= pool_segment(ctx, k) < 0;
	}
	for (int t = 1; t <= started; t++) {
		pthread_join(tids[t], NULL);
		failed |= jobs[t].failed;
	}
	return failed ? -2 : 0;
}

static int is_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static void dates_build(struct gen_ctx *ctx)
{
	static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int y = 1992, m = 0, d = 1;
	for (int i = 0; i < DATE_TOTAL; i++) {
		char *s = ctx->dates[i];
		s[0] = (char)('0' + y / 1000);
		s[1] = (char)('0' + y / 100 % 10);
		s[2] = (char)('0' + y / 10 % 10);
		s[3] = (char)('0' + y % 10);
		s[4] = '-';
		s[5] = (char)('0' + (m + 1) / 10);
		s[6] = (char)('0' + (m + 1) % 10);
		s[7] = '-';
		s[8] = (char)('0' + d / 10);
		s[9] = (char)('0' + d % 10);
		int ml = mdays[m] + (m == 1 && is_leap(y));
		if (++d > ml) {
			d = 1;
			if (++m == 12) {
				m = 0;
				y++;
			}
		}
	}
}

static const int64_t table_base[GEN_NTABLES] = {
    [GEN_CUSTOMER] = 150000, [GEN_LINEITEM] = 1500000, [GEN_NATION] = 25, [GEN_ORDERS] = 1500000,
    [GEN_PART] = 200000,     [GEN_PARTSUPP] = 200000,  [GEN_REGION] = 5,  [GEN_SUPPLIER] = 10000,
};

int gen_ctx_new(struct gen_ctx **out, double sf, struct errbuf *err)
{
	return gen_ctx_new_threads(out, sf, 0, err);
}

int gen_ctx_new_threads(struct gen_ctx **out, double sf, int threads, struct errbuf *err)
{
	if (threads <= 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		threads = n < 1 ? 1 : (int)n;
	}
	*out = NULL;
	if (!(sf > 0) || !isfinite(sf) || sf > SCALE_MAX)
		return errbuf_set(err, "scale factor %g is out of range (0, %.0f]", sf, SCALE_MAX);
	struct gen_ctx *ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return errbuf_set(err, "out of memory");
	ctx->sf = sf;
	pthread_once(&pow_once, pow_table_fill);

	/* dbgen: below SF 1, scale = 1 and the base counts are scaled by (int)(1000 * sf) / 1000;
	 * otherwise scale = (long)sf. */
	int64_t base[GEN_NTABLES];
	memcpy(base, table_base, sizeof(base));
	if (sf < 1.0) {
		int64_t is = (int64_t)(int)(1000 * sf);
		ctx->scale = 1;
		for (int t = 0; t < GEN_NTABLES; t++) {
			if (t == GEN_NATION || t == GEN_REGION)
				continue;
			base[t] = is * base[t] / 1000;
			if (base[t] < 1)
				base[t] = 1;
		}
	} else {
		ctx->scale = (int64_t)sf;
	}
	for (int t = 0; t < GEN_NTABLES; t++)
		ctx->rows[t] =
		    (t == GEN_NATION || t == GEN_REGION) ? base[t] : base[t] * ctx->scale;
	ctx->nsupp = ctx->rows[GEN_SUPPLIER];
	ctx->npart = ctx->rows[GEN_PART];
	ctx->ncust = ctx->rows[GEN_CUSTOMER];
	ctx->use64 = ctx->scale >= 30000;

	for (int i = 0; i < GEN_DIST_COUNT; i++) {
		if (i == GEN_DIST_NATIONS)
			continue; /* weights are region adjustments, not a distribution */
		if (dist_build(&ctx->d[i], &gen_dists[i]) < 0) {
			gen_ctx_free(ctx);
			return errbuf_set(err, "out of memory");
		}
	}
	int acc = 0;
	for (int i = 0; i < 25; i++) {
		acc += gen_dists[GEN_DIST_NATIONS].list[i].weight;
		ctx->nation_region[i] = acc;
	}
	dates_build(ctx);
	int prc = pool_build(ctx, threads);
	if (prc < 0) {
		gen_ctx_free(ctx);
		if (prc == -2)
			return errbuf_set(err, "internal error: text pool segments do not line up");
		return errbuf_set(err, "cannot allocate the %d MiB text pool",
				  TEXT_POOL_SIZE >> 20);
	}
	*out = ctx;
	return 0;
}

void gen_ctx_free(struct gen_ctx *ctx)
{
	if (!ctx)
		return;
	for (int i = 0; i < GEN_DIST_COUNT; i++)
		dist_release(&ctx->d[i]);
	if (ctx->pool)
		munmap(ctx->pool, ctx->pool_map);
	free(ctx);
}

double gen_ctx_scale(const struct gen_ctx *ctx)
{
	return ctx->sf;
}

int64_t gen_rows(const struct gen_ctx *ctx, enum gen_table t)
{
	if ((int)t < 0 || t >= GEN_NTABLES)
		return 0;
	return ctx->rows[t];
}

static const char *const table_names[GEN_NTABLES] = {
    "customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier",
};

const char *gen_table_name(enum gen_table t)
{
	return ((int)t >= 0 && t < GEN_NTABLES) ? table_names[t] : "?";
}

int gen_table_parse(const char *name, enum gen_table *out)
{
	for (int t = 0; t < GEN_NTABLES; t++) {
		if (strcmp(name, table_names[t]) == 0) {
			*out = (enum gen_table)t;
			return 0;
		}
	}
	return -1;
}

/* ---- text output helpers ------------------------------------------------------------------ */

static const char digits2[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static inline char *put_u64(char *p, uint64_t v)
{
	char tmp[24];
	char *e = tmp + sizeof(tmp), *s = e;
	while (v >= 100) {
		unsigned k = (unsigned)(v % 100) * 2;
		v /= 100;
		s -= 2;
		s[0] = digits2[k];
		s[1] = digits2[k + 1];
	}
	if (v >= 10) {
		s -= 2;
		s[0] = digits2[v * 2];
		s[1] = digits2[v * 2 + 1];
	} else {
		*--s = (char)('0' + v);
	}
	size_t n = (size_t)(e - s);
	memcpy(p, s, n);
	return p + n;
}

static inline char *put_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return put_u64(p, (uint64_t)0 - (uint64_t)v);
	}
	return put_u64(p, (uint64_t)v);
}

/* dbgen's money format: cents as [-]D.CC */
static inline char *put_money(char *p, int64_t cents)
{
	if (cents < 0) {
		*p++ = '-';
		cents = -cents;
	}
	p = put_u64(p, (uint64_t)(cents / 100));
	unsigned c = (unsigned)(cents % 100) * 2;
	*p++ = '.';
	*p++ = digits2[c];
	*p++ = digits2[c + 1];
	return p;
}

/* Zero-padded to 9 digits (dbgen "%09ld"), wider when needed. */
static inline char *put_u64_09(char *p, uint64_t v)
{
	if (v >= 1000000000ULL)
		return put_u64(p, v);
	for (int i = 8; i >= 0; i--) {
		p[i] = (char)('0' + v % 10);
		v /= 10;
	}
	return p + 9;
}

static inline char *put_str(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

static inline char *put_date(char *p, const struct gen_ctx *ctx, int64_t d)
{
	memcpy(p, ctx->dates[d - DATE_MIN], 10);
	return p + 10;
}

/* dbgen TEXT(): a random slice of the pool, offset then length. */
struct textgen {
	struct gen_rng r;
	int32_t lo, hi;
};

static void text_init(struct textgen *t, int64_t seed, double avg, int rows_per_unit)
{
	rng_init(&t->r, seed, 2 * rows_per_unit);
	t->lo = (int32_t)(avg * 0.4);
	t->hi = (int32_t)(avg * 1.6);
}

/* A drawn comment: a slice of the pool (its copy is deferred, see stream_flush). */
struct textdraw {
	int32_t off, len;
};

static inline struct textdraw text_draw(const struct gen_ctx *ctx, struct textgen *t)
{
	struct textdraw d;
	d.off = gen_rng_int(&t->r, 0, TEXT_POOL_SIZE - t->hi);
	d.len = gen_rng_int(&t->r, t->lo, t->hi);
	(void)ctx;
	return d;
}

static inline char *put_text(char *p, const struct gen_ctx *ctx, struct textgen *t)
{
	int32_t off = gen_rng_int(&t->r, 0, TEXT_POOL_SIZE - t->hi);
	int32_t len = gen_rng_int(&t->r, t->lo, t->hi);
	memcpy(p, ctx->pool + off, (size_t)len);
	return p + len;
}

/* dbgen V_STR / a_rnd(): random alphanumerics, 5 characters per draw. */
static const char alnum[] = "0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,";

struct vstrgen {
	struct gen_rng r;
	int32_t lo, hi;
};

static void vstr_init(struct vstrgen *v, int64_t seed, int avg)
{
	rng_init(&v->r, seed, 9);
	v->lo = (int32_t)(avg * 0.4);
	v->hi = (int32_t)(avg * 1.6);
}

static inline char *put_vstr(char *p, struct vstrgen *v)
{
	int32_t len = gen_rng_int(&v->r, v->lo, v->hi);
	int64_t ci = 0;
	for (int32_t i = 0; i < len; i++) {
		if (i % 5 == 0)
			ci = rng_int_maxlong(&v->r);
		p[i] = alnum[ci & 077];
		ci >>= 6;
	}
	return p + len;
}

static inline char *put_phone(char *p, struct gen_rng *r, int64_t nation)
{
	int32_t a = gen_rng_int(r, 100, 999);
	int32_t b = gen_rng_int(r, 100, 999);
	int32_t c = gen_rng_int(r, 1000, 9999);
	int cc = (int)(10 + nation % 90);
	p[0] = digits2[cc * 2];
	p[1] = digits2[cc * 2 + 1];
	p[2] = '-';
	p[3] = (char)('0' + a / 100);
	p[4] = digits2[(a % 100) * 2];
	p[5] = digits2[(a % 100) * 2 + 1];
	p[6] = '-';
	p[7] = (char)('0' + b / 100);
	p[8] = digits2[(b % 100) * 2];
	p[9] = digits2[(b % 100) * 2 + 1];
	p[10] = '-';
	p[11] = digits2[(c / 100) * 2];
	p[12] = digits2[(c / 100) * 2 + 1];
	p[13] = digits2[(c % 100) * 2];
	p[14] = digits2[(c % 100) * 2 + 1];
	return p + 15;
}

#define SEP(p) (*(p)++ = '|')

/* ---- per-table state ---------------------------------------------------------------------- */

struct st_part {
	struct gen_rng name, mfgr, brand, type, size, cntr;
	struct textgen cmnt;
	struct textdraw ahead;
	uint8_t perm[92];
};

struct st_psupp {
	struct gen_rng qty, cost;
	struct textgen cmnt;
	struct textdraw ahead[4];
};

struct st_supp {
	struct vstrgen addr;
	struct gen_rng nation, phone, acct, bbb, junk, offset, type;
	struct textgen cmnt;
};

struct st_cust {
	struct vstrgen addr;
	struct gen_rng nation, phone, acct, mseg;
	struct textgen cmnt;
	struct textdraw ahead;
};

#ifndef ORDER_AHEAD
#define ORDER_AHEAD 1 /* orders whose date, line count and comments are drawn ahead */
#endif

struct st_order {
	struct gen_rng odate, lcnt, ckey, prio, clerk;
	struct textgen cmnt;
	struct gen_rng qty, disc, tax, pkey, sdate;
	struct gen_rng snum, cdate, rdate, rflag, instr, smode;
	struct textgen lcmnt;
	int64_t clerk_max;
	struct ord_ahead {
		int32_t odate, lcnt;
		struct textdraw ocmnt, lcmnt[7];
	} ahead[ORDER_AHEAD];
	int ahead_pos;
};

struct st_code {
	struct textgen cmnt;
};

/* A generator over units [next, last) of one table family. */
#define FIX_CAP 1024
#ifndef FIX_AHEAD
#define FIX_AHEAD 12
#endif

struct gen_stream {
	const struct gen_ctx *ctx;
	enum gen_table table; /* the family head: PART, ORDERS, or the table itself */
	int want_main, want_child;
	int trail;
	int64_t first, next, last;
	int64_t key_delta, key_seq; /* orders: key of unit i is mk_sparse(i + 1 + delta, seq) */
	union {
		struct {
			struct st_part part;
			struct st_psupp psupp;
		} p;
		struct st_supp supp;
		struct st_cust cust;
		struct st_order ord;
		struct st_code code;
	} u;
	/* pending output for small reads */
	char *pend;
	size_t pend_len, pend_off, pend_cap;
	/* comments whose room is reserved in the output, copied in batches (see stream_flush) */
	int nfix;
	struct fixup {
		char *dst;
		int32_t off, len;
	} fix[FIX_CAP];
};

/* Copies the reserved comments in from the pool. Each is a random read in 300 MiB; done as one
 * loop that prefetches a few entries ahead, the reads overlap instead of stalling the
 * formatting. Must run before the output buffer moves (realloc) or is handed out. */
static void stream_flush(struct gen_stream *s)
{
	const char *pool = s->ctx->pool;
	int n = s->nfix;
	for (int i = 0; i < n; i++) {
		if (i + FIX_AHEAD < n) {
			const struct fixup *f = &s->fix[i + FIX_AHEAD];
			__builtin_prefetch(pool + f->off);
			__builtin_prefetch(pool + f->off + f->len - 1);
		}
		memcpy(s->fix[i].dst, pool + s->fix[i].off, (size_t)s->fix[i].len);
	}
	s->nfix = 0;
}

/* Reserves room for a drawn comment at p; the text is copied in by stream_flush. */
static inline char *put_draw(struct gen_stream *s, char *p, struct textdraw d)
{
	if (s->nfix == FIX_CAP)
		stream_flush(s);
	s->fix[s->nfix++] = (struct fixup){p, d.off, d.len};
	return p + d.len;
}

static inline char *row_end(char *p, int trail)
{
	if (trail) {
		*p++ = '\n';
	} else {
		p[-1] = '\n';
	}
	return p;
}

static void part_init(struct gen_stream *s, int64_t start)
{
	struct st_part *g = &s->u.p.part;
	rng_init(&g->name, 709314158, 92);
	rng_init(&g->mfgr, 1, 1);
	rng_init(&g->brand, 46831694, 1);
	rng_init(&g->type, 1841581359, 1);
	rng_init(&g->size, 1193163244, 1);
	rng_init(&g->cntr, 727633698, 1);
	text_init(&g->cmnt, 804159733, 14, 1);
	struct gen_rng *all[] = {&g->name, &g->mfgr, &g->brand, &g->type,
			     &g->size, &g->cntr, &g->cmnt.r};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		rng_skip_rows(all[i], start);
	for (int i = 0; i < 92; i++)
		g->perm[i] = (uint8_t)i;
	g->ahead = text_draw(s->ctx, &g->cmnt);
	rng_row_done(&g->cmnt.r);

	struct st_psupp *q = &s->u.p.psupp;
	rng_init(&q->qty, 1671059989, 4);
	rng_init(&q->cost, 1051288424, 4);
	text_init(&q->cmnt, 1961692154, 124, 4);
	rng_skip_rows(&q->qty, start);
	rng_skip_rows(&q->cost, start);
	rng_skip_rows(&q->cmnt.r, start);
	for (int i = 0; i < 4; i++)
		q->ahead[i] = text_draw(s->ctx, &q->cmnt);
	rng_row_done(&q->cmnt.r);
}

static char *part_row(struct gen_stream *s, int64_t key, char *p)
{
	const struct gen_ctx *ctx = s->ctx;
	struct st_part *g = &s->u.p.part;
	const struct dist *colors = &ctx->d[GEN_DIST_COLORS];
	struct textdraw cmnt = g->ahead;
	g->ahead = text_draw(ctx, &g->cmnt);
	rng_row_done(&g->cmnt.r);
	p = put_u64(p, (uint64_t)key);
	SEP(p);
	/* dbgen agg_str(): a Fisher-Yates permutation of the colours; the first five are used. */
	uint8_t swapped[5];
	for (int i = 0; i < 5; i++) {
		int j = gen_rng_int(&g->name, i, colors->count - 1);
		swapped[i] = (uint8_t)j;
		uint8_t t = g->perm[i];
		g->perm[i] = g->perm[j];
		g->perm[j] = t;
	}
	for (int i = 0; i < 5; i++) {
		int c = g->perm[i];
		p = put_str(p, colors->text[c], colors->len[c]);
		*p++ = ' ';
	}
	p[-1] = '|';
	for (int i = 4; i >= 0; i--) {
		int j = swapped[i];
		uint8_t t = g->perm[i];
		g->perm[i] = g->perm[j];
		g->perm[j] = t;
	}
	int32_t mfgr = gen_rng_int(&g->mfgr, 1, 5);
	int32_t brand = mfgr * 10 + gen_rng_int(&g->brand, 1, 5);
	p = put_str(p, "Manufacturer#", 13);
	*p++ = (char)('0' + mfgr);
	SEP(p);
	p = put_str(p, "Brand#", 6);
	p = put_u64(p, (uint64_t)brand);
	SEP(p);
	const struct dist *ty = &ctx->d[GEN_DIST_P_TYPES];
	int ti = dist_pick(ty, &g->type);
	p = put_str(p, ty->text[ti], ty->len[ti]);
	SEP(p);
	p = put_u64(p, (uint64_t)gen_rng_int(&g->size, 1, 50));
	SEP(p);
	const struct dist *cn = &ctx->d[GEN_DIST_P_CNTR];
	int ci = dist_pick(cn, &g->cntr);
	p = put_str(p, cn->text[ci], cn->len[ci]);
	SEP(p);
	int64_t price = 90000 + (key / 10) % 20001 + (key % 1000) * 100;
	p = put_money(p, price);
	SEP(p);
	p = put_draw(s, p, cmnt);
	SEP(p);
	p = row_end(p, s->trail);
	rng_row_done(&g->name);
	rng_row_done(&g->mfgr);
	rng_row_done(&g->brand);
	rng_row_done(&g->type);
	rng_row_done(&g->size);
	rng_row_done(&g->cntr);
	return p;
}

static char *psupp_rows(struct gen_stream *s, int64_t key, char *p)
{
	const struct gen_ctx *ctx = s->ctx;
	struct st_psupp *q = &s->u.p.psupp;
	int64_t ns = ctx->nsupp;
	struct textdraw cmnt[4];
	memcpy(cmnt, q->ahead, sizeof(cmnt));
	for (int i = 0; i < 4; i++)
		q->ahead[i] = text_draw(ctx, &q->cmnt);
	rng_row_done(&q->cmnt.r);
	for (int64_t i = 0; i < 4; i++) {
		int64_t sk = (key + i * (ns / 4 + (key - 1) / ns)) % ns + 1;
		p = put_u64(p, (uint64_t)key);
		SEP(p);
		p = put_u64(p, (uint64_t)sk);
		SEP(p);
		p = put_u64(p, (uint64_t)gen_rng_int(&q->qty, 1, 9999));
		SEP(p);
		p = put_money(p, gen_rng_int(&q->cost, 100, 100000));
		SEP(p);
		p = put_draw(s, p, cmnt[i]);
		SEP(p);
		p = row_end(p, s->trail);
	}
	rng_row_done(&q->qty);
	rng_row_done(&q->cost);
	return p;
}

static void supp_init(struct gen_stream *s, int64_t start)
{
	struct st_supp *g = &s->u.supp;
	vstr_init(&g->addr, 706178559, 25);
	rng_init(&g->nation, 110356601, 1);
	rng_init(&g->phone, 884434366, 3);
	rng_init(&g->acct, 962338209, 1);
	text_init(&g->cmnt, 1341315363, 63, 1);
	rng_init(&g->bbb, 202794285, 1);
	rng_init(&g->junk, 263032577, 1);
	rng_init(&g->offset, 715851524, 1);
	rng_init(&g->type, 753643799, 1);
	struct gen_rng *all[] = {&g->addr.r, &g->nation, &g->phone,	 &g->acct, &g->cmnt.r,
			     &g->bbb,	 &g->junk,   &g->offset, &g->type};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		rng_skip_rows(all[i], start);
}

/* The columns supplier and customer share: key, "<label>%09d", address, nation, phone and
 * account balance, each followed by the separator (dbgen's mk_supp / mk_cust). */
static char *put_party(char *p, const char label[9], int64_t key, struct vstrgen *addr,
		       struct gen_rng *nation_rng, struct gen_rng *phone, struct gen_rng *acct)
{
	p = put_u64(p, (uint64_t)key);
	SEP(p);
	p = put_str(p, label, 9);
	p = put_u64_09(p, (uint64_t)key);
	SEP(p);
	p = put_vstr(p, addr);
	SEP(p);
	int64_t nation = gen_rng_int(nation_rng, 0, 24);
	p = put_u64(p, (uint64_t)nation);
	SEP(p);
	p = put_phone(p, phone, nation);
	SEP(p);
	p = put_money(p, gen_rng_int(acct, -99999, 999999));
	SEP(p);
	return p;
}

static char *supp_row(struct gen_stream *s, int64_t key, char *p)
{
	const struct gen_ctx *ctx = s->ctx;
	struct st_supp *g = &s->u.supp;
	p = put_party(p, "Supplier#", key, &g->addr, &g->nation, &g->phone, &g->acct);
	char *c = p;
	p = put_text(p, ctx, &g->cmnt);
	int32_t clen = (int32_t)(p - c);
	if (gen_rng_int(&g->bbb, 1, 10000) <= 10) {
		/* dbgen's Better Business Bureau comments: "Customer ...Complaints/Recommends". */
		int32_t noise = gen_rng_int(&g->junk, 0, clen - 19);
		int32_t off = gen_rng_int(&g->offset, 0, clen - (19 + noise));
		int complaint = gen_rng_int(&g->type, 0, 100) < 50;
		memcpy(c + off, "Customer ", 9);
		memcpy(c + off + 9 + noise, complaint ? "Complaints" : "Recommends", 10);
	}
	SEP(p);
	p = row_end(p, s->trail);
	rng_row_done(&g->addr.r);
	rng_row_done(&g->nation);
	rng_row_done(&g->phone);
	rng_row_done(&g->acct);
	rng_row_done(&g->cmnt.r);
	rng_row_done(&g->bbb);
	rng_row_done(&g->junk);
	rng_row_done(&g->offset);
	rng_row_done(&g->type);
	return p;
}

static void cust_init(struct gen_stream *s, int64_t start)
{
	struct st_cust *g = &s->u.cust;
	vstr_init(&g->addr, 881155353, 25);
	rng_init(&g->nation, 1489529863, 1);
	rng_init(&g->phone, 1521138112, 3);
	rng_init(&g->acct, 298370230, 1);
	rng_init(&g->mseg, 1140279430, 1);
	text_init(&g->cmnt, 1335826707, 73, 1);
	struct gen_rng *all[] = {&g->addr.r, &g->nation, &g->phone, &g->acct, &g->mseg, &g->cmnt.r};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		rng_skip_rows(all[i], start);
	g->ahead = text_draw(s->ctx, &g->cmnt);
	rng_row_done(&g->cmnt.r);
}

static char *cust_row(struct gen_stream *s, int64_t key, char *p)
{
	const struct gen_ctx *ctx = s->ctx;
	struct st_cust *g = &s->u.cust;
	struct textdraw cmnt = g->ahead;
	g->ahead = text_draw(ctx, &g->cmnt);
	rng_row_done(&g->cmnt.r);
	p = put_party(p, "Customer#", key, &g->addr, &g->nation, &g->phone, &g->acct);
	const struct dist *ms = &ctx->d[GEN_DIST_MSEGMNT];
	int mi = dist_pick(ms, &g->mseg);
	p = put_str(p, ms->text[mi], ms->len[mi]);
	SEP(p);
	p = put_draw(s, p, cmnt);
	SEP(p);
	p = row_end(p, s->trail);
	rng_row_done(&g->addr.r);
	rng_row_done(&g->nation);
	rng_row_done(&g->phone);
	rng_row_done(&g->acct);
	rng_row_done(&g->mseg);
	return p;
}

/* Draws the order date, line count and comments of the next order ahead of time. */
static void order_prep(struct gen_stream *s, struct ord_ahead *a)
{
	const struct gen_ctx *ctx = s->ctx;
	struct st_order *g = &s->u.ord;
	a->odate = gen_rng_int(&g->odate, DATE_MIN, ORDER_DATE_MAX);
	a->lcnt = gen_rng_int(&g->lcnt, 1, 7);
	rng_row_done(&g->odate);
	rng_row_done(&g->lcnt);
	if (s->want_main) {
		a->ocmnt = text_draw(ctx, &g->cmnt);
		rng_row_done(&g->cmnt.r);
	}
	if (s->want_child) {
		for (int i = 0; i < a->lcnt; i++)
			a->lcmnt[i] = text_draw(ctx, &g->lcmnt);
		rng_row_done(&g->lcmnt.r);
	}
}

static void order_init(struct gen_stream *s, int64_t start)
{
	const struct gen_ctx *ctx = s->ctx;
	struct st_order *g = &s->u.ord;
	rng_init(&g->odate, 1066728069, 1);
	rng_init(&g->lcnt, 1434868289, 1);
	rng_init(&g->ckey, 851767375, 1);
	rng_init(&g->prio, 591449447, 1);
	rng_init(&g->clerk, 1171034773, 1);
	text_init(&g->cmnt, 276090261, 49, 1);
	rng_init(&g->qty, 209208115, 7);
	rng_init(&g->disc, 554590007, 7);
	rng_init(&g->tax, 721958466, 7);
	rng_init(&g->pkey, 1808217256, 7);
	rng_init(&g->sdate, 1769349045, 7);
	rng_init(&g->snum, 2095021727, 7);
	rng_init(&g->cdate, 904914315, 7);
	rng_init(&g->rdate, 373135028, 7);
	rng_init(&g->rflag, 717419739, 7);
	rng_init(&g->instr, 1371272478, 7);
	rng_init(&g->smode, 675466456, 7);
	text_init(&g->lcmnt, 1095462486, 27, 7);
	struct gen_rng *all[] = {&g->odate, &g->lcnt,  &g->ckey,  &g->prio,	 &g->clerk, &g->cmnt.r,
			     &g->qty,	&g->disc,  &g->tax,   &g->pkey,	 &g->sdate, &g->snum,
			     &g->cdate, &g->rdate, &g->rflag, &g->instr, &g->smode, &g->lcmnt.r};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		rng_skip_rows(all[i], start);
	int64_t cm = ctx->scale * 1000;
	g->clerk_max = cm > 1000 ? cm : 1000;
	for (int i = 0; i < ORDER_AHEAD; i++)
		order_prep(s, &g->ahead[i]);
	g->ahead_pos = 0;
}

/* dbgen mk_sparse(): seq added as 2 bits above the low 3 bits of the order index (0 in the
 * tables, 1 in the update sets of dbgen -U, which fill the gaps this leaves). */
static inline int64_t order_key(int64_t i, int64_t seq)
{
	return ((((i >> 3) << 2) + seq) << 3) + (i & 7);
}

int64_t gen_order_key(int64_t index, int64_t seq)
{
	return order_key(index, seq);
}

struct line_vals {
	int32_t qty, disc, tax;
	int64_t pkey;
	int32_t sdate;
};

static char *order_unit(struct gen_stream *s, int64_t idx, char **pmain, char **pchild)
{
	const struct gen_ctx *ctx = s->ctx;
	struct st_order *g = &s->u.ord;
	int64_t okey = order_key(idx + s->key_delta, s->key_seq);
	struct ord_ahead cur = g->ahead[g->ahead_pos];
	order_prep(s, &g->ahead[g->ahead_pos]);
	g->ahead_pos = (g->ahead_pos + 1) % ORDER_AHEAD;
	int32_t odate = cur.odate;
	int32_t lcnt = cur.lcnt;
	struct line_vals lv[7];
	int64_t total = 0;
	int shipped = 0;
	for (int i = 0; i < lcnt; i++) {
		lv[i].qty = gen_rng_int(&g->qty, 1, 50);
		lv[i].disc = gen_rng_int(&g->disc, 0, 10);
		lv[i].tax = gen_rng_int(&g->tax, 0, 8);
		lv[i].pkey = ctx->use64 ? rng64_long(&g->pkey, 1, ctx->npart)
					: rng_long(&g->pkey, 1, ctx->npart);
		lv[i].sdate = odate + gen_rng_int(&g->sdate, 1, 121);
		int64_t pk = lv[i].pkey;
		int64_t price = 90000 + (pk / 10) % 20001 + (pk % 1000) * 100;
		int64_t ext = price * lv[i].qty;
		total += ((ext * (100 - lv[i].disc)) / 100) * (100 + lv[i].tax) / 100;
		shipped += lv[i].sdate <= DATE_CURRENT;
	}
	if (s->want_main) {
		char *p = *pmain;
		int64_t ck = ctx->use64 ? rng64_long(&g->ckey, 1, ctx->ncust)
					: rng_long(&g->ckey, 1, ctx->ncust);
		int delta = 1;
		while (ck % 3 == 0) {
			ck += delta;
			if (ck > ctx->ncust)
				ck = ctx->ncust;
			delta = -delta;
		}
		p = put_u64(p, (uint64_t)okey);
		SEP(p);
		p = put_u64(p, (uint64_t)ck);
		SEP(p);
		*p++ = shipped == lcnt ? 'F' : shipped > 0 ? 'P' : 'O';
		SEP(p);
		p = put_money(p, total);
		SEP(p);
		p = put_date(p, ctx, odate);
		SEP(p);
		const struct dist *pr = &ctx->d[GEN_DIST_O_OPRIO];
		int pi = dist_pick(pr, &g->prio);
		p = put_str(p, pr->text[pi], pr->len[pi]);
		SEP(p);
		p = put_str(p, "Clerk#", 6);
		p = put_u64_09(p, (uint64_t)rng_long(&g->clerk, 1, g->clerk_max));
		SEP(p);
		*p++ = '0';
		SEP(p);
		p = put_draw(s, p, cur.ocmnt);
		SEP(p);
		p = row_end(p, s->trail);
		*pmain = p;
		if (ctx->use64)
			rng64_row_done(&g->ckey);
		else
			rng_row_done(&g->ckey);
		rng_row_done(&g->prio);
		rng_row_done(&g->clerk);
	}
	if (s->want_child) {
		char *p = *pchild;
		const struct dist *rf = &ctx->d[GEN_DIST_RFLAG];
		const struct dist *in = &ctx->d[GEN_DIST_INSTRUCT];
		const struct dist *sm = &ctx->d[GEN_DIST_SMODE];
		int64_t ns = ctx->nsupp;
		for (int i = 0; i < lcnt; i++) {
			int64_t pk = lv[i].pkey;
			int64_t snum = gen_rng_int(&g->snum, 0, 3);
			int64_t sk = (pk + snum * (ns / 4 + (pk - 1) / ns)) % ns + 1;
			int64_t price = 90000 + (pk / 10) % 20001 + (pk % 1000) * 100;
			int32_t cdate = odate + gen_rng_int(&g->cdate, 30, 90);
			int32_t rdate = lv[i].sdate + gen_rng_int(&g->rdate, 1, 30);
			p = put_u64(p, (uint64_t)okey);
			SEP(p);
			p = put_u64(p, (uint64_t)pk);
			SEP(p);
			p = put_u64(p, (uint64_t)sk);
			SEP(p);
			*p++ = (char)('1' + i);
			SEP(p);
			p = put_u64(p, (uint64_t)lv[i].qty);
			SEP(p);
			p = put_money(p, price * lv[i].qty);
			SEP(p);
			p = put_money(p, lv[i].disc);
			SEP(p);
			p = put_money(p, lv[i].tax);
			SEP(p);
			if (rdate <= DATE_CURRENT)
				*p++ = *rf->text[dist_pick(rf, &g->rflag)];
			else
				*p++ = 'N';
			SEP(p);
			*p++ = lv[i].sdate <= DATE_CURRENT ? 'F' : 'O';
			SEP(p);
			p = put_date(p, ctx, lv[i].sdate);
			SEP(p);
			p = put_date(p, ctx, cdate);
			SEP(p);
			p = put_date(p, ctx, rdate);
			SEP(p);
			int ii = dist_pick(in, &g->instr);
			p = put_str(p, in->text[ii], in->len[ii]);
			SEP(p);
			int si = dist_pick(sm, &g->smode);
			p = put_str(p, sm->text[si], sm->len[si]);
			SEP(p);
			p = put_draw(s, p, cur.lcmnt[i]);
			SEP(p);
			p = row_end(p, s->trail);
		}
		*pchild = p;
		rng_row_done(&g->snum);
		rng_row_done(&g->cdate);
		rng_row_done(&g->rdate);
		rng_row_done(&g->rflag);
		rng_row_done(&g->instr);
		rng_row_done(&g->smode);
	}
	rng_row_done(&g->qty);
	rng_row_done(&g->disc);
	rng_row_done(&g->tax);
	if (ctx->use64)
		rng64_row_done(&g->pkey);
	else
		rng_row_done(&g->pkey);
	rng_row_done(&g->sdate);
	return NULL;
}

static void code_init(struct gen_stream *s, int64_t start)
{
	struct st_code *g = &s->u.code;
	text_init(&g->cmnt, s->table == GEN_NATION ? 606179079 : 1500869201, 72, 1);
	rng_skip_rows(&g->cmnt.r, start);
}

static char *code_row(struct gen_stream *s, int64_t idx, char *p)
{
	const struct gen_ctx *ctx = s->ctx;
	struct st_code *g = &s->u.code;
	p = put_u64(p, (uint64_t)idx);
	SEP(p);
	if (s->table == GEN_NATION) {
		const struct gen_dist *n = &gen_dists[GEN_DIST_NATIONS];
		p = put_str(p, n->list[idx].text, strlen(n->list[idx].text));
		SEP(p);
		p = put_u64(p, (uint64_t)ctx->nation_region[idx]);
	} else {
		const struct dist *r = &ctx->d[GEN_DIST_REGIONS];
		p = put_str(p, r->text[idx], r->len[idx]);
	}
	SEP(p);
	p = put_text(p, ctx, &g->cmnt);
	SEP(p);
	p = row_end(p, s->trail);
	rng_row_done(&g->cmnt.r);
	return p;
}

/* ---- streams ------------------------------------------------------------------------------ */

static int stream_open(struct gen_stream **out, const struct gen_ctx *ctx, enum gen_table t,
		       int want_main, int want_child, int64_t first, int64_t last, unsigned flags,
		       struct errbuf *err)
{
	*out = NULL;
	if ((int)t < 0 || t >= GEN_NTABLES)
		return errbuf_set(err, "unknown table %d", (int)t);
	int64_t n = ctx->rows[t];
	if (last > n)
		last = n;
	if (first < 0 || first > last)
		return errbuf_set(err,
				  "row range [%lld, %lld) is invalid for table '%s' (%lld units)",
				  (long long)first, (long long)last, table_names[t], (long long)n);
	struct gen_stream *s = calloc(1, sizeof(*s));
	if (!s)
		return errbuf_set(err, "out of memory");
	s->ctx = ctx;
	s->table = t;
	s->want_main = want_main;
	s->want_child = want_child;
	s->trail = !(flags & GEN_NO_TRAILING_DELIMITER);
	s->first = s->next = first;
	s->last = last;
	switch (t) {
	case GEN_PART:
	case GEN_PARTSUPP:
		s->table = GEN_PART;
		part_init(s, first);
		break;
	case GEN_ORDERS:
	case GEN_LINEITEM:
		s->table = GEN_ORDERS;
		order_init(s, first);
		break;
	case GEN_SUPPLIER:
		supp_init(s, first);
		break;
	case GEN_CUSTOMER:
		cust_init(s, first);
		break;
	case GEN_NATION:
	case GEN_REGION:
		code_init(s, first);
		break;
	default:
		break;
	}
	*out = s;
	return 0;
}

/* Generates the next unit; main rows at *pm, child rows at *pc. */
static void stream_unit(struct gen_stream *s, char **pm, char **pc)
{
	int64_t i = s->next++;
	switch (s->table) {
	case GEN_PART:
		if (s->want_main)
			*pm = part_row(s, i + 1, *pm);
		if (s->want_child)
			*pc = psupp_rows(s, i + 1, *pc);
		break;
	case GEN_ORDERS:
		order_unit(s, i + 1, pm, pc);
		break;
	case GEN_SUPPLIER:
		*pm = supp_row(s, i + 1, *pm);
		break;
	case GEN_CUSTOMER:
		*pm = cust_row(s, i + 1, *pm);
		break;
	default:
		*pm = code_row(s, i, *pm);
		break;
	}
}

int gen_stream_new(struct gen_stream **out, const struct gen_ctx *ctx, enum gen_table t,
		   int64_t first, int64_t last, unsigned flags, struct errbuf *err)
{
	int child = t == GEN_LINEITEM || t == GEN_PARTSUPP;
	return stream_open(out, ctx, t, !child, child, first, last, flags, err);
}

/* Fills buf (room >= GEN_ROW_MAX) with whole units; returns bytes. */
static size_t stream_fill(struct gen_stream *s, char *buf, size_t len)
{
	char *p = buf, *end = buf + len;
	/* one table per stream: main and child cursors are the same */
	while (s->next < s->last && (size_t)(end - p) >= GEN_ROW_MAX)
		stream_unit(s, &p, &p);
	stream_flush(s);
	return (size_t)(p - buf);
}

/* Up to len bytes: whole units while len >= GEN_ROW_MAX, else from the pending copy. */
static size_t read_some(struct gen_stream *s, char *buf, size_t len)
{
	size_t done = 0;
	if (s->pend_off < s->pend_len) {
		size_t n = s->pend_len - s->pend_off;
		if (n > len)
			n = len;
		memcpy(buf, s->pend + s->pend_off, n);
		s->pend_off += n;
		return n;
	}
	if (len >= GEN_ROW_MAX)
		return stream_fill(s, buf, len);
	if (s->next >= s->last || len == 0)
		return done;
	if (!s->pend) {
		s->pend_cap = 4 * GEN_ROW_MAX;
		s->pend = malloc(s->pend_cap);
		if (!s->pend)
			return 0;
	}
	s->pend_len = stream_fill(s, s->pend, s->pend_cap);
	s->pend_off = 0;
	return read_some(s, buf, len);
}

size_t gen_stream_read(struct gen_stream *s, char *buf, size_t len)
{
	size_t n = 0, got;
	while (n < len && (got = read_some(s, buf + n, len - n)) > 0)
		n += got;
	return n;
}

int64_t gen_stream_done(const struct gen_stream *s)
{
	return s->next - s->first;
}

void gen_stream_free(struct gen_stream *s)
{
	if (!s)
		return;
	free(s->pend);
	free(s);
}

/* Replaces out's (and out_child's, when not NULL) contents with the rest of the stream's units,
 * main rows to out and child rows to out_child. 0, or -1 with err filled. */
static int chunk_fill(struct gen_stream *s, struct gen_buf *out, struct gen_buf *out_child,
		      struct errbuf *err)
{
	int want_child = out_child != NULL;
	out->len = 0;
	if (want_child)
		out_child->len = 0;
	while (s->next < s->last) {
		size_t need = out->len + 2 * GEN_ROW_MAX;
		size_t need_child = want_child ? out_child->len + 2 * GEN_ROW_MAX : 0;
		if (need > out->cap || (want_child && need_child > out_child->cap)) {
			stream_flush(s); /* the reserved comment room may move */
			if (gen_buf_reserve(out, need) < 0 ||
			    (want_child && gen_buf_reserve(out_child, need_child) < 0))
				return errbuf_set(err, "out of memory");
		}
		char *pm = out->data + out->len;
		char *pc = want_child ? out_child->data + out_child->len : pm;
		stream_unit(s, &pm, &pc);
		out->len = (size_t)(pm - out->data);
		if (want_child)
			out_child->len = (size_t)(pc - out_child->data);
	}
	stream_flush(s);
	return 0;
}

int gen_chunk(const struct gen_ctx *ctx, enum gen_table t, int64_t first, int64_t last,
	      unsigned flags, struct gen_buf *out, struct gen_buf *out_child, struct errbuf *err)
{
	int want_child = out_child != NULL && (t == GEN_ORDERS || t == GEN_PART);
	int want_main = 1;
	if (t == GEN_LINEITEM || t == GEN_PARTSUPP) {
		/* a child table alone: its rows go to out */
		struct gen_stream *s;
		if (stream_open(&s, ctx, t, 0, 1, first, last, flags, err) < 0)
			return -1;
		out->len = 0;
		while (s->next < s->last) {
			if (gen_buf_reserve(out, out->len + 16 * GEN_ROW_MAX) < 0) {
				gen_stream_free(s);
				return errbuf_set(err, "out of memory");
			}
			out->len += stream_fill(s, out->data + out->len, 16 * GEN_ROW_MAX);
		}
		gen_stream_free(s);
		return 0;
	}
	struct gen_stream *s;
	if (stream_open(&s, ctx, t, want_main, want_child, first, last, flags, err) < 0)
		return -1;
	int rc = chunk_fill(s, out, want_child ? out_child : NULL, err);
	gen_stream_free(s);
	return rc;
}

int gen_orders_extra(const struct gen_ctx *ctx, int64_t first, int64_t count, int64_t key_first,
		     int64_t seq, unsigned flags, struct gen_buf *orders, struct gen_buf *lineitem,
		     struct errbuf *err)
{
	if (!orders || !lineitem)
		return errbuf_set(err, "gen_orders_extra needs both buffers");
	if (first < 0 || count < 0 || key_first < 1 || seq < 0 || count > INT64_MAX - first)
		return errbuf_set(err,
				  "invalid order range: %lld orders from unit %lld, key index %lld",
				  (long long)count, (long long)first, (long long)key_first);
	struct gen_stream *s;
	if (stream_open(&s, ctx, GEN_ORDERS, 1, 1, 0, 0, flags, err) < 0)
		return -1;
	/* the same streams, started at unit `first` even past the table's end */
	s->first = s->next = first;
	s->last = first + count;
	s->key_delta = key_first - (first + 1);
	s->key_seq = seq;
	order_init(s, first);
	int rc = chunk_fill(s, orders, lineitem, err);
	gen_stream_free(s);
	return rc;
}

int gen_buf_reserve(struct gen_buf *b, size_t need)
{
	if (need <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : 1 << 20;
	while (cap < need)
		cap *= 2;
	char *d = realloc(b->data, cap);
	if (!d)
		return -1;
	b->data = d;
	b->cap = cap;
	return 0;
}

void gen_buf_release(struct gen_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
