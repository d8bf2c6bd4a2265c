/* SPDX-License-Identifier: MIT */
/* dbt3stab compare old.json new.json: flag what exceeds the restart variance. */
#include "reports/rpt.h"
#include "reports/rpt_html.h"
#include "base/cli.h"
#include "commands/cmd.h"
#include "result/res.h"
#include "commands/cmd_output.h"
#include "commands/cmd_stat_opts.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the command line says. */
struct compare_args {
	struct rpt_compare_opts cmp; /* the options of the comparison */
	enum rpt_format format;
	const char *old_path, *new_path, *baseline_path; /* baseline: NULL without --baseline */
	const char *output;				 /* -o FILE, or NULL for standard output */
	int quiet, help;
};

enum { TAG_SEQ, TAG_FIXED }; /* needs --sequential; --fixed-sample */

static int take_spending(void *dst, const struct cli_opt *row, const char *arg, struct errbuf *err)
{
	(void)row;
	(void)err;
	return st_seq_spending_parse(arg, dst);
}

#define OFF(m) offsetof(struct compare_args, m)

/* compare's options: the shared statistics ones and its own. */
static const struct cli_opt options[] = {
    CMD_STAT_GROUP(struct compare_args, cmp, NULL),
    CMD_ROW_FORMAT(struct compare_args, format, RPT_REPORT_COMPARE,
		   "text, markdown, json, junit or html"),
    CLI_ROW_STRING("baseline", 0, "FILE", struct compare_args, baseline_path,
		   "a result of the same host with several restarts: its restart variance is "
		   "pooled in (its df added) whenever the test is pooled and the noise agrees (F "
		   "test); the report says per query whether it was used; with --sequential each "
		   "query's test borrows it (paired: twice it) on the fewest df it has of them, "
		   "unless tonight's pairs are noisier (F tests combined)"),
    CLI_ROW_FLAG("unpaired", 0, struct compare_args, cmp.unpaired,
		 "never pair restarts (default: restart i of old with restart i of new, paired "
		 "t on log ratios, when both files are variants of one interleaved run)"),
    CLI_ROW_FLAG("sequential", 0, struct compare_args, cmp.sequential,
		 "replay the sequential rule over the pairs in file order: verdicts and the pair "
		 "each query was decided at (the default for the two variants of one run "
		 "--budget, whose restarts that rule stopped: the report says so)"),
    {.kind = CLI_OPT_FLAG,
     .name = "fixed-sample",
     .old = "fixed",
     .off = OFF(cmp.fixed),
     .tags = 1u << TAG_FIXED,
     .help = "the fixed-sample test even on files of run --budget (its alpha does not hold "
	     "on sequentially stopped data)"},
    {.kind = CLI_OPT_SIZE,
     .name = "max-pairs",
     .arg = "K",
     .off = OFF(cmp.max_pairs),
     .min = 2,
     .max = ST_SEQ_MAX_PAIRS,
     .tags = 1u << TAG_SEQ,
     .bad = "bad --max-pairs '%s' (2 to 128)",
     .help = "with --sequential: its planned maximum of pairs, at every look (default: the K "
	     "the run re-estimated after each pair, plan.horizon, else plan.max_pairs, else "
	     "the most pairs a query has; at least 2, the first look)"},
    {.kind = CLI_OPT_CALL,
     .name = "spending",
     .arg = "S",
     .off = OFF(cmp.spending),
     .fn = take_spending,
     .values = "obf|pocock",
     .tags = 1u << TAG_SEQ,
     .bad = "bad --spending '%s' (obf or pocock)",
     .help = "with --sequential: its alpha spending: obf (default) or pocock (spends more at "
	     "the early pairs, less at the last)"},
    CLI_ROW_STRING("output", 'o', "FILE", struct compare_args, output,
		   "write the report to FILE instead of standard output (checked first: exit 2 "
		   "when FILE cannot be created)"),
    CLI_ROW_FLAG("exclude-disturbed", 0, struct compare_args, cmp.exclude_disturbed,
		 "leave out the restarts each file marks disturbed (others' CPU time, steal or "
		 "memory contention above the threshold, docs/run.md); says how many it "
		 "excluded"),
    CLI_ROW_FLAG("adjust-memory", 0, struct compare_args, cmp.adjust_memory,
		 "adjust each query's test for the memory-contention probe of its restarts "
		 "(two-sample ANCOVA, one df less, never paired: the part of the restart noise "
		 "the neighbours' memory traffic explains taken out; docs/statistics.md); the "
		 "fixed-sample test, not with --sequential or --baseline"),
    CLI_ROW_FLAG("force", 0, struct compare_args, cmp.force,
		 "compare files that are not comparable, with a warning"),
    CLI_ROW_QUIET(struct compare_args, quiet,
		  "no warnings on standard error (without -q they go there unless the report, "
		  "which lists them, goes to the same terminal or file)"),
    CLI_ROW_HELP(struct compare_args, help),
    {.kind = CLI_OPT_END},
};

