/* SPDX-License-Identifier: MIT */
/* dbt3stab stabilize: measure which stabilizers shrink the between-restart variance here. */
#include "base/cli.h"
#include "base/cli_opt.h"
#include "base/sigchain.h"
#include "commands/cmd.h"
#include "commands/cmd_scale.h"
#include "runner/run_stabilize.h"
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the command line says. */
struct stabilize_args {
	struct run_stab_opts o;
	const char *cands;
	int json, quiet, analyze, help;
};

#define OFF(m) offsetof(struct stabilize_args, m)

static const struct cli_opt options[] = {
    CMD_ROW_SCALE(struct stabilize_args, o.scale, 0, "scale factor of the loaded data (default: read from the data)"),
    CLI_ROW_NUM(CLI_OPT_DURATION, "budget", "DURATION", struct stabilize_args, o.budget_s, 0, 0,
		"bad --budget '%s' (e.g. 30m)",
		"stop starting rounds when the next would not fit (at least 3 rounds)"),
    CLI_ROW_NUM(CLI_OPT_INT, "rounds", "N", struct stabilize_args, o.rounds, 2, RUN_STAB_MAX_ROUNDS,
		"bad value '%s' for --rounds (2 or more)",
		"exactly N rounds (default 6 without --budget)"),
    CLI_ROW_STRING("queries", 0, "LIST", struct stabilize_args, o.queries, "as run (default 1-22)"),
    CLI_ROW_NUM(CLI_OPT_INT, "warmup", "N", struct stabilize_args, o.warmup, 0, 10000,
		"bad value '%s' for --warmup",
		"warm-up executions per query and restart (default 8)"),
    CLI_ROW_NUM(CLI_OPT_INT, "runs", "N", struct stabilize_args, o.runs, 1, 10000,
		"bad value '%s' for --runs",
		"measured executions per query and restart (default 10)"),
    CLI_ROW_STRING("candidates", 0, "LIST", struct stabilize_args, cands,
		   "e.g. no-aslr,nice-20 (default: every available one): server-2pu unpinned "
		   "no-aslr nice-20 sched-fifo large-pages thp-never flush-fsync perf-schema-on "
		   "jemalloc drop-caches ahi-off pool-load"),
    CLI_ROW_FLAG("analyze", 0, struct stabilize_args, analyze,
		 "no measuring: analyse the results already in DIR"),
    CLI_ROW_FLAG("keep-disturbed", 0, struct stabilize_args, o.keep_disturbed,
		 "analyse disturbed restarts too (default: left out and counted in the notes)"),
    CLI_ROW_STRING("output", 'o', "DIR", struct stabilize_args, o.dir,
		   "where results go (default stabilize-results)"),
    CLI_ROW_STRING("datadir", 0, "DIR", struct stabilize_args, o.datadir, "the instance (as run)"),
    CLI_ROW_STRING("port", 0, "N", struct stabilize_args, o.port, "its TCP port (as run)"),
    CLI_ROW_FLAG("json", 0, struct stabilize_args, json, "the analysis as JSON on stdout"),
    CLI_ROW_QUIET(struct stabilize_args, quiet, "no progress"),
    CLI_ROW_HELP(struct stabilize_args, help),
    {.kind = CLI_OPT_END},
};

static void usage(FILE *f)
{
	fputs("usage: dbt3stab stabilize [-s SF] [options]\n"
	      "\n"
	      "An interleaved A/A experiment per candidate stabilizer: each candidate gets one\n"
	      "server restart per round ('dbt3stab run --restarts 1'), in an order rotated\n"
	      "every round; the between-restart variance of the log restart means is compared\n"
	      "with the default's (variance ratio with its CI, a permutation test that keeps\n"
	      "each restart whole, median and worst CoV over the queries, time). Recommended:\n"
	      "a lower variance by the test at 0.05 over the candidates, a lower median CoV and\n"
	      "at most 5% slower. Prints a table, writes DIR/stabilize.json and the profile\n"
	      "DIR/profile.json that 'dbt3stab run --profile' applies. Host changes\n"
	      "(transparent huge pages) are undone after each restart, also when interrupted.\n"
	      "See docs/stability.md.\n"
	      "\n",
	      f);
	cli_opts_usage(f, options);
	fputs("exit: 0 done, 2 usage, 4 a restart failed or the instance is in use (the\n"
	      "experiment holds its lock from the first restart to the last), 130 interrupted\n",
	      f);
}

