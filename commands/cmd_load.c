/* SPDX-License-Identifier: MIT */
/* dbt3stab load: create the schema and bulk-load a scale factor. */
#include "base/cli.h"
#include "base/progress.h"
#include "dbt3/load.h"
#include "result/res.h"
#include "commands/cmd.h"
#include "commands/cmd_srv_args.h"
#include "runner/run_load.h"
#include "server/srv.h"
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_DATABASE = 1,
	OPT_INDEXES,
	OPT_FROM,
	OPT_FORCE,
	OPT_NO_BULK,
	OPT_PRINT_SCHEMA,
	OPT_SCALE = 's',
	OPT_JOBS = 'j'
};

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: dbt3stab load -s SF [options]\n"
	    "\n"
	    "Creates the DBT-3 schema and loads scale factor SF: each table's rows stream from "
	    "the\n"
	    "built-in generator into one LOAD DATA LOCAL INFILE (no files), then its secondary\n"
	    "indexes are built, tables on parallel connections; then persistent statistics,\n"
	    "row-count checks, and last a fingerprint.\n"
	    "A second load of the same data is a no-op. A managed server runs with a bulk-load\n"
	    "profile during the load and is restarted without it before the fingerprint.\n"
	    "\n"
	    "options:\n"
	    "  -s, --scale SF           scale factor (default 1)\n"
	    "  --database NAME          database to load (default dbt3)\n"
	    "  --indexes dbt3|keys-only the DBT-3 secondary indexes, or primary keys alone\n"
	    "                           (default dbt3)\n"
	    "  --from DIR               load DIR/<table>.tbl (dbgen files, with or without the\n"
	    "                           trailing '|') instead of generating\n"
	    "  -j, --jobs N             parallel connections (default 2)\n"
	    "  --force                  reload even when the fingerprint matches\n"
	    "  --no-bulk-profile        do not restart a managed server with the bulk profile\n"
	    "  --print-schema           print the schema's SQL (with --indexes) and exit\n"
	    "  -q, --quiet              no progress display\n"
	    "  -h, --help               this help\n"
	    "\n%s"
	    "\nexit: 0 ok, 1 failure, 2 usage, 4 the server failed\n",
	    srv_options_usage);
}

struct display {
	struct progress line; /* the live line keeps its percentages when a line comes below */
	enum load_phase phase;
	int started;
	enum load_stage stage[GEN_NTABLES]; /* last stage printed */
};

/* One line per table when its rows are in and when its indexes are built. */
static void show_stages(struct display *d, const struct load_progress *p)
{
	for (int t = 0; t < GEN_NTABLES; t++) {
		const char *name = gen_table_name((enum gen_table)t);
		if (p->stage[t] > LOAD_STAGE_ROWS && d->stage[t] <= LOAD_STAGE_ROWS)
			progress_note(&d->line, "  %-9s rows in (%.1f s)", name, p->elapsed);
		if (p->stage[t] == LOAD_STAGE_DONE && d->stage[t] != LOAD_STAGE_DONE &&
		    p->indexes_total[t] > 0)
			progress_note(&d->line, "  %-9s %d index%s built (%.1f s)", name,
				      p->indexes_total[t], p->indexes_total[t] == 1 ? "" : "es",
				      p->elapsed);
		d->stage[t] = p->stage[t];
	}
}

/* The live line: each table loading its rows with its percentage, or building its indexes. */
static void show_live(struct display *d, const struct load_progress *p)
{
	char items[512] = "";
	size_t n = 0;
	int any = 0, w = 0;
	for (int t = 0; t < GEN_NTABLES; t++) {
		const char *name = gen_table_name((enum gen_table)t);
		any |= p->stage[t] == LOAD_STAGE_ROWS || p->stage[t] == LOAD_STAGE_INDEXES;
		if (p->stage[t] == LOAD_STAGE_ROWS && p->total[t] > 0)
			w = snprintf(items + n, sizeof(items) - n, " %s %3.0f%%", name,
				     progress_percent(p->done[t], p->total[t]));
		else if (p->stage[t] == LOAD_STAGE_INDEXES)
			w = snprintf(items + n, sizeof(items) - n, " %s indexes", name);
		else
			w = 0;
		if (w > 0 && (size_t)w < sizeof(items) - n)
			n += (size_t)w;
	}
	if (any) /* the loader reports about once a second: every report is drawn */
		progress_draw(&d->line, 0, " %s  %.0f s", items, p->elapsed);
}

