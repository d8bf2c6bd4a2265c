/* SPDX-License-Identifier: MIT */
/* dbt3stab history: the nightly results store, change points across builds, the trend page. */
#include "base/cli.h"
#include "base/text.h"
#include "commands/cmd.h"
#include "commands/cmd_describe.h"
#include "commands/cmd_output.h"
#include "commands/cmd_stat_opts.h"
#include "history/hist.h"
#include "reports/rpt.h"
#include "reports/rpt_history.h"
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct hargs {
	const char *db, *build_id, *label, *series, *since, *format, *output;
	struct hist_detect_opts det;
	int quiet, help;
	char **rest;
	int n_rest;
};

#define OFF(m) offsetof(struct hargs, m)

static const struct cli_opt options[] = {
    CLI_ROW_STRING("db", 0, "LOCATION", struct hargs, db,
		   "the store: a SQLite file (default $DBT3STAB_HOME/history.sqlite) or "
		   "mysql://[USER@]HOST[:PORT]/DATABASE[?socket=PATH&option-file=PATH] (password "
		   "from MYSQL_PWD or an option file)"),
    CLI_ROW_STRING("build-id", 0, "TEXT", struct hargs, build_id,
		   "add, import: the build measured (default: server version and binary SHA-256)"),
    CLI_ROW_STRING("label", 0, "TEXT", struct hargs, label,
		   "add, import: a label stored with the result"),
    CLI_ROW_STRING("series", 0, "ID", struct hargs, series,
		   "list, export, check, report: one series (a prefix of its id)"),
    CLI_ROW_STRING("since", 0, "DATE", struct hargs, since,
		   "check, report: results started on or after DATE"),
    CLI_ROW_NUM(CLI_OPT_FRACTION, "min-effect", "E", struct hargs, det.min_effect, -1,
		CMD_MIN_EFFECT_MAX, CMD_MIN_EFFECT_BAD,
		"check, report: smallest shift that is a change point and that the newest verdict "
		"flags, e.g. 2% (default) or 0.02"),
    CLI_ROW_NUM(CLI_OPT_DOUBLE, "max-p", "P", struct hargs, det.max_p, 1e-300, 0.5,
		"bad --max-p '%s' (0 < P <= 0.5)",
		"check, report: p below which a split is a change point (default 0.001)"),
    CLI_ROW_NUM(CLI_OPT_SIZE, "min-size", "N", struct hargs, det.min_size, 2, 1000,
		"bad --min-size '%s' (2 to 1000)",
		"check, report: results on each side of a change point (default 3)"),
    CLI_ROW_NUM(CLI_OPT_DOUBLE, "alpha", "A", struct hargs, det.alpha, 1e-12, 0.5, CMD_ALPHA_BAD,
		"check, report: CI level 1-A and level of the newest verdict, Bonferroni over the "
		"queries (default 0.05)"),
    {.kind = CLI_OPT_STRING,
     .name = "format",
     .arg = "F",
     .off = offsetof(struct hargs, format),
     .values = "csv|json|text|markdown|junit|html",
     .help = "export: csv (default) or json; check: text (default), markdown, json, junit "
	     "or html"},
    CLI_ROW_STRING("output", 'o', "FILE", struct hargs, output,
		   "write to FILE instead of standard output"),
    CLI_ROW_QUIET(struct hargs, quiet, "no progress lines on standard error"),
    CLI_ROW_HELP(struct hargs, help),
    {.kind = CLI_OPT_END},
};

