/* SPDX-License-Identifier: MIT */
/* The loader: one worker thread per connection; each takes whole tables, biggest first, loads
 * a table in one LOAD DATA LOCAL INFILE whose bytes come from a gen_stream (or a .tbl file)
 * through the client's local-infile handler, then builds that table's secondary indexes. */
#include "dbt3/load.h"
#include <errmsg.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define GENERATOR_NAME "dbt3stab " DBT3STAB_VERSION " gen (TPC-H dbgen rows)"

/* Work order of the tables: biggest first, so the longest one starts at once. */
static const enum gen_table big_first[GEN_NTABLES] = {GEN_LINEITEM, GEN_ORDERS,	  GEN_PARTSUPP,
						      GEN_PART,	    GEN_CUSTOMER, GEN_SUPPLIER,
						      GEN_NATION,   GEN_REGION};

static const char *const phase_names[LOAD_NPHASES] = {"schema", "tables",  "analyze",
						      "verify", "restore", "fingerprint"};

static const struct srv_kv bulk_profile[] = {
    {"innodb_flush_log_at_trx_commit", "0"}, {"innodb_doublewrite", "0"},
    {"innodb_log_file_size", "1G"},	     {"innodb_log_buffer_size", "64M"},
    {"skip-log-bin", NULL},
};
/* innodb_sort_buffer_size is left at its default (1M): on MariaDB 10.11 at SF 1, lineitem's
 * one ALTER took 39-54 s with 1M, 51-70 s with 8M and 90-96 s with 64M (docs/load.md). */

const char *load_phase_name(enum load_phase p)
{
	return p < LOAD_NPHASES ? phase_names[p] : "?";
}

const struct srv_kv *load_bulk_profile(size_t *out_n)
{
	*out_n = sizeof(bulk_profile) / sizeof(bulk_profile[0]);
	return bulk_profile;
}

void load_opts_init(struct load_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sf = 1;
	o->database = "dbt3";
	o->indexes = SCHEMA_INDEXES_DBT3;
	o->jobs = 2;
	o->bulk_profile = 1;
}

static int is_server_gone(unsigned e)
{
	return e == CR_SERVER_GONE_ERROR || e == CR_SERVER_LOST || e == CR_CONNECTION_ERROR ||
	       e == CR_CONN_HOST_ERROR || e == 1053 /* ER_SERVER_SHUTDOWN */;
}

