/* SPDX-License-Identifier: MIT */
/* dbt3stab summary result.json: restart-level statistics and the restarts needed for a change. */
#include "base/cli.h"
#include "reports/rpt.h"
#include "result/res.h"
#include "commands/cmd.h"
#include "commands/cmd_output.h"
#include "commands/cmd_stat_opts.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* What the command line says. */
struct summary_args {
	struct rpt_summary_opts opts;
	struct rpt_compare_opts cmp; /* compare's options, for the power */
	enum rpt_format fmt;
	const char *output; /* -o FILE, or NULL for standard output */
	const char *path;   /* the result file */
	int quiet, help;
	int cost; /* --cost: the verdict cost lines alone */
};

static const struct cli_opt options[] = {
    CLI_ROW_NUM(CLI_OPT_FRACTION, "detect", "D", struct summary_args, opts.detect, 0, 9.999999999,
		"bad --detect '%s' (e.g. 3% or 0.03)",
		"slowdown to detect, e.g. 3% (default) or 0.03"),
    CLI_ROW_NUM(CLI_OPT_FRACTION, "power", "P", struct summary_args, opts.power, 0, 0.999999999,
		"bad --power '%s' (e.g. 80%)", "target power, default 80%"),
    CLI_ROW_FLAG("cost", 0, struct summary_args, cost,
		 "only the last lines: what a 5% and a 10% verdict cost on this host (restarts a "
		 "side, wall time), what is decided, which other signal would decide (text or "
		 "markdown)"),
    CMD_ROW_FORMAT(struct summary_args, fmt, RPT_REPORT_SUMMARY, "text, markdown or json"),
    CLI_ROW_STRING("output", 'o', "FILE", struct summary_args, output,
		   "write to FILE instead of standard output (checked first: exit 2 when FILE "
		   "cannot be created)"),
    /* summary prints no warnings on stderr: they are in the report */
    CLI_ROW_QUIET(struct summary_args, quiet, "no warnings on standard error"),
    CLI_ROW_HELP(struct summary_args, help),
    CMD_STAT_GROUP(struct summary_args, cmp, "compare's options, for the power"),
    {.kind = CLI_OPT_END},
};

static void usage(FILE *f)
{
	fputs("usage: dbt3stab summary RESULT.json [options]\n"
	      "\n"
	      "Per query: restarts, runs, mean, geometric mean of the restart means, the sd of\n"
	      "the log restart means (the noise compare sees) with its 95% CI, split into its\n"
	      "between- and within-restart parts, the variance components (one-way random-\n"
	      "effects ANOVA), a run-position (warm-up) effect, and how many restarts a side\n"
	      "compare needs to flag a given slowdown on this host (with a 95% interval).\n"
	      "\n",
	      f);
	cli_opts_usage(f, options);
	fputs("\nexit: 0 ok, 2 usage or input error, or the report cannot be written\n", f);
}

/* The options, then the one result file and the -o checks. CLI_OK (a->help: usage printed), or
 * the exit code of the one line printed. */
static int parse_args(struct summary_args *a, int argc, char **argv)
{
	struct cli_parse p = {.cmd = "summary", .base = a};
	rpt_summary_opts_init(&a->opts);
	rpt_compare_opts_init(&a->cmp);
	a->fmt = RPT_TEXT;
	int rc = cmd_parse(&p, options, usage, -1, argc, argv);
	if (rc != CLI_OK || (a->help = p.help))
		return rc;
	rpt_summary_opts_take(&a->opts, &a->cmp);
	if (a->cost && a->fmt != RPT_TEXT && a->fmt != RPT_MARKDOWN)
		return cli_usage_error("summary", "--cost is written as text or markdown");
	if (argc - p.next != 1)
		return cli_usage_error("summary", "expected one result file");
	a->path = argv[p.next];
	return cmd_output_check(a->output, &a->path, 1);
}

/* What summary_write writes. */
struct summary_out {
	const struct rpt_summary *sum;
	const struct summary_args *a;
};

/* The summary in the format asked (colour only for text on a terminal). */
static int summary_write(FILE *f, void *ctx, struct errbuf *err)
{
	const struct summary_out *o = ctx;
	if (o->a->cost)
		return rpt_summary_cost_write(f, o->sum, o->a->fmt == RPT_MARKDOWN);
	return rpt_summary_write(f, o->sum, o->a->fmt,
				 !o->a->output && o->a->fmt == RPT_TEXT && cli_use_color(f), err);
}

int cmd_summary(int argc, char **argv)
{
	struct summary_args a = {.output = NULL};
	int rc = parse_args(&a, argc, argv);
	if (rc != CLI_OK || a.help)
		return rc;

	struct res_file *res = NULL;
	struct rpt_summary *sum = NULL;
	struct errbuf err = {""};
	rc = CLI_USAGE;
	if (res_file_read(&res, a.path, &err) < 0) {
		cli_error("%s", err.msg);
		goto out;
	}
	struct rpt_file_info fi = {a.path, res};
	if (rpt_summary_build(&sum, &fi, &a.opts, &err) < 0) {
		cli_error("%s", err.msg);
		goto out;
	}
	struct summary_out so = {sum, &a};
	rc = cmd_output_write(a.output, summary_write, &so);
out:
	rpt_summary_free(sum);
	res_file_free(res);
	return rc;
}
