/* SPDX-License-Identifier: MIT */
/* Server lifecycle: binary discovery, init, fork/exec with a child hook, ping, stop, record. */
#include "server/srv.h"
#include "server/srv_secure.h"
#include <arpa/inet.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <linux/close_range.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PATHLEN 4096

struct srv {
	const struct srv_opts *o;
	int external;
	char instdir[PATHLEN - 64], datadir[PATHLEN], cnf[PATHLEN], sock[PATHLEN], pidfile[PATHLEN],
	    log[PATHLEN], extra[PATHLEN], clientcnf[PATHLEN], pending[PATHLEN];
	long port;
	/* who the server runs as, looked up on first need (init, start) */
	int have_ident;
	struct srv_ident ident;
	/* the credentials the tool connects with: DIR/client.cnf, read on first need */
	int creds_state; /* 0 not read yet, 1 read, -1 absent (an instance of an older version) */
	struct srv_creds creds;
	/* securing a fresh or older instance: connect as root, with this password or none */
	int securing;
	const char *root_password;
	/* the binary, resolved on first need */
	int resolved;
	char binary[PATHLEN];
	char version_str[128];
	enum srv_flavour flavour;
	int version[3];
	/* the process: child of this handle, or found through the pid file */
	pid_t pid;
	int is_child, detached, reaped, wstatus;
	int locked;	    /* holds the instance lock (one reference) */
	struct srv_kv *cfg; /* the option set written at the last start */
	size_t n_cfg;
};

/* ---- the process-wide registry of started servers (signal and atexit path) ----
 * One of the module's two global tables (the other: the instance locks): the pids of servers
 * (and initializers) this process started and has not stopped or detached, so a signal or
 * exit() can stop them. */

#define REG_MAX 32
static volatile pid_t reg_pids[REG_MAX];
static volatile pid_t reg_owner[REG_MAX]; /* a forked child that exits must not stop them */
static pthread_once_t reg_once = PTHREAD_ONCE_INIT;

static void reg_sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

void srv_stop_registered(void)
{
	int saved = errno;
	pid_t self = getpid();
	for (int i = 0; i < REG_MAX; i++)
		if (reg_owner[i] != self)
			reg_pids[i] = 0; /* inherited over fork: the parent stops them */
	/* each entry leads its own process group (setsid/setpgid): the initializer's children too
	 */
	for (int i = 0; i < REG_MAX; i++)
		if (reg_pids[i] > 0)
			kill(-reg_pids[i], SIGTERM);
	for (int waited = 0; waited < 300; waited++) { /* 30 s */
		int left = 0;
		for (int i = 0; i < REG_MAX; i++) {
			pid_t p = reg_pids[i];
			if (p <= 0)
				continue;
			if (waitpid(p, NULL, WNOHANG) == p || (kill(p, 0) < 0 && errno == ESRCH))
				reg_pids[i] = 0;
			else
				left++;
		}
		if (!left)
			break;
		reg_sleep_ms(100);
	}
	for (int i = 0; i < REG_MAX; i++) {
		pid_t p = reg_pids[i];
		if (p > 0) {
			kill(-p, SIGKILL);
			waitpid(p, NULL, 0);
			reg_pids[i] = 0;
		}
	}
	errno = saved;
}

static void reg_on_signal(int sig)
{
	(void)sig;
	srv_stop_registered();
	_exit(130);
}

static void reg_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = reg_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	for (int sig = SIGINT; sig; sig = sig == SIGINT ? SIGTERM : 0) {
		struct sigaction old;
		/* leave a handler a command installed itself alone (it calls srv_stop_registered)
		 */
		if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
			sigaction(sig, &sa, NULL);
	}
	atexit(srv_stop_registered);
}

static void reg_add(pid_t pid)
{
	pthread_once(&reg_once, reg_install);
	for (int i = 0; i < REG_MAX; i++)
		if (reg_pids[i] <= 0) {
			reg_owner[i] = getpid();
			reg_pids[i] = pid;
			return;
		}
}

static void reg_remove(pid_t pid)
{
	for (int i = 0; i < REG_MAX; i++)
		if (reg_pids[i] == pid)
			reg_pids[i] = 0;
}

/* ---- small helpers ---- */

