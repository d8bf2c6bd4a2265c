/* SPDX-License-Identifier: MIT */
/* The compare and summary models built from result files, and their output formats (text,
 * Markdown, JSON, JUnit). A renderer (e.g. HTML) reads struct rpt_compare / rpt_summary only. */
#ifndef DBT3_RPT_H
#define DBT3_RPT_H
#include "base/util.h"
#include "result/res.h"
#include "result/res_analyze.h"
#include "stats/st.h"
#include "stats/st_instr.h"
#include "stats/st_lend.h"
#include "stats/st_seq.h"
#include <stdio.h>

/* Verdicts in increasing severity. */
enum rpt_verdict {
	RPT_UNCHANGED = 0,
	RPT_IMPROVEMENT,
	RPT_INCONCLUSIVE,
	RPT_REGRESSION,
	RPT_WRONG_RESULT, /* result fingerprints differ: the most severe */
	RPT_N_VERDICTS
};

/* "unchanged", "improvement", "inconclusive", "regression", "wrong-result". */
const char *rpt_verdict_name(enum rpt_verdict v);

/* The test a query got: "welch", "pooled", "pooled+baseline", "moderated", "paired",
 * "adjusted", "paired+adjusted", "none". */
const char *rpt_test_name(enum st_test_kind k);

/* Output formats (HTML is rendered by reports/rpt_html.h from the same model). */
enum rpt_format { RPT_TEXT = 0, RPT_MARKDOWN, RPT_JSON, RPT_JUNIT, RPT_HTML };

/* Sets of formats, for rpt_format_parse: bit 1 << format for each. */
enum rpt_format_set {
	RPT_ALLOW_TEXT = 1u << RPT_TEXT,
	RPT_ALLOW_MARKDOWN = 1u << RPT_MARKDOWN,
	RPT_ALLOW_JSON = 1u << RPT_JSON,
	RPT_ALLOW_JUNIT = 1u << RPT_JUNIT,
	RPT_ALLOW_HTML = 1u << RPT_HTML,
};

/* The reports written in several formats. */
enum rpt_report { RPT_REPORT_COMPARE, RPT_REPORT_SUMMARY, RPT_REPORT_HISTORY };

/* The format table (rpt_format.c): the set of formats report r is written in (those with a
 * writer for it); a format's name ("text", ...; "unknown" for no format); the names of a set
 * for messages, "text, markdown or json" (into out[len], cut to fit). */
unsigned rpt_formats_of(enum rpt_report r);
const char *rpt_format_name(enum rpt_format fmt);
void rpt_format_names(char *out, size_t len, unsigned set);

/* Parses a format's name; a format outside allowed (a set of enum rpt_format_set) fails like an
 * unknown name. */
int rpt_format_parse(const char *s, unsigned allowed, enum rpt_format *out);

/* One query of one result file as the statistics see it. Strings are borrowed from the
 * res_file, which must outlive the model. */
struct rpt_side {
	const struct res_query *q; /* the query in its file (borrowed), NULL when absent */
	int present;		   /* the query is in this file */
	size_t n_restarts;	   /* restarts in the file */
	size_t n_used;		   /* restarts with status ok: their means are the sample */
	double *means_ms;	   /* n_used restart means (mean of measured_ms), owned */
	int *indices;		   /* restart index of each mean, owned */
	double gmean_ms;	   /* geometric mean of the restart means; NaN when n_used == 0 */
	double sd_log; /* sd of log restart means (about the between-restart CoV); NaN < 2 */
	size_t not_steady, timeouts, crashes, errors;
	const char *result_sha256; /* the fingerprint of the first ok restart, or NULL */
	int results_vary;	   /* ok restarts disagree on result_sha256 */
	const char *plan_sha256;   /* the plan fingerprint of the first restart that has one */
	const char *plan;	   /* its plan text, or NULL */
	int plans_vary;		   /* restarts disagree on plan_sha256 */
	long long rows;		   /* rows of the first ok restart, or -1 */
	int rows_vary; /* an execution returned another row count than the first of its restart
			* (the restart's row_count_changes): a wrong result in itself */
};

