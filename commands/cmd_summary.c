/* SPDX-License-Identifier: MIT */
/* dbt3stab summary result.json: restart-level statistics and the restarts needed for a change. */
#include "base/cli.h"
#include "reports/rpt.h"
#include "result/res.h"
#include "commands/cmd.h"
#include "commands/cmd_output.h"
#include "commands/cmd_stat_opts.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static void usage(FILE *f, const struct cmd_stat_opts *so)
{
	fprintf(f,
		"usage: dbt3stab summary RESULT.json [options]\n"
		"\n"
		"Per query: restarts, runs, mean, geometric mean of the restart means, the sd of\n"
		"the log restart means (the noise compare sees) with its 95%% CI, split into its\n"
		"between- and within-restart parts, the variance components (one-way random-\n"
		"effects ANOVA), a run-position (warm-up) effect, and how many restarts a side\n"
		"compare needs to flag a given slowdown on this host (with a 95%% interval).\n"
		"\n"
		"  --detect D           slowdown to detect, e.g. 3%% (default) or 0.03\n"
		"  --power P            target power, default 80%%\n"
		"  --cost               only the last lines: what a 5%% and a 10%% verdict cost on\n"
		"                       this host (restarts a side, wall time), what is decided,\n"
		"                       which other signal would decide (text or markdown)\n"
		"compare's options, for the power:\n");
	cmd_stat_usage(f, so);
	fprintf(f, "  -o, --output FILE    write to FILE instead of standard output (checked\n"
		   "                       first: exit 2 when FILE cannot be created)\n"
		   "  -q, --quiet          no warnings on standard error\n"
		   "  -h, --help           this help\n"
		   "\n"
		   "exit: 0 ok, 2 usage or input error, or the report cannot be written\n");
}

enum { OPT_DETECT = 256, OPT_POWER, OPT_COST };

/* What the command line says. */
struct summary_args {
	struct rpt_summary_opts opts;
	enum rpt_format fmt;
	const char *output; /* -o FILE, or NULL for standard output */
	const char *path;   /* the result file */
	int help;
	int cost; /* --cost: the verdict cost lines alone */
};

/* The options, then the one result file and the -o checks. CLI_OK (a->help: usage printed), or
 * the exit code of the one line printed. */
static int parse_args(struct summary_args *a, int argc, char **argv)
{
	static const struct option longopts[] = {
	    CMD_STAT_LONGOPTS,
	    {"detect", required_argument, NULL, OPT_DETECT},
	    {"power", required_argument, NULL, OPT_POWER},
	    {"cost", no_argument, NULL, OPT_COST},
	    {"output", required_argument, NULL, 'o'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct rpt_summary_opts *opts = &a->opts;
	struct cmd_stat_opts so;
	int c, orc;
	rpt_summary_opts_init(opts);
	cmd_stat_opts_init(&so, rpt_formats_of(RPT_REPORT_SUMMARY));
	cli_getopt_reset();
	while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
		int h = cmd_stat_opt(&so, c, optarg, "summary", &orc);
		if (h < 0)
			return orc;
		if (h > 0)
			continue;
		switch (c) {
		case OPT_DETECT:
			if (cli_parse_fraction(optarg, &opts->detect) < 0 || !(opts->detect > 0) ||
			    opts->detect >= 10)
				return cli_usage_error(
				    "summary", "bad --detect '%s' (e.g. 3%% or 0.03)", optarg);
			break;
		case OPT_POWER:
			if (cli_parse_fraction(optarg, &opts->power) < 0 || !(opts->power > 0) ||
			    !(opts->power < 1))
				return cli_usage_error("summary", "bad --power '%s' (e.g. 80%%)",
						       optarg);
			break;
		case OPT_COST:
			a->cost = 1;
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'q':
			break; /* summary prints no warnings on stderr: they are in the report */
		case 'h':
			usage(stdout, &so);
			a->help = 1;
			return CLI_OK;
		default:
			return cli_bad_option("summary", c, argv);
		}
	}
	rpt_summary_opts_take(opts, &so.cmp);
	a->fmt = so.format;
	if (a->cost && a->fmt != RPT_TEXT && a->fmt != RPT_MARKDOWN)
		return cli_usage_error("summary", "--cost is written as text or markdown");
	if (argc - optind != 1)
		return cli_usage_error("summary", "expected one result file");
	a->path = argv[optind];
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
