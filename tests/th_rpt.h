/* SPDX-License-Identifier: MIT */
/* The compare model's query by id, for the tests of reports/: a fatal failure when it was not
 * compared. */
#ifndef DBT3_TEST_TH_RPT_H
#define DBT3_TEST_TH_RPT_H
#include "reports/rpt.h"
#include "tests/harness.h"
#include <string.h>

static inline const struct rpt_query *th_rpt_query(const struct rpt_compare *c, const char *id)
{
	for (size_t i = 0; i < c->n_queries; i++)
		if (strcmp(c->queries[i].id, id) == 0)
			return &c->queries[i];
	CU_FAIL_FATAL("query not compared");
	return NULL;
}

#endif
