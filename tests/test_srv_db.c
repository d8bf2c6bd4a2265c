/* SPDX-License-Identifier: MIT */
/* Real-server tests of server/srv.c: one private MariaDB datadir (initialised once), free port. */
#include "tests/harness.h"
#include "tests/th_db.h"
#include "tests/th_spawn.h"
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static struct th_db db; /* the instance (initialised in main) in this test file's temp dir */
static int init_rc;

static void srv_for_test(struct th_srv *t)
{
	th_srv_init(t, &db, 128u << 20);
}

/* srv_for_test, then its server started (a failure is fatal). */
static void start_for_test(struct th_srv *t)
{
	srv_for_test(t);
	CU_ASSERT_EQUAL_FATAL(th_srv_start(t, NULL), 0);
}

/* srv_for_test with --mysqld a shell script in the temp dir (name) that says it is MariaDB
 * 10.11 to --version and otherwise runs body: 0, or -1 when it cannot be written. */
static int fake_server_for_test(struct th_srv *t, const char *name, const char *body)
{
	char fake[4300];
	snprintf(fake, sizeof(fake), "%s/%s", db.tmp, name);
	FILE *f = fopen(fake, "w");
	if (!f)
		return -1;
	fprintf(f,
		"#!/bin/sh\n"
		"case \"$*\" in *--version*) echo \"fake  Ver 10.11.0-MariaDB for test\"; exit 0;; "
		"esac\n"
		"%s",
		body);
	if (fclose(f) != 0 || chmod(fake, 0755) < 0)
		return -1;
	srv_for_test(t);
	srv_opts_parse(&t->o, SRV_OPT_MYSQLD, fake, &t->err);
	return 0;
}

