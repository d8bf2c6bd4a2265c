/* SPDX-License-Identifier: MIT */
#include "runner/run_exec.h"
#include <errmsg.h>
#include <errno.h>
#include <mysqld_error.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- result hash ---- */

struct run_hash {
	EVP_MD_CTX *ctx;
};

struct run_hash *run_hash_new(void)
{
	struct run_hash *h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->ctx = EVP_MD_CTX_new();
	if (!h->ctx || EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL) != 1) {
		EVP_MD_CTX_free(h->ctx);
		free(h);
		return NULL;
	}
	return h;
}

void run_hash_value(struct run_hash *h, const char *v, unsigned long len)
{
	unsigned char head[9];
	if (!v) {
		head[0] = 0;
		EVP_DigestUpdate(h->ctx, head, 1);
		return;
	}
	head[0] = 1;
	uint64_t n = len;
	for (int i = 0; i < 8; i++)
		head[1 + i] = (unsigned char)(n >> (8 * i));
	EVP_DigestUpdate(h->ctx, head, sizeof(head));
	EVP_DigestUpdate(h->ctx, v, len);
}

void run_hash_row_end(struct run_hash *h)
{
	EVP_DigestUpdate(h->ctx, "\n", 1);
}

void run_hash_final(struct run_hash *h, char out[65])
{
	unsigned char md[32];
	unsigned int mdlen = 0;
	EVP_DigestFinal_ex(h->ctx, md, &mdlen);
	util_hex(out, md, sizeof(md));
	EVP_MD_CTX_free(h->ctx);
	free(h);
}

/* ---- watchdog ---- */

struct run_watch {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	MYSQL *killer;
	uint64_t timeout_ns;
	uint64_t poll_ns;     /* timeout / 10, within 1 ms .. 100 ms */
	unsigned long target; /* connection id of the armed execution */
	uint64_t deadline;    /* CLOCK_MONOTONIC ns; 0 = disarmed */
	int fired;
	int stop;
};

static void abs_time(struct timespec *ts, uint64_t ns)
{
	ts->tv_sec = (time_t)(ns / 1000000000u);
	ts->tv_nsec = (long)(ns % 1000000000u);
}

/* The thread never needs a wake-up from arm (which would cost the measured loop a context
 * switch per execution): it polls every poll_ns, so a kill lands at most poll_ns late. */
