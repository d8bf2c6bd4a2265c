/* SPDX-License-Identifier: MIT */
/* Who can reach a managed server (issue 12, docs/server.md): a real instance made and started
 * with the dbt3stab binary, attacked the way any other local account could. Run as root (CI),
 * the other account is 'nobody'; as an ordinary user, the same attempts run as that user, who
 * still lacks the passwords. */
#include "tests/harness.h"
#include "tests/th_db.h"
#include "tests/th_spawn.h"
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static struct th_db db; /* the instance, made and started in main */
static char sock[4300], cnf[4300];
static char setup_out[1 << 15]; /* what init and start printed */
static int setup_rc = -1;

/* The value of `key = value` in group [group] of the instance's client.cnf, read here with
 * plain stdio (not the tool's reader). */
static void cnf_value(const char *group, const char *key, char *out, size_t len)
{
	out[0] = '\0';
	FILE *f = fopen(cnf, "r");
	char line[512], cur[64] = "";
	while (f && fgets(line, sizeof(line), f)) {
		char k[64], v[256];
		if (sscanf(line, "[%63[^]]]", cur) == 1)
			continue;
		if (strcmp(cur, group) == 0 && sscanf(line, " %63[a-z_] = %255s", k, v) == 2 &&
		    strcmp(k, key) == 0)
			snprintf(out, len, "%s", v);
	}
	if (f)
		fclose(f);
}

/* The OS user a managed server runs as: 'mysql' when the tool runs as root, else the tool's. */
static uid_t server_uid(void)
{
	struct passwd *pw = geteuid() == 0 ? getpwnam("mysql") : NULL;
	return pw ? pw->pw_uid : geteuid();
}

/* root, with its password, through the client library's own option-file reader. */
static MYSQL *connect_root(void)
{
	MYSQL *m = mysql_init(NULL);
	mysql_options(m, MYSQL_READ_DEFAULT_FILE, cnf);
	mysql_options(m, MYSQL_READ_DEFAULT_GROUP, "client_root");
	if (!mysql_real_connect(m, "localhost", NULL, NULL, NULL, 0, sock, 0)) {
		fprintf(stderr, "root with its password: %s\n", mysql_error(m));
		mysql_close(m);
		return NULL;
	}
	return m;
}