static void usage(FILE *f)
{
	fputs("usage: dbt3stab compare OLD.json NEW.json [options]\n"
	      "\n"
	      "Compares two result files query by query on their restart means and flags what\n"
	      "exceeds the restart-to-restart variance.\n"
	      "\n",
	      f);
	cli_opts_usage(f, options);
	fputs("\n"
	      "verdicts: regression (significantly slower; estimated >= min effect, or with\n"
	      "          --min-effect-test slower by more than min effect), improvement (the\n"
	      "          same, faster), unchanged (TOST: the 90% CI lies within +-min effect,\n"
	      "          per query, not corrected), inconclusive (neither, or untested),\n"
	      "          wrong-result; a query that timed out in every restart of one side only\n"
	      "          is decided by the timeout\n"
	      "work: a query whose server work counters changed is a finding (docs/work.md)\n"
	      "exit: 0 nothing flagged, 1 regression or work changed, 3 wrong result (takes\n"
	      "      precedence),\n"
	      "      2 usage or input error, results that differ on data that differs\n"
	      "      (dataset.content_check; before any other verdict), or the report cannot\n"
	      "      be written\n",
	      f);
}

static int read_file(struct res_file **out, const char *path)
{
	struct errbuf err = {""};
	if (res_file_read(out, path, &err) < 0) {
		cli_error("%s", err.msg);
		return -1;
	}
	return 0;
}

/* The options, then the two result files and the -o checks. CLI_OK (a->help: usage printed), or
 * the exit code of the one line printed. */
static int parse_args(struct compare_args *a, int argc, char **argv)
{
	struct rpt_compare_opts *opts = &a->cmp;
	struct cli_parse p = {.cmd = "compare", .base = a};
	rpt_compare_opts_init(opts);
	a->format = RPT_TEXT;
	int rc = cmd_parse(&p, options, usage, -1, argc, argv);
	if (rc != CLI_OK || (a->help = p.help))
		return rc;
	const char *seq_opt = cli_opts_given(&p, TAG_SEQ);
	if (opts->adjust_memory && opts->sequential)
		return cli_usage_error("compare", "--adjust-memory is a fixed-sample test: not "
						  "with --sequential");
	if (opts->fixed && opts->sequential)
		return cli_usage_error("compare", "%s and --sequential exclude each other",
				       cli_opts_given(&p, TAG_FIXED));
	if (seq_opt && !opts->sequential)
		return cli_usage_error("compare", "%s needs --sequential", seq_opt);
	if (argc - p.next != 2)
		return cli_usage_error("compare",
				       "expected two result files, OLD.json and NEW.json");
	if (opts->adjust_memory && a->baseline_path)
		return cli_usage_error("compare", "--adjust-memory fits its own residual variance: "
						  "not with --baseline");
	a->old_path = argv[p.next];
	a->new_path = argv[p.next + 1];
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
	enum rpt_format fmt = o->a->format;
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
	struct rpt_compare_opts *opts = &a.cmp;
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
	int in_report = !a.output && a.format != RPT_JUNIT && cli_same_file(stdout, stderr);
	if (!a.quiet && !in_report)
		for (size_t i = 0; i < cmp->n_warnings; i++)
			cli_warn("%s", cmp->warnings[i]);

	struct compare_out co = {cmp, &a};
	if ((rc = cmd_output_write(a.output, compare_write, &co)) != CLI_OK)
		goto out;
	rc = cmp->n_data_differs ? CLI_USAGE /* results differ on other data: the inputs */
	     : cmp->worst == RPT_WRONG_RESULT ? CLI_WRONG
	     : cmp->worst == RPT_REGRESSION || cmp->n_work_changed || cmp->n_instr_changed
		 ? CLI_FOUND
		 : CLI_OK;
out:
	rpt_compare_free(cmp);
	res_file_free(old);
	res_file_free(new);
	res_file_free(base);
	return rc;
}
