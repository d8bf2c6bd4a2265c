/* SPDX-License-Identifier: MIT */
/* The history store: one versioned schema in SQLite or MySQL/MariaDB (docs/history.md), created
 * and migrated on open; results added whole, in one transaction each. */
#include "base/safe_write.h"
#include "history/hist.h"
#include "history/hist_db.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct hist_store {
	struct hist_db *db;
	int version_before;
};

/* Migration n takes the schema from version n - 1 to n. "@ID@" is the dialect's auto-increment
 * key. */
static const char *const migration_1[] = {
    "CREATE TABLE hist_series (id CHAR(16) NOT NULL PRIMARY KEY, host VARCHAR(255) NOT NULL, "
    "scale_factor DOUBLE NOT NULL, dataset_fingerprint VARCHAR(128), "
    "server_flavour VARCHAR(64) NOT NULL, protocol VARCHAR(255) NOT NULL)",
    "CREATE TABLE hist_results (id @ID@, sha256 CHAR(64) NOT NULL UNIQUE, "
    "series_id CHAR(16) NOT NULL REFERENCES hist_series(id), started_at VARCHAR(32) NOT NULL, "
    "finished_at VARCHAR(32), added_at VARCHAR(32) NOT NULL, build_id VARCHAR(255), "
    "label VARCHAR(255), host VARCHAR(255) NOT NULL, scale_factor DOUBLE NOT NULL, "
    "dataset_fingerprint VARCHAR(128), server_flavour VARCHAR(64) NOT NULL, "
    "server_version VARCHAR(255), server_binary_sha256 CHAR(64), protocol VARCHAR(255) NOT NULL, "
    "variant VARCHAR(255), tool_version VARCHAR(64), source_name VARCHAR(1024), "
    "result_json LONGTEXT NOT NULL)",
    "CREATE TABLE hist_restarts (result_id BIGINT NOT NULL REFERENCES hist_results(id) "
    "ON DELETE CASCADE, query_id VARCHAR(16) NOT NULL, restart_index INTEGER NOT NULL, "
    "status VARCHAR(16) NOT NULL, mean_ms DOUBLE, n_measured INTEGER NOT NULL, "
    "measured_ms LONGTEXT NOT NULL, PRIMARY KEY (result_id, query_id, restart_index))",
    NULL};
static const char *const migration_2[] = {
    "CREATE INDEX hist_results_series ON hist_results (series_id, started_at)", NULL};
/* the work counters of each restart (docs/work.md), NULL for files without them */
static const char *const migration_3[] = {"ALTER TABLE hist_restarts ADD COLUMN work LONGTEXT",
					  NULL};
/* the instruction counts of each restart (run --instructions, docs/work.md), NULL without */
static const char *const migration_4[] = {
    "ALTER TABLE hist_restarts ADD COLUMN instructions LONGTEXT", NULL};
static const char *const *const migrations[HIST_SCHEMA_VERSION] = {migration_1, migration_2,
								    migration_3, migration_4};

struct hist_db *hist_store_db(struct hist_store *st)
{
	return st->db;
}

void hist_store_close(struct hist_store *st)
{
	if (!st)
		return;
	hist_db_close(st->db);
	free(st);
}

static int exec_ddl(struct hist_db *db, const char *ddl, struct errbuf *err)
{
	const char *id = hist_db_kind(db) == HIST_DB_SQLITE
			     ? "INTEGER PRIMARY KEY AUTOINCREMENT"
			     : "BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY";
	char sql[2048];
	const char *at = strstr(ddl, "@ID@");
	if (at)
		snprintf(sql, sizeof(sql), "%.*s%s%s", (int)(at - ddl), ddl, id, at + 4);
	else
		snprintf(sql, sizeof(sql), "%s", ddl);
	return hist_db_exec(db, sql, NULL, 0, NULL, NULL, err);
}

/* The schema version, 0 when none is recorded; a store that has its tables but no version was
 * damaged (F11), and so is one whose version is not a number. */
static int schema_version(struct hist_store *st, long long *out, struct errbuf *err)
{
	long long v = 0, tables = 0;
	*out = 0;
	if (hist_db_exec(st->db, "SELECT MAX(version) FROM hist_schema", NULL, 0, hist_row_int, &v,
			 err) < 0)
		return -1;
	if (v < 0)
		return errbuf_set(err, "history store '%s' is corrupt: schema version %lld",
				  hist_db_name(st->db), v);
	if (v > 0)
		return (int)(*out = v, 0);
	if (hist_db_exec(st->db,
			 hist_db_kind(st->db) == HIST_DB_SQLITE
			     ? "SELECT count(*) FROM sqlite_master WHERE name = 'hist_series'"
			     : "SELECT count(*) FROM information_schema.tables WHERE table_schema = "
			       "DATABASE() AND table_name = 'hist_series'",
			 NULL, 0, hist_row_int, &tables, err) < 0)
		return -1;
	if (tables)
		return errbuf_set(err,
				  "history store '%s' is corrupt: it has tables but no schema version "
				  "(restore it from a backup)",
				  hist_db_name(st->db));
	return 0;
}

