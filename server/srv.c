/* SPDX-License-Identifier: MIT */
/* Server lifecycle: the handle, init, start, stop (helpers in server/srv_*.c). */
#include "server/srv_int.h"
#include "server/srv_priv.h"
#include "server/srv_snapshot.h"
#include <dirent.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

/* ---- handle ---- */

int srv_open(struct srv **out, const struct srv_opts *o, struct errbuf *err)
{
	struct srv *s = calloc(1, sizeof(*s));
	if (!s)
		return errbuf_set(err, "out of memory");
	s->o = o;
	s->external = o->external;
	if (s->external) {
		s->port = o->port ? o->port : 3306;
		*out = s;
		return 0;
	}
	if (!o->datadir || srv_canonical(s->instdir, sizeof(s->instdir), o->datadir) < 0) {
		free(s);
		return errbuf_set(err, "bad --datadir '%s'", o->datadir ? o->datadir : "");
	}
	if (srv_datadir_check(s->instdir, err) < 0) { /* a relative one under such a cwd */
		free(s);
		return -1;
	}
	snprintf(s->datadir, PATHLEN, "%s/data", s->instdir);
	snprintf(s->cnf, PATHLEN, "%s/my.cnf", s->instdir);
	snprintf(s->pidfile, PATHLEN, "%s/mysqld.pid", s->instdir);
	snprintf(s->log, PATHLEN, "%s/error.log", s->instdir);
	snprintf(s->sock, PATHLEN, "%s/mysqld.sock", s->instdir);
	snprintf(s->clientcnf, PATHLEN, "%s/client.cnf", s->instdir);
	snprintf(s->pending, PATHLEN, "%s/client.cnf.new", s->instdir);
	if (strlen(s->sock) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
		int rc =
		    errbuf_set(err,
			       "socket path '%s' is too long for a unix socket (%zu bytes max): "
			       "use a shorter --datadir",
			       s->sock, sizeof(((struct sockaddr_un *)0)->sun_path) - 1);
		free(s);
		return rc;
	}
	if (o->defaults_extra_file) {
		if (!realpath(o->defaults_extra_file, s->extra)) {
			int rc = errbuf_errno(err, errno, "cannot use --defaults-extra-file '%s'",
					      o->defaults_extra_file);
			free(s);
			return rc;
		}
	}
	s->port = o->port; /* 0: socket only */
	*out = s;
	return 0;
}

int srv_resolve_binary(struct srv *s, struct errbuf *err)
{
	if (s->resolved)
		return 0;
	if (s->external)
		return errbuf_set(err, "the server at '%s' is not managed by dbt3stab",
				  s->o->host ? s->o->host : "");
	const struct srv_opts *o = s->o;
	char path[PATHLEN];
	if (o->mysqld) {
		if (strchr(o->mysqld, '/')) {
			if (srv_absolute(path, sizeof(path), o->mysqld) < 0 || !srv_is_exec(path))
				return errbuf_set(err, "--mysqld '%s' is not an executable file",
						  o->mysqld);
		} else if (srv_find_in_path(path, o->mysqld) < 0) {
			return errbuf_set(err, "--mysqld '%s' not found on PATH", o->mysqld);
		}
	} else if (o->basedir) {
		static const char *const rel[] = {"bin/mariadbd", "sbin/mariadbd",  "bin/mysqld",
						  "sbin/mysqld",  "libexec/mysqld", NULL};
		int found = 0;
		for (int i = 0; rel[i] && !found; i++)
			found = snprintf(path, PATHLEN, "%s/%s", o->basedir, rel[i]) < PATHLEN &&
				srv_is_exec(path);
		if (!found)
			return errbuf_set(err, "no mariadbd or mysqld under --basedir '%s'",
					  o->basedir);
	} else if (srv_find_in_path(path, "mariadbd") < 0 && srv_find_in_path(path, "mysqld") < 0) {
		return errbuf_set(err,
				  "no mariadbd or mysqld found on PATH or in /usr/sbin: install "
				  "mariadb-server or give --mysqld PATH");
	}
	char *argv[] = {path, "--no-defaults", "--version", NULL};
	char *text = NULL;
	/* NULL: as the server's user when root (a binary the command line named) */
	int st = srv_run_capture(argv, NULL, NULL, SRV_CAPTURE_MAX, &text, err);
	if (st < 0)
		return -1;
	int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0 &&
		 srv_parse_version(text, &s->flavour, s->version, s->version_str,
				   sizeof(s->version_str)) == 0;
	if (!ok) {
		errbuf_set(err, "'%s --version' does not look like MariaDB or MySQL: %.200s", path,
			   text ? text : "");
		free(text);
		return -1;
	}
	free(text);
	memcpy(s->binary, path, PATHLEN);
	s->resolved = 1;
	return 0;
}

