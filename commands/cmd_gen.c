/* SPDX-License-Identifier: MIT */
/* dbt3stab gen: writes the eight dbgen tables, generated in parallel chunks and written in
 * dbgen's row order, each to a private temp file renamed to NAME.tbl once complete. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/cli.h"
#include "base/cli_opt.h"
#include "base/progress.h"
#include "base/safe_write.h"
#include "base/sigchain.h"
#include "base/util.h"
#include "commands/cmd.h"
#include "dbt3/gen.h"
#include "dbt3/gen_files.h"
#include "dbt3/gen_refresh.h"

/* What the command line says. */
struct gen_args {
	const char *sf, *dir, *tables;
	long threads, refresh;
	int to_stdout, no_trailing, quiet, help;
};

static const struct cli_opt options[] = {
    CLI_ROW_STRING("scale", 's', "SF", struct gen_args, sf,
		   "scale factor, 0 < SF <= 100000 (dbgen's rules below 1)"),
    CLI_ROW_STRING("output", 'o', "DIR", struct gen_args, dir,
		   "output directory (default: .; created if missing)"),
    CLI_ROW_STRING("tables", 'T', "LIST", struct gen_args, tables,
		   "comma-separated tables (default: all): customer, lineitem, nation, orders, "
		   "part, partsupp, region, supplier"),
    {.kind = CLI_OPT_LONG,
     .name = "threads",
     .letter = 'j',
     .arg = "N",
     .off = offsetof(struct gen_args, threads),
     .min = 1,
     .max = GEN_THREADS_MAX,
     .bad = "threads must be an integer from 1 to 64, not '%s'",
     .help = "generating threads (default: online CPUs, at most 64)"},
    CLI_ROW_FLAG("stdout", 0, struct gen_args, to_stdout,
		 "write the tables to standard output, in the order above"),
    CLI_ROW_NUM(CLI_OPT_LONG, "refresh", "N", struct gen_args, refresh, 1, GEN_REFRESH_SET_MAX,
		"refresh sets must be an integer from 1 to 999, not '%s'",
		"write the refresh sets 1..N (N at most 999), no table"),
    CLI_ROW_FLAG("no-trailing-delimiter", 0, struct gen_args, no_trailing,
		 "rows end without '|' (DBT-3's MySQL build of dbgen)"),
    CLI_ROW_QUIET(struct gen_args, quiet, "no progress display"),
    CLI_ROW_HELP(struct gen_args, help),
    {.kind = CLI_OPT_END},
};

static void usage(FILE *f)
{
	fputs("usage: dbt3stab gen -s SF [-o DIR] [-T TABLES] [-j THREADS] [--stdout]\n"
	      "                    [--no-trailing-delimiter] [--quiet]\n"
	      "       dbt3stab gen -s SF --refresh N [-o DIR] [--no-trailing-delimiter] [--quiet]\n"
	      "\n"
	      "Writes TPC-H dbgen's tables, byte-identical to dbgen -s SF, as DIR/NAME.tbl; with\n"
	      "--refresh N, dbgen -U N's update sets 1..N instead: DIR/orders.tbl.uK and\n"
	      "DIR/lineitem.tbl.uK (the refresh function RF1 inserts them) and DIR/delete.K (the\n"
	      "order keys RF2 deletes), byte-identical to dbgen -s SF -U N.\n"
	      "\n",
	      f);
	cli_opts_usage(f, options);
	fputs(
	    "\n"
	    "Files are written as NAME.tbl.RANDOM.tmp and renamed when complete; an existing\n"
	    "NAME.tbl that is not a regular file is refused. Memory stays below\n"
	    "about 400 MiB at any scale factor (the 300 MiB text pool plus 16 chunks in flight).\n",
	    f);
}

/* The display: one live line per pass, its rate and ETA measured from start_ns. */
struct gen_display {
	struct progress line;
	uint64_t start_ns;
};

/* One line per pass: rows, rate and ETA while it runs (at most five times a second), rows,
 * rate and time when it is done. */