static void usage(FILE *f)
{
	fputs("usage: dbt3stab history <command> [options]\n"
	      "\n"
	      "Stores result files and looks for change points across builds (docs/history.md).\n"
	      "\n"
	      "commands:\n"
	      "  add RESULT.json|DIR...  store results (a file already stored is skipped)\n"
	      "  import DIR...           store every *.json under DIR, recursively\n"
	      "  list                    the series; with --series, the results of one\n"
	      "  show ID                 one stored result\n"
	      "  export                  one row per restart mean (--format csv or json)\n"
	      "  remove ID               delete one stored result\n"
	      "  check                   change points and the newest result's verdict per query\n"
	      "  report                  the HTML trend page (-o FILE)\n"
	      "\n",
	      f);
	cli_opts_usage(f, options);
	fputs("\n"
	      "exit: 0 ok (check: no query's newest result starts a regression), 1 check: the\n"
	      "      newest result starts a regression in a query, 2 usage or input error (a file\n"
	      "      that fails validation, an unknown id or series, a store that cannot be\n"
	      "      reached or is not a database)\n",
	      f);
}

/* --series: hex digits of a series id; --since: a date or time as started_at is written
 * (YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ), compared as text. */
static int check_filters(const struct hargs *a)
{
	if (a->series && (!a->series[0] || strlen(a->series) > 16 ||
			  strspn(a->series, "0123456789abcdef") != strlen(a->series)))
		return cli_usage_error(
		    "history",
		    "bad --series '%s' (hex digits of a series id, see 'dbt3stab "
		    "history list')",
		    a->series);
	if (a->since) {
		static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
		size_t n = strlen(a->since);
		int ok = n == 10 || (n > 10 && n <= sizeof(shape) - 1);
		for (size_t i = 0; ok && i < n; i++)
			ok = shape[i] == 'd' ? a->since[i] >= '0' && a->since[i] <= '9'
					     : a->since[i] == shape[i];
		if (!ok)
			return cli_usage_error(
			    "history",
			    "bad --since '%s' (a UTC date or time: YYYY-MM-DD or "
			    "YYYY-MM-DDThh:mm:ssZ)",
			    a->since);
	}
	return 0;
}

static int parse_args(struct hargs *a, int argc, char **argv, int *help)
{
	struct cli_parse p = {.cmd = "history", .base = a};
	memset(a, 0, sizeof(*a));
	hist_detect_opts_init(&a->det);
	int rc = cmd_parse(&p, options, usage, -1, argc, argv);
	*help = p.help;
	if (rc != CLI_OK || p.help)
		return rc;
	a->rest = argv + p.next;
	a->n_rest = argc - p.next;
	return check_filters(a);
}

/* add, import and remove write; the others open the store read-only (F8). */
static int open_store(struct hist_store **out, const struct hargs *a, int write)
{
	struct errbuf err = {""};
	if ((write ? hist_store_open(out, a->db, &err) : hist_store_open_read(out, a->db, &err)) <
	    0) {
		cli_error("%s", err.msg);
		return -1;
	}
	return 0;
}

static int check_output(const struct hargs *a)
{
	return cmd_output_check(a->output, &a->db, 1) == CLI_OK ? 0 : -1;
}

/* ---- add, import ---- */

static int add_one(struct hist_store *st, const struct hargs *a, const char *path)
{
	struct errbuf err = {""};
	long long id = 0;
	enum hist_add_status status;
	if (hist_store_add(st, path, a->build_id, a->label, &id, &status, &err) < 0) {
		cli_error("%s", err.msg);
		return CLI_USAGE;
	}
	if (!a->quiet)
		fprintf(stderr,
			status == HIST_ADDED ? "added '%s' as result %lld\n"
					     : "'%s' is already stored as result %lld\n",
			path, id);
	return CLI_OK;
}

static int name_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

