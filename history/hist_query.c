/* SPDX-License-Identifier: MIT */
/* Reading the history store: series, results, one result, the export rows; removing a result. */
#include "history/hist.h"
#include "history/hist_db.h"
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static double to_double(const char *s)
{
	return s ? strtod(s, NULL) : 0;
}

/* A growing array of fixed-size items filled by a row callback. */
struct rows {
	void *items;
	size_t n, cap, size;
	int (*fill)(void *item, const char *const *cols, size_t n);
	int oom;
};

static int rows_add(void *ctx, const char *const *cols, size_t n)
{
	struct rows *r = ctx;
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 16;
		void *p = realloc(r->items, cap * r->size);
		if (!p) {
			r->oom = 1;
			return 1;
		}
		r->items = p;
		r->cap = cap;
	}
	void *item = (char *)r->items + r->n * r->size;
	memset(item, 0, r->size);
	r->n++;
	return r->fill(item, cols, n);
}

static int fill_series(void *item, const char *const *c, size_t n)
{
	struct hist_series_info *s = item;
	if (n < 9)
		return 1;
	snprintf(s->id, sizeof(s->id), "%s", c[0] ? c[0] : "");
	s->host = dup_or_null(c[1]);
	s->scale_factor = to_double(c[2]);
	s->fingerprint = dup_or_null(c[3]);
	s->flavour = dup_or_null(c[4]);
	s->protocol = dup_or_null(c[5]);
	s->n_results = c[6] ? strtoll(c[6], NULL, 10) : 0;
	s->first_at = dup_or_null(c[7]);
	s->last_at = dup_or_null(c[8]);
	return 0;
}

void hist_series_info_free(struct hist_series_info *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++) {
		free(s[i].host);
		free(s[i].fingerprint);
		free(s[i].flavour);
		free(s[i].protocol);
		free(s[i].first_at);
		free(s[i].last_at);
	}
	free(s);
}

int hist_store_series(struct hist_series_info **out, size_t *n, struct hist_store *st,
		      const char *filter, struct errbuf *err)
{
	struct rows r = {.size = sizeof(**out), .fill = fill_series};
	char like[64];
	snprintf(like, sizeof(like), "%.16s%%", filter ? filter : "");
	struct hist_arg a = HIST_TEXT(like);
	int rc = hist_db_exec(
	    hist_store_db(st),
	    "SELECT s.id, s.host, s.scale_factor, s.dataset_fingerprint, s.server_flavour, "
	    "s.protocol, COUNT(r.id), MIN(r.started_at), MAX(r.started_at) FROM hist_series s "
	    "JOIN hist_results r ON r.series_id = s.id WHERE s.id LIKE ? GROUP BY s.id, s.host, "
	    "s.scale_factor, s.dataset_fingerprint, s.server_flavour, s.protocol "
	    "ORDER BY s.host, s.scale_factor, s.id",
	    &a, 1, rows_add, &r, err);
	if (rc == 0 && r.oom)
		rc = errbuf_set(err, "out of memory");
	if (rc < 0) {
		hist_series_info_free(r.items, r.n);
		return -1;
	}
	*out = r.items;
	*n = r.n;
	return 0;
}

#define RESULT_COLS                                                                               \
	"id, series_id, sha256, started_at, finished_at, added_at, build_id, label, host, "      \
	"server_flavour, server_version, server_binary_sha256, protocol, variant, "              \
	"dataset_fingerprint, scale_factor"

static int fill_result(void *item, const char *const *c, size_t n)
{
	struct hist_result_info *r = item;
	if (n < 16)
		return 1;
	r->id = c[0] ? strtoll(c[0], NULL, 10) : 0;
	snprintf(r->series_id, sizeof(r->series_id), "%s", c[1] ? c[1] : "");
	char **dst[] = {&r->sha256,	    &r->started_at, &r->finished_at, &r->added_at,
			&r->build_id,	    &r->label,	    &r->host,	     &r->flavour,
			&r->server_version, &r->binary_sha256, &r->protocol,  &r->variant,
			&r->fingerprint};
	for (size_t i = 0; i < sizeof(dst) / sizeof(dst[0]); i++)
		*dst[i] = dup_or_null(c[2 + i]);
	r->scale_factor = to_double(c[15]);
	return 0;
}

void hist_result_info_release(struct hist_result_info *r)
{
	if (!r)
		return;
	char *p[] = {r->sha256,	  r->started_at,     r->finished_at,	r->added_at, r->build_id,
		     r->label,	  r->host,	     r->flavour,	r->server_version,
		     r->binary_sha256, r->protocol, r->variant, r->fingerprint};
	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		free(p[i]);
}

void hist_result_infos_free(struct hist_result_info *r, size_t n)
{
	for (size_t i = 0; r && i < n; i++)
		hist_result_info_release(&r[i]);
	free(r);
}

