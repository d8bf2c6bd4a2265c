/* SPDX-License-Identifier: MIT */
/* The servers of an instance's clones (DIR/sbs/K, run --side-by-side): found and stopped through
 * each clone's own pid file, lock and option file (docs/server.md, "No stray servers"). */
#ifndef DBT3_SRV_CLONE_LIVE_H
#define DBT3_SRV_CLONE_LIVE_H
#include "server/srv.h"

/* The clone numbers looked at: DIR/sbs/0 to DIR/sbs/(SRV_CLONES_MAX - 1). */
#define SRV_CLONES_MAX 16

/* One clone directory of an instance and its server. */
struct srv_clone_live {
	int k;		/* DIR/sbs/K */
	char dir[4200]; /* its path */
	long pid;	/* its server's pid, 0 when none runs */
};

/* The clone directories of the instance o names (a managed one) that exist, with their
 * servers, into out (room for SRV_CLONES_MAX): their count, or -1 (err). Nothing is locked. */
int srv_clones_list(struct srv_clone_live *out, const struct srv_opts *o, struct errbuf *err);

/* Stops the live server of each clone of the instance o names, under that clone's lock (a clone
 * whose dbt3stab still runs refuses: -1, err). out (room for SRV_CLONES_MAX) gets the clones
 * whose server was stopped (pid: the pid it had): their count, or -1 with those stopped before
 * the failure in out and *out_n. */
int srv_clones_stop(struct srv_clone_live *out, int *out_n, const struct srv_opts *o,
		    struct errbuf *err);

/* The pid of the server of the instance o names (a managed one), 0 when none runs or the
 * instance cannot be opened. */
long srv_server_pid(const struct srv_opts *o);

#endif