/* ---- work counters (rpt_work.c, docs/work.md) ---- */

/* A counter that varies within a file is changed only when the restarts of the two files do not
 * overlap and the medians differ by more than this share (docs/statistics.md, "Work"). */
#define RPT_WORK_TOL 0.01

/* One counter in one file: the warm measured executions of its ok restarts that recorded it. */
struct rpt_work_side {
	size_t restarts; /* restarts with the counter (0: the file does not have it) */
	int constant;	 /* every one of those executions had the same count */
	double value;	 /* that count, else the median of the restart means */
	double lo, hi;	 /* the smallest and largest restart mean */
};

struct rpt_work_counter {
	char name[RES_MAX_NAME + 1];
	struct rpt_work_side old, new;
	int changed;
	double ratio; /* new value / old value: 1 when both are 0, INFINITY when only old is */
};

/* A query's work in two files (compare) or in one (summary: old alone). */
struct rpt_work {
	struct rpt_work_counter *c; /* owned; the counters the old file has, in its order */
	size_t n;
	int compared; /* both files have work records for the query */
	int changed;  /* a counter changed (the rule of RPT_WORK_TOL) */
	int varies;   /* a counter is not constant within a file */
};

/* The rule for one counter of two files: constant in both and different; or, when it varies
 * in either, restart ranges that do not overlap and values more than RPT_WORK_TOL apart. */
int rpt_work_counter_changed(const struct rpt_work_side *a, const struct rpt_work_side *b);

/* Builds w from the restarts of a (and b, NULL for one file). -1 on out of memory. */
int rpt_work_build(struct rpt_work *w, const struct res_query *a, const struct res_query *b);
void rpt_work_release(struct rpt_work *w);

/* The changed counters, largest change first, as "Handler_read_next 1.20 M -> 3.41 M (x2.8)",
 * at most max of them joined by ", " ("" when none changed). */
void rpt_work_changes_text(char *buf, size_t n, const struct rpt_work *w, size_t max);

/* A count as text: "950", "12.3 k", "1.20 M", "3.41 G". */
void rpt_work_fmt_count(char *buf, size_t n, double v);

/* {"changed": bool, "varies": bool, "counters": {NAME: [old, new]}, "changed_counters": [...]}
 * (compare), or {"constant": bool, "counters": {NAME: value}, "varying": [...]} (one file). */
json_t *rpt_work_json(const struct rpt_work *w, int compare);

struct rpt_query;
struct rpt_compare;

/* The query's work line in compare's reports: "Q18 work changed: ..., plan changed", or for a
 * time verdict whose work did not change "Q5 slower, work unchanged: ..."; "" otherwise. */
void rpt_work_query_line(char *buf, size_t n, const struct rpt_query *q);

/* compare's work section (text: prefix "  ", Markdown: "- "); nothing when no query has work
 * records in both files. */
void rpt_work_write(FILE *f, const struct rpt_compare *c, const char *prefix, int md);

/* ---- where the rows went (rpt_analyze.c, docs/explain.md "Where the rows went") ---- */

/* A table whose rows examined (r_loops x r_rows) changed: 0 on a side whose plan lacks it, NaN
 * where that side's server did not count it. */
struct rpt_arows {
	const struct res_atable *old, *new; /* NULL: not in that side's plan */
	double old_rows, new_rows;
};

/* An estimate error of 10x or more (res_analyze_estimate_off) in one side's plan. */
struct rpt_aest {
	const struct res_atable *t;
	int new_side; /* 0: the old file's, 1: the new file's */
};

/* A query's per-table actuals in two files: each side's first ok restart with a record. */
struct rpt_analyze {
	struct res_analyze old, new;
	int compared; /* both files have a record for the query */
	int varies;   /* a side's restarts differ in a table's rows examined (the rule's) */
	struct rpt_arows *rows; /* the tables whose rows examined changed, old plan's order, then
				 * the new plan's others */
	size_t n_rows;
	struct rpt_aest *est;
	size_t n_est;
};

/* Builds a from the restarts of old and new. -1 on out of memory. */
int rpt_analyze_build(struct rpt_analyze *a, const struct res_query *old,
		      const struct res_query *new);