static int migrate_locked(struct hist_store *st, struct errbuf *err)
{
	long long v = 0;
	if (schema_version(st, &v, err) < 0)
		return -1;
	st->version_before = (int)v;
	if (v > HIST_SCHEMA_VERSION)
		return errbuf_set(err,
				  "history store '%s' has schema version %lld, newer than this "
				  "dbt3stab knows (%d): use a newer dbt3stab",
				  hist_db_name(st->db), v, HIST_SCHEMA_VERSION);
	for (long long n = v + 1; n <= HIST_SCHEMA_VERSION; n++) {
		for (const char *const *s = migrations[n - 1]; *s; s++)
			if (exec_ddl(st->db, *s, err) < 0)
				return -1;
		struct hist_arg a = HIST_INT(n);
		if (hist_db_exec(st->db, "DELETE FROM hist_schema", NULL, 0, NULL, NULL, err) < 0 ||
		    hist_db_exec(st->db, "INSERT INTO hist_schema (version) VALUES (?)", &a, 1, NULL,
				 NULL, err) < 0)
			return -1;
	}
	return 0;
}

/* SQLite: one immediate transaction (DDL is transactional). MySQL: DDL commits implicitly, so
 * concurrent openers take a named lock instead. */
static int migrate(struct hist_store *st, struct errbuf *err)
{
	struct hist_db *db = st->db;
	int rc;
	if (hist_db_exec(db, "CREATE TABLE IF NOT EXISTS hist_schema (version INTEGER NOT NULL)",
			 NULL, 0, NULL, NULL, err) < 0)
		return -1;
	if (hist_db_kind(db) == HIST_DB_SQLITE) {
		if (hist_db_begin(db, err) < 0)
			return -1;
		rc = migrate_locked(st, err);
		if (rc == 0)
			return hist_db_commit(db, err);
		hist_db_rollback(db);
		return rc;
	}
	long long got = 0;
	if (hist_db_exec(db, "SELECT GET_LOCK('dbt3stab_history_schema', 60)", NULL, 0, hist_row_int,
			 &got, err) < 0)
		return -1;
	if (got != 1)
		return errbuf_set(err, "history store '%s': schema lock not granted in 60 s",
				  hist_db_name(db));
	rc = migrate_locked(st, err);
	struct errbuf ignored;
	hist_db_exec(db, "SELECT RELEASE_LOCK('dbt3stab_history_schema')", NULL, 0, NULL, NULL,
		     &ignored);
	return rc;
}

/* A store opened for reading is not migrated: it must be at this version already. */
static int check_readable(struct hist_store *st, struct errbuf *err)
{
	long long v = 0;
	long long has = 0;
	const char *probe = hist_db_kind(st->db) == HIST_DB_SQLITE
				? "SELECT count(*) FROM sqlite_master WHERE name = 'hist_schema'"
				: "SELECT count(*) FROM information_schema.tables WHERE table_schema = "
				  "DATABASE() AND table_name = 'hist_schema'";
	if (hist_db_exec(st->db, probe, NULL, 0, hist_row_int, &has, err) < 0)
		return -1;
	if (!has)
		return errbuf_set(err, "history store '%s' holds no dbt3stab history (add a result "
				       "first: dbt3stab history add)",
				  hist_db_name(st->db));
	if (schema_version(st, &v, err) < 0)
		return -1;
	st->version_before = (int)v;
	if (v != HIST_SCHEMA_VERSION)
		return errbuf_set(err,
				  "history store '%s' has schema version %lld, this dbt3stab reads %d: "
				  "%s",
				  hist_db_name(st->db), v, HIST_SCHEMA_VERSION,
				  v > HIST_SCHEMA_VERSION ? "use a newer dbt3stab"
							  : "upgrade it by adding a result "
							    "(dbt3stab history add)");
	return 0;
}

static int store_open(struct hist_store **out, const char *location, int read_only,
		      struct errbuf *err)
{
	char *def = NULL;
	*out = NULL;
	if (!location) {
		/* made without following a link another user planted, and one nobody else can
		 * rename entries of: the store and its -wal and -shm files are opened by path */
		char *dir = util_state_dir();
		int dfd = dir ? util_outdir_open(dir, UTIL_OUTDIR_STABLE, NULL, err)
			      : errbuf_set(err, "out of memory");
		if (dfd < 0) {
			free(dir);
			return -1;
		}
		close(dfd);
		int n = asprintf(&def, "%s/history.sqlite", dir);
		free(dir);
		if (n < 0)
			return errbuf_set(err, "out of memory");
		location = def;
	}
	/* a store not made yet is made, empty, as before (a first nightly check says "no results") */
	if (read_only && strncmp(location, "mysql://", 8) != 0 && access(location, F_OK) != 0 &&
	    errno == ENOENT)
		read_only = 0;
	struct hist_store *st = calloc(1, sizeof(*st));
	int rc = st ? hist_db_open(&st->db, location, read_only, err)
		    : errbuf_set(err, "out of memory");
	free(def);
	if (rc == 0)
		rc = read_only ? check_readable(st, err) : migrate(st, err);
	if (rc < 0) {
		hist_store_close(st);
		return -1;
	}
	*out = st;
	return 0;
}

int hist_store_open(struct hist_store **out, const char *location, struct errbuf *err)
{
	return store_open(out, location, 0, err);
}

int hist_store_open_read(struct hist_store **out, const char *location, struct errbuf *err)
{
	return store_open(out, location, 1, err);
}

int hist_store_version(const struct hist_store *st, int *out_before, int *out_now)
{
	*out_before = st->version_before;
	*out_now = HIST_SCHEMA_VERSION;
	return 0;
}