/* Processes whose command line mentions our temp dir (a server started by these tests). */
static int servers_left(void)
{
	DIR *d = opendir("/proc");
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char path[300], buf[8192];
		if (e->d_name[0] < '0' || e->d_name[0] > '9' || atoi(e->d_name) == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		FILE *f = fopen(path, "rb");
		if (!f)
			continue;
		size_t len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		for (size_t i = 0; i < len; i++)
			if (buf[i] == '\0')
				buf[i] = ' ';
		buf[len] = '\0';
		if (strstr(buf, "--defaults-file=") && strstr(buf, db.tmp))
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

/* th_srv_release, then no server of these tests is left running. */
static void release_all(struct th_srv *t)
{
	th_srv_release(t);
	CU_ASSERT_EQUAL(servers_left(), 0);
}

/* A live process (a zombie left for an init that does not reap is not one). */
static int pid_exists(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	return !(p && (p[2] == 'Z' || p[2] == 'X'));
}

TH_TEST(srv_db, init_creates_datadir_once)
{
	if (init_rc != 0)
		fprintf(stderr, "init: %s\n", db.err.msg);
	CU_ASSERT_EQUAL_FATAL(init_rc, 0);
	struct th_srv t;
	srv_for_test(&t);
	CU_ASSERT_EQUAL_FATAL(th_srv_open(&t), 0);
	CU_ASSERT_TRUE(srv_is_initialised(t.s));
	CU_ASSERT_EQUAL(srv_init_datadir(t.s, &t.err), SRV_E_EXISTS);
	CU_ASSERT_PTR_NOT_NULL(strstr(t.err.msg, "already initialised"));
	CU_ASSERT_EQUAL(srv_flavour(t.s), SRV_FLAVOUR_MARIADB);
	CU_ASSERT_PTR_NOT_NULL(strstr(srv_version(t.s), "MariaDB"));
	th_srv_release(&t);
}

TH_TEST(srv_db, start_applies_template_and_overlay)
{
	struct th_srv t;
	char v[256];
	srv_for_test(&t);
	struct srv_kv profile[] = {{"innodb_flush_log_at_trx_commit", "0"}};
	struct srv_launch launch = {.overlay = profile, .n_overlay = 1};
	CU_ASSERT_EQUAL_FATAL(th_srv_open(&t), 0);
	int rc = srv_start(t.s, &launch, &t.err);
	if (rc)
		fprintf(stderr, "start: %s\n", t.err.msg);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_TRUE(srv_is_alive(t.s));
	CU_ASSERT_TRUE(pid_exists(srv_pid(t.s)));
	MYSQL *m = srv_connect(t.s, NULL, &t.err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(th_query_one(m, "SELECT VERSION()", v, sizeof(v)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(v, "MariaDB"));
	/* the version the binary reported is the version the server runs */
	CU_ASSERT_EQUAL(strncmp(v, srv_version(t.s), strcspn(srv_version(t.s), "-")), 0);
	static const struct {
		const char *sql, *want;
	} vars[] = {
	    {"SELECT @@bind_address", "127.0.0.1"},
	    {"SELECT @@local_infile", "1"},
	    {"SELECT @@log_bin", "0"},
	    {"SELECT @@performance_schema", "0"},
	    {"SELECT @@innodb_adaptive_hash_index", "1"},
	    {"SELECT @@innodb_buffer_pool_size", "134217728"},
	    {"SELECT @@innodb_log_file_size", "50331648"},
	    {"SELECT @@innodb_buffer_pool_load_at_startup", "0"},
	    {"SELECT @@innodb_flush_log_at_trx_commit", "0"}, /* from the overlay */
	    {"SELECT @@character_set_connection", "utf8mb4"},
	};
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		CU_ASSERT_EQUAL(th_query_one(m, vars[i].sql, v, sizeof(v)), 0);
		if (strcmp(v, vars[i].want))
			fprintf(stderr, "%s: '%s', want '%s'\n", vars[i].sql, v, vars[i].want);
		CU_ASSERT_STRING_EQUAL(v, vars[i].want);
	}
	CU_ASSERT_EQUAL(th_query_one(m, "SELECT @@port", v, sizeof(v)), 0);
	CU_ASSERT_EQUAL(strtol(v, NULL, 10), db.port);
	mysql_close(m);

	json_t *info = srv_info_json(t.s, &t.err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(info);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(info, "flavour")), "mariadb");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(info, "binary")), srv_binary(t.s));
	const char *sha = json_string_value(json_object_get(info, "binary_sha256"));
	CU_ASSERT_TRUE(sha && strlen(sha) == 64);
	char want_sha[65];
	CU_ASSERT_EQUAL(util_sha256_file(want_sha, srv_binary(t.s), &t.err), 0);
	CU_ASSERT_STRING_EQUAL(sha, want_sha);
	json_t *opts = json_object_get(info, "options");
	CU_ASSERT_STRING_EQUAL(
	    json_string_value(json_object_get(opts, "innodb_flush_log_at_trx_commit")), "0");
	json_t *vars_j = json_object_get(info, "variables");
	CU_ASSERT_STRING_EQUAL(
	    json_string_value(json_object_get(vars_j, "innodb_flush_log_at_trx_commit")), "0");
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(json_string_value(json_object_get(info, "version")), "MariaDB"));
	json_decref(info);

	pid_t pid = srv_pid(t.s);
	CU_ASSERT_EQUAL(srv_stop(t.s, &t.err), 0);
	CU_ASSERT_FALSE(pid_exists(pid));
	CU_ASSERT_FALSE(srv_is_alive(t.s));
	CU_ASSERT_EQUAL(srv_pid(t.s), 0);
	release_all(&t);
}

