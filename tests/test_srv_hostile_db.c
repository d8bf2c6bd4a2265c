/* SPDX-License-Identifier: MIT */
/* Issue 30: root must never write where it was not asked to. A real instance made and started
 * with the dbt3stab binary; a second, unprivileged OS user made for this test (useradd, removed
 * after, also on failure) and the server's user 'mysql' plant links and foreign directories,
 * then root runs the tool: F2, F3, F4, F5, F8, F13. Needs root (useradd, runuser). */
#include "tests/harness.h"
#include "tests/th_db.h"
#include "tests/th_spawn.h"
#include "tests/th_user.h"
#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct th_db db;
static char user[32]; /* the second OS user, "" when none was made */
static char out[1 << 14];

/* Runs the shell line as who (runuser, no login shell needed); its exit code, output in out. */
#define AS(who, fmt, ...) th_sh(out, sizeof(out), "runuser -u '%s' -- sh -c \"" fmt "\"", who, \
				__VA_ARGS__)

/* A root-owned 0600 file holding "victim" under the test's directory: what a planted link aims
 * at. Its path in path. */
static void make_victim(char *path, size_t n, const char *name)
{
	snprintf(path, n, "%s/%s", db.tmp, name);
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("victim\n", f);
	fclose(f);
	chmod(path, 0600);
}

static void assert_victim(const char *path)
{
	char line[64];
	struct stat st;
	CU_ASSERT_EQUAL(th_read_line(path, line, sizeof(line)), 0);
	CU_ASSERT_STRING_EQUAL(line, "victim");
	CU_ASSERT_TRUE(stat(path, &st) == 0 && st.st_uid == 0 && (st.st_mode & 07777) == 0600);
}

/* A directory 0755 of who's under the test's directory (which only root may write). */
static int give_dir(const char *path, const char *who)
{
	return th_sh(out, sizeof(out), "mkdir -m 755 '%s' && chown '%s' '%s'", path, who, path);
}

static int started(void)
{
	if (th_server_pid(db.inst) && kill((pid_t)th_server_pid(db.inst), 0) == 0)
		return 1;
	return th_sh(out, sizeof(out), "'%s' server start -q --datadir '%s' --buffer-pool 64M",
		     DBT3_BINARY, db.inst) == 0;
}

static int setup_ok(void)
{
	if (geteuid() != 0) {
		th_skip("needs root: useradd and runuser");
		return 0;
	}
	if (!user[0] || !db.tmp) {
		CU_FAIL("set-up failed: no second user or no instance");
		return 0;
	}
	return 1;
}

/* F2: the server's user owns DIR and plants my.cnf.tmp (the old fixed temp name) as a link to a
 * root file; root's next start writes my.cnf without touching the file. The second user cannot
 * even reach DIR. A planted DIR/tmp link to a root directory is not chmod'ed or chown'ed. */
TH_TEST(srv_hostile_db, f2_planted_links_in_the_instance)
{
	char victim[4300], vdir[4300];
	struct stat st;
	if (!setup_ok())
		return;
	make_victim(victim, sizeof(victim), "f2-victim");
	CU_ASSERT_NOT_EQUAL(AS(user, "ln -s '%s' '%s/my.cnf.tmp'", victim, db.inst), 0);
	CU_ASSERT_EQUAL_FATAL(AS("mysql", "ln -sf '%s' '%s/my.cnf.tmp'", victim, db.inst), 0);
	th_sh(out, sizeof(out), "'%s' server stop -q --datadir '%s'", DBT3_BINARY, db.inst);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "'%s' server start -q --datadir '%s'", DBT3_BINARY,
			      db.inst),
			0);
	assert_victim(victim);
	char link[4400];
	snprintf(link, sizeof(link), "%s/my.cnf.tmp", db.inst);
	CU_ASSERT_TRUE(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	/* DIR/tmp swapped for a link to a root directory: start refuses it, the directory keeps
	 * its owner and mode */
	snprintf(vdir, sizeof(vdir), "%s/f2-vdir", db.tmp);
	CU_ASSERT_EQUAL_FATAL(mkdir(vdir, 0751), 0);
	chmod(vdir, 0751);
	th_sh(out, sizeof(out), "'%s' server stop -q --datadir '%s'", DBT3_BINARY, db.inst);
	CU_ASSERT_EQUAL(AS("mysql", "mv '%s/tmp' '%s/tmp.away' && ln -s '%s' '%s/tmp'", db.inst,
			   db.inst, vdir, db.inst),
			0);
	CU_ASSERT_NOT_EQUAL(th_sh(out, sizeof(out), "'%s' server start -q --datadir '%s'",
				  DBT3_BINARY, db.inst),
			    0);
	CU_ASSERT_TRUE(stat(vdir, &st) == 0 && st.st_uid == 0 && (st.st_mode & 07777) == 0751);
	AS("mysql", "rm '%s/tmp' && mv '%s/tmp.away' '%s/tmp'", db.inst, db.inst, db.inst);
	CU_ASSERT_TRUE(started());
}

