/* SPDX-License-Identifier: MIT */
/* Unit tests of server/srv_secure.c and the flavour-dependent initializer (MySQL 8 paths are
 * tested here only: no MySQL 8 binary is available). */
#include "server/srv_secure.h"
#include "tests/harness.h"
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

TH_TEST(srv_secure, passwords_are_random_alphanumerics)
{
	struct errbuf err;
	char a[33], b[33];
	CU_ASSERT_EQUAL_FATAL(srv_password_new(a, sizeof(a), &err), 0);
	CU_ASSERT_EQUAL_FATAL(srv_password_new(b, sizeof(b), &err), 0);
	CU_ASSERT_EQUAL(strlen(a), 32);
	CU_ASSERT_STRING_NOT_EQUAL(a, b);
	/* 6200 characters: each of the 62 appears (a miss has probability 62 (61/62)^6200 <
	 * 1e-40), nothing else does */
	static char many[6201];
	CU_ASSERT_EQUAL_FATAL(srv_password_new(many, sizeof(many), &err), 0);
	int seen[256] = {0};
	for (size_t i = 0; i < 6200; i++)
		seen[(unsigned char)many[i]]++;
	int kinds = 0, others = 0;
	for (int c = 0; c < 256; c++) {
		int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
		kinds += alnum && seen[c] > 0;
		others += !alnum && seen[c] > 0;
	}
	CU_ASSERT_EQUAL(kinds, 62);
	CU_ASSERT_EQUAL(others, 0);
}

TH_TEST(srv_secure, client_cnf_round_trip_and_refusals)
{
	struct errbuf err;
	char *dir = th_tempdir("srvsec-unit");
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	char path[4200], link[4200];
	snprintf(path, sizeof(path), "%s/client.cnf", dir);
	snprintf(link, sizeof(link), "%s/link.cnf", dir);
	struct srv_creds c, r;
	CU_ASSERT_EQUAL(srv_creds_read(&r, path, &err), 0); /* absent */
	CU_ASSERT_EQUAL_FATAL(srv_creds_new(&c, &err), 0);
	CU_ASSERT_STRING_EQUAL(c.user, "dbt3stab");
	CU_ASSERT_STRING_NOT_EQUAL(c.password, c.root_password);
	CU_ASSERT_EQUAL_FATAL(srv_creds_write(&c, path, "/x/mysqld.sock", &err), 0);
	struct stat st;
	CU_ASSERT_EQUAL(stat(path, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0600);
	CU_ASSERT_EQUAL(srv_creds_read(&r, path, &err), 1);
	CU_ASSERT_STRING_EQUAL(r.user, c.user);
	CU_ASSERT_STRING_EQUAL(r.password, c.password);
	CU_ASSERT_STRING_EQUAL(r.root_password, c.root_password);
	/* the text a client library reads: [client] for the tool, [client_root] for root */
	char *text = NULL;
	CU_ASSERT_EQUAL_FATAL(util_read_file(path, &text, NULL, &err), 0);
	char want[256];
	snprintf(want, sizeof(want), "[client]\nuser = dbt3stab\npassword = %s\n", c.password);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
	snprintf(want, sizeof(want), "[client_root]\nuser = root\npassword = %s\n",
		 c.root_password);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "socket = \"/x/mysqld.sock\""));
	free(text);
	/* readable by others: refused, with one line */
	CU_ASSERT_EQUAL(chmod(path, 0640), 0);
	CU_ASSERT_EQUAL(srv_creds_read(&r, path, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "mode 0600"));
	CU_ASSERT_EQUAL(chmod(path, 0600), 0);
	/* a symbolic link: refused (O_NOFOLLOW) */
	CU_ASSERT_EQUAL(symlink(path, link), 0);
	CU_ASSERT_EQUAL(srv_creds_read(&r, link, &err), -1);
	th_rmtree(dir);
	free(dir);
}

TH_TEST(srv_secure, accounts_kept)
{
	CU_ASSERT_TRUE(srv_secure_keeps("root", "localhost"));
	CU_ASSERT_FALSE(srv_secure_keeps("root", "127.0.0.1"));
	CU_ASSERT_FALSE(srv_secure_keeps("root", "::1"));
	CU_ASSERT_FALSE(srv_secure_keeps("root", "bench-host-7"));
	CU_ASSERT_FALSE(srv_secure_keeps("root", "%"));
	CU_ASSERT_FALSE(srv_secure_keeps("", "localhost"));
	CU_ASSERT_FALSE(srv_secure_keeps("", "bench-host-7"));
	CU_ASSERT_FALSE(srv_secure_keeps("mysql", "localhost")); /* unix_socket account */
	CU_ASSERT_TRUE(srv_secure_keeps("dbt3stab", "localhost"));
	CU_ASSERT_TRUE(srv_secure_keeps("dbt3stab", "127.0.0.1"));
	CU_ASSERT_TRUE(srv_secure_keeps("dbt3stab", "::1"));
	CU_ASSERT_FALSE(srv_secure_keeps("dbt3stab", "%"));
	/* the servers' own: MariaDB 10.4+, MySQL 8 */
	CU_ASSERT_TRUE(srv_secure_keeps("mariadb.sys", "localhost"));
	CU_ASSERT_TRUE(srv_secure_keeps("mysql.sys", "localhost"));
	CU_ASSERT_TRUE(srv_secure_keeps("mysql.session", "localhost"));
	CU_ASSERT_TRUE(srv_secure_keeps("mysql.infoschema", "localhost"));
}