void rpt_analyze_release(struct rpt_analyze *a);
/* {"varies", "tables": [{"table", "occurrence", "old", "new"}], "estimate_errors": [{"table",
 * "side", "estimated", "read"}]}, or null when not compared. */
json_t *rpt_analyze_json(const struct rpt_analyze *a);
/* Rows as text with a space every three digits: "1 000", "5 694", "not counted". */
void rpt_analyze_fmt_rows(char *buf, size_t n, double v);

/* ---- instruction counts (rpt_instr.c, docs/work.md "Instructions") ---- */

/* The rule's constants (stats/st_instr.h; docs/statistics.md, "Instructions"). */
#define RPT_INSTR_TOL ST_INSTR_TOL
#define RPT_INSTR_K ST_INSTR_K

struct rpt_instr {
	int compared;	  /* both files have the count (name) */
	const char *name; /* "callgrind_ir" or "pmu_instructions" (static) */
	struct st_instr_side old, new;
	double ratio, bound; /* new / old mean; the rule's bound on |ratio - 1| */
	int changed;
};

/* The rule, st_instr_changed: 1 when |ratio - 1| > RPT_INSTR_TOL + RPT_INSTR_K (spread_old +
 * spread_new), whose right side goes to *out_bound (may be NULL). */
int rpt_instr_changed(double ratio, double spread_old, double spread_new, double *out_bound);

/* Builds out from the restarts of a and b (compared on the first count both have). -1 on out
 * of memory. */
int rpt_instr_build(struct rpt_instr *out, const struct res_query *a, const struct res_query *b);

/* {"ratio", "changed", "counter", "old", "new", "old_restarts", "new_restarts", "old_spread",
 * "new_spread", "bound"}, or null when not compared. */
json_t *rpt_instr_json(const struct rpt_instr *in);

/* "Q18 instructions changed: 229 M -> 310 M (x1.3500, beyond +-0.50%)", "" when unchanged. */
void rpt_instr_query_line(char *buf, size_t n, const struct rpt_query *q);

/* compare's instructions section (text: prefix "  ", Markdown: "- "); nothing when no query
 * has counts in both files. */
void rpt_instr_write(FILE *f, const struct rpt_compare *c, const char *prefix, int md);

/* compare's per-table rows section (docs/explain.md): for each query whose work changed, the
 * tables whose rows examined changed and the estimate errors, at most three lines a query;
 * nothing when no such query. */
#define RPT_ANALYZE_TABLES 6
void rpt_analyze_write(FILE *f, const struct rpt_compare *c, const char *prefix, int md);

/* ---- functions (rpt_funcs.c, docs/work.md "Which functions") ---- */

#define RPT_FUNCS_FLOOR 0.005 /* a function's change must exceed 0.5 % of the query's count */
#define RPT_FUNCS_COVER 0.80  /* listed until the functions cover 80 % of the query's change */
#define RPT_FUNCS_MAX 40      /* functions listed at most */

struct rpt_fn_diff {
	char *name;
	double old, new; /* self instructions per execution, mean over the restarts */
	double share;	 /* (new - old) / the query's whole difference */
};

struct rpt_funcs {
	int compared;		  /* the query's count changed and both files have profiles */
	double old_total, new_total; /* the profiles' totals, mean over the restarts */
	size_t n_changed;	  /* functions changed by the rule */
	size_t n;		  /* listed (the largest changes first) */
	struct rpt_fn_diff *fn;
	double covered; /* the listed differences' sum / the query's whole difference */
};

/* The rule: a function's self count changed when |new - old| > bound x max(old, new) +
 * RPT_FUNCS_FLOOR x total, bound the query's instructions bound (rpt_instr_changed), total
 * the larger of the two profiles' totals. */
int rpt_funcs_fn_changed(double old, double new, double bound, double total);

/* Builds out for a query whose instructions changed (in): -1 on out of memory. */
int rpt_funcs_build(struct rpt_funcs *out, const struct res_query *a, const struct res_query *b,
		    const struct rpt_instr *in);
void rpt_funcs_release(struct rpt_funcs *f);

