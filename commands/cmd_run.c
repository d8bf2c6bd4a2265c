/* SPDX-License-Identifier: MIT */
/* dbt3stab run: measure the queries over several server restarts (docs/run.md). */
#include "base/cli.h"
#include "base/progress.h"
#include "base/safe_write.h"
#include "base/sigchain.h"
#include "base/text.h"
#include "commands/cmd.h"
#include "commands/cmd_scale.h"
#include "commands/cmd_pin_opts.h"
#include "commands/cmd_srv_args.h"
#include "pinning/pin.h"
#include "result/res_funcs.h"
#include "result/res.h"
#include "result/res_dir.h"
#include "result/res_trace.h"
#include "runner/run.h"
#include "runner/run_budget.h"
#include "runner/run_prior.h"
#include "runner/run_report.h"
#include "runner/run_sbs.h"
#include "runner/run_stabilize.h"
#include "server/srv.h"
#include "stats/st_seq.h"
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_VARIANTS 16

/* What an interrupt says, prepared before the run (prepare_interrupt_note). */
struct target_set;
struct intr_note {
	const struct target_set *ts; /* result paths, read by the handler */
	int resume;		     /* the file existed before: it keeps its restarts */
	const char *kept[8];	     /* the note when restarts were kept, up to a NULL */
	char resume_cmd[4096];	     /* the command that continues the run ("": too long) */
};

/* What the command line says. */
struct run_args {
	struct run_plan plan;
	struct srv_opts sopts;
	struct pin_opts popts;
	const char *output, *resume;
	const char *preload_opt; /* --preload, or NULL */
	char preload[PATH_MAX];	 /* the preload checked (run_preload_check): sopts.preload */
	const char *variant_specs[MAX_VARIANTS];
	int n_variants, quiet, no_table, force, help;
	int sbs_opt; /* --side-by-side 1, --restart-paired 0, neither -1 */
	int argc; /* the command line as given (before --profile is expanded) */
	char **argv;
	struct intr_note note; /* what an interrupt says (base/sigchain.h) */
};

/* Tags of the rows: what --resume takes from the file, what --budget plans itself, what needs
 * --budget, the scale, and what a resume needs again (--profile). */
enum {
	TAG_PLAN,
	TAG_FIXED,
	TAG_BUDGET,
	TAG_SCALE,
	TAG_RESUME,
	TAG_RESTARTS, /* these: what run_plan_instr_defaults keeps (RUN_GIVEN_*) */
	TAG_WARMUP,
	TAG_RUNS,
	TAG_WARMUP_MIN,
	TAG_WARMUP_MAX,
	TAG_RUNS_MIN,
	TAG_RUNS_MAX,
};
#define T(x) (1u << TAG_##x)
#define OFF(m) offsetof(struct run_args, m)

static int take_queries(void *dst, const struct cli_opt *row, const char *arg, struct errbuf *err)
{
	struct run_plan *plan = dst;
	(void)row;
	int r = run_queries_parse(plan->queries, arg, err);
	if (r < 0)
		return -1;
	plan->n_queries = r;
	return 0;
}

static int take_order(void *dst, const struct cli_opt *row, const char *arg, struct errbuf *err)
{
	(void)row;
	(void)err;
	if (strcmp(arg, "fixed") != 0 && strcmp(arg, "shuffled") != 0)
		return -1;
	((struct run_plan *)dst)->shuffled = strcmp(arg, "shuffled") == 0;
	return 0;
}

static int take_seed(void *dst, const struct cli_opt *row, const char *arg, struct errbuf *err)
{
	struct run_plan *plan = dst;
	long v;
	(void)row;
	(void)err;
	if (cli_parse_long(arg, 0, 0x7fffffffffffffffL, &v) < 0)
		return -1;
	plan->seed = (uint64_t)v;
	plan->seed_given = 1;
	return 0;
}

#if RUN_SBS_DEFAULT
#define SIDE_BY_SIDE_DEFAULT                                                                       \
	"; the default for two variants where both servers fit (else restart-paired, said in one " \
	"line)"
#define RESTART_PAIRED_DEFAULT "the default where side by side does not fit"
#else
#define SIDE_BY_SIDE_DEFAULT ""
#define RESTART_PAIRED_DEFAULT "the default"
#endif

/* run_stab_profile_argv applied the first --profile, spelled out, before the parse: one the
 * parse sees is another, or an abbreviation, and is not applied. */
static int take_profile(void *dst, const struct cli_opt *row, const char *arg, struct errbuf *err)
{
	(void)dst;
	(void)row;
	(void)arg;
	return errbuf_set(err, "--profile is applied once, spelled out: --profile FILE");
}

/* An integer row of the plan. */
#define PLAN_INT(n, m, lo, hi, tg, text)                                                           \
	{                                                                                          \
		.kind = CLI_OPT_INT, .name = n, .arg = "N", .off = OFF(plan.m), .min = lo,         \
		.max = hi, .tags = tg, .help = text                                                \
	}

/* A row of the plan that fn parses (the query list, its order, the seed). */
#define PLAN_CALL(n, a, f, msg, text)                                                              \
	{                                                                                          \
		.kind = CLI_OPT_CALL, .name = n, .arg = a, .off = OFF(plan), .fn = f,              \
		.tags = T(PLAN), .bad = msg, .help = text                                          \
	}

