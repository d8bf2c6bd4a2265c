/* SPDX-License-Identifier: MIT */
/* Safe output: refuse what is not a regular file, write a private temp file, rename it. */
#include "base/safe_write.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_name(mode_t m)
{
	return S_ISCHR(m)    ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISSOCK(m) ? "a socket"
	       : S_ISDIR(m)  ? "a directory"
			     : "not a regular file";
}

static int kind_refuse(const char *shown, mode_t m, struct errbuf *err)
{
	return errbuf_set(err, "cannot write '%s': it is %s (only a regular file is written)",
			  shown, kind_name(m));
}

int util_out_kind_check(const char *path, struct errbuf *err)
{
	struct stat st;
	if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
		return 0; /* absent: made new; unreadable: util_out_open says why */
	return kind_refuse(path, st.st_mode, err);
}

int util_out_kind_checkat(int dirfd, const char *name, const char *shown, struct errbuf *err)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, 0) != 0 || S_ISREG(st.st_mode))
		return 0;
	return kind_refuse(shown, st.st_mode, err);
}

int util_openat_regular(int dirfd, const char *path, int flags, mode_t mode)
{
	struct stat st;
	int fd = openat(dirfd, path,
			(flags & ~O_TRUNC) | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC | O_NONBLOCK, mode);
	if (fd < 0)
		return -1;
	/* written in place: a second hard link could be someone else's file */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    ((flags & O_ACCMODE) != O_RDONLY && st.st_nlink != 1)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	if (((flags & O_TRUNC) && ftruncate(fd, 0) < 0) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* 16 hex digits of getrandom(2): a temp name nobody can plant a link at in advance. */
static int random_suffix(char out[17])
{
	unsigned char b[8];
	size_t got = 0;
	while (got < sizeof(b)) {
		ssize_t n = getrandom(b + got, sizeof(b) - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		got += (size_t)n;
	}
	util_hex(out, b, sizeof(b));
	return 0;
}

static void out_reset(struct util_out *o)
{
	o->fd = -1;
	o->dirfd = -1;
	o->name[0] = o->tmp[0] = o->path[0] = '\0';
}

/* Creates the temp file in o->dirfd: a few tries, as a random name may (never in practice)
 * exist. */
static int make_temp(struct util_out *o, mode_t mode, struct errbuf *err)
{
	char suffix[17];
	for (int tries = 0; tries < 8; tries++) {
		if (random_suffix(suffix) < 0)
			return errbuf_errno(err, errno, "cannot create '%s': no random name",
					    o->path);
		/* NAME_MAX is 255: a long name is cut so that ".<16>.tmp" fits */
		snprintf(o->tmp, sizeof(o->tmp), "%.*s.%s.tmp", 200, o->name, suffix);
		o->fd =
		    openat(o->dirfd, o->tmp,
			   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);
		if (o->fd >= 0)
			break;
		if (errno != EEXIST)
			return errbuf_errno(err, errno, "cannot create '%s'", o->path);
	}
	if (o->fd < 0)
		return errbuf_set(err, "cannot create '%s': no free temporary name", o->path);
	if (fchmod(o->fd, mode) < 0) { /* our own new file: exactly mode, whatever the umask */
		int e = errno;
		util_out_abort(o);
		return errbuf_errno(err, e, "cannot create '%s'", o->path);
	}
	return 0;
}

int util_out_openat(struct util_out *out, int dirfd, const char *name, const char *shown,
		    mode_t mode, struct errbuf *err)
{
	out_reset(out);
	snprintf(out->path, sizeof(out->path), "%s", shown);
	if (!*name || strchr(name, '/') || strlen(name) >= sizeof(out->name))
		return errbuf_set(err, "cannot create '%s': bad file name", shown);
	snprintf(out->name, sizeof(out->name), "%s", name);
	if (util_out_kind_checkat(dirfd, name, shown, err) < 0)
		return -1;
	out->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	if (out->dirfd < 0)
		return errbuf_errno(err, errno, "cannot create '%s'", shown);
	if (make_temp(out, mode, err) < 0) {
		close(out->dirfd);
		out->dirfd = -1;
		return -1;
	}
	return 0;
}

int util_out_open(struct util_out *out, const char *path, mode_t mode, struct errbuf *err)
{
	char dir[4096];
	out_reset(out);
	if (util_out_kind_check(path, err) < 0)
		return -1;
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	size_t dl = slash ? (size_t)(slash - path) : 1;
	if (dl >= sizeof(dir))
		return errbuf_set(err, "cannot create '%s': path too long", path);
	if (!slash)
		memcpy(dir, ".", 2);
	else if (dl == 0)
		memcpy(dir, "/", 2);
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)dl, path);
	if (!*name)
		return errbuf_set(err, "cannot create '%s': Is a directory", path);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return errbuf_errno(err, errno, "cannot create '%s'", path);
	int rc = util_out_openat(out, dfd, name, path, mode, err);
	close(dfd);
	return rc;
}

void util_out_abort(struct util_out *o)
{
	if (o->fd >= 0)
		close(o->fd);
	if (o->dirfd >= 0 && o->tmp[0])
		unlinkat(o->dirfd, o->tmp, 0);
	if (o->dirfd >= 0)
		close(o->dirfd);
	o->fd = o->dirfd = -1;
	o->tmp[0] = '\0';
}

int util_out_commit(struct util_out *o, struct errbuf *err)
{
	struct stat st;
	if (o->fd < 0 || o->dirfd < 0)
		return errbuf_set(err, "cannot write '%s': not open", o->path);
	int rc = fsync(o->fd);
	int e = errno;
	if (close(o->fd) < 0 && rc == 0) {
		rc = -1;
		e = errno;
	}
	o->fd = -1;
	if (rc < 0) {
		util_out_abort(o);
		return errbuf_errno(err, e, "cannot write '%s'", o->path);
	}
	/* again just before the rename: what appeared at the name meanwhile is not replaced */
	if (fstatat(o->dirfd, o->name, &st, 0) == 0 && !S_ISREG(st.st_mode)) {
		util_out_abort(o);
		return kind_refuse(o->path, st.st_mode, err);
	}
	if (renameat(o->dirfd, o->tmp, o->dirfd, o->name) < 0) {
		e = errno;
		util_out_abort(o);
		return errbuf_errno(err, e, "cannot write '%s'", o->path);
	}
	o->tmp[0] = '\0';
	fsync(o->dirfd);
	util_out_abort(o); /* closes the directory */
	return 0;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Writes len bytes to the opened o (or fails with err) and commits it. */
static int write_commit(struct util_out *o, const void *data, size_t len, struct errbuf *err)
{
	if (write_all(o->fd, data, len) < 0) {
		int e = errno;
		util_out_abort(o);
		return errbuf_errno(err, e, "cannot write '%s'", o->path);
	}
	return util_out_commit(o, err);
}

int util_write_file(const char *path, const void *data, size_t len, mode_t mode, struct errbuf *err)
{
	struct util_out o;
	if (util_out_open(&o, path, mode, err) < 0)
		return -1;
	return write_commit(&o, data, len, err);
}

int util_write_fileat(int dirfd, const char *name, const char *shown, const void *data, size_t len,
		      mode_t mode, struct errbuf *err)
{
	struct util_out o;
	if (util_out_openat(&o, dirfd, name, shown, mode, err) < 0)
		return -1;
	return write_commit(&o, data, len, err);
}

int util_write_atomic(const char *path, const void *data, size_t len, struct errbuf *err)
{
	return util_write_file(path, data, len, 0644, err);
}

int util_out_check(const char *path, const char *const *inputs, size_t n, util_out_guard_fn guard,
		   void *ctx, struct errbuf *err)
{
	struct stat out, in;
	struct util_out o;
	if (!*path)
		return errbuf_set(err, "an empty output path (-o)");
	if (util_out_kind_check(path, err) < 0)
		return -1;
	if (stat(path, &out) == 0) {
		for (size_t i = 0; i < n; i++)
			if (inputs[i] && stat(inputs[i], &in) == 0 && in.st_dev == out.st_dev &&
			    in.st_ino == out.st_ino)
				return errbuf_set(err,
						  "cannot write '%s': it is the input '%s' (give "
						  "another -o)",
						  path, inputs[i]);
		if (guard && guard(path, ctx, err) < 0)
			return -1;
	}
	if (util_out_open(&o, path, 0600, err) < 0)
		return -1;
	util_out_abort(&o);
	return 0;
}

/* ---- output directories ---- */

static int trusted_uid(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/* Nobody but root and the caller can add, remove or rename an entry of the directory st. */
static int dir_private(const struct stat *st)
{
	return trusted_uid(st->st_uid) && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

int util_dir_stable_check(const struct stat *st, const char *shown, struct errbuf *err)
{
	if (!trusted_uid(st->st_uid))
		return errbuf_set(
		    err,
		    "cannot use '%s': it belongs to uid %u, who can rename what is in "
		    "it (give a directory of your own)",
		    shown, (unsigned)st->st_uid);
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX))
		return errbuf_set(err,
				  "cannot use '%s': other users can write it and rename what is in "
				  "it (give a directory of your own, or set its sticky bit)",
				  shown);
	return 0;
}

/* One component of full: name in dirfd (whose status is parent, shown as shown, the path up to
 * and with name), opened without following a link, made when missing. The descriptor or -1. */
static int outdir_step(int dirfd, const struct stat *parent, const char *name, const char *shown,
		       const char *full, int *made, struct errbuf *err)
{
	struct stat st;
	const int fl = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
	*made = 0;
	int fd = openat(dirfd, name, fl | O_NOFOLLOW);
	if (fd < 0 && errno == ENOENT) {
		if (mkdirat(dirfd, name, 0755) == 0)
			*made = 1;
		else if (errno != EEXIST)
			return errbuf_errno(err, errno, "cannot create directory '%s'", shown);
		fd = openat(dirfd, name, fl | O_NOFOLLOW);
	}
	if (fd >= 0)
		return fd;
	int e = errno;
	if ((e != ELOOP && e != ENOTDIR) || fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errbuf_errno(err, e, "cannot open directory '%s'", shown);
	if (!S_ISLNK(st.st_mode)) /* the full path, as mkdir -p says it */
		return errbuf_errno(err, ENOTDIR, "cannot create directory '%s'", full);
	if (!dir_private(parent))
		return errbuf_set(
		    err,
		    "cannot use '%s': it is a symbolic link in a directory other users "
		    "can write (not followed; give the path it points to)",
		    shown);
	fd = openat(dirfd, name, fl); /* a link the user (or root) set up */
	if (fd < 0)
		return errbuf_errno(err, errno, "cannot open directory '%s'", shown);
	return fd;
}

int util_outdir_open(const char *path, unsigned flags, int *made, struct errbuf *err)
{
	char shown[4096];
	struct stat parent, st;
	int last_made = 0;
	size_t n = strlen(path);
	if (made)
		*made = 0;
	if (n == 0)
		return errbuf_set(err, "an empty output directory (-o)");
	if (n >= sizeof(shown))
		return errbuf_set(err, "cannot create directory '%.64s...': path too long", path);
	int dfd = open(path[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return errbuf_errno(err, errno, "cannot open directory '%s'", path);
	for (size_t at = 0; at < n;) {
		size_t len = strcspn(path + at, "/");
		size_t end = at + len;
		if (len == 0 || (len == 1 && path[at] == '.')) {
			at = end + (end < n);
			continue;
		}
		snprintf(shown, sizeof(shown), "%.*s", (int)end, path);
		char name[256];
		if (len >= sizeof(name)) {
			close(dfd);
			return errbuf_set(err, "cannot create directory '%s': name too long",
					  shown);
		}
		memcpy(name, path + at, len);
		name[len] = '\0';
		int fd = -1;
		if (fstat(dfd, &parent) == 0)
			fd = outdir_step(dfd, &parent, name, shown, path, &last_made, err);
		else
			errbuf_errno(err, errno, "cannot open directory '%s'", shown);
		/* what the path is written by later: no other user may swap a component */
		if (fd >= 0 && (flags & UTIL_OUTDIR_STABLE)) {
			char up[4096];
			size_t ul = at;
			while (ul > 1 && path[ul - 1] == '/')
				ul--;
			snprintf(up, sizeof(up), "%.*s", (int)ul, at ? path : ".");
			if (util_dir_stable_check(&parent, up, err) < 0) {
				close(fd);
				fd = -1;
			}
		}
		close(dfd);
		if (fd < 0)
			return -1;
		dfd = fd;
		at = end + (end < n);
	}
	if (fstat(dfd, &st) < 0) {
		close(dfd);
		return errbuf_errno(err, errno, "cannot open directory '%s'", path);
	}
	if (!trusted_uid(st.st_uid) ||
	    ((flags & UTIL_OUTDIR_STABLE) && util_dir_stable_check(&st, path, err) < 0)) {
		if (!trusted_uid(st.st_uid))
			errbuf_set(err,
				   "cannot write into '%s': it belongs to uid %u (only your own or "
				   "root's directory is written into)",
				   path, (unsigned)st.st_uid);
		close(dfd);
		return -1;
	}
	if (made)
		*made = last_made;
	return dfd;
}

/* The outermost directory of path that does not exist yet into out (len bytes), "" when path
 * exists: what util_mkdir_p(path) makes. */
void util_path_first_missing(char *out, size_t len, const char *path)
{
	char buf[PATH_MAX];
	out[0] = '\0';
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return;
	for (;;) {
		struct stat st;
		if (lstat(buf, &st) == 0 || errno != ENOENT)
			return;
		snprintf(out, len, "%s", buf);
		char *slash = strrchr(buf, '/');
		while (slash && slash > buf && slash[1] == '\0') /* "a/b/": the trailing slash */
			*slash = '\0', slash = strrchr(buf, '/');
		if (!slash || slash == buf)
			return;
		*slash = '\0';
	}
}

/* Removes the empty directories of path from path up to made (what util_path_first_missing
 * said before they were made; rmdir: a directory with anything in it stays). */
void util_dirs_unmake(const char *path, const char *made)
{
	char buf[PATH_MAX];
	size_t keep = strlen(made);
	if (!*made || snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return;
	while (strlen(buf) >= keep && rmdir(buf) == 0) {
		char *slash = strrchr(buf, '/');
		if (!slash)
			return;
		*slash = '\0';
	}
}
