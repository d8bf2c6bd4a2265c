/* SPDX-License-Identifier: MIT */
/* The statistics options' rows. */
#include "commands/cmd_stat_opts.h"
#include "base/cli.h"
#include "stats/st.h"
#include <string.h>

static int take_alternative(void *dst, const struct cli_opt *row, const char *arg,
			    struct errbuf *err)
{
	enum st_alternative *out = dst;
	(void)row;
	(void)err;
	if (strcmp(arg, "greater") == 0)
		*out = ST_GREATER;
	else if (strcmp(arg, "two-sided") == 0)
		*out = ST_TWO_SIDED;
	else
		return -1;
	return 0;
}

static int take_correction(void *dst, const struct cli_opt *row, const char *arg,
			   struct errbuf *err)
{
	(void)row;
	(void)err;
	return st_correction_parse(arg, dst);
}

static int take_method(void *dst, const struct cli_opt *row, const char *arg, struct errbuf *err)
{
	(void)row;
	(void)err;
	return st_method_parse(arg, dst);
}

int cmd_take_format(void *dst, const struct cli_opt *row, const char *arg, struct errbuf *err)
{
	unsigned formats = rpt_formats_of((enum rpt_report)row->code);
	char names[96];
	if (rpt_format_parse(arg, formats, dst) == 0)
		return 0;
	rpt_format_names(names, sizeof(names), formats);
	return errbuf_set(err, "bad --format '%s' (%s)", arg, names);
}

#define STAT_T struct rpt_compare_opts

const struct cli_opt cmd_stat_options[] = {
    CLI_ROW_NUM(CLI_OPT_DOUBLE, "alpha", "A", STAT_T, alpha, 1e-12, 0.5, CMD_ALPHA_BAD,
		"family-wise (or FDR) level, default 0.05"),
    CLI_ROW_NUM(CLI_OPT_FRACTION, "min-effect", "E", STAT_T, min_effect, -1, CMD_MIN_EFFECT_MAX,
		CMD_MIN_EFFECT_BAD, "smallest change flagged, e.g. 2% (default) or 0.02"),
    CLI_ROW_FLAG("min-effect-test", 0, STAT_T, min_effect_test,
		 "flag only when the change exceeds min-effect with confidence (H0 ratio <= 1 + "
		 "E); default: significant and estimated >= E"),
    CLI_ROW_ENUM("alternative", "A", take_alternative, STAT_T, alt, "greater|two-sided",
		 "bad --alternative '%s' (greater or two-sided)",
		 "greater (default: regressions one-sided, improvements tested as a family of "
		 "their own) or two-sided"),
    CLI_ROW_ENUM("correction", "C", take_correction, STAT_T, correction, "holm|bh|none",
		 "bad --correction '%s' (holm, bh or none)", "holm (default), bh or none"),
    CLI_ROW_ENUM("method", "M", take_method, STAT_T, method, "auto|welch|pooled|eb",
		 "bad --method '%s' (auto, welch, pooled or eb)",
		 "auto (default: pooled t with equal restarts a side and no evidence of unequal "
		 "variances, else Welch); welch; pooled; eb (experimental moderated t: can exceed "
		 "the bound)"),
    {.kind = CLI_OPT_END},
};