static const struct cli_opt options[] = {
    CMD_ROW_SCALE(struct run_args, plan.scale, T(SCALE),
		  "scale factor of the loaded data (default: read from the data)"),
    CLI_ROW_STRING("output", 'o', "PATH", struct run_args, output,
		   "result file (with --variant: a directory, one NAME.json per variant)"),
    {.kind = CLI_OPT_DURATION,
     .name = "budget",
     .arg = "DURATION",
     .off = OFF(plan.budget_s),
     .tags = T(PLAN),
     .bad = "bad --budget '%s' (a duration such as 90s, 45m, 1h30m)",
     .help = "finish within DURATION (e.g. 45m, 90s, 1h30m): adaptive warm-up, runs per "
	     "restart from the variance so far, pairs of restarts until every query is decided "
	     "or the next pair would not fit, the last one paced to fit if need be (replaces "
	     "--restarts, --warmup, --runs; see docs/run.md)"},
    {.kind = CLI_OPT_FRACTION,
     .name = "detect",
     .arg = "PCT",
     .off = OFF(plan.detect),
     .min = 0,
     .max = 1,
     .tags = T(PLAN) | T(BUDGET),
     .bad = "bad --detect '%s' (e.g. 3% or 0.03, at most 100%)",
     .help = "with --budget: the change to detect (default 3%)"},
    PLAN_INT("warmup-min", warmup_min, 0, 10000, T(PLAN) | T(BUDGET) | T(WARMUP_MIN),
	     "with --budget: the least warm-up (default 4); the steadiness rule needs 4 "
	     "executions, so a minimum below 4 matters only when the pacing stops a warm-up"),
    PLAN_INT("warmup-max", warmup_max, 1, 10000, T(PLAN) | T(BUDGET) | T(WARMUP_MAX),
	     "with --budget: the most warm-up (default 20)"),
    PLAN_INT("runs-min", runs_min, 1, 10000, T(PLAN) | T(BUDGET) | T(RUNS_MIN),
	     "with --budget: the fewest runs per restart (default 3)"),
    PLAN_INT("runs-max", runs_max, 1, 10000, T(PLAN) | T(BUDGET) | T(RUNS_MAX),
	     "with --budget: the most runs per restart (default 10)"),
    {.kind = CLI_OPT_FLAG,
     .name = "measure-decided",
     .old = "keep-all",
     .off = OFF(plan.keep_all),
     .tags = T(PLAN) | T(BUDGET),
     .help = "with --budget: keep measuring the queries already decided"},
    PLAN_INT("min-restarts", min_restarts, 1, ST_SEQ_MAX_PAIRS, T(PLAN) | T(BUDGET),
	     "with --budget: make at least N restarts (pairs with variants) whatever the "
	     "estimate, so that the restart noise is known (default 2); each owed restart gets "
	     "an equal share of the budget left, and its warm-ups stop early (at --warmup-min) "
	     "to keep to it"),
    {.kind = CLI_OPT_STRING,
     .name = "costs-from",
     .arg = "FILE",
     .off = OFF(plan.costs_from),
     .tags = T(PLAN) | T(BUDGET),
     .help = "with --budget: an earlier result at the same scale factor (e.g. last night's) "
	     "gives each query's cost before its first execution: the first restart is paced "
	     "by cost, and a budget that cannot hold the owed restarts is said before anything "
	     "runs"},
    /* taken out of argv by run_stab_profile_argv before the parse; the resume hint keeps it */
    {.kind = CLI_OPT_CALL,
     .name = "profile",
     .arg = "FILE",
     .fn = take_profile,
     .tags = T(RESUME),
     .help = "apply the settings 'dbt3stab stabilize' recommended (its profile.json); "
	     "recorded as plan.profile"},
    {.kind = CLI_OPT_STRING,
     .name = "preload",
     .arg = "FILE",
     .off = OFF(preload_opt),
     .tags = T(RESUME),
     .help = "LD_PRELOAD for the server only, set after the switch to its user (an absolute "
	     "path to a regular file only root or you can change; replaces a profile's "
	     "preload)"},
    PLAN_INT("redo-disturbed", redo_disturbed, 0, RES_MAX_RESTARTS, 0,
	     "measure up to N disturbed restarts again at the end (the disturbed entries are "
	     "kept under \"redone\"; not with --budget)"),
    {.kind = CLI_OPT_FLAG,
     .name = "instructions",
     .off = OFF(plan.instructions),
     .tags = T(PLAN),
     .help = "run the server under Valgrind callgrind (about 45 times slower) and record the "
	     "instructions of every measured execution; the warm-up (at most --warmup) ends "
	     "when two counts agree within 0.2%; defaults --restarts 2 --warmup 10 --runs 2; "
	     "with --budget --warmup-min 2 --warmup-max 10 --runs-min 2 --runs-max 2, and the "
	     "counts decide a query first (docs/work.md)"},
    {.kind = CLI_OPT_FLAG, .name = "optimizer-trace", .off = OFF(plan.optimizer_trace),
     .tags = T(PLAN), .help = "once per restart and query, untimed, after its measured runs: the "
			      "optimizer trace of EXPLAIN of the query as its decision summary "
			      "(join orders considered, costs, the chosen one; docs/explain.md)"},
    {.kind = CLI_OPT_FLAG,
     .name = "side-by-side",
     .off = OFF(sbs_opt),
     .tags = T(PLAN), /* --resume refuses it */
     .help = "two variants' servers up at once, each on a clone of the data, the executions "
	     "alternated strictly (A B A B through every query, no server twice in a row); with "
	     "--budget the sequential rule looks from the third pair, Pocock-type "
	     "(docs/run.md)" SIDE_BY_SIDE_DEFAULT},
    {.kind = CLI_OPT_UNSET,
     .name = "restart-paired",
     .off = OFF(sbs_opt),
     .tags = T(PLAN),
     .help = "two variants, one server at a time (" RESTART_PAIRED_DEFAULT ")"},
    {.kind = CLI_OPT_FLAG,
     .name = "refresh",
     .off = OFF(plan.refresh),
     .tags = T(PLAN),
     .help = "after the queries of every restart, measure the refresh functions RF1 and RF2 "
	     "(refresh set 1, generated in process as dbgen -U makes it; SF 0.01 and above), "
	     "then restore and check the data (rows, CHECKSUM TABLE); entries RF1 and RF2"},
    PLAN_INT("streams", streams, 1, RUN_STREAMS_MAX, T(PLAN),
	     "after the queries (and --refresh's pair) of every restart, the throughput test: S "
	     "connections at once, each running the queries once in TPC-H's order for its "
	     "stream number, and with --refresh a refresh stream of S RF1/RF2 pairs; entries "
	     "T:Q1 ... (one time per stream), T:stream (each stream's time)"),
    {.kind = CLI_OPT_FLAG,
     .name = "no-analyze",
     .off = OFF(plan.no_analyze),
     .tags = T(PLAN),
     .help = "do not run each query once more under ANALYZE after its measured executions in "
	     "every restart (the per-table rows compare attributes a work change to; "
	     "docs/explain.md)"},
    PLAN_INT("restarts", restarts, 1, RES_MAX_RESTARTS, T(PLAN) | T(FIXED) | T(RESTARTS),
	     "server starts (default 5)"),
    PLAN_INT("warmup", warmup, 0, RES_MAX_RUNS, T(PLAN) | T(FIXED) | T(WARMUP),
	     "warm-up executions per query and restart (default 8)"),
    PLAN_INT("runs", runs, 1, RES_MAX_RUNS, T(PLAN) | T(FIXED) | T(RUNS),
	     "measured executions per query and restart (default 10)"),
    PLAN_CALL("queries", "LIST", take_queries, NULL, "e.g. 1-22, 1,3,5-7, Q6,Q14 (default 1-22)"),
    PLAN_CALL("order", "fixed|shuffled", take_order, "--order is fixed or shuffled, not '%s'",
	      "query order; shuffled draws a new order per restart"),
    PLAN_CALL("seed", "N", take_seed, "bad --seed '%s'",
	      "seed of the shuffles (query order, variant order)"),
    CLI_ROW_STRING("label", 0, "TEXT", struct run_args, plan.label,
		   "free text stored in the result file"),
    {.kind = CLI_OPT_DOUBLE,
     .name = "query-timeout",
     .arg = "S",
     .off = OFF(plan.query_timeout),
     .min = 1e-6,
     .max = RES_MAX_TIMEOUT_S,
     .bad = "bad --query-timeout '%s' (seconds)",
     .help = "kill an execution after S seconds (KILL QUERY from a second connection), "
	     "record 'timeout', go on"},
    PLAN_INT("max-crashes", max_crashes, 0, RES_MAX_CRASHES, T(PLAN),
	     "give up after N server crashes (default 3; exit 4)"),
    {.kind = CLI_OPT_LIST,
     .name = "variant",
     .arg = "NAME:mysqld=PATH[,option=value...]",
     .off = OFF(variant_specs),
     .off2 = OFF(n_variants),
     .max = MAX_VARIANTS,
     .tags = T(RESUME),
     .bad = "at most 16 variants",
     .help = "a server build or setting to measure (repeatable); restarts interleave A B, B "
	     "A, A B ... (shuffled with --seed); NAME: letters, digits, '-', '_', '.' (up to "
	     "64); a value with commas in double quotes: sql_mode=\"A,B\"; no line break, '!' "
	     "or control character; --resume takes the binaries from its command line only: "
	     "give the file's variants again, as the interrupt's note prints them"},
    CLI_ROW_STRING("resume", 0, "PATH", struct run_args, resume,
		   "complete an interrupted run (its file or directory)"),
    CLI_ROW_FLAG("force", 0, struct run_args, force,
		 "replace an existing result file (without it, an existing -o file is refused: "
		 "nothing measured is lost)"),
    CLI_ROW_FLAG("no-table", 0, struct run_args, no_table, "do not print the table at the end"),
    CLI_ROW_QUIET(struct run_args, quiet, "no progress or messages"),
    CLI_ROW_HELP(struct run_args, help),
    CMD_SRV_GROUP(struct run_args, sopts),
    CMD_PIN_GROUPS(struct run_args, popts),
    {.kind = CLI_OPT_END},
};

