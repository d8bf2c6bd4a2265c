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

#define OFF(m) offsetof(struct rpt_compare_opts, m)

const struct cli_opt cmd_stat_options[] = {
    {.kind = CLI_OPT_DOUBLE,
     .name = "alpha",
     .arg = "A",
     .off = OFF(alpha),
     .min = 1e-12,
     .max = 0.5,
     .bad = CMD_ALPHA_BAD,
     .help = "family-wise (or FDR) level, default 0.05"},
    {.kind = CLI_OPT_FRACTION,
     .name = "min-effect",
     .arg = "E",
     .off = OFF(min_effect),
     .min = -1,
     .max = CMD_MIN_EFFECT_MAX,
     .bad = CMD_MIN_EFFECT_BAD,
     .help = "smallest change flagged, e.g. 2% (default) or 0.02"},
    {.kind = CLI_OPT_FLAG,
     .name = "min-effect-test",
     .off = OFF(min_effect_test),
     .help = "flag only when the change exceeds min-effect with confidence (H0 ratio <= 1 + "
	     "E); default: significant and estimated >= E"},
    {.kind = CLI_OPT_CALL,
     .name = "alternative",
     .arg = "A",
     .off = OFF(alt),
     .fn = take_alternative,
     .bad = "bad --alternative '%s' (greater or two-sided)",
     .help = "greater (default: regressions one-sided, improvements tested as a family of "
	     "their own) or two-sided"},
    {.kind = CLI_OPT_CALL,
     .name = "correction",
     .arg = "C",
     .off = OFF(correction),
     .fn = take_correction,
     .bad = "bad --correction '%s' (holm, bh or none)",
     .help = "holm (default), bh or none"},
    {.kind = CLI_OPT_CALL,
     .name = "method",
     .arg = "M",
     .off = OFF(method),
     .fn = take_method,
     .bad = "bad --method '%s' (auto, welch, pooled or eb)",
     .help = "auto (default: pooled t with equal restarts a side and no evidence of unequal "
	     "variances, else Welch); welch; pooled; eb (experimental moderated t: can exceed "
	     "the bound)"},
    {.kind = CLI_OPT_END},
};
