/* SPDX-License-Identifier: MIT */
/* The chunk scheduler behind gen_files_write (dbt3/gen_files.h). */
#include "dbt3/gen_files.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* One output pass: a table, or orders+lineitem / part+partsupp generated together. */
struct pass {
	enum gen_table t;
	int child; /* also write the child table (lineitem / partsupp) */
	int64_t units;
	int64_t per_chunk;
	int64_t nchunks;
	int fd[2]; /* main, child */
	int64_t bytes[2];
};

struct slot {
	struct gen_buf buf[2];
	int ready;
	int failed;
};

struct gen_run {
	const struct gen_ctx *ctx;
	unsigned flags;
	struct pass *passes;
	int npasses;
	int64_t total_chunks;
	int window;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int64_t next_chunk; /* next chunk to claim (global index) */
	int64_t written;    /* chunks written so far */
	int stop;
	struct slot *slots;
	struct errbuf err;
};

/* Maps a global chunk index to its pass and unit range. */
static void chunk_locate(const struct gen_run *r, int64_t idx, int *pass, int64_t *first,
			 int64_t *last)
{
	int i = 0;
	while (idx >= r->passes[i].nchunks) {
		idx -= r->passes[i].nchunks;
		i++;
	}
	const struct pass *p = &r->passes[i];
	*pass = i;
	*first = idx * p->per_chunk;
	*last = *first + p->per_chunk;
	if (*last > p->units)
		*last = p->units;
}

static int chunk_make(struct gen_run *r, int64_t idx, struct slot *s, struct errbuf *err)
{
	int pi;
	int64_t first, last;
	chunk_locate(r, idx, &pi, &first, &last);
	const struct pass *p = &r->passes[pi];
	return gen_chunk(r->ctx, p->t, first, last, r->flags, &s->buf[0],
			 p->child ? &s->buf[1] : NULL, err);
}

