/* SPDX-License-Identifier: MIT */
/* Unit tests of the tree clone (base/util_clone.h) and the instance clones of side by side
 * (server/srv_clone.h), on small trees made in a temporary directory. */
#include "base/util_clone.h"
#include "harness.h"
#include "server/srv_clone.h"
#include "server/srv_secure.h"
#include "tests/th_spawn.h"
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* dir/name into path; -1 when it does not fit. */
static int join(char *path, size_t len, const char *dir, const char *name)
{
	int n = snprintf(path, len, "%s/%s", dir, name);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static void put(const char *dir, const char *name, const char *text, mode_t mode)
{
	char path[4200];
	if (join(path, sizeof(path), dir, name) < 0)
		return;
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	CU_ASSERT_EQUAL(chmod(path, mode), 0);
}

static char *get(const char *dir, const char *name)
{
	char path[4200], *text = NULL;
	size_t len;
	struct errbuf err;
	if (join(path, sizeof(path), dir, name) < 0)
		return NULL;
	return util_read_file(path, &text, &len, &err) == 0 ? text : NULL;
}

static mode_t mode_of(const char *dir, const char *name)
{
	char path[4200];
	struct stat st;
	if (join(path, sizeof(path), dir, name) < 0)
		return 0;
	return lstat(path, &st) == 0 ? st.st_mode & 07777 : 0;
}

/* A small instance: data/ with a schema directory and files of several sizes, client.cnf. */
static void make_instance(const char *inst)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/data", inst);
	CU_ASSERT_EQUAL_FATAL(mkdir(path, 0750), 0);
	snprintf(path, sizeof(path), "%s/data/dbt3", inst);
	CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700), 0);
	put(inst, "data/ibdata1", "system tablespace", 0660);
	put(inst, "data/dbt3/lineitem.ibd", "rows rows rows", 0640);
	char big[70000];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	put(inst, "data/dbt3/orders.ibd", big, 0640);
	put(inst, "client.cnf", "[client]\npassword=secret\n", 0600);
}

/* As root, the instance as the tool leaves it: DIR and DIR/data the server's user's, client.cnf
 * root's (mode 0600). Returns the server user's uid, or the caller's when not root. */
static uid_t give_to_server(const char *inst)
{
	struct passwd *pw = geteuid() == 0 ? getpwnam(SRV_SERVER_USER) : NULL;
	char out[512];
	if (!pw)
		return geteuid();
	CU_ASSERT_EQUAL(th_sh(out, sizeof(out), "chown -R '%s:' '%s' && chown 0:0 '%s/client.cnf'",
			      SRV_SERVER_USER, inst, inst),
			0);
	return pw->pw_uid;
}

/* Nonzero when every file and directory under dir has owner uid. */
static int all_owned_by(const char *dir, uid_t uid)
{
	char out[512];
	th_sh(out, sizeof(out), "find '%s' ! -uid %d | head -1", dir, (int)uid);
	return out[0] == '\0';
}

