/* SPDX-License-Identifier: MIT */
/* Where the rows went (result/res_analyze.h, docs/explain.md): once per query and restart, after
 * its measured executions and every other probe's readings, one more execution under MariaDB's
 * ANALYZE FORMAT=JSON or MySQL 8's EXPLAIN ANALYZE, its per-table actuals as the entry's
 * "analyze". Off with run --no-analyze. */
#include "result/res_analyze.h"
#include "runner/run_int.h"

struct analyze_probe {
	struct run_session *s;
	int mysql; /* EXPLAIN ANALYZE (tree) rather than ANALYZE FORMAT=JSON */
	int lost;  /* the connection failed under it: no more on this session */
};

static int analyze_open(void **out, void *run, struct run_state *c, struct run_target_state *t,
			struct run_session *s, struct errbuf *err)
{
	(void)run;
	if (c->plan->no_analyze)
		return 0;
	struct analyze_probe *p = calloc(1, sizeof(*p));
	if (!p)
		return errbuf_set(err, "out of memory");
	p->s = s;
	p->mysql = srv_flavour(t->srv) == SRV_FLAVOUR_MYSQL;
	json_object_set_new(t->t->res->plan, "analyze_source",
			    json_string(p->mysql ? "EXPLAIN ANALYZE" : "ANALYZE FORMAT=JSON"));
	*out = p;
	return 0;
}

/* The statement's text (one row, first column), appended as it is fetched. */
struct text_sink {
	char *text;
	size_t len;
};

static int text_row(void *arg, MYSQL_ROW row, const unsigned long *len, unsigned int n,
		    struct errbuf *err)
{
	struct text_sink *t = arg;
	if (n == 0 || !row[0])
		return 0;
	char *m = realloc(t->text, t->len + len[0] + 2);
	if (!m)
		return errbuf_set(err, "out of memory");
	t->text = m;
	memcpy(t->text + t->len, row[0], len[0]);
	t->len += len[0];
	t->text[t->len++] = '\n';
	t->text[t->len] = '\0';
	return 0;
}

/* Runs the query under ANALYZE on the session (its view around it for Q15), with the query
 * timeout's watch; *out the server's text. */
static enum run_exec_status analyze_fetch(struct analyze_probe *p, const struct qry *q, char **out,
					  struct errbuf *err)
{
	struct text_sink t = {NULL, 0};
	struct run_exec_sink sink = {NULL, text_row, &t};
	struct run_exec_result x;
	char *sql = NULL;
	enum run_exec_status st = RUN_EXEC_OK;
	if (q->pre)
		st = run_exec_simple(p->s->conn, q->pre, err);
	if (st == RUN_EXEC_OK &&
	    asprintf(&sql, "%s %s", p->mysql ? "EXPLAIN ANALYZE" : "ANALYZE FORMAT=JSON", q->sql) <
		0) {
		errbuf_set(err, "out of memory");
		return RUN_EXEC_ERROR;
	}
	if (st == RUN_EXEC_OK)
		st = run_exec(p->s->conn, sql, 0, NULL, p->s->watch, &sink, &x, err);
	free(sql);
	if (q->post && st != RUN_EXEC_LOST) {
		struct errbuf perr;
		enum run_exec_status pst = run_exec_simple(p->s->conn, q->post, &perr);
		if (st == RUN_EXEC_OK && pst != RUN_EXEC_OK) {
			*err = perr;
			st = pst;
		}
	}
	if (st == RUN_EXEC_OK && !t.text) {
		errbuf_set(err, "no output");
		st = RUN_EXEC_ERROR;
	}
	if (st != RUN_EXEC_OK)
		free(t.text);
	else
		*out = t.text;
	return st;
}

/* After the query's measured executions and the other probes' records (this row is last). */
static void analyze_record(void *st, struct run_state *c, const struct run_probe_query *q)
{
	struct analyze_probe *p = st;
	struct errbuf err;
	struct res_analyze a;
	char *text = NULL;
	if (p->lost || q->nm == 0 || !q->ended_well)
		return;
	enum run_exec_status s = analyze_fetch(p, &c->queries[q->num], &text, &err);
	if (s != RUN_EXEC_OK) {
		p->lost = s == RUN_EXEC_LOST;
		run_event(c, "Q%d: no ANALYZE: %s", q->num, err.msg);
		return;
	}
	int rc = p->mysql ? res_analyze_parse_tree(&a, text, &err)
			  : res_analyze_parse_json(&a, text, &err);
	free(text);
	if (rc < 0) {
		run_event(c, "Q%d: no ANALYZE: %s", q->num, err.msg);
		return;
	}
	json_t *rec = res_analyze_json(&a);
	res_analyze_release(&a);
	if (rec)
		json_object_set_new(q->rr->extra, "analyze", rec);
}

const struct run_probe run_probe_analyze = {
    .name = "analyze",
    .open = analyze_open,
    .record = analyze_record,
    .close = free,
};
