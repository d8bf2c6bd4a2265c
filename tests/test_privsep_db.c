/* SPDX-License-Identifier: MIT */
/* Side by side as root on a real private MariaDB at SF 0.01: the clones are made by the server's
 * user ('mysql'), so a link it plants at DIR/sbs is refused and the directory it aims at stays
 * as it was; the clones' files are that user's; a disk that fills up during the clone exits 2
 * with a message in human units and leaves no partial clone and no empty -o directory. Needs
 * root (runuser, mount). */
#include "harness.h"
#include "server/srv_secure.h"
#include "tests/th_db.h"
#include "tests/th_spawn.h"
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static struct th_db db; /* one loaded instance (made in main) */
static int loaded;
static char out[8192];

/* Runs the shell line as the server's user; its exit code, output in out. */
#define AS_MYSQL(fmt, ...)                                                                         \
	th_sh(out, sizeof(out), "runuser -u " SRV_SERVER_USER " -- sh -c \"" fmt "\"", __VA_ARGS__)

static int need_root(void)
{
	if (geteuid() != 0 || !getpwnam(SRV_SERVER_USER)) {
		th_skip("needs root and the 'mysql' user: runuser, mount");
		return 0;
	}
	return 1;
}

/* A run of two variants of Q6, side by side, one restart; extra arguments (NULL-terminated) may
 * name another --datadir. Output in log; the child's pid. */
static pid_t sbs_spawn(const char *log, const char *outdir, const char *datadir)
{
	const char *args[] = {"run",	    "-s",
			      "0.01",	    "-o",
			      outdir,	    "--side-by-side",
			      "--variant",  "a:mysqld=mariadbd",
			      "--variant",  "b:mysqld=mariadbd,optimizer_switch=semijoin=off",
			      "--restarts", "1",
			      "--warmup",   "1",
			      "--runs",	    "1",
			      "--queries",  "6",
			      "--no-table", NULL};
	if (!datadir)
		return th_db_spawn(&db, log, args, 0);
	const char *extra[] = {"--datadir", datadir, "--port", db.portarg, "--no-pin", NULL};
	return th_spawn(log, args, extra);
}

/* `mv DIR/sbs DIR/sbs.old; ln -s ROOTDIR DIR/sbs` as mysql: the run refuses with one line
 * before it makes anything (it does not measure restart-paired on data it did not check), and
 * the root-owned 0700 directory keeps its mode and its one entry. */
TH_TEST(privsep_db, planted_sbs_link_is_refused)
{
	CU_ASSERT_FATAL(loaded);
	if (!need_root())
		return;
	char rootdir[4300], log[4300], outdir[4300], sbs[4300], text[8192];
	snprintf(rootdir, sizeof(rootdir), "%s/rootonly", db.tmp);
	snprintf(log, sizeof(log), "%s/planted.log", db.tmp);
	snprintf(outdir, sizeof(outdir), "%s/planted-out", db.tmp);
	snprintf(sbs, sizeof(sbs), "%s/sbs", db.inst);
	CU_ASSERT_EQUAL_FATAL(mkdir(rootdir, 0700), 0);
	CU_ASSERT_EQUAL_FATAL(th_sh(out, sizeof(out), "echo mine > '%s/keep'", rootdir), 0);
	CU_ASSERT_EQUAL_FATAL(
	    AS_MYSQL("mv '%s' '%s.old' 2>/dev/null; ln -s '%s' '%s'", sbs, sbs, rootdir, sbs), 0);
	CU_ASSERT_EQUAL(th_wait_exit(sbs_spawn(log, outdir, NULL)), 2);
	CU_ASSERT_EQUAL(th_sh(text, sizeof(text), "cat '%s'", log), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "refusing '"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "/sbs': a symbolic link or not a directory"));
	CU_ASSERT_EQUAL(th_count(text, "\n"), 1);
	struct stat st;
	CU_ASSERT(lstat(rootdir, &st) == 0 && (st.st_mode & 07777) == 0700 && st.st_uid == 0);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "ls -A '%s'", rootdir), 0);
	CU_ASSERT_STRING_EQUAL(out, "keep\n");
	CU_ASSERT_EQUAL(access(outdir, F_OK), -1);
	CU_ASSERT_EQUAL(unlink(sbs), 0); /* the link itself */
	th_sh(out, sizeof(out), "rm -rf '%s.old'", sbs);
}

/* A side-by-side run that works: while clone 0's server runs, every file of the clone is the
 * server user's but root's own three (client.cnf with mode 0600, my.cnf and instance.lock, as in
 * every instance). */
