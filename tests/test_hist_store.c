/* SPDX-License-Identifier: MIT */
/* The history store in SQLite (a file in a temp dir): tests/hist_store_cases.h, plus a file that
 * is no database. */
#include "tests/hist_store_cases.h"

static char *tmp;
static char db_path[4200];

static void test_hist_store__corrupt_file_is_one_line_error(void)
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
	CU_ASSERT_PTR_NULL(strchr(err.msg, '\n'));
}

int main(int argc, char **argv)
{
	static const struct th_case cases[] = {
	    {"migrates_from_an_empty_store", hsc_migrates_from_an_empty_store},
	    {"add_is_idempotent_and_refuses_invalid_files",
	     hsc_add_is_idempotent_and_refuses_invalid_files},
	    {"concurrent_adds_both_land", hsc_concurrent_adds_both_land},
	    {"check_finds_the_reference_change_points", hsc_check_finds_the_reference_change_points},
	    {"corrupt_file_is_one_line_error", test_hist_store__corrupt_file_is_one_line_error},
	    {NULL, NULL},
	};
	tmp = th_tempdir("hist_store");
	snprintf(db_path, sizeof(db_path), "%s/history.sqlite", tmp);
	hsc_location = db_path;
	hsc_dir = tmp;
	int rc = th_run("hist_store", cases, argc, argv);
	th_rmtree(tmp);
	free(tmp);
	return rc;
}