static void progress(void *arg, const char *msg)
{
	if (!*(int *)arg)
		fprintf(stderr, "stabilize: %s\n", msg);
}

static void fmt_pct(char *out, size_t len, json_t *v)
{
	if (json_is_number(v))
		snprintf(out, len, "%.2f%%", 100 * json_number_value(v));
	else
		snprintf(out, len, "-");
}

/* The candidate's p and time against the default as table cells ("-" when not tested). */
static void fmt_test(char *p, char *t, size_t len, json_t *row)
{
	json_t *pv = json_object_get(row, "perm_p"), *tv = json_object_get(row, "time_ratio");
	snprintf(p, len, "-");
	snprintf(t, len, "-");
	if (json_is_number(pv))
		snprintf(p, len, "%.3g", json_number_value(pv));
	if (json_is_number(tv))
		snprintf(t, len, "x%.3f", json_number_value(tv));
}

static void print_row(size_t i, json_t *row)
{
	char med[16], worst[16], ratio[48] = "-", wall[16] = "-", p[16], t[16];
	fmt_pct(med, sizeof(med), json_object_get(row, "median_cov"));
	fmt_pct(worst, sizeof(worst), json_object_get(row, "worst_cov"));
	fmt_test(p, t, sizeof(p), row);
	json_t *r = json_object_get(row, "variance_ratio");
	if (i > 0 && json_is_number(r))
		snprintf(ratio, sizeof(ratio), "%.2f [%.2f, %.2f]", json_number_value(r),
			 json_number_value(json_object_get(row, "ratio_ci_low")),
			 json_number_value(json_object_get(row, "ratio_ci_high")));
	json_t *w = json_object_get(row, "restart_wall_s");
	if (json_is_number(w))
		snprintf(wall, sizeof(wall), "%.0f", json_number_value(w));
	const char *why = json_string_value(json_object_get(row, "unavailable_because"));
	char left[48] = "";
	json_int_t out = json_integer_value(json_object_get(row, "disturbed_left_out"));
	if (out > 0)
		snprintf(left, sizeof(left), "%lld disturbed left out", (long long)out);
	printf("%-15s %8lld %10s %10s %22s %8s %7s %9s  %s\n",
	       json_string_value(json_object_get(row, "name")),
	       (long long)json_integer_value(json_object_get(row, "restarts")), med, worst, ratio,
	       p, i > 0 ? t : "-", wall, why ? why : left);
}

/* Why a candidate that passed the test was not recommended, each; and once, when rounds were
 * too few for any p to reach the level, the first such reason and how many it concerns. */
static void print_refusals(json_t *a, json_t *rows)
{
	json_t *row;
	size_t i, few = 0;
	const char *few_why = NULL;
	double level = json_number_value(json_object_get(a, "perm_level"));
	json_array_foreach(rows, i, row)
	{
		json_t *pv = json_object_get(row, "perm_p");
		const char *why =
		    json_string_value(json_object_get(row, "not_recommended_because"));
		if (why && strncmp(why, "too few rounds", 14) == 0) {
			few_why = few_why ? few_why : why;
			few++;
		} else if (why && json_is_number(pv) && json_number_value(pv) < level) {
			printf("not recommended: %s: %s\n",
			       json_string_value(json_object_get(row, "name")), why);
		}
	}
	if (few)
		printf("not recommended (%zu candidate%s): %s\n", few, few == 1 ? "" : "s",
		       few_why);
}

static void print_table(json_t *a)
{
	json_t *row, *rows = json_object_get(a, "candidates");
	size_t i;
	printf("%-15s %8s %10s %10s %22s %8s %7s %9s  %s\n", "setting", "restarts", "median cov",
	       "worst cov", "variance vs default", "p", "time", "s/restart", "notes");
	json_array_foreach(rows, i, row) print_row(i, row);
	json_t *rec = json_object_get(a, "recommended");
	printf("\nrecommended: ");
	if (json_array_size(rec) == 0)
		printf("the default (no setting met the rule below)");
	json_array_foreach(rec, i, row) printf("%s%s", i ? " + " : "", json_string_value(row));
	printf("\n");
	print_refusals(a, rows);
	printf(
	    "(variance vs default: pooled over the queries, %.0f%% CI from the F distribution, "
	    "a screen: the queries of a restart are not independent. p: exact permutation test "
	    "of a lower variance, restarts kept whole; recommended when p < %.3g (alpha over the "
	    "candidates tested), the median CoV is lower and the time at most x%.2f of the "
	    "default's. The combination itself was not measured together.)\n",
	    100 * (1 - json_number_value(json_object_get(a, "alpha"))),
	    json_number_value(json_object_get(a, "perm_level")),
	    1 + json_number_value(json_object_get(a, "max_slowdown")));
}