static void usage(FILE *f)
{
	fputs("usage: dbt3stab run [-s SF] -o result.json [options] [server options] [placement "
	      "options]\n"
	      "       dbt3stab run [-s SF] -o DIR --variant NAME:mysqld=PATH[,option=value...] ...\n"
	      "       dbt3stab run --resume result.json|DIR [--variant ...] [server options] "
	      "[placement options]\n"
	      "\n"
	      "Per restart: start the (pinned) server, run each query's warm-up then measured\n"
	      "executions in one connection, fingerprint its result and plan, stop the server,\n"
	      "write the checkpoint. Prints a per-query table at the end.\n"
	      "\n"
	      "options:\n",
	      f);
	cli_opts_usage(f, options);
}

/* ---- progress display ---- */

/* The live line: where the run is, at most ten times a second; erased for an event's line. */
static void on_progress(void *arg, const struct run_progress *p)
{
	struct progress *d = arg;
	uint64_t now = util_now_ns();
	if (!progress_due(d, now))
		return;
	char el[32], eta[32], q[64] = "starting the server";
	progress_duration(el, sizeof(el), (double)p->elapsed_ns / 1e9);
	progress_duration(eta, sizeof(eta), p->eta_s);
	if (p->query)
		snprintf(q, sizeof(q), "%s (%d/%d) run %d/%d", p->query, p->qpos + 1, p->nq, p->run,
			 p->runs);
	char rs[32];
	if (p->restarts > 0)
		snprintf(rs, sizeof(rs), "%d/%d", p->restart + 1, p->restarts);
	else /* --budget: restarts open, the time left of the budget */
		snprintf(rs, sizeof(rs), "%d", p->restart + 1);
	progress_draw(d, now, "%s%srestart %s  %s  elapsed %s  %s %s", p->variant ? p->variant : "",
		      p->variant ? ": " : "", rs, q, el, p->restarts > 0 ? "ETA" : "budget left",
		      eta);
}

