/* SPDX-License-Identifier: MIT */
/* One timed execution of a statement: send, execute, fetch every row with mysql_use_result; the
 * server's CPU time around it; a query-timeout watchdog that kills from a second connection. */
#ifndef DBT3_RUN_EXEC_H
#define DBT3_RUN_EXEC_H
#include "base/util.h"
#include "runner/run_cpu.h"
#include <mysql.h>
#include <stdint.h>

/* How an execution ended. */
enum run_exec_status {
	RUN_EXEC_OK = 0,
	RUN_EXEC_ERROR,	  /* the server returned an error (message in err) */
	RUN_EXEC_TIMEOUT, /* the watchdog killed it */
	RUN_EXEC_LOST,	  /* the connection to the server was lost (the server may have died) */
};

enum run_exec_flags {
	RUN_EXEC_HASH = 1 << 0, /* compute the SHA-256 of the result values */
};

struct run_exec_result {
	uint64_t wall_ns; /* monotonic ns from send to the last row fetched */
	uint64_t cpu_ns;  /* server CPU ns during the execution (0 without a sampler) */
	uint64_t rows;
	char result_sha256[65]; /* with RUN_EXEC_HASH, else "" */
	unsigned int mysql_errno;
};

/* A thread holding a second connection that sends KILL QUERY when an armed execution passes its
 * deadline (checked every timeout/10, at least 1 ms and at most 100 ms apart). */
struct run_watch;

/* Starts the watchdog on killer (an open connection; the watch takes it over and closes it). */
int run_watch_new(struct run_watch **out, MYSQL *killer, uint64_t timeout_ns, struct errbuf *err);

/* Stops the thread and closes its connection; NULL is fine. */
void run_watch_free(struct run_watch *w);

/* Receives the result while run_exec fetches it, inside the timed window: columns once when the
 * statement returns a result set, then every row (len: the values' lengths). A negative return
 * fills err and ends the execution (RUN_EXEC_ERROR; the rest of the result is read and dropped). */
struct run_exec_sink {
	int (*columns)(void *arg, const MYSQL_FIELD *fields, unsigned int n, struct errbuf *err);
	int (*row)(void *arg, MYSQL_ROW row, const unsigned long *len, unsigned int n,
		   struct errbuf *err);
	void *arg;
};

/* Executes sql on m once: the one timed execution of dbt3stab (run and query). cpu, watch and
 * sink may be NULL. Returns the status; err holds the message for anything but RUN_EXEC_OK. */
enum run_exec_status run_exec(MYSQL *m, const char *sql, unsigned flags, struct run_cpu *cpu,
			      struct run_watch *watch, const struct run_exec_sink *sink,
			      struct run_exec_result *out, struct errbuf *err);

/* Runs a statement whose result is discarded (setup statements); same statuses as run_exec. */
enum run_exec_status run_exec_simple(MYSQL *m, const char *sql, struct errbuf *err);

/* The SHA-256 of a result, as run_exec computes it: per value, 0x00 for NULL, else 0x01, the
 * length as 8 bytes little-endian and the bytes; per row end 0x0a. Exposed for the tests. */
struct run_hash;
struct run_hash *run_hash_new(void);
void run_hash_value(struct run_hash *h, const char *v, unsigned long len);
void run_hash_row_end(struct run_hash *h);
void run_hash_final(struct run_hash *h, char out[65]); /* frees h */

#endif
