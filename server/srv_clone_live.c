/* SPDX-License-Identifier: MIT */
/* The servers of an instance's clones (server/srv_clone_live.h). */
#include "server/srv_clone_live.h"
#include "server/srv_clone.h"
#include "server/srv_int.h"

/* The clone directories: DIR/sbs itself and DIR/sbs/K real directories, not links (a link
 * planted there names no clone of this instance). 1 when clone k is one, 0 when not. */
static int clone_dir(char *out, size_t len, const char *instdir, int k)
{
	struct stat st;
	char sbs[PATHLEN];
	snprintf(sbs, sizeof(sbs), "%s/sbs", instdir);
	if (lstat(sbs, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	if (srv_clone_path(out, len, instdir, k) < 0)
		return 0;
	return lstat(out, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A handle on clone dir with o's options (socket only: a clone's port is its run's). */
static int open_clone(struct srv **out, const struct srv_opts *o, const char *dir,
		      struct errbuf *err)
{
	struct srv_opts co = *o;
	co.datadir = (char *)dir;
	co.port = 0;
	return srv_open(out, &co, err);
}

int srv_clones_list(struct srv_clone_live *out, const struct srv_opts *o, struct errbuf *err)
{
	char inst[PATHLEN - 64];
	int n = 0;
	if (o->external || !o->datadir)
		return 0;
	if (srv_canonical(inst, sizeof(inst), o->datadir) < 0)
		return errbuf_set(err, "bad --datadir '%s'", o->datadir);
	for (int k = 0; k < SRV_CLONES_MAX; k++) {
		struct srv_clone_live *c = &out[n];
		struct srv *s;
		if (!clone_dir(c->dir, sizeof(c->dir), inst, k))
			continue;
		if (open_clone(&s, o, c->dir, err) < 0)
			return -1;
		c->k = k;
		c->pid = srv_pid(s);
		srv_free(s);
		n++;
	}
	return n;
}

int srv_clones_stop(struct srv_clone_live *out, int *out_n, const struct srv_opts *o,
		    struct errbuf *err)
{
	struct srv_clone_live all[SRV_CLONES_MAX];
	*out_n = 0;
	int n = srv_clones_list(all, o, err);
	for (int i = 0; i < n; i++) {
		struct srv *s;
		if (!all[i].pid)
			continue;
		if (open_clone(&s, o, all[i].dir, err) < 0)
			return -1;
		int rc = srv_stop(s, err);
		srv_free(s);
		if (rc < 0)
			return -1;
		out[(*out_n)++] = all[i];
	}
	return n < 0 ? -1 : *out_n;
}

long srv_server_pid(const struct srv_opts *o)
{
	struct srv *s;
	struct errbuf ignored;
	if (o->external || srv_open(&s, o, &ignored) < 0)
		return 0;
	long pid = srv_pid(s);
	srv_free(s);
	return pid;
}
