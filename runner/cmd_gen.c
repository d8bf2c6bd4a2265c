/* SPDX-License-Identifier: MIT */
/* dbt3stab gen: writes the eight dbgen tables, generated in parallel chunks and written in
 * dbgen's row order, as NAME.tbl.tmp renamed to NAME.tbl once complete. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/cli.h"
#include "base/util.h"
#include "dbt3/gen.h"
#include "runner/cmd.h"

#define GEN_THREADS_MAX 64
#define GEN_WINDOW_MAX 16 /* chunks in flight; each holds at most ~5 MiB of rows */

static const char usage_text[] =
    "usage: dbt3stab gen -s SF [-o DIR] [-T TABLES] [-j THREADS] [--stdout]\n"
    "                    [--no-trailing-delimiter] [--quiet]\n"
    "\n"
    "Writes TPC-H dbgen's tables, byte-identical to dbgen -s SF, as DIR/NAME.tbl.\n"
    "\n"
    "  -s, --scale SF              scale factor, 0 < SF <= 100000 (dbgen's rules below 1)\n"
    "  -o, --output DIR            output directory (default: .; created if missing)\n"
    "  -T, --tables LIST           comma-separated tables (default: all): customer,lineitem,\n"
    "                              nation,orders,part,partsupp,region,supplier\n"
    "  -j, --threads N             generating threads (default: online CPUs, at most 64)\n"
    "      --stdout                write the tables to standard output, in the order above\n"
    "      --no-trailing-delimiter rows end without '|' (DBT-3's MySQL build of dbgen)\n"
    "  -q, --quiet                 no progress display\n"
    "  -h, --help                  show this help\n"
    "\n"
    "Files are written as NAME.tbl.tmp and renamed when complete. Memory stays below\n"
    "about 400 MiB at any scale factor (the 300 MiB text pool plus 16 chunks in flight).\n";

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

static volatile sig_atomic_t gen_interrupted;

static void on_signal(int sig)
{
	(void)sig;
	gen_interrupted = 1;
}

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

struct progress {
	int on;
	uint64_t start_ns, last_ns;
	int64_t bytes;
};

static void progress_show(struct progress *pr, const struct gen_run *r, int pi, int64_t done_units,
			  int final)
{
	if (!pr->on)
		return;
	uint64_t now = util_now_ns();
	if (!final && now - pr->last_ns < 200000000ULL)
		return;
	pr->last_ns = now;
	const struct pass *p = &r->passes[pi];
	double secs = (double)(now - pr->start_ns) / 1e9;
	double mbs = secs > 0 ? (double)pr->bytes / 1048576.0 / secs : 0;
	double frac = (double)(r->written) / (double)(r->total_chunks ? r->total_chunks : 1);
	double eta = frac > 0 ? secs / frac - secs : 0;
	char name[32];
	snprintf(name, sizeof(name), "%s%s", gen_table_name(p->t),
		 p->child ? (p->t == GEN_ORDERS ? "+lineitem" : "+partsupp") : "");
	if (final)
		fprintf(stderr, "\r\033[Kgen: %-15s %lld rows  %.0f MB/s  done at %.1fs\n", name,
			(long long)p->units, mbs, secs);
	else
		fprintf(stderr, "\r\033[Kgen: %-15s %lld/%lld rows  %.0f MB/s  ETA %.0fs", name,
			(long long)done_units, (long long)p->units, mbs, eta < 0 ? 0 : eta);
	fflush(stderr);
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
				return errbuf_errno(&r->err, e, "cannot write '%s/%s.tbl.tmp'", dir,
						    gen_table_name(t));
			return errbuf_errno(&r->err, e, "cannot write to standard output");
		}
		p->bytes[k] += (int64_t)s->buf[k].len;
	}
	*pass_out = pi;
	*last_out = last;
	return 0;
}