void srv_free(struct srv *s)
{
	if (!s)
		return;
	if (s->is_child && !s->detached && !s->reaped) {
		struct errbuf ignored;
		srv_stop(s, &ignored);
	}
	srv_instance_unlock(s);
	srv_kv_free(s->cfg, s->n_cfg);
	free(s);
}

void srv_detach(struct srv *s)
{
	if (s && s->is_child) {
		s->detached = 1;
		srv_reg_remove(s->pid);
	}
}

/* Present while the initializer runs: a datadir it left half-made is not initialised. */
#define INIT_MARKER "init-in-progress"

static int not_initialised(const struct srv *s, struct errbuf *err)
{
	return errbuf_set(err, "'%s' is not initialised: run 'dbt3stab server init --datadir %s'",
			  s->instdir, s->instdir);
}

int srv_instance_check(const struct srv_opts *o, struct errbuf *err)
{
	struct srv *s;
	if (o->external)
		return 0;
	if (srv_open(&s, o, err) < 0)
		return -1;
	int rc = srv_is_initialised(s) ? 0 : not_initialised(s, err);
	srv_free(s);
	return rc;
}

int srv_access_check(const struct srv *s, struct errbuf *err)
{
	if (s->external || geteuid() == 0) /* root opens nothing in DIR to find out */
		return 0;
	int fd = open(s->pidfile, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno != EACCES && errno != EPERM)
		return 0; /* ENOENT: no pid file, or no instance: not running */
	return errbuf_set(err,
			  "permission denied: cannot read '%s' (the instance belongs to another "
			  "user: run as root or as its owner)",
			  s->pidfile);
}

/* server init takes a directory that does not exist (made here), an instance (one this tool
 * began: its lock file or init marker), or an empty directory already the server's user's (or
 * the invoker's when the server runs as the invoker); never another user's directory, nor a
 * non-empty one with other things in it (F5), nor an empty one it would have to chown: init
 * chowns only what it made. */
