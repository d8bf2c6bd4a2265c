/* SPDX-License-Identifier: MIT */
/* Launching the server as its user and stopping it: option file, log, fork/exec. */
#include "base/sigchain.h"
#include "server/srv_int.h"
#include "server/srv_priv.h"
#include <fcntl.h>
#include <linux/close_range.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
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

/* What the child sends up the error pipe when it does not exec: the step that failed and its
 * errno. */
enum launch_step { STEP_HOOK = 1, STEP_USER, STEP_LOG, STEP_EXEC };
struct launch_fail {
	int step, err;
};

/* In the child, as the server's user: the pid file a former start left removed, the log opened
 * for appending (made 0640 when missing) with stdout and stderr pointed at it and the start
 * marker written. A link, FIFO or file with a second link at the log's name is refused; a file
 * the server's user cannot write there (one root made, or root's own moved to the name) is
 * removed and made new: root never opens, creates or gives away a file at these names. 0, or
 * -1 with errno set. */
static int child_log(const struct srv *s, const char *marker)
{
	if (unlink(s->pidfile) < 0 && errno != ENOENT && errno != EACCES)
		return -1;
	int fd = util_openat_regular(AT_FDCWD, s->log, O_WRONLY | O_APPEND | O_CREAT, 0640);
	if (fd < 0 && errno == EACCES && unlink(s->log) == 0)
		fd = util_openat_regular(AT_FDCWD, s->log, O_WRONLY | O_APPEND | O_CREAT, 0640);
	if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		return -1;
	if (fd > 2)
		close(fd);
	ssize_t w = write(1, marker, strlen(marker));
	(void)w;
	return 0;
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

/* The child after fork: default signals, its own session, stdin from /dev/null, stdout and
 * stderr to hookfd (what the start hook says), the start hook, the server's user, stdout and
 * stderr to the log (child_log), then exec; on failure the step and its errno go up the error
 * pipe. parent: the tool's pid, taken before the fork; env: the server's environment
 * (server_env); marker: the log's start line. */
static _Noreturn void launch_child(struct srv *s, const struct srv_launch *launch, char **argv,
				   char *const *env, int hookfd, int errfd, pid_t parent,
				   const char *marker)
{
	int vg = s->o->valgrind;
	sigset_t none;
	sigemptyset(&none);
	sigchain_default(SIGCHAIN_STOP | SIGCHAIN_PIPE);
	setsid(); /* a Ctrl-C on the terminal reaches the tool, which stops the server */
	int devnull = open("/dev/null", O_RDONLY);
	if (devnull >= 0)
		dup2(devnull, 0);
	dup2(hookfd, 1);
	dup2(hookfd, 2);
	pthread_sigmask(SIG_SETMASK, &none, NULL);
	struct launch_fail f = {STEP_USER, 0};
	if (launch && launch->child_hook && launch->child_hook(launch->arg) != 0) {
		f.step = STEP_HOOK;
	} else if (srv_ident_become(&s->ident) < 0) { /* after the hook: it may need root */
		f.err = errno;
	} else if ((!launch || !launch->outlive) && die_with_parent(parent) < 0) {
		f.err = errno;
	} else if (child_log(s, marker) < 0) {
		f.step = STEP_LOG;
		f.err = errno;
	} else if (vg &&
		   personality((unsigned long)personality(0xffffffff) | ADDR_NO_RANDOMIZE) == -1) {
		f.err = errno;
	} else if (vg && chdir("/") < 0) { /* Debian's valgrind script exports PWD: a fixed one */
		f.err = errno;
	} else {
		f.step = STEP_EXEC;
		close_range(3, ~0U,
			    CLOSE_RANGE_CLOEXEC); /* only the error pipe survives, until exec */
		if (vg)
			execve(argv[0], argv, (char *const *)srv_vg_env());
		else
			execve(argv[0], argv, env); /* the preload only here, after the drop */
		f.err = errno;
	}
	ssize_t w = write(errfd, &f, sizeof(f));
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

/* The child did not exec: reaped, and err says what failed (f, what the start hook wrote to
 * hookfd). -1. */
static int launch_failed(struct srv *s, pid_t pid, const struct launch_fail *f, int hookfd,
			 struct errbuf *err)
{
	int st;
	waitpid(pid, &st, 0);
	s->reaped = 1;
	s->wstatus = st;
	srv_reg_remove(pid);
	if (f->step == STEP_HOOK) {
		char said[2048], excerpt[700];
		ssize_t n = pread(hookfd, said, sizeof(said) - 1, 0);
		said[n > 0 ? n : 0] = '\0';
		srv_excerpt(said, excerpt, sizeof(excerpt));
		return errbuf_set(err, "the start hook failed before running '%s': %s", s->binary,
				  excerpt[0] ? excerpt : "(it said nothing)");
	}
	if (f->step == STEP_LOG && (f->err == EINVAL || f->err == ELOOP))
		return errbuf_set(err, "refusing '%s': not a regular file with one link", s->log);
	if (f->step == STEP_LOG)
		return errbuf_errno(err, f->err, "cannot open '%s' as user '%s'", s->log,
				    s->ident.name);
	return errbuf_errno(err, f->err, "cannot run '%s' as user '%s'", s->binary, s->ident.name);
}

/* Writes my.cnf and runs the server as its user until it answers (srv_start). */
int srv_launch_server(struct srv *s, const struct srv_launch *launch, struct errbuf *err)
{
	if (srv_write_cnf(s, launch ? launch->overlay : NULL, launch ? launch->n_overlay : 0, err) <
	    0)
		return -1;
	char stamp[32], marker[PATHLEN + 128];
	util_utc_iso8601(stamp);
	snprintf(marker, sizeof(marker), START_MARKER " '%s' at %s ----\n", s->binary, stamp);
	char defaults[PATHLEN + 32];
	snprintf(defaults, sizeof(defaults), "--defaults-file=%s", s->cnf);
	char *plain[] = {s->binary, defaults, NULL}, **argv = plain;
	struct srv_vg_cmd *vg = NULL;
	if (s->o->valgrind) {
		if (!(vg = malloc(sizeof(*vg))))
			return errbuf_set(err, "out of memory");
		if (srv_vg_cmd_build(vg, s, defaults, err) < 0) {
			free(vg);
			return -1;
		}
		argv = vg->argv;
	}
	char *preload_var;
	char **env = server_env(s->o->valgrind ? NULL : s->o->preload, &preload_var);
	int fds[2] = {-1, -1}, hookfd = memfd_create("dbt3stab-start-hook", MFD_CLOEXEC);
	if (!env || hookfd < 0 || pipe2(fds, O_CLOEXEC) < 0) {
		int e = env ? errno : ENOMEM;
		if (hookfd >= 0)
			close(hookfd);
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
		launch_child(s, launch, argv, env, hookfd, fds[1], parent, marker);
	int fork_errno = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	close(fds[1]);
	free(vg);
	free(env);
	free(preload_var);
	if (pid < 0) {
		close(fds[0]);
		close(hookfd);
		return errbuf_errno(err, fork_errno, "cannot fork");
	}
	s->pid = pid;
	s->is_child = 1;
	s->reaped = 0;
	s->detached = 0;
	s->wstatus = 0;
	srv_reg_add(pid);
	struct launch_fail f;
	ssize_t r;
	while ((r = read(fds[0], &f, sizeof(f))) < 0 && errno == EINTR)
		;
	close(fds[0]);
	int rc = r > 0 ? launch_failed(s, pid, &f, hookfd, err) : 0;
	close(hookfd);
	return r > 0 ? rc : wait_answer(s, err);
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
	struct srv_ident id;
	if (srv_server_ident(s, &id) == 0) /* the pid file is the server user's to remove */
		srv_priv_unlink(&id, s->pidfile);
	return errbuf_set(err, "the server (pid %d) did not shut down within %g s and was killed",
			  (int)s->pid, timeout);
}
