/* SPDX-License-Identifier: MIT */
/* Query plans as the server explains them: EXPLAIN FORMAT=JSON reduced to its shape (tables,
 * join order, access types, keys, operations), without costs, row estimates or conditions, so a
 * fingerprint changes only when the plan does. (The measurement plan is struct run_plan.) */
#ifndef DBT3_RUN_EXPLAIN_H
#define DBT3_RUN_EXPLAIN_H
#include "base/util.h"
#include <mysql.h>

/* The shape of an EXPLAIN FORMAT=JSON document (MariaDB or MySQL) as compact JSON with the
 * members in the server's order; *out is malloc'd, the caller frees. */
int run_explain_shape(const char *explain_json, char **out, struct errbuf *err);

/* Runs "EXPLAIN FORMAT=JSON <sql>" on m: *out_text gets the server's text, out_sha256 the
 * SHA-256 of its shape. The caller frees *out_text. */
int run_explain_fetch(MYSQL *m, const char *sql, char **out_text, char out_sha256[65],
		      struct errbuf *err);

#endif
