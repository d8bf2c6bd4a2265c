/* SPDX-License-Identifier: MIT */
/* A series loaded for detection: per query, the stored results in started_at order, each with
 * the means of its restarts that finished (status ok). */
#include "history/hist.h"
#include "history/hist_db.h"
#include <stdlib.h>
#include <string.h>

struct load_ctx {
	struct hist_series *s;
	int oom;
};

static struct hist_query_series *find_query(struct hist_series *s, const char *id)
{
	for (size_t i = 0; i < s->n_qs; i++)
		if (!strcmp(s->qs[i].query, id))
			return &s->qs[i];
	struct hist_query_series *p = realloc(s->qs, (s->n_qs + 1) * sizeof(*p));
	if (!p)
		return NULL;
	s->qs = p;
	p = &s->qs[s->n_qs];
	memset(p, 0, sizeof(*p));
	if (!(p->query = strdup(id)))
		return NULL;
	s->n_qs++;
	return p;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* c: id, started_at, build_id, server_version, binary_sha256 of the result. */
static int append_mean(struct hist_query_series *q, long long id, const char *const *c,
		       double mean)
{
	struct hist_point *pt = q->n ? &q->pts[q->n - 1] : NULL;
	if (!pt || pt->result_id != id) {
		pt = realloc(q->pts, (q->n + 1) * sizeof(*pt));
		if (!pt)
			return -1;
		q->pts = pt;
		pt = &q->pts[q->n++];
		memset(pt, 0, sizeof(*pt));
		pt->result_id = id;
		pt->started_at = strdup(c[1] ? c[1] : "");
		pt->build_id = strdup(c[2] ? c[2] : "");
		pt->server_version = dup_or_null(c[3]);
		pt->binary_sha256 = dup_or_null(c[4]);
		if (!pt->started_at || !pt->build_id || (c[3] && !pt->server_version) ||
		    (c[4] && !pt->binary_sha256))
			return -1;
	}
	double *m = realloc(pt->means, (pt->n + 1) * sizeof(*m));
	if (!m)
		return -1;
	pt->means = m;
	m[pt->n++] = mean;
	return 0;
}

static int load_row(void *ctx, const char *const *c, size_t n)
{
	struct load_ctx *l = ctx;
	if (n < 7 || !c[0] || !c[5] || !c[6])
		return 0;
	long long id = strtoll(c[0], NULL, 10);
	double mean = strtod(c[6], NULL);
	struct hist_query_series *q = find_query(l->s, c[5]);
	if (!q || append_mean(q, id, c, mean) < 0) {
		l->oom = 1;
		return 1;
	}
	l->s->newest_id = id;
	return 0;
}

/* Q2 before Q10: by the number after the letter, then by name. */
static int query_cmp(const void *x, const void *y)
{
	const char *a = ((const struct hist_query_series *)x)->query;
	const char *b = ((const struct hist_query_series *)y)->query;
	long na = a[0] ? strtol(a + 1, NULL, 10) : 0, nb = b[0] ? strtol(b + 1, NULL, 10) : 0;
	return na != nb ? (na < nb ? -1 : 1) : strcmp(a, b);
}

int hist_series_load(struct hist_series *out, struct hist_store *st,
		     const struct hist_series_info *info, const char *since, struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	out->info = *info;
	out->info.host = out->info.fingerprint = out->info.flavour = out->info.protocol = NULL;
	out->info.first_at = out->info.last_at = NULL;
	struct load_ctx l = {out, 0};
	struct hist_arg a[] = {HIST_TEXT(info->id), HIST_TEXT(since ? since : "")};
	int rc = hist_db_exec(hist_store_db(st),
			      "SELECT r.id, r.started_at, r.build_id, r.server_version, "
			      "r.server_binary_sha256, x.query_id, x.mean_ms "
			      "FROM hist_results r JOIN hist_restarts x ON x.result_id = r.id "
			      "WHERE r.series_id = ? AND r.started_at >= ? AND x.mean_ms > 0 "
			      "ORDER BY r.started_at, r.id, x.query_id, x.restart_index",
			      a, 2, load_row, &l, err);
	if (rc == 0 && l.oom)
		rc = errbuf_set(err, "out of memory");
	if (rc < 0) {
		hist_series_release(out);
		return -1;
	}
	qsort(out->qs, out->n_qs, sizeof(*out->qs), query_cmp);
	return 0;
}

void hist_series_release(struct hist_series *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_qs; i++) {
		for (size_t k = 0; k < s->qs[i].n; k++) {
			free(s->qs[i].pts[k].started_at);
			free(s->qs[i].pts[k].build_id);
			free(s->qs[i].pts[k].server_version);
			free(s->qs[i].pts[k].binary_sha256);
			free(s->qs[i].pts[k].means);
		}
		free(s->qs[i].pts);
		free(s->qs[i].query);
	}
	free(s->qs);
	memset(s, 0, sizeof(*s));
}