/* Every *.json under dir, in name order, recursively; *found counts the files tried. */
static int add_dir(struct hist_store *st, const struct hargs *a, const char *dir, size_t *found)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;
	int rc = CLI_OK;
	if (!d) {
		cli_error("cannot open directory '%s': %s", dir, strerror(errno));
		return CLI_USAGE;
	}
	while ((e = readdir(d))) {
		char **p;
		if (e->d_name[0] == '.' || !(p = realloc(names, (n + 1) * sizeof(*p))))
			continue;
		names = p;
		if (asprintf(&names[n], "%s/%s", dir, e->d_name) >= 0)
			n++;
	}
	closedir(d);
	if (n > 1) /* qsort's base may not be NULL, as it is for an empty directory */
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		struct stat sb;
		int r = CLI_OK;
		if (lstat(names[i], &sb) == 0 && S_ISDIR(sb.st_mode)) /* symlinks not followed */
			r = add_dir(st, a, names[i], found);
		else if (ends_with(names[i], ".json")) {
			r = add_one(st, a, names[i]);
			(*found)++;
		}
		if (r != CLI_OK)
			rc = r;
		free(names[i]);
	}
	free(names);
	return rc;
}

/* add, import: the operands check_inputs let through (there, and directories for import). */
static int run_add(struct hist_store *st, const struct hargs *a, int dirs_only)
{
	int rc = CLI_OK;
	(void)dirs_only;
	for (int i = 0; i < a->n_rest; i++) {
		struct stat sb;
		int is_dir = stat(a->rest[i], &sb) == 0 && S_ISDIR(sb.st_mode), r;
		size_t found = 0;
		if (!is_dir)
			r = add_one(st, a, a->rest[i]);
		else if ((r = add_dir(st, a, a->rest[i], &found)) == CLI_OK && found == 0) {
			/* a nightly job pointed at the wrong place must not pass silently */
			cli_error("no result files (*.json) under '%s'", a->rest[i]);
			r = CLI_USAGE;
		}
		if (r != CLI_OK)
			rc = r;
	}
	return rc;
}

/* add, import: each operand is there (and a directory for import) before the store is opened,
 * which makes it when it is new. CLI_OK or CLI_USAGE after one line. */
static int check_inputs(const struct hargs *a, int dirs_only)
{
	if (a->n_rest == 0)
		return cli_usage_error("history",
				       dirs_only ? "import: expected a directory"
						 : "add: expected result files or directories");
	for (int i = 0; i < a->n_rest; i++) {
		struct stat sb;
		if (stat(a->rest[i], &sb) < 0) {
			cli_error("cannot open '%s': %s", a->rest[i], strerror(errno));
			return CLI_USAGE;
		}
		if (dirs_only && !S_ISDIR(sb.st_mode))
			return cli_usage_error("history", "import: '%s' is not a directory",
					       a->rest[i]);
	}
	return CLI_OK;
}

/* ---- list, show, remove ---- */

/* The series whose id starts with --series (all without it) into *out, n of them. CLI_OK, or
 * CLI_USAGE after one line. */
static int series_of(struct hist_series_info **out, size_t *n, struct hist_store *st,
		     const struct hargs *a)
{
	struct errbuf err = {""};
	*out = NULL;
	*n = 0;
	if (hist_store_series(out, n, st, a->series, &err) < 0) {
		cli_error("%s", err.msg);
		return CLI_USAGE;
	}
	return CLI_OK;
}

static int run_list(struct hist_store *st, const struct hargs *a, int arg)
{
	(void)arg;
	struct errbuf err = {""};
	struct hist_series_info *s;
	size_t n;
	if (series_of(&s, &n, st, a) != CLI_OK)
		return CLI_USAGE;
	if (a->series && n == 0) {
		cli_error("unknown series '%s' (see 'dbt3stab history list')", a->series);
		return CLI_USAGE;
	}
	char b[4][256];
	for (size_t i = 0; i < n; i++) {
		printf("%s  %-16s SF %-6g %-8s %lld result%s %s .. %s\n    dataset %s, %s\n",
		       s[i].id, util_term(b[0], 256, s[i].host), s[i].scale_factor,
		       util_term(b[1], 256, s[i].flavour), s[i].n_results,
		       s[i].n_results == 1 ? " " : "s", s[i].first_at, s[i].last_at,
		       s[i].fingerprint ? util_term(b[2], 256, s[i].fingerprint)
					: "(no fingerprint)",
		       util_term(b[3], 256, s[i].protocol));
		if (!a->series)
			continue;
		struct hist_result_info *r = NULL;
		size_t nr = 0;
		if (hist_store_results(&r, &nr, st, s[i].id, &err) < 0) {
			cli_error("%s", err.msg);
			hist_series_info_free(s, n);
			return CLI_USAGE;
		}
		for (size_t k = 0; k < nr; k++)
			printf("  %6lld  %s  %s%s%s\n", r[k].id, r[k].started_at,
			       r[k].build_id ? util_term(b[0], 256, r[k].build_id) : "-",
			       r[k].label ? "  " : "", util_term(b[1], 256, r[k].label));
		hist_result_infos_free(r, nr);
	}
	if (n == 0 && !a->quiet)
		fprintf(stderr, "the history store holds no results\n");
	hist_series_info_free(s, n);
	return CLI_OK;
}

