/* SPDX-License-Identifier: MIT */
/* SQLite and MySQL/MariaDB behind hist_db_exec. SQLite: WAL journal and a busy timeout, so
 * several writers (nightly jobs) wait for each other instead of failing. MySQL: the client
 * library the tool links; '?' placeholders become escaped literals. */
#include "history/hist_db.h"
#include "base/safe_write.h"
#include "base/text.h"
#include <errno.h>
#include <mysql.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HIST_BUSY_TIMEOUT_MS 60000

struct hist_db {
	enum hist_db_kind kind;
	sqlite3 *lite;
	MYSQL *my;
	char name[512]; /* the location as shown in messages */
};

enum hist_db_kind hist_db_kind(const struct hist_db *db)
{
	return db->kind;
}

const char *hist_db_name(const struct hist_db *db)
{
	return db->name;
}

/* ---- SQLite ---- */

/* SQLite's message for rc, naming a damaged file as such (F11). */
static int lite_fail(struct hist_db *db, int rc, const char *msg, struct errbuf *err)
{
	if ((rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB)
		return errbuf_set(err,
				  "history store '%s' is corrupt (%s): restore it from a backup",
				  db->name, msg);
	return errbuf_set(err, "cannot open history store '%s': %s", db->name, msg);
}

/* "file:PATH?immutable=1" with PATH percent-encoded where a URI needs it. */
static int immutable_uri(char *out, size_t n, const char *path)
{
	size_t k = (size_t)snprintf(out, n, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p && k + 4 < n; p++)
		k += (size_t)(strchr("%?#", *p) || *p < 0x21 || *p > 0x7e
				  ? snprintf(out + k, n - k, "%%%02X", *p)
				  : snprintf(out + k, n - k, "%c", *p));
	return snprintf(out + k, n - k, "?immutable=1") >= (int)(n - k) ? -1 : 0;
}

/* Read-only (F8): a store the user may write is opened as it is (never created) with
 * query_only set by the caller, so that SQLite removes its -wal and -shm files at close as
 * usual; one the user may not write is opened SQLITE_OPEN_READONLY, and read as immutable when
 * its directory takes no -shm file, which is what it is to this reader. */
static int lite_open_ro(struct hist_db *db, const char *path)
{
	char uri[4200];
	if (access(path, W_OK) == 0)
		return sqlite3_open_v2(path, &db->lite, SQLITE_OPEN_READWRITE, NULL);
	int rc = sqlite3_open_v2(path, &db->lite, SQLITE_OPEN_READONLY, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db->lite, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
	if ((rc & 0xff) != SQLITE_READONLY && (rc & 0xff) != SQLITE_CANTOPEN)
		return rc;
	sqlite3_close(db->lite);
	db->lite = NULL;
	if (immutable_uri(uri, sizeof(uri), path) < 0)
		return SQLITE_CANTOPEN;
	return sqlite3_open_v2(uri, &db->lite, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
}

/* A store written to: SQLite writes it and its -wal, -shm and -journal files by path, so its
 * directory is made and checked as an output directory is (base/safe_write.h: no planted link
 * followed, and nobody but root and the caller can rename what is in it). */
static int lite_dir_check(const char *path, struct errbuf *err)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	int fd = util_outdir_open(dir, UTIL_OUTDIR_STABLE, NULL, err);
	if (fd < 0) {
		char why[sizeof(err->msg)];
		snprintf(why, sizeof(why), "%s", err->msg);
		return errbuf_set(err, "cannot write history store '%s': %.900s", path, why);
	}
	close(fd);
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		return errbuf_set(err,
				  "cannot write history store '%s': it is a symbolic link (not "
				  "followed; give the path it points to)",
				  path);
	return 0;
}

static int lite_open(struct hist_db *db, const char *path, int read_only, struct errbuf *err)
{
	db->kind = HIST_DB_SQLITE;
	util_term(db->name, sizeof(db->name), path);
	if (!read_only && lite_dir_check(path, err) < 0)
		return -1;
	/* SQLITE_OPEN_NOFOLLOW: a link at the name (a dangling one would be created) is refused */
	int rc = read_only
		     ? lite_open_ro(db, path)
		     : sqlite3_open_v2(
			   path, &db->lite,
			   SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW, NULL);
	if (rc != SQLITE_OK)
		return lite_fail(db, rc, db->lite ? sqlite3_errmsg(db->lite) : sqlite3_errstr(rc),
				 err);
	sqlite3_busy_timeout(db->lite, HIST_BUSY_TIMEOUT_MS);
	char *msg = NULL;
	/* the first statement reads the header: a file that is no database fails here */
	rc = sqlite3_exec(db->lite,
			  read_only ? "PRAGMA query_only=ON; SELECT count(*) FROM sqlite_master"
				    : "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON",
			  NULL, NULL, &msg);
	if (rc != SQLITE_OK) {
		lite_fail(db, sqlite3_extended_errcode(db->lite), msg ? msg : sqlite3_errstr(rc),
			  err);
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int lite_bind(sqlite3_stmt *s, const struct hist_arg *args, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int rc, k = (int)i + 1;
		switch (args[i].type) {
		case HIST_ARG_TEXT:
			rc = sqlite3_bind_text(s, k, args[i].s, -1, SQLITE_TRANSIENT);
			break;
		case HIST_ARG_REAL:
			rc = sqlite3_bind_double(s, k, args[i].d);
			break;
		case HIST_ARG_INT:
			rc = sqlite3_bind_int64(s, k, args[i].i);
			break;
		default:
			rc = sqlite3_bind_null(s, k);
		}
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

static int lite_exec(struct hist_db *db, const char *sql, const struct hist_arg *args, size_t n,
		     hist_row_fn fn, void *ctx, struct errbuf *err)
{
	sqlite3_stmt *s = NULL;
	int rc = sqlite3_prepare_v2(db->lite, sql, -1, &s, NULL);
	if (rc == SQLITE_OK)
		rc = lite_bind(s, args, n);
	while (rc == SQLITE_OK || rc == SQLITE_ROW) {
		rc = sqlite3_step(s);
		if (rc != SQLITE_ROW)
			break;
		int nc = sqlite3_column_count(s);
		const char *cols[64];
		char reals[64][32]; /* REAL in full precision (column_text keeps 15 digits) */
		for (int i = 0; i < nc && i < 64; i++) {
			if (sqlite3_column_type(s, i) == SQLITE_FLOAT) {
				snprintf(reals[i], sizeof(reals[i]), "%.17g",
					 sqlite3_column_double(s, i));
				cols[i] = reals[i];
			} else {
				cols[i] = (const char *)sqlite3_column_text(s, i);
			}
		}
		if (fn && fn(ctx, cols, (size_t)(nc < 64 ? nc : 64))) {
			rc = SQLITE_DONE;
			break;
		}
	}
	int ext = sqlite3_extended_errcode(db->lite);
	if (rc != SQLITE_DONE && ((ext & 0xff) == SQLITE_CORRUPT || (ext & 0xff) == SQLITE_NOTADB))
		errbuf_set(err, "history store '%s' is corrupt (%s): restore it from a backup",
			   db->name, sqlite3_errmsg(db->lite));
	else if (rc != SQLITE_DONE)
		errbuf_set(err, "history store '%s': %s", db->name, sqlite3_errmsg(db->lite));
	sqlite3_finalize(s);
	if (rc == SQLITE_DONE)
		return 0;
	if (ext == SQLITE_CONSTRAINT_UNIQUE || ext == SQLITE_CONSTRAINT_PRIMARYKEY)
		return HIST_DB_E_DUP;
	return (ext & 0xff) == SQLITE_BUSY ? HIST_DB_E_RETRY : -1;
}

/* ---- MySQL / MariaDB ---- */

struct my_url {
	char user[128], host[256], db[65], socket[1024], option_file[1024];
	unsigned port;
};

static int url_param(struct my_url *u, const char *kv, size_t len, struct errbuf *err)
{
	const char *eq = memchr(kv, '=', len);
	if (!eq)
		return errbuf_set(err, "bad history store URL: parameter '%.*s' has no value",
				  (int)len, kv);
	size_t kl = (size_t)(eq - kv), vl = len - kl - 1;
	char *dst = NULL;
	if (kl == 6 && !strncmp(kv, "socket", 6))
		dst = u->socket;
	else if (kl == 11 && !strncmp(kv, "option-file", 11))
		dst = u->option_file;
	if (!dst || vl == 0 || vl >= sizeof(u->socket))
		return errbuf_set(
		    err, "bad history store URL: unknown parameter '%.*s' (socket, option-file)",
		    (int)kl, kv);
	memcpy(dst, eq + 1, vl);
	dst[vl] = '\0';
	return 0;
}

/* mysql://[USER@]HOST[:PORT]/DATABASE[?socket=PATH&option-file=PATH] */
static int url_parse(struct my_url *u, const char *raw, const char *url, struct errbuf *err)
{
	memset(u, 0, sizeof(*u));
	const char *p = raw + strlen("mysql://"), *slash = strchr(p, '/');
	if (!slash)
		return errbuf_set(err,
				  "bad history store URL '%s': expected "
				  "mysql://USER@HOST[:PORT]/DATABASE",
				  url);
	const char *at = memchr(p, '@', (size_t)(slash - p));
	if (at) {
		if (memchr(p, ':', (size_t)(at - p)))
			return errbuf_set(err,
					  "bad history store URL '%s': no password in the URL "
					  "(use MYSQL_PWD or an option file)",
					  url);
		if ((size_t)(at - p) >= sizeof(u->user))
			return errbuf_set(err, "bad history store URL '%s': user too long", url);
		memcpy(u->user, p, (size_t)(at - p));
		p = at + 1;
	}
	const char *colon = memchr(p, ':', (size_t)(slash - p));
	const char *hend = colon ? colon : slash;
	if (hend == p || (size_t)(hend - p) >= sizeof(u->host))
		return errbuf_set(err, "bad history store URL '%s': no host", url);
	memcpy(u->host, p, (size_t)(hend - p));
	if (colon) {
		char *end;
		errno = 0;
		long port = strtol(colon + 1, &end, 10);
		if (end != slash || port < 1 || port > 65535 || errno)
			return errbuf_set(err, "bad history store URL '%s': bad port", url);
		u->port = (unsigned)port;
	}
	const char *q = strchr(slash, '?');
	size_t dl = q ? (size_t)(q - slash - 1) : strlen(slash + 1);
	if (dl == 0 || dl >= sizeof(u->db) ||
	    strspn(slash + 1, "abcdefghijklmnopqrstuvwxyz"
			      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$") < dl)
		return errbuf_set(err,
				  "bad history store URL '%s': database name must be letters, "
				  "digits, _ or $",
				  url);
	memcpy(u->db, slash + 1, dl);
	while (q && q[1]) {
		const char *kv = q + 1, *amp = strchr(kv, '&');
		size_t len = amp ? (size_t)(amp - kv) : strlen(kv);
		if (url_param(u, kv, len, err) < 0)
			return -1;
		q = amp;
	}
	return 0;
}

/* The URL is shown with its password hidden (F7): messages reach CI logs. */
static int my_open(struct hist_db *db, const char *raw, int read_only, struct errbuf *err)
{
	struct my_url u;
	char hidden[512];
	const char *url = db->name;
	db->kind = HIST_DB_MYSQL;
	util_term(db->name, sizeof(db->name), util_redact(hidden, sizeof(hidden), raw));
	if (url_parse(&u, raw, url, err) < 0)
		return -1;
	db->my = mysql_init(NULL);
	if (!db->my)
		return errbuf_set(err, "cannot connect to history store '%s': out of memory", url);
	unsigned timeout = 10;
	mysql_options(db->my, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
	mysql_options(db->my, MYSQL_READ_DEFAULT_GROUP, "client");
	if (u.option_file[0])
		mysql_options(db->my, MYSQL_READ_DEFAULT_FILE, u.option_file);
	mysql_options(db->my, MYSQL_SET_CHARSET_NAME, "utf8mb4");
	const char *pwd = getenv("MYSQL_PWD");
	if (!mysql_real_connect(db->my, u.host, u.user[0] ? u.user : NULL, pwd && *pwd ? pwd : NULL,
				NULL, u.port, u.socket[0] ? u.socket : NULL, 0))
		return errbuf_set(err, "cannot connect to history store '%s': %s", url,
				  mysql_error(db->my));
	char sql[200];
	snprintf(sql, sizeof(sql), "CREATE DATABASE IF NOT EXISTS `%s` CHARACTER SET utf8mb4",
		 u.db);
	if ((!read_only && mysql_query(db->my, sql) != 0) || mysql_select_db(db->my, u.db) != 0 ||
	    (read_only && mysql_query(db->my, "SET SESSION TRANSACTION READ ONLY") != 0))
		return errbuf_set(err, "history store '%s': %s", url, mysql_error(db->my));
	return 0;
}

/* The statement with each '?' replaced by an escaped literal (malloc'd). */
static char *my_expand(MYSQL *my, const char *sql, const struct hist_arg *args, size_t n)
{
	char *buf = NULL;
	size_t len = 0, k = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	for (const char *p = sql; *p; p++) {
		if (*p != '?' || k >= n) {
			fputc(*p, f);
			continue;
		}
		const struct hist_arg *a = &args[k++];
		if (a->type == HIST_ARG_TEXT) {
			size_t sl = strlen(a->s);
			char *e = malloc(2 * sl + 1);
			if (!e) {
				fclose(f);
				free(buf);
				return NULL;
			}
			mysql_real_escape_string(my, e, a->s, (unsigned long)sl);
			fprintf(f, "'%s'", e);
			free(e);
		} else if (a->type == HIST_ARG_REAL) {
			fprintf(f, "%.17g", a->d);
		} else if (a->type == HIST_ARG_INT) {
			fprintf(f, "%lld", a->i);
		} else {
			fputs("NULL", f);
		}
	}
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int my_exec(struct hist_db *db, const char *sql, const struct hist_arg *args, size_t n,
		   hist_row_fn fn, void *ctx, struct errbuf *err)
{
	char *q = my_expand(db->my, sql, args, n);
	if (!q)
		return errbuf_set(err, "history store '%s': out of memory", db->name);
	int rc = mysql_real_query(db->my, q, (unsigned long)strlen(q));
	free(q);
	if (rc != 0) {
		unsigned e = mysql_errno(db->my);
		errbuf_set(err, "history store '%s': %s", db->name, mysql_error(db->my));
		return e == 1062 ? HIST_DB_E_DUP : e == 1213 || e == 1205 ? HIST_DB_E_RETRY : -1;
	}
	MYSQL_RES *res = mysql_store_result(db->my);
	if (!res) {
		if (mysql_field_count(db->my) == 0)
			return 0;
		return errbuf_set(err, "history store '%s': %s", db->name, mysql_error(db->my));
	}
	unsigned nc = mysql_num_fields(res);
	MYSQL_ROW row;
	while ((row = mysql_fetch_row(res)))
		if (fn && fn(ctx, (const char *const *)row, nc))
			break;
	mysql_free_result(res);
	return 0;
}

/* ---- both ---- */

int hist_db_open(struct hist_db **out, const char *location, int read_only, struct errbuf *err)
{
	struct hist_db *db = calloc(1, sizeof(*db));
	*out = NULL;
	if (!db)
		return errbuf_set(err, "out of memory");
	int rc = strncmp(location, "mysql://", 8) == 0 ? my_open(db, location, read_only, err)
						       : lite_open(db, location, read_only, err);
	if (rc < 0) {
		hist_db_close(db);
		return -1;
	}
	*out = db;
	return 0;
}

void hist_db_close(struct hist_db *db)
{
	if (!db)
		return;
	if (db->lite)
		sqlite3_close(db->lite);
	if (db->my)
		mysql_close(db->my);
	free(db);
}

int hist_db_exec(struct hist_db *db, const char *sql, const struct hist_arg *args, size_t n_args,
		 hist_row_fn fn, void *ctx, struct errbuf *err)
{
	return db->kind == HIST_DB_SQLITE ? lite_exec(db, sql, args, n_args, fn, ctx, err)
					  : my_exec(db, sql, args, n_args, fn, ctx, err);
}

int hist_row_int(void *ctx, const char *const *cols, size_t n)
{
	long long *v = ctx;
	if (n > 0 && cols[0])
		*v = strtoll(cols[0], NULL, 10);
	return 1;
}

long long hist_db_last_id(struct hist_db *db)
{
	return db->kind == HIST_DB_SQLITE ? (long long)sqlite3_last_insert_rowid(db->lite)
					  : (long long)mysql_insert_id(db->my);
}

int hist_db_begin(struct hist_db *db, struct errbuf *err)
{
	return hist_db_exec(db,
			    db->kind == HIST_DB_SQLITE ? "BEGIN IMMEDIATE" : "START TRANSACTION",
			    NULL, 0, NULL, NULL, err);
}

int hist_db_commit(struct hist_db *db, struct errbuf *err)
{
	return hist_db_exec(db, "COMMIT", NULL, 0, NULL, NULL, err);
}

void hist_db_rollback(struct hist_db *db)
{
	struct errbuf ignored;
	hist_db_exec(db, "ROLLBACK", NULL, 0, NULL, NULL, &ignored);
}