static int is_exec(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static int find_in_path(char out[PATHLEN], const char *name)
{
	const char *path = getenv("PATH");
	char buf[PATHLEN * 2];
	snprintf(buf, sizeof(buf), "%s:/usr/sbin:/usr/local/sbin:/usr/bin:/usr/local/bin:/sbin",
		 path ? path : "");
	for (char *save = NULL, *dir = strtok_r(buf, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		if (!*dir)
			continue;
		if (snprintf(out, PATHLEN, "%s/%s", dir, name) < PATHLEN && is_exec(out))
			return 0;
	}
	return -1;
}

int srv_find_binary(const char *name)
{
	char path[PATHLEN];
	return find_in_path(path, name);
}

static int absolute(char *out, size_t len, const char *path)
{
	if (path[0] == '/')
		return snprintf(out, len, "%s", path) < (int)len ? 0 : -1;
	char cwd[PATHLEN];
	if (!getcwd(cwd, sizeof(cwd)))
		return -1;
	return snprintf(out, len, "%s/%s", cwd, path) < (int)len ? 0 : -1;
}

static uint64_t ram_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

static double now_s(void)
{
	return (double)util_now_ns() / 1e9;
}

/* Runs argv with stdout+stderr captured (at most ~64 KiB kept); returns the wait status or -1. */
static int run_capture(char *const argv[], const struct srv_ident *id, char **out,
		       struct errbuf *err)
{
	int fds[2];
	*out = NULL;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return errbuf_errno(err, errno, "cannot create a pipe");
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(fds[0]);
		close(fds[1]);
		return errbuf_errno(err, e, "cannot fork");
	}
	if (pid == 0) {
		setpgid(0, 0); /* Ctrl-C reaches dbt3stab, whose handler stops the whole group */
		int devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		if (srv_ident_become(id) < 0) {
			dprintf(2, "cannot become user '%s': %s\n", id->name, strerror(errno));
			_exit(127);
		}
		execv(argv[0], argv);
		dprintf(2, "cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	reg_add(pid);
	close(fds[1]);
	size_t cap = 65536, len = 0;
	char *buf = malloc(cap);
	char chunk[4096];
	for (;;) {
		ssize_t r = read(fds[0], chunk, sizeof(chunk));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (buf && len + (size_t)r < cap) {
			memcpy(buf + len, chunk, (size_t)r);
			len += (size_t)r;
		}
	}
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			int e = errno;
			reg_remove(pid);
			free(buf);
			return errbuf_errno(err, e, "cannot wait for '%s'", argv[0]);
		}
	}
	reg_remove(pid);
	if (buf)
		buf[len] = '\0';
	*out = buf;
	return status;
}

/* The last nlines of text (pointer into it). */
static const char *tail_lines(const char *text, size_t len, int nlines)
{
	const char *p = text + len;
	while (p > text && (p[-1] == '\n' || p[-1] == ' '))
		p--;
	int seen = 0;
	while (p > text) {
		if (p[-1] == '\n' && ++seen >= nlines)
			break;
		p--;
	}
	return p;
}

#define START_MARKER "---- dbt3stab: starting"

/* The most telling lines of a server log or initializer output, fitted into out[budget]: only
 * what follows the last start marker; the [ERROR] lines when there are any, else the last
 * lines; the newest lines are kept when space runs out. */
static void excerpt(const char *text, char *out, size_t budget)
{
	out[0] = '\0';
	if (!text || budget < 2)
		return;
	const char *from = text, *m;
	while ((m = strstr(from, START_MARKER)) != NULL) {
		const char *nl = strchr(m, '\n');
		from = nl ? nl + 1 : m + strlen(m);
		text = from;
	}
	int errors_only = strstr(text, "[ERROR]") != NULL || strstr(text, "ERROR:") != NULL;
	const char *end = text + strlen(text);
	size_t used = 0;
	/* walk lines backwards, prepending the ones that qualify and fit */
	while (end > text) {
		const char *line_end = end;
		while (line_end > text && (line_end[-1] == '\n' || line_end[-1] == '\r'))
			line_end--;
		const char *line = line_end;
		while (line > text && line[-1] != '\n')
			line--;
		end = line;
		size_t len = (size_t)(line_end - line);
		if (len == 0)
			continue;
		if (errors_only && !memmem(line, len, "[ERROR]", 7) &&
		    !memmem(line, len, "ERROR:", 6))
			continue;
		if (used + len + 2 > budget)
			break;
		memmove(out + len + (used ? 1 : 0), out, used + 1);
		memcpy(out, line, len);
		if (used)
			out[len] = '\n';
		used += len + (used ? 1 : 0);
	}
}

static void log_excerpt(const struct srv *s, char *out, size_t budget)
{
	char *text = NULL;
	struct errbuf ignored;
	out[0] = '\0';
	if (util_read_file(s->log, &text, NULL, &ignored) == 0) {
		excerpt(text, out, budget);
		free(text);
	}
	if (!out[0])
		snprintf(out, budget, "(error log empty)");
}

static void describe_status(char *out, size_t len, int status)
{
	if (WIFEXITED(status))
		snprintf(out, len, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(out, len, "was killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(out, len, "stopped (status 0x%x)", status);
}

int srv_parse_version(const char *line, enum srv_flavour *out_flavour, int out_version[3],
		      char *out_string, size_t string_len)
{
	const char *ver = line ? strstr(line, "Ver ") : NULL;
	if (!ver)
		return -1;
	ver += 4;
	int v[3] = {0, 0, 0};
	if (sscanf(ver, "%d.%d.%d", &v[0], &v[1], &v[2]) < 2)
		return -1;
	size_t n = strcspn(ver, " \t\n");
	if (out_string && string_len) {
		if (n >= string_len)
			n = string_len - 1;
		memcpy(out_string, ver, n);
		out_string[n] = '\0';
	}
	memcpy(out_version, v, sizeof(v));
	*out_flavour = strstr(line, "MariaDB") ? SRV_FLAVOUR_MARIADB : SRV_FLAVOUR_MYSQL;
	return 0;
}

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
	if (!o->datadir || absolute(s->instdir, sizeof(s->instdir), o->datadir) < 0) {
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

static int resolve_binary(struct srv *s, struct errbuf *err)
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
			if (absolute(path, sizeof(path), o->mysqld) < 0 || !is_exec(path))
				return errbuf_set(err, "--mysqld '%s' is not an executable file",
						  o->mysqld);
		} else if (find_in_path(path, o->mysqld) < 0) {
			return errbuf_set(err, "--mysqld '%s' not found on PATH", o->mysqld);
		}
	} else if (o->basedir) {
		static const char *const rel[] = {"bin/mariadbd", "sbin/mariadbd",  "bin/mysqld",
						  "sbin/mysqld",  "libexec/mysqld", NULL};
		int found = 0;
		for (int i = 0; rel[i] && !found; i++)
			found = snprintf(path, PATHLEN, "%s/%s", o->basedir, rel[i]) < PATHLEN &&
				is_exec(path);
		if (!found)
			return errbuf_set(err, "no mariadbd or mysqld under --basedir '%s'",
					  o->basedir);
	} else if (find_in_path(path, "mariadbd") < 0 && find_in_path(path, "mysqld") < 0) {
		return errbuf_set(err,
				  "no mariadbd or mysqld found on PATH or in /usr/sbin: install "
				  "mariadb-server or give --mysqld PATH");
	}
	char *argv[] = {path, "--no-defaults", "--version", NULL};
	char *text = NULL;
	int st = run_capture(argv, NULL, &text, err);
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

static void instance_unlock(struct srv *s);

void srv_free(struct srv *s)
{
	if (!s)
		return;
	if (s->is_child && !s->detached && !s->reaped) {
		struct errbuf ignored;
		srv_stop(s, &ignored);
	}
	instance_unlock(s);
	srv_kv_free(s->cfg, s->n_cfg);
	free(s);
}

void srv_detach(struct srv *s)
{
	if (s && s->is_child) {
		s->detached = 1;
		reg_remove(s->pid);
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

static int write_cnf(struct srv *s, const struct srv_kv *overlay, size_t n_overlay,
		     struct errbuf *err)
{
	struct srv_template_in in = {
	    .flavour = s->flavour,
	    .ram_bytes = ram_bytes(),
	    .instdir = s->instdir,
	};
	struct errbuf ignored; /* no data yet (a fresh datadir): the pool from the scale factor */
	if (srv_data_bytes(&in.data_bytes, s->datadir, &ignored) < 0)
		in.data_bytes = 0;
	memcpy(in.version, s->version, sizeof(in.version));
	struct srv_kv *kv = NULL;
	size_t n = 0;
	if (srv_config_build(&kv, &n, s->o, &in, overlay, n_overlay, err) < 0)
		return -1;
	/* while securing, no TCP whatever the options say, and no included file to turn it on */
	if (s->securing && srv_kv_set(&kv, &n, "skip_networking", NULL) < 0) {
		srv_kv_free(kv, n);
		return errbuf_set(err, "out of memory");
	}
	char *text = srv_config_render(kv, n, s->extra[0] && !s->securing ? s->extra : NULL,
				       s->o->server_options, s->o->n_server_options);
	if (!text) {
		srv_kv_free(kv, n);
		return errbuf_set(err, "out of memory");
	}
	int rc = util_write_atomic(s->cnf, text, strlen(text), err);
	free(text);
	if (rc == 0 && chmod(s->cnf, 0644) < 0) /* the server user reads it; no secret in it */
		rc = errbuf_errno(err, errno, "cannot chmod '%s'", s->cnf);
	if (rc < 0) {
		srv_kv_free(kv, n);
		return -1;
	}
	srv_kv_free(s->cfg, s->n_cfg);
	s->cfg = kv;
	s->n_cfg = n;
	return 0;
}

/* ---- who can reach the instance (docs/server.md, server/srv_secure.h) ---- */

/* The server's OS user, looked up once, and a check that it can reach the instance. */
static int need_ident(struct srv *s, struct errbuf *err)
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
static int prepare_instance(struct srv *s, struct errbuf *err)
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

static int launch_server(struct srv *s, const struct srv_launch *launch, struct errbuf *err);
static int stop_locked(struct srv *s, struct errbuf *err);
static MYSQL *connect_timeout(struct srv *s, const char *db, unsigned timeout,
			      unsigned *out_errno, struct errbuf *err);

/* Starts the instance socket-only, sets the passwords and removes every other account
 * (srv_secure_accounts), stops it, and only then publishes DIR/client.cnf. The passwords wait in
 * DIR/client.cnf.new meanwhile, so an interrupted run is finished by the next one. */
static int secure_instance(struct srv *s, struct errbuf *err)
{
	struct srv_creds c;
	int have = srv_creds_read(&c, s->pending, err);
	if (have < 0)
		return -1;
	if (!have && (srv_creds_new(&c, err) < 0 || srv_creds_write(&c, s->pending, s->sock, err) < 0))
		return -1;
	s->securing = 1;
	s->root_password = c.root_password;
	int rc = launch_server(s, NULL, err);
	if (rc == 0) {
		unsigned code;
		MYSQL *m = connect_timeout(s, NULL, 10, &code, err);
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
		if (stop_locked(s, rc == 0 ? err : &ignored) < 0)
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

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
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
		if (snprintf(out, PATHLEN, "%s/%s", base, rel[i]) < PATHLEN && is_exec(out))
			return 0;
	if (find_in_path(out, "mariadb-install-db") == 0 ||
	    find_in_path(out, "mysql_install_db") == 0)
		return 0;
	return -1;
}

/* ---- the instance lock: one managing process per instance (docs/server.md) ----
 * flock(LOCK_EX|LOCK_NB) on DIR/instance.lock, taken by a handle's first init/start/stop of a
 * managed instance and held until the last handle holding it is freed or the process exits (the
 * kernel releases it). The second process-wide table: the instances this process holds (several
 * handles, e.g. run's variants, share one lock). */

#define LOCK_MAX 16
static struct {
	char dir[PATHLEN - 64];
	pid_t owner; /* a forked child does not hold its parent's locks */
	int fd, refs;
	int passed; /* fd is a parent's lock (srv_lock_pass): kept open, closing releases nothing */
} lock_tab[LOCK_MAX];

/* Reads at most n - 1 bytes of a small file (a /proc entry) into buf, always NUL-terminated;
 * the byte count, or -1. */
static ssize_t read_small(const char *path, char *buf, size_t n)
{
	buf[0] = '\0';
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t r = read(fd, buf, n - 1);
	close(fd);
	buf[r > 0 ? r : 0] = '\0';
	return r;
}

/* "pid N (dbt3stab run)": this process, for the lock file. */
static void describe_self(char *out, size_t len)
{
	char cmd[256];
	ssize_t k = read_small("/proc/self/cmdline", cmd, sizeof(cmd));
	const char *base = strrchr(cmd, '/') ? strrchr(cmd, '/') + 1 : cmd;
	size_t l0 = strlen(cmd);
	if (k > 0 && (ssize_t)l0 + 1 < k && cmd[l0 + 1] != '-') {
		snprintf(out, len, "pid %d (%s %s)", (int)getpid(), base, cmd + l0 + 1);
		return;
	}
	if (*base) {
		snprintf(out, len, "pid %d (%s)", (int)getpid(), base);
		return;
	}
	snprintf(out, len, "pid %d", (int)getpid());
}

/* The lock a parent passed (srv_lock_pass): the descriptor named by SRV_LOCK_ENV when it is
 * open on path's file (device and inode) and holds its lock (a flock on the parent's own open
 * file description succeeds at once; on another one it would fail, and a lock nobody holds any
 * more is simply taken). It is closed on exec again (the server never gets it). -1: none. */
static int inherited_lock(const char *path)
{
	const char *v = getenv(SRV_LOCK_ENV);
	char *end;
	struct stat a, b;
	if (!v || !*v)
		return -1;
	errno = 0;
	long fd = strtol(v, &end, 10);
	if (errno || *end || fd < 3 || fd > INT_MAX)
		return -1;
	if (fstat((int)fd, &a) < 0 || stat(path, &b) < 0 || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino || flock((int)fd, LOCK_EX | LOCK_NB) < 0)
		return -1;
	if (fcntl((int)fd, F_SETFD, FD_CLOEXEC) < 0)
		return -1;
	return (int)fd;
}

int srv_lock_pass(struct srv *s)
{
	char num[16];
	if (!s || !s->locked)
		return -1;
	for (int i = 0; i < LOCK_MAX; i++) /* a forked child: the entry is its parent's */
		if (lock_tab[i].refs > 0 && strcmp(lock_tab[i].dir, s->instdir) == 0) {
			snprintf(num, sizeof(num), "%d", lock_tab[i].fd);
			if (fcntl(lock_tab[i].fd, F_SETFD, 0) < 0 ||
			    setenv(SRV_LOCK_ENV, num, 1) < 0)
				return -1;
			return 0;
		}
	return -1;
}

/* Holds fd, the flock on s's instance (passed: inherited from the parent process), in slot. */
static void lock_hold(int slot, struct srv *s, int fd, int passed)
{
	snprintf(lock_tab[slot].dir, sizeof(lock_tab[slot].dir), "%s", s->instdir);
	lock_tab[slot].owner = getpid();
	lock_tab[slot].fd = fd;
	lock_tab[slot].refs = 1;
	lock_tab[slot].passed = passed;
	s->locked = 1;
}

/* create: make DIR when missing (init); else a missing DIR is left alone and 1 returned. */
static int instance_lock(struct srv *s, int create, struct errbuf *err)
{
	if (s->external)
		return 0;
	if (s->locked)
		return 0;
	pid_t self = getpid();
	int slot = -1;
	for (int i = 0; i < LOCK_MAX; i++) {
		if (lock_tab[i].refs > 0 && lock_tab[i].owner == self &&
		    strcmp(lock_tab[i].dir, s->instdir) == 0) {
			lock_tab[i].refs++;
			s->locked = 1;
			return 0;
		}
		if (slot < 0 && (lock_tab[i].refs == 0 || lock_tab[i].owner != self))
			slot = i; /* free, or inherited from the parent (its fd stays open) */
	}
	if (slot < 0)
		return errbuf_set(err, "too many instances in one process (%d)", LOCK_MAX);
	char path[PATHLEN], who[512];
	snprintf(path, sizeof(path), "%s/instance.lock", s->instdir);
	if (!create && access(s->instdir, F_OK) < 0 && errno == ENOENT)
		return 1;
	int fd = inherited_lock(path);
	if (fd >= 0) { /* the parent's lock, which names the parent: held for this process too */
		lock_hold(slot, s, fd, 1);
		return 0;
	}
	if (util_mkdir_p(s->instdir) < 0)
		return errbuf_errno(err, errno, "cannot create '%s'", s->instdir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return errbuf_errno(err, errno, "cannot open '%s'", path);
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;
		ssize_t k = pread(fd, who, sizeof(who) - 1, 0);
		close(fd);
		if (e != EWOULDBLOCK)
			return errbuf_errno(err, e, "cannot lock '%s'", path);
		who[k > 0 ? k : 0] = '\0';
		who[strcspn(who, "\n")] = '\0';
		return errbuf_set(err, "instance '%s' is in use by %s", s->instdir,
				  *who ? who : "another process");
	}
	describe_self(who, sizeof(who));
	size_t wl = strlen(who);
	who[wl++] = '\n';
	if (ftruncate(fd, 0) < 0 || pwrite(fd, who, wl, 0) < 0) {
		/* the lock holds without the note; the message then says "another process" */
	}
	lock_hold(slot, s, fd, 0);
	return 0;
}

int srv_lock(struct srv *s, struct errbuf *err)
{
	return instance_lock(s, 0, err) < 0 ? -1 : 0;
}

static void instance_unlock(struct srv *s)
{
	if (!s->locked)
		return;
	s->locked = 0;
	for (int i = 0; i < LOCK_MAX; i++)
		if (lock_tab[i].refs > 0 && lock_tab[i].owner == getpid() &&
		    strcmp(lock_tab[i].dir, s->instdir) == 0) {
			if (--lock_tab[i].refs == 0 && !lock_tab[i].passed)
				close(lock_tab[i].fd); /* releases the flock */
			return;
		}
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
	int status = run_capture(argv, &s->ident, &text, err);
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
	describe_status(how, sizeof(how), status);
	excerpt(text, out, sizeof(out));
	log_excerpt(s, log, sizeof(log));
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
	if (resolve_binary(s, err) < 0 || need_ident(s, err) < 0)
		return -1;
	if (instance_lock(s, 1, err) < 0)
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
		nftw(s->datadir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	}
	unlink(s->clientcnf); /* the passwords of a datadir that is gone */
	unlink(s->pending);
	if (prepare_instance(s, err) < 0 || write_cnf(s, NULL, 0, err) < 0)
		return -1;
	char marker[PATHLEN + 32];
	snprintf(marker, sizeof(marker), "%s/" INIT_MARKER, s->instdir);
	int mfd = open(marker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (mfd < 0)
		return errbuf_errno(err, errno, "cannot create '%s'", marker);
	close(mfd);
	/* the marker stays until the accounts are secured: a datadir with passwordless root
	 * never counts as initialised */
	if (run_initializer(s, err) == 0 && secure_instance(s, err) == 0) {
		if (unlink(marker) == 0 && srv_is_initialised(s))
			return 0;
		return errbuf_errno(err, errno, "cannot remove '%s'", marker);
	}
	nftw(s->datadir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	unlink(s->pending);
	unlink(marker);
	return -1;
}

static pid_t read_pidfile(const struct srv *s)
{
	char *text = NULL;
	struct errbuf ignored;
	if (util_read_file(s->pidfile, &text, NULL, &ignored) < 0)
		return 0;
	char *end;
	long v = strtol(text, &end, 10);
	free(text);
	return v > 1 && v < INT_MAX ? (pid_t)v : 0;
}

/* A process that exists and is not a zombie. */
static int pid_running(pid_t pid)
{
	if (pid <= 0 || (kill(pid, 0) < 0 && errno == ESRCH))
		return 0;
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return 1;
	char *paren = strrchr(buf, ')');
	return !(paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X'));
}

/* A stale pid file may name a pid reused by another process: ours run with --defaults-file=cnf.
 * When /proc does not tell, trust the pid file. */
static int runs_our_cnf(const struct srv *s, pid_t pid)
{
	char path[64], buf[8192], want[PATHLEN + 32];
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	ssize_t r = read_small(path, buf, sizeof(buf));
	if (r <= 0)
		return 1;
	snprintf(want, sizeof(want), "--defaults-file=%s", s->cnf);
	for (ssize_t i = 0; i < r; i += (ssize_t)strlen(buf + i) + 1)
		if (strcmp(buf + i, want) == 0)
			return 1;
	return 0;
}

/* Reaps our child without blocking; 1 when it has exited. */
static int child_reap(struct srv *s)
{
	if (!s->is_child || s->reaped)
		return s->reaped;
	int st;
	pid_t r = waitpid(s->pid, &st, WNOHANG);
	if (r == s->pid || (r < 0 && errno == ECHILD)) {
		s->reaped = 1;
		s->wstatus = r == s->pid ? st : 0;
		reg_remove(s->pid);
	}
	return s->reaped;
}

int srv_is_alive(struct srv *s)
{
	if (s->external)
		return srv_ping(s);
	if (s->is_child)
		return !child_reap(s);
	pid_t pid = read_pidfile(s);
	if (pid_running(pid) && runs_our_cnf(s, pid)) {
		s->pid = pid;
		return 1;
	}
	return 0;
}

pid_t srv_pid(struct srv *s)
{
	return !s->external && srv_is_alive(s) ? s->pid : 0;
}

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;
static void lib_init(void)
{
	mysql_library_init(0, NULL, NULL);
}

/* The account a managed instance is reached with: the tool's from DIR/client.cnf; root (with
 * the new password, then none) while securing; root without a password for an instance an
 * older version made (no client.cnf: only to stop it or to secure it). */
static int managed_account(struct srv *s, int attempt, const char **user, const char **pass,
			   struct errbuf *err)
{
	if (s->securing) {
		*user = "root";
		*pass = attempt == 0 ? s->root_password : NULL;
		return attempt < 2 ? 0 : 1;
	}
	if (attempt > 0)
		return 1;
	if (s->creds_state != 1) {
		int r = srv_creds_read(&s->creds, s->clientcnf, err);
		if (r < 0)
			return -1;
		s->creds_state = r ? 1 : -1;
	}
	*user = s->creds_state == 1 ? s->creds.user : "root";
	*pass = s->creds_state == 1 ? s->creds.password : NULL;
	return 0;
}

/* A connection, or NULL with the server's or the client library's message in err and its error
 * number in *out_errno (0 when no attempt was made). */
static MYSQL *connect_timeout(struct srv *s, const char *db, unsigned timeout,
			      unsigned *out_errno, struct errbuf *err)
{
	pthread_once(&lib_once, lib_init);
	if (out_errno)
		*out_errno = 0;
	for (int attempt = 0;; attempt++) {
		const char *host, *user, *pass = NULL, *sock;
		unsigned port = 0;
		if (s->external) {
			if (attempt > 0)
				return NULL;
			host = s->o->host;
			user = s->o->user;
			pass = getenv("MYSQL_PWD");
			sock = s->o->socket;
			port = s->o->port ? (unsigned)s->o->port : 0;
		} else {
			int r = managed_account(s, attempt, &user, &pass, err);
			if (r != 0)
				return NULL;
			host = "localhost";
			sock = s->sock;
		}
		MYSQL *m = mysql_init(NULL);
		if (!m)
			return errbuf_set(err, "out of memory"), NULL;
		unsigned one = 1;
		mysql_options(m, MYSQL_OPT_LOCAL_INFILE, &one);
		mysql_options(m, MYSQL_SET_CHARSET_NAME, "utf8mb4");
		mysql_options(m, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
		if (s->external) {
			if (s->o->defaults_extra_file)
				mysql_options(m, MYSQL_READ_DEFAULT_FILE, s->o->defaults_extra_file);
			mysql_options(m, MYSQL_READ_DEFAULT_GROUP, "client");
		}
		if (mysql_real_connect(m, host, user, pass, db, port, sock, CLIENT_LOCAL_FILES))
			return m;
		const char *where = s->external ? (sock	  ? sock
						   : host ? host
							  : "localhost")
						: s->sock;
		errbuf_set(err, "cannot connect to the server at '%s': %s", where, mysql_error(m));
		if (out_errno)
			*out_errno = mysql_errno(m);
		mysql_close(m);
	}
}

MYSQL *srv_connect(struct srv *s, const char *db, struct errbuf *err)
{
	return connect_timeout(s, db, 10, NULL, err);
}

/* Client-library errors (CR_*, 2000-2999) mean no server answered; anything else (Access
 * denied, Unknown database, ...) came from a server. */
static int server_answered(unsigned code)
{
	return code != 0 && (code < 2000 || code >= 3000);
}

int srv_probe(struct srv *s, struct errbuf *err)
{
	unsigned code;
	MYSQL *m = connect_timeout(s, NULL, 2, &code, err);
	if (!m)
		return server_answered(code) ? 1 : 0;
	int ok = mysql_ping(m) == 0;
	if (!ok)
		errbuf_set(err, "the server does not answer a ping: %s", mysql_error(m));
	mysql_close(m);
	return ok ? 2 : 0;
}

int srv_ping(struct srv *s)
{
	struct errbuf ignored;
	return srv_probe(s, &ignored) > 0;
}

char *srv_error_log_tail(const struct srv *s, int nlines)
{
	char *text = NULL;
	size_t len = 0;
	struct errbuf ignored;
	if (s->external || util_read_file(s->log, &text, &len, &ignored) < 0)
		return strdup("");
	const char *t = tail_lines(text, len, nlines);
	size_t n = strlen(t);
	while (n && (t[n - 1] == '\n' || t[n - 1] == ' '))
		n--;
	char *out = strndup(t, n);
	free(text);
	return out;
}

static int exited_error(struct srv *s, const char *what, struct errbuf *err)
{
	char how[96], log[700];
	describe_status(how, sizeof(how), s->wstatus);
	log_excerpt(s, log, sizeof(log));
	errbuf_set(err, "%s: pid %d %s; from '%s':\n%s", what, (int)s->pid, how, s->log, log);
	return SRV_E_EXITED;
}

int srv_check(struct srv *s, struct errbuf *err)
{
	if (s->external) /* the server's own error (Access denied, ...) or the library's */
		return srv_probe(s, err) == 2 ? 0 : -1;
	if (s->is_child) {
		if (!child_reap(s))
			return 0;
		return exited_error(s, "the server crashed", err);
	}
	if (s->pid && !pid_running(s->pid)) {
		char log[700];
		log_excerpt(s, log, sizeof(log));
		errbuf_set(err, "the server (pid %d) is gone; from '%s':\n%s", (int)s->pid, s->log,
			   log);
		return SRV_E_EXITED;
	}
	return 0;
}

static void kill_and_reap(struct srv *s)
{
	kill(s->pid, SIGKILL);
	if (s->is_child) {
		int st;
		if (waitpid(s->pid, &st, 0) == s->pid)
			s->wstatus = st;
		s->reaped = 1;
	} else {
		for (int i = 0; i < 100 && pid_running(s->pid); i++)
			reg_sleep_ms(50);
	}
	reg_remove(s->pid);
}

int srv_start(struct srv *s, const struct srv_launch *launch, struct errbuf *err)
{
	if (s->external) {
		errbuf_set(err, "cannot start an external server");
		return SRV_E_EXTERNAL;
	}
	/* before the lock, which would create DIR/instance.lock: nothing made in a directory
	 * that is not an instance */
	if (!srv_is_initialised(s))
		return not_initialised(s, err);
	if (resolve_binary(s, err) < 0 || need_ident(s, err) < 0)
		return -1;
	if (instance_lock(s, 0, err) != 0)
		return -1;
	if (srv_is_alive(s)) {
		errbuf_set(err, "the server in '%s' is already running (pid %d)", s->instdir,
			   (int)s->pid);
		return SRV_E_RUNNING;
	}
	if (prepare_instance(s, err) < 0)
		return -1;
	/* an instance an older version made has no passwords yet: secure it first */
	if (access(s->clientcnf, F_OK) < 0 && errno == ENOENT && secure_instance(s, err) < 0)
		return -1;
	return launch_server(s, launch, err);
}

/* Opens the server's log for the child's stdout and stderr, owned by the server's user, with a
 * marker so the tail shows only this start's lines when the server dies early. The fd or -1. */
static int open_start_log(struct srv *s, struct errbuf *err)
{
	int logfd = open(s->log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0640);
	if (logfd < 0)
		return errbuf_errno(err, errno, "cannot open '%s'", s->log);
	if (s->ident.drop && fchown(logfd, s->ident.uid, s->ident.gid) < 0) {
		int e = errno;
		close(logfd);
		return errbuf_errno(err, e, "cannot give '%s' to user '%s'", s->log, s->ident.name);
	}
	char stamp[32];
	util_utc_iso8601(stamp);
	dprintf(logfd, START_MARKER " '%s' at %s ----\n", s->binary, stamp);
	return logfd;
}

/* The child after fork: default signals, its own session, stdin from /dev/null and stdout and
 * stderr to the log, the start hook, the server's user, then exec; on failure the errno (-1: the
 * hook failed) goes up the error pipe. */
static _Noreturn void launch_child(struct srv *s, const struct srv_launch *launch, char **argv,
				   int logfd, int errfd)
{
	sigset_t none;
	sigemptyset(&none);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	setsid(); /* a Ctrl-C on the terminal reaches the tool, which stops the server */
	int devnull = open("/dev/null", O_RDONLY);
	if (devnull >= 0)
		dup2(devnull, 0);
	dup2(logfd, 1);
	dup2(logfd, 2);
	pthread_sigmask(SIG_SETMASK, &none, NULL);
	int code = 0;
	if (launch && launch->child_hook && launch->child_hook(launch->arg) != 0) {
		code = -1;
	} else if (srv_ident_become(&s->ident) < 0) { /* after the hook: it may need root */
		code = errno;
	} else {
		close_range(3, ~0U,
			    CLOSE_RANGE_CLOEXEC); /* only the error pipe survives, until exec */
		execv(argv[0], argv);
		code = errno;
	}
	ssize_t w = write(errfd, &code, sizeof(code));
	(void)w;
	_exit(127);
}

/* Waits until the started server answers: 0, or -1 when it exited or did not answer in time
 * (killed). */
static int wait_answer(struct srv *s, struct errbuf *err)
{
	double deadline = now_s() + s->o->start_timeout;
	for (;;) {
		if (child_reap(s))
			return exited_error(s, "cannot start the server", err);
		if (srv_ping(s)) {
			if (child_reap(s)) /* another instance owned the socket */
				return exited_error(s, "cannot start the server", err);
			return 0;
		}
		if (now_s() > deadline) {
			kill_and_reap(s);
			char log[700];
			log_excerpt(s, log, sizeof(log));
			errbuf_set(err,
				   "the server did not answer within %g s (killed); from '%s':\n%s",
				   s->o->start_timeout, s->log, log);
			return -1;
		}
		reg_sleep_ms(100);
	}
}

/* Writes my.cnf and runs the server as its user until it answers (srv_start). */
static int launch_server(struct srv *s, const struct srv_launch *launch, struct errbuf *err)
{
	unlink(s->pidfile); /* stale */
	if (write_cnf(s, launch ? launch->overlay : NULL, launch ? launch->n_overlay : 0, err) < 0)
		return -1;
	int logfd = open_start_log(s, err);
	if (logfd < 0)
		return -1;

	char defaults[PATHLEN + 32];
	snprintf(defaults, sizeof(defaults), "--defaults-file=%s", s->cnf);
	char *argv[] = {s->binary, defaults, NULL};
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0) {
		int e = errno;
		close(logfd);
		return errbuf_errno(err, e, "cannot create a pipe");
	}
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old); /* no handler runs in the child before exec */
	pid_t pid = fork();
	if (pid == 0)
		launch_child(s, launch, argv, logfd, fds[1]);
	int fork_errno = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	close(fds[1]);
	close(logfd);
	if (pid < 0) {
		close(fds[0]);
		return errbuf_errno(err, fork_errno, "cannot fork");
	}
	s->pid = pid;
	s->is_child = 1;
	s->reaped = 0;
	s->detached = 0;
	s->wstatus = 0;
	reg_add(pid);
	int code = 0;
	ssize_t r;
	while ((r = read(fds[0], &code, sizeof(code))) < 0 && errno == EINTR)
		;
	close(fds[0]);
	if (r > 0) {
		int st;
		waitpid(pid, &st, 0);
		s->reaped = 1;
		s->wstatus = st;
		reg_remove(pid);
		if (code == -1) {
			char log[700];
			log_excerpt(s, log, sizeof(log));
			errbuf_set(err, "the start hook failed before running '%s': %s", s->binary,
				   log);
			return -1;
		}
		return errbuf_errno(err, code, "cannot run '%s' as user '%s'", s->binary,
				    s->ident.name);
	}
	return wait_answer(s, err);
}

int srv_ensure_started(struct srv *s, const struct srv_launch *launch, int *out_started,
		       struct errbuf *err)
{
	*out_started = 0;
	if (s->external)
		return srv_check(s, err);
	if (instance_lock(s, 1, err) < 0)
		return -1;
	if (srv_is_alive(s)) {
		struct errbuf why;
		int answered = srv_probe(s, &why);
		if (answered == 2)
			return 0;
		if (answered == 1) /* the server's own error, e.g. Access denied */
			return errbuf_set(err, "%s", why.msg);
		return errbuf_set(err,
				  "the server in '%s' (pid %d) runs but does not answer on '%s': %s",
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
	int locked = instance_lock(s, 0, err);
	if (locked < 0)
		return -1;
	if (locked == 1) /* no such directory: nothing runs there */
		return 0;
	return stop_locked(s, err);
}

/* SHUTDOWN (or SIGTERM), wait, SIGKILL; the caller holds the instance lock. */
static int stop_locked(struct srv *s, struct errbuf *err)
{
	if (!srv_is_alive(s))
		return 0;
	struct errbuf ignored;
	MYSQL *m = connect_timeout(s, NULL, 5, NULL, &ignored);
	int asked = 0;
	if (m) {
		asked = mysql_query(m, "SHUTDOWN") == 0;
		mysql_close(m);
	}
	if (!asked && kill(s->pid, SIGTERM) < 0 && errno != ESRCH)
		return errbuf_errno(err, errno, "cannot signal the server (pid %d)", (int)s->pid);
	double deadline = now_s() + s->o->stop_timeout;
	while (now_s() < deadline) {
		if (s->is_child ? child_reap(s) : !pid_running(s->pid)) {
			reg_remove(s->pid);
			return 0;
		}
		reg_sleep_ms(50);
	}
	kill_and_reap(s);
	unlink(s->pidfile);
	return errbuf_set(err, "the server (pid %d) did not shut down within %g s and was killed",
			  (int)s->pid, s->o->stop_timeout);
}

static json_t *kv_json(const struct srv_kv *kv, size_t n)
{
	json_t *o = json_object();
	for (size_t i = 0; o && i < n; i++)
		json_object_set_new(o, kv[i].name,
				    kv[i].value ? json_string(kv[i].value) : json_true());
	return o;
}

/* The [mysqld] options of a generated option file (a server an earlier command started):
 * "name = value", "name" (true), quoted values unescaped; later lines win. */
static json_t *cnf_json(const char *text)
{
	json_t *o = json_object();
	int in_mysqld = 0;
	while (o && text && *text) {
		const char *eol = text + strcspn(text, "\n");
		char line[4096];
		snprintf(line, sizeof(line), "%.*s", (int)(eol - text), text);
		text = *eol ? eol + 1 : eol;
		char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '[') {
			in_mysqld = strncmp(p, "[mysqld]", 8) == 0;
			continue;
		}
		if (!in_mysqld || !*p || *p == '#' || *p == ';' || *p == '!')
			continue;
		char *eq = strchr(p, '=');
		char *name_end = eq ? eq : p + strlen(p);
		while (name_end > p && (name_end[-1] == ' ' || name_end[-1] == '\t'))
			name_end--;
		*name_end = '\0';
		if (!eq) {
			json_object_set_new(o, p, json_true());
			continue;
		}
		char *v = eq + 1, *w;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v == '"') { /* "..." with \" and \\ (srv_config_render) */
			w = ++v;
			for (char *r = v; *r && *r != '"'; r++) {
				if (*r == '\\' && r[1])
					r++;
				*w++ = *r;
			}
		} else {
			w = v + strlen(v);
			while (w > v && (w[-1] == ' ' || w[-1] == '\t' || w[-1] == '\r'))
				w--;
		}
		*w = '\0';
		json_object_set_new(o, p, json_string(v));
	}
	return o;
}

/* The loaded data as the server counts it (external servers: no files to read). */
static int data_bytes_sql(MYSQL *m, uint64_t *out, struct errbuf *err)
{
	*out = 0;
	if (mysql_query(m, "SELECT COALESCE(SUM(data_length + index_length), 0) FROM "
			   "information_schema.TABLES WHERE engine = 'InnoDB' AND table_schema NOT "
			   "IN ('mysql', 'sys', 'performance_schema', 'information_schema')"))
		return errbuf_set(err, "cannot measure the data: %s", mysql_error(m));
	MYSQL_RES *res = mysql_store_result(m);
	MYSQL_ROW row = res ? mysql_fetch_row(res) : NULL;
	int rc = row && row[0] && srv_parse_size(row[0], out) == 0 ? 0 : -1;
	mysql_free_result(res);
	return rc < 0 ? errbuf_set(err, "cannot measure the data: no sum") : 0;
}

int srv_pool_get(struct srv *s, struct srv_pool *out, struct errbuf *err)
{
	uint64_t data = 0;
	if (!s->external) {
		if (srv_data_bytes(&data, s->datadir, err) < 0)
			return -1;
	} else {
		MYSQL *m = srv_connect(s, NULL, err);
		if (!m)
			return -1;
		int rc = data_bytes_sql(m, &data, err);
		mysql_close(m);
		if (rc < 0)
			return -1;
	}
	srv_pool_plan(out, data, s->o->scale, ram_bytes(), s->o->buffer_pool);
	return 0;
}

/* The pool record of a running server: the rule's figures with the pool the server reports. */
static json_t *pool_json(struct srv *s, json_t *vars)
{
	struct srv_pool p;
	struct errbuf ignored;
	uint64_t actual = 0;
	if (srv_pool_get(s, &p, &ignored) < 0)
		return json_null();
	json_t *v = json_object_get(vars, "innodb_buffer_pool_size");
	if (json_is_string(v) && srv_parse_size(json_string_value(v), &actual) == 0 && actual &&
	    actual != p.pool_bytes) {
		p.pool_bytes = actual; /* a --server-option or included file set it */
		p.from_option = 1;
		p.fits = actual >= p.need_bytes;
	}
	json_t *j = srv_pool_json(&p);
	return j ? j : json_null();
}

static const char *flavour_name(enum srv_flavour f)
{
	return f == SRV_FLAVOUR_MARIADB ? "mariadb" : f == SRV_FLAVOUR_MYSQL ? "mysql" : "unknown";
}

json_t *srv_info_json(struct srv *s, struct errbuf *err)
{
	json_t *j = json_object();
	if (!j)
		return errbuf_set(err, "out of memory"), NULL;
	MYSQL *m = srv_connect(s, NULL, err);
	if (!m) {
		json_decref(j);
		return NULL;
	}
	json_t *vars = json_object();
	char version[256] = "";
	if (mysql_query(m, "SHOW GLOBAL VARIABLES") == 0) {
		MYSQL_RES *res = mysql_store_result(m);
		MYSQL_ROW row;
		while (res && (row = mysql_fetch_row(res)))
			if (row[0])
				json_object_set_new(vars, row[0],
						    row[1] ? json_string(row[1]) : json_null());
		mysql_free_result(res);
	}
	if (mysql_query(m, "SELECT VERSION()") == 0) {
		MYSQL_RES *res = mysql_store_result(m);
		MYSQL_ROW row = res ? mysql_fetch_row(res) : NULL;
		if (row && row[0])
			snprintf(version, sizeof(version), "%s", row[0]);
		mysql_free_result(res);
	} else {
		errbuf_set(err, "SELECT VERSION() failed: %s", mysql_error(m));
		mysql_close(m);
		json_decref(vars);
		json_decref(j);
		return NULL;
	}
	mysql_close(m);
	json_object_set_new(j, "version", json_string(version));
	json_object_set_new(j, "external", json_boolean(s->external));
	if (s->external) {
		json_object_set_new(j, "flavour",
				    json_string(strstr(version, "MariaDB") ? "mariadb" : "mysql"));
		json_object_set_new(j, "binary", json_null());
		json_object_set_new(j, "binary_sha256", json_null());
		json_object_set_new(j, "options", json_null());
	} else {
		char sha[65];
		if (resolve_binary(s, err) < 0 || util_sha256_file(sha, s->binary, err) < 0) {
			json_decref(vars);
			json_decref(j);
			return NULL;
		}
		json_object_set_new(j, "flavour", json_string(flavour_name(s->flavour)));
		json_object_set_new(j, "binary", json_string(s->binary));
		json_object_set_new(j, "binary_sha256", json_string(sha));
		json_object_set_new(j, "datadir", json_string(s->instdir));
		char *cnf = NULL;
		struct errbuf ignored;
		if (util_read_file(s->cnf, &cnf, NULL, &ignored) < 0)
			cnf = NULL;
		/* started by this handle: its option set; else the one in the option file */
		json_object_set_new(j, "options",
				    s->cfg ? kv_json(s->cfg, s->n_cfg)
				    : cnf  ? cnf_json(cnf)
					   : json_null());
		if (cnf) {
			json_object_set_new(j, "option_file", json_string(cnf));
			free(cnf);
		}
		json_object_set_new(j, "defaults_extra_file",
				    s->extra[0] ? json_string(s->extra) : json_null());
	}
	json_object_set_new(j, "buffer_pool", pool_json(s, vars));
	json_object_set_new(j, "variables", vars);
	return j;
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

int srv_free_port(struct errbuf *err)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errbuf_errno(err, errno, "cannot create a socket");
	struct sockaddr_in a;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = 0;
	socklen_t len = sizeof(a);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) < 0) {
		int e = errno;
		close(fd);
		return errbuf_errno(err, e, "cannot bind a port on 127.0.0.1");
	}
	close(fd);
	return ntohs(a.sin_port);
}