/* Runs one statement, discarding any result; fills err and returns -1 or LOAD_E_SERVER. */
static int sql_exec(MYSQL *m, struct errbuf *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int sql_exec(MYSQL *m, struct errbuf *err, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (mysql_real_query(m, buf, strlen(buf)) != 0) {
		unsigned e = mysql_errno(m);
		errbuf_set(err, "'%.60s%s' failed: %s (%u)", buf, strlen(buf) > 60 ? "..." : "",
			   mysql_error(m), e);
		return is_server_gone(e) ? LOAD_E_SERVER : -1;
	}
	do {
		MYSQL_RES *r = mysql_store_result(m);
		mysql_free_result(r);
	} while (mysql_next_result(m) == 0);
	return 0;
}

/* First column of the first row of a query as int64; -1 / LOAD_E_SERVER on errors. */
static int sql_int(MYSQL *m, int64_t *out, struct errbuf *err, const char *sql)
{
	if (mysql_real_query(m, sql, strlen(sql)) != 0) {
		unsigned e = mysql_errno(m);
		errbuf_set(err, "'%s' failed: %s (%u)", sql, mysql_error(m), e);
		return is_server_gone(e) ? LOAD_E_SERVER : -1;
	}
	MYSQL_RES *r = mysql_store_result(m);
	MYSQL_ROW row = r ? mysql_fetch_row(r) : NULL;
	int rc = 0;
	if (!row || !row[0])
		rc = errbuf_set(err, "'%s' returned no value", sql);
	else
		*out = strtoll(row[0], NULL, 10);
	mysql_free_result(r);
	return rc;
}

static int valid_identifier(const char *s)
{
	if (!*s || strlen(s) > 64)
		return 0;
	for (; *s; s++)
		if (!(*s == '_' || *s == '$' || (*s >= '0' && *s <= '9') ||
		      (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
			return 0;
	return 1;
}

/* ---- fingerprint ---- */

/* The content check the load stored into fp->content; "" from a fingerprint table an older
 * version made (no such column). */
static int content_stored(MYSQL *m, const char *db, struct load_fingerprint *fp, struct errbuf *err)
{
	char sql[256];
	snprintf(sql, sizeof(sql),
		 "SELECT content_check FROM `%s`." LOAD_FINGERPRINT_TABLE
		 " ORDER BY id DESC LIMIT 1",
		 db);
	fp->content[0] = '\0';
	if (mysql_real_query(m, sql, strlen(sql)) != 0) {
		unsigned e = mysql_errno(m);
		if (e == 1054 /* ER_BAD_FIELD_ERROR */)
			return 0;
		errbuf_set(err, "cannot read the fingerprint of '%s': %s (%u)", db, mysql_error(m),
			   e);
		return is_server_gone(e) ? LOAD_E_SERVER : -1;
	}
	MYSQL_RES *r = mysql_store_result(m);
	MYSQL_ROW row = r ? mysql_fetch_row(r) : NULL;
	if (row && row[0])
		snprintf(fp->content, sizeof(fp->content), "%s", row[0]);
	mysql_free_result(r);
	return 0;
}

int load_fingerprint_read(MYSQL *m, const char *db, struct load_fingerprint *out,
			  struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	if (!valid_identifier(db))
		return errbuf_set(err, "invalid database name '%s'", db);
	char sql[512];
	snprintf(sql, sizeof(sql),
		 "SELECT scale_factor, generator, indexes, options, row_counts, "
		 "DATE_FORMAT(loaded_at, '%%Y-%%m-%%dT%%H:%%i:%%sZ'), load_seconds "
		 "FROM `%s`." LOAD_FINGERPRINT_TABLE " ORDER BY id DESC LIMIT 1",
		 db);
	if (mysql_real_query(m, sql, strlen(sql)) != 0) {
		unsigned e = mysql_errno(m);
		if (e == 1146 /* ER_NO_SUCH_TABLE */ || e == 1049 /* ER_BAD_DB_ERROR */)
			return LOAD_E_NONE;
		errbuf_set(err, "cannot read the fingerprint of '%s': %s (%u)", db, mysql_error(m),
			   e);
		return is_server_gone(e) ? LOAD_E_SERVER : -1;
	}
	MYSQL_RES *r = mysql_store_result(m);
	MYSQL_ROW row = r ? mysql_fetch_row(r) : NULL;
	if (!row) {
		mysql_free_result(r);
		return LOAD_E_NONE;
	}
	out->sf = row[0] ? strtod(row[0], NULL) : 0;
	snprintf(out->generator, sizeof(out->generator), "%s", row[1] ? row[1] : "");
	snprintf(out->indexes, sizeof(out->indexes), "%s", row[2] ? row[2] : "");
	snprintf(out->options, sizeof(out->options), "%s", row[3] ? row[3] : "");
	/* row_counts: "customer=150000 lineitem=6001215 ..." */
	for (char *p = row[4]; p && *p;) {
		char name[32];
		long long n;
		int used = 0;
		if (sscanf(p, " %31[a-z]=%lld%n", name, &n, &used) != 2)
			break;
		enum gen_table t;
		if (gen_table_parse(name, &t) == 0)
			out->rows[t] = n;
		p += used;
	}
	snprintf(out->loaded_at, sizeof(out->loaded_at), "%s", row[5] ? row[5] : "");
	out->load_seconds = row[6] ? strtod(row[6], NULL) : 0;
	mysql_free_result(r);
	return content_stored(m, db, out, err);
}

/* ---- the content check ---- */

int load_content_read(MYSQL *m, const char *db, char out[LOAD_CONTENT_LEN], struct errbuf *err)
{
	char sql[512];
	*out = '\0';
	if (!valid_identifier(db))
		return errbuf_set(err, "invalid database name '%s'", db);
	snprintf(sql, sizeof(sql),
		 "SELECT COUNT(*), COALESCE(SUM(o_orderkey), 0), COALESCE(BIT_XOR(CRC32(CONCAT_WS("
		 "'|', o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate, "
		 "o_orderpriority, o_clerk, o_shippriority, o_comment))), 0) FROM `%s`.orders",
		 db);
	if (mysql_real_query(m, sql, strlen(sql)) != 0) {
		unsigned e = mysql_errno(m);
		errbuf_set(err, "cannot read the content check of '%s': %s (%u)", db,
			   mysql_error(m), e);
		return is_server_gone(e) ? LOAD_E_SERVER : -1;
	}
	MYSQL_RES *r = mysql_store_result(m);
	MYSQL_ROW row = r && mysql_num_fields(r) == 3 ? mysql_fetch_row(r) : NULL;
	int rc = 0;
	if (!row || !row[0] || !row[1] || !row[2])
		rc = errbuf_set(err, "the content check of '%s' returned no value", db);
	else
		snprintf(out, LOAD_CONTENT_LEN, "orders=%.20s keysum=%.24s crc=%.24s", row[0],
			 row[1], row[2]);
	mysql_free_result(r);
	return rc;
}

json_t *load_fingerprint_json(const struct load_fingerprint *fp)
{
	json_t *rows = json_object();
	for (int t = 0; t < GEN_NTABLES; t++)
		json_object_set_new(rows, gen_table_name((enum gen_table)t),
				    json_integer((json_int_t)fp->rows[t]));
	json_t *o =
	    json_pack("{s:f, s:s, s:s, s:s, s:o, s:s, s:f}", "scale_factor", fp->sf, "generator",
		      fp->generator, "indexes", fp->indexes, "options", fp->options, "rows", rows,
		      "loaded_at", fp->loaded_at, "load_seconds", fp->load_seconds);
	if (o && fp->content[0])
		json_object_set_new(o, "content_check", json_string(fp->content));
	return o;
}

static int fingerprint_write(MYSQL *m, const char *db, const struct load_fingerprint *fp,
			     struct errbuf *err)
{
	char counts[512];
	size_t k = 0;
	counts[0] = '\0';
	for (int t = 0; t < GEN_NTABLES; t++)
		k += (size_t)snprintf(counts + k, sizeof(counts) - k, "%s%s=%" PRId64, t ? " " : "",
				      gen_table_name((enum gen_table)t), fp->rows[t]);
	int rc = sql_exec(m, err,
			  "CREATE TABLE `%s`." LOAD_FINGERPRINT_TABLE " ("
			  "id INTEGER NOT NULL AUTO_INCREMENT PRIMARY KEY, "
			  "scale_factor DOUBLE NOT NULL, generator VARCHAR(96) NOT NULL, "
			  "indexes VARCHAR(16) NOT NULL, options VARCHAR(255) NOT NULL, "
			  "row_counts VARCHAR(512) NOT NULL, loaded_at DATETIME NOT NULL, "
			  "load_seconds DOUBLE NOT NULL, content_check VARCHAR(128) NOT NULL) "
			  "ENGINE=InnoDB",
			  db);
	if (rc < 0)
		return rc;
	/* the values are our own text: no quotes in them */
	return sql_exec(m, err,
			"INSERT INTO `%s`." LOAD_FINGERPRINT_TABLE
			" (scale_factor, generator, indexes, options, row_counts, loaded_at, "
			"load_seconds, content_check) VALUES (%.17g, '%s', '%s', '%s', '%s', "
			"UTC_TIMESTAMP(), %.3f, '%s')",
			db, fp->sf, fp->generator, fp->indexes, fp->options, counts,
			fp->load_seconds, fp->content);
}

/* ---- the local-infile source: a generator stream or a file ---- */

struct source {
	struct gen_stream *st; /* generator chunk, or */
	FILE *fp;	       /* a .tbl file */
	int64_t rows;	       /* '\n' seen */
	int64_t units_seen;    /* progress already reported */
	_Atomic int64_t *progress;
	int failed;
	char msg[256];
};

static int infile_init(void **ptr, const char *filename, void *userdata)
{
	(void)filename;
	*ptr = userdata;
	return 0;
}

static int infile_read(void *ptr, char *buf, unsigned int len)
{
	struct source *s = ptr;
	size_t n;
	if (s->st) {
		n = gen_stream_read(s->st, buf, len); /* a full packet (see gen.h) */
		int64_t d = gen_stream_done(s->st);
		atomic_fetch_add(s->progress, d - s->units_seen);
		s->units_seen = d;
	} else {
		n = fread(buf, 1, len, s->fp);
		if (n == 0 && ferror(s->fp)) {
			snprintf(s->msg, sizeof(s->msg), "read error: %s", strerror(errno));
			s->failed = 1;
			return -1;
		}
		atomic_fetch_add(s->progress, (int64_t)n);
	}
	for (size_t i = 0; i < n; i++)
		s->rows += buf[i] == '\n';
	return (int)n;
}

static void infile_end(void *ptr)
{
	(void)ptr;
}

static int infile_error(void *ptr, char *msg, unsigned int len)
{
	struct source *s = ptr;
	snprintf(msg, len, "%s", s->msg[0] ? s->msg : "local infile source failed");
	return 2000; /* CR_UNKNOWN_ERROR */
}

/* ---- the table pipeline ----
 * A table is loaded by one connection in one statement: into an empty table with
 * unique_checks=0 and foreign_key_checks=0, MariaDB (10.6+) inserts in bulk mode (one undo
 * record, the table locked), about twice as cheap per row as ordinary inserts; a second
 * connection inserting into the same table would wait for that lock, and without bulk mode two
 * connections spent twice the CPU per row (docs/load.md). The same connection then builds the
 * table's indexes, while the other connections go on with other tables. */

struct shared {
	const struct load_opts *o;
	const struct gen_ctx *gen;
	enum gen_table order[GEN_NTABLES];
	_Atomic int next; /* index into order */
	_Atomic int stage[GEN_NTABLES];	  /* enum load_stage */
	_Atomic int64_t done[GEN_NTABLES]; /* units (generator) or bytes (--from) sent */
	int64_t total[GEN_NTABLES];
	int trailing[GEN_NTABLES]; /* --from: rows end with '|' */
	_Atomic int abort;
	/* written by the one worker that owns the table, read after the join */
	int64_t rows[GEN_NTABLES];
	struct load_report *rep; /* rows_seconds, index_seconds */
};

struct worker {
	struct shared *sh;
	MYSQL *m;
	pthread_t tid;
	int rc;
	struct errbuf err;
};

static int load_statement(struct worker *w, enum gen_table t, struct source *src, int trailing)
{
	char sql[1024];
	mysql_set_local_infile_handler(w->m, infile_init, infile_read, infile_end, infile_error,
				       src);
	snprintf(sql, sizeof(sql),
		 "LOAD DATA LOCAL INFILE 'dbt3stab:%s' INTO TABLE %s CHARACTER SET latin1 "
		 "FIELDS TERMINATED BY '|' LINES TERMINATED BY '%s' (%s)",
		 gen_table_name(t), gen_table_name(t), trailing ? "|\\n" : "\\n",
		 schema_table_columns(t));
	if (mysql_real_query(w->m, sql, strlen(sql)) != 0) {
		unsigned e = mysql_errno(w->m);
		errbuf_set(&w->err, "cannot load '%s': %s (%u)", gen_table_name(t),
			   src->failed ? src->msg : mysql_error(w->m), e);
		return is_server_gone(e) ? LOAD_E_SERVER : -1;
	}
	uint64_t affected = mysql_affected_rows(w->m);
	unsigned warnings = mysql_warning_count(w->m);
	if (warnings > 0) {
		char detail[256] = "";
		if (mysql_query(w->m, "SHOW WARNINGS LIMIT 1") == 0) {
			MYSQL_RES *r = mysql_store_result(w->m);
			MYSQL_ROW row = r ? mysql_fetch_row(r) : NULL;
			if (row && row[2])
				snprintf(detail, sizeof(detail), ": %s", row[2]);
			mysql_free_result(r);
		}
		return errbuf_set(&w->err, "loading '%s' gave %u warnings%s", gen_table_name(t),
				  warnings, detail);
	}
	if ((int64_t)affected != src->rows)
		return errbuf_set(&w->err,
				  "loading '%s': sent %" PRId64 " rows, server took %" PRIu64,
				  gen_table_name(t), src->rows, affected);
	return 0;
}

/* Loads every row of table t: the generator's whole range, or (--from) the file. */
static int load_rows(struct worker *w, enum gen_table t)
{
	struct shared *sh = w->sh;
	struct source src = {.progress = &sh->done[t]};
	int rc;
	if (sh->o->from_dir) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s.tbl", sh->o->from_dir, gen_table_name(t));
		if (!(src.fp = fopen(path, "r")))
			return errbuf_errno(&w->err, errno, "cannot open '%s'", path);
		rc = load_statement(w, t, &src, sh->trailing[t]);
		fclose(src.fp);
	} else {
		if (gen_stream_new(&src.st, sh->gen, t, 0, sh->total[t], 0, &w->err) < 0)
			return -1;
		rc = load_statement(w, t, &src, 1);
		gen_stream_free(src.st);
	}
	sh->rows[t] = src.rows;
	return rc;
}

/* Secondary indexes this load builds on t (0 with --indexes keys-only). */
static int indexes_to_build(const struct load_opts *o, enum gen_table t)
{
	return o->indexes == SCHEMA_INDEXES_DBT3 ? schema_table_index_count(t) : 0;
}

/* t's rows, then all its secondary indexes in one ALTER TABLE (one read of the table). */
static int do_table(struct worker *w, enum gen_table t)
{
	struct shared *sh = w->sh;
	uint64_t t0 = util_now_ns();
	atomic_store(&sh->stage[t], LOAD_STAGE_ROWS);
	int rc = load_rows(w, t);
	sh->rep->rows_seconds[t] = (double)(util_now_ns() - t0) / 1e9;
	if (rc == 0 && indexes_to_build(sh->o, t) > 0) {
		t0 = util_now_ns();
		atomic_store(&sh->stage[t], LOAD_STAGE_INDEXES);
		rc = sql_exec(w->m, &w->err, "%s", schema_table_indexes(t));
		sh->rep->index_seconds[t] = (double)(util_now_ns() - t0) / 1e9;
	}
	atomic_store(&sh->stage[t], LOAD_STAGE_DONE);
	return rc;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;
	mysql_thread_init();
	while (!atomic_load(&sh->abort)) {
		int i = atomic_fetch_add(&sh->next, 1);
		if (i >= GEN_NTABLES)
			break;
		if ((w->rc = do_table(w, sh->order[i])) < 0) {
			atomic_store(&sh->abort, 1);
			break;
		}
	}
	mysql_thread_end();
	return NULL;
}

static void report_progress(const struct load_opts *o, enum load_phase ph, struct shared *sh,
			    uint64_t t0)
{
	if (!o->progress)
		return;
	struct load_progress p = {.phase = ph};
	for (int t = 0; sh && t < GEN_NTABLES; t++) {
		p.stage[t] = (enum load_stage)atomic_load(&sh->stage[t]);
		p.done[t] = atomic_load(&sh->done[t]);
		p.total[t] = sh->total[t];
		p.indexes_total[t] = indexes_to_build(o, (enum gen_table)t);
	}
	p.elapsed = (double)(util_now_ns() - t0) / 1e9;
	o->progress(o->progress_arg, &p);
}

static int all_done(struct shared *sh)
{
	for (int t = 0; t < GEN_NTABLES; t++)
		if (atomic_load(&sh->stage[t]) != LOAD_STAGE_DONE)
			return 0;
	return 1;
}

/* Runs the table pipeline on the connections; reports progress about once a second. */
static int run_workers(struct shared *sh, MYSQL **conns, int n, struct errbuf *err)
{
	struct worker *ws = calloc((size_t)n, sizeof(*ws));
	if (!ws)
		return errbuf_set(err, "out of memory");
	uint64_t t0 = util_now_ns();
	int started = 0, rc = 0;
	for (int i = 0; i < n; i++) {
		ws[i].sh = sh;
		ws[i].m = conns[i];
		if (pthread_create(&ws[i].tid, NULL, worker_main, &ws[i]) != 0) {
			atomic_store(&sh->abort, 1);
			rc = errbuf_set(err, "cannot start a loader thread");
			break;
		}
		started++;
	}
	uint64_t last = t0;
	while (started > 0 && !all_done(sh) && !atomic_load(&sh->abort)) {
		struct timespec ts = {0, 100 * 1000 * 1000};
		nanosleep(&ts, NULL);
		if (util_now_ns() - last >= 1000000000ull) {
			last = util_now_ns();
			report_progress(sh->o, LOAD_PHASE_TABLES, sh, t0);
		}
	}
	for (int i = 0; i < started; i++)
		pthread_join(ws[i].tid, NULL);
	report_progress(sh->o, LOAD_PHASE_TABLES, sh, t0);
	for (int i = 0; i < started && rc == 0; i++)
		if (ws[i].rc < 0) {
			rc = ws[i].rc;
			*err = ws[i].err;
		}
	free(ws);
	return rc;
}

/* --from: rows ending "|\n" (dbgen) or "\n" (DBT-3's no-trailing-delimiter build)? */
static int detect_trailing(const char *path, int *out, struct errbuf *err)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return errbuf_errno(err, errno, "cannot open '%s'", path);
	char line[GEN_ROW_MAX];
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		*out = 1;
		return 0;
	}
	fclose(f);
	size_t n = strlen(line);
	*out = n >= 2 && line[n - 1] == '\n' && line[n - 2] == '|';
	return 0;
}

/* ---- the load ---- */

static int connect_all(struct srv *s, const char *db, MYSQL **conns, int n, struct errbuf *err)
{
	for (int i = 0; i < n; i++) {
		if (!(conns[i] = srv_connect(s, db, err)))
			return LOAD_E_SERVER;
		int rc =
		    sql_exec(conns[i], err, "SET SESSION unique_checks=0, foreign_key_checks=0");
		if (rc < 0)
			return rc;
		int64_t binlog = 0;
		if (sql_int(conns[i], &binlog, err, "SELECT @@log_bin") == 0 && binlog &&
		    (rc = sql_exec(conns[i], err, "SET SESSION sql_log_bin=0")) < 0)
			return rc;
	}
	return 0;
}

static void close_all(MYSQL **conns, int n)
{
	for (int i = 0; i < n; i++)
		if (conns[i]) {
			mysql_close(conns[i]);
			conns[i] = NULL;
		}
}

static void make_options(char *out, size_t n, const struct load_opts *o)
{
	snprintf(out, n,
		 "source=%s jobs=%d indexes=%s stats_persistent=1 stats_auto_recalc=0 "
		 "stats_sample_pages=%d",
		 o->from_dir ? "files" : "generator", o->jobs, schema_indexes_name(o->indexes),
		 SCHEMA_STATS_SAMPLE_PAGES);
}

static int same_data(const struct load_fingerprint *fp, const struct load_opts *o)
{
	const char *gen = o->from_dir ? "files" : GENERATOR_NAME;
	return fp->sf == o->sf && strcmp(fp->generator, gen) == 0 &&
	       strcmp(fp->indexes, schema_indexes_name(o->indexes)) == 0;
}

static double since(uint64_t t0)
{
	return (double)(util_now_ns() - t0) / 1e9;
}

struct state {
	struct srv *s;
	const struct load_opts *o;
	struct load_report *rep;
	MYSQL *conns[16];
	int nconns;
	struct gen_ctx *gen;
	struct shared sh;
};

static int phase_schema(struct state *st, struct errbuf *err)
{
	MYSQL *m = st->conns[0];
	const char *db = st->o->database;
	int rc = sql_exec(m, err, "DROP TABLE IF EXISTS `%s`." LOAD_FINGERPRINT_TABLE, db);
	for (int t = 0; t < GEN_NTABLES && rc == 0; t++)
		rc = sql_exec(m, err, "DROP TABLE IF EXISTS `%s`.%s", db,
			      gen_table_name((enum gen_table)t));
	for (int t = 0; t < GEN_NTABLES && rc == 0; t++)
		rc = sql_exec(m, err, "%s", schema_table_create((enum gen_table)t));
	return rc;
}

static int phase_tables(struct state *st, struct errbuf *err)
{
	struct shared *sh = &st->sh;
	memset(sh, 0, sizeof(*sh));
	sh->o = st->o;
	sh->rep = st->rep;
	memcpy(sh->order, big_first, sizeof(sh->order));
	if (st->o->from_dir) {
		for (int t = 0; t < GEN_NTABLES; t++) {
			char path[4096];
			snprintf(path, sizeof(path), "%s/%s.tbl", st->o->from_dir,
				 gen_table_name((enum gen_table)t));
			FILE *f = fopen(path, "r");
			if (!f)
				return errbuf_errno(err, errno, "cannot open '%s'", path);
			fseek(f, 0, SEEK_END);
			sh->total[t] = ftell(f);
			fclose(f);
			if (detect_trailing(path, &sh->trailing[t], err) < 0)
				return -1;
		}
	} else {
		if (gen_ctx_new(&st->gen, st->o->sf, err) < 0)
			return -1;
		sh->gen = st->gen;
		for (int t = 0; t < GEN_NTABLES; t++)
			sh->total[t] = gen_rows(st->gen, (enum gen_table)t);
	}
	return run_workers(sh, st->conns, st->nconns, err);
}

static int phase_analyze(struct state *st, struct errbuf *err)
{
	MYSQL *m = st->conns[0];
	char sql[512];
	size_t k = (size_t)snprintf(sql, sizeof(sql), "ANALYZE TABLE ");
	for (int t = 0; t < GEN_NTABLES; t++)
		k += (size_t)snprintf(sql + k, sizeof(sql) - k, "%s%s", t ? ", " : "",
				      gen_table_name((enum gen_table)t));
	if (mysql_real_query(m, sql, strlen(sql)) != 0) {
		unsigned e = mysql_errno(m);
		errbuf_set(err, "ANALYZE TABLE failed: %s (%u)", mysql_error(m), e);
		return is_server_gone(e) ? LOAD_E_SERVER : -1;
	}
	MYSQL_RES *r = mysql_store_result(m);
	MYSQL_ROW row;
	int rc = 0;
	while (r && (row = mysql_fetch_row(r)))
		if (row[2] && row[3] && strcmp(row[2], "error") == 0 && rc == 0)
			rc = errbuf_set(err, "ANALYZE TABLE %s: %s", row[0] ? row[0] : "?", row[3]);
	mysql_free_result(r);
	return rc;
}

static int phase_verify(struct state *st, struct errbuf *err)
{
	MYSQL *m = st->conns[0];
	for (int t = 0; t < GEN_NTABLES; t++) {
		char sql[128];
		int64_t n = 0;
		snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM %s",
			 gen_table_name((enum gen_table)t));
		int rc = sql_int(m, &n, err, sql);
		if (rc < 0)
			return rc;
		if (n != st->sh.rows[t])
			return errbuf_set(
			    err, "table '%s' holds %" PRId64 " rows, %" PRId64 " were sent",
			    gen_table_name((enum gen_table)t), n, st->sh.rows[t]);
		if (!st->o->from_dir && t != GEN_LINEITEM) {
			int64_t want =
			    gen_rows(st->gen, (enum gen_table)t) * (t == GEN_PARTSUPP ? 4 : 1);
			if (n != want)
				return errbuf_set(
				    err, "table '%s' holds %" PRId64 " rows, expected %" PRId64,
				    gen_table_name((enum gen_table)t), n, want);
		}
		st->rep->fp.rows[t] = n;
	}
	int64_t li = st->rep->fp.rows[GEN_LINEITEM], ord = st->rep->fp.rows[GEN_ORDERS];
	if (li < ord || li > 7 * ord)
		return errbuf_set(err,
				  "table 'lineitem' holds %" PRId64 " rows for %" PRId64
				  " orders (1 to 7 each)",
				  li, ord);
	return 0;
}

