/* SPDX-License-Identifier: MIT */
/* Clones of a stopped instance (server/srv_clone.h). Everything inside the instance directory is
 * done by a child that has become the server's user (server/srv_priv.h); root only writes the
 * clone's client.cnf, its own secret. */
#include "server/srv_clone.h"
#include "base/safe_write.h"
#include "base/text.h"
#include "server/srv.h"
#include "server/srv_priv.h"
#include "server/srv_secure.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define CLONE_PATH 4200
#define CNF_MAX 65536

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

/* A clone's path cut into its parts, "TOP/SUB/NAME": the clone NAME in the clones' directory
 * SUB (DIR/sbs) of TOP, the instance. */
struct clone_where {
	char top[CLONE_PATH], sub[256], name[256];
	const char *dst;
};

static int where_split(struct clone_where *w, const char *dst, struct errbuf *err)
{
	char buf[CLONE_PATH];
	w->dst = dst;
	if (snprintf(buf, sizeof(buf), "%s", dst) >= (int)sizeof(buf))
		return errbuf_set(err, "clone path too long: '%s'", dst);
	char *b = strrchr(buf, '/');
	char *a = b && b != buf ? memrchr(buf, '/', (size_t)(b - buf)) : NULL;
	if (!a || a == buf || !b[1] || b - a - 1 <= 0 || strlen(b + 1) >= sizeof(w->name) ||
	    (size_t)(b - a - 1) >= sizeof(w->sub))
		return errbuf_set(err, "'%s' is no clone path (INSTANCE/sbs/K)", dst);
	snprintf(w->name, sizeof(w->name), "%s", b + 1);
	snprintf(w->sub, sizeof(w->sub), "%.*s", (int)(b - a - 1), a + 1);
	snprintf(w->top, sizeof(w->top), "%.*s", (int)(a - buf), buf);
	return 0;
}

/* The clones' directory TOP/SUB opened without following a link at SUB, and checked to be a
 * directory of owner uid (the server's user, who made it): SRV_CLONE_E_REFUSED with one line
 * otherwise. create: made (0711: the server's user traverses it, nobody lists it) when missing.
 * Its descriptor, or -1; -2 when it does not exist and create is 0. */
