/* SPDX-License-Identifier: MIT */
/* Test-only (in dbt3_harness): the private MariaDB instance of a db test, in its own temp dir
 * (th_tempdir: traversable, so that a server run as 'mysql' reaches it) on a free port. */
#ifndef DBT3_TH_DB_H
#define DBT3_TH_DB_H
#include "server/srv.h"
#include <stdint.h>
#include <sys/types.h>

struct th_db {
	char *tmp;	   /* the test's temp dir; NULL when th_db_begin failed */
	char inst[4200];   /* the instance directory, tmp/inst */
	long port;	   /* a free TCP port */
	char portarg[32];  /* the port as a command-line argument */
	struct errbuf err; /* why a set-up step failed */
};

/* Makes the temp dir (tag in its name) and picks a free port: 0, or -1 with the reason in
 * db->err, printed, and nothing left to remove. */
int th_db_begin(struct th_db *db, const char *tag);

/* Options of the instance: its directory and port, a buffer pool of buffer_pool bytes, 120 s
 * to start, 60 s to stop. Release them with srv_opts_release. */
void th_db_opts(const struct th_db *db, struct srv_opts *o, uint64_t buffer_pool);

/* A case's handle on the instance's server: its options, the handle and the last error. */
struct th_srv {
	struct srv_opts o; /* th_db_opts; a case may change them before th_srv_open */
	struct srv *s;	   /* NULL until opened */
	struct errbuf err;
};

/* Fills t->o with th_db_opts(db, buffer_pool); nothing is opened yet. */
void th_srv_init(struct th_srv *t, const struct th_db *db, uint64_t buffer_pool);

/* Opens a fresh handle with t->o, after srv_free of the one before (which stops a server it
 * started): 0, or -1 with t->err. */
int th_srv_open(struct th_srv *t);

/* th_srv_open, then srv_start(launch): srv_start's result, or -1 (t->err) when the open
 * failed. */
int th_srv_start(struct th_srv *t, const struct srv_launch *launch);

/* srv_free (a server the handle started is stopped) and srv_opts_release. */
void th_srv_release(struct th_srv *t);

/* Initialises the instance's datadir through srv_init_datadir (once per test file; the cases
 * reuse it): 0, or -1 with the reason in db->err, printed. */
int th_db_init(struct th_db *db, uint64_t buffer_pool);

/* Initialises and loads SF 0.01 the way a user does (dbt3stab server init, then load), their
 * output in tmp/setup-init.log and tmp/setup-load.log, shown when a step failed: 1 when
 * loaded, 0 not. */
int th_db_init_and_load(struct th_db *db);

/* dbt3stab with args (NULL-terminated), then the instance's --datadir and --port and, unless
 * pin, --no-pin; its output in log. The child's pid (th_spawn). */
pid_t th_db_spawn(const struct th_db *db, const char *log, const char *const *args, int pin);

/* The first column of the first row of sql into out (len bytes): 0, or -1 when the query fails
 * or returns no value (out is then ""). */
int th_query_one(MYSQL *m, const char *sql, char *out, size_t len);

/* th_db_spawn unpinned, to the end, its output in tmp/TAG.log and shown when it failed: the
 * exit code. */
int th_db_run(const struct th_db *db, const char *tag, const char *const *args);

struct th_case;

/* The main of a db test whose cases share one loaded instance: th_db_begin (tag in the temp
 * dir's name), th_db_init_and_load (*loaded 1 when it worked: the cases that need it assert
 * it), th_run of suite's cases (th_cases(): the file's TH_TEST), then th_db_end whatever
 * happened. The exit code. */
int th_db_main_loaded(struct th_db *db, int *loaded, const char *tag, const char *suite,
		      const struct th_case *cases, int argc, char **argv);

/* A process other than the test that holds the instance: it started the server (so it holds
 * the instance lock) and stops it when released. */
struct th_db_holder {
	pid_t child; /* the holding process, -1 when fork failed */
	long server; /* the server it started, 0 when the start failed (it said why) */
	int go_fd;   /* written to release it */
};

/* Forks the holder, which starts the server with a buffer pool of buffer_pool bytes, and waits
 * until the start is done: 0 when it runs, -1 (holder->server 0) when not. Release it in any
 * case. */
int th_db_hold(const struct th_db *db, uint64_t buffer_pool, struct th_db_holder *holder);

/* Lets the holder stop its server and exit; its exit code (0: started and stopped cleanly). */
int th_db_release(struct th_db_holder *holder);

/* Stops whatever server of the instance still runs (a failed case may leave one): 0, or -1
 * with the reason printed. */
int th_db_stop(const struct th_db *db);

/* th_db_stop, then removes the temp dir and frees it. Fine after a failed th_db_begin. */
void th_db_end(struct th_db *db);

#endif
