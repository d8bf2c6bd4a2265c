/* SPDX-License-Identifier: MIT */
/* The scale factor from the loaded data (commands/cmd_scale.c): run and query on an instance
 * loaded at SF 0.01 need no -s and say where the scale factor came from; a -s that disagrees
 * with the data stays an error. */
#include "harness.h"
#include "result/res.h"
#include "tests/th_db.h"
#include "tests/th_schema.h"
#include "tests/th_spawn.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct th_db db; /* one loaded instance shared by the cases (made in main) */
static int loaded;

#define SAID "scale factor 0.01, from the loaded data"

/* dbt3stab args on the instance (its --datadir and --port; run: --no-pin), to the end; its
 * output in tmp/TAG.log (*log, freed by the caller). The exit code. */
static int run_logged(const char *tag, const char *const *args, char **log)
{
	char path[4300];
	snprintf(path, sizeof(path), "%s/%s.log", db.tmp, tag);
	const char *const inst[] = {"--datadir", db.inst, "--port", db.portarg, NULL};
	int rc = th_wait_exit(strcmp(args[0], "run") == 0 ? th_db_spawn(&db, path, args, 0)
							  : th_spawn(path, args, inst));
	*log = th_slurp(path);
	if (rc != 0)
		fprintf(stderr, "%s (exit %d):\n%s\n", tag, rc, *log ? *log : "");
	return rc;
}

TH_TEST(cmd_scale_db, run_without_scale_takes_it_from_the_data)
{
	CU_ASSERT_FATAL(loaded);
	char out[4300], *log = NULL;
	snprintf(out, sizeof(out), "%s/noscale.json", db.tmp);
	const char *args[] = {"run", "-o",	 out, "--queries", "6", "--restarts",
			      "2",   "--warmup", "0", "--runs",	   "1", NULL};
	CU_ASSERT_EQUAL(run_logged("noscale", args, &log), 0);
	CU_ASSERT_EQUAL(th_count(log ? log : "", SAID), 1);
	struct res_file *res = th_result_read(out);
	CU_ASSERT_DOUBLE_EQUAL(res_file_scale_factor(res), 0.01, 1e-12);
	res_file_free(res);
	free(log);
}

TH_TEST(cmd_scale_db, run_with_a_scale_the_data_has_not_is_refused)
{
	CU_ASSERT_FATAL(loaded);
	char out[4300], *log = NULL;
	snprintf(out, sizeof(out), "%s/wrong.json", db.tmp);
	const char *args[] = {"run",	   "-s", "0.02",       "-o", out,
			      "--queries", "6",	 "--restarts", "2",  NULL};
	CU_ASSERT_EQUAL(run_logged("wrong", args, &log), 2);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(log ? log : "", "the loaded data is scale factor 0.01, not 0.02"));
	CU_ASSERT_PTR_NULL(strstr(log ? log : "", SAID));
	free(log);
}

TH_TEST(cmd_scale_db, query_without_scale_says_where_it_came_from)
{
	CU_ASSERT_FATAL(loaded);
	char *log = NULL;
	const char *args[] = {"query", "6", NULL};
	CU_ASSERT_EQUAL(run_logged("query", args, &log), 0);
	CU_ASSERT_EQUAL(th_count(log ? log : "", SAID), 1);
	free(log);
	const char *quiet[] = {"query", "6", "-q", NULL};
	CU_ASSERT_EQUAL(run_logged("query-q", quiet, &log), 0);
	CU_ASSERT_PTR_NULL(strstr(log ? log : "", SAID));
	free(log);
}

int main(int argc, char **argv)
{
	return th_db_main_loaded(&db, &loaded, "scale", "cmd_scale_db", th_cases(), argc, argv);
}