/* F3: links planted at the old temp names of compare -o and gen -o in a directory the second
 * user owns: compare's report is written, gen refuses the directory, the victim is unchanged. */
TH_TEST(srv_hostile_db, f3_planted_links_at_output_temp_names)
{
	char victim[4300], udir[4300], path[4400];
	if (!setup_ok())
		return;
	make_victim(victim, sizeof(victim), "f3-victim");
	snprintf(udir, sizeof(udir), "%s/f3-user", db.tmp);
	CU_ASSERT_EQUAL_FATAL(give_dir(udir, user), 0);
	CU_ASSERT_EQUAL_FATAL(AS(user, "mkdir '%s/g' && ln -s '%s' '%s/c.txt.tmp' && ln -s '%s' "
				       "'%s/g/region.tbl.tmp'",
				 udir, victim, udir, victim, udir),
			      0);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out),
			      "'%s' compare '%s/tests/data/cmp_old.json' "
			      "'%s/tests/data/cmp_same.json' -o '%s/c.txt'",
			      DBT3_BINARY, DBT3_SOURCE_DIR, DBT3_SOURCE_DIR, udir),
			0);
	/* an output directory another user owns is refused (util_outdir_open): nothing written */
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "'%s' gen -q -s 0.01 -T region -o '%s/g'",
			      DBT3_BINARY, udir),
			2);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "belongs to uid"));
	assert_victim(victim);
	snprintf(path, sizeof(path), "%s/g/region.tbl", udir);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
}

/* F5: server init on the second user's non-empty directory, and on one of the server's user
 * with something else in it: refused (exit 2), owner, mode and contents as they were. */
TH_TEST(srv_hostile_db, f5_foreign_directories_are_not_taken)
{
	char udir[4300], mdir[4300];
	struct stat st;
	struct passwd *pw = getpwnam(user);
	if (!setup_ok())
		return;
	snprintf(udir, sizeof(udir), "%s/f5-user", db.tmp);
	snprintf(mdir, sizeof(mdir), "%s/f5-mysql", db.tmp);
	CU_ASSERT_EQUAL_FATAL(give_dir(udir, user), 0);
	CU_ASSERT_EQUAL_FATAL(give_dir(mdir, "mysql"), 0);
	CU_ASSERT_EQUAL_FATAL(AS(user, "echo mine > '%s/notes'", udir), 0);
	CU_ASSERT_EQUAL_FATAL(AS("mysql", "echo other > '%s/notes'", mdir), 0);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "'%s' server init -q --datadir '%s'", DBT3_BINARY,
			      udir),
			2);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "belongs to uid"));
	CU_ASSERT_TRUE(stat(udir, &st) == 0 && pw && st.st_uid == pw->pw_uid &&
		       (st.st_mode & 07777) == 0755);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "'%s' server init -q --datadir '%s'", DBT3_BINARY,
			      mdir),
			2);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "is not empty and not a dbt3stab instance"));
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "ls -A '%s'", udir), 0);
	CU_ASSERT_STRING_EQUAL(out, "notes\n"); /* nothing made in it */
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "ls -A '%s'", mdir), 0);
	CU_ASSERT_STRING_EQUAL(out, "notes\n");
}

/* F5, the invoker's own empty directory: init would have to chown it to the server's user, and
 * it chowns only what it made: refused (exit 2), owner and mode as they were, nothing made. */