TH_TEST(privsep_db, clone_files_are_the_server_users)
{
	CU_ASSERT_FATAL(loaded);
	if (!need_root())
		return;
	char log[4300], outdir[4300], clone[4300];
	snprintf(log, sizeof(log), "%s/owned.log", db.tmp);
	snprintf(outdir, sizeof(outdir), "%s/owned-out", db.tmp);
	snprintf(clone, sizeof(clone), "%s/sbs/0", db.inst);
	pid_t child = sbs_spawn(log, outdir, NULL);
	CU_ASSERT_FATAL(child > 0);
	int st = 0, checked = 0;
	pid_t w;
	while ((w = waitpid(child, &st, WNOHANG)) == 0) {
		if (!checked && th_server_pid(clone) > 0) {
			checked = 1;
			const char *want = "client.cnf\ninstance.lock\nmy.cnf\nroot 600\n";
			CU_ASSERT_EQUAL(
			    th_sh(out, sizeof(out),
				  "find '%s' ! -user " SRV_SERVER_USER
				  " -printf '%%P\\n' | sort; stat -c '%%U %%a' '%s/client.cnf'",
				  clone, clone),
			    0);
			CU_ASSERT_STRING_EQUAL(out, want);
			if (strcmp(out, want) != 0)
				fprintf(stderr, "not the server user's:\n%s", out);
		}
		th_sleep_ms(50);
	}
	CU_ASSERT_EQUAL(w, child);
	if (th_exit_code(st) != 0)
		th_show_log(log);
	CU_ASSERT_EQUAL(th_exit_code(st), 0);
	CU_ASSERT(checked);
}

/* A copy of the instance on a tmpfs with room for its bytes but few inodes: the check before
 * the run passes (it counts bytes), the clone fills the filesystem. Exit 2 (not 1, which is a
 * regression), one message in human units, no DIR/sbs/0 and no -o directory left. */
TH_TEST(privsep_db, disk_full_during_the_clone)
{
	CU_ASSERT_FATAL(loaded);
	if (!need_root())
		return;
	char mnt[4300], inst[4400], log[4300], outdir[4400], parent[4300], text[8192];
	snprintf(mnt, sizeof(mnt), "%s/small", db.tmp);
	snprintf(inst, sizeof(inst), "%s/inst", mnt);
	snprintf(log, sizeof(log), "%s/full.log", db.tmp);
	snprintf(parent, sizeof(parent), "%s/full-out", db.tmp);
	snprintf(outdir, sizeof(outdir), "%s/a/b", parent);
	CU_ASSERT_EQUAL_FATAL(th_db_stop(&db), 0);
	CU_ASSERT_EQUAL_FATAL(th_sh(out, sizeof(out), "find '%s' | wc -l", db.inst), 0);
	long files = strtol(out, NULL, 10);
	CU_ASSERT_FATAL(files > 50);
	CU_ASSERT_EQUAL_FATAL(mkdir(mnt, 0711), 0);
	if (th_sh(out, sizeof(out), "mount -t tmpfs -o size=4g,nr_inodes=%ld,mode=0711 tmpfs '%s'",
		  files + 40, mnt) != 0) {
		th_skip("cannot mount a tmpfs here");
		return;
	}
	CU_ASSERT_EQUAL(
	    th_sh(out, sizeof(out), "cp -a '%s' '%s' && rm -rf '%s/sbs'", db.inst, inst, inst), 0);
	CU_ASSERT_EQUAL(th_wait_exit(sbs_spawn(log, outdir, inst)), 2);
	CU_ASSERT_EQUAL(th_sh(text, sizeof(text), "cat '%s'", log), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "its filesystem is full"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "free and no free inodes, the clone needs "));
	CU_ASSERT_PTR_NULL(strstr(text, "e-0"));
	if (!strstr(text, "no free inodes, the clone needs "))
		th_show_log(log);
	char clone[4500];
	snprintf(clone, sizeof(clone), "%s/sbs/0", inst);
	CU_ASSERT_EQUAL(access(clone, F_OK), -1);
	CU_ASSERT_EQUAL(access(parent, F_OK), -1);
	th_sh(out, sizeof(out), "umount '%s'", mnt); /* the clone failed before any start */
	rmdir(mnt);
}

int main(int argc, char **argv)
{
	return th_db_main_loaded(&db, &loaded, "privsep", "privsep_db", th_cases(), argc, argv);
}
