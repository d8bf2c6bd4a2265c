/* SPDX-License-Identifier: MIT */
#include "runner/run_once.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int keep_columns(void *arg, const MYSQL_FIELD *fields, unsigned int n, struct errbuf *err)
{
	if (qry_result_columns(arg, fields, n) < 0)
		return errbuf_set(err, "out of memory keeping the result");
	return 0;
}

static int keep_row(void *arg, MYSQL_ROW row, const unsigned long *len, unsigned int n,
		    struct errbuf *err)
{
	(void)n; /* qry_result_columns was told the count */
	if (qry_result_add_row(arg, row, len) < 0)
		return errbuf_set(err, "out of memory keeping the result");
	return 0;
}

/* The timed statement, or EXPLAIN of it: caller frees; NULL when out of memory. */
static char *statement(const struct qry *q, unsigned flags)
{
	char *s = NULL;
	if (!(flags & RUN_ONCE_EXPLAIN))
		return strdup(q->sql);
	return asprintf(&s, "EXPLAIN %s", q->sql) < 0 ? NULL : s;
}

enum run_exec_status run_once(struct qry_result *out, MYSQL *m, const struct qry *q, unsigned flags,
			      struct errbuf *err)
{
	const struct run_exec_sink sink = {keep_columns, keep_row, out};
	struct run_exec_result x;
	struct errbuf e;
	enum run_exec_status st = RUN_EXEC_OK;
	memset(out, 0, sizeof(*out));
	char *sql = statement(q, flags);
	if (!sql) {
		errbuf_set(err, "out of memory");
		return RUN_EXEC_ERROR;
	}
	if (q->pre && (st = run_exec_simple(m, q->pre, &e)) != RUN_EXEC_OK)
		goto out;
	st = run_exec(m, sql, 0, NULL, NULL, &sink, &x, &e);
	out->seconds = (double)x.wall_ns / 1e9;
	if (q->post && st != RUN_EXEC_LOST) {
		struct errbuf pe;
		enum run_exec_status pst = run_exec_simple(m, q->post, &pe);
		if (st == RUN_EXEC_OK && pst != RUN_EXEC_OK) {
			e = pe;
			st = pst;
		}
	}
out:
	if (st != RUN_EXEC_OK)
		errbuf_set(err, "Q%d failed: %s", q->id, e.msg);
	free(sql);
	return st;
}
