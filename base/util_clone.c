/* SPDX-License-Identifier: MIT */
/* Directory trees cloned by reflink or copy (base/util_clone.h). */
#include "base/util_clone.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define CLONE_MAX_DEPTH 32

/* Copies what remains of in to out: copy_file_range in the kernel, read/write where it cannot. */
static int copy_fd(int in, int out)
{
	for (;;) {
		ssize_t n = copy_file_range(in, NULL, out, NULL, 1 << 30, 0);
		if (n == 0)
			return 0;
		if (n > 0)
			continue;
		if (errno == EINTR)
			continue;
		if (errno != EXDEV && errno != ENOSYS && errno != EINVAL && errno != EOPNOTSUPP)
			return -1;
		break;
	}
	char buf[1 << 16];
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return (int)n;
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(out, buf + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return -1;
			off += w;
		}
	}
}

/* Regular file name in directory sfd to a new file in dfd, with its mode and (root) owner. */
static int clone_file_at(int sfd, int dfd, const char *name, const struct stat *st,
			 struct util_clone_stats *s, const char *shown, struct errbuf *err)
{
	int in = openat(sfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (in < 0)
		return errbuf_errno(err, errno, "cannot open '%s'", shown);
	int out = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			 st->st_mode & 0600);
	if (out < 0) {
		int saved = errno;
		close(in);
		return errbuf_errno(err, saved, "cannot create the clone of '%s'", shown);
	}
	int rc = 0;
	if (ioctl(out, FICLONE, in) == 0) {
		s->files_reflinked++;
	} else if (copy_fd(in, out) == 0) {
		s->files_copied++;
	} else {
		rc = errbuf_errno(err, errno, "cannot copy '%s'", shown);
	}
	if (rc == 0 && geteuid() == 0 && fchown(out, st->st_uid, st->st_gid) < 0)
		rc = errbuf_errno(err, errno, "cannot give the clone of '%s' its owner", shown);
	if (rc == 0 && fchmod(out, st->st_mode & 07777) < 0)
		rc = errbuf_errno(err, errno, "cannot set the mode of the clone of '%s'", shown);
	s->bytes += (uint64_t)st->st_size;
	int e = errno; /* why it failed, for the caller (ENOSPC) */
	close(in);
	if (close(out) < 0 && rc == 0)
		rc = errbuf_errno(err, e = errno, "cannot write the clone of '%s'", shown);
	errno = e;
	return rc;
}

static int clone_dir_at(int sfd, int dfd, const char *shown, int depth, struct util_clone_stats *s,
			struct errbuf *err);