/* {"old_total", "new_total", "changed", "covered", "list": [{"name", "old", "new", "diff",
 * "share"}]}, or null when not compared. */
json_t *rpt_funcs_json(const struct rpt_funcs *f);

/* At most 2 lines under the query's instructions line: the functions that moved most. */
void rpt_funcs_write(FILE *f, const struct rpt_funcs *fs, const char *id, const char *prefix,
		     int md);

/* The differential table of the HTML report (a <table>), nothing when not compared. */
void rpt_funcs_html(FILE *f, const struct rpt_funcs *fs);

/* Warning flags of one query (either side). */
enum rpt_warn {
	RPT_W_NOT_STEADY = 1 << 0,
	RPT_W_TIMEOUT = 1 << 1,
	RPT_W_CRASH = 1 << 2,
	RPT_W_ERROR = 1 << 3,
	RPT_W_PLAN_VARIES = 1 << 4,   /* plan fingerprint differs between restarts of one file */
	RPT_W_RESULT_VARIES = 1 << 5, /* result fingerprint differs between restarts of one file */
	RPT_W_POSITION = 1 << 7,      /* summary: a run-position effect (warm-up transient) */
	RPT_W_ROWS_VARY = 1 << 8, /* row count changed between executions of a restart (1 << 6 is
				   * summary's own) */
};

struct rpt_plan;
struct rpt_trace;

struct rpt_query {
	const char *id;
	struct rpt_side old, new;
	struct st_test test; /* kind ST_TEST_NONE when untested */
	double p_adj;	     /* after the correction; NaN when untested */
	double p_adj_impr;   /* improvements' family (one-sided: its own correction); NaN */
	double power_nobase, power_base; /* with a baseline used: power for a slowdown of
					  * 2 x min-effect at this query's noise, without and
					  * with the baseline's df; NaN otherwise */
	enum rpt_verdict verdict;
	int plan_changed; /* a plan fingerprint of one side never occurs on the other; then
			   * new.plan_sha256/plan is the first new plan old never had (a
			   * fingerprint that differs only in the order of JSON members is
			   * no change: docs/explain.md) */
	struct rpt_plan *plan_diff; /* the structural diff of old.plan and new.plan when the
				     * plan changed and both parse (reports/rpt_plan.h), or NULL */
	int result_changed; /* a result fingerprint (ok restarts) of one side never occurs on
			     * the other, or the row counts differ, or a side's row count changed
			     * between executions: verdict wrong-result */
	unsigned warn;	    /* enum rpt_warn */
	int data_differs;   /* result_changed on data that differs (rpt_compare.data_differs):
			     * inconclusive, never wrong-result */
	const char *why;    /* short reason for inconclusive / wrong-result, or NULL (static) */
	/* Every restart of one side timed out while the other side has ok restarts: the verdict
	 * is decided by the timeout, test.ratio stays NaN and bound_ratio holds the bound:
	 * +1 new timed out, ratio >= timeout / old gmean (regression); -1 old timed out,
	 * ratio <= new gmean / timeout (improvement); 0 none. bound_ratio is NaN when the file
	 * does not record plan.query_timeout_s. */
	int bound;
	double bound_ratio;
	size_t n_pairs; /* restart indices ok on both sides (rpt_query_pairs) */
	int sbs;	/* side by side, paired: a pair is the mean log ratio of its alternated
			 * executions (rpt_query_pairs) */
	struct st_seq_state seq;    /* --sequential: the replay over the pairs in file order */
	struct st_prior seq_prior;  /* --sequential with --baseline: the variance this query's test
				     * borrows on seq_base's df (rpt_seq_replay); df 0: none */
	struct rpt_work work;	    /* the work counters of both files */
	struct rpt_instr instr;	    /* the instruction counts of both files */
	struct rpt_analyze analyze; /* the per-table actuals of both files */
	struct rpt_funcs funcs;	    /* the functions whose self counts moved most */
	struct rpt_trace *trace;    /* a changed plan's optimizer trace summaries of both files
				     * (reports/rpt_trace.h), or NULL */
};

