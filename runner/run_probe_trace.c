/* SPDX-License-Identifier: MIT */
/* run --optimizer-trace: once per restart and query, after its measured executions and outside
 * every timed window, the optimizer trace of EXPLAIN of the query (the join optimization without
 * executing it), kept as its decision summary "optimizer_trace" (result/res_trace.h). */
#include "base/cli.h"
#include "result/res_trace.h"
#include "runner/run_int.h"
#include <limits.h>

/* Room for the trace: the largest of the 22 queries at SF 0.1 (Q8) is about 650 KB. */
#define TRACE_MEM_BYTES "16777216"

struct trace_probe {
	struct run_session *s;
};

static int trace_open(void **out, void *run, struct run_state *c, struct run_target_state *t,
		      struct run_session *s, struct errbuf *err)
{
	struct trace_probe *p;
	(void)run;
	(void)t;
	if (!c->plan->optimizer_trace)
		return 0;
	if (!(p = calloc(1, sizeof(*p))))
		return errbuf_set(err, "out of memory");
	p->s = s;
	*out = p;
	return 0;
}

static int statement(MYSQL *m, const char *sql, struct errbuf *err)
{
	if (mysql_real_query(m, sql, (unsigned long)strlen(sql)) != 0)
		return errbuf_set(err, "%s (error %u)", mysql_error(m), mysql_errno(m));
	do { /* EXPLAIN's rows, read and dropped */
		MYSQL_RES *r = mysql_store_result(m);
		mysql_free_result(r);
	} while (mysql_next_result(m) == 0);
	return mysql_errno(m) ? errbuf_set(err, "%s (error %u)", mysql_error(m), mysql_errno(m))
			      : 0;
}

/* The trace of the last traced statement and MISSING_BYTES_BEYOND_MAX_MEM_SIZE into *out. */
static int trace_read(json_t **out, MYSQL *m, struct errbuf *err)
{
	static const char sql[] = "SELECT TRACE, MISSING_BYTES_BEYOND_MAX_MEM_SIZE FROM "
				  "information_schema.OPTIMIZER_TRACE";
	long missing = 0;
	if (mysql_real_query(m, sql, sizeof(sql) - 1) != 0)
		return errbuf_set(err, "%s (error %u)", mysql_error(m), mysql_errno(m));
	MYSQL_RES *r = mysql_store_result(m);
	MYSQL_ROW row = r ? mysql_fetch_row(r) : NULL;
	unsigned long *len = row ? mysql_fetch_lengths(r) : NULL;
	if (!row || !row[0] || !len) {
		mysql_free_result(r);
		return errbuf_set(err, "no optimizer trace");
	}
	if (row[1] && cli_parse_long(row[1], 0, LONG_MAX, &missing) < 0)
		missing = -1;
	int rc = res_trace_summarize(out, row[0], len[0], missing, err);
	mysql_free_result(r);
	return rc;
}

/* Pre (Q15's view), trace on, EXPLAIN, the trace read, trace off, post. */
static int trace_take(json_t **out, MYSQL *m, const struct qry *q, struct errbuf *err)
{
	char *explain = NULL;
	struct errbuf off;
	int rc = -1;
	if (asprintf(&explain, "EXPLAIN %s", q->sql) < 0)
		return errbuf_set(err, "out of memory");
	if (q->pre && statement(m, q->pre, err) < 0)
		goto out;
	if (statement(m,
		      "SET SESSION optimizer_trace='enabled=on', "
		      "optimizer_trace_max_mem_size=" TRACE_MEM_BYTES,
		      err) == 0 &&
	    statement(m, explain, err) == 0)
		rc = trace_read(out, m, err);
	if (statement(m, "SET SESSION optimizer_trace='enabled=off'", &off) < 0 && rc == 0) {
		*err = off;
		json_decref(*out);
		*out = NULL;
		rc = -1;
	}
	if (q->post)
		statement(m, q->post, &off);
out:
	free(explain);
	return rc;
}

/* After the query's window: its time is the restart's fixed cost, like the memory probe's. */
static void trace_record(void *st, struct run_state *c, const struct run_probe_query *q)
{
	struct trace_probe *p = st;
	const struct qry *qq = &c->queries[q->num];
	struct errbuf err;
	json_t *sum = NULL;
	if (!qq->sql || q->nm == 0 || !p->s->conn)
		return;
	uint64_t t0 = util_now_ns();
	if (trace_take(&sum, p->s->conn, qq, &err) < 0)
		run_event(c, "Q%d: no optimizer trace: %s", q->num, err.msg);
	else
		json_object_set_new(q->rr->extra, "optimizer_trace", sum);
	uint64_t took = util_now_ns() - t0;
	c->start_ns += took;
	c->pace_t0 += c->pace_ns ? took : 0;
}

static void trace_close(void *st)
{
	free(st);
}

const struct run_probe run_probe_trace = {
    .name = "optimizer_trace",
    .open = trace_open,
    .record = trace_record,
    .close = trace_close,
};