static void on_event(void *arg, const char *msg)
{
	progress_note(arg, "%s", msg);
}

/* ---- targets ---- */

struct target_set {
	struct run_variant variants[MAX_VARIANTS];
	int n_variants;
	struct run_target targets[MAX_VARIANTS];
	struct srv_opts opts[MAX_VARIANTS]; /* shallow copies of the base with own option lists */
	char *paths[MAX_VARIANTS];
	int n;
};

static void targets_release(struct target_set *ts)
{
	for (int i = 0; i < ts->n; i++) {
		srv_kv_free(ts->opts[i].server_options, ts->opts[i].n_server_options);
		res_file_free(ts->targets[i].res);
		free(ts->paths[i]);
	}
	for (int i = 0; i < ts->n_variants; i++)
		run_variant_release(&ts->variants[i]);
}

/* Target i runs base with variant v (NULL: base alone). */
static int target_add(struct target_set *ts, const struct srv_opts *base,
		      const struct run_variant *v, char *path, struct errbuf *err)
{
	int i = ts->n++;
	struct srv_opts *o = &ts->opts[i];
	*o = *base;
	o->server_options = NULL;
	o->n_server_options = 0;
	ts->paths[i] = path;
	for (size_t k = 0; k < base->n_server_options; k++)
		if (srv_kv_set(&o->server_options, &o->n_server_options,
			       base->server_options[k].name, base->server_options[k].value) < 0)
			return errbuf_set(err, "out of memory");
	if (v) {
		if (v->mysqld)
			o->mysqld = v->mysqld;
		for (size_t k = 0; k < v->n_options; k++)
			if (srv_kv_set(&o->server_options, &o->n_server_options, v->options[k].name,
				       v->options[k].value) < 0)
				return errbuf_set(err, "out of memory");
	}
	ts->targets[i].name = v ? v->name : NULL;
	ts->targets[i].spec = v ? v->spec : NULL;
	ts->targets[i].opts = o;
	ts->targets[i].out_path = path;
	return 0;
}

static char *path_join(const char *dir, const char *name, const char *ext)
{
	char *p = NULL;
	if (asprintf(&p, "%s/%s%s", dir, name, ext) < 0)
		return NULL;
	return p;
}

/* Target d->files[i] of --resume (its plan, variant and path taken over from d). */
static int resume_add(struct target_set *ts, struct run_plan *plan, const struct srv_opts *base,
		      struct res_dir *d, size_t i, struct errbuf *err)
{
	struct res_file *res = d->files[i];
	struct run_plan p;
	if (run_plan_from_result(&p, res, err) < 0) {
		/* err->msg is an argument: copy it, vsnprintf may not overlap */
		char why[sizeof(err->msg)];
		snprintf(why, sizeof(why), "%s", err->msg);
		return errbuf_set(err, "'%s': cannot resume: %.900s", d->paths[i], why);
	}
	if (i == 0) {
		p.label = plan->label;
		p.query_timeout = plan->query_timeout > 0 ? plan->query_timeout : p.query_timeout;
		*plan = p;
	}
	const char *spec = json_string_value(json_object_get(res->plan, "variant_spec"));
	const struct run_variant *v = NULL;
	if (spec) {
		struct run_variant *nv = &ts->variants[ts->n_variants];
		if (run_variant_parse(nv, spec, err) < 0)
			return -1;
		ts->n_variants++;
		v = nv;
	}
	char *path = d->paths[i];
	d->paths[i] = NULL;
	d->files[i] = NULL;
	int rc = target_add(ts, base, v, path, err);
	ts->targets[ts->n - 1].res = res;
	return rc;
}

/* --resume PATH: a result file, or a directory of variant result files (res_dir_read: in the
 * order the run started them). */
static int resume_load(struct target_set *ts, struct run_plan *plan, const struct srv_opts *base,
		       const char *path, struct errbuf *err)
{
	struct res_dir d;
	int rc = 0;
	memset(&d, 0, sizeof(d));
	if (res_path_is_dir(path)) {
		rc = res_dir_read(&d, path, MAX_VARIANTS, err);
	} else if (!(d.paths = calloc(1, sizeof(*d.paths))) ||
		   !(d.files = calloc(1, sizeof(*d.files))) || !(d.paths[0] = strdup(path))) {
		rc = errbuf_set(err, "out of memory");
	} else {
		d.n = 1;
		rc = res_file_read(&d.files[0], path, err);
	}
	for (size_t i = 0; rc == 0 && i < d.n; i++)
		rc = resume_add(ts, plan, base, &d, i, err);
	res_dir_release(&d);
	return rc < 0 ? -1 : 0;
}

/* What an existing result file may be (util_out_check's guard; ctx: the --force flag): a new
 * result file must not replace one that exists (its restarts would be lost) unless --force, and
 * replaces nothing but a result file. */
static int output_free(const char *path, void *ctx, struct errbuf *err)
{
	int force = *(const int *)ctx;
	enum res_kind kind = res_file_kind(path);
	if (kind != RES_KIND_NONE && kind != RES_KIND_RESULT) /* --force replaces results only */
		return errbuf_set(err, "'%s' is %s, not a result file: give another -o", path,
				  res_kind_name(kind));
	if (!force)
		return errbuf_set(err,
				  "'%s' exists: complete an interrupted run with --resume %s, or "
				  "replace the file with --force",
				  path, path);
	return 0;
}

/* Everything that can be checked before a file is created or a server started: the binaries,
 * the size of the result file the plan makes, the outputs (new runs: output is -o). */
