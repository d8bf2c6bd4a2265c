/* SPDX-License-Identifier: MIT */
/* Output directories (base/safe_write.h, util_outdir_open): a second, unprivileged OS user made
 * for this test makes a world-writable directory and plants links in it; root's gen, queries,
 * run --variant and history add --db never follow them into a root-only directory, and take no
 * directory of that user's. Needs root (useradd, runuser) and an initialised instance for run. */
#include "tests/harness.h"
#include "tests/th_db.h"
#include "tests/th_spawn.h"
#include "tests/th_user.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct th_db db;
static char user[32]; /* the second OS user, "" when none was made */
static char out[1 << 14];
static char pub[4300], secret[4300];

/* Runs the shell line as the second user; its exit code, output in out. */
#define AS(fmt, ...)                                                                               \
	th_sh(out, sizeof(out), "runuser -u '%s' -- sh -c \"" fmt "\"", user, __VA_ARGS__)

/* Entries of the root-only directory the links aim at: none may ever appear. */
static int secret_entries(void)
{
	DIR *d = opendir(secret);
	struct dirent *e;
	int n = 0;
	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* The case's fresh world-writable directory, the second user's (as /tmp-like as it gets: 1777),
 * and an empty root-only 0700 directory beside it. 0 when set up. */
static int setup(const char *tag)
{
	if (geteuid() != 0) {
		th_skip("needs root: useradd and runuser");
		return -1;
	}
	if (!user[0] || !db.tmp) {
		CU_FAIL("set-up failed: no second user or no instance");
		return -1;
	}
	snprintf(pub, sizeof(pub), "%s/%s-pub", db.tmp, tag);
	snprintf(secret, sizeof(secret), "%s/%s-secret", db.tmp, tag);
	if (th_sh(out, sizeof(out), "mkdir -m 1777 '%s' && chown '%s' '%s' && mkdir -m 700 '%s'",
		  pub, user, pub, secret) != 0) {
		CU_FAIL("cannot make the directories");
		return -1;
	}
	return 0;
}

/* The second user plants pub/dir -> secret; root's gen and queries -o pub/dir are refused with
 * one line and exit 2, and nothing appears in secret. */
TH_TEST(outdirs_db, gen_and_queries_follow_no_planted_link)
{
	if (setup("gq") < 0)
		return;
	CU_ASSERT_EQUAL_FATAL(AS("ln -s '%s' '%s/dir'", secret, pub), 0);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "'%s' queries -q -o '%s/dir'", DBT3_BINARY, pub),
			2);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "symbolic link"));
	CU_ASSERT_EQUAL(
	    th_sh(out, sizeof(out), "'%s' gen -q -s 0.01 -T region -o '%s/dir'", DBT3_BINARY, pub),
	    2);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "'%s' gen -q -s 0.01 --refresh 1 -o '%s/dir/u'",
			      DBT3_BINARY, pub),
			2);
	CU_ASSERT_EQUAL(secret_entries(), 0);
	/* a component the tool makes is its own: pub/new/sub made by root, written */
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out),
			      "'%s' queries -q -o '%s/new/sub' && test -O "
			      "'%s/new' && test -f '%s/new/sub/22.sql'",
			      DBT3_BINARY, pub, pub, pub),
			0);
}

/* A directory of the second user's is not written into, even where it could be reached. */
TH_TEST(outdirs_db, another_users_directory_is_refused)
{
	if (setup("own") < 0)
		return;
	CU_ASSERT_EQUAL_FATAL(AS("mkdir -m 777 '%s/theirs'", pub), 0);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "'%s' queries -q -o '%s/theirs'", DBT3_BINARY, pub),
			2);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "belongs to uid"));
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "ls -A '%s/theirs' | wc -l", pub), 0);
	CU_ASSERT_EQUAL(atoi(out), 0);
}

/* A link root set up itself, in a directory only root writes, is followed as before. */
TH_TEST(outdirs_db, link_set_up_by_root_is_followed)
{
	char priv[4400];
	if (setup("priv") < 0)
		return;
	snprintf(priv, sizeof(priv), "%s/priv-link", db.tmp);
	CU_ASSERT_EQUAL_FATAL(symlink(secret, priv), 0);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "'%s' queries -q -o '%s/q'", DBT3_BINARY, priv), 0);
	CU_ASSERT_EQUAL(secret_entries(), 1);
}