static int parse_id(const struct hargs *a, const char *what, long long *out)
{
	long v;
	if (a->n_rest != 1)
		return cli_usage_error("history", "%s: expected one result id", what);
	if (cli_parse_long(a->rest[0], 1, 0x7fffffffL, &v) < 0)
		return cli_usage_error("history", "%s: bad result id '%s'", what, a->rest[0]);
	*out = v;
	return 0;
}

static void show_queries(const char *json)
{
	struct res_file *res = NULL;
	struct errbuf err;
	if (res_file_parse(&res, json, strlen(json), "stored result", &err) < 0) {
		printf("(the stored file does not parse: %s)\n", err.msg);
		return;
	}
	printf("\nquery  restarts ok  geometric mean of restart means (ms)\n");
	for (size_t q = 0; q < res->n_queries; q++) {
		const struct res_query *rq = &res->queries[q];
		size_t ok = 0;
		double s = 0;
		for (size_t r = 0; r < rq->n_restarts; r++) {
			const struct res_restart *rr = &rq->restarts[r];
			double sum = 0;
			if (rr->status != RES_STATUS_OK || !rr->n_measured)
				continue;
			for (size_t k = 0; k < rr->n_measured; k++)
				sum += rr->measured_ms[k];
			s += log(sum / (double)rr->n_measured);
			ok++;
		}
		printf("%-6s %zu/%-9zu %.3f\n", rq->id, ok, rq->n_restarts,
		       ok ? exp(s / (double)ok) : NAN);
	}
	res_file_free(res);
}

static int run_show(struct hist_store *st, const struct hargs *a, int arg)
{
	(void)arg;
	struct errbuf err = {""};
	struct hist_result_info r;
	char *json = NULL;
	long long id = 0;
	if (parse_id(a, "show", &id) != 0)
		return CLI_USAGE;
	if (hist_store_result(&r, &json, st, id, &err) != 0) {
		cli_error("%s", err.msg);
		return CLI_USAGE;
	}
	char b[8]
	      [256]; /* what a result file or --label/--build-id brought: escaped (base/text.h) */
	printf("result      %lld\nseries      %s\nstarted_at  %s\nfinished_at %s\nadded_at    %s\n"
	       "build_id    %s\nlabel       %s\nhost        %s\nserver      %s %s (binary %s)\n"
	       "dataset     SF %g, %s\nprotocol    %s\nvariant     %s\nsha256      %s\n",
	       r.id, r.series_id, util_term(b[0], 256, r.started_at),
	       r.finished_at ? util_term(b[1], 256, r.finished_at) : "-", r.added_at,
	       r.build_id ? util_term(b[2], 256, r.build_id) : "-",
	       r.label ? util_term(b[3], 256, r.label) : "-", util_term(b[4], 256, r.host),
	       util_term(b[5], 256, r.flavour),
	       r.server_version ? util_term(b[6], 256, r.server_version) : "?",
	       r.binary_sha256 ? r.binary_sha256 : "?", r.scale_factor,
	       r.fingerprint ? r.fingerprint : "(no fingerprint)", util_term(b[7], 256, r.protocol),
	       r.variant ? r.variant : "-", r.sha256);
	show_queries(json);
	free(json);
	hist_result_info_release(&r);
	return CLI_OK;
}