/* 0 when the connection is refused; else 1. *code: the error number. */
static int try_login(const char *host, unsigned p, const char *socket, const char *user,
		     const char *pass, unsigned *code)
{
	MYSQL *m = mysql_init(NULL);
	unsigned timeout = 5;
	mysql_options(m, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
	int ok = mysql_real_connect(m, host, user, pass, NULL, p, socket, 0) != NULL;
	*code = mysql_errno(m);
	mysql_close(m);
	return ok;
}

TH_TEST(srv_secure_db, setup_succeeded)
{
	if (setup_rc != 0)
		fprintf(stderr, "%s\n", setup_out);
	CU_ASSERT_EQUAL_FATAL(setup_rc, 0);
}

TH_TEST(srv_secure_db, server_does_not_run_as_root)
{
	pid_t pid = (pid_t)th_server_pid(db.inst);
	CU_ASSERT_FATAL(pid > 0);
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	long ruid = -1, euid = -1, suid = -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %ld %ld %ld", &ruid, &euid, &suid) == 3)
			break;
	fclose(f);
	CU_ASSERT(ruid > 0 && euid > 0 && suid > 0);
	if (geteuid() == 0) /* invoked as root: the packaged system user */
		CU_ASSERT_PTR_NOT_NULL(getpwnam("mysql"));
	CU_ASSERT_EQUAL(euid, (long)server_uid());
}

/* In a child that is another account (nobody) when we are root: the attempts of issue 12.
 * Exit code: bit set for each attempt that got in (or, for TCP, was not refused by the server). */
static int attacker(void)
{
	int got = 0, switched = geteuid() == 0;
	unsigned code;
	if (switched) {
		struct passwd *pw = getpwnam("nobody");
		gid_t g = pw ? pw->pw_gid : 65534;
		if (!pw || setgroups(1, &g) < 0 || setgid(g) < 0 || setuid(pw->pw_uid) < 0)
			return 128;
	}
	/* over the socket as root, no password: the socket's directory or the password stops it */
	if (try_login("localhost", 0, sock, "root", NULL, &code))
		got |= 1;
	if (try_login("localhost", 0, sock, "root", "", &code))
		got |= 1;
	/* over TCP (asked for with --port): the server itself must say no (1045) */
	if (try_login("127.0.0.1", (unsigned)db.port, NULL, "root", NULL, &code) || code != 1045)
		got |= 2;
	if (try_login("127.0.0.1", (unsigned)db.port, NULL, "dbt3stab", NULL, &code) ||
	    code != 1045)
		got |= 4;
	if (try_login("127.0.0.1", (unsigned)db.port, NULL, "", NULL, &code) || code != 1045)
		got |= 8; /* anonymous */
	/* the passwords themselves (an ordinary user running the test owns them) */
	int fd = switched ? open(cnf, O_RDONLY) : -1;
	if (fd >= 0) {
		got |= 16;
		close(fd);
	}
	return got;
}

TH_TEST(srv_secure_db, others_cannot_log_in)
{
	pid_t child = fork();
	CU_ASSERT_FATAL(child >= 0);
	if (child == 0)
		_exit(attacker());
	int st = 0;
	CU_ASSERT_EQUAL(waitpid(child, &st, 0), child);
	CU_ASSERT_TRUE(WIFEXITED(st));
	if (WEXITSTATUS(st))
		fprintf(stderr, "attacker got in: bits 0x%x\n", WEXITSTATUS(st));
	CU_ASSERT_EQUAL(WEXITSTATUS(st), 0);
	/* even an account that reaches the socket (this one) needs the password */
	unsigned code;
	CU_ASSERT_FALSE(try_login("localhost", 0, sock, "root", NULL, &code));
	CU_ASSERT_EQUAL(code, 1045);
	CU_ASSERT_FALSE(try_login("localhost", 0, sock, "dbt3stab", NULL, &code));
	CU_ASSERT_EQUAL(code, 1045);
	/* and with it, it gets in: the refusals above are not a dead server */
	MYSQL *m = connect_root();
	CU_ASSERT_PTR_NOT_NULL(m);
	mysql_close(m);
}

TH_TEST(srv_secure_db, outfile_only_in_private_dir)
{
	MYSQL *m = connect_root();
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	char stmt[9000], outside[4300], inside[4300];
	snprintf(outside, sizeof(outside), "%s/owned", db.tmp);
	snprintf(inside, sizeof(inside), "%s/files/allowed.txt", db.inst);
	snprintf(stmt, sizeof(stmt), "SELECT 'x' INTO OUTFILE '%s'", outside);
	CU_ASSERT_NOT_EQUAL(mysql_query(m, stmt), 0);
	CU_ASSERT_EQUAL(mysql_errno(m), 1290); /* ER_OPTION_PREVENTS_STATEMENT: secure_file_priv */
	CU_ASSERT_EQUAL(access(outside, F_OK), -1);
	CU_ASSERT_NOT_EQUAL(mysql_query(m, "SELECT 'x' INTO OUTFILE '/tmp/dbt3stab-owned'"), 0);
	/* the private directory works for root (it has FILE) */
	snprintf(stmt, sizeof(stmt), "SELECT 'x' INTO OUTFILE '%s'", inside);
	CU_ASSERT_EQUAL(mysql_query(m, stmt), 0);
	CU_ASSERT_EQUAL(access(inside, F_OK), 0);
	char v[8];
	CU_ASSERT_EQUAL(th_query_one(m, "SELECT LOAD_FILE('/etc/passwd') IS NULL", v, sizeof(v)),
			0);
	CU_ASSERT_STRING_EQUAL(v, "1");
	mysql_close(m);
}

TH_TEST(srv_secure_db, only_root_and_tool_accounts)
{
	MYSQL *m = connect_root();
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(
	    mysql_query(m, "SELECT CONCAT(User, '@', Host) FROM mysql.user WHERE is_role = 'N' "
			   "ORDER BY 1"),
	    0);
	MYSQL_RES *r = mysql_store_result(m);
	char all[1024] = "";
	MYSQL_ROW row;
	while (r && (row = mysql_fetch_row(r))) {
		strncat(all, row[0] ? row[0] : "NULL", sizeof(all) - strlen(all) - 2);
		strcat(all, " ");
	}
	mysql_free_result(r);
	mysql_close(m);
	CU_ASSERT_STRING_EQUAL(all, "dbt3stab@127.0.0.1 dbt3stab@::1 dbt3stab@localhost "
				    "mariadb.sys@localhost root@localhost ");
}

/* A secret must not appear in text. */
static int leaks(const char *text, const char *secret)
{
	return secret[0] && strstr(text, secret) != NULL;
}

TH_TEST(srv_secure_db, passwords_kept_private)
{
	struct stat st;
	CU_ASSERT_EQUAL_FATAL(stat(cnf, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0600);
	CU_ASSERT_EQUAL(st.st_uid, geteuid());
	CU_ASSERT_EQUAL_FATAL(stat(db.inst, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0700); /* the socket's directory */
	CU_ASSERT_EQUAL(st.st_uid, server_uid());
	char tool[256], root[256];
	cnf_value("client", "password", tool, sizeof(tool));
	cnf_value("client_root", "password", root, sizeof(root));
	CU_ASSERT_EQUAL(strlen(tool), 32);
	CU_ASSERT_EQUAL(strlen(root), 32);
	CU_ASSERT_STRING_NOT_EQUAL(tool, root);
	/* not printed, not in the option file or the log, not on the server's command line */
	CU_ASSERT_FALSE(leaks(setup_out, tool) || leaks(setup_out, root));
	static const char *const files[] = {"my.cnf", "error.log", NULL};
	for (int i = 0; files[i]; i++) {
		char path[4300], *text = NULL;
		struct errbuf err;
		snprintf(path, sizeof(path), "%s/%s", db.inst, files[i]);
		CU_ASSERT_EQUAL_FATAL(util_read_file(path, &text, NULL, &err), 0);
		CU_ASSERT_FALSE(leaks(text, tool) || leaks(text, root));
		free(text);
	}
	char path[64], cmdline[8192];
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)th_server_pid(db.inst));
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(cmdline, 1, sizeof(cmdline) - 1, f) : 0;
	if (f)
		fclose(f);
	for (size_t i = 0; i < n; i++)
		if (!cmdline[i])
			cmdline[i] = ' ';
	cmdline[n] = '\0';
	CU_ASSERT(n > 0);
	CU_ASSERT_FALSE(leaks(cmdline, tool) || leaks(cmdline, root));
	/* the record a result file gets holds no secret either */
	char out[1 << 16];
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "'%s' server status --json --datadir '%s'",
			      DBT3_BINARY, db.inst),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"running\": true"));
	CU_ASSERT_FALSE(leaks(out, tool) || leaks(out, root));
}

