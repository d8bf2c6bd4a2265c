/* SPDX-License-Identifier: MIT */
/* Root and the files of the instance directory, which the server's user ('mysql') owns and may
 * rearrange (docs/server.md, "What root does"): root's own client.cnf moved to the name of the
 * error log or the pid file is not given to that user; a pid file linked to a file only root can
 * read is not read; an older instance's datadir walk gives away no file with a second hard link;
 * a link planted at DIR/tmp is refused. Run as root, with 'mysql' planting; a private instance,
 * no data. */
#include "harness.h"
#include "server/srv_secure.h"
#include "tests/th_db.h"
#include "tests/th_spawn.h"
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static struct th_db db;
static int ready; /* the instance was made */
static char out[8192];

#define AS_MYSQL(fmt, ...)                                                                         \
	th_sh(out, sizeof(out), "runuser -u " SRV_SERVER_USER " -- sh -c \"" fmt "\"", __VA_ARGS__)

static int need_root(void)
{
	if (geteuid() != 0 || !getpwnam(SRV_SERVER_USER)) {
		th_skip("needs root and the 'mysql' user: runuser, chown");
		return 0;
	}
	CU_ASSERT_FATAL(ready);
	return 1;
}

/* `dbt3stab server VERB` on the instance; its exit code, its output in out. */
static int server(const char *verb)
{
	return th_sh(out, sizeof(out), "'%s' server %s --datadir '%s' --port %ld 2>&1", DBT3_BINARY,
		     verb, db.inst, db.port);
}

/* A root-only directory tmp/NAME (mode 0700) with one file, secret (mode 0600, text). */
static void root_only(char *dir, size_t len, const char *name, const char *text)
{
	snprintf(dir, len, "%s/%s", db.tmp, name);
	CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0700), 0);
	CU_ASSERT_EQUAL_FATAL(
	    th_sh(out, sizeof(out), "umask 077; printf '%s' > '%s/secret'", text, dir), 0);
}

/* mysql renames root's DIR/client.cnf (mode 0600: the passwords) to DIR/NAME, a file the server
 * writes; a start must not give it to mysql, not even for a moment (the file is watched through
 * a descriptor taken before). After the start, mysql can read no file in DIR that holds the root
 * password. client.cnf is put back afterwards. */
static void moved_client_cnf(const char *name)
{
	char cnf[4300], saved[4300], pending[4300], pass[256];
	snprintf(cnf, sizeof(cnf), "%s/client.cnf", db.inst);
	snprintf(saved, sizeof(saved), "%s/saved.cnf", db.tmp);
	snprintf(pending, sizeof(pending), "%s/client.cnf.new", db.inst);
	CU_ASSERT_EQUAL_FATAL(th_sh(out, sizeof(out), "cp -p '%s' '%s'", cnf, saved), 0);
	CU_ASSERT_EQUAL_FATAL(th_sh(pass, sizeof(pass),
				    "sed -n '/client_root/,$s/^password = //p' '%s' | tr -d '\\n'",
				    saved),
			      0);
	CU_ASSERT_FATAL(strlen(pass) == 32);
	CU_ASSERT_EQUAL_FATAL(AS_MYSQL("mv '%s' '%s/%s'", cnf, db.inst, name), 0);
	char moved[4300];
	snprintf(moved, sizeof(moved), "%s/%s", db.inst, name);
	int fd = open(moved, O_RDONLY); /* the file itself, also once its name is removed */
	CU_ASSERT_FATAL(fd >= 0);
	server("start -q"); /* may fail: client.cnf is gone */
	server("stop -q");
	struct stat st;
	CU_ASSERT(fstat(fd, &st) == 0 && st.st_uid == 0 && (st.st_mode & 077) == 0);
	close(fd);
	CU_ASSERT_NOT_EQUAL(AS_MYSQL("grep -rqsF '%s' '%s'", pass, db.inst), 0);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "rm -f '%s/%s' '%s'; cp -p '%s' '%s'", db.inst,
			      name, pending, saved, cnf),
			0);
	CU_ASSERT_EQUAL(server("start -q"), 0);
	CU_ASSERT_EQUAL(server("stop -q"), 0);
}

TH_TEST(rootfiles_db, client_cnf_moved_to_the_error_log)
{
	if (need_root())
		moved_client_cnf("error.log");
}

TH_TEST(rootfiles_db, client_cnf_moved_to_the_pid_file)
{
	if (need_root())
		moved_client_cnf("mysqld.pid");
}

/* DIR/mysqld.pid a hard link to a root-only file naming a process that runs with this
 * instance's --defaults-file (a decoy of root's): the pid file is read as mysql, who cannot read
 * it, so `server status` says not running (exit 1), and `server stop` leaves the decoy alone. */