static int open_sub(const struct clone_where *w, int create, uid_t uid, struct errbuf *err)
{
	int tfd = open(w->top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tfd < 0)
		return errno == ENOENT && !create
			   ? -2
			   : errbuf_errno(err, errno, "cannot open '%s'", w->top);
	if (create && mkdirat(tfd, w->sub, 0711) < 0 && errno != EEXIST) {
		int e = errno;
		close(tfd);
		errno = e;
		return errbuf_errno(err, e, "cannot create '%s/%s'", w->top, w->sub);
	}
	int fd = openat(tfd, w->sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_uid != uid &&
	    unlinkat(tfd, w->sub, AT_REMOVEDIR) == 0) {
		/* an empty one an older version made as root: removed, made again as ours */
		close(fd);
		fd = !create ? (errno = ENOENT, -1)
		     : mkdirat(tfd, w->sub, 0711) < 0
			 ? -1
			 : openat(tfd, w->sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	int e = errno;
	close(tfd);
	if (fd < 0 && e == ENOENT && !create)
		return -2;
	if (fd < 0 && (e == ELOOP || e == ENOTDIR)) {
		errbuf_set(
		    err,
		    "refusing '%s/%s': a symbolic link or not a directory (side by side makes "
		    "its clones only in a directory of its own: remove it)",
		    w->top, w->sub);
		return SRV_CLONE_E_REFUSED;
	}
	if (fd < 0)
		return errbuf_errno(err, e, "cannot open '%s/%s'", w->top, w->sub);
	if (fstat(fd, &st) < 0 || st.st_uid != uid) {
		close(fd);
		errbuf_set(err, "refusing '%s/%s': it belongs to uid %d, not to the server's user",
			   w->top, w->sub, (int)st.st_uid);
		return SRV_CLONE_E_REFUSED;
	}
	return fd;
}

/* Removes the clone NAME in the clones' directory sfd when it carries the marker; 0 also when it
 * does not exist. */
static int remove_in(int sfd, const struct clone_where *w, struct errbuf *err)
{
	struct stat st;
	if (fstatat(sfd, w->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : errbuf_errno(err, errno, "cannot stat '%s'", w->dst);
	int fd = S_ISDIR(st.st_mode)
		     ? openat(sfd, w->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
		     : -1;
	int ours = fd >= 0 && fstatat(fd, SRV_CLONE_MARKER, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		   S_ISREG(st.st_mode);
	if (fd >= 0)
		close(fd);
	if (!ours)
		return errbuf_set(err,
				  "'%s' is not a clone dbt3stab made (no '%s' in it): not removed",
				  w->dst, SRV_CLONE_MARKER);
	return util_tree_remove_at(sfd, w->name, w->dst, err);
}

/* The child's answer: rc, the message, how the files were made; nospace when the disk filled. */
struct clone_reply {
	int rc, nospace; /* rc: 0, -1 or SRV_CLONE_E_REFUSED */
	struct errbuf err;
	struct util_clone_stats st;
};

struct clone_job {
	const char *src;
	struct clone_where w;
};

/* The clone's message when its filesystem filled up (what it made is removed by then). */
static void nospace_message(struct clone_reply *r, const struct clone_job *j, int sfd, int inodes)
{
	char srcdata[CLONE_PATH + 8], have[32], need[32];
	uint64_t bytes = 0;
	struct errbuf ignored;
	struct statvfs v;
	snprintf(srcdata, sizeof(srcdata), "%s/data", j->src);
	if (util_tree_bytes(srcdata, &bytes, &ignored) < 0)
		bytes = 0;
	int reflink = r->st.files_reflinked > 0 && r->st.files_copied == 0;
	uint64_t avail = fstatvfs(sfd, &v) == 0 ? (uint64_t)v.f_bavail * v.f_frsize : 0;
	errbuf_set(&r->err,
		   "cannot clone '%s' to '%s': its filesystem is full ('%s/%s' has %s free%s, "
		   "the clone needs %s); removed what was made",
		   srcdata, j->w.dst, j->w.top, j->w.sub,
		   util_size_human(have, sizeof(have), avail), inodes ? " and no free inodes" : "",
		   util_size_human(need, sizeof(need), srv_clone_need(bytes, 1, reflink)));
}

/* The marker in the new clone kfd, naming the instance: 0, or -1 with errno (ENOSPC). */
static int marker_write(int kfd, const struct clone_job *j, struct errbuf *err)
{
	struct util_out o;
	if (util_out_openat(&o, kfd, SRV_CLONE_MARKER, j->w.dst, 0644, err) < 0)
		return -1;
	size_t len = strlen(j->src);
	if (write(o.fd, j->src, len) != (ssize_t)len) {
		int e = errno;
		util_out_abort(&o);
		errno = e;
		return errbuf_errno(err, e, "cannot write '%s/%s'", j->w.dst, SRV_CLONE_MARKER);
	}
	return util_out_commit(&o, err);
}

/* DIR/data cloned into the new clone kfd: 0, or -1 with errno. */
static int data_clone(int kfd, const struct clone_job *j, struct util_clone_stats *st,
		      struct errbuf *err)
{
	char shown[CLONE_PATH + 8];
	snprintf(shown, sizeof(shown), "%s/data", j->src);
	int srcfd = open(j->src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int datafd =
	    srcfd < 0 ? -1 : openat(srcfd, "data", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int rc = datafd < 0 ? errbuf_errno(err, errno, "cannot open '%s'", shown)
			    : util_tree_clone_at(datafd, kfd, "data", shown, st, err);
	int e = errno;
	if (datafd >= 0)
		close(datafd);
	if (srcfd >= 0)
		close(srcfd);
	errno = e;
	return rc;
}

/* As the server's user: DIR/sbs (made 0711), the old clone removed, DIR/sbs/K (0700) with the
 * marker, DIR/data cloned into it; a clone that fails halfway is removed again. */
static int clone_work(const struct clone_job *j, struct clone_reply *r)
{
	struct errbuf *err = &r->err;
	int sfd = open_sub(&j->w, 1, geteuid(), err);
	if (sfd < 0)
		return sfd;
	int kfd = -1, rc = 0;
	errno = 0;
	if (fchmod(sfd, 0711) < 0)
		rc = errbuf_errno(err, errno, "cannot set the mode of '%s/%s'", j->w.top, j->w.sub);
	else if (remove_in(sfd, &j->w, err) < 0)
		rc = -1;
	else if (mkdirat(sfd, j->w.name, 0700) < 0)
		rc = errbuf_errno(err, errno, "cannot create '%s'", j->w.dst);
	else if ((kfd = openat(sfd, j->w.name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) <
		 0)
		rc = errbuf_errno(err, errno, "cannot open '%s'", j->w.dst);
	else if (marker_write(kfd, j, err) < 0 || data_clone(kfd, j, &r->st, err) < 0)
		rc = -1;
	int e = errno;
	struct statvfs v; /* out of inodes rather than bytes: said, as the bytes look plenty */
	int inodes = rc < 0 && fstatvfs(sfd, &v) == 0 && v.f_favail == 0;
	if (rc < 0 && kfd >= 0) { /* nothing partial stays */
		struct errbuf ignored;
		util_tree_remove_at(sfd, j->w.name, j->w.dst, &ignored);
	}
	r->nospace = rc < 0 && (e == ENOSPC || e == EDQUOT);
	if (r->nospace)
		nospace_message(r, j, sfd, inodes);
	if (kfd >= 0)
		close(kfd);
	close(sfd);
	return rc;
}

static int clone_child(void *arg, void *out, struct errbuf *err)
{
	(void)err;
	struct clone_reply *r = out;
	r->rc = clone_work(arg, r);
	return 0;
}

/* As root (or the caller): src/client.cnf, the tool's own file of mode 0600, read without
 * following a link, written into the clone as the caller's with mode 0600 through a directory
 * descriptor opened one component at a time without following links. 0 also when src has none
 * (an older instance). */
static int client_cnf_copy(const struct clone_job *j, uid_t server_uid, struct errbuf *err)
{
	char text[CNF_MAX];
	struct stat st;
	int srcfd = open(j->src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (srcfd < 0)
		return errbuf_errno(err, errno, "cannot open '%s'", j->src);
	int in = util_openat_regular(srcfd, "client.cnf", O_RDONLY, 0);
	int e = errno;
	close(srcfd);
	if (in < 0 && e == ENOENT)
		return 0;
	if (in < 0)
		return errbuf_errno(err, e, "cannot open '%s/client.cnf'", j->src);
	ssize_t n = fstat(in, &st) == 0 && st.st_uid == geteuid() && !(st.st_mode & 077)
			? read(in, text, sizeof(text))
			: -2;
	close(in);
	if (n == -2)
		return errbuf_set(
		    err, "refusing '%s/client.cnf': not the tool's own file of mode 0600", j->src);
	if (n < 0 || n == (ssize_t)sizeof(text))
		return errbuf_set(err, "cannot read '%s/client.cnf'", j->src);
	int sfd = open_sub(&j->w, 0, server_uid, err);
	if (sfd < 0)
		return sfd == -2 ? errbuf_set(err, "'%s' is gone", j->w.dst) : sfd;
	int kfd = openat(sfd, j->w.name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	e = errno;
	close(sfd);
	if (kfd < 0)
		return errbuf_errno(err, e, "cannot open '%s'", j->w.dst);
	struct util_out o;
	int rc = fstat(kfd, &st) < 0 || st.st_uid != server_uid
		     ? errbuf_set(err, "refusing '%s': not the server user's clone", j->w.dst)
		     : util_out_openat(&o, kfd, "client.cnf", j->w.dst, 0600, err);
	if (rc == 0 && write(o.fd, text, (size_t)n) != n) {
		rc = errbuf_errno(err, errno, "cannot write '%s/client.cnf'", j->w.dst);
		util_out_abort(&o);
	} else if (rc == 0) {
		rc = util_out_commit(&o, err);
	}
	close(kfd);
	return rc;
}

static int remove_child(void *arg, void *out, struct errbuf *err)
{
	(void)out;
	const struct clone_where *w = arg;
	int sfd = open_sub(w, 0, geteuid(), err);
	if (sfd == -2)
		return 0;
	if (sfd < 0)
		return -1;
	int rc = remove_in(sfd, w, err);
	close(sfd);
	return rc;
}

int srv_clone_remove(const char *dst, struct errbuf *err)
{
	struct clone_where w;
	struct srv_ident id;
	if (where_split(&w, dst, err) < 0 || srv_ident_get(&id, SRV_SERVER_USER, err) < 0)
		return -1;
	return srv_priv_run(&id, remove_child, &w, NULL, 0, err);
}

int srv_instance_clone(const char *src, const char *dst, struct util_clone_stats *out,
		       struct errbuf *err)
{
	struct clone_job j = {.src = src};
	struct srv_ident id;
	struct clone_reply r;
	if (where_split(&j.w, dst, err) < 0 || srv_ident_get(&id, SRV_SERVER_USER, err) < 0)
		return -1;
	if (srv_priv_run(&id, clone_child, &j, &r, sizeof(r), err) < 0)
		return -1;
	if (r.rc < 0) {
		r.err.msg[sizeof(r.err.msg) - 1] = '\0';
		*err = r.err;
		return r.nospace ? SRV_CLONE_E_NOSPACE : r.rc;
	}
	int rc = client_cnf_copy(&j, id.drop ? id.uid : geteuid(), err);
	if (rc < 0) {
		struct errbuf ignored;
		srv_clone_remove(dst, &ignored);
		return rc;
	}
	if (out)
		*out = r.st;
	return 0;
}

struct survey_reply {
	int rc; /* 0, -1 or SRV_CLONE_E_REFUSED */
	struct errbuf err;
	struct srv_clone_survey sv;
};

static int survey_work(const char *instdir, struct srv_clone_survey *sv, struct errbuf *err)
{
	char data[CLONE_PATH];
	struct errbuf ignored;
	if (snprintf(data, sizeof(data), "%s/data", instdir) >= (int)sizeof(data))
		return errbuf_set(err, "instance path too long: '%s'", instdir);
	/* a DIR/sbs planted by the server's user is refused before anything is made */
	struct clone_where w = {.sub = "sbs", .dst = instdir};
	snprintf(w.top, sizeof(w.top), "%s", instdir);
	int sfd = open_sub(&w, 0, geteuid(), err);
	if (sfd < 0 && sfd != -2)
		return sfd;
	if (sfd >= 0)
		close(sfd);
	if (util_tree_bytes(data, &sv->tree_bytes, err) < 0)
		return -1;
	if (srv_data_bytes(&sv->data_bytes, data, &ignored) < 0)
		sv->data_bytes = 0;
	sv->reflink = util_reflink_works(instdir);
	return util_free_bytes(instdir, &sv->free_bytes, err);
}

static int survey_child(void *arg, void *out, struct errbuf *err)
{
	(void)err;
	struct survey_reply *r = out;
	r->rc = survey_work(arg, &r->sv, &r->err);
	return 0;
}

int srv_clone_survey(struct srv_clone_survey *out, const char *instdir, struct errbuf *err)
{
	struct srv_ident id;
	struct survey_reply r;
	memset(out, 0, sizeof(*out));
	if (srv_ident_get(&id, SRV_SERVER_USER, err) < 0 ||
	    srv_priv_run(&id, survey_child, (void *)instdir, &r, sizeof(r), err) < 0)
		return -1;
	if (r.rc < 0) {
		r.err.msg[sizeof(r.err.msg) - 1] = '\0';
		*err = r.err;
		return r.rc;
	}
	*out = r.sv;
	return 0;
}