static int init_target_check(const struct srv *s, struct errbuf *err)
{
	struct stat st;
	char path[PATHLEN + 32];
	if (lstat(s->instdir, &st) < 0)
		return errno == ENOENT ? 0 : errbuf_errno(err, errno, "cannot use '%s'", s->instdir);
	if (!S_ISDIR(st.st_mode))
		return errbuf_set(err, "'%s' is not a directory", s->instdir);
	uid_t owner = st.st_uid;
	if (st.st_uid != geteuid() && !(s->ident.drop && st.st_uid == s->ident.uid))
		return errbuf_set(err,
				  "'%s' belongs to uid %d: an instance directory is given to the "
				  "server's user, so dbt3stab takes only a new directory, one of "
				  "yours or an instance (give another --datadir)",
				  s->instdir, (int)st.st_uid);
	static const char *const ours[] = {"instance.lock", INIT_MARKER, NULL};
	for (int i = 0; ours[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", s->instdir, ours[i]);
		if (lstat(path, &st) == 0)
			return 0;
	}
	DIR *d = opendir(s->instdir);
	struct dirent *e;
	int empty = 1;
	while (d && empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	if (!empty)
		return errbuf_set(err,
				  "'%s' is not empty and not a dbt3stab instance: give a new or empty "
				  "directory as --datadir",
				  s->instdir);
	if (s->ident.drop && owner != s->ident.uid)
		return errbuf_set(err,
				  "'%s' is yours and dbt3stab gives an instance directory to user "
				  "'%s' only when it made it: give a path that does not exist yet, "
				  "or chown the directory to '%s' yourself",
				  s->instdir, s->ident.name, s->ident.name);
	return 0;
}

int srv_is_initialised(const struct srv *s)
{
	char path[PATHLEN + 32];
	struct stat st;
	if (s->external)
		return 0;
	snprintf(path, sizeof(path), "%s/" INIT_MARKER, s->instdir);
	if (access(path, F_OK) == 0)
		return 0;
	snprintf(path, sizeof(path), "%s/mysql", s->datadir);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* rm -r of what dirfd holds, through descriptors opened O_NOFOLLOW: the server's user owns the
 * datadir, and an entry it swaps for a link meanwhile is removed as a link, never followed
 * (nftw works on paths, which it could redirect). Takes dirfd. */
static void rm_tree_at(int dirfd, int depth)
{
	DIR *d = fdopendir(dirfd);
	struct dirent *e;
	if (!d) {
		close(dirfd);
		return;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		int sub = depth < 32 ? openat(dirfd, e->d_name,
					      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
				     : -1;
		if (sub >= 0) {
			rm_tree_at(sub, depth + 1);
			unlinkat(dirfd, e->d_name, AT_REMOVEDIR);
		} else {
			unlinkat(dirfd, e->d_name, 0);
		}
	}
	closedir(d);
}

/* Removes DIR/data and everything in it. */
static void rm_datadir(const struct srv *s)
{
	int fd = open(s->datadir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		rm_tree_at(fd, 0);
	rmdir(s->datadir);
	unlink(s->datadir); /* a link planted in its place: the link only */
}

static int rm_datadir_child(void *arg, void *out, struct errbuf *err)
{
	(void)out;
	(void)err;
	rm_datadir(arg);
	return 0;
}

/* rm_datadir as the server's user (srv_priv_run): root removes nothing in its directory. */
static void rm_datadir_as_server(struct srv *s)
{
	struct errbuf ignored;
	srv_priv_run(&s->ident, rm_datadir_child, s, NULL, 0, &ignored);
}

static int find_installer(const struct srv *s, char out[PATHLEN])
{
	char base[PATHLEN];
	if (s->o->basedir) {
		snprintf(base, PATHLEN, "%s", s->o->basedir);
	} else { /* /usr/sbin/mariadbd -> /usr */
		snprintf(base, PATHLEN, "%s", s->binary);
		for (int i = 0; i < 2; i++) {
			char *slash = strrchr(base, '/');
			if (slash)
				*slash = '\0';
		}
	}
	static const char *const rel[] = {"scripts/mariadb-install-db", "bin/mariadb-install-db",
					  "scripts/mysql_install_db", "bin/mysql_install_db", NULL};
	for (int i = 0; rel[i]; i++)
		if (snprintf(out, PATHLEN, "%s/%s", base, rel[i]) < PATHLEN && srv_is_exec(out))
			return 0;
	if (srv_find_in_path(out, "mariadb-install-db") == 0 ||
	    srv_find_in_path(out, "mysql_install_db") == 0)
		return 0;
	return -1;
}

int srv_init_argv(char **argv, size_t max, enum srv_flavour f, char *program, char *defaults_arg,
		  char *datadir_arg, char *basedir_arg)
{
	size_t n = 0;
	if (max < 7)
		return -1;
	argv[n++] = program; /* mariadb-install-db, or mysqld itself */
	argv[n++] = defaults_arg;
	if (f == SRV_FLAVOUR_MARIADB) {
		argv[n++] = datadir_arg;
		/* root@localhost by password (set right after, srv_secure_accounts), not by the
		 * unix_socket plugin that would admit every process of the server's OS user */
		argv[n++] = "--auth-root-authentication-method=normal";
		argv[n++] = "--skip-test-db";
	} else {
		/* MySQL 8: no password until srv_secure_accounts sets one; the datadir and
		 * everything else come from the option file */
		argv[n++] = "--initialize-insecure";
	}
	if (basedir_arg)
		argv[n++] = basedir_arg;
	argv[n] = NULL;
	return (int)n;
}

/* Runs the initializer as the server's user; the datadir it made, or -1 with its output. */
static int run_initializer(struct srv *s, struct errbuf *err)
{
	char defaults[PATHLEN + 32], datadir[PATHLEN + 32], basedir[PATHLEN + 32], prog[PATHLEN];
	char absbase[PATHLEN];
	snprintf(defaults, sizeof(defaults), "--defaults-file=%s", s->cnf);
	snprintf(datadir, sizeof(datadir), "--datadir=%s", s->datadir);
	if (s->o->basedir) {
		if (!realpath(s->o->basedir, absbase))
			return errbuf_errno(err, errno, "cannot use --basedir '%s'", s->o->basedir);
		snprintf(basedir, sizeof(basedir), "--basedir=%s", absbase);
	}
	if (s->flavour == SRV_FLAVOUR_MARIADB) {
		if (find_installer(s, prog) < 0)
			return errbuf_set(err,
					  "cannot find mariadb-install-db next to '%s' or on PATH",
					  s->binary);
	} else {
		snprintf(prog, sizeof(prog), "%s", s->binary);
	}
	char *argv[12];
	srv_init_argv(argv, 12, s->flavour, prog, defaults, datadir,
		      s->o->basedir ? basedir : NULL);
	char *text = NULL;
	int status = srv_run_capture(argv, &s->ident, NULL, SRV_CAPTURE_MAX, &text, err);
	if (status < 0)
		return -1;
	char path[PATHLEN + 16];
	struct stat st;
	snprintf(path, sizeof(path), "%s/mysql", s->datadir);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && stat(path, &st) == 0 &&
	    S_ISDIR(st.st_mode)) {
		free(text);
		return 0;
	}
	char how[96], out[600], log[400];
	srv_describe_status(how, sizeof(how), status);
	srv_excerpt(text, out, sizeof(out));
	srv_log_excerpt(s, log, sizeof(log));
	errbuf_set(err, "'%s' %s:\n%s\nerror log:\n%s", argv[0], how, out, log);
	free(text);
	return -1;
}

int srv_init_datadir(struct srv *s, struct errbuf *err)
{
	if (s->external) {
		errbuf_set(err, "cannot initialise an external server");
		return SRV_E_EXTERNAL;
	}
	if (srv_resolve_binary(s, err) < 0 || srv_need_ident(s, err) < 0)
		return -1;
	if (init_target_check(s, err) < 0)
		return SRV_E_REFUSED;
	if (srv_instance_lock(s, 1, err) < 0)
		return -1;
	/* the directories just made must be reachable too (a umask of 077) */
	if (srv_ident_can_reach(&s->ident, s->instdir, err) < 0)
		return -1;
	if (srv_is_initialised(s)) {
		errbuf_set(err, "'%s' is already initialised", s->datadir);
		return SRV_E_EXISTS;
	}
	struct stat st;
	if (stat(s->datadir, &st) == 0) {
		/* leftovers of a failed init: the initializers want an empty or missing datadir */
		rm_datadir_as_server(s);
	}
	unlink(s->clientcnf); /* the passwords of a datadir that is gone */
	unlink(s->pending);
	if (srv_prepare_instance(s, err) < 0 || srv_write_cnf(s, NULL, 0, err) < 0)
		return -1;
	char marker[PATHLEN + 32];
	snprintf(marker, sizeof(marker), "%s/" INIT_MARKER, s->instdir);
	unlink(marker); /* made new: nothing planted at the name is opened */
	int mfd = open(marker, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (mfd < 0)
		return errbuf_errno(err, errno, "cannot create '%s'", marker);
	close(mfd);
	/* the marker stays until the accounts are secured: a datadir with passwordless root
	 * never counts as initialised */
	if (run_initializer(s, err) == 0 && srv_secure_instance(s, err) == 0) {
		if (unlink(marker) == 0 && srv_is_initialised(s))
			return 0;
		return errbuf_errno(err, errno, "cannot remove '%s'", marker);
	}
	rm_datadir_as_server(s);
	unlink(s->pending);
	unlink(marker);
	return -1;
}

/* A snapshot an interrupted run left (server/srv_snapshot.h) swapped back, its server stopped
 * first, before anything starts on the data; the lock is held. */
static int recover_snapshot(struct srv *s, struct errbuf *err)
{
	if (!srv_snapshot_pending(s) || srv_snapshot_owned(s))
		return 0;
	if (srv_is_alive(s) && srv_stop_locked(s, err) < 0)
		return -1;
	return srv_snapshot_restore(s, err) < 0 ? -1 : 0;
}

int srv_start(struct srv *s, const struct srv_launch *launch, struct errbuf *err)
{
	if (s->external) {
		errbuf_set(err, "cannot start an external server");
		return SRV_E_EXTERNAL;
	}
	/* before the lock, which would create DIR/instance.lock: nothing made in a directory
	 * that is not an instance */
	if (!srv_is_initialised(s) && !srv_snapshot_pending(s))
		return not_initialised(s, err);
	if (srv_resolve_binary(s, err) < 0 || srv_need_ident(s, err) < 0)
		return -1;
	if (srv_instance_lock(s, 0, err) != 0)
		return -1;
	if (recover_snapshot(s, err) < 0)
		return -1;
	if (!srv_is_initialised(s))
		return not_initialised(s, err);
	if (srv_is_alive(s)) {
		errbuf_set(err, "the server in '%s' is already running (pid %d)", s->instdir,
			   (int)s->pid);
		return SRV_E_RUNNING;
	}
	if (srv_prepare_instance(s, err) < 0)
		return -1;
	/* an instance an older version made has no passwords yet: secure it first */
	if (access(s->clientcnf, F_OK) < 0 && errno == ENOENT && srv_secure_instance(s, err) < 0)
		return -1;
	return srv_launch_server(s, launch, err);
}

int srv_ensure_started(struct srv *s, const struct srv_launch *launch, int *out_started,
		       struct errbuf *err)
{
	*out_started = 0;
	if (s->external)
		return srv_check(s, err);
	if (srv_instance_lock(s, 1, err) < 0)
		return -1;
	if (srv_snapshot_pending(s) && !srv_snapshot_owned(s) &&
	    (srv_need_ident(s, err) < 0 || recover_snapshot(s, err) < 0))
		return -1;
	if (srv_is_alive(s)) {
		struct errbuf why;
		int answered = srv_probe(s, &why);
		if (answered == 2)
			return 0;
		if (answered == 1) /* the server's own error, e.g. Access denied */
			return errbuf_set(err, "%s", why.msg);
		return errbuf_set(
		    err, "the server in '%s' (pid %d) runs but does not answer on '%s': %s",
		    s->instdir, (int)s->pid, s->sock, why.msg);
	}
	if (!srv_is_initialised(s)) {
		int rc = srv_init_datadir(s, err);
		if (rc < 0 && rc != SRV_E_EXISTS)
			return rc;
	}
	int rc = srv_start(s, launch, err);
	if (rc == 0)
		*out_started = 1;
	return rc;
}

int srv_stop(struct srv *s, struct errbuf *err)
{
	if (s->external) {
		errbuf_set(err, "cannot stop an external server");
		return SRV_E_EXTERNAL;
	}
	int locked = srv_instance_lock(s, 0, err);
	if (locked < 0)
		return -1;
	if (locked == 1) /* no such directory: nothing runs there */
		return 0;
	return srv_stop_locked(s, err);
}

enum srv_flavour srv_flavour(const struct srv *s)
{
	return s->flavour;
}

const char *srv_version(const struct srv *s)
{
	return s->version_str;
}

const char *srv_binary(const struct srv *s)
{
	return s->binary;
}

const char *srv_instdir(const struct srv *s)
{
	return s->instdir;
}

const char *srv_socket_path(const struct srv *s)
{
	return s->external ? (s->o->socket ? s->o->socket : "") : s->sock;
}

long srv_port(const struct srv *s)
{
	return s->port;
}

int srv_is_external(const struct srv *s)
{
	return s->external;
}