/* One entry of a directory being cloned. */
static int clone_entry(int sfd, int dfd, const char *name, const char *shown_dir, int depth,
		       struct util_clone_stats *s, struct errbuf *err)
{
	char shown[4096];
	struct stat st;
	snprintf(shown, sizeof(shown), "%s/%s", shown_dir, name);
	if (fstatat(sfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errbuf_errno(err, errno, "cannot stat '%s'", shown);
	if (S_ISREG(st.st_mode))
		return clone_file_at(sfd, dfd, name, &st, s, shown, err);
	if (!S_ISDIR(st.st_mode))
		return errbuf_set(err, "cannot clone '%s': not a regular file or directory", shown);
	if (depth >= CLONE_MAX_DEPTH)
		return errbuf_set(err, "cannot clone '%s': nested too deep", shown);
	if (mkdirat(dfd, name, 0700) < 0)
		return errbuf_errno(err, errno, "cannot create the clone of '%s'", shown);
	int csfd = openat(sfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int cdfd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int rc = csfd < 0 || cdfd < 0 ? errbuf_errno(err, errno, "cannot open '%s'", shown)
				      : clone_dir_at(csfd, cdfd, shown, depth + 1, s, err);
	if (rc == 0 && geteuid() == 0 && fchown(cdfd, st.st_uid, st.st_gid) < 0)
		rc = errbuf_errno(err, errno, "cannot give the clone of '%s' its owner", shown);
	if (rc == 0 && fchmod(cdfd, st.st_mode & 07777) < 0)
		rc = errbuf_errno(err, errno, "cannot set the mode of the clone of '%s'", shown);
	if (csfd >= 0)
		close(csfd);
	if (cdfd >= 0)
		close(cdfd);
	return rc;
}

/* The entries of directory sfd into directory dfd (both stay open: the caller closes them). */
static int clone_dir_at(int sfd, int dfd, const char *shown, int depth, struct util_clone_stats *s,
			struct errbuf *err)
{
	int fd = dup(sfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return errbuf_errno(err, errno, "cannot list '%s'", shown);
	}
	struct dirent *e;
	int rc = 0;
	while (rc == 0 && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			rc = clone_entry(sfd, dfd, e->d_name, shown, depth, s, err);
	closedir(d);
	return rc;
}

/* The parent directory of path and the last component, opened and pointed at. */
static int open_parent(const char *path, char *buf, size_t len, const char **name)
{
	if (snprintf(buf, len, "%s", path) >= (int)len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	char *slash = strrchr(buf, '/');
	*name = slash ? slash + 1 : buf;
	if (!slash)
		return open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (slash == buf)
		return open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	*slash = '\0';
	return open(buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

int util_tree_clone_at(int sfd, int dpfd, const char *name, const char *shown,
		       struct util_clone_stats *out, struct errbuf *err)
{
	struct util_clone_stats s = {0};
	struct stat st;
	if (fstat(sfd, &st) < 0)
		return errbuf_errno(err, errno, "cannot stat '%s'", shown);
	if (mkdirat(dpfd, name, 0700) < 0)
		return errbuf_errno(err, errno, "cannot create the clone of '%s'", shown);
	int dfd = openat(dpfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int rc = dfd < 0 ? errbuf_errno(err, errno, "cannot open the clone of '%s'", shown)
			 : clone_dir_at(sfd, dfd, shown, 0, &s, err);
	int e = errno;
	if (rc == 0 && geteuid() == 0 && fchown(dfd, st.st_uid, st.st_gid) < 0)
		rc = errbuf_errno(err, e = errno, "cannot give the clone of '%s' its owner", shown);
	if (rc == 0 && fchmod(dfd, st.st_mode & 07777) < 0)
		rc =
		    errbuf_errno(err, e = errno, "cannot set the mode of the clone of '%s'", shown);
	if (rc == 0 && fsync(dfd) < 0)
		rc = errbuf_errno(err, e = errno, "cannot sync the clone of '%s'", shown);
	if (dfd >= 0)
		close(dfd);
	if (out)
		*out = s;
	errno = e;
	return rc;
}

int util_tree_clone(const char *src, const char *dst, struct util_clone_stats *out,
		    struct errbuf *err)
{
	char buf[4096];
	const char *name;
	int sfd = open(src, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sfd < 0)
		return errbuf_errno(err, errno, "cannot open '%s'", src);
	int dpfd = open_parent(dst, buf, sizeof(buf), &name);
	int rc = dpfd < 0 ? errbuf_errno(err, errno, "cannot open the directory of '%s'", dst)
			  : util_tree_clone_at(sfd, dpfd, name, src, out, err);
	int e = errno;
	close(sfd);
	if (dpfd >= 0)
		close(dpfd);
	errno = e;
	return rc;
}

int util_file_clone(const char *src, const char *dst, int *out_reflinked, struct errbuf *err)
{
	char sbuf[4096], dbuf[4096];
	const char *sname, *dname;
	struct stat st;
	struct util_clone_stats s = {0};
	int sfd = open_parent(src, sbuf, sizeof(sbuf), &sname);
	int dfd = open_parent(dst, dbuf, sizeof(dbuf), &dname);
	int rc;
	if (sfd < 0 || dfd < 0)
		rc = errbuf_errno(err, errno, "cannot open the directory of '%s'",
				  sfd < 0 ? src : dst);
	else if (fstatat(sfd, sname, &st, AT_SYMLINK_NOFOLLOW) < 0)
		rc = errbuf_errno(err, errno, "cannot stat '%s'", src);
	else if (!S_ISREG(st.st_mode))
		rc = errbuf_set(err, "cannot clone '%s': not a regular file", src);
	else if (strcmp(sname, dname) == 0)
		rc = clone_file_at(sfd, dfd, sname, &st, &s, src, err);
	else
		rc = errbuf_set(err, "cannot clone '%s' to '%s': another file name", src, dst);
	if (sfd >= 0)
		close(sfd);
	if (dfd >= 0)
		close(dfd);
	if (out_reflinked)
		*out_reflinked = s.files_reflinked > 0;
	return rc;
}

static int bytes_at(int fd, const char *shown, int depth, uint64_t *sum, struct errbuf *err)
{
	int dupfd = dup(fd);
	DIR *d = dupfd >= 0 ? fdopendir(dupfd) : NULL;
	if (!d) {
		if (dupfd >= 0)
			close(dupfd);
		return errbuf_errno(err, errno, "cannot list '%s'", shown);
	}
	struct dirent *e;
	int rc = 0;
	while (rc == 0 && (e = readdir(d))) {
		struct stat st;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue; /* gone meanwhile */
		if (S_ISREG(st.st_mode))
			*sum += (uint64_t)st.st_size;
		if (!S_ISDIR(st.st_mode) || depth >= CLONE_MAX_DEPTH)
			continue;
		int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			continue;
		rc = bytes_at(sub, shown, depth + 1, sum, err);
		close(sub);
	}
	closedir(d);
	return rc;
}

int util_tree_bytes(const char *path, uint64_t *out, struct errbuf *err)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	*out = 0;
	if (fd < 0)
		return errbuf_errno(err, errno, "cannot open '%s'", path);
	int rc = bytes_at(fd, path, 0, out, err);
	close(fd);
	return rc;
}

int util_reflink_works(const char *dir)
{
	char a[4096], b[4096];
	if (snprintf(a, sizeof(a), "%s/.reflink-probe-%d", dir, (int)getpid()) >= (int)sizeof(a) ||
	    snprintf(b, sizeof(b), "%s.b", a) >= (int)sizeof(b))
		return 0;
	int fa = open(a, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fa < 0)
		return 0;
	int fb = open(b, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	char block[4096];
	memset(block, 'r', sizeof(block));
	int ok = fb >= 0 && write(fa, block, sizeof(block)) == (ssize_t)sizeof(block) &&
		 fsync(fa) == 0 && ioctl(fb, FICLONE, fa) == 0;
	close(fa);
	unlink(a);
	if (fb >= 0) {
		close(fb);
		unlink(b);
	}
	return ok;
}

int util_free_bytes(const char *path, uint64_t *out, struct errbuf *err)
{
	struct statvfs v;
	if (statvfs(path, &v) < 0)
		return errbuf_errno(err, errno, "cannot read the free space of '%s'", path);
	*out = (uint64_t)v.f_bavail * (uint64_t)v.f_frsize;
	return 0;
}

static int remove_at(int pfd, const char *name, const char *shown, int depth, struct errbuf *err)
{
	struct stat st;
	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : errbuf_errno(err, errno, "cannot stat '%s'", shown);
	if (!S_ISDIR(st.st_mode))
		return unlinkat(pfd, name, 0) < 0 && errno != ENOENT
			   ? errbuf_errno(err, errno, "cannot remove '%s'", shown)
			   : 0;
	if (depth >= CLONE_MAX_DEPTH)
		return errbuf_set(err, "cannot remove '%s': nested too deep", shown);
	int fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int dupfd = fd >= 0 ? dup(fd) : -1;
	DIR *d = dupfd >= 0 ? fdopendir(dupfd) : NULL;
	int rc = 0;
	if (!d)
		rc = errbuf_errno(err, errno, "cannot list '%s'", shown);
	struct dirent *e;
	while (rc == 0 && d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			rc = remove_at(fd, e->d_name, shown, depth + 1, err);
	if (d)
		closedir(d);
	else if (dupfd >= 0)
		close(dupfd);
	if (fd >= 0)
		close(fd);
	if (rc == 0 && unlinkat(pfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		rc = errbuf_errno(err, errno, "cannot remove '%s'", shown);
	return rc;
}

int util_tree_remove_at(int pfd, const char *name, const char *shown, struct errbuf *err)
{
	return remove_at(pfd, name, shown, 0, err);
}

int util_tree_remove(const char *path, struct errbuf *err)
{
	char buf[4096];
	const char *name;
	int pfd = open_parent(path, buf, sizeof(buf), &name);
	if (pfd < 0)
		return errno == ENOENT ? 0 : errbuf_errno(err, errno, "cannot open '%s'", path);
	int rc = remove_at(pfd, name, path, 0, err);
	close(pfd);
	return rc;
}
