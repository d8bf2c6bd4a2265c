/* SPDX-License-Identifier: MIT */
/* The server's work counters around each execution (docs/work.md): the session's status read
 * before and after, outside the timed window, minus what reading the status itself adds
 * (measured once per session). */
#ifndef DBT3_RUN_WORK_H
#define DBT3_RUN_WORK_H
#include "base/util.h"
#include "result/res_counts.h"
#include <mysql.h>

#define RUN_WORK_MAX 19 /* counters in the table (run_work_name) */

/* The servers whose names the table knows. */
enum run_work_flavour { RUN_WORK_MARIADB = 1 << 0, RUN_WORK_MYSQL = 1 << 1 };

/* Counter i's status variable name on flavour f, or NULL when that server has none. */
const char *run_work_name(int i, enum run_work_flavour f);

/* The statement that reads flavour f's counters (one row per counter: name, value); static. */
const char *run_work_sql(enum run_work_flavour f);

/* One reading of the counters; have has bit i when counter i was read. */
struct run_work_snap {
	long long v[RUN_WORK_MAX];
	unsigned long have;
};

/* Takes one row of the statement into s: 0 when it is one of f's counters (case-insensitive),
 * 1 when the name is not one, -1 when the value is not a count. */
int run_work_take(struct run_work_snap *s, enum run_work_flavour f, const char *name,
		  const char *value);

/* The counters of one session, and what a reading costs in it. */
struct run_work {
	enum run_work_flavour flavour;
	struct run_work_snap offset; /* a reading's own counts (subtracted from every delta) */
	unsigned long statements;    /* readings sent in this session */
};

/* Reads the counters on m into out (one statement). */
int run_work_read(struct run_work *w, MYSQL *m, struct run_work_snap *out, struct errbuf *err);

/* Opens on a fresh session: three readings in a row; the offset is the difference of two
 * consecutive ones, which must agree (else an error: the reading is not deterministic here). */
int run_work_open(struct run_work *w, MYSQL *m, enum run_work_flavour f, struct errbuf *err);

/* The offset from three consecutive readings (run_work_open's rule, for the tests): 0, or -1
 * when the two differences disagree or a count went down. */
int run_work_offset(struct run_work_snap *out, const struct run_work_snap s[3]);

/* Counter i's work between two readings: after - before - offset; -1 when a reading lacks it
 * or the result would be negative (the session was not the one measured). */
long long run_work_delta(const struct run_work *w, const struct run_work_snap *before,
			 const struct run_work_snap *after, int i);

/* The record of n back-to-back executions into out (res_counts_init'ed with n executions):
 * execution e's work is between readings snaps[e] and snaps[e + 1] (n + 1 readings, nothing
 * else sent on the session in between). Counters missing from any reading are left out. -1 on
 * out of memory or a negative delta (err says which). */
int run_work_counts(struct res_counts *out, const struct run_work *w,
		    const struct run_work_snap *snaps, size_t n, struct errbuf *err);

#endif
