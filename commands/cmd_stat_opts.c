/* SPDX-License-Identifier: MIT */
/* The statistics options compare and summary share. */
#include "commands/cmd_stat_opts.h"
#include "base/cli.h"
#include "stats/st.h"
#include <string.h>

static int parse_alternative(const char *s, enum st_alternative *out)
{
	if (strcmp(s, "greater") == 0)
		*out = ST_GREATER;
	else if (strcmp(s, "two-sided") == 0)
		*out = ST_TWO_SIDED;
	else
		return -1;
	return 0;
}

int cmd_parse_alpha(const char *cmd, const char *arg, double *out)
{
	if (cli_parse_double(arg, 1e-12, 0.5, out) < 0)
		return cli_usage_error(cmd, "bad --alpha '%s' (0 < A <= 0.5)", arg);
	return CLI_OK;
}

int cmd_parse_min_effect(const char *cmd, const char *arg, double *out)
{
	if (cli_parse_fraction(arg, out) < 0 || *out >= 10)
		return cli_usage_error(cmd, "bad --min-effect '%s' (e.g. 2%% or 0.02)", arg);
	return CLI_OK;
}

void cmd_stat_opts_init(struct cmd_stat_opts *o, unsigned formats)
{
	rpt_compare_opts_init(&o->cmp);
	o->format = RPT_TEXT;
	o->formats = formats;
	rpt_format_names(o->names, sizeof(o->names), formats);
}

int cmd_stat_opt(struct cmd_stat_opts *o, int c, const char *arg, const char *cmd, int *out_rc)
{
	struct rpt_compare_opts *t = &o->cmp;
	switch (c) {
	case CMD_OPT_ALPHA:
		*out_rc = cmd_parse_alpha(cmd, arg, &t->alpha);
		return *out_rc == CLI_OK ? 1 : -1;
	case CMD_OPT_MIN_EFFECT:
		*out_rc = cmd_parse_min_effect(cmd, arg, &t->min_effect);
		return *out_rc == CLI_OK ? 1 : -1;
	case CMD_OPT_CORRECTION:
		if (st_correction_parse(arg, &t->correction) < 0) {
			*out_rc = cli_usage_error(cmd, "bad --correction '%s' (holm, bh or none)",
						  arg);
			return -1;
		}
		return 1;
	case CMD_OPT_METHOD:
		if (st_method_parse(arg, &t->method) < 0) {
			*out_rc = cli_usage_error(
			    cmd, "bad --method '%s' (auto, welch, pooled or eb)", arg);
			return -1;
		}
		return 1;
	case CMD_OPT_ALTERNATIVE:
		if (parse_alternative(arg, &t->alt) < 0) {
			*out_rc = cli_usage_error(cmd, "bad --alternative '%s' (greater or two-sided)",
						  arg);
			return -1;
		}
		return 1;
	case CMD_OPT_MIN_EFFECT_TEST:
		t->min_effect_test = 1;
		return 1;
	case CMD_OPT_FORMAT:
		if (rpt_format_parse(arg, o->formats, &o->format) < 0) {
			*out_rc = cli_usage_error(cmd, "bad --format '%s' (%s)", arg, o->names);
			return -1;
		}
		return 1;
	default:
		return 0;
	}
}

void cmd_stat_usage(FILE *f, const struct cmd_stat_opts *o)
{
	fprintf(f,
		"  --alpha A            family-wise (or FDR) level, default 0.05\n"
		"  --min-effect E       smallest change flagged, e.g. 2%% (default) or 0.02\n"
		"  --min-effect-test    flag only when the change exceeds min-effect with\n"
		"                       confidence (H0 ratio <= 1 + E); default: significant and\n"
		"                       estimated >= E\n"
		"  --alternative A      greater (default: regressions one-sided, improvements\n"
		"                       tested as a family of their own) or two-sided\n"
		"  --correction C       holm (default), bh or none\n"
		"  --method M           auto (default: pooled t with equal restarts a side and\n"
		"                       no evidence of unequal variances, else Welch); welch;\n"
		"                       pooled; eb (experimental moderated t: can exceed the bound)\n"
		"  --format F           %s\n",
		o->names);
}
