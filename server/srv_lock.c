/* SPDX-License-Identifier: MIT */
/* The instance lock: one managing process per instance (docs/server.md). */
#include "server/srv_int.h"
#include <fcntl.h>
#include <sys/file.h>

/* ---- the instance lock: one managing process per instance (docs/server.md) ----
 * flock(LOCK_EX|LOCK_NB) on DIR/instance.lock, taken by a handle's first init/start/stop of a
 * managed instance and held until the last handle holding it is freed or the process exits (the
 * kernel releases it). The second process-wide table: the instances this process holds (several
 * handles, e.g. run's variants, share one lock). */

#define LOCK_MAX 16
static struct {
	char dir[PATHLEN - 64];
	dev_t dev; /* the directory's identity: another path to it is the same instance */
	ino_t ino;
	pid_t owner; /* a forked child does not hold its parent's locks */
	int fd, refs;
	int passed; /* fd is a parent's lock (srv_lock_pass): kept open, closing releases nothing */
} lock_tab[LOCK_MAX];

/* Entry i is s's instance: the same canonical path, or the same directory (device, inode). */
static int same_instance(int i, const struct srv *s)
{
	struct stat st;
	if (strcmp(lock_tab[i].dir, s->instdir) == 0)
		return 1;
	return stat(s->instdir, &st) == 0 && st.st_dev == lock_tab[i].dev &&
	       st.st_ino == lock_tab[i].ino;
}

/* "pid N (dbt3stab run)": this process, for the lock file. */
static void describe_self(char *out, size_t len)
{
	char cmd[256];
	ssize_t k = srv_read_small("/proc/self/cmdline", cmd, sizeof(cmd));
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
		if (lock_tab[i].refs > 0 && same_instance(i, s)) {
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
	struct stat st;
	snprintf(lock_tab[slot].dir, sizeof(lock_tab[slot].dir), "%s", s->instdir);
	if (stat(s->instdir, &st) == 0) {
		lock_tab[slot].dev = st.st_dev;
		lock_tab[slot].ino = st.st_ino;
	}
	lock_tab[slot].owner = getpid();
	lock_tab[slot].fd = fd;
	lock_tab[slot].refs = 1;
	lock_tab[slot].passed = passed;
	s->locked = 1;
}

/* create: make DIR when missing (init); else a missing DIR is left alone and 1 returned. */
int srv_instance_lock(struct srv *s, int create, struct errbuf *err)
{
	if (s->external)
		return 0;
	if (s->locked)
		return 0;
	pid_t self = getpid();
	int slot = -1;
	for (int i = 0; i < LOCK_MAX; i++) {
		if (lock_tab[i].refs > 0 && lock_tab[i].owner == self && same_instance(i, s)) {
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
	/* the server's user owns DIR: a link or a FIFO planted at the name is refused */
	fd = util_openat_regular(AT_FDCWD, path, O_RDWR | O_CREAT, 0600);
	if (fd < 0 && (errno == EINVAL || errno == ELOOP))
		return errbuf_set(err, "refusing '%s': not a regular file with one link", path);
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
	return srv_instance_lock(s, 0, err) < 0 ? -1 : 0;
}

void srv_instance_unlock(struct srv *s)
{
	if (!s->locked)
		return;
	s->locked = 0;
	for (int i = 0; i < LOCK_MAX; i++)
		if (lock_tab[i].refs > 0 && lock_tab[i].owner == getpid() && same_instance(i, s)) {
			if (--lock_tab[i].refs == 0 && !lock_tab[i].passed)
				close(lock_tab[i].fd); /* releases the flock */
			return;
		}
}
