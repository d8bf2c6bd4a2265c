/* SPDX-License-Identifier: MIT */
/* Privilege separation: work inside a directory the server's user owns (the instance, its
 * clones, its snapshot) and every exec of a binary a user or a file named runs in a child that
 * has become that user, never in root's process (docs/server.md, "What root does"). */
#ifndef DBT3_SRV_PRIV_H
#define DBT3_SRV_PRIV_H
#include "base/util.h"
#include "server/srv_secure.h"
#include <stddef.h>
#include <sys/types.h>

/* The work done as the server's user: fills out (out_len bytes, zeroed beforehand; may be
 * unused) and returns 0, or -1 with err set. It runs in a forked child: its changes to memory
 * stay there, only out and err come back. */
typedef int (*srv_priv_fn)(void *arg, void *out, struct errbuf *err);

/* Runs fn(arg, out, err) in a forked child that has become id (srv_ident_become; the caller's
 * own identity when id->drop is 0) and waits for it. The child's result, its err message and
 * the out_len bytes it left in out come back through a pipe (out may be NULL when out_len is
 * 0). fn's result, or -1 when the child could not be forked, could not switch user or died
 * (err says which). The child's signals are the default ones: a SIGINT that stops dbt3stab stops
 * it too, and its cleanups are never the parent's. */
int srv_priv_run(const struct srv_ident *id, srv_priv_fn fn, void *arg, void *out, size_t out_len,
		 struct errbuf *err);

/* The first n - 1 bytes of the regular file path (a link or FIFO at its last component refused),
 * read as id: the byte count with buf NUL-terminated, or -1 (buf ""). A file id cannot read,
 * because the path leads through a link id planted to a file of root's, is not read. */
ssize_t srv_priv_read(const struct srv_ident *id, const char *path, char *buf, size_t n);

/* unlink(path) as id: 0, or -1 (errno is not kept). */
int srv_priv_unlink(const struct srv_ident *id, const char *path);

#endif
