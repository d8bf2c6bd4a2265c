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
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the command line says. */
struct load_args {
	struct load_opts o;
	struct srv_opts srv;
	int print_schema, quiet, help;
};

static int take_indexes(void *dst, const struct cli_opt *row, const char *arg, struct errbuf *err)
{
	(void)row;
	(void)err;
	return schema_indexes_parse(arg, dst);
}

static const struct cli_opt options[] = {
    CMD_ROW_SCALE(struct load_args, o.sf, 0, "scale factor (default 1)"),
    CLI_ROW_STRING("database", 0, "NAME", struct load_args, o.database,
		   "database to load (default dbt3)"),
    CLI_ROW_ENUM("indexes", "dbt3|keys-only", take_indexes, struct load_args, o.indexes,
		 "dbt3|keys-only",
		 "--indexes takes dbt3 or keys-only, not '%s'",
		 "the DBT-3 secondary indexes, or primary keys alone (default dbt3)"),
    CLI_ROW_STRING("from", 0, "DIR", struct load_args, o.from_dir,
		   "load DIR/<table>.tbl (dbgen files, with or without the trailing '|') instead "
		   "of generating"),
    {.kind = CLI_OPT_INT,
     .name = "jobs",
     .letter = 'j',
     .arg = "N",
     .off = offsetof(struct load_args, o.jobs),
     .min = 1,
     .max = 16,
     .bad = "--jobs takes 1 to 16, not '%s'",
     .help = "parallel connections (default 2)"},
    CLI_ROW_FLAG("force", 0, struct load_args, o.force, "reload even when the fingerprint matches"),
    {.kind = CLI_OPT_UNSET,
     .name = "no-bulk-profile",
     .off = offsetof(struct load_args, o.bulk_profile),
     .help = "do not restart a managed server with the bulk profile"},
    CLI_ROW_FLAG("print-schema", 0, struct load_args, print_schema,
		 "print the schema's SQL (with --indexes) and exit"),
    CLI_ROW_QUIET(struct load_args, quiet, "no progress display"),
    CLI_ROW_HELP(struct load_args, help),
    CMD_SRV_GROUP(struct load_args, srv),
    {.kind = CLI_OPT_END},
};

static void usage(FILE *f)
{
	fputs("usage: dbt3stab load -s SF [options]\n"
	      "\n"
	      "Creates the DBT-3 schema and loads scale factor SF: each table's rows stream from "
	      "the\n"
	      "built-in generator into one LOAD DATA LOCAL INFILE (no files), then its secondary\n"
	      "indexes are built, tables on parallel connections; then persistent statistics,\n"
	      "row-count checks, and last a fingerprint.\n"
	      "A second load of the same data is a no-op. A managed server runs with a bulk-load\n"
	      "profile during the load and is restarted without it before the fingerprint.\n"
	      "\n"
	      "options:\n",
	      f);
	cli_opts_usage(f, options);
	fputs("\nexit: 0 ok, 1 failure, 2 usage, 4 the server failed\n", f);
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

/* 0 with the arguments in a (a->help: usage printed), or a CLI_* code. */
static int parse_args(struct load_args *a, int argc, char **argv)
{
	struct cli_parse p = {.cmd = "load", .base = a};
	int rc = cmd_parse(&p, options, usage, 0, argc, argv);
	a->help = p.help;
	return rc;
}

int cmd_load(int argc, char **argv)
{
	struct load_args a = {0};
	struct load_opts *o = &a.o;
	struct srv_opts *so = &a.srv;
	struct errbuf err;
	struct srv *s = NULL;
	int quiet, rc = CLI_OK;
	load_opts_init(o);
	srv_opts_init(so);
	if ((rc = parse_args(&a, argc, argv)) || a.help)
		goto out;
	quiet = a.quiet;
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
	cmd_srv_say_restored(s);
	if (r == 0 && rep.changed)
		cli_warn("'%s' changed since it was loaded (its content check differs): reloaded",
			 o->database);
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
