/* SPDX-License-Identifier: MIT */
/* dbt3stab compare old.json new.json: flag what exceeds the restart variance. */
#include "reports/rpt.h"
#include "reports/rpt_html.h"
#include "base/cli.h"
#include "commands/cmd.h"
#include "result/res.h"
#include "commands/cmd_output.h"
#include "commands/cmd_stat_opts.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f, const struct cmd_stat_opts *so)
{
	fprintf(f, "usage: dbt3stab compare OLD.json NEW.json [options]\n"
		   "\n"
		   "Compares two result files query by query on their restart means and flags what\n"
		   "exceeds the restart-to-restart variance.\n"
		   "\n");
	cmd_stat_usage(f, so);
	fprintf(
	    f,
	    "  --baseline FILE      a result of the same host with several restarts: its\n"
	    "                       restart variance is pooled in (its df added) whenever\n"
	    "                       the test is pooled and the noise agrees (F test); the\n"
	    "                       report says per query whether it was used; with\n"
	    "                       --sequential each query's test borrows it (paired:\n"
	    "                       twice it) on the fewest df it has of them, unless\n"
	    "                       tonight's pairs are noisier (F tests combined)\n"
	    "  --unpaired           never pair restarts (default: restart i of old with restart\n"
	    "                       i of new, paired t on log ratios, when both files are\n"
	    "                       variants of one interleaved run)\n"
	    "  --sequential         replay the sequential rule over the pairs in file order:\n"
	    "                       verdicts and the pair each query was decided at (the\n"
	    "                       default for the two variants of one run --budget, whose\n"
	    "                       restarts that rule stopped: the report says so)\n"
	    "  --fixed              the fixed-sample test even on files of run --budget\n"
	    "                       (its alpha does not hold on sequentially stopped data)\n"
	    "  --max-pairs K        its planned maximum of pairs, at every look (default: the\n"
	    "                       K the run re-estimated after each pair, plan.horizon, else\n"
	    "                       plan.max_pairs, else the most pairs a query has; at least\n"
	    "                       2, the first look)\n"
	    "  --spending S         its alpha spending: obf (default) or pocock (spends more\n"
	    "                       at the early pairs, less at the last)\n"
	    "  -o, --output FILE    write the report to FILE instead of standard output\n"
	    "                       (checked first: exit 2 when FILE cannot be created)\n"
	    "  --exclude-disturbed  leave out the restarts each file marks disturbed (others'\n"
	    "                       CPU time, steal or memory contention above the\n"
	    "                       threshold, docs/run.md); says how many it excluded\n"
	    "  --adjust-memory      adjust each query's test for the memory-contention probe\n"
	    "                       of its restarts (two-sample ANCOVA, one df less, never\n"
	    "                       paired: the part of the restart noise the neighbours'\n"
	    "                       memory traffic explains taken out; docs/statistics.md);\n"
	    "                       the fixed-sample test, not with --sequential or --baseline\n"
	    "  --force              compare files that are not comparable, with a warning\n"
	    "  -q, --quiet          no warnings on standard error (without -q they go there\n"
	    "                       unless the report, which lists them, goes to the same\n"
	    "                       terminal or file)\n"
	    "  -h, --help           this help\n"
	    "\n"
	    "verdicts: regression (significantly slower; estimated >= min effect, or with\n"
	    "          --min-effect-test slower by more than min effect), improvement (the\n"
	    "          same, faster), unchanged (TOST: the 90%% CI lies within +-min effect,\n"
	    "          per query, not corrected), inconclusive (neither, or untested),\n"
	    "          wrong-result; a query that timed out in every restart of one side only\n"
	    "          is decided by the timeout\n"
	    "work: a query whose server work counters changed is a finding (docs/work.md)\n"
	    "exit: 0 nothing flagged, 1 regression or work changed, 3 wrong result (takes\n"
	    "      precedence),\n"
	    "      2 usage or input error, or the report cannot be written\n");
}

enum {
	OPT_BASELINE = 256,
	OPT_FORCE,
	OPT_UNPAIRED,
	OPT_SEQUENTIAL,
	OPT_FIXED,
	OPT_MAX_PAIRS,
	OPT_SPENDING,
	OPT_EXCLUDE_DISTURBED,
	OPT_ADJUST_MEMORY
};

static int read_file(struct res_file **out, const char *path)
{
	struct errbuf err = {""};
	if (res_file_read(out, path, &err) < 0) {
		cli_error("%s", err.msg);
		return -1;
	}
	return 0;
}

/* What the command line says. */
struct compare_args {
	struct cmd_stat_opts so; /* so.cmp: the options of the comparison, so.format the format */
	const char *old_path, *new_path, *baseline_path; /* baseline: NULL without --baseline */
	const char *output;				 /* -o FILE, or NULL for standard output */
	int quiet, help;
};

