/* SPDX-License-Identifier: MIT */
/* The server process: alive, reaped, crashed, killed. */
#include "server/srv_int.h"
#include "server/srv_priv.h"
#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>

/* The pid file, which the server's user writes, read by a child that has become that user
 * (srv_priv_read): a regular file only (a link or a FIFO planted there is not followed, nor
 * waited on), and never a file root can read but that user cannot (a hard link to one, a path
 * through a link it planted). */
static pid_t read_pidfile(const struct srv *s)
{
	char text[32];
	struct srv_ident id;
	if (srv_server_ident(s, &id) < 0 || srv_priv_read(&id, s->pidfile, text, sizeof(text)) <= 0)
		return 0;
	char *end;
	long v = strtol(text, &end, 10);
	return v > 1 && v < INT_MAX ? (pid_t)v : 0;
}

/* Nonzero when a and b name one file (device and inode). */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* A process that exists and is not a zombie. */
int srv_pid_running(pid_t pid)
{
	if (pid <= 0 || (kill(pid, 0) < 0 && errno == ESRCH))
		return 0;
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (srv_read_small(path, buf, sizeof(buf)) <= 0)
		return 1;
	char *paren = strrchr(buf, ')');
	return !(paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X'));
}

/* A stale pid file may name a pid reused by another process: ours run with --defaults-file=cnf,
 * named by any path (a symbolic link to the instance, an older path): compared by device and
 * inode (F4). 1 yes, 0 no, -1 when /proc does not tell (a pid file is then trusted). */
static int runs_our_cnf(const struct srv *s, pid_t pid)
{
	char path[64], buf[8192], want[PATHLEN + 32];
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	ssize_t r = srv_read_small(path, buf, sizeof(buf));
	if (r <= 0)
		return -1;
	snprintf(want, sizeof(want), "--defaults-file=%s", s->cnf);
	buf[r < (ssize_t)sizeof(buf) ? r : (ssize_t)sizeof(buf) - 1] = '\0';
	for (ssize_t i = 0; i < r; i += (ssize_t)strlen(buf + i) + 1)
		if (strcmp(buf + i, want) == 0 ||
		    (strncmp(buf + i, "--defaults-file=", 16) == 0 &&
		     same_file(buf + i + 16, s->cnf)))
			return 1;
	return 0;
}

/* A server whose pid file is gone (removed with its directory, or not written yet) is still
 * found: a process of the instance directory's owner (the server's user) that runs with
 * --defaults-file=cnf. 0: none. */
static pid_t find_by_cnf(const struct srv *s)
{
	struct stat inst, st;
	if (stat(s->instdir, &inst) < 0)
		return 0;
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t found = 0;
	while (d && !found && (e = readdir(d))) {
		char *end, path[300];
		long v = strtol(e->d_name, &end, 10);
		if (*end || v <= 1 || v >= INT_MAX || v == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld", v);
		if (stat(path, &st) < 0 || st.st_uid != inst.st_uid)
			continue;
		if (srv_pid_running((pid_t)v) && runs_our_cnf(s, (pid_t)v) == 1)
			found = (pid_t)v;
	}
	if (d)
		closedir(d);
	return found;
}

/* Reaps our child without blocking; 1 when it has exited. */
int srv_child_reap(struct srv *s)
{
	if (!s->is_child || s->reaped)
		return s->reaped;
	int st;
	pid_t r = waitpid(s->pid, &st, WNOHANG);
	if (r == s->pid || (r < 0 && errno == ECHILD)) {
		s->reaped = 1;
		s->wstatus = r == s->pid ? st : 0;
		srv_reg_remove(s->pid);
	}
	return s->reaped;
}

int srv_is_alive(struct srv *s)
{
	if (s->external)
		return srv_ping(s);
	if (s->is_child)
		return !srv_child_reap(s);
	pid_t pid = read_pidfile(s);
	if (srv_pid_running(pid) && runs_our_cnf(s, pid)) {
		s->pid = pid;
		return 1;
	}
	if ((pid = find_by_cnf(s)) > 0) {
		s->pid = pid;
		return 1;
	}
	return 0;
}

pid_t srv_pid(struct srv *s)
{
	return !s->external && srv_is_alive(s) ? s->pid : 0;
}

int srv_exited_error(struct srv *s, const char *what, struct errbuf *err)
{
	char how[96], log[700];
	srv_describe_status(how, sizeof(how), s->wstatus);
	srv_log_excerpt(s, log, sizeof(log));
	errbuf_set(err, "%s: pid %d %s; from '%s':\n%s", what, (int)s->pid, how, s->log, log);
	return SRV_E_EXITED;
}

int srv_check(struct srv *s, struct errbuf *err)
{
	if (s->external) /* the server's own error (Access denied, ...) or the library's */
		return srv_probe(s, err) == 2 ? 0 : -1;
	if (s->is_child) {
		if (!srv_child_reap(s))
			return 0;
		return srv_exited_error(s, "the server crashed", err);
	}
	if (s->pid && !srv_pid_running(s->pid)) {
		char log[700];
		srv_log_excerpt(s, log, sizeof(log));
		errbuf_set(err, "the server (pid %d) is gone; from '%s':\n%s", (int)s->pid, s->log,
			   log);
		return SRV_E_EXITED;
	}
	return 0;
}

void srv_kill_and_reap(struct srv *s)
{
	kill(s->pid, SIGKILL);
	if (s->is_child) {
		int st;
		if (waitpid(s->pid, &st, 0) == s->pid)
			s->wstatus = st;
		s->reaped = 1;
	} else {
		for (int i = 0; i < 100 && srv_pid_running(s->pid); i++)
			srv_sleep_ms(50);
	}
	srv_reg_remove(s->pid);
}