static int connect_one(struct state *st, struct errbuf *err)
{
	close_all(st->conns, st->nconns);
	st->nconns = 1;
	if (!(st->conns[0] = srv_connect(st->s, NULL, err)))
		return LOAD_E_SERVER;
	return 0;
}

/* schema, tables, analyze, verify; the workers' connections are open on the database. */
static int data_phases(struct state *st, struct errbuf *err)
{
	const struct load_opts *o = st->o;
	struct load_report *rep = st->rep;
	int rc;
	uint64_t t0;

	t0 = util_now_ns();
	report_progress(o, LOAD_PHASE_SCHEMA, NULL, t0);
	st->nconns = o->jobs;
	if ((rc = connect_all(st->s, o->database, st->conns, st->nconns, err)) < 0)
		return rc;
	if ((rc = phase_schema(st, err)) < 0)
		return rc;
	rep->phase_seconds[LOAD_PHASE_SCHEMA] = since(t0);

	t0 = util_now_ns();
	if ((rc = phase_tables(st, err)) < 0)
		return rc;
	rep->phase_seconds[LOAD_PHASE_TABLES] = since(t0);

	t0 = util_now_ns();
	report_progress(o, LOAD_PHASE_ANALYZE, NULL, t0);
	if ((rc = phase_analyze(st, err)) < 0)
		return rc;
	rep->phase_seconds[LOAD_PHASE_ANALYZE] = since(t0);

	t0 = util_now_ns();
	report_progress(o, LOAD_PHASE_VERIFY, NULL, t0);
	if ((rc = phase_verify(st, err)) < 0)
		return rc;
	rep->phase_seconds[LOAD_PHASE_VERIFY] = since(t0);
	return 0;
}