static void show(void *arg, const struct load_progress *p)
{
	struct display *d = arg;
	if (!d->started || p->phase != d->phase) {
		d->started = 1;
		d->phase = p->phase;
		memset(d->stage, 0, sizeof(d->stage));
		progress_note(&d->line, "%s...", load_phase_name(p->phase));
	}
	show_stages(d, p);
	show_live(d, p);
}

/* The times at the end: phases, and within the tables phase each table's rows and indexes. */
static void print_report(const struct load_opts *o, const struct load_report *rep)
{
	fprintf(stderr, "loaded scale factor %g into '%s' in %.1f s\n", o->sf, o->database,
		rep->total_seconds);
	for (int p = 0; p < LOAD_NPHASES; p++) {
		fprintf(stderr, "  %-12s %8.1f s\n", load_phase_name((enum load_phase)p),
			rep->phase_seconds[p]);
		if (p != LOAD_PHASE_TABLES)
			continue;
		for (int t = 0; t < GEN_NTABLES; t++)
			fprintf(stderr, "    %-10s rows %6.1f s, indexes %6.1f s\n",
				gen_table_name((enum gen_table)t), rep->rows_seconds[t],
				rep->index_seconds[t]);
	}
	fprintf(stderr, "rows:");
	for (int t = 0; t < GEN_NTABLES; t++)
		fprintf(stderr, " %s=%" PRId64, gen_table_name((enum gen_table)t), rep->fp.rows[t]);
	fputc('\n', stderr);
}

/* The buffer pool the next start gets for the data now loaded; a pool too small is said even
 * with --quiet (docs/server.md, "The buffer pool"). */
static void report_pool(struct srv *s, int quiet)
{
	struct srv_pool p;
	struct errbuf err;
	if (srv_pool_get(s, &p, &err) < 0) {
		cli_warn("cannot size the buffer pool: %s", err.msg);
		return;
	}
	if (!p.fits)
		cli_warn("%s (data %.0f MiB, the rule needs %.0f MiB, the pool is %.0f MiB)",
			 RES_POOL_NOT_FIT, (double)p.data_bytes / 1048576.0,
			 (double)p.need_bytes / 1048576.0, (double)p.pool_bytes / 1048576.0);
	else if (!quiet)
		fprintf(stderr, "buffer pool: %.0f MiB for %.0f MiB of data\n",
			(double)p.pool_bytes / 1048576.0, (double)p.data_bytes / 1048576.0);
}

/* What the command line says. */
struct load_args {
	struct load_opts o;
	struct cmd_srv_args sa; /* the server options, --help, --quiet */
	int print_schema;
};

/* One of load's own options: 0 taken, -1 not one of them, or CLI_USAGE after one line. */
static int own_option(void *ctx, int c, const char *arg)
{
	struct load_args *a = ctx;
	long jobs;
	switch (c) {
	case OPT_SCALE:
		if (cli_parse_double(arg, 1e-6, 100000, &a->o.sf) < 0)
			return cli_usage_error("load", "invalid scale factor '%s'", arg);
		return 0;
	case OPT_DATABASE:
		a->o.database = arg;
		return 0;
	case OPT_INDEXES:
		if (schema_indexes_parse(arg, &a->o.indexes) < 0)
			return cli_usage_error("load",
					       "--indexes takes dbt3 or keys-only, not '%s'", arg);
		return 0;
	case OPT_FROM:
		a->o.from_dir = arg;
		return 0;
	case OPT_JOBS:
		if (cli_parse_long(arg, 1, 16, &jobs) < 0)
			return cli_usage_error("load", "--jobs takes 1 to 16, not '%s'", arg);
		a->o.jobs = (int)jobs;
		return 0;
	case OPT_FORCE:
		a->o.force = 1;
		return 0;
	case OPT_NO_BULK:
		a->o.bulk_profile = 0;
		return 0;
	case OPT_PRINT_SCHEMA:
		a->print_schema = 1;
		return 0;
	default:
		return -1;
	}
}