static int check_arguments(const struct target_set *ts, const struct run_plan *plan,
			   const struct srv_opts *sopts, const char *output, int n_variants,
			   int force, struct errbuf *err)
{
	char what[128];
	if (sopts->mysqld && run_binary_check("--mysqld", sopts->mysqld, err) < 0)
		return -1;
	for (int i = 0; i < ts->n_variants; i++) {
		snprintf(what, sizeof(what), "variant '%s': mysqld", ts->variants[i].name);
		if (ts->variants[i].mysqld && run_binary_check(what, ts->variants[i].mysqld, err) < 0)
			return -1;
	}
	size_t tokens = res_plan_tokens(plan->restarts, plan->n_queries, plan->warmup, plan->runs);
	if (plan->instructions) /* each entry's profile by function */
		tokens += res_funcs_tokens(plan->restarts, plan->n_queries);
	if (plan->optimizer_trace) /* each entry's trace summary */
		tokens += res_trace_tokens(plan->restarts, plan->n_queries);
	if (tokens > RES_MAX_TOKENS)
		return errbuf_set(err,
				  "%d restarts of %d queries with %d warm-up and %d measured runs%s "
				  "make a result file of about %zu JSON values, more than a reader "
				  "takes (%d; docs/result-format.md)",
				  plan->restarts, plan->n_queries, plan->warmup, plan->runs,
				  plan->optimizer_trace ? " and their optimizer trace summaries" : "",
				  tokens, RES_MAX_TOKENS);
	if (!output)
		return 0;
	struct stat st;
	if (n_variants && stat(output, &st) == 0 && !S_ISDIR(st.st_mode))
		return errbuf_set(err, "'%s' is not a directory (with --variant, -o is one)",
				  output);
	for (int i = 0; i < ts->n; i++) /* an absent one is tried in create_outputs */
		if (stat(ts->targets[i].out_path, &st) == 0 &&
		    util_out_check(ts->targets[i].out_path, NULL, 0, output_free, &force, err) < 0)
			return -1;
	return 0;
}

/* The output directory of variants (made here, removed again when a file cannot be written in
 * it) and a trial of each result file. */
static int create_outputs(const struct target_set *ts, const char *output, int n_variants,
			  int force, char *made_dirs, struct errbuf *err)
{
	int made = 0;
	if (output && n_variants) { /* the result files are written by path at each checkpoint */
		util_path_first_missing(made_dirs, PATH_MAX, output);
		int dfd = util_outdir_open(output, UTIL_OUTDIR_STABLE, &made, err);
		if (dfd < 0)
			return -1;
		close(dfd);
	}
	for (int i = 0; i < ts->n; i++)
		if (util_out_check(ts->targets[i].out_path, NULL, 0, output_free, &force, err) < 0) {
			char why[sizeof(err->msg)];
			snprintf(why, sizeof(why), "%s", err->msg);
			errbuf_set(err, "cannot write the result file: %.900s", why);
			if (made)
				rmdir(output);
			return -1;
		}
	if (output && !n_variants) { /* -o FILE: rewritten by path, its directory must stay */
		char dir[PATH_MAX];
		snprintf(dir, sizeof(dir), "%s", output);
		int dfd = util_outdir_open(dirname(dir), UTIL_OUTDIR_STABLE, NULL, err);
		return dfd < 0 ? -1 : close(dfd);
	}
	return 0;
}

/* Nonzero when res holds at least one restart of a query. */
static int measured(const struct res_file *res)
{
	for (size_t i = 0; res && i < res->n_queries; i++)
		if (res->queries[i].n_restarts)
			return 1;
	return 0;
}

/* ---- signals ---- */

/* SIGINT, SIGTERM and SIGHUP (a closed terminal) end the run through base/sigchain.h's exit
 * handler: it stops the servers this process started and writes struct intr_note's pieces; the
 * last checkpoint is on disk (written atomically after every query). Before one is: */
static const char *const intr_none[] = {
    "dbt3stab: interrupted before the first checkpoint; nothing written\n", NULL};

/* The note (sigchain_note_set), in the handler: were restarts kept, or is the interrupt inside
 * a first write? */
static const char *const *interrupt_note(void *ctx)
{
	const struct intr_note *in = ctx;
	int kept = in->resume;
	for (int i = 0; in->ts && i < in->ts->n; i++) {
		const struct run_target *t = &in->ts->targets[i];
		kept |= t->written == 2 || (t->written && access(t->out_path, F_OK) == 0);
	}
	return kept ? in->kept : intr_none;
}

/* What resume_command keeps of the command line. */
struct resume_words {
	char *out;
	size_t len, at;
	int no_variants; /* leave out the --variant words */
};

/* The options a result file does not keep: the server's, the placement's and --profile. */
static void keep_for_resume(void *ctx, const struct cli_opt *row, char *const *words, int n)
{
	struct resume_words *w = ctx;
	if (!(row->tags & T(RESUME)) && !cli_opts_has(cmd_srv_options, row) &&
	    !cli_opts_has(cmd_pin_options, row) && !cli_opts_has(cmd_stab_options, row))
		return;
	if (w->no_variants && strcmp(row->name, "variant") == 0)
		return;
	for (int i = 0; i < n && w->at < w->len; i++)
		w->at = util_shell_word(w->out, w->len, w->at, words[i]);
}

/* The command that continues an interrupted run: --resume PATH and the options of the command
 * line as given (argv before --profile is expanded) that the result file does not keep, so a
 * resume needs them again: the server's (--datadir, --port, ...), the placement's, --profile,
 * --preload and the variants (no_variants: not them), in their order. "" when it does not fit
 * in len. */
static void resume_command(char *out, size_t len, const char *path, int argc, char **argv,
			   int no_variants)
{
	struct resume_words w = {out, len, (size_t)snprintf(out, len, "dbt3stab run --resume"),
				 no_variants};
	w.at = util_shell_word(out, len, w.at, path);
	if (cli_opts_scan(options, argc, argv, keep_for_resume, &w) < 0)
		w.at = len;
	if (w.at >= len)
		out[0] = '\0';
}

/* The line the handler prints: where the finished restarts are and how to go on (resume: the
 * command line that continues the run, in->resume_cmd), then sets it. */