TH_TEST(srv_secure, flavour_paths)
{
	/* MySQL 8's mysql.user has no is_role column; MariaDB keeps roles there */
	CU_ASSERT_PTR_NULL(strstr(srv_secure_list_sql(SRV_FLAVOUR_MYSQL), "is_role"));
	CU_ASSERT_PTR_NOT_NULL(strstr(srv_secure_list_sql(SRV_FLAVOUR_MARIADB), "is_role = 'N'"));
	char *argv[12];
	char prog[] = "/usr/sbin/mysqld", def[] = "--defaults-file=/i/my.cnf",
	     dd[] = "--datadir=/i/data", bd[] = "--basedir=/opt/mysql";
	/* MySQL 8: the server itself, no password until srv_secure_accounts, never --user */
	int n = srv_init_argv(argv, 12, SRV_FLAVOUR_MYSQL, prog, def, dd, bd);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	CU_ASSERT_STRING_EQUAL(argv[0], prog);
	CU_ASSERT_STRING_EQUAL(argv[1], def);
	CU_ASSERT_STRING_EQUAL(argv[2], "--initialize-insecure");
	CU_ASSERT_STRING_EQUAL(argv[3], bd);
	CU_ASSERT_PTR_NULL(argv[4]);
	/* MariaDB: the installer, root by password (not unix_socket), no test database */
	char inst[] = "/usr/bin/mariadb-install-db";
	n = srv_init_argv(argv, 12, SRV_FLAVOUR_MARIADB, inst, def, dd, NULL);
	CU_ASSERT_EQUAL_FATAL(n, 5);
	CU_ASSERT_STRING_EQUAL(argv[2], dd);
	CU_ASSERT_STRING_EQUAL(argv[3], "--auth-root-authentication-method=normal");
	CU_ASSERT_STRING_EQUAL(argv[4], "--skip-test-db");
	for (int i = 0; argv[i]; i++)
		CU_ASSERT_PTR_NULL(strstr(argv[i], "--user"));
	CU_ASSERT_EQUAL(srv_init_argv(argv, 4, SRV_FLAVOUR_MARIADB, inst, def, dd, NULL), -1);
}

TH_TEST(srv_secure, server_user)
{
	struct errbuf err;
	struct srv_ident id;
	if (geteuid() != 0) {
		/* an ordinary user: the server runs as that user, nothing to drop */
		CU_ASSERT_EQUAL(srv_ident_get(&id, "no-such-user-dbt3stab", &err), 0);
		CU_ASSERT_FALSE(id.drop);
		CU_ASSERT_EQUAL(id.uid, geteuid());
		return;
	}
	/* root and no such system user: one clear line, never a fallback to root */
	CU_ASSERT_EQUAL(srv_ident_get(&id, "no-such-user-dbt3stab", &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "'no-such-user-dbt3stab', which does not exist"));
	CU_ASSERT_EQUAL(srv_ident_get(&id, "root", &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "never runs the server as root"));
	struct passwd *pw = getpwnam("nobody");
	CU_ASSERT_PTR_NOT_NULL_FATAL(pw);
	CU_ASSERT_EQUAL_FATAL(srv_ident_get(&id, "nobody", &err), 0);
	CU_ASSERT_TRUE(id.drop);
	CU_ASSERT_EQUAL(id.uid, pw->pw_uid);
	/* a directory on the way that the server's user cannot search is named */
	char *dir = th_tempdir("srvsec-reach");
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	char locked[4200], inst[4300];
	snprintf(locked, sizeof(locked), "%s/locked", dir);
	snprintf(inst, sizeof(inst), "%s/inst", locked);
	CU_ASSERT_EQUAL_FATAL(mkdir(locked, 0700), 0);
	CU_ASSERT_EQUAL(srv_ident_can_reach(&id, inst, &err), -1);
	char want[4400];
	snprintf(want, sizeof(want), "no search permission on '%s'", locked);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, want));
	CU_ASSERT_EQUAL(chmod(locked, 0711), 0);
	CU_ASSERT_EQUAL(srv_ident_can_reach(&id, inst, &err), 0);
	th_rmtree(dir);
	free(dir);
}

TH_TEST(srv_secure, datadir_paths_the_installer_takes)
{
	struct errbuf err;
	CU_ASSERT_EQUAL(srv_datadir_check("/var/lib/dbt3stab/server", &err), 0);
	CU_ASSERT_EQUAL(srv_datadir_check("/home/ann/x-1.2_3,4@host:5", &err), 0);
	CU_ASSERT_EQUAL(srv_datadir_check("/tmp/a b", &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "contains a space"));
	static const char *const bad[] = {"/tmp/a\tb", "/tmp/a\nb", "/tmp/a'b", "/tmp/a\"b",
					  "/tmp/a\\b", "/tmp/$HOME", "/tmp/`id`", NULL};
	for (int i = 0; bad[i]; i++)
		CU_ASSERT_EQUAL(srv_datadir_check(bad[i], &err), -1);
}

TH_MAIN(srv_secure)
