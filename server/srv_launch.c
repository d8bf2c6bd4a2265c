/* SPDX-License-Identifier: MIT */
/* Launching the server as its user and stopping it: option file, log, fork/exec. */
#include "server/srv_int.h"
#include "base/sigchain.h"
#include <fcntl.h>
#include <linux/close_range.h>
#include <pthread.h>
#include <signal.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/wait.h>

double srv_timeout(const struct srv *s, double seconds)
{
	return s->o->valgrind ? seconds * SRV_VG_TIMEOUT_SCALE : seconds;
}

int srv_write_cnf(struct srv *s, const struct srv_kv *overlay, size_t n_overlay, struct errbuf *err)
{
	struct srv_template_in in = {
	    .flavour = s->flavour,
	    .ram_bytes = srv_ram_bytes(),
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
	/* 0644: the server user reads it, no secret in it; set on our own temp file before the
	 * rename, never on what the name holds (F2: the server's user owns DIR) */
	int rc = util_write_file(s->cnf, text, strlen(text), 0644, err);
	free(text);
	if (rc < 0) {
		srv_kv_free(kv, n);
		return -1;
	}
	srv_kv_free(s->cfg, s->n_cfg);
	s->cfg = kv;
	s->n_cfg = n;
	return 0;
}

/* Opens the server's log for the child's stdout and stderr, owned by the server's user, with a
 * marker so the tail shows only this start's lines when the server dies early. The fd or -1. */
static int open_start_log(struct srv *s, struct errbuf *err)
{
	int logfd = util_openat_regular(AT_FDCWD, s->log, O_WRONLY | O_APPEND | O_CREAT, 0640);
	if (logfd < 0 && (errno == EINVAL || errno == ELOOP))
		return errbuf_set(err, "refusing '%s': not a regular file with one link", s->log);
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

/* In the child, after the switch of user (which clears it): SIGTERM when the thread that forked
 * it ends, i.e. the tool, killed or not (a server that outlives the tool is asked for with
 * launch->outlive). The parent may have died before the prctl: then the child ends at once. */
static int die_with_parent(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0)
		return -1;
	if (getppid() != parent) /* nobody reads the error pipe any more */
		_exit(127);
	return 0;
}

/* The child after fork: default signals, its own session, stdin from /dev/null and stdout and
 * stderr to the log, the start hook, the server's user, then exec; on failure the errno (-1: the
 * hook failed) goes up the error pipe. parent: the tool's pid, taken before the fork; env: the
 * server's environment (server_env). */
static _Noreturn void launch_child(struct srv *s, const struct srv_launch *launch, char **argv,
				   char *const *env, int logfd, int errfd, pid_t parent)
{
	int vg = s->o->valgrind;
	sigset_t none;
	sigemptyset(&none);
	sigchain_default(SIGCHAIN_STOP | SIGCHAIN_PIPE);
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
	} else if ((!launch || !launch->outlive) && die_with_parent(parent) < 0) {
		code = errno;
	} else if (vg && personality((unsigned long)personality(0xffffffff) | ADDR_NO_RANDOMIZE) ==
			     -1) {
		code = errno;
	} else if (vg && chdir("/") < 0) { /* Debian's valgrind script exports PWD: a fixed one */
		code = errno;
	} else {
		close_range(3, ~0U,
			    CLOSE_RANGE_CLOEXEC); /* only the error pipe survives, until exec */
		if (vg)
			execve(argv[0], argv, (char *const *)srv_vg_env());
		else
			execve(argv[0], argv, env); /* the preload only here, after the drop */
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
	double timeout = srv_timeout(s, s->o->start_timeout), deadline = srv_now_s() + timeout;
	for (;;) {
		if (srv_child_reap(s))
			return srv_exited_error(s, "cannot start the server", err);
		if (srv_ping(s)) {
			if (srv_child_reap(s)) /* another instance owned the socket */
				return srv_exited_error(s, "cannot start the server", err);
			return 0;
		}
		if (srv_now_s() > deadline) {
			srv_kill_and_reap(s);
			char log[700];
			srv_log_excerpt(s, log, sizeof(log));
			errbuf_set(err,
				   "the server did not answer within %g s (killed); from '%s':\n%s",
				   timeout, s->log, log);
			return -1;
		}
		srv_sleep_ms(100);
	}
}

/* The server's environment: the tool's own, with LD_PRELOAD set to the preload when there is
 * one (any other LD_PRELOAD left out), made before the fork so that the child only execs it.
 * NULL when out of memory; *out_extra is the malloc'd "LD_PRELOAD=..." (or NULL), freed with the
 * array by the caller. */
static char **server_env(const char *preload, char **out_extra)
{
	extern char **environ;
	size_t n = 0;
	*out_extra = NULL;
	while (environ[n])
		n++;
	char **env = calloc(n + 2, sizeof(*env));
	if (!env || (preload && asprintf(out_extra, "LD_PRELOAD=%s", preload) < 0)) {
		free(env);
		*out_extra = NULL;
		return NULL;
	}
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!preload || strncmp(environ[i], "LD_PRELOAD=", 11) != 0)
			env[k++] = environ[i];
	if (preload)
		env[k++] = *out_extra;
	env[k] = NULL;
	return env;
}