int load_data(struct srv *s, const struct load_opts *o, struct load_report *out, struct errbuf *err)
{
	struct state st = {.s = s, .o = o, .rep = out};
	int rc = data_phases(&st, err);
	close_all(st.conns, st.nconns);
	gen_ctx_free(st.gen);
	return rc < 0 ? rc : 0;
}

int load_finish(struct srv *s, const struct load_opts *o, struct load_report *out,
		struct errbuf *err)
{
	struct state st = {.s = s, .o = o, .rep = out};
	struct load_report *rep = out;
	int rc;
	uint64_t t0 = util_now_ns();
	report_progress(o, LOAD_PHASE_FINGERPRINT, NULL, t0);
	if ((rc = connect_one(&st, err)) < 0)
		return rc;
	rep->fp.sf = o->sf;
	snprintf(rep->fp.generator, sizeof(rep->fp.generator), "%s",
		 o->from_dir ? "files" : GENERATOR_NAME);
	snprintf(rep->fp.indexes, sizeof(rep->fp.indexes), "%s", schema_indexes_name(o->indexes));
	make_options(rep->fp.options, sizeof(rep->fp.options), o);
	double total = 0;
	for (int p = 0; p < LOAD_PHASE_FINGERPRINT; p++)
		total += rep->phase_seconds[p];
	rep->fp.load_seconds = total;
	if ((rc = load_content_read(st.conns[0], o->database, rep->fp.content, err)) < 0 ||
	    (rc = fingerprint_write(st.conns[0], o->database, &rep->fp, err)) < 0)
		goto out;
	rep->phase_seconds[LOAD_PHASE_FINGERPRINT] = since(t0);
	struct load_fingerprint back;
	if ((rc = load_fingerprint_read(st.conns[0], o->database, &back, err)) < 0) {
		if (rc == LOAD_E_NONE)
			rc = errbuf_set(err, "the fingerprint did not persist");
		goto out;
	}
	memcpy(rep->fp.loaded_at, back.loaded_at, sizeof(back.loaded_at));
out:
	close_all(st.conns, st.nconns);
	return rc < 0 ? rc : 0;
}

