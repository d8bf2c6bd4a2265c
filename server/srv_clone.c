/* SPDX-License-Identifier: MIT */
/* Clones of a stopped instance (server/srv_clone.h). */
#include "server/srv_clone.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint64_t srv_clone_need(uint64_t data_bytes, int n, int reflink)
{
	uint64_t each = SRV_CLONE_MARGIN + (reflink ? 0 : data_bytes);
	return each * (uint64_t)(n > 0 ? n : 0);
}

int srv_clone_path(char *out, size_t len, const char *instdir, int k)
{
	int n = snprintf(out, len, "%s/sbs/%d", instdir, k);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int is_clone(const char *dst)
{
	char marker[4200];
	struct stat st;
	snprintf(marker, sizeof(marker), "%s/" SRV_CLONE_MARKER, dst);
	return lstat(marker, &st) == 0 && S_ISREG(st.st_mode);
}

int srv_clone_remove(const char *dst, struct errbuf *err)
{
	struct stat st;
	if (lstat(dst, &st) < 0 && errno == ENOENT)
		return 0;
	if (!is_clone(dst))
		return errbuf_set(err,
				  "'%s' is not a clone dbt3stab made (no '%s' in it): not removed",
				  dst, SRV_CLONE_MARKER);
	return util_tree_remove(dst, err);
}

int srv_instance_clone(const char *src, const char *dst, struct util_clone_stats *out,
		       struct errbuf *err)
{
	char from[4200], to[4200], parent[4200];
	struct util_clone_stats s = {0};
	if (srv_clone_remove(dst, err) < 0)
		return -1;
	snprintf(parent, sizeof(parent), "%s", dst);
	char *slash = strrchr(parent, '/');
	if (slash && slash != parent) {
		*slash = '\0';
		/* traversable by the server's user, listed by nobody else (docs/server.md) */
		if ((mkdir(parent, 0711) < 0 && errno != EEXIST) || chmod(parent, 0711) < 0)
			return errbuf_errno(err, errno, "cannot create '%s'", parent);
	}
	struct stat st;
	if (stat(src, &st) < 0)
		return errbuf_errno(err, errno, "cannot stat '%s'", src);
	if (mkdir(dst, 0700) < 0)
		return errbuf_errno(err, errno, "cannot create '%s'", dst);
	/* the instance's owner (the server's user: it holds the socket there), as src */
	if (geteuid() == 0 && chown(dst, st.st_uid, st.st_gid) < 0)
		return errbuf_errno(err, errno, "cannot give '%s' its owner", dst);
	snprintf(to, sizeof(to), "%s/" SRV_CLONE_MARKER, dst);
	if (util_write_atomic(to, src, strlen(src), err) < 0)
		return -1;
	snprintf(from, sizeof(from), "%s/data", src);
	snprintf(to, sizeof(to), "%s/data", dst);
	if (util_tree_clone(from, to, &s, err) < 0)
		return -1;
	snprintf(from, sizeof(from), "%s/client.cnf", src);
	snprintf(to, sizeof(to), "%s/client.cnf", dst);
	int reflinked = 0;
	if (access(from, F_OK) == 0 && util_file_clone(from, to, &reflinked, err) < 0)
		return -1;
	if (out)
		*out = s;
	return 0;
}