TH_TEST(rootfiles_db, pid_file_linked_to_a_root_file_is_not_read)
{
	if (!need_root())
		return;
	char dir[4300], secret[4400], pidfile[4300];
	pid_t decoy = fork();
	CU_ASSERT_FATAL(decoy >= 0);
	if (decoy == 0) {
		char arg[4400];
		snprintf(arg, sizeof(arg), "--defaults-file=%s/my.cnf", db.inst);
		execl("/bin/sh", "sh", "-c", "sleep 60; :", "sh", arg, (char *)NULL);
		_exit(127);
	}
	th_sleep_ms(100);
	char text[32];
	snprintf(text, sizeof(text), "%d\n", (int)decoy);
	root_only(dir, sizeof(dir), "pidroot", text);
	snprintf(secret, sizeof(secret), "%s/secret", dir);
	snprintf(pidfile, sizeof(pidfile), "%s/mysqld.pid", db.inst);
	unlink(pidfile);
	CU_ASSERT_EQUAL_FATAL(link(secret, pidfile),
			      0); /* as mysql could without protected_hardlinks */
	CU_ASSERT_EQUAL(server("status"), 1);
	CU_ASSERT_PTR_NULL(strstr(out, text));
	server("stop -q");
	CU_ASSERT_EQUAL(kill(decoy, 0), 0);
	kill(decoy, SIGKILL);
	waitpid(decoy, NULL, 0);
	CU_ASSERT_EQUAL(unlink(pidfile), 0);
}

/* An instance an older version made as root: its datadir is root's. The start gives the tree to
 * mysql, but not a file with a second hard link in it (here one to a root-only file), and the
 * server starts. */
TH_TEST(rootfiles_db, old_datadir_walk_skips_hard_links)
{
	if (!need_root())
		return;
	char dir[4300], secret[4400], planted[4300];
	root_only(dir, sizeof(dir), "walkroot", "mine");
	snprintf(secret, sizeof(secret), "%s/secret", dir);
	snprintf(planted, sizeof(planted), "%s/data/planted", db.inst);
	CU_ASSERT_EQUAL_FATAL(th_sh(out, sizeof(out), "chown -R root:root '%s/data'", db.inst), 0);
	CU_ASSERT_EQUAL_FATAL(link(secret, planted), 0);
	CU_ASSERT_EQUAL(server("start -q"), 0);
	struct stat st;
	CU_ASSERT(stat(secret, &st) == 0 && st.st_uid == 0);
	struct passwd *pw = getpwnam(SRV_SERVER_USER);
	char mysqldir[4300];
	snprintf(mysqldir, sizeof(mysqldir), "%s/data/mysql", db.inst);
	CU_ASSERT(stat(mysqldir, &st) == 0 && pw && st.st_uid == pw->pw_uid);
	CU_ASSERT_EQUAL(server("stop -q"), 0);
	CU_ASSERT_EQUAL(unlink(planted), 0);
}

/* A link mysql plants at DIR/tmp to a root-only directory: the start fails, and the directory
 * keeps its owner, mode and entries. */
TH_TEST(rootfiles_db, tmp_link_is_refused)
{
	if (!need_root())
		return;
	char dir[4300], tmp[4300];
	root_only(dir, sizeof(dir), "tmproot", "mine");
	snprintf(tmp, sizeof(tmp), "%s/tmp", db.inst);
	CU_ASSERT_EQUAL_FATAL(AS_MYSQL("rm -rf '%s' && ln -s '%s' '%s'", tmp, dir, tmp), 0);
	CU_ASSERT_NOT_EQUAL(server("start -q"), 0);
	struct stat st;
	CU_ASSERT(lstat(dir, &st) == 0 && st.st_uid == 0 && (st.st_mode & 07777) == 0700);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "ls -A '%s'", dir), 0);
	CU_ASSERT_STRING_EQUAL(out, "secret\n");
	server("stop -q");
	CU_ASSERT_EQUAL(unlink(tmp), 0);
	CU_ASSERT_EQUAL(server("start -q"), 0);
	CU_ASSERT_EQUAL(server("stop -q"), 0);
}

int main(int argc, char **argv)
{
	if (th_db_begin(&db, "rootfiles") < 0)
		return 2;
	if (geteuid() == 0 && getpwnam(SRV_SERVER_USER)) {
		ready = server("init -q") == 0;
		if (!ready)
			fprintf(stderr, "server init: %s\n", out);
	}
	int rc = th_run("rootfiles_db", th_cases(), argc, argv);
	th_db_end(&db);
	return rc;
}
