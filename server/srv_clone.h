/* SPDX-License-Identifier: MIT */
/* Clones of a stopped instance, one more server on its own copy of the loaded data each (run
 * --side-by-side, docs/run.md): DIR/sbs/K, made by reflink where the filesystem can. */
#ifndef DBT3_SRV_CLONE_H
#define DBT3_SRV_CLONE_H
#include "base/util.h"
#include "base/util_clone.h"
#include <stdint.h>

/* What a clone needs on disk besides its data: the redo log's growth, temporary tables. */
#define SRV_CLONE_MARGIN (UINT64_C(256) << 20)
/* A file in each clone naming the instance it was made from: only such a directory is ever
 * removed or replaced. */
#define SRV_CLONE_MARKER "clone-of"

/* The disk space n clones of a datadir of data_bytes need: with reflinks the margin each, else
 * a copy of the data and the margin each. */
uint64_t srv_clone_need(uint64_t data_bytes, int n, int reflink);

/* The path of clone k of instance instdir, "INSTDIR/sbs/K", into out. 0, or -1 when too long. */
int srv_clone_path(char *out, size_t len, const char *instdir, int k);

/* What side by side needs to know of an instance before it clones it. */
struct srv_clone_survey {
	uint64_t tree_bytes; /* every file of DIR/data (what a copy writes) */
	uint64_t data_bytes; /* its tablespaces (srv_data_bytes), 0: not loaded */
	uint64_t free_bytes; /* free on DIR's filesystem */
	int reflink;	     /* DIR's filesystem makes reflinks (a probe file made and removed) */
};

/* Surveys the instance instdir as the server's user (srv_priv_run): nothing in it is read or
 * made by root. 0, -1 with err, or SRV_CLONE_E_REFUSED when DIR/sbs is a link, no directory or
 * another user's. */
int srv_clone_survey(struct srv_clone_survey *out, const char *instdir, struct errbuf *err);

/* srv_instance_clone's return when the clone's filesystem filled up: what was made is removed
 * and err says, in human units, what is free and what the clone needs. */
#define SRV_CLONE_E_NOSPACE (-2)
/* ... and when DIR/sbs is a symbolic link, no directory or not the server user's: nothing made. */
#define SRV_CLONE_E_REFUSED (-3)

/* Makes dst ("SRC/sbs/K", srv_clone_path) a clone of the stopped instance src: everything inside
 * the instance is done by a child that has become the server's user (srv_priv_run): SRC/sbs
 * (0711) and dst (0700) made and opened without following a link (a link or another user's
 * directory at SRC/sbs is refused), the marker, SRC/data cloned; the files are that user's. A dst
 * an earlier run left (with the marker) is replaced, any other refused; a clone that fails is
 * removed. Root then writes SRC/client.cnf (its passwords, which the cloned accounts keep) into
 * dst with mode 0600, through descriptors. out (may be NULL) says how the files were made. 0, -1,
 * or SRV_CLONE_E_NOSPACE. */
int srv_instance_clone(const char *src, const char *dst, struct util_clone_stats *out,
		       struct errbuf *err);

/* Removes a clone (dst with the marker) as the server's user; 0 also when it does not exist. */
int srv_clone_remove(const char *dst, struct errbuf *err);

#endif