TH_TEST(srv_hostile_db, f5_own_empty_directory_is_not_chowned)
{
	char rdir[4300];
	struct stat st;
	if (!setup_ok())
		return;
	snprintf(rdir, sizeof(rdir), "%s/f5-root", db.tmp);
	CU_ASSERT_EQUAL_FATAL(mkdir(rdir, 0755), 0);
	CU_ASSERT_EQUAL_FATAL(chmod(rdir, 0755), 0);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "'%s' server init -q --datadir '%s'", DBT3_BINARY,
			      rdir),
			2);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "only when it made it"));
	CU_ASSERT_TRUE(stat(rdir, &st) == 0 && st.st_uid == geteuid() &&
		       (st.st_mode & 07777) == 0755);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "ls -A '%s'", rdir), 0);
	CU_ASSERT_STRING_EQUAL(out, "");
}

/* F13: the second user asks for the status of root's running instance and tries to stop it:
 * "permission denied", exit 2, the server still up. */
TH_TEST(srv_hostile_db, f13_other_user_is_told_permission_denied)
{
	if (!setup_ok())
		return;
	CU_ASSERT_TRUE_FATAL(started());
	long pid = th_server_pid(db.inst);
	CU_ASSERT_EQUAL(AS(user, "'%s' server status --datadir '%s'", DBT3_BINARY, db.inst), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "permission denied"));
	CU_ASSERT_PTR_NULL(strstr(out, "not running"));
	CU_ASSERT_EQUAL(AS(user, "'%s' server stop --datadir '%s'", DBT3_BINARY, db.inst), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "permission denied"));
	CU_ASSERT_EQUAL(kill((pid_t)pid, 0), 0);
	CU_ASSERT_EQUAL(th_server_pid(db.inst), pid);
}

/* F4: a symbolic link to the running instance is that instance: status sees it running, start
 * starts no second server, stop stops it. */
TH_TEST(srv_hostile_db, f4_symlinked_datadir_is_the_instance)
{
	char link[4300];
	if (!setup_ok())
		return;
	CU_ASSERT_TRUE_FATAL(started());
	long pid = th_server_pid(db.inst);
	snprintf(link, sizeof(link), "%s/f4-link", db.tmp);
	unlink(link);
	CU_ASSERT_EQUAL_FATAL(symlink(db.inst, link), 0);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "'%s' server status --datadir '%s'", DBT3_BINARY,
			      link),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "running: pid"));
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "'%s' server start --datadir '%s'", DBT3_BINARY,
			      link),
			0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "already running"));
	CU_ASSERT_EQUAL(th_server_pid(db.inst), pid);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "pgrep -c -f -- '[-]-defaults-file=%s/my.cnf'",
			      db.inst),
			0);
	CU_ASSERT_EQUAL(strtol(out, NULL, 10), 1);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "'%s' server stop --datadir '%s'", DBT3_BINARY,
			      link),
			0);
	for (int i = 0; i < 100 && kill((pid_t)pid, 0) == 0; i++)
		th_sleep_ms(100);
	CU_ASSERT_NOT_EQUAL(kill((pid_t)pid, 0), 0);
	CU_ASSERT_TRUE(started());
}

/* F8: root's history store, a 0444 file in a directory the second user cannot write: the user
 * lists and checks it. */
TH_TEST(srv_hostile_db, f8_other_user_reads_a_read_only_store)
{
	char dir[4300];
	if (!setup_ok())
		return;
	snprintf(dir, sizeof(dir), "%s/f8", db.tmp);
	CU_ASSERT_EQUAL_FATAL(th_sh(out, sizeof(out),
				    "mkdir -m 755 '%s' && '%s' history add -q --db '%s/h.sqlite' "
				    "'%s/tests/data/cmp_old.json' && chmod 444 '%s/h.sqlite'",
				    dir, DBT3_BINARY, dir, DBT3_SOURCE_DIR, dir),
			      0);
	CU_ASSERT_EQUAL(AS(user, "'%s' history list --db '%s/h.sqlite'", DBT3_BINARY, dir), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "testhost"));
	CU_ASSERT_EQUAL(AS(user, "'%s' history check --db '%s/h.sqlite'", DBT3_BINARY, dir), 0);
	CU_ASSERT_PTR_NULL(strstr(out, "readonly"));
	CU_ASSERT_NOT_EQUAL(
	    AS(user, "'%s' history add --db '%s/h.sqlite' '%s/tests/data/cmp_same.json'",
	       DBT3_BINARY, dir, DBT3_SOURCE_DIR),
	    0);
}

int main(int argc, char **argv)
{
	return th_user_db_main(&db, user, sizeof(user), "dbt3h", "hostile", "srv_hostile_db",
			       th_cases(), argc, argv);
}