/* 0 with the arguments in a (a->sa.help: usage printed), or a CLI_* code. */
static int parse_args(struct load_args *a, int argc, char **argv)
{
	static const struct option own[] = {
	    {"scale", required_argument, NULL, OPT_SCALE},
	    {"database", required_argument, NULL, OPT_DATABASE},
	    {"indexes", required_argument, NULL, OPT_INDEXES},
	    {"from", required_argument, NULL, OPT_FROM},
	    {"jobs", required_argument, NULL, OPT_JOBS},
	    {"force", no_argument, NULL, OPT_FORCE},
	    {"no-bulk-profile", no_argument, NULL, OPT_NO_BULK},
	    {"print-schema", no_argument, NULL, OPT_PRINT_SCHEMA},
	    {NULL, 0, NULL, 0},
	};
	int rc = cmd_srv_args_parse(&a->sa, argc, argv, ":s:j:qh", own, own_option, a);
	if (rc != CLI_OK)
		return rc;
	if (a->sa.help) {
		usage(stdout);
		return 0;
	}
	if (optind < argc)
		return cli_usage_error(argv[0], "unexpected argument '%s'", argv[optind]);
	return 0;
}

int cmd_load(int argc, char **argv)
{
	struct load_args a = {0};
	struct load_opts *o = &a.o;
	struct srv_opts *so = &a.sa.srv;
	struct errbuf err;
	struct srv *s = NULL;
	int quiet, rc = CLI_OK;
	load_opts_init(o);
	if ((rc = parse_args(&a, argc, argv)) || a.sa.help)
		goto out;
	quiet = a.sa.quiet;
	if (a.print_schema) {
		char *sql = schema_script(o->indexes);
		if (!sql) {
			cli_error("out of memory");
			rc = CLI_IO;
			goto out;
		}
		fputs(sql, stdout);
		free(sql);
		goto out;
	}
	if (load_check_opts(o, &err) < 0) {
		rc = cli_usage_error(argv[0], "%s", err.msg);
		goto out;
	}
	so->scale = o->sf;
	if (srv_opts_finish(so, &err) < 0) {
		rc = cli_usage_error(argv[0], "%s", err.msg);
		goto out;
	}
	if (srv_open(&s, so, &err) < 0) {
		cli_error("%s", err.msg);
		rc = CLI_SERVER;
		goto out;
	}
	struct display d = {.started = 0};
	progress_init(&d.line, stderr, progress_mode(stderr, quiet) | PROGRESS_KEEP, 0);
	o->progress = show;
	o->progress_arg = &d;
	struct load_report rep;
	int r = run_load(s, o, &rep, &err);
	progress_end(&d.line);
	if (r < 0) {
		cli_error("%s", err.msg);
		rc = r == LOAD_E_SERVER ? CLI_SERVER : CLI_FOUND;
		goto out;
	}
	if (rep.noop) {
		cli_info(
		    quiet,
		    "'%s' already holds scale factor %g (%s indexes, loaded %s): nothing to do "
		    "(--force reloads)",
		    o->database, rep.fp.sf, rep.fp.indexes, rep.fp.loaded_at);
		report_pool(s, quiet);
		goto out;
	}
	if (!quiet)
		print_report(o, &rep);
	report_pool(s, quiet);
out:
	srv_free(s);
	srv_opts_release(so);
	return rc;
}