struct rpt_compare_opts {
	double alpha;	   /* family alpha (0.05) */
	double min_effect; /* 0.02: flag only slowdowns of at least 2% */
	enum st_correction correction;
	enum st_method method;
	enum st_alternative alt; /* ST_GREATER: regressions one-sided, improvements a family of
				  * their own; ST_TWO_SIDED: one family, alpha split */
	int min_effect_test;	 /* H0 ratio <= 1 + min_effect instead of the estimate rule */
	int force;		 /* compare incomparable files, with warnings */
	int unpaired;		 /* never pair restarts, even of one interleaved run */
	int sequential;		 /* replay the sequential rule (rpt_seq_replay); rpt_compare_build
				  * sets it for files of one run --budget unless fixed */
	int fixed;		 /* --fixed: never replay by default (the fixed-sample test) */
	int seq_auto;		 /* set by rpt_compare_build: replayed by default, not asked */
	size_t max_pairs; /* its K; 0: the plan's max_pairs, else the most pairs of a query */
	enum st_seq_spending spending;
	int adjust_memory;     /* each query's test adjusted for the memory-contention probe
				* (rpt_adjusted_tests; the fixed-sample test only) */
	int exclude_disturbed; /* the files' disturbed restarts were removed before the build */
	size_t excluded_old, excluded_new; /* ... this many restarts of each */
};

/* Defaults: alpha 0.05, min_effect 0.02, Holm, auto (pooled/Welch), one-sided (greater), the
 * estimate rule (significant and estimate >= min-effect). */
void rpt_compare_opts_init(struct rpt_compare_opts *o);

struct rpt_file_info {
	const char *path;
	const struct res_file *res; /* borrowed */
};

struct rpt_compare {
	struct rpt_compare_opts opts;
	struct rpt_file_info old, new, baseline; /* baseline.res NULL without --baseline */
	struct rpt_query *queries; /* queries in both files, in the old file's order */
	size_t n_queries;
	size_t n_tested;	   /* queries with a test (the m of the correction) */
	struct st_overall overall; /* geometric-mean ratio over the compared queries */
	int have_overall;
	struct st_prior eb_prior; /* --method eb: the across-query prior used (df 0: none) */
	size_t n_base_used;	  /* queries whose test pooled in the baseline */
	size_t n_base_unused;	  /* queries with a baseline variance the test did not use */
	size_t n_base_paired;	  /* of those, queries tested paired (the baseline never enters) */
	double power_nobase, power_base; /* medians of the queries' power_nobase/_base */
	size_t counts_impr;		 /* improvements (also in counts[]) */
	size_t counts[RPT_N_VERDICTS];
	enum rpt_verdict worst; /* RPT_UNCHANGED when nothing was compared */
	char **warnings;	/* file-level warnings (comparability with --force, ...) */
	size_t n_warnings;
	int paired;		       /* restart i of old tested against restart i of new */
	int sbs;		       /* the two variants of one run --side-by-side */
	const char *pairing_why;       /* why paired or not (static) */
	struct st_seq_design seq;      /* --sequential: the design replayed */
	struct st_seq_design seq_base; /* ... for the queries that borrow a baseline's variance:
					* the same with opts.prior_df (0: no query does) */
	struct st_var_ratio lend;      /* --sequential --baseline: tonight's variances against the
					* lent ones over all pairs (queries 0: not checked) */
	int lend_refused;	       /* lend.p < RPT_LEND_ALPHA: no query borrows */
	int data_differs;	       /* the files' dataset.content_check differ, or one has
					* none: a result difference is not the build's */
	size_t n_data_differs;	       /* queries whose results differ on such data (exit 2) */
	size_t n_work_changed;	       /* queries whose work changed (findings: exit 1) */
	size_t n_work_compared;	       /* queries with work records in both files */
	size_t n_instr_changed;	       /* queries whose instructions changed (findings: exit 1) */
	size_t n_instr_compared;       /* queries with instruction counts in both files */
	size_t n_analyze_changed;      /* queries whose work changed and with it a table's rows
					* examined (not a finding of its own) */
	size_t n_adjusted;	       /* --adjust-memory: queries whose test was adjusted */
	double adjust_sd_ratio;	       /* ... the median of their residual sd over the unadjusted */
};