static void *watch_main(void *arg)
{
	struct run_watch *w = arg;
	pthread_mutex_lock(&w->lock);
	while (!w->stop) {
		uint64_t now = util_now_ns();
		if (w->deadline && now >= w->deadline) {
			/* Kill under the lock so that disarm sees fired. */
			char sql[64];
			snprintf(sql, sizeof(sql), "KILL QUERY %lu", w->target);
			if (mysql_query(w->killer, sql) != 0)
				fprintf(stderr, "dbt3stab: warning: cannot kill query %lu: %s\n",
					w->target, mysql_error(w->killer));
			w->fired = 1;
			w->deadline = 0;
			continue;
		}
		uint64_t until = now + w->poll_ns;
		if (w->deadline && w->deadline < until)
			until = w->deadline;
		struct timespec ts;
		abs_time(&ts, until);
		pthread_cond_timedwait(&w->cond, &w->lock, &ts);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int run_watch_new(struct run_watch **out, MYSQL *killer, uint64_t timeout_ns, struct errbuf *err)
{
	struct run_watch *w = calloc(1, sizeof(*w));
	if (!w)
		return errbuf_set(err, "out of memory");
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cond, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&w->lock, NULL);
	w->killer = killer;
	w->timeout_ns = timeout_ns;
	w->poll_ns = timeout_ns / 10;
	if (w->poll_ns < 1000000u)
		w->poll_ns = 1000000u;
	if (w->poll_ns > 100000000u)
		w->poll_ns = 100000000u;
	int rc = pthread_create(&w->thread, NULL, watch_main, w);
	if (rc != 0) {
		pthread_cond_destroy(&w->cond);
		pthread_mutex_destroy(&w->lock);
		free(w);
		return errbuf_errno(err, rc, "cannot start the query-timeout thread");
	}
	*out = w;
	return 0;
}

void run_watch_free(struct run_watch *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = 1;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	mysql_close(w->killer);
	free(w);
}

static void watch_arm(struct run_watch *w, unsigned long id)
{
	pthread_mutex_lock(&w->lock);
	w->target = id;
	w->fired = 0;
	w->deadline = util_now_ns() + w->timeout_ns;
	pthread_mutex_unlock(&w->lock);
}

/* Disarms; nonzero when the watchdog killed the execution. */
static int watch_disarm(struct run_watch *w)
{
	pthread_mutex_lock(&w->lock);
	int fired = w->fired;
	w->deadline = 0;
	w->fired = 0;
	pthread_mutex_unlock(&w->lock);
	return fired;
}

/* ---- execution ---- */

static int is_lost(unsigned int e)
{
	return e == CR_SERVER_LOST || e == CR_SERVER_GONE_ERROR || e == CR_CONNECTION_ERROR ||
	       e == CR_CONN_HOST_ERROR || e == ER_CONNECTION_KILLED || e == ER_SERVER_SHUTDOWN;
}

static enum run_exec_status classify(MYSQL *m, int killed, struct errbuf *err)
{
	unsigned int e = mysql_errno(m);
	if (killed && (e == ER_QUERY_INTERRUPTED || e == 0 || e == ER_STATEMENT_TIMEOUT)) {
		errbuf_set(err, "killed after the query timeout");
		return RUN_EXEC_TIMEOUT;
	}
	errbuf_set(err, "%s (error %u)", mysql_error(m), e);
	return is_lost(e) ? RUN_EXEC_LOST : RUN_EXEC_ERROR;
}

/* Fetches every row of res (from mysql_use_result), hashing into h and handing to sink when they
 * are set. 0 when all rows came; 1 when the server or the connection failed (mysql_errno); -1
 * when the sink refused (err filled; the rest of the result is left to mysql_free_result). */
static int fetch_all(MYSQL *m, MYSQL_RES *res, struct run_hash *h, const struct run_exec_sink *sink,
		     uint64_t *rows, struct errbuf *err)
{
	MYSQL_ROW row;
	unsigned int nf = mysql_num_fields(res);
	if (sink && sink->columns && sink->columns(sink->arg, mysql_fetch_fields(res), nf, err) < 0)
		return -1;
	while ((row = mysql_fetch_row(res)) != NULL) {
		(*rows)++;
		if (!h && !sink)
			continue;
		unsigned long *len = mysql_fetch_lengths(res);
		if (h) {
			for (unsigned int i = 0; i < nf; i++)
				run_hash_value(h, row[i], len[i]);
			run_hash_row_end(h);
		}
		if (sink && sink->row && sink->row(sink->arg, row, len, nf, err) < 0)
			return -1;
	}
	return mysql_errno(m) ? 1 : 0;
}

enum run_exec_status run_exec(MYSQL *m, const char *sql, unsigned flags, struct run_cpu *cpu,
			      struct run_watch *watch, const struct run_exec_sink *sink,
			      struct run_exec_result *out, struct errbuf *err)
{
	struct run_hash *h = NULL;
	uint64_t cpu_ns = 0;
	enum run_exec_status st = RUN_EXEC_OK;
	struct errbuf cpu_err;
	memset(out, 0, sizeof(*out));
	if ((flags & RUN_EXEC_HASH) && !(h = run_hash_new())) {
		errbuf_set(err, "out of memory");
		return RUN_EXEC_ERROR;
	}
	if (cpu)
		run_cpu_sample(cpu, NULL, &cpu_err);
	if (watch)
		watch_arm(watch, mysql_thread_id(m));

	uint64_t t0 = util_now_ns();
	uint64_t rows = 0;
	MYSQL_RES *res = NULL;
	int failed = mysql_real_query(m, sql, (unsigned long)strlen(sql)) != 0, refused = 0;
	if (!failed) {
		res = mysql_use_result(m);
		if (!res && mysql_field_count(m) != 0)
			failed = 1;
	}
	if (res) {
		int f = fetch_all(m, res, h, sink, &rows, err);
		failed = f > 0;
		refused = f < 0;
		mysql_free_result(res);
	}
	uint64_t t1 = util_now_ns();

	int killed = watch ? watch_disarm(watch) : 0;
	if (cpu && run_cpu_sample(cpu, &cpu_ns, &cpu_err) < 0)
		cpu_ns = 0;
	/* More result sets (a multi-statement) are drained and not timed. */
	while (!failed && mysql_more_results(m) && mysql_next_result(m) == 0) {
		MYSQL_RES *extra = mysql_store_result(m);
		mysql_free_result(extra);
	}
	out->wall_ns = t1 - t0;
	out->cpu_ns = cpu_ns;
	out->rows = rows;
	if (failed || killed) {
		out->mysql_errno = mysql_errno(m);
		st = classify(m, killed, err);
	} else if (refused) {
		st = RUN_EXEC_ERROR; /* the sink's message is in err */
	}
	if (h) {
		if (st == RUN_EXEC_OK)
			run_hash_final(h, out->result_sha256);
		else {
			char junk[65];
			run_hash_final(h, junk);
		}
	}
	return st;
}

enum run_exec_status run_exec_simple(MYSQL *m, const char *sql, struct errbuf *err)
{
	struct run_exec_result r;
	return run_exec(m, sql, 0, NULL, NULL, NULL, &r, err);
}