static void prepare_interrupt_note(struct intr_note *in, const struct target_set *ts,
				   const char *path, int resume, int budget)
{
	const char **k = in->kept;
	in->ts = ts;
	in->resume = resume;
	*k++ = cli_is_tty(stderr) ? PROGRESS_ERASE : "";
	*k++ = "dbt3stab: interrupted; finished restarts kept in '";
	*k++ = path;
	if (budget) {
		*k++ = "' (a --budget run cannot be resumed)\n";
	} else if (in->resume_cmd[0]) {
		*k++ = "'; continue with:\n    ";
		*k++ = in->resume_cmd;
		*k++ = "\n";
	} else {
		*k++ = "' (continue with: dbt3stab run --resume and the server and placement "
		       "options of this run)\n";
	}
	*k = NULL;
	sigchain_note_set(interrupt_note, in);
}

/* --resume runs only the binaries its own command line names, never one a file names: the
 * --variant values must be the file's (run_variant_resume_check); else one line with the command
 * that resumes with the file's variants. 0 or a CLI_* code. */
static int resume_variants(const struct target_set *ts, const struct run_args *a)
{
	const char *file[MAX_VARIANTS];
	char cmd[4096];
	struct errbuf err = {{0}};
	for (int i = 0; i < ts->n_variants; i++)
		file[i] = ts->variants[i].spec;
	if (run_variant_resume_check(file, ts->n_variants, a->variant_specs, a->n_variants, &err) ==
	    0)
		return 0;
	resume_command(cmd, sizeof(cmd), a->resume, a->argc, a->argv, 1);
	size_t at = strlen(cmd);
	for (int i = 0; i < ts->n_variants && at < sizeof(cmd); i++)
		at = util_shell_word(cmd, sizeof(cmd), util_shell_word(cmd, sizeof(cmd), at, "--variant"),
				file[i]);
	cli_error("'%s': %s (--resume runs only the binaries its command line names); to resume "
		  "with the file's: %s",
		  a->resume, err.msg, cmd[0] && at < sizeof(cmd) ? cmd : "give its variants again");
	return CLI_USAGE;
}

/* --preload, else the profile's: checked, then given to the server (sopts.preload) and to no
 * other process. 0 or a CLI_* code. */
static int preload_take(struct run_args *a)
{
	struct errbuf err = {{0}};
	const char *p = a->preload_opt
			    ? a->preload_opt
			    : json_string_value(json_object_get(a->plan.profile, "preload"));
	if (!p)
		return 0;
	if (run_preload_check(a->preload, sizeof(a->preload), p, &err) < 0)
		return cli_usage_error("run", "%s", err.msg);
	a->sopts.preload = a->preload;
	return 0;
}

/* ---- the command ---- */

/* The options that do not go together, and what is required. 0 or a CLI_* code. */
static int check_args(struct run_args *a, const struct cli_parse *p)
{
	const char *cmd = "run";
	const struct run_plan *plan = &a->plan;
	const char *plan_opt = cli_opts_given(p, TAG_PLAN), *fixed_opt = cli_opts_given(p, TAG_FIXED);
	const char *budget_opt = cli_opts_given(p, TAG_BUDGET);
	int scale_given = cli_opts_given(p, TAG_SCALE) != NULL;
	struct errbuf err = {{0}};
	if (a->resume && (scale_given || plan_opt))
		return cli_usage_error(cmd,
				       "--resume takes the plan and scale from the file: drop %s",
				       plan_opt ? plan_opt : "-s");
	if (run_budget_on(plan) && fixed_opt)
		return cli_usage_error(
		    cmd, "--budget plans the restarts, warm-up and runs itself: drop %s",
		    fixed_opt);
	if (a->sbs_opt == 1 && a->n_variants != 2)
		return cli_usage_error(cmd, "--side-by-side measures two variants: give two --variant");
	if (a->sbs_opt == 1 && (plan->redo_disturbed || plan->instructions))
		return cli_usage_error(cmd, "%s works restart by restart, not with --side-by-side",
				       plan->redo_disturbed ? "--redo-disturbed" : "--instructions");
	if (run_budget_on(plan) && plan->redo_disturbed)
		return cli_usage_error(cmd,
				       "--redo-disturbed works with the fixed protocol, not with "
				       "--budget");
	if ((plan->refresh || plan->streams) && (run_budget_on(plan) || a->sbs_opt == 1))
		return cli_usage_error(cmd, "%s works with the fixed protocol, not with %s",
				       plan->refresh ? "--refresh" : "--streams",
				       run_budget_on(plan) ? "--budget" : "--side-by-side");
	if (plan->refresh && scale_given && plan->scale < 0.01)
		return cli_usage_error(cmd, "--refresh needs scale factor 0.01 or above: dbgen's "
					    "update sets are empty below it");
	if (!run_budget_on(plan) && budget_opt)
		return cli_usage_error(cmd, "%s needs --budget", budget_opt);
	if (plan->warmup_min > plan->warmup_max || plan->runs_min > plan->runs_max) {
		int w = plan->warmup_min > plan->warmup_max;
		return cli_usage_error(cmd, "--%s-min %d is above --%s-max %d",
				       w ? "warmup" : "runs", w ? plan->warmup_min : plan->runs_min,
				       w ? "warmup" : "runs",
				       w ? plan->warmup_max : plan->runs_max);
	}
	if (!a->resume && !a->output)
		return cli_usage_error(cmd, "the output (-o PATH) is required");
	if (!a->resume && !scale_given)
		a->plan.scale = 0; /* cmd_run: from the loaded data */
	if ((a->output && !*a->output) || (a->resume && !*a->resume))
		return cli_usage_error(cmd, "an empty path for %s", a->resume ? "--resume" : "-o");
	if (a->resume && (a->force || a->output))
		return cli_usage_error(cmd, "--resume writes to the file it completes: drop %s",
				       a->force ? "--force" : "-o");
	if (pin_opts_check(&a->popts, &err) < 0)
		return cli_usage_error(cmd, "%s", err.msg);
	if (!a->resume) /* RUN_SBS_DEFAULT: the one place the default is set */
		a->plan.side_by_side =
		    a->sbs_opt >= 0 ? a->sbs_opt
				    : a->n_variants == 2 && RUN_SBS_DEFAULT && !plan->instructions &&
					  !plan->redo_disturbed && !plan->refresh && !plan->streams;
	return 0;
}