/* The level of the check of a lent variance (that of compare's other variance F tests). */
#define RPT_LEND_ALPHA 0.05

/* ---- --adjust-memory (rpt_adjust.c) ---- */

/* Replaces tests[j] of query map[j] by the two-sample test adjusted for the memory-contention
 * covariate of each restart (res_interf_probe_covariate, st_compare_adjusted: >= 2 restarts a
 * side with one, 4 in all), also for the variants of one run, which --adjust-memory does not
 * pair (rpt_pairing_decide: the covariate carries the host's state; docs/statistics.md); a
 * query without enough keeps its test. Sets c->n_adjusted and adjust_sd_ratio. -1 with err
 * when a file has no probe. */
int rpt_adjusted_tests(struct rpt_compare *c, struct st_test *tests, const size_t *map, size_t m,
		       const struct st_compare_opts *so, struct errbuf *err);

/* What --adjust-memory did, in one sentence for the text, Markdown and HTML reports: "4 of 4
 * queries for memory contention (two-sample ANCOVA ...); residual sd a median 0.85 of the
 * unadjusted". */
void rpt_adjust_text(char *buf, size_t size, const struct rpt_compare *c);

/* The "adjusted:" line of the text (md 0) or Markdown (md 1) report; nothing without
 * --adjust-memory. */
void rpt_adjust_write(FILE *f, const struct rpt_compare *c, int md);

/* The report's "adjustment" member: null without --adjust-memory. */
void rpt_adjust_json(json_t *report, const struct rpt_compare *c);

/* ---- pairing and the sequential replay (rpt_seq.c) ---- */

/* Sets c->paired, c->sbs and c->pairing_why: paired when both files are variants of one
 * interleaved run (plan.variant set and different, same started_at) and neither opts.unpaired
 * nor opts.adjust_memory is set; c->sbs when that run was side by side (plan.side_by_side),
 * whose queries' pairs are then the mean log ratios of their executions. */
void rpt_pairing_decide(struct rpt_compare *c);

/* The restart means of q paired by restart index, in the old file's order, into out_a/out_b
 * (room for min(n_used) each); returns the number of pairs. Side by side (q->sbs) each pair is
 * the two sides' geometric means over the executions both have, so that log(b / a) is the
 * pair's mean log ratio of its alternated executions. */
size_t rpt_query_pairs(double *out_a, double *out_b, const struct rpt_query *q);

/* Replaces tests[j] of query map[j] by the paired test (st_compare_paired) where it has >= 2
 * pairs. */
int rpt_paired_tests(struct rpt_compare *c, struct st_test *tests, const size_t *map, size_t m,
		     const struct st_compare_opts *so, struct errbuf *err);

/* --sequential: replays st_seq over each query's pairs (paired as c->paired) and replaces the
 * verdicts of tested queries by its decisions (undecided: inconclusive); counts and worst are
 * recomputed. Files of run --budget are replayed with the run's plan.alpha, plan.detect (the
 * margin) and plan.horizon (K at each look; older files plan.max_pairs at every look),
 * two-sided, as the run decided; others with compare's options. With a baseline
 * (c->baseline.res) each query whose baseline has 2 restarts borrows its restart variance,
 * unless tonight's variances over all pairs are larger than the lent ones (st_var_ratio_test at
 * RPT_LEND_ALPHA: then none does; docs/statistics.md, "A variance borrowed from a baseline"). */
int rpt_seq_replay(struct rpt_compare *c, enum st_alternative alt, struct errbuf *err);

/* The design q's replay uses (c->seq_base when q borrows a baseline's variance, else c->seq)
 * and its state at the start, before the first pair (the borrowed variance set). */
const struct st_seq_design *rpt_seq_design_of(const struct rpt_compare *c,
					      const struct rpt_query *q);
int rpt_seq_state_start(struct st_seq_state *s, const struct rpt_query *q, struct errbuf *err);