TH_TEST(srv_secure_db, wrong_password_is_reported_as_such)
{
	char out[1 << 14];
	/* issue 12 section 6: the server's own error, not "does not answer" */
	int rc =
	    th_sh(out, sizeof(out), "MYSQL_PWD=wrong '%s' query 6 --socket '%s' --user dbt3stab",
		  DBT3_BINARY, sock);
	CU_ASSERT_EQUAL(rc, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "Access denied"));
	CU_ASSERT_PTR_NULL(strstr(out, "does not answer"));
	rc = th_sh(out, sizeof(out),
		   "MYSQL_PWD=wrong '%s' query 6 --host 127.0.0.1 --port %ld --user root",
		   DBT3_BINARY, db.port);
	CU_ASSERT_EQUAL(rc, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "Access denied"));
	rc = th_sh(out, sizeof(out),
		   "MYSQL_PWD=wrong '%s' server status --socket '%s' --user dbt3stab", DBT3_BINARY,
		   sock);
	CU_ASSERT_EQUAL(rc, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "Access denied"));
}

TH_TEST(srv_secure_db, busy_instance_refused_before_any_message)
{
	/* another process holds the instance (a running server it started); a second `run` must
	 * say it is in use and nothing else (it used to announce "stopping the server") */
	char out[1 << 14];
	CU_ASSERT_EQUAL(
	    th_sh(out, sizeof(out), "'%s' server stop -q --datadir '%s'", DBT3_BINARY, db.inst), 0);
	struct th_db_holder holder;
	CU_ASSERT_EQUAL(th_db_hold(&db, 128u << 20, &holder), 0);
	int rc =
	    th_sh(out, sizeof(out),
		  "'%s' run -s 0.01 --restarts 1 --warmup 0 --runs 1 --queries 6 --datadir '%s' "
		  "--port %ld -o '%s/busy.json'",
		  DBT3_BINARY, db.inst, db.port, db.tmp);
	CU_ASSERT_EQUAL(rc, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "is in use by pid"));
	CU_ASSERT_PTR_NULL(strstr(out, "stopping"));
	if (strstr(out, "stopping") || !strstr(out, "is in use"))
		fprintf(stderr, "run said:\n%s\n", out);
	CU_ASSERT_EQUAL(th_db_release(&holder), 0);
}