static int write_json(const char *dir, const char *name, json_t *j, struct errbuf *err)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	char *text = json_dumps(j, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	if (!text)
		return errbuf_set(err, "out of memory");
	size_t len = strlen(text);
	int rc = util_write_atomic(path, text, len, err);
	free(text);
	return rc;
}

static int stabilize(struct run_stab_opts *o, const char *list, int analyze, int json, int quiet)
{
	struct run_stab_cand cands[RUN_STAB_MAX_CANDS];
	struct errbuf err = {""};
	char self[PATH_MAX];
	int n;
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0) {
		cli_error("cannot find the dbt3stab binary (/proc/self/exe)");
		return CLI_FOUND;
	}
	self[len] = '\0';
	o->binary = self;
	o->event = progress;
	o->arg = &quiet;
	run_stab_candidates(cands, &n);
	if (list && run_stab_select(cands, &n, list, &err) < 0)
		return cli_usage_error("stabilize", "%s", err.msg);
	for (int i = 0; i < n && !quiet; i++)
		if (!cands[i].available)
			fprintf(stderr, "stabilize: %s: not measured: %s\n", cands[i].name,
				cands[i].why);
	if (!analyze && run_stab_dir_unused(cands, o, &err) < 0) {
		cli_error("%s", err.msg);
		return CLI_USAGE;
	}
	/* a signal ends the experiment after the restart: its own dbt3stab stops its server */
	sigchain_push_stop(SIGCHAIN_STOP);
	o->stop = sigchain_stop_flag();
	json_t *a =
	    analyze ? run_stab_analyze(cands, n, o, &err) : run_stab_experiment(cands, n, o, &err);
	if (!a) {
		cli_error("%s", err.msg);
		return *o->stop ? CLI_INTERRUPTED : analyze ? CLI_USAGE : CLI_SERVER;
	}
	json_t *profile = run_stab_profile(cands, n, a);
	int rc = CLI_OK;
	if (write_json(o->dir, "stabilize.json", a, &err) < 0 ||
	    write_json(o->dir, "profile.json", profile, &err) < 0) {
		cli_error("%s", err.msg);
		rc = CLI_IO;
	}
	if (json) {
		json_dumpf(a, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
		fputc('\n', stdout);
	} else {
		print_table(a);
	}
	if (rc == CLI_OK)
		cli_info(quiet,
			 "wrote '%s/stabilize.json' and the profile '%s/profile.json' (run "
			 "--profile)",
			 o->dir, o->dir);
	json_decref(profile);
	json_decref(a);
	return rc;
}

/* No -s: the scale factor of the data in the instance the runs measure. 0 or a CLI_* code. */
static int scale_loaded(struct run_stab_opts *o, int quiet)
{
	struct srv_opts so;
	srv_opts_init(&so);
	int rc = CLI_OK;
	if (o->port && cli_parse_long(o->port, 0, 65535, &so.port) < 0)
		rc = cli_usage_error("stabilize", "bad --port '%s'", o->port);
	else if (o->datadir && !(so.datadir = strdup(o->datadir)))
		rc = cli_usage_error("stabilize", "out of memory");
	if (rc == CLI_OK) /* the database the runs measure: dbt3 */
		rc = cmd_scale_loaded(&o->scale, &so, "dbt3", quiet, "stabilize");
	srv_opts_release(&so);
	return rc;
}

int cmd_stabilize(int argc, char **argv)
{
	struct stabilize_args a = {
	    .o = {.dir = "stabilize-results", .warmup = 8, .runs = 10, .alpha = 0.05}};
	struct cli_parse p = {.cmd = "stabilize", .base = &a};
	struct run_stab_opts *o = &a.o;
	int rc = cmd_parse(&p, options, usage, 0, argc, argv);
	if (rc != CLI_OK || p.help)
		return rc;
	if (!(o->scale > 0) && !a.analyze && (rc = scale_loaded(o, a.quiet)))
		return rc;
	if (o->rounds && o->budget_s > 0)
		return cli_usage_error("stabilize", "--rounds and --budget: give one");
	if (!*o->dir)
		return cli_usage_error("stabilize", "an empty output directory");
	return stabilize(o, a.cands, a.analyze, a.json, a.quiet);
}
