/* SPDX-License-Identifier: MIT */
/* Unit tests of the tree clone (base/util_clone.h) and the instance clones of side by side
 * (server/srv_clone.h), on small trees made in a temporary directory. */
#include "base/util_clone.h"
#include "harness.h"
#include "server/srv_clone.h"
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

TH_TEST(srv_clone, instance_clone_is_equal)
{
	char *root = th_tempdir("clone"), src[1024], dst[1100];
	struct errbuf err = {{0}};
	struct util_clone_stats st;
	snprintf(src, sizeof(src), "%s/inst", root);
	CU_ASSERT_EQUAL_FATAL(mkdir(src, 0700), 0);
	make_instance(src);
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
	char *root = th_tempdir("clone"), src[1024], dst[1100], path[1200];
	struct errbuf err = {{0}};
	snprintf(src, sizeof(src), "%s/inst", root);
	snprintf(dst, sizeof(dst), "%s/other", root);
	CU_ASSERT_EQUAL_FATAL(mkdir(src, 0700), 0);
	CU_ASSERT_EQUAL_FATAL(mkdir(dst, 0700), 0);
	make_instance(src);
	put(dst, "keep", "mine", 0600);
	CU_ASSERT_EQUAL(srv_instance_clone(src, dst, NULL, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not a clone"));
	CU_ASSERT_EQUAL(srv_clone_remove(dst, &err), -1);
	char *kept = get(dst, "keep");
	CU_ASSERT(kept && strcmp(kept, "mine") == 0);
	free(kept);
	snprintf(path, sizeof(path), "%s/data/link", src);
	CU_ASSERT_EQUAL(symlink("/etc/passwd", path), 0);
	snprintf(dst, sizeof(dst), "%s/sbs/0", src);
	CU_ASSERT_EQUAL(srv_instance_clone(src, dst, NULL, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not a regular file or directory"));
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