TH_TEST(srv_secure_db, socket_only_without_port)
{
	char out[1 << 14];
	th_sh(out, sizeof(out), "'%s' server stop -q --datadir '%s'", DBT3_BINARY, db.inst);
	int rc = th_sh(out, sizeof(out), "'%s' server start --datadir '%s' --buffer-pool 128M",
		       DBT3_BINARY, db.inst);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_PTR_NULL(strstr(out, "127.0.0.1:"));
	unsigned code;
	/* nothing listens: a client-side error, not a server's refusal */
	CU_ASSERT_FALSE(try_login("127.0.0.1", (unsigned)db.port, NULL, "root", NULL, &code));
	CU_ASSERT_EQUAL(code, 2002);
	MYSQL *m = connect_root();
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	char v[8];
	CU_ASSERT_EQUAL(th_query_one(m, "SELECT @@skip_networking", v, sizeof(v)), 0);
	CU_ASSERT_STRING_EQUAL(v, "1");
	mysql_close(m);
	CU_ASSERT_EQUAL(
	    th_sh(out, sizeof(out), "'%s' server stop -q --datadir '%s'", DBT3_BINARY, db.inst), 0);
}

/* Turns the instance back into what an older dbt3stab left: passwordless root on every host
 * name, an anonymous account, no client.cnf, world-readable modes, files owned by root. */
static int make_it_old(void)
{
	char out[1 << 14];
	th_sh(out, sizeof(out), "'%s' server stop -q --datadir '%s'", DBT3_BINARY, db.inst);
	if (th_sh(out, sizeof(out),
		  "'%s' server start -q --datadir '%s' --port %ld --buffer-pool 128M", DBT3_BINARY,
		  db.inst, db.port) != 0)
		return fprintf(stderr, "%s\n", out), -1;
	MYSQL *m = connect_root();
	if (!m)
		return -1;
	static const char *const stmts[] = {
	    "CREATE USER 'root'@'127.0.0.1'",
	    "GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION",
	    "CREATE USER ''@'localhost'",
	    "DROP USER 'dbt3stab'@'localhost', 'dbt3stab'@'127.0.0.1', 'dbt3stab'@'::1'",
	    "ALTER USER 'root'@'localhost' IDENTIFIED BY ''",
	    NULL};
	for (int i = 0; stmts[i]; i++)
		if (mysql_query(m, stmts[i]) != 0) {
			fprintf(stderr, "%s: %s\n", stmts[i], mysql_error(m));
			mysql_close(m);
			return -1;
		}
	mysql_close(m);
	/* the tool's account is gone: stop falls back to SIGTERM */
	if (th_sh(out, sizeof(out), "'%s' server stop -q --datadir '%s'", DBT3_BINARY, db.inst) !=
	    0)
		return fprintf(stderr, "%s\n", out), -1;
	if (unlink(cnf) < 0 || chmod(db.inst, 0755) < 0)
		return -1;
	if (geteuid() == 0 && chown(db.inst, 0, 0) < 0)
		return -1;
	return 0;
}

