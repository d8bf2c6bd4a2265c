/* SPDX-License-Identifier: MIT */
/* history add: a validated result file, whole, in one transaction; the series key derived from
 * its host, dataset, server flavour and protocol (docs/history.md). */
#include "history/hist.h"
#include "history/hist_db.h"
#include "result/res_counts.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What identifies a result's series and build, derived from the file. */
struct add_meta {
	char series_id[17];
	char *host, *fingerprint, *flavour, *protocol, *server_version, *binary_sha256, *variant,
	    *build_id;
	double sf;
};

static void add_meta_release(struct add_meta *m)
{
	free(m->host);
	free(m->fingerprint);
	free(m->flavour);
	free(m->protocol);
	free(m->server_version);
	free(m->binary_sha256);
	free(m->variant);
	free(m->build_id);
}

static char *get_str(json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));
	return s && *s ? strdup(s) : NULL;
}

/* A protocol member as text: strings as they are, integers in decimal, else "?". */
static void put_member(FILE *f, json_t *plan, const char *key, const char *alt)
{
	json_t *v = json_object_get(plan, key);
	if (!v && alt)
		v = json_object_get(plan, alt);
	if (json_is_string(v))
		fputs(json_string_value(v), f);
	else if (json_is_integer(v))
		fprintf(f, "%lld", (long long)json_integer_value(v));
	else
		fputc('?', f);
}

/* warm-up, measured runs, query order and parameter set: what makes two nights' restart means
 * comparable; and the variant of an interleaved run (run --variant), which names a build or a
 * setting: its results are their own series. The number of restarts is not part of it (it only
 * changes the precision). */
static char *protocol_text(json_t *plan)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	fputs("warmup=", f);
	put_member(f, plan, "warmup", NULL);
	fputs(" runs=", f);
	put_member(f, plan, "runs", NULL);
	fputs(" order=", f);
	put_member(f, plan, "query_order", "order");
	fputs(" parameters=", f);
	put_member(f, plan, "parameters", NULL);
	const char *variant = json_string_value(json_object_get(plan, "variant"));
	if (variant && *variant) /* absent for a plain run: its key stays as it was */
		fprintf(f, " variant=%s", variant);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* "mariadb" or "mysql": the server's flavour member, else guessed from its version string. */