struct st_restart_summary;
/* One side of a comparison (rpt_side.c): q is a query of f (or NULL); figs, when not NULL, gets
 * q's figures whole (the run-position effect judged at position_alpha), released by the caller;
 * rpt_side_init is compare's, which does not use that effect. rpt_side_warn: its enum rpt_warn
 * flags. rpt_side_release frees the means. */
int rpt_side_init_figs(struct rpt_side *s, struct st_restart_summary *figs,
		       const struct rpt_file_info *f, const struct res_query *q,
		       double position_alpha, struct errbuf *err);
int rpt_side_init(struct rpt_side *s, const struct rpt_file_info *f, const struct res_query *q,
		  struct errbuf *err);
unsigned rpt_side_warn(const struct rpt_side *s);
void rpt_side_release(struct rpt_side *s);

/* The baseline's restart variance of query id (st_baseline_prior on its ok restarts); df 0 and
 * var NaN when the baseline is absent or has fewer than 2 restarts of it. */
int rpt_baseline_prior(struct st_prior *out, const struct rpt_file_info *baseline, const char *id,
		       struct errbuf *err);

/* The lend check's figures for the report, into buf: "tonight's variance x0.407 the lent one
 * over 4 queries (Fisher's combination of one-sided F tests, p 0.964)" (times: the sign before
 * the ratio, "x" or "&times;"), or "not checked: no query has 2 pairs". */
void rpt_lend_text(char *buf, size_t size, const struct rpt_compare *c, const char *times);

/* The pairing and the sequential replay as JSON members of the compare report. */
void rpt_seq_json(json_t *report, const struct rpt_compare *c);
json_t *rpt_seq_query_json(const struct rpt_compare *c, const struct rpt_query *q);

/* 1 when old and new are the two variants of one run (plan.variant set and different, the same
 * started_at) whose plans record run --budget's group-sequential rule (plan.decision_rule
 * "group-sequential-*", or in files before it plan.budget_s with plan.max_pairs): their restarts
 * were stopped by that rule, so compare replays it unless --fixed-sample. */
int rpt_seq_recorded(const struct rpt_compare *c);

/* Text (md 0) or Markdown (md 1) lines saying how restarts were paired and, with --sequential,
 * when each query was decided. */
void rpt_seq_write(FILE *f, const struct rpt_compare *c, int md);

/* Checks that old and new measured the same thing: scale factor, dataset fingerprint, query
 * texts (sql_sha256), at least one query in common. -1 and one line in err saying what differs;
 * with force, the differences become warnings in *c instead (c may be NULL without force). */
int rpt_comparable(const struct rpt_file_info *a, const struct rpt_file_info *b, int force,
		   struct rpt_compare *c, struct errbuf *err);

/* Builds the comparison (comparability checks included). baseline may have res NULL.
 * Free with rpt_compare_free. */
int rpt_compare_build(struct rpt_compare **out, const struct rpt_file_info *old,
		      const struct rpt_file_info *new, const struct rpt_file_info *baseline,
		      const struct rpt_compare_opts *opts, struct errbuf *err);
void rpt_compare_free(struct rpt_compare *c);

/* The comparison as JSON (a new reference); both plans are included when a plan changed. */
json_t *rpt_compare_to_json(const struct rpt_compare *c);

/* Writes the comparison to f in fmt (the format table's writer); color applies to RPT_TEXT
 * only. -1 on a write error (err filled by the writers that know why, e.g. HTML's). */
int rpt_compare_write(FILE *f, const struct rpt_compare *c, enum rpt_format fmt, int color,
		      struct errbuf *err);

/* ---- summary of one result file ---- */

struct rpt_summary_query {
	const char *id;
	struct rpt_side side;
	int have_stats;		     /* at least one ok restart */
	struct st_query_stats stats; /* in milliseconds */
	size_t needed;		     /* restarts a side to detect opts.detect; 0 when unknown */
	int needed_over;	     /* more than max restarts would be needed */
	double power_now;	     /* power with the file's own restart count; NaN if < 2 */
	size_t needed_lo, needed_hi; /* restarts needed at the 95% CI ends of the noise (0:
				      * unknown, needed_hi_over: more than max) */
	int needed_hi_over;
	int have_noise;	       /* >= 2 restarts: noise below is set */
	struct st_noise noise; /* sd of log restart means with CI and UCB, split */
	int have_position;     /* a run-position effect was tested */
	struct st_position position;
	unsigned position_flags; /* bit j: position j + 1 differs (warm-up transient) */
	int position_effect;	 /* the F test is significant after Bonferroni over queries */
	unsigned warn;
	struct rpt_work work;	/* the work counters of the file (old side) */
	struct rpt_instr instr; /* the file's instruction counts (old side; compared with itself) */
};