int hist_store_results(struct hist_result_info **out, size_t *n, struct hist_store *st,
		       const char *series_id, struct errbuf *err)
{
	struct rows r = {.size = sizeof(**out), .fill = fill_result};
	struct hist_arg a = HIST_TEXT(series_id ? series_id : "");
	int rc = hist_db_exec(hist_store_db(st),
			      "SELECT " RESULT_COLS " FROM hist_results WHERE ? = '' OR series_id = ? "
			      "ORDER BY started_at, id",
			      (struct hist_arg[]){a, a}, 2, rows_add, &r, err);
	if (rc == 0 && r.oom)
		rc = errbuf_set(err, "out of memory");
	if (rc < 0) {
		hist_result_infos_free(r.items, r.n);
		return -1;
	}
	*out = r.items;
	*n = r.n;
	return 0;
}

static int row_text(void *ctx, const char *const *cols, size_t n)
{
	char **out = ctx;
	if (n > 0 && cols[0])
		*out = strdup(cols[0]);
	return 1;
}

int hist_store_result(struct hist_result_info *out, char **out_json, struct hist_store *st,
		      long long id, struct errbuf *err)
{
	struct rows r = {.size = sizeof(*out), .fill = fill_result};
	struct hist_arg a = HIST_INT(id);
	memset(out, 0, sizeof(*out));
	int rc = hist_db_exec(hist_store_db(st),
			      "SELECT " RESULT_COLS " FROM hist_results WHERE id = ?", &a, 1, rows_add,
			      &r, err);
	if (rc == 0 && r.n == 0)
		rc = HIST_E_UNKNOWN;
	if (rc == 0 && out_json) {
		*out_json = NULL;
		rc = hist_db_exec(hist_store_db(st),
				  "SELECT result_json FROM hist_results WHERE id = ?", &a, 1, row_text,
				  out_json, err);
		if (rc == 0 && !*out_json)
			rc = errbuf_set(err, "out of memory");
	}
	if (rc == HIST_E_UNKNOWN)
		errbuf_set(err, "no result %lld in the history store", id);
	if (rc == 0)
		*out = *(struct hist_result_info *)r.items;
	else
		hist_result_infos_free(r.items, r.n), r.items = NULL, r.n = 0;
	free(r.items);
	return rc;
}

int hist_store_remove(struct hist_store *st, long long id, struct errbuf *err)
{
	struct hist_db *db = hist_store_db(st);
	struct hist_arg a = HIST_INT(id);
	long long found = 0;
	int rc = hist_db_begin(db, err);
	if (rc == 0)
		rc = hist_db_exec(db, "SELECT id FROM hist_results WHERE id = ?", &a, 1, hist_row_int,
				  &found, err);
	if (rc == 0 && !found)
		rc = HIST_E_UNKNOWN;
	if (rc == 0)
		rc = hist_db_exec(db, "DELETE FROM hist_restarts WHERE result_id = ?", &a, 1, NULL,
				  NULL, err);
	if (rc == 0)
		rc = hist_db_exec(db, "DELETE FROM hist_results WHERE id = ?", &a, 1, NULL, NULL, err);
	if (rc == 0)
		rc = hist_db_exec(db,
				  "DELETE FROM hist_series WHERE NOT EXISTS (SELECT 1 FROM "
				  "hist_results r WHERE r.series_id = hist_series.id)",
				  NULL, 0, NULL, NULL, err);
	if (rc == 0)
		return hist_db_commit(db, err);
	hist_db_rollback(db);
	if (rc == HIST_E_UNKNOWN)
		errbuf_set(err, "no result %lld in the history store", id);
	return rc;
}

const char *const hist_export_columns[] = {
    "series_id", "host",     "scale_factor", "dataset_fingerprint", "server_flavour", "protocol",
    "result_id", "started_at", "build_id",   "query",		    "restart",	      "mean_ms"};

struct export_ctx {
	hist_export_fn fn;
	void *ctx;
};

static int export_row(void *ctx, const char *const *cols, size_t n)
{
	struct export_ctx *e = ctx;
	return n == HIST_EXPORT_NCOLS ? e->fn(e->ctx, cols, n) : 1;
}

int hist_store_export(struct hist_store *st, const char *series_id, hist_export_fn fn, void *ctx,
		      struct errbuf *err)
{
	struct export_ctx e = {fn, ctx};
	struct hist_arg a = HIST_TEXT(series_id ? series_id : "");
	return hist_db_exec(
	    hist_store_db(st),
	    "SELECT r.series_id, r.host, r.scale_factor, r.dataset_fingerprint, r.server_flavour, "
	    "r.protocol, r.id, r.started_at, r.build_id, x.query_id, x.restart_index, x.mean_ms "
	    "FROM hist_results r JOIN hist_restarts x ON x.result_id = r.id "
	    "WHERE x.mean_ms IS NOT NULL AND (? = '' OR r.series_id = ?) "
	    "ORDER BY r.series_id, r.started_at, r.id, x.query_id, x.restart_index",
	    (struct hist_arg[]){a, a}, 2, export_row, &e, err);
}
