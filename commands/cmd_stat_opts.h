/* SPDX-License-Identifier: MIT */
/* The statistics options compare and summary share (--alpha, --min-effect, --correction,
 * --method, --alternative, --min-effect-test, --format): one parser, one help text. */
#ifndef DBT3_CMD_STAT_OPTS_H
#define DBT3_CMD_STAT_OPTS_H
#include "reports/rpt.h"
#include <getopt.h>
#include <stdio.h>

enum {
	CMD_OPT_ALPHA = 300,
	CMD_OPT_MIN_EFFECT,
	CMD_OPT_CORRECTION,
	CMD_OPT_METHOD,
	CMD_OPT_ALTERNATIVE,
	CMD_OPT_MIN_EFFECT_TEST,
	CMD_OPT_FORMAT,
};

/* The getopt_long entries of the shared options, to copy into a command's table. */
#define CMD_STAT_LONGOPTS                                                                          \
	{"alpha", required_argument, NULL, CMD_OPT_ALPHA},                                         \
	    {"min-effect", required_argument, NULL, CMD_OPT_MIN_EFFECT},                           \
	    {"correction", required_argument, NULL, CMD_OPT_CORRECTION},                           \
	    {"method", required_argument, NULL, CMD_OPT_METHOD},                                   \
	    {"alternative", required_argument, NULL, CMD_OPT_ALTERNATIVE},                         \
	    {"min-effect-test", no_argument, NULL, CMD_OPT_MIN_EFFECT_TEST},                       \
	    {"format", required_argument, NULL, CMD_OPT_FORMAT}

struct cmd_stat_opts {
	struct rpt_compare_opts cmp; /* the shared options as parsed, the rest at compare's
				      * defaults: compare's options; summary takes the shared ones
				      * (rpt_summary_opts_take) */
	enum rpt_format format;
	unsigned formats; /* allowed formats: an enum rpt_format_set */
	char names[96];	  /* the allowed formats for messages, e.g. "text, markdown or json" */
};

/* Compare's defaults (rpt_compare_opts_init), format text; formats (rpt_formats_of) and their
 * names as above. */
void cmd_stat_opts_init(struct cmd_stat_opts *o, unsigned formats);

/* --alpha (0 < A <= 0.5) and --min-effect (a fraction or percentage below 10) as compare,
 * summary and history take them: CLI_OK with *out set, or the exit code of the one line printed
 * for cmd. */
int cmd_parse_alpha(const char *cmd, const char *arg, double *out);
int cmd_parse_min_effect(const char *cmd, const char *arg, double *out);

/* Handles option c (with optarg) when it is a shared one: 1 handled, 0 not a shared option,
 * -1 bad value (one line printed by cli_usage_error for cmd; *out_rc gets its exit code). */
int cmd_stat_opt(struct cmd_stat_opts *o, int c, const char *arg, const char *cmd, int *out_rc);

/* The help lines of the shared options (defaults as documented in docs/statistics.md). */
void cmd_stat_usage(FILE *f, const struct cmd_stat_opts *o);

#endif
