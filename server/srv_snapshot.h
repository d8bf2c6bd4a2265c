/* SPDX-License-Identifier: MIT */
/* The snapshot of a stopped instance's data taken before a run changes it (run --refresh):
 * DIR/snapshot, a reflink or copy clone of DIR/data, swapped back in whatever ends the run, or by
 * the next command that opens the instance (docs/server.md, "Snapshot"). */
#ifndef DBT3_SRV_SNAPSHOT_H
#define DBT3_SRV_SNAPSHOT_H
#include "base/util.h"
#include "base/util_clone.h"
#include "server/srv.h"

/* The names inside DIR: the complete snapshot (its presence says the data may have changed),
 * one being made, and the changed data being removed after the swap. */
#define SRV_SNAPSHOT_DIR "snapshot"
#define SRV_SNAPSHOT_PART "snapshot.part"
#define SRV_SNAPSHOT_CHANGED "data.changed"

/* What a take did. */
struct srv_snapshot_info {
	struct util_clone_stats clone; /* how the files were made (reflinks or copies) */
	int restored;		       /* a snapshot an interrupted run left was restored first */
};

/* Takes the snapshot of s's stopped server (the caller holds the instance lock and stopped it):
 * restores one an interrupted run left first, then clones DIR/data to DIR/snapshot.part and
 * renames it DIR/snapshot, all in a child that has become the server's user. The process owns
 * the snapshot from then on (one at a time): its starts leave it alone, and a SIGINT or SIGTERM
 * that ends the process (base/sigchain.h's exit handler) stops the servers and swaps it back. 0, or
 * -1 with err (no room: the clone's size and the free space in human units). */
int srv_snapshot_take(struct srv *s, struct srv_snapshot_info *out, struct errbuf *err);

/* Swaps the snapshot back in with s's server stopped (the caller stopped it): DIR/data renamed
 * DIR/data.changed, DIR/snapshot renamed DIR/data, the changed data removed; a step an
 * interrupted restore left is taken up where it stopped. 1 restored, 0 nothing to restore, -1
 * with err. Callable on its own (the restore `server start` does). */
int srv_snapshot_restore(struct srv *s, struct errbuf *err);

/* Nonzero when DIR holds a snapshot or changed data left to remove (only the names are looked
 * at, never a file's content). */
int srv_snapshot_pending(const struct srv *s);

/* Nonzero when this process owns the snapshot of s's instance (srv_snapshot_take on any handle
 * of it, until srv_snapshot_restore): starts leave it alone. */
int srv_snapshot_owned(const struct srv *s);

/* Nonzero when a start of this handle restored a snapshot an interrupted run left: the command
 * says so. */
int srv_snapshot_restored(const struct srv *s);

#endif