/* run -o DIR --variant writes its result files by path at each checkpoint: a planted link is
 * refused, and so is a new directory in the second user's directory (that user could rename
 * it and put a link in its place later). Refused before the server starts. */
TH_TEST(outdirs_db, run_variants_follow_no_link_and_need_a_stable_directory)
{
	if (setup("run") < 0)
		return;
	CU_ASSERT_EQUAL_FATAL(AS("ln -s '%s' '%s/dir'", secret, pub), 0);
	const char *fmt = "'%s' run -q -s 0.01 --datadir '%s' --port %s -o '%s/%s' --variant a:"
			  " --variant b:";
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), fmt, DBT3_BINARY, db.inst, db.portarg, pub, "dir"),
			2);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "symbolic link"));
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), fmt, DBT3_BINARY, db.inst, db.portarg, pub, "mine"),
			2);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "belongs to uid"));
	CU_ASSERT_EQUAL(secret_entries(), 0);
}

/* run -o FILE rewrites the file by path at each checkpoint: a file in a directory of the second
 * user's is refused before the server starts (that user could swap the directory between two
 * checkpoints), with one line and exit 2; nothing is written there. */
TH_TEST(outdirs_db, run_file_needs_a_stable_directory)
{
	if (setup("runf") < 0)
		return;
	CU_ASSERT_EQUAL_FATAL(AS("mkdir -m 777 '%s/theirs'", pub), 0);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out),
			      "'%s' run -q -s 0.01 --datadir '%s' --port %s -o '%s/theirs/r.json'",
			      DBT3_BINARY, db.inst, db.portarg, pub),
			2);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "belongs to uid"));
	CU_ASSERT_EQUAL(th_count(out, "\n"), 1);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "ls -A '%s/theirs' | wc -l", pub), 0);
	CU_ASSERT_EQUAL(atoi(out), 0);
}

/* history add --db pub/store.sqlite, a dangling link the second user planted, makes no store
 * where it points. */
TH_TEST(outdirs_db, history_store_is_no_planted_link)
{
	if (setup("hist") < 0)
		return;
	char root_dir[4400];
	CU_ASSERT_EQUAL_FATAL(AS("ln -s '%s/store.sqlite' '%s/store.sqlite'", secret, pub), 0);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out),
			      "'%s' history add -q --db '%s/store.sqlite' "
			      "'%s/tests/data/cmp_old.json'",
			      DBT3_BINARY, pub, DBT3_SOURCE_DIR),
			2);
	CU_ASSERT_EQUAL(secret_entries(), 0);
	/* a dangling link root planted in its own directory is refused too: never created */
	snprintf(root_dir, sizeof(root_dir), "%s/hist-own.sqlite", db.tmp);
	CU_ASSERT_EQUAL_FATAL(symlink("hist-secret/s.sqlite", root_dir), 0);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out),
			      "'%s' history add -q --db '%s' '%s/tests/data/cmp_old.json'",
			      DBT3_BINARY, root_dir, DBT3_SOURCE_DIR),
			2);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "symbolic link"));
	CU_ASSERT_EQUAL(secret_entries(), 0);
}

/* The default history store lives in the state directory (DBT3STAB_HOME): a link the second
 * user planted there is not followed, and no store is made where it points. */
TH_TEST(outdirs_db, history_state_dir_is_no_planted_link)
{
	if (setup("state") < 0)
		return;
	CU_ASSERT_EQUAL_FATAL(AS("ln -s '%s' '%s/home'", secret, pub), 0);
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out),
			      "DBT3STAB_HOME='%s/home' '%s' history add -q "
			      "'%s/tests/data/cmp_old.json'",
			      pub, DBT3_BINARY, DBT3_SOURCE_DIR),
			2);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "symbolic link"));
	CU_ASSERT_EQUAL(secret_entries(), 0);
}

int main(int argc, char **argv)
{
	return th_user_db_main(&db, user, sizeof(user), "dbt3o", "outdirs", "outdirs_db",
			       th_cases(), argc, argv);
}
