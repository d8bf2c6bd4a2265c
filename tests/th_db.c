/* SPDX-License-Identifier: MIT */
#include "tests/th_db.h"
#include "tests/harness.h"
#include "tests/th_spawn.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int th_db_begin(struct th_db *db, const char *tag)
{
	memset(db, 0, sizeof(*db));
	db->port = -1;
	db->tmp = th_tempdir(tag);
	if (!db->tmp) {
		errbuf_errno(&db->err, errno, "cannot make a temp dir for '%s'", tag);
		fprintf(stderr, "%s\n", db->err.msg);
		return -1;
	}
	snprintf(db->inst, sizeof(db->inst), "%s/inst", db->tmp);
	db->port = srv_free_port(&db->err);
	if (db->port <= 0) {
		fprintf(stderr, "%s\n", db->err.msg);
		th_db_end(db);
		return -1;
	}
	snprintf(db->portarg, sizeof(db->portarg), "%ld", db->port);
	return 0;
}

void th_db_opts(const struct th_db *db, struct srv_opts *o, uint64_t buffer_pool)
{
	struct errbuf err;
	srv_opts_init(o);
	srv_opts_parse(o, SRV_OPT_DATADIR, db->inst, &err);
	o->port = db->port;
	o->buffer_pool = buffer_pool;
	o->start_timeout = 120;
	o->stop_timeout = 60;
	srv_opts_finish(o, &err);
}

void th_srv_init(struct th_srv *t, const struct th_db *db, uint64_t buffer_pool)
{
	memset(t, 0, sizeof(*t));
	th_db_opts(db, &t->o, buffer_pool);
}

int th_srv_open(struct th_srv *t)
{
	srv_free(t->s);
	t->s = NULL;
	return srv_open(&t->s, &t->o, &t->err) == 0 ? 0 : -1;
}

int th_srv_start(struct th_srv *t, const struct srv_launch *launch)
{
	return th_srv_open(t) < 0 ? -1 : srv_start(t->s, launch, &t->err);
}

void th_srv_release(struct th_srv *t)
{
	srv_free(t->s);
	t->s = NULL;
	srv_opts_release(&t->o);
}

int th_db_init(struct th_db *db, uint64_t buffer_pool)
{
	struct th_srv t;
	th_srv_init(&t, db, buffer_pool);
	int rc = th_srv_open(&t);
	if (rc == 0)
		rc = srv_init_datadir(t.s, &t.err);
	th_srv_release(&t);
	if (rc != 0) {
		db->err = t.err;
		fprintf(stderr, "init: %s\n", db->err.msg);
	}
	return rc == 0 ? 0 : -1;
}

int th_db_init_and_load(struct th_db *db)
{
	char init_log[4300], load_log[4300];
	snprintf(init_log, sizeof(init_log), "%s/setup-init.log", db->tmp);
	snprintf(load_log, sizeof(load_log), "%s/setup-load.log", db->tmp);
	const char *init[] = {"server", "init", "-q", NULL};
	const char *load[] = {"load", "-s", "0.01", "-q", NULL};
	const char *inst[] = {"--datadir", db->inst, "--port", db->portarg, NULL};
	return th_run_logged(init_log, init, inst) == 0 && th_run_logged(load_log, load, inst) == 0;
}

pid_t th_db_spawn(const struct th_db *db, const char *log, const char *const *args, int pin)
{
	const char *inst[] = {"--datadir", db->inst, "--port", db->portarg, pin ? NULL : "--no-pin",
			      NULL};
	return th_spawn(log, args, inst);
}

int th_query_one(MYSQL *m, const char *sql, char *out, size_t len)
{
	out[0] = '\0';
	if (mysql_query(m, sql) != 0)
		return -1;
	MYSQL_RES *res = mysql_store_result(m);
	MYSQL_ROW row = res ? mysql_fetch_row(res) : NULL;
	int rc = row && row[0] ? 0 : -1;
	if (rc == 0)
		snprintf(out, len, "%s", row[0]);
	mysql_free_result(res);
	return rc;
}

int th_db_run(const struct th_db *db, const char *tag, const char *const *args)
{
	char log[4300];
	snprintf(log, sizeof(log), "%s/%s.log", db->tmp, tag);
	int rc = th_wait_exit(th_db_spawn(db, log, args, 0));
	if (rc != 0)
		th_show_log(log);
	return rc;
}

int th_db_main_loaded(struct th_db *db, int *loaded, const char *tag, const char *suite,
		      const struct th_case *cases, int argc, char **argv)
{
	*loaded = th_db_begin(db, tag) == 0 && th_db_init_and_load(db);
	int rc = th_run(suite, cases, argc, argv);
	th_db_end(db); /* whatever happened, no server is left running */
	return rc;
}

/* The holder's side: start, tell the server's pid (0: failed), wait for go, stop. */
static void hold(const struct th_db *db, uint64_t buffer_pool, int up, int go)
{
	struct th_srv t;
	char c;
	th_srv_init(&t, db, buffer_pool);
	int pid = 0;
	if (th_srv_start(&t, NULL) == 0)
		pid = (int)srv_pid(t.s);
	else
		fprintf(stderr, "holder: %s\n", t.err.msg);
	if (write(up, &pid, sizeof(pid)) != sizeof(pid) || read(go, &c, 1) < 0)
		_exit(3);
	int rc = srv_stop(t.s, &t.err);
	srv_free(t.s);
	_exit(rc == 0 && pid > 0 ? 0 : 1);
}

int th_db_hold(const struct th_db *db, uint64_t buffer_pool, struct th_db_holder *holder)
{
	int up[2], go[2], pid = 0;
	holder->child = -1;
	holder->server = 0;
	holder->go_fd = -1;
	if (pipe(up) < 0)
		return -1;
	if (pipe(go) < 0) {
		close(up[0]);
		close(up[1]);
		return -1;
	}
	holder->child = fork();
	if (holder->child == 0) {
		close(up[0]);
		close(go[1]);
		hold(db, buffer_pool, up[1], go[0]);
	}
	close(up[1]);
	close(go[0]);
	holder->go_fd = go[1];
	if (holder->child > 0 && read(up[0], &pid, sizeof(pid)) == (ssize_t)sizeof(pid))
		holder->server = pid;
	close(up[0]);
	return holder->server > 0 ? 0 : -1;
}

int th_db_release(struct th_db_holder *holder)
{
	if (holder->go_fd >= 0) {
		if (write(holder->go_fd, "x", 1) != 1)
			fprintf(stderr, "cannot release the holder (pid %d)\n", (int)holder->child);
		close(holder->go_fd);
		holder->go_fd = -1;
	}
	return holder->child > 0 ? th_wait_exit(holder->child) : -1;
}

int th_db_stop(const struct th_db *db)
{
	struct th_srv t;
	th_srv_init(&t, db, 0);
	int rc = th_srv_open(&t) == 0 && srv_stop(t.s, &t.err) == 0 ? 0 : -1;
	if (rc != 0)
		fprintf(stderr, "cannot stop the test server in '%s': %s\n", db->inst, t.err.msg);
	th_srv_release(&t);
	return rc;
}

void th_db_end(struct th_db *db)
{
	if (db->tmp && db->port > 0)
		th_db_stop(db);
	th_rmtree(db->tmp);
	free(db->tmp);
	db->tmp = NULL;
}