static void *worker(void *arg)
{
	struct gen_run *r = arg;
	struct errbuf err;
	pthread_mutex_lock(&r->mu);
	for (;;) {
		while (!r->stop && r->next_chunk < r->total_chunks &&
		       r->next_chunk >= r->written + r->window)
			pthread_cond_wait(&r->cv, &r->mu);
		if (r->stop || r->next_chunk >= r->total_chunks)
			break;
		int64_t idx = r->next_chunk++;
		struct slot *s = &r->slots[idx % r->window];
		pthread_mutex_unlock(&r->mu);
		int rc = chunk_make(r, idx, s, &err);
		pthread_mutex_lock(&r->mu);
		if (rc < 0 && !s->failed) {
			s->failed = 1;
			r->err = err;
		}
		s->ready = 1;
		pthread_cond_broadcast(&r->cv);
	}
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Writes chunk idx (from slot s) to its pass's files. */
static int chunk_write(struct gen_run *r, int64_t idx, struct slot *s, const char *dir,
		       int *pass_out, int64_t *last_out)
{
	int pi;
	int64_t first, last;
	chunk_locate(r, idx, &pi, &first, &last);
	struct pass *p = &r->passes[pi];
	for (int k = 0; k < 1 + p->child; k++) {
		if (write_all(p->fd[k], s->buf[k].data, s->buf[k].len) < 0) {
			int e = errno;
			enum gen_table t =
			    k ? (p->t == GEN_ORDERS ? GEN_LINEITEM : GEN_PARTSUPP) : p->t;
			if (dir)
				return errbuf_errno(&r->err, e, "cannot write '%s/%s.tbl'", dir,
						    gen_table_name(t));
			return errbuf_errno(&r->err, e, "cannot write to standard output");
		}
		p->bytes[k] += (int64_t)s->buf[k].len;
	}
	*pass_out = pi;
	*last_out = last;
	return 0;
}

static int run_chunks(struct gen_run *r, const struct gen_files_opts *o)
{
	int rc = 0;
	pthread_t tids[GEN_THREADS_MAX];
	int started = 0;
	r->slots = calloc((size_t)r->window, sizeof(*r->slots));
	if (!r->slots)
		return errbuf_set(&r->err, "out of memory");
	int64_t bytes = 0;
	if (o->threads > 1) {
		for (; started < o->threads; started++)
			if (pthread_create(&tids[started], NULL, worker, r) != 0)
				break;
		if (started == 0) {
			rc = errbuf_set(&r->err, "cannot start generator threads");
			goto out;
		}
	}
	for (int64_t idx = 0; idx < r->total_chunks; idx++) {
		struct slot *s = &r->slots[idx % r->window];
		if (started == 0) {
			if (*o->stop)
				break;
			if (chunk_make(r, idx, s, &r->err) < 0) {
				rc = -1;
				break;
			}
		} else {
			pthread_mutex_lock(&r->mu);
			while (!s->ready && !*o->stop) {
				/* timed, so that a signal is noticed even without a wake-up */
				struct timespec ts;
				clock_gettime(CLOCK_REALTIME, &ts);
				ts.tv_nsec += 100000000L;
				if (ts.tv_nsec >= 1000000000L) {
					ts.tv_sec++;
					ts.tv_nsec -= 1000000000L;
				}
				pthread_cond_timedwait(&r->cv, &r->mu, &ts);
			}
			int failed = s->failed;
			pthread_mutex_unlock(&r->mu);
			if (*o->stop)
				break;
			if (failed) {
				rc = -1;
				break;
			}
		}
		int pi = 0;
		int64_t last = 0;
		if (chunk_write(r, idx, s, o->dir, &pi, &last) < 0) {
			rc = -1;
			break;
		}
		bytes += (int64_t)(s->buf[0].len + s->buf[1].len);
		pthread_mutex_lock(&r->mu);
		s->ready = 0;
		r->written = idx + 1;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		if (o->progress) {
			const struct pass *p = &r->passes[pi];
			struct gen_files_progress gp = {
			    p->t,     p->child, last,
			    p->units, bytes,	(double)r->written / (double)r->total_chunks};
			o->progress(o->progress_arg, &gp);
		}
	}
out:
	pthread_mutex_lock(&r->mu);
	r->stop = 1;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	for (int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	for (int i = 0; i < r->window; i++) {
		gen_buf_release(&r->slots[i].buf[0]);
		gen_buf_release(&r->slots[i].buf[1]);
	}
	free(r->slots);
	r->slots = NULL;
	return rc;
}

/* Units per chunk: about 2 MiB of rows. */
static int64_t chunk_units(enum gen_table t, int child)
{
	switch (t) {
	case GEN_ORDERS:
		return child ? 4096 : 16384;
	case GEN_LINEITEM:
		return 4096;
	case GEN_PART:
		return child ? 4096 : 16384;
	case GEN_PARTSUPP:
		return 4096;
	default:
		return 16384;
	}
}

/* Passes in table order; orders+lineitem and part+partsupp share one pass unless every table is
 * written whole. Returns the number of passes. */
static int make_passes(struct pass *passes, const struct gen_ctx *ctx,
		       const struct gen_files_opts *o)
{
	int npasses = 0;
	const int *fd = o->fd;
	int whole = o->whole_tables;
	for (int t = 0; t < GEN_NTABLES; t++) {
		if (fd[t] < 0)
			continue;
		int child_of = -1;
		if (!whole && t == GEN_LINEITEM && fd[GEN_ORDERS] >= 0)
			continue; /* written by the orders pass */
		if (!whole && t == GEN_PARTSUPP && fd[GEN_PART] >= 0)
			continue;
		if (!whole && t == GEN_ORDERS && fd[GEN_LINEITEM] >= 0)
			child_of = GEN_LINEITEM;
		if (!whole && t == GEN_PART && fd[GEN_PARTSUPP] >= 0)
			child_of = GEN_PARTSUPP;
		struct pass *p = &passes[npasses++];
		memset(p, 0, sizeof(*p));
		p->t = (enum gen_table)t;
		p->child = child_of >= 0;
		p->units = gen_rows(ctx, p->t);
		p->per_chunk = chunk_units(p->t, p->child);
		p->nchunks = (p->units + p->per_chunk - 1) / p->per_chunk;
		p->fd[0] = fd[t];
		p->fd[1] = child_of >= 0 ? fd[child_of] : -1;
	}
	return npasses;
}

int gen_files_write(const struct gen_ctx *ctx, const struct gen_files_opts *o, struct errbuf *err)
{
	struct pass passes[GEN_NTABLES];
	int npasses = make_passes(passes, ctx, o);
	struct gen_run run = {.ctx = ctx, .flags = o->flags, .passes = passes, .npasses = npasses};
	for (int i = 0; i < npasses; i++)
		run.total_chunks += passes[i].nchunks;
	run.window = 2 * o->threads + 2;
	if (run.window > GEN_WINDOW_MAX)
		run.window = GEN_WINDOW_MAX;
	pthread_mutex_init(&run.mu, NULL);
	pthread_cond_init(&run.cv, NULL);
	int rc = run_chunks(&run, o);
	pthread_mutex_destroy(&run.mu);
	pthread_cond_destroy(&run.cv);
	if (*o->stop)
		return 1;
	if (rc < 0) {
		*err = run.err;
		return -1;
	}
	return 0;
}