TH_TEST(srv_db, restart_gives_a_fresh_process)
{
	struct th_srv t;
	char v[64];
	start_for_test(&t);
	pid_t first = srv_pid(t.s);
	MYSQL *m = srv_connect(t.s, NULL, &t.err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(mysql_query(m, "CREATE DATABASE IF NOT EXISTS t"), 0);
	CU_ASSERT_EQUAL(
	    mysql_query(m, "CREATE TABLE IF NOT EXISTS t.k (a INT PRIMARY KEY) ENGINE=InnoDB"), 0);
	CU_ASSERT_EQUAL(mysql_query(m, "REPLACE INTO t.k VALUES (42)"), 0);
	mysql_close(m);
	CU_ASSERT_EQUAL(srv_stop(t.s, &t.err), 0);
	CU_ASSERT_FALSE(pid_exists(first));
	CU_ASSERT_EQUAL_FATAL(srv_start(t.s, NULL, &t.err), 0);
	pid_t second = srv_pid(t.s);
	CU_ASSERT_NOT_EQUAL(first, second);
	m = srv_connect(t.s, "t", &t.err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(th_query_one(m, "SELECT a FROM k", v, sizeof(v)), 0);
	CU_ASSERT_STRING_EQUAL(v, "42");
	CU_ASSERT_EQUAL(mysql_query(m, "DROP DATABASE t"), 0);
	mysql_close(m);
	/* a second start of a running instance is refused */
	struct srv *other = NULL;
	CU_ASSERT_EQUAL(srv_open(&other, &t.o, &t.err), 0);
	CU_ASSERT_EQUAL(srv_start(other, NULL, &t.err), SRV_E_RUNNING);
	CU_ASSERT_EQUAL(srv_pid(other), second);
	int started = -1;
	CU_ASSERT_EQUAL(srv_ensure_started(other, NULL, &started, &t.err), 0);
	CU_ASSERT_EQUAL(started, 0);
	srv_free(other); /* did not start it: leaves it running */
	CU_ASSERT_TRUE(pid_exists(second));
	srv_free(t.s); /* started it: stops it */
	CU_ASSERT_FALSE(pid_exists(second));
	srv_opts_release(&t.o);
	CU_ASSERT_EQUAL(servers_left(), 0);
}

TH_TEST(srv_db, bad_option_fails_with_server_reason)
{
	struct th_srv t;
	srv_for_test(&t);
	CU_ASSERT_EQUAL(
	    srv_opts_parse(&t.o, SRV_OPT_SERVER_OPTION, "no_such_option_dbt3=1", &t.err), 1);
	CU_ASSERT_EQUAL_FATAL(th_srv_open(&t), 0);
	int rc = srv_start(t.s, NULL, &t.err);
	CU_ASSERT_EQUAL(rc, SRV_E_EXITED);
	/* MariaDB says: [ERROR] /usr/sbin/mariadbd: unknown variable 'no_such_option_dbt3=1' */
	CU_ASSERT_PTR_NOT_NULL(strstr(t.err.msg, "unknown variable 'no_such_option_dbt3=1'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t.err.msg, "exited with status"));
	CU_ASSERT_EQUAL(srv_pid(t.s), 0);
	release_all(&t);
}

TH_TEST(srv_db, busy_port_fails_with_server_reason)
{
	struct th_srv t;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(a);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL_FATAL(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	CU_ASSERT_EQUAL_FATAL(listen(fd, 1), 0);
	CU_ASSERT_EQUAL_FATAL(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	srv_for_test(&t);
	t.o.port = ntohs(a.sin_port);
	CU_ASSERT_EQUAL_FATAL(th_srv_open(&t), 0);
	CU_ASSERT_EQUAL(srv_start(t.s, NULL, &t.err), SRV_E_EXITED);
	CU_ASSERT_PTR_NOT_NULL(strstr(t.err.msg, "Address already in use"));
	close(fd);
	release_all(&t);
}

/* A binary that claims to be MariaDB and never answers: the start timeout kills it. */
TH_TEST(srv_db, silent_server_times_out)
{
	struct th_srv t;
	CU_ASSERT_EQUAL_FATAL(fake_server_for_test(&t, "fake-mariadbd",
						   "echo 'fake server: listening nowhere' >&2\n"
						   "exec sleep 600\n"),
			      0);
	t.o.start_timeout = 1.5;
	CU_ASSERT_EQUAL_FATAL(th_srv_open(&t), 0);
	CU_ASSERT_EQUAL(srv_start(t.s, NULL, &t.err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(t.err.msg, "did not answer within 1.5 s (killed)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t.err.msg, "fake server: listening nowhere"));
	CU_ASSERT_EQUAL(srv_pid(t.s), 0);
	CU_ASSERT_EQUAL(servers_left(), 0);
	th_srv_release(&t);
}

/* A server that exits at once without a word: the message says the error log is empty. */
TH_TEST(srv_db, silent_exit_says_error_log_empty)
{
	struct th_srv t;
	CU_ASSERT_EQUAL_FATAL(fake_server_for_test(&t, "mute-mariadbd", "exit 1\n"), 0);
	CU_ASSERT_EQUAL_FATAL(th_srv_open(&t), 0);
	CU_ASSERT_EQUAL(srv_start(t.s, NULL, &t.err), SRV_E_EXITED);
	CU_ASSERT_PTR_NOT_NULL(strstr(t.err.msg, "exited with status 1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t.err.msg, ":\n(error log empty)"));
	release_all(&t);
}

TH_TEST(srv_db, crash_is_detected)
{
	struct th_srv t;
	start_for_test(&t);
	CU_ASSERT_EQUAL(srv_check(t.s, &t.err), 0);
	pid_t pid = srv_pid(t.s);
	CU_ASSERT_EQUAL(kill(pid, SIGKILL), 0);
	int rc = 0;
	for (int i = 0; i < 100 && rc == 0; i++) {
		rc = srv_check(t.s, &t.err);
		if (rc == 0)
			th_sleep_ms(50);
	}
	CU_ASSERT_EQUAL(rc, SRV_E_EXITED);
	CU_ASSERT_PTR_NOT_NULL(strstr(t.err.msg, "killed by signal 9"));
	CU_ASSERT_FALSE(srv_is_alive(t.s));
	CU_ASSERT_EQUAL(srv_stop(t.s, &t.err), 0);
	/* InnoDB recovers: the next start (on a fresh handle) works */
	CU_ASSERT_EQUAL_FATAL(th_srv_open(&t), 0);
	rc = srv_start(t.s, NULL, &t.err);
	if (rc)
		fprintf(stderr, "restart after crash: %s\n", t.err.msg);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_EQUAL(srv_stop(t.s, &t.err), 0);
	release_all(&t);
}

static int nice_hook(void *arg)
{
	return setpriority(PRIO_PROCESS, 0, *(int *)arg);
}

static int refusing_hook(void *arg)
{
	(void)arg;
	fputs("dbt3stab-test: hook refused to bind\n", stderr);
	fflush(stderr);
	return -1;
}

static long proc_nice(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -100;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	/* after ") ": state(3) ... nice is field 19 */
	for (int field = 2; p && field < 19; field++)
		p = strchr(p + 1, ' ');
	return p ? strtol(p + 1, NULL, 10) : -100;
}

TH_TEST(srv_db, child_hook_runs_before_exec)
{
	struct th_srv t;
	int nice_value = 7;
	srv_for_test(&t);
	CU_ASSERT_EQUAL_FATAL(th_srv_open(&t), 0);
	struct srv_launch refuse = {.child_hook = refusing_hook};
	CU_ASSERT_EQUAL(srv_start(t.s, &refuse, &t.err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(t.err.msg, "hook refused to bind"));
	CU_ASSERT_EQUAL(servers_left(), 0);

	struct srv_launch niced = {.child_hook = nice_hook, .arg = &nice_value};
	CU_ASSERT_EQUAL_FATAL(srv_start(t.s, &niced, &t.err), 0);
	CU_ASSERT_EQUAL(proc_nice(srv_pid(t.s)), 7);
	CU_ASSERT_EQUAL(srv_stop(t.s, &t.err), 0);
	release_all(&t);
}

TH_TEST(srv_db, forked_child_exit_leaves_server_alone)
{
	struct th_srv t;
	start_for_test(&t);
	pid_t child = fork();
	if (child == 0)
		exit(0); /* runs the atexit hook with the inherited registry */
	int st;
	CU_ASSERT_EQUAL(waitpid(child, &st, 0), child);
	CU_ASSERT_TRUE(srv_is_alive(t.s));
	CU_ASSERT_TRUE(srv_ping(t.s));
	CU_ASSERT_EQUAL(srv_stop(t.s, &t.err), 0);
	release_all(&t);
}

TH_TEST(srv_db, sigterm_stops_started_servers)
{
	int fds[2];
	CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
	pid_t child = fork();
	CU_ASSERT_FATAL(child >= 0);
	if (child == 0) {
		struct th_srv t;
		close(fds[0]);
		srv_for_test(&t);
		int pid = 0;
		if (th_srv_start(&t, NULL) == 0)
			pid = (int)srv_pid(t.s);
		if (write(fds[1], &pid, sizeof(pid)) != sizeof(pid))
			_exit(3);
		for (;;)
			pause();
	}
	close(fds[1]);
	int server = 0;
	CU_ASSERT_EQUAL(read(fds[0], &server, sizeof(server)), (ssize_t)sizeof(server));
	close(fds[0]);
	CU_ASSERT(server > 0);
	CU_ASSERT_TRUE(server > 0 && pid_exists(server));
	kill(child, SIGTERM);
	int st = 0;
	CU_ASSERT_EQUAL(waitpid(child, &st, 0), child);
	CU_ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 130);
	CU_ASSERT_FALSE(server > 0 && pid_exists(server));
	CU_ASSERT_EQUAL(servers_left(), 0);
}

TH_TEST(srv_db, external_server_is_used_not_managed)
{
	struct th_srv t;
	struct srv_opts ext;
	struct srv *x = NULL;
	char v[256], sock[4300];
	start_for_test(&t);
	snprintf(sock, sizeof(sock), "%s/mysqld.sock", db.inst);
	srv_opts_init(&ext);
	CU_ASSERT_EQUAL(srv_opts_parse(&ext, SRV_OPT_SOCKET, sock, &t.err), 1);
	/* the account and password from the instance's client option file, as documented */
	char cnf[4300];
	snprintf(cnf, sizeof(cnf), "%s/client.cnf", db.inst);
	CU_ASSERT_EQUAL(srv_opts_parse(&ext, SRV_OPT_DEFAULTS_EXTRA_FILE, cnf, &t.err), 1);
	CU_ASSERT_EQUAL(srv_opts_finish(&ext, &t.err), 0);
	CU_ASSERT_TRUE(ext.external);
	CU_ASSERT_EQUAL_FATAL(srv_open(&x, &ext, &t.err), 0);
	CU_ASSERT_TRUE(srv_ping(x));
	CU_ASSERT_EQUAL(srv_check(x, &t.err), 0);
	MYSQL *m = srv_connect(x, NULL, &t.err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(th_query_one(m, "SELECT VERSION()", v, sizeof(v)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(v, "MariaDB"));
	mysql_close(m);
	json_t *info = srv_info_json(x, &t.err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(info);
	CU_ASSERT_TRUE(json_is_true(json_object_get(info, "external")));
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(info, "version")), v);
	json_decref(info);
	/* no lifecycle on a server the tool does not manage */
	CU_ASSERT_EQUAL(srv_start(x, NULL, &t.err), SRV_E_EXTERNAL);
	CU_ASSERT_EQUAL(srv_stop(x, &t.err), SRV_E_EXTERNAL);
	CU_ASSERT_EQUAL(srv_init_datadir(x, &t.err), SRV_E_EXTERNAL);
	CU_ASSERT_EQUAL(srv_pid(x), 0);
	srv_free(x);
	CU_ASSERT_TRUE(srv_is_alive(t.s));
	srv_opts_release(&ext);
	/* and a wrong password is the server's refusal */
	setenv("MYSQL_PWD", "wrong", 1);
	srv_opts_init(&ext);
	srv_opts_parse(&ext, SRV_OPT_HOST, "127.0.0.1", &t.err);
	ext.port = db.port;
	srv_opts_finish(&ext, &t.err);
	CU_ASSERT_EQUAL_FATAL(srv_open(&x, &ext, &t.err), 0);
	CU_ASSERT_PTR_NULL(srv_connect(x, NULL, &t.err));
	CU_ASSERT_PTR_NOT_NULL(strstr(t.err.msg, "cannot connect"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t.err.msg, "Access denied"));
	srv_free(x);
	srv_opts_release(&ext);
	unsetenv("MYSQL_PWD");
	CU_ASSERT_EQUAL(srv_stop(t.s, &t.err), 0);
	release_all(&t);
}

TH_TEST(srv_db, stuck_server_is_killed_after_timeout)
{
	struct th_srv t;
	srv_for_test(&t);
	t.o.stop_timeout = 1;
	CU_ASSERT_EQUAL_FATAL(th_srv_start(&t, NULL), 0);
	pid_t pid = srv_pid(t.s);
	CU_ASSERT_EQUAL(kill(pid, SIGSTOP), 0);
	double t0 = (double)util_now_ns() / 1e9;
	CU_ASSERT_EQUAL(srv_stop(t.s, &t.err), -1);
	double took = (double)util_now_ns() / 1e9 - t0;
	CU_ASSERT_PTR_NOT_NULL(strstr(t.err.msg, "was killed"));
	CU_ASSERT_TRUE(took < 30);
	CU_ASSERT_FALSE(pid_exists(pid));
	release_all(&t);
}

TH_TEST(srv_db, interrupted_init_leaves_nothing_running)
{
	char other[4300];
	snprintf(other, sizeof(other), "%s/interrupted", db.tmp);
	pid_t child = fork();
	CU_ASSERT_FATAL(child >= 0);
	if (child == 0) {
		struct srv_opts o;
		struct srv *s = NULL;
		struct errbuf err;
		srv_opts_init(&o);
		srv_opts_parse(&o, SRV_OPT_DATADIR, other, &err);
		o.buffer_pool = 128u << 20;
		srv_opts_finish(&o, &err);
		if (srv_open(&s, &o, &err) < 0 || srv_init_datadir(s, &err) < 0)
			_exit(3);
		_exit(0);
	}
	/* wait until the initializer's bootstrap server runs, then interrupt dbt3stab */
	int seen = 0;
	for (int i = 0; i < 200 && !seen; i++) {
		seen = servers_left() > 0;
		if (!seen)
			th_sleep_ms(25);
	}
	CU_ASSERT_TRUE(seen);
	kill(child, SIGTERM);
	int st = 0;
	CU_ASSERT_EQUAL(waitpid(child, &st, 0), child);
	CU_ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 130);
	for (int i = 0; i < 40 && servers_left() > 0; i++)
		th_sleep_ms(50);
	CU_ASSERT_EQUAL(servers_left(), 0);
	/* the half-made datadir does not count as initialised */
	struct srv_opts o;
	struct srv *s = NULL;
	struct errbuf err;
	srv_opts_init(&o);
	srv_opts_parse(&o, SRV_OPT_DATADIR, other, &err);
	srv_opts_finish(&o, &err);
	CU_ASSERT_EQUAL_FATAL(srv_open(&s, &o, &err), 0);
	CU_ASSERT_FALSE(srv_is_initialised(s));
	srv_free(s);
	srv_opts_release(&o);
}

static int run(const char *args, char *out, size_t len)
{
	return th_sh(out, len, "'%s' server %s --datadir '%s' --port %ld --buffer-pool 128M",
		     DBT3_BINARY, args, db.inst, db.port);
}

TH_TEST(srv_db, cli_start_status_stop)
{
	char out[1 << 16];
	int rc = run("start", out, sizeof(out));
	if (rc)
		fprintf(stderr, "%s\n", out);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "server running: pid "));
	CU_ASSERT_EQUAL(servers_left(), 1); /* still running after dbt3stab exited */
	CU_ASSERT_EQUAL(run("status", out, sizeof(out)), 0);
	const char *p = strstr(out, "running: pid ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	pid_t pid = (pid_t)strtol(p + strlen("running: pid "), NULL, 10);
	CU_ASSERT_TRUE(pid_exists(pid));
	/* start again: what was asked for is so (exit 0, as systemctl start), nothing restarted */
	char note[128];
	snprintf(note, sizeof(note), "is already running: pid %d,", (int)pid);
	CU_ASSERT_EQUAL(run("start", out, sizeof(out)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, note));
	CU_ASSERT_EQUAL(run("start --quiet", out, sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, "");
	CU_ASSERT_TRUE(pid_exists(pid));
	CU_ASSERT_EQUAL(servers_left(), 1);
	CU_ASSERT_EQUAL(run("status --json", out, sizeof(out)), 0);
	json_error_t jerr;
	json_t *j = json_loads(out, 0, &jerr);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "pid")), pid);
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(j, "version")), "MariaDB"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json_string_value(json_object_get(j, "option_file")),
				      "innodb_buffer_pool_size = 128M"));
	/* started by an earlier command: the options come from the option file */
	json_t *opts = json_object_get(j, "options");
	CU_ASSERT_TRUE(json_is_object(opts));
	const char *pool = json_string_value(json_object_get(opts, "innodb_buffer_pool_size"));
	const char *bind = json_string_value(json_object_get(opts, "bind_address"));
	CU_ASSERT_STRING_EQUAL(pool ? pool : "(none)", "128M");
	CU_ASSERT_STRING_EQUAL(bind ? bind : "(none)", "127.0.0.1");
	json_decref(j);
	CU_ASSERT_EQUAL(run("stop", out, sizeof(out)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "server stopped"));
	CU_ASSERT_FALSE(pid_exists(pid));
	CU_ASSERT_EQUAL(run("status", out, sizeof(out)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "not running"));
	CU_ASSERT_EQUAL(run("start --server-option no_such_option_dbt3=2", out, sizeof(out)), 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "unknown variable 'no_such_option_dbt3=2'"));
	CU_ASSERT_EQUAL(servers_left(), 0);
}

/* The instance lock: while one process manages the instance, another one's start and stop fail
 * (naming the holder) and leave its server alone; once the holder exits the lock is free. */
TH_TEST(srv_db, second_process_finds_instance_in_use)
{
	struct th_db_holder holder;
	CU_ASSERT_EQUAL(th_db_hold(&db, 128u << 20, &holder), 0);
	pid_t child = holder.child;
	int server = (int)holder.server;
	CU_ASSERT(server > 0);

	struct th_srv t;
	char want[64], out[1 << 14];
	snprintf(want, sizeof(want), "is in use by pid %d (", (int)child);
	srv_for_test(&t);
	CU_ASSERT_EQUAL(th_srv_open(&t), 0);
	CU_ASSERT_EQUAL(srv_start(t.s, NULL, &t.err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(t.err.msg, want));
	CU_ASSERT_EQUAL(srv_stop(t.s, &t.err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(t.err.msg, want));
	CU_ASSERT_TRUE(server > 0 && pid_exists(server));
	/* the command line: exit 4, one line naming the holder */
	CU_ASSERT_EQUAL(run("stop", out, sizeof(out)), 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT_TRUE(server > 0 && pid_exists(server));

	CU_ASSERT_EQUAL(th_db_release(&holder), 0);
	/* the holder exited: the lock is free again */
	CU_ASSERT_EQUAL(srv_start(t.s, NULL, &t.err), 0);
	CU_ASSERT_EQUAL(srv_stop(t.s, &t.err), 0);
	release_all(&t);
}

int main(int argc, char **argv)
{
	if (th_db_begin(&db, "srvdb") < 0)
		return 2;
	init_rc = th_db_init(&db, 128u << 20); /* once per test file; every case reuses it */
	int rc = th_run("srv_db", th_cases(), argc, argv);
	th_db_stop(&db); /* whatever a failed case left running */
	if (servers_left() != 0) {
		fprintf(stderr, "servers left behind in '%s'\n", db.tmp);
		rc = 1;
	}
	th_db_end(&db);
	return rc;
}
