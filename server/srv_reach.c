/* SPDX-License-Identifier: MIT */
/* Who can reach the instance: owners, modes, accounts (docs/server.md). */
#include "server/srv_int.h"
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

/* chown -R of a tree the server writes (a datadir an older version made as root). */
static int chown_tree(const char *path, uid_t uid, gid_t gid, int depth)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if ((st.st_uid != uid || st.st_gid != gid) && lchown(path, uid, gid) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode) || depth > 16)
		return 0;
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent *e;
	int rc = 0;
	while (rc == 0 && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char sub[PATHLEN];
		if (snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name) >= (int)sizeof(sub))
			continue;
		rc = chown_tree(sub, uid, gid, depth + 1);
	}
	closedir(d);
	return rc;
}

/* The modes and owners of docs/server.md, also on an instance an older version made: DIR 0700
 * owned by the server's user (it holds the socket), DIR/tmp and DIR/files (secure_file_priv)
 * 0700, the datadir and the error log the server's. */
int srv_prepare_instance(struct srv *s, struct errbuf *err)
{
	const struct srv_ident *id = &s->ident;
	static const char *const subdirs[] = {"tmp", "files", NULL};
	char path[PATHLEN + 16];
	if (chmod(s->instdir, 0700) < 0 || (id->drop && chown(s->instdir, id->uid, id->gid) < 0))
		return errbuf_errno(err, errno, "cannot set the mode of '%s'", s->instdir);
	for (int i = 0; subdirs[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", s->instdir, subdirs[i]);
		if ((mkdir(path, 0700) < 0 && errno != EEXIST) || chmod(path, 0700) < 0 ||
		    (id->drop && chown(path, id->uid, id->gid) < 0))
			return errbuf_errno(err, errno, "cannot create '%s'", path);
	}
	if (!id->drop)
		return 0;
	struct stat st;
	if (stat(s->datadir, &st) == 0 && st.st_uid != id->uid &&
	    chown_tree(s->datadir, id->uid, id->gid, 0) < 0)
		return errbuf_errno(err, errno, "cannot give '%s' to user '%s'", s->datadir,
				    id->name);
	const char *const files[] = {s->log, s->pidfile, NULL};
	for (int i = 0; files[i]; i++)
		if (lchown(files[i], id->uid, id->gid) < 0 && errno != ENOENT)
			return errbuf_errno(err, errno, "cannot give '%s' to user '%s'", files[i],
					    id->name);
	return 0;
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