int load_check_opts(const struct load_opts *o, struct errbuf *err)
{
	if (o->jobs < 1 || o->jobs > 16)
		return errbuf_set(err, "jobs must be 1 to 16, not %d", o->jobs);
	if (!(o->sf > 0))
		return errbuf_set(err, "invalid scale factor %g", o->sf);
	if (!valid_identifier(o->database))
		return errbuf_set(err,
				  "invalid database name '%s' (1 to 64 letters, digits, '_' or '$')",
				  o->database);
	if (!o->from_dir)
		return 0;
	struct stat sb;
	if (stat(o->from_dir, &sb) < 0)
		return errbuf_errno(err, errno, "--from '%s'", o->from_dir);
	if (!S_ISDIR(sb.st_mode))
		return errbuf_set(err, "--from '%s' is not a directory", o->from_dir);
	for (int t = 0; t < GEN_NTABLES; t++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s.tbl", o->from_dir,
			 gen_table_name((enum gen_table)t));
		if (access(path, R_OK) < 0)
			return errbuf_errno(err, errno, "--from '%s' lacks a readable %s.tbl",
					    o->from_dir, gen_table_name((enum gen_table)t));
		if (stat(path, &sb) < 0 || !S_ISREG(sb.st_mode))
			return errbuf_set(err, "--from '%s': %s.tbl is not a regular file",
					  o->from_dir, gen_table_name((enum gen_table)t));
	}
	return 0;
}

int load_begin(struct srv *s, const struct load_opts *o, struct load_report *out,
	       struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	if (load_check_opts(o, err) < 0)
		return -1;
	struct state st = {.s = s, .o = o, .rep = out};
	int rc = connect_one(&st, err);
	if (rc < 0)
		return rc;
	rc = load_fingerprint_read(st.conns[0], o->database, &out->fp, err);
	if (rc == 0 && same_data(&out->fp, o) && !o->force && out->fp.content[0]) {
		char now[LOAD_CONTENT_LEN];
		rc = load_content_read(st.conns[0], o->database, now, err);
		out->changed = rc == 0 && strcmp(now, out->fp.content) != 0;
	}
	if (rc == 0 && same_data(&out->fp, o) && !o->force && !out->changed) {
		out->noop = 1;
	} else if (rc == 0 || rc == LOAD_E_NONE) {
		memset(&out->fp, 0, sizeof(out->fp));
		rc = sql_exec(st.conns[0], err, "CREATE DATABASE IF NOT EXISTS `%s`", o->database);
	}
	close_all(st.conns, st.nconns);
	return rc < 0 ? rc : 0;
}
