/* SPDX-License-Identifier: MIT */
/* Work done as the server's user in a forked child (server/srv_priv.h). */
#include "server/srv_priv.h"
#include "base/sigchain.h"
#include "server/srv_int.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* What the child sends back: its result and message, then out_len bytes of out. */
struct priv_reply {
	int rc;
	struct errbuf err;
};

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Reads exactly len bytes; 0, or -1 at an early end or an error. */
static int read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	while (len > 0) {
		ssize_t r = read(fd, p, len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

/* The child: default signals, the switch of user, the work, the reply; never returns. */
static void child_run(int fd, const struct srv_ident *id, srv_priv_fn fn, void *arg,
		      size_t out_len)
{
	struct priv_reply r;
	memset(&r, 0, sizeof(r));
	sigchain_default(SIGCHAIN_STOP | SIGCHAIN_HUP | SIGCHAIN_PIPE);
	void *out = out_len ? calloc(1, out_len) : NULL;
	if (out_len && !out) {
		r.rc = errbuf_set(&r.err, "out of memory");
	} else if (srv_ident_become(id) < 0) {
		r.rc = errbuf_errno(&r.err, errno, "cannot switch to the server user '%s'",
				    id->name);
	} else {
		r.rc = fn(arg, out, &r.err) < 0 ? -1 : 0;
	}
	int ok = write_all(fd, &r, sizeof(r)) == 0 &&
		 (r.rc < 0 || out_len == 0 || write_all(fd, out, out_len) == 0);
	_exit(ok ? 0 : 1);
}

/* Waits for pid; 0 when it exited 0, else -1 with err naming how it ended. */
static int child_wait(pid_t pid, struct errbuf *err)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return errbuf_errno(err, errno, "cannot wait for a child");
	if (WIFSIGNALED(st))
		return errbuf_set(err, "a child working as the server's user died of signal %d",
				  WTERMSIG(st));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return errbuf_set(err, "a child working as the server's user failed (exit %d)",
				  WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}

int srv_priv_run(const struct srv_ident *id, srv_priv_fn fn, void *arg, void *out,
		 size_t out_len, struct errbuf *err)
{
	int fds[2];
	pid_t pid;
	if (srv_fork_piped(fds, &pid, err) < 0)
		return -1;
	if (pid == 0) {
		close(fds[0]);
		child_run(fds[1], id, fn, arg, out_len);
	}
	close(fds[1]);
	struct priv_reply r;
	memset(&r, 0, sizeof(r));
	int got = read_all(fds[0], &r, sizeof(r));
	if (got == 0 && r.rc == 0 && out_len)
		got = read_all(fds[0], out, out_len);
	close(fds[0]);
	struct errbuf werr;
	int waited = child_wait(pid, &werr);
	if (got < 0) {
		if (waited < 0)
			*err = werr;
		return waited < 0 ? -1
				  : errbuf_set(err, "a child working as the server's user sent no answer");
	}
	if (r.rc < 0) {
		r.err.msg[sizeof(r.err.msg) - 1] = '\0';
		*err = r.err;
		return -1;
	}
	if (waited < 0) {
		*err = werr;
		return -1;
	}
	return 0;
}