TH_TEST(srv_secure_db, older_instance_secured_at_start)
{
	CU_ASSERT_EQUAL_FATAL(make_it_old(), 0);
	char out[1 << 14];
	int rc = th_sh(out, sizeof(out),
		       "'%s' server start --datadir '%s' --port %ld --buffer-pool 128M",
		       DBT3_BINARY, db.inst, db.port);
	if (rc)
		fprintf(stderr, "%s\n", out);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	struct stat st;
	CU_ASSERT_EQUAL(stat(cnf, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0600);
	CU_ASSERT_EQUAL(stat(db.inst, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0700);
	CU_ASSERT_EQUAL(st.st_uid, server_uid());
	unsigned code;
	CU_ASSERT_FALSE(try_login("127.0.0.1", (unsigned)db.port, NULL, "root", NULL, &code));
	CU_ASSERT_EQUAL(code, 1045);
	CU_ASSERT_FALSE(try_login("localhost", 0, sock, "root", NULL, &code));
	CU_ASSERT_EQUAL(code, 1045);
	test_srv_secure_db__only_root_and_tool_accounts();
	/* and the tool works on it */
	rc = th_sh(out, sizeof(out), "'%s' server status --json --datadir '%s'", DBT3_BINARY,
		   db.inst);
	if (rc)
		fprintf(stderr, "%s\n", out);
	CU_ASSERT_EQUAL(rc, 0);
}

TH_TEST(srv_secure_db, start_creates_nothing_in_a_non_instance)
{
	char out[1 << 14], dir[4300], missing[4300], listing[256];
	snprintf(dir, sizeof(dir), "%s/empty", db.tmp);
	snprintf(missing, sizeof(missing), "%s/missing", db.tmp);
	CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0755), 0);
	CU_ASSERT_EQUAL(
	    th_sh(out, sizeof(out), "'%s' server start --datadir '%s'", DBT3_BINARY, dir), 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "is not initialised"));
	CU_ASSERT_EQUAL(th_sh(listing, sizeof(listing), "ls -A '%s'", dir), 0);
	CU_ASSERT_STRING_EQUAL(listing, "");
	CU_ASSERT_EQUAL(
	    th_sh(out, sizeof(out), "'%s' server start --datadir '%s'", DBT3_BINARY, missing), 4);
	CU_ASSERT_EQUAL(
	    th_sh(out, sizeof(out), "'%s' server stop --datadir '%s'", DBT3_BINARY, missing), 0);
	CU_ASSERT_EQUAL(access(missing, F_OK), -1);
}

TH_TEST(srv_secure_db, datadir_with_space_refused_up_front)
{
	char out[1 << 14], dir[4300], spaced[4300];
	snprintf(dir, sizeof(dir), "%s/a b", db.tmp);
	static const char *const cmds[] = {"server init", "server start", "load -s 0.01", "query 6",
					   NULL};
	for (int i = 0; cmds[i]; i++) {
		int rc =
		    th_sh(out, sizeof(out), "'%s' %s --datadir '%s'", DBT3_BINARY, cmds[i], dir);
		CU_ASSERT_EQUAL(rc, 2);
		CU_ASSERT_PTR_NOT_NULL(strstr(out, "contains a space"));
		CU_ASSERT_EQUAL(access(dir, F_OK), -1);
	}
	/* a relative --datadir under a working directory with a space: same answer */
	snprintf(spaced, sizeof(spaced), "%s/c d", db.tmp);
	CU_ASSERT_EQUAL_FATAL(mkdir(spaced, 0755), 0);
	int rc = th_sh(out, sizeof(out), "cd '%s' && '%s' server init --datadir inst", spaced,
		       DBT3_BINARY);
	CU_ASSERT_EQUAL(rc, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "contains a space"));
	char listing[256];
	CU_ASSERT_EQUAL(th_sh(listing, sizeof(listing), "ls -A '%s'", spaced), 0);
	CU_ASSERT_STRING_EQUAL(listing, "");
}

int main(int argc, char **argv)
{
	if (th_db_begin(&db, "srvsec") < 0)
		return 2;
	snprintf(sock, sizeof(sock), "%s/mysqld.sock", db.inst);
	snprintf(cnf, sizeof(cnf), "%s/client.cnf", db.inst);
	mysql_library_init(0, NULL, NULL);
	/* made and started the way a user does it, TCP on so that it can be attacked too */
	char out[1 << 14];
	setup_rc = th_sh(setup_out, sizeof(setup_out), "'%s' server init --datadir '%s'",
			 DBT3_BINARY, db.inst);
	if (setup_rc == 0) {
		setup_rc = th_sh(out, sizeof(out),
				 "'%s' server start --datadir '%s' --port %ld --buffer-pool 128M",
				 DBT3_BINARY, db.inst, db.port);
		strncat(setup_out, out, sizeof(setup_out) - strlen(setup_out) - 1);
	}
	int rc = th_run("srv_secure_db", th_cases(), argc, argv);
	th_db_end(&db);
	return rc;
}
