/* SPDX-License-Identifier: MIT */
/* Writing generated tables to files: chunks of rows made on worker threads, written in order
 * by the calling thread, at most GEN_WINDOW_MAX chunks in flight (each about 2 MiB). */
#ifndef DBT3_GEN_FILES_H
#define DBT3_GEN_FILES_H
#include "base/util.h"
#include "dbt3/gen.h"
#include <signal.h>
#include <stdint.h>

#define GEN_THREADS_MAX 64
#define GEN_WINDOW_MAX 16 /* chunks in flight; each holds at most ~5 MiB of rows */

/* After each chunk written: the pass it belongs to (a table, or orders+lineitem and
 * part+partsupp written together) and how far the whole write is. */
struct gen_files_progress {
	enum gen_table t;
	int child;	     /* the pass writes t's child table too */
	int64_t done, units; /* units of t written, of units */
	int64_t bytes;	     /* written so far, all passes */
	double fraction;     /* chunks written / chunks in all passes */
};

struct gen_files_opts {
	int fd[GEN_NTABLES]; /* where each table goes; -1: not written */
	int whole_tables;    /* each table in one pass, in table order (one stream, stdout) */
	unsigned flags;	     /* enum gen_flags */
	int threads;	     /* 1: no worker thread */
	const char *dir;     /* for messages: "cannot write 'DIR/T.tbl'"; NULL: stdout */
	const volatile sig_atomic_t *stop; /* polled between chunks; nonzero stops the write */
	void (*progress)(void *arg, const struct gen_files_progress *p);
	void *progress_arg;
};

/* Writes the tables of o->fd from ctx. 0 when all is written, 1 when *o->stop ended it early,
 * -1 with err filled. The descriptors stay open. */
int gen_files_write(const struct gen_ctx *ctx, const struct gen_files_opts *o, struct errbuf *err);

#endif