struct rpt_summary_opts {
	double detect;	   /* change to detect (0.03) */
	double power;	   /* target power (0.8) */
	double alpha;	   /* 0.05 */
	double min_effect; /* compare's min effect (0.02) */
	enum st_correction correction;
	enum st_method method;
	enum st_alternative alt;
	int min_effect_test;
	size_t max_restarts; /* upper bound of the search (100) */
};

/* Defaults: detect 0.03, power 0.8, max_restarts 100, and compare's statistics options at
 * compare's defaults (rpt_compare_opts_init). */
void rpt_summary_opts_init(struct rpt_summary_opts *o);

/* Takes compare's statistics options (alpha, min-effect, correction, method, alternative,
 * min-effect test) from c into o: the power summary reports is that of the compare they set. */
void rpt_summary_opts_take(struct rpt_summary_opts *o, const struct rpt_compare_opts *c);

struct rpt_summary {
	struct rpt_summary_opts opts;
	struct rpt_file_info file;
	struct rpt_summary_query *queries;
	size_t n_queries;
};

int rpt_summary_build(struct rpt_summary **out, const struct rpt_file_info *file,
		      const struct rpt_summary_opts *opts, struct errbuf *err);
void rpt_summary_free(struct rpt_summary *s);
json_t *rpt_summary_to_json(const struct rpt_summary *s);
/* The lines of what a verdict costs on this host (stats/st_cost.h) under the summary's test,
 * Markdown when md; the last lines of summary's text and Markdown. -1 when out of memory. */
int rpt_summary_cost_write(FILE *f, const struct rpt_summary *s, int md);
/* As rpt_compare_write, for the summary. */
int rpt_summary_write(FILE *f, const struct rpt_summary *s, enum rpt_format fmt, int color,
		      struct errbuf *err);

/* summary's work section: per query "Q3 constant over 3 restarts: Rows_read 17.8 k, ..." (the
 * three largest counts) or "Q1 varies (Handler_read_key restart means 0.27% apart): ..."; nothing
 * when the file has no work records. */
void rpt_work_summary_write(FILE *f, const struct rpt_summary *s, const char *prefix, int md);

/* summary's instructions section: per query "Q1 894.89 M over 3 restarts (spread 0.013%)";
 * nothing when the file has no counts. */
void rpt_instr_summary_write(FILE *f, const struct rpt_summary *s, const char *prefix, int md);

/* TPC-H-style figures of one file (reports/rpt_tpch.c): information only, not a TPC-H result. */
struct rpt_tpch {
	double sf;
	size_t restarts; /* restarts with every single-stream item (power) */
	int n_items;	 /* the power's items: queries, and RF1, RF2 when have_rf */
	int have_rf;
	double power;	   /* the geometric mean over those restarts; NaN without */
	size_t t_restarts; /* restarts with a throughput test */
	int streams;
	double throughput; /* the geometric mean over them; NaN without */
	double composite;  /* sqrt(power x throughput); NaN unless both */
};
void rpt_tpch_compute(struct rpt_tpch *out, const struct res_file *res);
/* The lines of summary's text (md: Markdown); nothing without --refresh or --streams entries. */
void rpt_tpch_write(FILE *f, const struct rpt_tpch *t, const char *prefix, int md);
/* {"power", "throughput", "composite", ...} or null. */
json_t *rpt_tpch_json(const struct rpt_tpch *t);

/* {"counter", "mean", "restarts", "spread"} of one file, or null without counts. */
json_t *rpt_instr_summary_json(const struct rpt_instr *in);

#endif
