/* SPDX-License-Identifier: MIT */
/* The data snapshot of a refresh run (server/srv_snapshot.h). Every step inside DIR runs in a
 * child that has become the server's user; root only looks whether the names exist. */
#include "server/srv_snapshot.h"
#include "base/sigchain.h"
#include "server/srv_int.h"
#include "server/srv_priv.h"
#include <signal.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* Room a copy needs besides the data's own size: the redo log's growth, temporary files. */
#define SNAP_MARGIN (UINT64_C(64) << 20)

struct snap_paths {
	char inst[PATHLEN], data[PATHLEN], snap[PATHLEN], part[PATHLEN], changed[PATHLEN];
};

static int paths_of(struct snap_paths *p, const struct srv *s)
{
	int n = snprintf(p->inst, sizeof(p->inst), "%s", s->instdir);
	n |= snprintf(p->data, sizeof(p->data), "%s", s->datadir);
	int k = snprintf(p->snap, sizeof(p->snap), "%s/" SRV_SNAPSHOT_DIR, s->instdir);
	k |= snprintf(p->part, sizeof(p->part), "%s/" SRV_SNAPSHOT_PART, s->instdir);
	k |= snprintf(p->changed, sizeof(p->changed), "%s/" SRV_SNAPSHOT_CHANGED, s->instdir);
	return n < 0 || k < 0 || strlen(s->instdir) + 32 >= PATHLEN ? -1 : 0;
}

/* The swap, with async-signal-safe calls only (the exit handler's child runs it too): 1 when
 * the snapshot is back in DIR/data, 0 when there was none, -1 with errno. Each step can be taken
 * again after an interruption: DIR/snapshot present means not done yet, and a DIR/data already
 * renamed away is not renamed again. */
