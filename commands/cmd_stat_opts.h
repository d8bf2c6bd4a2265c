/* SPDX-License-Identifier: MIT */
/* The statistics options compare and summary share (--alpha, --min-effect, --min-effect-test,
 * --alternative, --correction, --method) and --format: fragments of an option table
 * (base/cli_opt.h). */
#ifndef DBT3_CMD_STAT_OPTS_H
#define DBT3_CMD_STAT_OPTS_H
#include "base/cli_opt.h"
#include "reports/rpt.h"
#include <stddef.h>

/* The rows, their offsets into a struct rpt_compare_opts (defaults: rpt_compare_opts_init, as
 * documented in docs/statistics.md). */
extern const struct cli_opt cmd_stat_options[];

/* A row holding them for member m (a struct rpt_compare_opts) of type t, under heading (NULL:
 * in place). */
#define CMD_STAT_GROUP(t, m, heading) CLI_ROW_GROUP(cmd_stat_options, heading, t, m)

/* The --alpha and --min-effect rows' bounds and messages, for a command that takes them into
 * another struct (history). */
#define CMD_ALPHA_BAD "bad --alpha '%s' (0 < A <= 0.5)"
#define CMD_MIN_EFFECT_BAD "bad --min-effect '%s' (e.g. 2% or 0.02)"
#define CMD_MIN_EFFECT_MAX 9.999999999 /* below 10 */

/* A --format row's action: rpt_format_parse of arg into the enum rpt_format at dst, among the
 * formats of the report row->code (an enum rpt_report); a bad one is named with that list. */
int cmd_take_format(void *dst, const struct cli_opt *row, const char *arg, struct errbuf *err);

/* The --format row of a report (an enum rpt_report) into the enum rpt_format member m of type
 * t: cmd_take_format. */
#define CMD_ROW_FORMAT(t, m, report, text)                                                         \
	{                                                                                          \
		.kind = CLI_OPT_CALL, .name = "format", .arg = "F", .off = offsetof(t, m),         \
		.fn = cmd_take_format, .code = report, .help = text                                \
	}

#endif