/* 0 with the arguments in a (a->help: usage printed, nothing to do), or a CLI_* code. */
static int parse_args(struct run_args *a, int argc, char **argv)
{
	struct cli_parse p = {.cmd = "run", .base = a};
	int rc = cmd_parse(&p, options, usage, 0, argc, argv);
	if (rc != CLI_OK || (a->help = p.help))
		return rc;
	static const struct {
		int tag;
		unsigned bit;
	} given[] = {{TAG_RESTARTS, RUN_GIVEN_RESTARTS},	 {TAG_WARMUP, RUN_GIVEN_WARMUP},
		     {TAG_RUNS, RUN_GIVEN_RUNS},		 {TAG_WARMUP_MIN, RUN_GIVEN_WARMUP_MIN},
		     {TAG_WARMUP_MAX, RUN_GIVEN_WARMUP_MAX}, {TAG_RUNS_MIN, RUN_GIVEN_RUNS_MIN},
		     {TAG_RUNS_MAX, RUN_GIVEN_RUNS_MAX}};
	unsigned bits = 0;
	for (size_t i = 0; i < sizeof(given) / sizeof(given[0]); i++)
		bits |= cli_opts_given(&p, given[i].tag) ? given[i].bit : 0;
	a->sopts.valgrind = a->plan.instructions;
	run_plan_instr_defaults(&a->plan, bits); /* Valgrind's slowdown (docs/work.md) */
	return check_args(a, &p);
}

/* The variants of the command line, each a target writing DIR/NAME.json (or the one target
 * writing the output). 0 or a CLI_* code. */
static int new_targets(struct target_set *ts, struct run_args *a)
{
	struct errbuf err = {{0}};
	int nv = a->n_variants;
	for (int i = 0; i < nv; i++) {
		if (run_variant_parse(&ts->variants[i], a->variant_specs[i], &err) < 0)
			return cli_usage_error("run", "%s", err.msg);
		ts->n_variants++;
		for (int k = 0; k < i; k++)
			if (strcmp(ts->variants[k].name, ts->variants[i].name) == 0)
				return cli_usage_error("run", "variant '%s' given twice",
						       ts->variants[i].name);
	}
	for (int i = 0; i < (nv ? nv : 1); i++) {
		char *path =
		    nv ? path_join(a->output, ts->variants[i].name, ".json") : strdup(a->output);
		if (!path ||
		    target_add(ts, &a->sopts, nv ? &ts->variants[i] : NULL, path, &err) < 0) {
			cli_error("out of memory");
			return CLI_IO;
		}
	}
	return 0;
}

/* The server options finished once and shared by the targets, each keeping its own option
 * list and binary. 0 or a CLI_* code. */
static int finish_server_opts(struct target_set *ts, struct run_args *a)
{
	struct errbuf err = {{0}};
	a->sopts.scale = a->plan.scale;
	for (int i = 0; i < ts->n; i++)
		ts->opts[i].scale = a->plan.scale;
	if (srv_opts_finish(&a->sopts, &err) < 0)
		return cli_usage_error("run", "%s", err.msg);
	for (int i = 0; i < ts->n; i++) {
		/* The shared fields srv_opts_finish filled (datadir, external). */
		struct srv_kv *kv = ts->opts[i].server_options;
		size_t nkv = ts->opts[i].n_server_options;
		const char *mysqld = ts->opts[i].mysqld;
		ts->opts[i] = a->sopts;
		ts->opts[i].server_options = kv;
		ts->opts[i].n_server_options = nkv;
		ts->opts[i].mysqld = (char *)mysqld;
	}
	if (a->sopts.external)
		return cli_usage_error("run", "run restarts the server it measures: give --datadir "
					      "(a managed instance), not --host/--socket/--user");
	return 0;
}

/* What a run that asked for side by side does on a host without room (su: what was short). */
static const char *sbs_no_room_advice(const struct run_args *a, const struct run_sbs_setup *su)
{
	if (a->resume)
		return "the file was measured side by side and is completed so";
	return su->free_bytes < su->need_bytes
		   ? "free some space, or measure restart-paired (drop --side-by-side)"
		   : "measure restart-paired (drop --side-by-side)";
}

/* Side by side, before anything is made: room for two clones, RAM for two pools. Where the
 * host has no room, the default measures restart-paired and says so in one line; an explicit
 * --side-by-side (or a side-by-side file resumed) stops there and says how to go on. */
static int sbs_check(const struct target_set *ts, struct run_args *a, struct errbuf *err)
{
	struct run_sbs_setup su;
	char line[4400];
	int rc = run_sbs_check(&su, ts->targets, ts->n, a->plan.scale, err);
	if (rc == RUN_SBS_NO_ROOM && a->sbs_opt < 0 && !a->resume) {
		cli_info(a->quiet, "restart-paired: %s", err->msg);
		a->plan.side_by_side = 0;
		return 0;
	}
	if (rc == RUN_SBS_NO_ROOM) {
		struct errbuf why = *err;
		return errbuf_set(err, "%s: %s", why.msg, sbs_no_room_advice(a, &su));
	}
	if (rc < 0)
		return -1;
	run_sbs_describe(line, sizeof(line), &su, a->sopts.datadir);
	cli_info(a->quiet, "%s", line);
	return 0;
}