static int swap_back(const struct snap_paths *p)
{
	struct stat st;
	if (lstat(p->snap, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	if (rename(p->data, p->changed) < 0 && errno != ENOENT)
		return -1;
	if (rename(p->snap, p->data) < 0)
		return errno == ENOENT ? 0 : -1;
	return 1;
}

/* ---- in the child, as the server's user ---- */

struct take_out {
	struct util_clone_stats clone;
	int restored;
};

/* The swap and the removal of the changed data; SIGINT and SIGTERM blocked meanwhile, so that a
 * signal to the process group never leaves the swap half done. */
static int restore_fn(void *arg, void *out, struct errbuf *err)
{
	const struct snap_paths *p = arg;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	int rc = swap_back(p);
	if (rc < 0)
		return errbuf_errno(err, errno, "cannot restore '%s' from '%s'", p->data, p->snap);
	*(int *)out = rc;
	return util_tree_remove(p->changed, err);
}

static int take_fn(void *arg, void *out, struct errbuf *err)
{
	const struct snap_paths *p = arg;
	struct take_out *o = out;
	if (restore_fn(arg, &o->restored, err) < 0 || util_tree_remove(p->part, err) < 0)
		return -1;
	uint64_t bytes = 0, avail = 0;
	int reflink = util_reflink_works(p->inst);
	if (util_tree_bytes(p->data, &bytes, err) < 0 || util_free_bytes(p->inst, &avail, err) < 0)
		return -1;
	uint64_t need = (reflink ? 0 : bytes) + SNAP_MARGIN;
	if (avail < need)
		return errbuf_set(err,
				  "no room for the snapshot of '%s' (%.3g GiB, by copy): '%s' has "
				  "%.3g GiB free",
				  p->data, (double)bytes / 1073741824.0, p->inst,
				  (double)avail / 1073741824.0);
	if (util_tree_clone(p->data, p->part, &o->clone, err) < 0) {
		struct errbuf ignored;
		util_tree_remove(p->part, &ignored);
		return -1;
	}
	if (rename(p->part, p->snap) < 0)
		return errbuf_errno(err, errno, "cannot rename '%s' to '%s'", p->part, p->snap);
	return 0;
}

/* ---- the exit handler's restore ----
 * The module's one global state, like the server registry's: what a signal that ends the
 * process needs to swap the snapshot back, prepared before the data can change. */
static struct snap_paths sig_paths;
static struct srv_ident sig_id;
static volatile sig_atomic_t sig_armed;
static atomic_int sig_claim; /* 1 while a restore runs: the handler's or the normal path's */
static int sig_installed;

/* In the handler's child: the switch of user by system calls alone (no lock glibc could hold). */
static int become_raw(const struct srv_ident *id)
{
	if (!id->drop)
		return 0;
	gid_t g = id->gid;
	if (syscall(SYS_setgroups, 1, &g) < 0 || syscall(SYS_setresgid, g, g, g) < 0 ||
	    syscall(SYS_setresuid, id->uid, id->uid, id->uid) < 0)
		return -1;
	return 0;
}

static pid_t fork_safe(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
	return _Fork(); /* async-signal-safe: no atfork handlers, no locks */
#else
	return fork();
#endif
}

/* The cleanup the exit handler runs: the servers stopped, then the swap in a child that has
 * become the server's user; the changed data is removed by the next command. */
static void snapshot_on_exit(void)
{
	if (!sig_armed || atomic_exchange(&sig_claim, 1))
		return;
	int saved = errno;
	srv_stop_registered();
	pid_t pid = fork_safe();
	if (pid == 0)
		_exit(become_raw(&sig_id) < 0 || swap_back(&sig_paths) < 0 ? 1 : 0);
	while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	sig_armed = 0;
	errno = saved;
}

/* ---- the API ---- */

int srv_snapshot_pending(const struct srv *s)
{
	struct snap_paths p;
	struct stat st;
	if (s->external || paths_of(&p, s) < 0)
		return 0;
	return lstat(p.snap, &st) == 0 || lstat(p.changed, &st) == 0;
}

int srv_snapshot_owned(const struct srv *s)
{
	return sig_armed && !s->external && strcmp(sig_paths.inst, s->instdir) == 0;
}

int srv_snapshot_restored(const struct srv *s)
{
	return s->snap_restored;
}

int srv_snapshot_take(struct srv *s, struct srv_snapshot_info *out, struct errbuf *err)
{
	struct take_out o;
	memset(out, 0, sizeof(*out));
	if (s->external)
		return errbuf_set(err, "cannot take a snapshot of an external server");
	if (sig_armed)
		return errbuf_set(err, "this process already has a snapshot, of '%s'",
				  sig_paths.inst);
	if (srv_need_ident(s, err) < 0)
		return -1;
	if (paths_of(&sig_paths, s) < 0)
		return errbuf_set(err, "instance path too long: '%s'", s->instdir);
	sig_id = s->ident;
	if (!sig_installed && sigchain_cleanup_add(snapshot_on_exit) < 0)
		return errbuf_set(err, "cannot register the snapshot's restore");
	sig_installed = 1;
	if (srv_priv_run(&s->ident, take_fn, &sig_paths, &o, sizeof(o), err) < 0)
		return -1;
	out->clone = o.clone;
	out->restored = o.restored;
	s->snap_restored |= o.restored;
	atomic_store(&sig_claim, 0);
	sig_armed = 1;
	return 0;
}

int srv_snapshot_restore(struct srv *s, struct errbuf *err)
{
	struct snap_paths p;
	int restored = 0;
	if (s->external || !srv_snapshot_pending(s))
		return 0;
	if (srv_need_ident(s, err) < 0)
		return -1;
	if (paths_of(&p, s) < 0)
		return errbuf_set(err, "instance path too long: '%s'", s->instdir);
	int owned = srv_snapshot_owned(s);
	if (owned && atomic_exchange(&sig_claim, 1))
		return 0; /* the exit handler swaps it back, and the process ends */
	int rc = srv_priv_run(&s->ident, restore_fn, &p, &restored, sizeof(restored), err);
	if (owned) {
		sig_armed = 0;
		atomic_store(&sig_claim, 0);
	}
	if (rc < 0)
		return -1;
	if (!owned)
		s->snap_restored |= restored;
	return restored;
}