static void show_pass(void *arg, const struct gen_files_progress *p)
{
	struct gen_display *d = arg;
	int final = p->done == p->units;
	uint64_t now = util_now_ns();
	if (!final && !progress_due(&d->line, now))
		return;
	double secs = (double)(now - d->start_ns) / 1e9;
	double mbs = progress_rate((double)p->bytes / 1048576.0, secs);
	double eta = progress_eta(secs, p->fraction);
	char name[32];
	snprintf(name, sizeof(name), "%s%s", gen_table_name(p->t),
		 p->child ? (p->t == GEN_ORDERS ? "+lineitem" : "+partsupp") : "");
	if (final)
		progress_done(&d->line, "gen: %-15s %lld rows  %.0f MB/s  done at %.1fs", name,
			      (long long)p->units, mbs, secs);
	else
		progress_draw(&d->line, now, "gen: %-15s %lld/%lld rows  %.0f MB/s  ETA %.0fs",
			      name, (long long)p->done, (long long)p->units, mbs,
			      isnan(eta) ? 0 : eta);
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

/* DIR/T.tblEXT, or T.tblEXT when dir is NULL. */
static void path_of(char *out, size_t n, const char *dir, enum gen_table t, const char *ext)
{
	snprintf(out, n, "%s%s%s.tbl%s", dir ? dir : "", dir ? "/" : "", gen_table_name(t), ext);
}

/* sel[t] for each table of -T LIST (every table without -T). 0, or a CLI_* code. */
static int select_tables(int *sel, const char *tables_arg)
{
	const char *cmd = "gen";
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
	return 0;
}

/* Opens a private temp file beside DIR/T.tbl for each selected table (or stdout) into outs[t]
 * (base/safe_write.h), before the 1 s pool build, so that a bad directory fails first. 0;
 * CLI_USAGE when DIR cannot be made or a target is no regular file; CLI_IO when a file cannot
 * be created (those opened stay in outs[] for the caller to remove). */
static int open_outputs(struct util_out *outs, int *opened, const int *sel, const char *dir,
			int to_stdout)
{
	char path[4096], name[64];
	struct errbuf err;
	int dfd = -1;
	if (!to_stdout && (dfd = util_outdir_open(dir, 0, NULL, &err)) < 0) {
		cli_error("%s", err.msg);
		return CLI_USAGE; /* a bad -o, like every bad argument */
	}
	for (int t = 0; t < GEN_NTABLES; t++) {
		if (!sel[t])
			continue;
		if (to_stdout) {
			opened[t] = STDOUT_FILENO;
			continue;
		}
		path_of(path, sizeof(path), dir, (enum gen_table)t, "");
		path_of(name, sizeof(name), NULL, (enum gen_table)t, "");
		int bad = util_out_kind_checkat(dfd, name, path, &err) < 0; /* a bad -o */
		if (bad || util_out_openat(&outs[t], dfd, name, path, 0644, &err) < 0) {
			close(dfd);
			cli_error("%s", err.msg);
			return bad ? CLI_USAGE : CLI_IO;
		}
		opened[t] = outs[t].fd;
	}
	if (dfd >= 0)
		close(dfd);
	return 0;
}

/* fsync, close, rename: a .tbl file only ever appears complete. Any after one that failed is
 * removed. CLI_OK, CLI_USAGE (a target became something else than a file) or CLI_IO. */
static int publish_outputs(struct util_out *outs, int *opened)
{
	struct errbuf err;
	int rc = CLI_OK;
	for (int t = 0; t < GEN_NTABLES; t++) {
		if (opened[t] < 0)
			continue;
		opened[t] = -1;
		if (rc != CLI_OK) {
			util_out_abort(&outs[t]);
			continue;
		}
		if (util_out_commit(&outs[t], &err) < 0) {
			cli_error("%s", err.msg);
			rc = CLI_IO;
		}
	}
	return rc;
}

/* Builds the generator and writes the opened tables, then renames the files into place (dir
 * NULL: stdout); SIGINT and SIGTERM stop it between chunks. A CLI_* code. */
static int generate(struct util_out *outs, int *opened, double sf, int threads, unsigned flags,
		    const char *dir, int quiet)
{
	int rc = CLI_OK;
	struct errbuf err;
	struct gen_ctx *ctx = NULL;
	sigchain_push_stop(SIGCHAIN_STOP);
	const volatile sig_atomic_t *stop = sigchain_stop_flag();
	struct gen_display d = {.start_ns = 0};
	progress_init(&d.line, stderr, progress_mode(stderr, quiet) | PROGRESS_KEEP, 200000000ULL);
	progress_draw(&d.line, util_now_ns(), "gen: building the text pool...");
	if (gen_ctx_new_threads(&ctx, sf, threads, &err) < 0) {
		progress_end(&d.line);
		cli_error("%s", err.msg);
		rc = CLI_IO;
		goto restore;
	}

	progress_clear(&d.line);
	d.start_ns = util_now_ns(); /* rates and ETA from here, after the pool build */
	struct gen_files_opts go = {.whole_tables = dir == NULL,
				    .flags = flags,
				    .threads = threads,
				    .dir = dir,
				    .stop = stop,
				    .progress = show_pass,
				    .progress_arg = &d};
	memcpy(go.fd, opened, sizeof(go.fd));
	int wrc = gen_files_write(ctx, &go, &err);
	if (*stop) {
		progress_end(&d.line);
		cli_error("interrupted; incomplete temporary files removed");
		rc = CLI_INTERRUPTED;
		goto restore;
	}
	if (wrc < 0) {
		progress_end(&d.line);
		cli_error("%s", err.msg);
		rc = CLI_IO;
		goto restore;
	}
	if (dir)
		rc = publish_outputs(outs, opened);
restore:
	gen_ctx_free(ctx);
	sigchain_pop_set(SIGCHAIN_STOP);
	return rc;
}

/* Writes the tables of sel into dir (NULL: stdout). A CLI_* code. */
static int write_tables(const int *sel, double sf, int threads, unsigned flags, const char *dir,
			int quiet)
{
	/* Open every output first, so that a bad directory fails before the 1 s pool build. */
	int rc = CLI_OK;
	int opened[GEN_NTABLES];
	struct util_out outs[GEN_NTABLES];
	for (int i = 0; i < GEN_NTABLES; i++) {
		opened[i] = -1;
		outs[i].fd = outs[i].dirfd = -1;
	}
	if ((rc = open_outputs(outs, opened, sel, dir ? dir : ".", dir == NULL)) != 0)
		goto cleanup;
	rc = generate(outs, opened, sf, threads, flags, dir, quiet);
cleanup:
	for (int t = 0; dir && t < GEN_NTABLES; t++)
		util_out_abort(&outs[t]);
	return rc;
}

/* Writes the refresh sets 1..sets into dir (made when missing), one set's three files at a
 * time; SIGINT and SIGTERM stop it between sets. A CLI_* code. */
static int generate_refresh(double sf, int threads, long sets, unsigned flags, const char *dir,
			    int quiet)
{
	struct errbuf err;
	struct gen_ctx *ctx = NULL;
	int dfd = util_outdir_open(dir, 0, NULL, &err);
	if (dfd < 0) {
		cli_error("%s", err.msg);
		return CLI_USAGE;
	}
	sigchain_push_stop(SIGCHAIN_STOP);
	const volatile sig_atomic_t *stop = sigchain_stop_flag();
	struct progress line;
	progress_init(&line, stderr, progress_mode(stderr, quiet) | PROGRESS_KEEP, 200000000ULL);
	progress_draw(&line, util_now_ns(), "gen: building the text pool...");
	int rc = CLI_OK;
	if (gen_ctx_new_threads(&ctx, sf, threads, &err) < 0 ||
	    gen_refresh_check(ctx, sets, &err) < 0) {
		progress_end(&line);
		cli_error("%s", err.msg);
		rc = ctx ? CLI_USAGE : CLI_IO;
		goto restore;
	}
	progress_clear(&line);
	for (long k = 1; k <= sets && rc == CLI_OK; k++) {
		progress_draw(&line, util_now_ns(), "gen: refresh set %ld/%ld", k, sets);
		if (*stop) {
			progress_end(&line);
			cli_error("interrupted after %ld of %ld refresh sets", k - 1, sets);
			rc = CLI_INTERRUPTED;
		} else if (gen_refresh_write(ctx, dfd, dir, k, flags, &err) < 0) {
			progress_end(&line);
			cli_error("%s", err.msg);
			rc = CLI_IO;
		}
	}
	if (rc == CLI_OK)
		progress_done(&line, "gen: %ld refresh sets of %lld orders each", sets,
			      (long long)gen_refresh_rows(ctx));
restore:
	close(dfd);
	gen_ctx_free(ctx);
	sigchain_pop_set(SIGCHAIN_STOP);
	return rc;
}

int cmd_gen(int argc, char **argv)
{
	const char *cmd = "gen";
	struct gen_args a = {.dir = "."};
	struct cli_parse p = {.cmd = cmd, .base = &a};
	int prc = cmd_parse(&p, options, usage, 0, argc, argv);
	if (prc != CLI_OK || p.help)
		return prc;
	const char *sf_arg = a.sf, *dir = a.dir, *tables_arg = a.tables;
	long threads = a.threads, refresh = a.refresh;
	const int to_stdout = a.to_stdout, quiet = a.quiet;
	const unsigned flags = a.no_trailing ? GEN_NO_TRAILING_DELIMITER : 0;
	if (!sf_arg)
		return cli_usage_error(cmd, "the scale factor is required (-s SF)");
	if (!*dir)
		return cli_usage_error(cmd, "an empty output directory (-o)");
	double sf;
	if (cli_parse_double(sf_arg, 0.0, 100000.0, &sf) < 0 || !(sf > 0))
		return cli_usage_error(
		    cmd, "scale factor must be a number in (0, 100000], not '%s'", sf_arg);
	if (refresh && (tables_arg || to_stdout))
		return cli_usage_error(cmd,
				       "--refresh writes no table: -T and --stdout do not apply");
	int sel[GEN_NTABLES];
	int trc = select_tables(sel, tables_arg);
	if (trc)
		return trc;
	if (threads == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		threads = n < 1 ? 1 : n > GEN_THREADS_MAX ? GEN_THREADS_MAX : n;
	}
	if (refresh)
		return generate_refresh(sf, (int)threads, refresh, flags, dir, quiet);
	return write_tables(sel, sf, (int)threads, flags, to_stdout ? NULL : dir, quiet);
}
