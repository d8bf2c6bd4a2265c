/* SPDX-License-Identifier: MIT */
/* dbt3stab report: one self-contained HTML page for one or more results, no comparison. */
#include "base/cli.h"
#include "base/cli_opt.h"
#include "reports/rpt.h"
#include "reports/rpt_html.h"
#include "result/res.h"
#include "result/res_dir.h"
#include "commands/cmd.h"
#include "commands/cmd_output.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define REPORT_MAX_FILES 16

/* What the command line says. */
struct report_args {
	const char *output;
	int quiet, help;
};

static const struct cli_opt options[] = {
    CLI_ROW_STRING("output", 'o', "FILE", struct report_args, output,
		   "write the page to FILE (atomically) instead of standard output"),
    CLI_ROW_QUIET(struct report_args, quiet, "no informational message or warning"),
    CLI_ROW_HELP(struct report_args, help),
    {.kind = CLI_OPT_END},
};

static void usage(FILE *f)
{
	fputs(
	    "usage: dbt3stab report RESULT.json|DIR [MORE.json|DIR ...] [-o FILE] [--quiet]\n"
	    "\n"
	    "Writes one self-contained HTML page (opens offline, fetches nothing) showing each "
	    "result's\n"
	    "restart-to-restart spread, per query the restart means and the warm-up curves (every\n"
	    "execution of every restart), and a sortable table: restarts, geometric mean of the "
	    "restart\n"
	    "means, within- and between-restart CoV. Plans are shown side by side where the "
	    "files'\n"
	    "plans differ; for files of run --budget, per query the warm-up and runs of each "
	    "restart,\n"
	    "the restarts measured and the decision the run recorded.\n"
	    "A DIR is the directory a run with --variant wrote (DIR/NAME.json): every result in it "
	    "is\n"
	    "reported, in the order the run started the variants; other *.json files are left out\n"
	    "with a warning. At most 16 results in all. To compare two results, use\n"
	    "'dbt3stab compare OLD NEW --format html' (e.g. DIR/old.json DIR/new.json).\n"
	    "\n",
	    f);
	cli_opts_usage(f, options);
}

/* The results to report, from the arguments in order (a directory's in run order). */
struct report_in {
	struct res_file *files[REPORT_MAX_FILES]; /* owned by owned[i] ? this : a dirs entry */
	const char *paths[REPORT_MAX_FILES];
	int owned[REPORT_MAX_FILES];
	size_t n;
	struct res_dir *dirs; /* one per directory argument */
	size_t n_dirs;
};

static void report_in_release(struct report_in *in)
{
	for (size_t i = 0; i < in->n; i++)
		if (in->owned[i])
			res_file_free(in->files[i]);
	for (size_t i = 0; i < in->n_dirs; i++)
		res_dir_release(&in->dirs[i]);
	free(in->dirs);
}

static int too_many(void)
{
	return cli_usage_error("report", "at most %d result files", REPORT_MAX_FILES);
}

/* The results of one directory argument. */
static int read_dir(struct report_in *in, const char *dir, int quiet)
{
	struct res_dir *d = &in->dirs[in->n_dirs++];
	struct errbuf err = {""};
	if (res_dir_read(d, dir, REPORT_MAX_FILES, &err) < 0) {
		cli_error("%s", err.msg);
		return CLI_USAGE;
	}
	for (size_t k = 0; k < d->n_skipped && !quiet; k++)
		cli_warn("'%s' is not a dbt3stab result file: left out", d->skipped[k]);
	for (size_t k = 0; k < d->n; k++) {
		if (in->n == REPORT_MAX_FILES)
			return too_many();
		in->files[in->n] = d->files[k];
		in->paths[in->n++] = d->paths[k];
	}
	return CLI_OK;
}

/* Every argument: a result file, or a directory of variant results. CLI_OK, or the exit code of
 * the one line printed. */
static int read_inputs(struct report_in *in, char **args, size_t n_args, int quiet)
{
	memset(in, 0, sizeof(*in));
	in->dirs = calloc(n_args + 1, sizeof(*in->dirs));
	if (!in->dirs) {
		cli_error("out of memory");
		return CLI_IO;
	}
	for (size_t i = 0; i < n_args; i++) {
		struct errbuf err = {""};
		int rc;
		if (res_path_is_dir(args[i])) {
			if ((rc = read_dir(in, args[i], quiet)) != CLI_OK)
				return rc;
			continue;
		}
		if (in->n == REPORT_MAX_FILES)
			return too_many();
		if (res_file_read(&in->files[in->n], args[i], &err) < 0) {
			cli_error("%s", err.msg);
			return CLI_USAGE;
		}
		in->owned[in->n] = 1;
		in->paths[in->n++] = args[i];
	}
	return CLI_OK;
}

/* The page, to output (atomically) or standard output. */
static int write_page(const struct report_in *in, const char *output, int quiet)
{
	char *page = NULL;
	size_t page_len = 0;
	struct errbuf err = {""};
	int rc = CLI_OK;
	FILE *mem = open_memstream(&page, &page_len);
	if (!mem) {
		cli_error("cannot write the report: out of memory");
		return CLI_IO;
	}
	int wrc = rpt_html_write_report(mem, (const struct res_file *const *)in->files, in->paths,
					in->n, &err);
	if (fclose(mem) != 0 && wrc == 0)
		wrc = errbuf_set(&err, "cannot write the report: out of memory");
	if (wrc < 0) {
		cli_error("%s", err.msg);
		rc = CLI_IO;
	} else if (output) {
		if (util_write_atomic(output, page, page_len, &err) < 0) {
			cli_error("%s", err.msg);
			rc = CLI_IO;
		} else {
			cli_info(quiet, "wrote '%s' (%zu result%s, %zu bytes)", output, in->n,
				 in->n == 1 ? "" : "s", page_len);
		}
	} else if (fwrite(page, 1, page_len, stdout) != page_len) {
		rc = CLI_IO; /* main says standard output failed */
	}
	free(page);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = {.output = NULL};
	struct cli_parse p = {.cmd = "report", .base = &a};
	int rc = cmd_parse(&p, options, usage, -1, argc, argv);
	if (rc != CLI_OK || p.help)
		return rc;
	const char *output = a.output;
	const int quiet = a.quiet, first = p.next;
	size_t n = (size_t)(argc - first);
	if (n == 0)
		return cli_usage_error("report", "no result file given");
	if (cmd_output_check(output, (const char *const *)&argv[first], n) != CLI_OK)
		return CLI_USAGE;
	struct report_in in;
	rc = read_inputs(&in, &argv[first], n, quiet);
	if (rc == CLI_OK)
		rc = write_page(&in, output, quiet);
	report_in_release(&in);
	return rc;
}
