/* SPDX-License-Identifier: MIT */
/* Work done as the server's user in a forked child (server/srv_priv.h). */
#include "server/srv_priv.h"
#include "base/safe_write.h"
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

/* The small file's bytes as the child read them. */
struct priv_small {
	ssize_t len;
	char text[4096];
};

static ssize_t read_small_regular(const char *path, char *buf, size_t n)
{
	buf[0] = '\0';
	int fd = util_openat_regular(AT_FDCWD, path, O_RDONLY, 0);
	if (fd < 0)
		return -1;
	ssize_t k = read(fd, buf, n - 1);
	close(fd);
	buf[k > 0 ? k : 0] = '\0';
	return k;
}

static int read_child(void *arg, void *out, struct errbuf *err)
{
	struct priv_small *r = out;
	r->len = read_small_regular(arg, r->text, sizeof(r->text));
	return r->len < 0 ? errbuf_errno(err, errno, "cannot read '%s'", (const char *)arg) : 0;
}

ssize_t srv_priv_read(const struct srv_ident *id, const char *path, char *buf, size_t n)
{
	buf[0] = '\0';
	if (!id->drop) /* the caller's own identity: no child needed */
		return read_small_regular(path, buf, n);
	struct priv_small *r = malloc(sizeof(*r));
	struct errbuf ignored;
	if (!r)
		return -1;
	ssize_t len = -1;
	if (srv_priv_run(id, read_child, (void *)path, r, sizeof(*r), &ignored) == 0 &&
	    r->len >= 0) {
		len = r->len < (ssize_t)n ? r->len : (ssize_t)n - 1;
		memcpy(buf, r->text, (size_t)len);
		buf[len] = '\0';
	}
	free(r);
	return len;
}

static int unlink_child(void *arg, void *out, struct errbuf *err)
{
	(void)out;
	if (unlink(arg) < 0 && errno != ENOENT)
		return errbuf_errno(err, errno, "cannot remove '%s'", (const char *)arg);
	return 0;
}

int srv_priv_unlink(const struct srv_ident *id, const char *path)
{
	struct errbuf ignored;
	if (!id->drop)
		return unlink(path) < 0 && errno != ENOENT ? -1 : 0;
	return srv_priv_run(id, unlink_child, (void *)path, NULL, 0, &ignored);
}