/* compare's options: the shared statistics ones and its own. */
static const struct option longopts[] = {
    CMD_STAT_LONGOPTS,
    {"baseline", required_argument, NULL, OPT_BASELINE},
    {"output", required_argument, NULL, 'o'},
    {"force", no_argument, NULL, OPT_FORCE},
    {"exclude-disturbed", no_argument, NULL, OPT_EXCLUDE_DISTURBED},
    {"adjust-memory", no_argument, NULL, OPT_ADJUST_MEMORY},
    {"unpaired", no_argument, NULL, OPT_UNPAIRED},
    {"sequential", no_argument, NULL, OPT_SEQUENTIAL},
    {"fixed", no_argument, NULL, OPT_FIXED},
    {"max-pairs", required_argument, NULL, OPT_MAX_PAIRS},
    {"spending", required_argument, NULL, OPT_SPENDING},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* The options, then the two result files and the -o checks. CLI_OK (a->help: usage printed), or
 * the exit code of the one line printed. */
static int parse_args(struct compare_args *a, int argc, char **argv)
{
	struct rpt_compare_opts *opts = &a->so.cmp;
	const char *seq_opt = NULL; /* an option that needs --sequential */
	int c, orc;
	cmd_stat_opts_init(&a->so, rpt_formats_of(RPT_REPORT_COMPARE));
	cli_getopt_reset();
	while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
		int h = cmd_stat_opt(&a->so, c, optarg, "compare", &orc);
		if (h < 0)
			return orc;
		if (h > 0)
			continue;
		switch (c) {
		case OPT_BASELINE:
			a->baseline_path = optarg;
			break;
		case 'o':
			a->output = optarg;
			break;
		case OPT_EXCLUDE_DISTURBED:
			opts->exclude_disturbed = 1;
			break;
		case OPT_ADJUST_MEMORY:
			opts->adjust_memory = 1;
			break;
		case OPT_FORCE:
			opts->force = 1;
			break;
		case OPT_UNPAIRED:
			opts->unpaired = 1;
			break;
		case OPT_SEQUENTIAL:
			opts->sequential = 1;
			break;
		case OPT_FIXED:
			opts->fixed = 1;
			break;
		case OPT_MAX_PAIRS: {
			long k;
			if (cli_parse_long(optarg, 2, ST_SEQ_MAX_PAIRS, &k) < 0)
				return cli_usage_error("compare", "bad --max-pairs '%s' (2 to %d)",
						       optarg, ST_SEQ_MAX_PAIRS);
			opts->max_pairs = (size_t)k;
			seq_opt = "--max-pairs";
			break;
		}
		case OPT_SPENDING:
			if (st_seq_spending_parse(optarg, &opts->spending) < 0)
				return cli_usage_error("compare", "bad --spending '%s' (obf or pocock)",
						       optarg);
			seq_opt = "--spending";
			break;
		case 'q':
			a->quiet = 1;
			break;
		case 'h':
			usage(stdout, &a->so);
			a->help = 1;
			return CLI_OK;
		default:
			return cli_bad_option("compare", c, argv);
		}
	}
	if (opts->adjust_memory && opts->sequential)
		return cli_usage_error("compare", "--adjust-memory is a fixed-sample test: not "
						  "with --sequential");
	if (opts->fixed && opts->sequential)
		return cli_usage_error("compare", "--fixed and --sequential exclude each other");
	if (seq_opt && !opts->sequential)
		return cli_usage_error("compare", "%s needs --sequential", seq_opt);
	if (argc - optind != 2)
		return cli_usage_error("compare",
				       "expected two result files, OLD.json and NEW.json");
	if (opts->adjust_memory && a->baseline_path)
		return cli_usage_error("compare", "--adjust-memory fits its own residual variance: "
						  "not with --baseline");
	a->old_path = argv[optind];
	a->new_path = argv[optind + 1];
	const char *inputs[] = {a->old_path, a->new_path, a->baseline_path};
	return cmd_output_check(a->output, inputs, 3);
}

/* What compare_write writes. */
struct compare_out {
	const struct rpt_compare *cmp;
	const struct compare_args *a;
};

/* The comparison in the format asked (colour only for text on a terminal). */
static int compare_write(FILE *f, void *ctx, struct errbuf *err)
{
	const struct compare_out *o = ctx;
	enum rpt_format fmt = o->a->so.format;
	return rpt_compare_write(f, o->cmp, fmt, !o->a->output && fmt == RPT_TEXT && cli_use_color(f),
				 err);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = {.output = NULL};
	int rc = parse_args(&a, argc, argv);
	if (rc != CLI_OK || a.help)
		return rc;

	struct res_file *old = NULL, *new = NULL, *base = NULL;
	struct rpt_compare *cmp = NULL;
	struct errbuf err = {""};
	rc = CLI_USAGE;
	const char *old_path = a.old_path, *new_path = a.new_path, *baseline_path = a.baseline_path;
	if (read_file(&old, old_path) < 0 || read_file(&new, new_path) < 0 ||
	    (baseline_path && read_file(&base, baseline_path) < 0))
		goto out;
	struct rpt_file_info fo = {old_path, old}, fn = {new_path, new}, fb = {baseline_path, base};
	struct rpt_compare_opts *opts = &a.so.cmp;
	if (opts->exclude_disturbed && (res_file_drop_disturbed(old, &opts->excluded_old) < 0 ||
					res_file_drop_disturbed(new, &opts->excluded_new) < 0)) {
		cli_error("out of memory");
		rc = CLI_IO;
		goto out;
	}
	if (rpt_compare_build(&cmp, &fo, &fn, &fb, opts, &err) < 0) {
		cli_error("%s", err.msg);
		goto out;
	}
	/* once: not again on stderr when the report that lists them goes to the same place (a
	 * terminal, a log); JUnit has no place for them */
	int in_report = !a.output && a.so.format != RPT_JUNIT && cli_same_file(stdout, stderr);
	if (!a.quiet && !in_report)
		for (size_t i = 0; i < cmp->n_warnings; i++)
			cli_warn("%s", cmp->warnings[i]);

	struct compare_out co = {cmp, &a};
	if ((rc = cmd_output_write(a.output, compare_write, &co)) != CLI_OK)
		goto out;
	rc = cmp->worst == RPT_WRONG_RESULT			     ? CLI_WRONG
	     : cmp->worst == RPT_REGRESSION || cmp->n_work_changed || cmp->n_instr_changed ? CLI_FOUND
								   : CLI_OK;
out:
	rpt_compare_free(cmp);
	res_file_free(old);
	res_file_free(new);
	res_file_free(base);
	return rc;
}