static int run_chunks(struct gen_run *r, int threads, const char *dir, struct progress *pr)
{
	int rc = 0;
	pthread_t tids[GEN_THREADS_MAX];
	int started = 0;
	r->slots = calloc((size_t)r->window, sizeof(*r->slots));
	if (!r->slots)
		return errbuf_set(&r->err, "out of memory");
	if (threads > 1) {
		for (; started < threads; started++)
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
			if (gen_interrupted)
				break;
			if (chunk_make(r, idx, s, &r->err) < 0) {
				rc = -1;
				break;
			}
		} else {
			pthread_mutex_lock(&r->mu);
			while (!s->ready && !gen_interrupted) {
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
			if (gen_interrupted)
				break;
			if (failed) {
				rc = -1;
				break;
			}
		}
		int pi = 0;
		int64_t last = 0;
		if (chunk_write(r, idx, s, dir, &pi, &last) < 0) {
			rc = -1;
			break;
		}
		pr->bytes += (int64_t)(s->buf[0].len + s->buf[1].len);
		pthread_mutex_lock(&r->mu);
		s->ready = 0;
		r->written = idx + 1;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		progress_show(pr, r, pi, last, last == r->passes[pi].units);
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

/* Fills sel from a comma-separated list; -1 on an unknown name, -2 on an empty list or element. */
static int parse_tables(const char *list, int *sel)
{
	memset(sel, 0, sizeof(int) * GEN_NTABLES);
	const char *p = list;
	for (;;) {
		size_t n = strcspn(p, ",");
		char tok[64];
		if (n == 0)
			return -2;
		if (n >= sizeof(tok))
			return -1;
		memcpy(tok, p, n);
		tok[n] = '\0';
		enum gen_table t;
		if (strcmp(tok, "all") == 0) {
			for (int i = 0; i < GEN_NTABLES; i++)
				sel[i] = 1;
		} else if (gen_table_parse(tok, &t) < 0) {
			return -1;
		} else {
			sel[t] = 1;
		}
		if (p[n] == '\0')
			return 0;
		p += n + 1;
	}
}

static void path_of(char *out, size_t n, const char *dir, enum gen_table t, const char *ext)
{
	snprintf(out, n, "%s/%s.tbl%s", dir, gen_table_name(t), ext);
}

int cmd_gen(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"scale", required_argument, NULL, 's'},
	    {"output", required_argument, NULL, 'o'},
	    {"tables", required_argument, NULL, 'T'},
	    {"threads", required_argument, NULL, 'j'},
	    {"stdout", no_argument, NULL, 'S'},
	    {"no-trailing-delimiter", no_argument, NULL, 'N'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *cmd = "gen";
	const char *sf_arg = NULL, *dir = ".", *tables_arg = NULL;
	long threads = 0;
	int to_stdout = 0, quiet = 0;
	unsigned flags = 0;
	int c;
	cli_getopt_reset();
	while ((c = getopt_long(argc, argv, ":s:o:T:j:qh", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			sf_arg = optarg;
			break;
		case 'o':
			dir = optarg;
			break;
		case 'T':
			tables_arg = optarg;
			break;
		case 'j':
			if (cli_parse_long(optarg, 1, GEN_THREADS_MAX, &threads) < 0)
				return cli_usage_error(
				    cmd, "threads must be an integer from 1 to %d, not '%s'",
				    GEN_THREADS_MAX, optarg);
			break;
		case 'S':
			to_stdout = 1;
			break;
		case 'N':
			flags |= GEN_NO_TRAILING_DELIMITER;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return CLI_OK;
		default:
			return cli_bad_option(cmd, c, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
	if (!sf_arg)
		return cli_usage_error(cmd, "the scale factor is required (-s SF)");
	if (!*dir)
		return cli_usage_error(cmd, "an empty output directory (-o)");
	double sf;
	if (cli_parse_double(sf_arg, 0.0, 100000.0, &sf) < 0 || !(sf > 0))
		return cli_usage_error(
		    cmd, "scale factor must be a number in (0, 100000], not '%s'", sf_arg);
	int sel[GEN_NTABLES];
	for (int i = 0; i < GEN_NTABLES; i++)
		sel[i] = 1;
	int trc = tables_arg ? parse_tables(tables_arg, sel) : 0;
	if (trc == -2 && !*tables_arg)
		return cli_usage_error(cmd, "the table list is empty (-T TABLES)");
	if (trc == -2)
		return cli_usage_error(
		    cmd, "empty table name in '%s' (give names separated by commas)", tables_arg);
	if (trc < 0)
		return cli_usage_error(cmd,
				       "unknown table in '%s' (known: customer, lineitem, nation, "
				       "orders, part, partsupp, region, supplier)",
				       tables_arg);
	if (threads == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		threads = n < 1 ? 1 : n > GEN_THREADS_MAX ? GEN_THREADS_MAX : n;
	}

	/* Open every output first, so that a bad directory fails before the 1 s pool build. */
	int rc = CLI_OK;
	struct pass passes[GEN_NTABLES];
	int npasses = 0;
	int opened[GEN_NTABLES];
	char path[4096], path2[4096];
	for (int i = 0; i < GEN_NTABLES; i++)
		opened[i] = -1;
	if (!to_stdout && util_mkdir_p(dir) < 0) {
		cli_error("cannot create directory '%s': %s", dir, strerror(errno));
		return CLI_USAGE; /* a bad -o, like every bad argument */
	}
	for (int t = 0; t < GEN_NTABLES; t++) {
		if (!sel[t])
			continue;
		if (to_stdout) {
			opened[t] = STDOUT_FILENO;
			continue;
		}
		path_of(path, sizeof(path), dir, (enum gen_table)t, ".tmp");
		opened[t] = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (opened[t] < 0) {
			cli_error("cannot create '%s': %s", path, strerror(errno));
			rc = CLI_FOUND;
			goto cleanup;
		}
	}

	struct errbuf err;
	struct gen_ctx *ctx = NULL;
	struct sigaction sa = {.sa_handler = on_signal}, old_int, old_term;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	gen_interrupted = 0;
	struct progress pr = {.on = !quiet && cli_is_tty(stderr)};
	pr.start_ns = util_now_ns();
	if (pr.on) {
		fprintf(stderr, "gen: building the text pool...");
		fflush(stderr);
	}
	if (gen_ctx_new_threads(&ctx, sf, (int)threads, &err) < 0) {
		if (pr.on)
			fputc('\n', stderr);
		cli_error("%s", err.msg);
		rc = CLI_FOUND;
		goto restore;
	}

	/* Passes in table order; orders+lineitem and part+partsupp share one pass when both go to
	 * files (on stdout each table is written whole, in order). */
	for (int t = 0; t < GEN_NTABLES; t++) {
		if (!sel[t])
			continue;
		int child_of = -1;
		if (!to_stdout && t == GEN_LINEITEM && sel[GEN_ORDERS])
			continue; /* written by the orders pass */
		if (!to_stdout && t == GEN_PARTSUPP && sel[GEN_PART])
			continue;
		if (!to_stdout && t == GEN_ORDERS && sel[GEN_LINEITEM])
			child_of = GEN_LINEITEM;
		if (!to_stdout && t == GEN_PART && sel[GEN_PARTSUPP])
			child_of = GEN_PARTSUPP;
		struct pass *p = &passes[npasses++];
		memset(p, 0, sizeof(*p));
		p->t = (enum gen_table)t;
		p->child = child_of >= 0;
		p->units = gen_rows(ctx, p->t);
		p->per_chunk = chunk_units(p->t, p->child);
		p->nchunks = (p->units + p->per_chunk - 1) / p->per_chunk;
		p->fd[0] = opened[t];
		p->fd[1] = child_of >= 0 ? opened[child_of] : -1;
	}
	struct gen_run run = {.ctx = ctx, .flags = flags, .passes = passes, .npasses = npasses};
	for (int i = 0; i < npasses; i++)
		run.total_chunks += passes[i].nchunks;
	run.window = (int)(2 * threads + 2);
	if (run.window > GEN_WINDOW_MAX)
		run.window = GEN_WINDOW_MAX;
	pthread_mutex_init(&run.mu, NULL);
	pthread_cond_init(&run.cv, NULL);
	if (pr.on)
		fputs("\r\033[K", stderr);
	pr.start_ns = util_now_ns(); /* rates and ETA from here, after the pool build */
	int wrc = run_chunks(&run, (int)threads, to_stdout ? NULL : dir, &pr);
	pthread_mutex_destroy(&run.mu);
	pthread_cond_destroy(&run.cv);
	if (gen_interrupted) {
		if (pr.on)
			fputc('\n', stderr);
		cli_error("interrupted; incomplete .tbl.tmp files removed");
		rc = CLI_INTERRUPTED;
		goto restore;
	}
	if (wrc < 0) {
		if (pr.on)
			fputc('\n', stderr);
		cli_error("%s", run.err.msg);
		rc = CLI_FOUND;
		goto restore;
	}
	/* Close, then rename: a .tbl file only ever appears complete. */
	if (!to_stdout) {
		for (int t = 0; t < GEN_NTABLES; t++) {
			if (opened[t] < 0)
				continue;
			int fd = opened[t];
			opened[t] = -1;
			path_of(path, sizeof(path), dir, (enum gen_table)t, ".tmp");
			if (close(fd) < 0) {
				cli_error("cannot write '%s': %s", path, strerror(errno));
				unlink(path);
				rc = CLI_FOUND;
				continue;
			}
			if (rc != CLI_OK) {
				unlink(path);
				continue;
			}
			path_of(path2, sizeof(path2), dir, (enum gen_table)t, "");
			if (rename(path, path2) < 0) {
				cli_error("cannot rename '%s' to '%s': %s", path, path2,
					  strerror(errno));
				unlink(path);
				rc = CLI_FOUND;
			}
		}
	}
restore:
	gen_ctx_free(ctx);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
cleanup:
	if (!to_stdout) {
		for (int t = 0; t < GEN_NTABLES; t++) {
			if (opened[t] < 0)
				continue;
			close(opened[t]);
			path_of(path, sizeof(path), dir, (enum gen_table)t, ".tmp");
			unlink(path);
		}
	}
	return rc;
}
