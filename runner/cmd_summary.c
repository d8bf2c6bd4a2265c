/* SPDX-License-Identifier: MIT */
/* dbt3stab summary result.json: restart-level statistics and the restarts needed for a change. */
#include "reports/rpt.h"
#include "base/cli.h"
#include "runner/cmd.h"
#include "result/res.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static void usage(FILE *f)
{
	fprintf(
	    f, "usage: dbt3stab summary RESULT.json [options]\n"
	       "\n"
	       "Per query: restarts, runs, mean, geometric mean of the restart means, within- and\n"
	       "between-restart CoV, variance components (one-way random-effects ANOVA), and how\n"
	       "many restarts a side compare needs to flag a given slowdown on this host.\n"
	       "\n"
	       "  --detect D           slowdown to detect, e.g. 3%% (default) or 0.03\n"
	       "  --power P            target power, default 80%%\n"
	       "  --alpha A            compare's level, default 0.05\n"
	       "  --min-effect E       compare's minimum effect, default 2%%\n"
	       "  --correction C       compare's correction: holm (default), bh or none\n"
	       "  --format F           text (default), markdown or json\n"
	       "  -o, --output FILE    write to FILE instead of standard output (checked\n"
	       "                       first: exit 2 when FILE cannot be created)\n"
	       "  -q, --quiet          no warnings on standard error\n"
	       "  -h, --help           this help\n"
	       "\n"
	       "exit: 0 ok, 2 usage or input error, or the report cannot be written\n");
}

enum { OPT_DETECT = 256, OPT_POWER, OPT_ALPHA, OPT_MIN_EFFECT, OPT_CORRECTION, OPT_FORMAT };

int cmd_summary(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"detect", required_argument, NULL, OPT_DETECT},
	    {"power", required_argument, NULL, OPT_POWER},
	    {"alpha", required_argument, NULL, OPT_ALPHA},
	    {"min-effect", required_argument, NULL, OPT_MIN_EFFECT},
	    {"correction", required_argument, NULL, OPT_CORRECTION},
	    {"format", required_argument, NULL, OPT_FORMAT},
	    {"output", required_argument, NULL, 'o'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct rpt_summary_opts opts;
	enum rpt_format fmt = RPT_TEXT;
	const char *output = NULL;
	int c;
	rpt_summary_opts_init(&opts);
	cli_getopt_reset();
	while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_DETECT:
			if (cli_parse_fraction(optarg, &opts.detect) < 0 || !(opts.detect > 0) ||
			    opts.detect >= 10)
				return cli_usage_error(
				    "summary", "bad --detect '%s' (e.g. 3%% or 0.03)", optarg);
			break;
		case OPT_POWER:
			if (cli_parse_fraction(optarg, &opts.power) < 0 || !(opts.power > 0) ||
			    !(opts.power < 1))
				return cli_usage_error("summary", "bad --power '%s' (e.g. 80%%)",
						       optarg);
			break;
		case OPT_ALPHA:
			if (cli_parse_double(optarg, 1e-12, 0.5, &opts.alpha) < 0)
				return cli_usage_error("summary", "bad --alpha '%s' (0 < A <= 0.5)",
						       optarg);
			break;
		case OPT_MIN_EFFECT:
			if (cli_parse_fraction(optarg, &opts.min_effect) < 0 ||
			    opts.min_effect >= 10)
				return cli_usage_error(
				    "summary", "bad --min-effect '%s' (e.g. 2%% or 0.02)", optarg);
			break;
		case OPT_CORRECTION:
			if (st_correction_parse(optarg, &opts.correction) < 0)
				return cli_usage_error(
				    "summary", "bad --correction '%s' (holm, bh or none)", optarg);
			break;
		case OPT_FORMAT:
			if (rpt_format_parse(optarg, 0x7, &fmt) < 0)
				return cli_usage_error("summary",
						       "bad --format '%s' (text, markdown or json)",
						       optarg);
			break;
		case 'o':
			output = optarg;
			break;
		case 'q':
			break; /* summary prints no warnings on stderr: they are in the report */
		case 'h':
			usage(stdout);
			return CLI_OK;
		default:
			return cli_bad_option("summary", c, argv);
		}
	}
	if (argc - optind != 1)
		return cli_usage_error("summary", "expected one result file");
	if (output) {
		struct errbuf oerr = {""};
		if (rpt_output_check(output, &oerr) < 0) {
			cli_error("%s", oerr.msg);
			return CLI_USAGE;
		}
	}

	const char *path = argv[optind];
	struct res_file *res = NULL;
	struct rpt_summary *sum = NULL;
	struct errbuf err = {""};
	int rc = CLI_USAGE;
	if (res_file_read(&res, path, &err) < 0) {
		cli_error("%s", err.msg);
		goto out;
	}
	struct rpt_file_info fi = {path, res};
	if (rpt_summary_build(&sum, &fi, &opts, &err) < 0) {
		cli_error("%s", err.msg);
		goto out;
	}
	FILE *f = stdout;
	char *buf = NULL;
	size_t len = 0;
	if (output && !(f = open_memstream(&buf, &len))) {
		cli_error("out of memory");
		rc = CLI_FOUND;
		goto out;
	}
	int wrc = rpt_summary_write(f, sum, fmt, !output && fmt == RPT_TEXT && cli_use_color(f));
	if (output) {
		wrc |= fclose(f);
		if (wrc == 0 && util_write_atomic(output, buf, len, &err) < 0) {
			cli_error("%s", err.msg);
			wrc = -1;
		}
		free(buf);
	}
	rc = wrc < 0 ? CLI_USAGE : CLI_OK;
out:
	rpt_summary_free(sum);
	res_file_free(res);
	return rc;
}