/* Pins, runs the protocol over the targets, prints the tables and notes. A CLI_* code. */
static int measure(struct target_set *ts, struct run_args *a)
{
	struct errbuf err = {{0}};
	struct pin_ctx *pin = NULL;
	const char *output = a->resume ? NULL : a->output;
	char made_dirs[PATH_MAX] = "";
	if (check_arguments(ts, &a->plan, &a->sopts, output, a->n_variants, a->force, &err) < 0) {
		cli_error("%s", err.msg);
		return CLI_USAGE;
	}
	if (srv_instance_check(&a->sopts, &err) < 0) { /* uninitialised: nothing made for it */
		cli_error("%s", err.msg);
		return CLI_SERVER;
	}
	if ((a->plan.side_by_side && sbs_check(ts, a, &err) < 0) ||
	    pin_ctx_init(&pin, &a->popts, &err) < 0 ||
	    create_outputs(ts, output, a->n_variants, a->force || a->resume, made_dirs, &err) <
		0) {
		cli_error("%s", err.msg);
		pin_ctx_free(pin);
		return CLI_USAGE;
	}
	const struct pin_placement *pl = pin_ctx_placement(pin);
	if (pl && pl->warning[0] && !a->quiet)
		cli_warn("%s", pl->warning);
	if (pin_ctx_bind_client(pin, &err) < 0)
		cli_warn("cannot bind the client: %s", err.msg);

	const char *path = a->resume ? a->resume : a->output;
	resume_command(a->note.resume_cmd, sizeof(a->note.resume_cmd), path, a->argc, a->argv, 0);
	prepare_interrupt_note(&a->note, ts, path, a->resume != NULL, run_budget_on(&a->plan));
	sigchain_push_exit(SIGCHAIN_STOP | SIGCHAIN_HUP);
	struct progress d;
	progress_init(&d, stderr, progress_mode(stderr, a->quiet), 100000000u);
	struct run_hooks hooks = {on_progress, on_event, &d};
	int r = run_execute(&a->plan, ts->targets, ts->n, pin, &hooks, &err);
	progress_end(&d);
	if (r < 0)
		cli_error("%s", err.msg);
	int wrote = 0;
	for (int i = 0; i < ts->n; i++)
		wrote |= ts->targets[i].written != 0;
	if (r < 0 && !wrote && output) /* nothing written: no empty directory stays either */
		util_dirs_unmake(output, made_dirs);
	if (r == 0 || r == RUN_E_SERVER) {
		/* Only what was measured and written: a server that never started gives neither a
		 * table nor a file. */
		for (int i = 0; i < ts->n && !a->no_table; i++)
			if (measured(ts->targets[i].res))
				run_report_table(stdout, ts->targets[i].res, ts->targets[i].name);
		fflush(stdout); /* the table before the notes on stderr, also in a log file */
		if (!a->quiet)
			run_report_notes(stderr, ts->targets, ts->n);
		for (int i = 0; i < ts->n && !a->quiet; i++)
			if (ts->targets[i].written == 2)
				cli_info(a->quiet, "wrote '%s'", ts->targets[i].out_path);
	}
	pin_ctx_free(pin);
	return r == 0		   ? CLI_OK
	       : r == RUN_E_SERVER ? CLI_SERVER
	       : r == RUN_E_NODATA || r == RUN_E_REFUSED ? CLI_USAGE
				   : CLI_FOUND;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a;
	struct target_set ts;
	struct errbuf err = {{0}};
	char **pargv = NULL;
	memset(&a, 0, sizeof(a));
	memset(&ts, 0, sizeof(ts));
	run_plan_init(&a.plan);
	a.argc = argc;
	a.sbs_opt = -1;
	a.argv = argv;
	if (run_stab_profile_argv(argc, argv, &argc, &pargv, &a.plan.profile, &err) < 0)
		return cli_usage_error("run", "%s", err.msg);
	if (pargv)
		argv = pargv;
	srv_opts_init(&a.sopts);

	int rc = parse_args(&a, argc, argv);
	if (rc || a.help)
		goto out;
	if (!a.resume && !(a.plan.scale > 0) && /* the database run measures: dbt3 */
	    (rc = cmd_scale_loaded(&a.plan.scale, &a.sopts, "dbt3", a.quiet, "run")))
		goto out;
	if (a.plan.costs_from && run_prior_costs(a.plan.costs_from, a.plan.scale, a.plan.instructions,
						 a.plan.prior_ms, &a.plan.prior_fixed_s, &err) < 0) {
		cli_error("%s", err.msg);
		rc = CLI_USAGE;
		goto out;
	}
	if (a.resume) {
		if (resume_load(&ts, &a.plan, &a.sopts, a.resume, &err) < 0) {
			cli_error("%s", err.msg);
			rc = CLI_USAGE;
			goto out;
		}
		int complete = ts.n > 0;
		for (int i = 0; i < ts.n; i++)
			complete &= ts.targets[i].res && ts.targets[i].res->finished_at != NULL;
		if (complete) { /* nothing to add: leave the file(s) as they are */
			cli_info(a.quiet, "'%s' is complete (finished at %s): nothing to resume",
				 a.resume, ts.targets[0].res->finished_at);
			goto out;
		}
		if ((rc = resume_variants(&ts, &a)))
			goto out;
	} else if ((rc = new_targets(&ts, &a))) {
		goto out;
	}
	a.sopts.valgrind = a.plan.instructions; /* a resumed --instructions run too */
	if ((rc = preload_take(&a)) == 0 && (rc = finish_server_opts(&ts, &a)) == 0)
		rc = measure(&ts, &a);
out:
	sigchain_note_set(NULL, NULL); /* before what the note reads is released */
	free(pargv);
	json_decref(a.plan.profile);
	targets_release(&ts);
	srv_opts_release(&a.sopts);
	return rc;
}