TH_TEST(srv_clone, instance_clone_is_equal)
{
	char *root = th_tempdir("clone"), src[1024], dst[1100];
	struct errbuf err = {{0}};
	struct util_clone_stats st;
	snprintf(src, sizeof(src), "%s/inst", root);
	CU_ASSERT_EQUAL_FATAL(mkdir(src, 0700), 0);
	make_instance(src);
	uid_t server = give_to_server(src);
	CU_ASSERT_EQUAL(srv_clone_path(dst, sizeof(dst), src, 1), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(dst, "/inst/sbs/1"));
	int rc = srv_instance_clone(src, dst, &st, &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(st.files_reflinked + st.files_copied, 3);
	CU_ASSERT_EQUAL(st.bytes, 17 + 14 + 69999);
	static const char *const files[] = {"data/ibdata1", "data/dbt3/lineitem.ibd",
					    "data/dbt3/orders.ibd", "client.cnf", NULL};
	for (int i = 0; files[i]; i++) {
		char *a = get(src, files[i]), *b = get(dst, files[i]);
		CU_ASSERT_PTR_NOT_NULL(b);
		CU_ASSERT(a && b && strcmp(a, b) == 0);
		CU_ASSERT_EQUAL(mode_of(src, files[i]), mode_of(dst, files[i]));
		free(a);
		free(b);
	}
	CU_ASSERT_EQUAL(mode_of(dst, "data"), 0750);
	CU_ASSERT_EQUAL(mode_of(src, "sbs"), 0711);
	/* made by the server's user: its files are its own, only client.cnf is the caller's */
	char data_dst[1200];
	CU_ASSERT_EQUAL_FATAL(join(data_dst, sizeof(data_dst), dst, "data"), 0);
	CU_ASSERT(all_owned_by(data_dst, server));
	struct stat cst;
	CU_ASSERT_EQUAL(join(data_dst, sizeof(data_dst), dst, "client.cnf"), 0);
	CU_ASSERT(lstat(data_dst, &cst) == 0 && cst.st_uid == geteuid());
	CU_ASSERT_EQUAL(mode_of(dst, "data/dbt3"), 0700);
	uint64_t bytes = 0;
	char data[1200];
	CU_ASSERT_EQUAL_FATAL(join(data, sizeof(data), dst, "data"), 0);
	CU_ASSERT_EQUAL(util_tree_bytes(data, &bytes, &err), 0);
	CU_ASSERT_EQUAL(bytes, 17 + 14 + 69999);
	/* again: the clone an earlier run left is replaced */
	put(dst, "data/stale", "old", 0600);
	CU_ASSERT_EQUAL(srv_instance_clone(src, dst, &st, &err), 0);
	CU_ASSERT_EQUAL(mode_of(dst, "data/stale"), 0);
	CU_ASSERT_EQUAL(srv_clone_remove(dst, &err), 0);
	CU_ASSERT_EQUAL(access(dst, F_OK), -1);
	CU_ASSERT_EQUAL(access(src, F_OK), 0);
	th_rmtree(root);
	free(root);
}

/* A directory without the marker is never removed nor replaced; links are not followed. */
TH_TEST(srv_clone, refuses_what_it_did_not_make)
{
	char *root = th_tempdir("clone"), src[1024], dst[1100], path[1200], out[512];
	struct errbuf err = {{0}};
	snprintf(src, sizeof(src), "%s/inst", root);
	CU_ASSERT_EQUAL_FATAL(mkdir(src, 0700), 0);
	make_instance(src);
	snprintf(path, sizeof(path), "%s/sbs", src);
	CU_ASSERT_EQUAL_FATAL(mkdir(path, 0711), 0);
	snprintf(dst, sizeof(dst), "%s/sbs/0", src);
	CU_ASSERT_EQUAL_FATAL(mkdir(dst, 0700), 0);
	put(dst, "keep", "mine", 0600);
	give_to_server(src);
	CU_ASSERT_EQUAL(srv_instance_clone(src, dst, NULL, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not a clone"));
	CU_ASSERT_EQUAL(srv_clone_remove(dst, &err), -1);
	char *kept = get(dst, "keep");
	CU_ASSERT(kept && strcmp(kept, "mine") == 0);
	free(kept);
	th_sh(out, sizeof(out), "rm -r '%s'", dst);
	snprintf(path, sizeof(path), "%s/data/link", src);
	CU_ASSERT_EQUAL(symlink("/etc/passwd", path), 0);
	CU_ASSERT_EQUAL(srv_instance_clone(src, dst, NULL, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not a regular file or directory"));
	CU_ASSERT_EQUAL(access(dst, F_OK), -1); /* the partial clone is removed */
	th_rmtree(root);
	free(root);
}

/* The clone is made by the server's user, never by root: a file in the datadir that only root
 * can read fails it (as root, it would be copied), and nothing of it stays. */
TH_TEST(srv_clone, as_root_the_clone_is_made_as_the_server_user)
{
	if (geteuid() != 0 || !getpwnam(SRV_SERVER_USER)) {
		th_skip("needs root and the 'mysql' user: the switch to the server's user");
		return;
	}
	char *root = th_tempdir("clone"), src[1024], dst[1100];
	struct errbuf err = {{0}};
	snprintf(src, sizeof(src), "%s/inst", root);
	CU_ASSERT_EQUAL_FATAL(mkdir(src, 0700), 0);
	make_instance(src);
	give_to_server(src);
	put(src, "data/roots-only", "secret", 0600); /* made by root after the chown */
	CU_ASSERT_EQUAL(srv_clone_path(dst, sizeof(dst), src, 0), 0);
	CU_ASSERT_EQUAL(srv_instance_clone(src, dst, NULL, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "roots-only"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "Permission denied"));
	CU_ASSERT_EQUAL(access(dst, F_OK), -1);
	th_rmtree(root);
	free(root);
}

/* Disk full during the clone: SRV_CLONE_E_NOSPACE, a message in human units, nothing of the clone
 * left. The instance lives on a small tmpfs (mounted here, unmounted after). */
TH_TEST(srv_clone, disk_full_removes_the_partial_clone)
{
	if (geteuid() != 0) {
		th_skip("needs root: mount of a small tmpfs");
		return;
	}
	char *root = th_tempdir("clone"), src[1024], dst[1100], out[512];
	struct errbuf err = {{0}};
	if (th_sh(out, sizeof(out), "mount -t tmpfs -o size=256k,mode=0711 tmpfs '%s'", root) !=
	    0) {
		th_skip("cannot mount a tmpfs here");
		th_rmtree(root);
		free(root);
		return;
	}
	snprintf(src, sizeof(src), "%s/inst", root);
	CU_ASSERT_EQUAL_FATAL(mkdir(src, 0700), 0);
	make_instance(src); /* 70 KB of data */
	char big[100000];
	memset(big, 'y', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	put(src, "data/dbt3/customer.ibd", big, 0640);
	give_to_server(src);
	CU_ASSERT_EQUAL(srv_clone_path(dst, sizeof(dst), src, 0), 0);
	CU_ASSERT_EQUAL(srv_instance_clone(src, dst, NULL, &err), SRV_CLONE_E_NOSPACE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "its filesystem is full"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "KiB free, the clone needs 256 MiB"));
	CU_ASSERT_PTR_NULL(strstr(err.msg, "e-0"));
	CU_ASSERT_EQUAL(access(dst, F_OK), -1);
	CU_ASSERT_EQUAL(access(src, F_OK), 0);
	th_sh(out, sizeof(out), "umount '%s'", root);
	th_rmtree(root);
	free(root);
}

/* The space rule: reflinks need the margin only, copies the data besides. */
TH_TEST(srv_clone, space_needed)
{
	CU_ASSERT_EQUAL(srv_clone_need(UINT64_C(1) << 30, 2, 1), 2 * SRV_CLONE_MARGIN);
	CU_ASSERT_EQUAL(srv_clone_need(UINT64_C(1) << 30, 2, 0),
			2 * ((UINT64_C(1) << 30) + SRV_CLONE_MARGIN));
	char *root = th_tempdir("clone");
	uint64_t free_bytes = 0;
	struct errbuf err;
	CU_ASSERT_EQUAL(util_free_bytes(root, &free_bytes, &err), 0);
	CU_ASSERT(free_bytes > 0);
	int r = util_reflink_works(root); /* either answer, and nothing left behind */
	CU_ASSERT(r == 0 || r == 1);
	uint64_t bytes = 1;
	CU_ASSERT_EQUAL(util_tree_bytes(root, &bytes, &err), 0);
	CU_ASSERT_EQUAL(bytes, 0);
	th_rmtree(root);
	free(root);
}

TH_MAIN(srv_clone)