static int run_remove(struct hist_store *st, const struct hargs *a, int arg)
{
	(void)arg;
	struct errbuf err = {""};
	long long id = 0;
	if (parse_id(a, "remove", &id) != 0)
		return CLI_USAGE;
	if (hist_store_remove(st, id, &err) != 0) {
		cli_error("%s", err.msg);
		return CLI_USAGE;
	}
	if (!a->quiet)
		fprintf(stderr, "removed result %lld\n", id);
	return CLI_OK;
}

/* ---- export ---- */

struct export_out {
	FILE *f;
	int json;
	json_t *rows;
};

/* One CSV field: text from the store with its control characters made visible as util_term
 * does it (base/text.h: no raw ESC reaches a terminal or a spreadsheet), quoted when it holds a
 * comma or a quote. */
static void csv_field(FILE *f, const char *s)
{
	char *t = NULL;
	size_t n = 0;
	FILE *m;
	if (!s)
		return;
	if (!(m = open_memstream(&t, &n)))
		return;
	util_term_fputs(m, s, 0);
	if (fclose(m) != 0 || !t) {
		free(t);
		return;
	}
	if (!strpbrk(t, ",\"")) {
		fputs(t, f);
		free(t);
		return;
	}
	fputc('"', f);
	for (const char *p = t; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
	free(t);
}

static int export_row(void *ctx, const char *const *cols, size_t n)
{
	struct export_out *e = ctx;
	if (!e->json) {
		for (size_t i = 0; i < n; i++) {
			if (i)
				fputc(',', e->f);
			csv_field(e->f, cols[i]);
		}
		fputc('\n', e->f);
		return 0;
	}
	json_t *o = json_object();
	for (size_t i = 0; i < n; i++) {
		const char *k = hist_export_columns[i];
		json_t *v = !cols[i] ? json_null()
			    : (!strcmp(k, "scale_factor") || !strcmp(k, "mean_ms"))
				? json_real(strtod(cols[i], NULL))
			    : (!strcmp(k, "result_id") || !strcmp(k, "restart"))
				? json_integer(strtoll(cols[i], NULL, 10))
				: json_string(cols[i]);
		json_object_set_new(o, k, v);
	}
	json_array_append_new(e->rows, o);
	return 0;
}

struct export_job {
	struct hist_store *st;
	const struct hargs *a;
	int json;
};

static int write_export(FILE *f, void *ctx, struct errbuf *err)
{
	struct export_job *j = ctx;
	struct export_out e = {f, j->json, j->json ? json_array() : NULL};
	if (!j->json)
		for (size_t i = 0; i < HIST_EXPORT_NCOLS; i++)
			fprintf(f, "%s%s", i ? "," : "", hist_export_columns[i]);
	if (!j->json)
		fputc('\n', f);
	int rc = hist_store_export(j->st, j->a->series, export_row, &e, err);
	if (rc == 0 && j->json) {
		rc = json_dumpf(e.rows, f, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
		fputc('\n', f);
	}
	json_decref(e.rows);
	return rc < 0 || ferror(f) ? -1 : 0;
}

static int run_export(struct hist_store *st, const struct hargs *a, int arg)
{
	(void)arg;
	struct export_job j = {st, a, 0};
	if (a->format && strcmp(a->format, "csv") && strcmp(a->format, "json"))
		return cli_usage_error("history", "bad --format '%s' for export (csv or json)",
				       a->format);
	j.json = a->format && !strcmp(a->format, "json");
	if (a->series) {
		struct hist_series_info *s;
		size_t n;
		if (series_of(&s, &n, st, a) != CLI_OK)
			return CLI_USAGE;
		hist_series_info_free(s, n);
		if (n != 1) {
			cli_error(n ? "series '%s' is ambiguous: give more of its id"
				    : "unknown series '%s' (see 'dbt3stab history list')",
				  a->series);
			return CLI_USAGE;
		}
	}
	if (check_output(a) < 0)
		return CLI_USAGE;
	return cmd_output_write(a->output, write_export, &j);
}

/* ---- check, report ---- */

struct check_job {
	struct hist_check *c;
	enum rpt_format fmt;
};

static int write_check(FILE *f, void *ctx, struct errbuf *err)
{
	struct check_job *j = ctx;
	return rpt_history_write(f, j->c, j->fmt, err);
}

static int run_check(struct hist_store *st, const struct hargs *a, int report)
{
	struct errbuf err = {""};
	struct check_job j = {NULL, report ? RPT_HTML : RPT_TEXT};
	struct hist_check c;
	if (a->n_rest)
		return cli_usage_error("history", "unexpected argument '%s'", a->rest[0]);
	unsigned formats = rpt_formats_of(RPT_REPORT_HISTORY);
	char names[96];
	rpt_format_names(names, sizeof(names), formats);
	if (a->format && report)
		return cli_usage_error("history", "report writes HTML: no --format");
	if (a->format && rpt_format_parse(a->format, formats, &j.fmt) < 0)
		return cli_usage_error("history", "bad --format '%s' (%s)", a->format, names);
	if (check_output(a) < 0)
		return CLI_USAGE;
	if (hist_check_run(&c, st, a->series, a->since, &a->det, &err) != 0) {
		cli_error("%s", err.msg);
		return CLI_USAGE;
	}
	j.c = &c;
	int rc = cmd_output_write(a->output, write_check, &j);
	if (rc == 0 && !report && c.any_starts_regression)
		rc = CLI_FOUND;
	hist_check_release(&c);
	return rc;
}

/* ---- dispatch ---- */

/* The subcommands: what runs each, with its arg (import: directories only; report: the HTML
 * page), and whether it writes the store (the others open it read-only, F8). */
static const struct {
	const char *name;
	int (*fn)(struct hist_store *st, const struct hargs *a, int arg);
	int arg, writes;
} subcommands[] = {
    {"add", run_add, 0, 1},	{"import", run_add, 1, 1},    {"list", run_list, 0, 0},
    {"show", run_show, 0, 0},	{"export", run_export, 0, 0}, {"remove", run_remove, 0, 1},
    {"check", run_check, 0, 0}, {"report", run_check, 1, 0},
};

int cmd_history(int argc, char **argv)
{
	struct hargs a;
	int help;
	if (argc < 2) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return CLI_OK;
	}
	if (argc == 2 && !strcmp(argv[1], CMD_DESCRIBE_ARG)) /* the build's doc generator */
		return parse_args(&a, argc, argv, &help);
	size_t k = 0, n = sizeof(subcommands) / sizeof(subcommands[0]);
	while (k < n && strcmp(argv[1], subcommands[k].name))
		k++;
	if (k == n)
		return cli_usage_error("history",
				       "unknown command '%s' (add, import, list, show, "
				       "export, remove, check or report)",
				       argv[1]);
	int rc = parse_args(&a, argc - 1, argv + 1, &help);
	if (rc != 0 || help)
		return rc;
	if (subcommands[k].fn != run_add && (a.build_id || a.label))
		return cli_usage_error("history", "--build-id and --label go with add and import");
	if (subcommands[k].fn == run_add && (rc = check_inputs(&a, subcommands[k].arg)) != CLI_OK)
		return rc;
	struct hist_store *st = NULL;
	if (open_store(&st, &a, subcommands[k].writes) < 0)
		return CLI_USAGE;
	rc = subcommands[k].fn(st, &a, subcommands[k].arg);
	hist_store_close(st);
	return rc;
}