static char *flavour_of(json_t *server)
{
	char *f = get_str(server, "flavour");
	if (f) {
		for (char *p = f; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		return f;
	}
	const char *v = json_string_value(json_object_get(server, "version"));
	return strdup(v && strstr(v, "MariaDB") ? "mariadb" : v ? "mysql" : "unknown");
}

static int add_meta_init(struct add_meta *m, const struct res_file *res, const char *build_id)
{
	memset(m, 0, sizeof(*m));
	m->host = get_str(res->host, "name");
	if (!m->host)
		m->host = strdup("unknown");
	m->sf = res_file_scale_factor(res);
	const char *fp = res_file_dataset_fingerprint(res);
	m->fingerprint = fp ? strdup(fp) : NULL;
	m->flavour = flavour_of(res->server);
	m->protocol = protocol_text(res->plan);
	m->server_version = get_str(res->server, "version");
	m->binary_sha256 = get_str(res->server, "binary_sha256");
	m->variant = get_str(res->plan, "variant");
	if (build_id)
		m->build_id = strdup(build_id);
	else if (asprintf(&m->build_id, "%s%s%.12s", m->server_version ? m->server_version : "?",
			  m->binary_sha256 ? " " : "", m->binary_sha256 ? m->binary_sha256 : "") < 0)
		m->build_id = NULL;
	char *key = NULL;
	if (!m->host || !m->flavour || !m->protocol || !m->build_id ||
	    asprintf(&key, "%s\037%.17g\037%s\037%s\037%s", m->host, m->sf,
		     m->fingerprint ? m->fingerprint : "", m->flavour, m->protocol) < 0)
		return -1;
	char hex[65];
	util_sha256_hex(hex, key, strlen(key));
	free(key);
	memcpy(m->series_id, hex, 16);
	m->series_id[16] = '\0';
	return 0;
}

static int insert_series(struct hist_db *db, const struct add_meta *m, struct errbuf *err)
{
	const char *sql = hist_db_kind(db) == HIST_DB_SQLITE
			      ? "INSERT OR IGNORE INTO hist_series VALUES (?, ?, ?, ?, ?, ?)"
			      : "INSERT IGNORE INTO hist_series VALUES (?, ?, ?, ?, ?, ?)";
	struct hist_arg a[] = {HIST_TEXT(m->series_id), HIST_TEXT(m->host), HIST_REAL(m->sf),
			       HIST_TEXT(m->fingerprint), HIST_TEXT(m->flavour),
			       HIST_TEXT(m->protocol)};
	return hist_db_exec(db, sql, a, 6, NULL, NULL, err);
}

static int insert_result(struct hist_db *db, const struct add_meta *m, const struct res_file *res,
			 const char *sha, const char *label, const char *source, const char *text,
			 struct errbuf *err)
{
	char now[32];
	util_utc_iso8601(now);
	struct hist_arg a[] = {
	    HIST_TEXT(sha),	      HIST_TEXT(m->series_id),	 HIST_TEXT(res->started_at),
	    HIST_TEXT(res->finished_at), HIST_TEXT(now),	 HIST_TEXT(m->build_id),
	    HIST_TEXT(label ? label : res->label), HIST_TEXT(m->host), HIST_REAL(m->sf),
	    HIST_TEXT(m->fingerprint),	 HIST_TEXT(m->flavour),	 HIST_TEXT(m->server_version),
	    HIST_TEXT(m->binary_sha256), HIST_TEXT(m->protocol), HIST_TEXT(m->variant),
	    HIST_TEXT(res->tool_version), HIST_TEXT(source),	 HIST_TEXT(text)};
	return hist_db_exec(
	    db,
	    "INSERT INTO hist_results (sha256, series_id, started_at, finished_at, added_at, "
	    "build_id, label, host, scale_factor, dataset_fingerprint, server_flavour, "
	    "server_version, server_binary_sha256, protocol, variant, tool_version, source_name, "
	    "result_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	    a, sizeof(a) / sizeof(a[0]), NULL, NULL, err);
}

/* The restart's counts of member ("work", "instructions") as stored: {name: count of its warm
 * executions} when they agree, else their mean; NULL (malloc'd text, or NULL without a
 * record). -1 on out of memory. */
static int counts_text(char **out, const struct res_restart *r, const char *member)
{
	struct res_counts c;
	*out = NULL;
	int got = res_counts_get(&c, r, member);
	if (got <= 0)
		return got;
	size_t first = res_counts_first_warm(&c, r);
	json_t *o = json_object();
	for (size_t i = 0; o && i < c.n; i++) {
		const long long *x = c.v + i * c.n_exec;
		double sum = 0;
		int same = 1;
		for (size_t e = first; e < c.n_exec; e++) {
			sum += (double)x[e];
			same &= x[e] == x[first];
		}
		json_object_set_new(o, c.names[i],
				    same ? json_integer(x[first])
					 : json_real(sum / (double)(c.n_exec - first)));
	}
	res_counts_release(&c);
	*out = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
	json_decref(o);
	return *out ? 0 : -1;
}

static int insert_restart(struct hist_db *db, long long id, const char *qid,
			  const struct res_restart *r, struct errbuf *err)
{
	char *work = NULL, *instr = NULL;
	if (counts_text(&work, r, "work") < 0 || counts_text(&instr, r, "instructions") < 0) {
		free(work);
		return errbuf_set(err, "out of memory");
	}
	json_t *arr = json_array();
	double sum = 0;
	for (size_t k = 0; k < r->n_measured; k++) {
		json_array_append_new(arr, json_real(r->measured_ms[k]));
		sum += r->measured_ms[k];
	}
	char *runs = json_dumps(arr, JSON_COMPACT | JSON_REAL_PRECISION(17));
	json_decref(arr);
	if (!runs) {
		free(work);
		free(instr);
		return errbuf_set(err, "out of memory");
	}
	int ok = r->status == RES_STATUS_OK && r->n_measured > 0;
	struct hist_arg a[] = {HIST_INT(id),
			       HIST_TEXT(qid),
			       HIST_INT(r->index),
			       HIST_TEXT(res_status_name(r->status)),
			       ok ? HIST_REAL(sum / (double)r->n_measured) : HIST_TEXT(NULL),
			       HIST_INT((long long)r->n_measured),
			       HIST_TEXT(runs),
			       HIST_TEXT(work),
			       HIST_TEXT(instr)};
	int rc = hist_db_exec(db,
			      "INSERT INTO hist_restarts (result_id, query_id, restart_index, status, "
			      "mean_ms, n_measured, measured_ms, work, instructions) VALUES (?, ?, ?, "
			      "?, ?, ?, ?, ?, ?)",
			      a, 9, NULL, NULL, err);
	free(runs);
	free(work);
	free(instr);
	return rc;
}

/* The run's identity (F10): SHA-256 of its start time, host, server binary and every
 * measurement (query, restart, status, each run's time to 17 digits), so that a re-indented,
 * relabelled or otherwise rewritten copy of one run is the same result. 0, or -1 out of memory. */
static int run_identity(char out[65], const struct res_file *res)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return -1;
	const char *host = json_string_value(json_object_get(res->host, "name"));
	const char *bin = json_string_value(json_object_get(res->server, "binary_sha256"));
	fprintf(f, "dbt3stab-run\037%s\037%s\037%s", res->started_at ? res->started_at : "",
		host ? host : "", bin ? bin : "");
	for (size_t q = 0; q < res->n_queries; q++) {
		const struct res_query *rq = &res->queries[q];
		for (size_t r = 0; r < rq->n_restarts; r++) {
			const struct res_restart *rs = &rq->restarts[r];
			fprintf(f, "\036%s\037%d\037%s", rq->id, rs->index,
				res_status_name(rs->status));
			for (size_t k = 0; k < rs->n_measured; k++)
				fprintf(f, "\037%.17g", rs->measured_ms[k]);
		}
	}
	if (fclose(f) != 0) {
		free(buf);
		return -1;
	}
	util_sha256_hex(out, buf, len);
	free(buf);
	return 0;
}

static int find_sha(struct hist_db *db, const char *sha, long long *out, struct errbuf *err)
{
	struct hist_arg a = HIST_TEXT(sha);
	*out = 0;
	return hist_db_exec(db, "SELECT id FROM hist_results WHERE sha256 = ?", &a, 1, hist_row_int,
			    out, err);
}

/* Inside the transaction: the duplicate check, the series, the result, its restarts. */
static int store_locked(struct hist_db *db, const struct res_file *res, const struct add_meta *m,
			const char *sha, const char *label, const char *path, const char *text,
			long long *out_id, enum hist_add_status *out_status, struct errbuf *err)
{
	long long id = 0;
	if (find_sha(db, sha, &id, err) < 0)
		return -1;
	if (id) {
		*out_id = id;
		*out_status = HIST_DUPLICATE;
		return 0;
	}
	int rc = insert_series(db, m, err);
	if (rc == 0)
		rc = insert_result(db, m, res, sha, label, path, text, err);
	if (rc < 0)
		return rc;
	id = hist_db_last_id(db);
	for (size_t q = 0; q < res->n_queries; q++)
		for (size_t r = 0; r < res->queries[q].n_restarts; r++)
			if (insert_restart(db, id, res->queries[q].id, &res->queries[q].restarts[r],
					   err) < 0)
				return -1;
	*out_id = id;
	*out_status = HIST_ADDED;
	return 0;
}

static int store_result(struct hist_store *st, const struct res_file *res, const char *sha,
			const char *build_id, const char *label, const char *path, const char *text,
			long long *out_id, enum hist_add_status *out_status, struct errbuf *err)
{
	struct hist_db *db = hist_store_db(st);
	struct add_meta m;
	if (add_meta_init(&m, res, build_id) < 0) {
		add_meta_release(&m);
		return errbuf_set(err, "out of memory");
	}
	int rc = HIST_DB_E_RETRY;
	for (int attempt = 0; rc == HIST_DB_E_RETRY && attempt < 10; attempt++) {
		rc = hist_db_begin(db, err);
		if (rc == 0)
			rc = store_locked(db, res, &m, sha, label, path, text, out_id, out_status,
					  err);
		if (rc == 0)
			rc = hist_db_commit(db, err);
		if (rc < 0)
			hist_db_rollback(db);
	}
	if (rc == HIST_DB_E_DUP) { /* the same file landed from another writer meanwhile */
		rc = find_sha(db, sha, out_id, err);
		*out_status = HIST_DUPLICATE;
	}
	add_meta_release(&m);
	return rc < 0 ? -1 : 0;
}

/* A store made before the run's identity keyed results holds the SHA-256 of the file's bytes:
 * the same file added again is a duplicate of that row. */
static int store_bytes_known(struct hist_store *st, const char *text, size_t len,
			     long long *out_id, enum hist_add_status *out_status, struct errbuf *err)
{
	char bytes[65];
	long long id = 0;
	util_sha256_hex(bytes, text, len);
	*out_status = HIST_ADDED;
	if (find_sha(hist_store_db(st), bytes, &id, err) < 0)
		return -1;
	if (id) {
		*out_id = id;
		*out_status = HIST_DUPLICATE;
	}
	return 0;
}

int hist_store_add(struct hist_store *st, const char *path, const char *build_id, const char *label,
		   long long *out_id, enum hist_add_status *out_status, struct errbuf *err)
{
	char *text = NULL;
	size_t len = 0;
	struct res_file *res = NULL;
	char sha[65];
	/* bounded like every result read: a regular file of at most RES_MAX_FILE_BYTES */
	if (res_text_load(path, &text, &len, err) < 0)
		return -1;
	int rc = res_file_parse(&res, text, len, path, err);
	if (rc == 0 && !res->finished_at)
		rc = errbuf_set(err, "'%s': a checkpoint of a run still going (finished_at is null)",
				path);
	if (rc == 0 && run_identity(sha, res) < 0)
		rc = errbuf_set(err, "out of memory");
	if (rc == 0)
		rc = store_bytes_known(st, text, len, out_id, out_status, err);
	if (rc == 0 && *out_status != HIST_DUPLICATE)
		rc = store_result(st, res, sha, build_id, label, path, text, out_id, out_status, err);
	res_file_free(res);
	free(text);
	return rc;
}
