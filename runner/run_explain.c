/* SPDX-License-Identifier: MIT */
/* EXPLAIN plan shapes (runner/run_explain.h). */
#include "runner/run_explain.h"
#include "result/res_explain.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int run_explain_shape(const char *explain_json, char **out, struct errbuf *err)
{
	return res_explain_shape(explain_json, out, err);
}

int run_explain_fetch(MYSQL *m, const char *sql, char **out_text, char out_sha256[65],
		      struct errbuf *err)
{
	char *q = NULL;
	int rc = -1;
	if (asprintf(&q, "EXPLAIN FORMAT=JSON %s", sql) < 0)
		return errbuf_set(err, "out of memory");
	if (mysql_real_query(m, q, (unsigned long)strlen(q)) != 0) {
		errbuf_set(err, "EXPLAIN failed: %s (error %u)", mysql_error(m), mysql_errno(m));
		goto out;
	}
	MYSQL_RES *res = mysql_store_result(m);
	MYSQL_ROW row = res ? mysql_fetch_row(res) : NULL;
	if (!row || !row[0]) {
		errbuf_set(err, "EXPLAIN returned no plan: %s", mysql_error(m));
		mysql_free_result(res);
		goto out;
	}
	char *text = strdup(row[0]);
	mysql_free_result(res);
	char *s = NULL;
	if (!text || run_explain_shape(text, &s, err) < 0) {
		if (!text)
			errbuf_set(err, "out of memory");
		free(text);
		goto out;
	}
	util_sha256_hex(out_sha256, s, strlen(s));
	free(s);
	*out_text = text;
	rc = 0;
out:
	free(q);
	return rc;
}
