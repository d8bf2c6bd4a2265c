/* SPDX-License-Identifier: MIT */
/* For the tests of reports/: a result file of tests/data read (a fatal failure when it cannot
 * be), and the compare model's query by id (a fatal failure when it was not compared). */
#ifndef DBT3_TEST_TH_RPT_H
#define DBT3_TEST_TH_RPT_H
#include "reports/rpt.h"
#include "result/res.h"
#include "tests/harness.h"
#include <stdio.h>
#include <string.h>

static inline struct res_file *th_rpt_load(const char *name)
{
	char path[4096];
	struct errbuf err = {""};
	struct res_file *res = NULL;
	snprintf(path, sizeof(path), "%s/tests/data/%s", DBT3_SOURCE_DIR, name);
	if (res_file_read(&res, path, &err) < 0)
		fprintf(stderr, "%s\n", err.msg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	return res;
}

static inline const struct rpt_query *th_rpt_query(const struct rpt_compare *c, const char *id)
{
	for (size_t i = 0; i < c->n_queries; i++)
		if (strcmp(c->queries[i].id, id) == 0)
			return &c->queries[i];
	CU_FAIL_FATAL("query not compared");
	return NULL;
}

#endif
