/* SPDX-License-Identifier: MIT */
/* Who can reach the instance: owners, modes, accounts (docs/server.md). */
#include "server/srv_int.h"
#include "server/srv_priv.h"
#include <dirent.h>

/* ---- who can reach the instance (docs/server.md, server/srv_secure.h) ---- */

/* The server's OS user, looked up once, and a check that it can reach the instance. */
int srv_need_ident(struct srv *s, struct errbuf *err)
{
	if (s->have_ident)
		return 0;
	if (srv_ident_get(&s->ident, SRV_SERVER_USER, err) < 0 ||
	    srv_ident_can_reach(&s->ident, s->instdir, err) < 0)
		return -1;
	s->have_ident = 1;
	return 0;
}

/* A directory whose entries nobody but root can change: root's, not group or world writable. */
static int root_locked(const struct stat *st)
{
	return S_ISDIR(st->st_mode) && st->st_uid == 0 && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/* chown -R of a tree an older version made as root (the datadir), through directory descriptors
 * opened O_NOFOLLOW, depth first: a directory is given away only after its entries, so while root
 * works in it, it is still root's and nobody else can add, rename or swap an entry. Only root's
 * own entries change owner; a directory root cannot vouch for (another user's, or writable by
 * others) is not entered, a link's target is never touched (fchownat AT_SYMLINK_NOFOLLOW), and a
 * file with a second hard link is left alone: it may be a file outside the tree. dirfd must be
 * root_locked; taken. */
static int chown_tree_at(int dirfd, uid_t uid, gid_t gid, int depth)
{
	DIR *d = fdopendir(dirfd);
	if (!d) {
		close(dirfd);
		return -1;
	}
	struct dirent *e;
	int rc = 0;
	while (rc == 0 && (e = readdir(d))) {
		struct stat st;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || st.st_uid != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (!root_locked(&st) || depth >= 16)
				continue;
			int sub = openat(dirfd, e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			rc = sub < 0 ? -1 : chown_tree_at(sub, uid, gid, depth + 1);
		} else if (st.st_nlink > 1) {
			continue;
		}
		if (rc == 0 && fchownat(dirfd, e->d_name, uid, gid, AT_SYMLINK_NOFOLLOW) < 0)
			rc = -1;
	}
	closedir(d);
	return rc;
}

/* DIR/data, made as root by an older version, given to the server's user: its tree first
 * (chown_tree_at), then itself. Only a datadir root vouches for (root_locked) is walked. */
static int chown_datadir(int instfd, const struct srv_ident *id)
{
	int dfd = openat(instfd, "data", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (dfd < 0 || fstat(dfd, &st) < 0) {
		int e = errno;
		if (dfd >= 0)
			close(dfd);
		errno = e;
		return -1;
	}
	if (!root_locked(&st)) {
		close(dfd);
		errno = EPERM;
		return -1;
	}
	int keep = dup(dfd);
	int rc = keep < 0 ? -1 : chown_tree_at(dfd, id->uid, id->gid, 0);
	if (keep < 0)
		close(dfd);
	if (rc == 0 && fchown(keep, id->uid, id->gid) < 0)
		rc = -1;
	int e = errno;
	if (keep >= 0)
		close(keep);
	errno = e;
	return rc;
}

/* DIR/name as a directory of mode 0700 owned by the server's user: made when missing, opened
 * O_NOFOLLOW and changed through its descriptor (a link or FIFO planted at the name is refused),
 * and only when it is root's (made now, or by an older version) or already that user's: a
 * directory of any other user's is refused, never given away. */
static int own_subdir(int instfd, const char *name, const struct srv_ident *id)
{
	if (mkdirat(instfd, name, 0700) < 0 && errno != EEXIST)
		return -1;
	int fd = openat(instfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	int rc = fstat(fd, &st);
	if (rc == 0 && st.st_uid != 0 && st.st_uid != id->uid) {
		rc = -1;
		errno = EPERM;
	}
	if (rc == 0 && (fchmod(fd, 0700) < 0 ||
			(id->drop && st.st_uid != id->uid && fchown(fd, id->uid, id->gid) < 0)))
		rc = -1;
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

/* The modes and owners of docs/server.md, also on an instance an older version made: DIR 0700
 * owned by the server's user (it holds the socket), DIR/tmp and DIR/files (secure_file_priv)
 * 0700, the datadir the server's (the error log and the pid file are made by the server's user
 * itself, srv_launch.c). Everything inside DIR, which the server's user owns, is reached through
 * DIR's descriptor without following links. */
int srv_prepare_instance(struct srv *s, struct errbuf *err)
{
	const struct srv_ident *id = &s->ident;
	static const char *const subdirs[] = {"tmp", "files", NULL};
	int instfd = open(s->instdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (instfd < 0 || fchmod(instfd, 0700) < 0 ||
	    (id->drop && fchown(instfd, id->uid, id->gid) < 0)) {
		int e = errno;
		if (instfd >= 0)
			close(instfd);
		return errbuf_errno(err, e, "cannot set the mode of '%s'", s->instdir);
	}
	int rc = 0;
	for (int i = 0; rc == 0 && subdirs[i]; i++)
		if (own_subdir(instfd, subdirs[i], id) < 0)
			rc = errbuf_errno(err, errno, "cannot create '%s/%s'", s->instdir,
					  subdirs[i]);
	struct stat st;
	if (rc == 0 && id->drop && fstatat(instfd, "data", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISDIR(st.st_mode) && st.st_uid != id->uid && chown_datadir(instfd, id) < 0)
		rc =
		    errbuf_errno(err, errno, "cannot give '%s' to user '%s'", s->datadir, id->name);
	close(instfd);
	return rc;
}

/* Starts the instance socket-only, sets the passwords and removes every other account
 * (srv_secure_accounts), stops it, and only then publishes DIR/client.cnf. The passwords wait in
 * DIR/client.cnf.new meanwhile, so an interrupted run is finished by the next one. */
int srv_secure_instance(struct srv *s, struct errbuf *err)
{
	struct srv_creds c;
	int have = srv_creds_read(&c, s->pending, err);
	if (have < 0)
		return -1;
	if (!have &&
	    (srv_creds_new(&c, err) < 0 || srv_creds_write(&c, s->pending, s->sock, err) < 0))
		return -1;
	s->securing = 1;
	s->root_password = c.root_password;
	int rc = srv_launch_server(s, NULL, err);
	if (rc == 0) {
		unsigned code;
		MYSQL *m = srv_connect_timeout(s, NULL, 10, &code, err);
		if (!m && code == 1045) /* ER_ACCESS_DENIED_ERROR: secured, its passwords lost */
			errbuf_set(err,
				   "'%s' is missing but root of '%s' has a password: restore the "
				   "file, or make the instance again (remove '%s', then dbt3stab "
				   "server init)",
				   s->clientcnf, s->instdir, s->instdir);
		rc = m ? srv_secure_accounts(m, s->flavour, &c, err) : -1;
		if (m)
			mysql_close(m);
		struct errbuf ignored;
		if (srv_stop_locked(s, rc == 0 ? err : &ignored) < 0)
			rc = -1;
	}
	s->securing = 0;
	s->root_password = NULL;
	if (rc < 0)
		return -1;
	if (rename(s->pending, s->clientcnf) < 0)
		return errbuf_errno(err, errno, "cannot rename '%s'", s->pending);
	s->creds = c;
	s->creds_state = 1;
	return 0;
}

/* The end of the error log as the child read it. */
struct log_tail {
	size_t len;
	char text[SRV_LOG_TAIL];
};

static int log_tail_child(void *arg, void *out, struct errbuf *err)
{
	struct log_tail *t = out;
	int fd = util_openat_regular(AT_FDCWD, arg, O_RDONLY, 0);
	if (fd < 0)
		return errbuf_errno(err, errno, "cannot open '%s'", (const char *)arg);
	off_t size = lseek(fd, 0, SEEK_END);
	off_t from = size > (off_t)sizeof(t->text) ? size - (off_t)sizeof(t->text) : 0;
	ssize_t n = size < 0 ? -1 : pread(fd, t->text, sizeof(t->text), from);
	close(fd);
	if (n < 0)
		return errbuf_errno(err, errno, "cannot read '%s'", (const char *)arg);
	t->len = (size_t)n;
	return 0;
}

int srv_log_read(const struct srv *s, char **out, size_t *len)
{
	struct srv_ident id;
	struct errbuf ignored;
	struct log_tail *t = malloc(sizeof(*t));
	*out = NULL;
	if (!t)
		return -1;
	if (s->have_ident)
		id = s->ident;
	else if (srv_ident_get(&id, SRV_SERVER_USER, &ignored) < 0) {
		free(t);
		return -1;
	}
	if (srv_priv_run(&id, log_tail_child, (void *)s->log, t, sizeof(*t), &ignored) < 0) {
		free(t);
		return -1;
	}
	char *text = malloc(t->len + 1);
	if (text) {
		memcpy(text, t->text, t->len);
		text[t->len] = '\0';
		if (len)
			*len = t->len;
	}
	free(t);
	*out = text;
	return text ? 0 : -1;
}
