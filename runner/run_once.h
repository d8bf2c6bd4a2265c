/* SPDX-License-Identifier: MIT */
/* One DBT-3 query executed once outside the measurement protocol (the query command), through
 * the same timed execution as every measured one (run_exec), its result kept. */
#ifndef DBT3_RUN_ONCE_H
#define DBT3_RUN_ONCE_H
#include "base/util.h"
#include "dbt3/qry.h"
#include "runner/run_exec.h"
#include <mysql.h>

enum run_once_flags {
	RUN_ONCE_EXPLAIN = 1 << 0, /* EXPLAIN of the timed statement instead: the plan's rows */
};

/* Runs q on m (whose current database holds the DBT-3 tables): q->pre, then q->sql through
 * run_exec with every row kept in out (out->seconds: run_exec's wall time, from sending the
 * statement until the last row is fetched; out->nrows: its row count), then q->post, also after
 * a failure of q->sql unless the connection is lost. Returns RUN_EXEC_OK or the status of the
 * first failure, with err filled. The caller releases out with qry_result_release() either way. */
enum run_exec_status run_once(struct qry_result *out, MYSQL *m, const struct qry *q, unsigned flags,
			      struct errbuf *err);

#endif