/* Writes my.cnf and runs the server as its user until it answers (srv_start). */
int srv_launch_server(struct srv *s, const struct srv_launch *launch, struct errbuf *err)
{
	unlink(s->pidfile); /* stale */
	if (srv_write_cnf(s, launch ? launch->overlay : NULL, launch ? launch->n_overlay : 0, err) <
	    0)
		return -1;
	int logfd = open_start_log(s, err);
	if (logfd < 0)
		return -1;

	char defaults[PATHLEN + 32];
	snprintf(defaults, sizeof(defaults), "--defaults-file=%s", s->cnf);
	char *plain[] = {s->binary, defaults, NULL}, **argv = plain;
	struct srv_vg_cmd *vg = NULL;
	if (s->o->valgrind) {
		if (!(vg = malloc(sizeof(*vg)))) {
			close(logfd);
			return errbuf_set(err, "out of memory");
		}
		if (srv_vg_cmd_build(vg, s, defaults, err) < 0) {
			free(vg);
			close(logfd);
			return -1;
		}
		argv = vg->argv;
	}
	char *preload_var;
	char **env = server_env(s->o->valgrind ? NULL : s->o->preload, &preload_var);
	int fds[2];
	if (!env || pipe2(fds, O_CLOEXEC) < 0) {
		int e = env ? errno : ENOMEM;
		close(logfd);
		free(vg);
		free(env);
		free(preload_var);
		return errbuf_errno(err, e, "cannot create a pipe");
	}
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old); /* no handler runs in the child before exec */
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0)
		launch_child(s, launch, argv, env, logfd, fds[1], parent);
	int fork_errno = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	close(fds[1]);
	close(logfd);
	free(vg);
	free(env);
	free(preload_var);
	if (pid < 0) {
		close(fds[0]);
		return errbuf_errno(err, fork_errno, "cannot fork");
	}
	s->pid = pid;
	s->is_child = 1;
	s->reaped = 0;
	s->detached = 0;
	s->wstatus = 0;
	srv_reg_add(pid);
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
		srv_reg_remove(pid);
		if (code == -1) {
			char log[700];
			srv_log_excerpt(s, log, sizeof(log));
			errbuf_set(err, "the start hook failed before running '%s': %s", s->binary,
				   log);
			return -1;
		}
		return errbuf_errno(err, code, "cannot run '%s' as user '%s'", s->binary,
				    s->ident.name);
	}
	return wait_answer(s, err);
}

/* SHUTDOWN (or SIGTERM), wait, SIGKILL; the caller holds the instance lock. */
int srv_stop_locked(struct srv *s, struct errbuf *err)
{
	if (!srv_is_alive(s))
		return 0;
	struct errbuf ignored;
	MYSQL *m = srv_connect_timeout(s, NULL, 5, NULL, &ignored);
	int asked = 0;
	if (m) {
		asked = mysql_query(m, "SHUTDOWN") == 0;
		mysql_close(m);
	}
	if (!asked && kill(s->pid, SIGTERM) < 0 && errno != ESRCH)
		return errbuf_errno(err, errno, "cannot signal the server (pid %d)", (int)s->pid);
	double timeout = srv_timeout(s, s->o->stop_timeout), deadline = srv_now_s() + timeout;
	while (srv_now_s() < deadline) {
		if (s->is_child ? srv_child_reap(s) : !srv_pid_running(s->pid)) {
			srv_reg_remove(s->pid);
			return 0;
		}
		srv_sleep_ms(50);
	}
	srv_kill_and_reap(s);
	unlink(s->pidfile);
	return errbuf_set(err, "the server (pid %d) did not shut down within %g s and was killed",
			  (int)s->pid, timeout);
}
