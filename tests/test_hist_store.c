/* SPDX-License-Identifier: MIT */
/* The history store in SQLite (a file in a temp dir): tests/hist_store_cases.h, plus a file that
 * is no database. */
#include "tests/hist_store_cases.h"
#include <jansson.h>
#include <sqlite3.h>

static char *tmp;
static char db_path[4200];

TH_TEST(hist_store, corrupt_file_is_one_line_error)
{
	char path[4200];
	struct hist_store *st = NULL;
	struct errbuf err = {""};
	snprintf(path, sizeof(path), "%s/corrupt.sqlite", tmp);
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (int i = 0; i < 200; i++)
		fputs("this is not an SQLite database, just text\n", f);
	fclose(f);
	CU_ASSERT_EQUAL(hist_store_open(&st, path, &err), -1);
	CU_ASSERT_PTR_NULL(st);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "file is not a database"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "is corrupt")); /* F11: named as such */
	CU_ASSERT_PTR_NULL(strchr(err.msg, '\n'));
}

/* A store of its own in the temp dir, with night 0 added: its path in out. */
static void own_store(char *out, size_t n, const char *name)
{
	struct hist_store *st = NULL;
	struct errbuf err = {""};
	long long id = 0;
	enum hist_add_status status;
	snprintf(out, n, "%s/%s", tmp, name);
	char *night = hsc_night(0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(night);
	CU_ASSERT_EQUAL_FATAL(hist_store_open(&st, out, &err), 0);
	CU_ASSERT_EQUAL(hist_store_add(st, night, NULL, NULL, &id, &status, &err), 0);
	hist_store_close(st);
	free(night);
}

/* F11: a store that lost its schema version but has its tables is named corrupt (it said
 * "table hist_series already exists"), for writing and for reading. */
TH_TEST(hist_store, lost_schema_version_is_named_corrupt)
{
	char path[4200];
	struct hist_store *st = NULL;
	struct errbuf err = {""};
	sqlite3 *db = NULL;
	own_store(path, sizeof(path), "lost.sqlite");
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &db), SQLITE_OK);
	CU_ASSERT_EQUAL_FATAL(sqlite3_exec(db, "DELETE FROM hist_schema", NULL, NULL, NULL),
			      SQLITE_OK);
	sqlite3_close(db);
	CU_ASSERT_EQUAL(hist_store_open(&st, path, &err), -1);
	CU_ASSERT_STRING_EQUAL(strstr(err.msg, "is corrupt"),
			       "is corrupt: it has tables but no schema version (restore it from a "
			       "backup)");
	CU_ASSERT_EQUAL(hist_store_open_read(&st, path, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "is corrupt"));
}

/* F8: opened for reading, nothing is written: the file's bytes stay, a write through the
 * handle fails, and no -wal file is left behind. (As another user: test_srv_hostile_db.c.) */
TH_TEST(hist_store, read_open_writes_nothing)
{
	char path[4200], before[65], after[65], wal[4300];
	struct hist_store *st = NULL;
	struct errbuf err = {""};
	long long id = 0;
	enum hist_add_status status;
	own_store(path, sizeof(path), "ro.sqlite");
	CU_ASSERT_EQUAL_FATAL(util_sha256_file(before, path, &err), 0);
	CU_ASSERT_EQUAL_FATAL(hist_store_open_read(&st, path, &err), 0);
	CU_ASSERT_EQUAL(hsc_count_results(st), 1);
	char *night = hsc_night(1);
	CU_ASSERT_EQUAL(hist_store_add(st, night, NULL, NULL, &id, &status, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "readonly"));
	free(night);
	hist_store_close(st);
	CU_ASSERT_EQUAL(util_sha256_file(after, path, &err), 0);
	CU_ASSERT_STRING_EQUAL(before, after);
	snprintf(wal, sizeof(wal), "%s-wal", path); /* removed at close as after a write */
	CU_ASSERT_EQUAL(access(wal, F_OK), -1);
}

/* F10: a re-indented, relabelled copy of a run is the run already stored; a copy with one
 * measurement changed is another run. */
TH_TEST(hist_store, add_deduplicates_on_the_run_not_the_bytes)
{
	char path[4200];
	struct hist_store *st = NULL;
	struct errbuf err = {""};
	struct res_file *res = NULL;
	long long id0 = 0, id1 = 0, id2 = 0;
	enum hist_add_status status;
	own_store(path, sizeof(path), "dedup.sqlite");
	char *night = hsc_night(0), *copy = hsc_path("copy.json"), *other = hsc_path("other.json");
	CU_ASSERT_EQUAL_FATAL(res_file_read(&res, night, &err), 0);
	res_set_string(&res->label, "relabelled");
	CU_ASSERT_EQUAL_FATAL(res_file_write(res, copy, &err), 0);
	res->queries[0].restarts[0].measured_ms[0] *= 1.01;
	CU_ASSERT_EQUAL_FATAL(res_file_write(res, other, &err), 0);
	res_file_free(res);
	json_t *j = json_load_file(copy, 0, NULL); /* re-indented: other whitespace, other order */
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL_FATAL(json_dump_file(j, copy, JSON_INDENT(7) | JSON_SORT_KEYS), 0);
	json_decref(j);
	CU_ASSERT_EQUAL_FATAL(hist_store_open(&st, path, &err), 0);
	CU_ASSERT_EQUAL(hist_store_add(st, night, NULL, NULL, &id0, &status, &err), 0);
	CU_ASSERT_EQUAL(status, HIST_DUPLICATE);
	CU_ASSERT_EQUAL(hist_store_add(st, copy, NULL, NULL, &id1, &status, &err), 0);
	CU_ASSERT_EQUAL(status, HIST_DUPLICATE);
	CU_ASSERT_EQUAL(id1, id0);
	CU_ASSERT_EQUAL(hist_store_add(st, other, NULL, NULL, &id2, &status, &err), 0);
	CU_ASSERT_EQUAL(status, HIST_ADDED);
	CU_ASSERT_NOT_EQUAL(id2, id0);
	CU_ASSERT_EQUAL(hsc_count_results(st), 2);
	hist_store_close(st);
	free(night);
	free(copy);
	free(other);
}

int main(int argc, char **argv)
{
	tmp = th_tempdir("hist_store");
	snprintf(db_path, sizeof(db_path), "%s/history.sqlite", tmp);
	hsc_location = db_path;
	hsc_dir = tmp;
	int rc = th_run("hist_store", th_cases(), argc, argv);
	th_rmtree(tmp);
	free(tmp);
	return rc;
}
