/* SPDX-License-Identifier: MIT */
/* Internals of the HTML pages shared by rpt_html*.c: the page (rpt_html.c, with its header in
 * rpt_html_head.c, its table and query sections in rpt_html_queries.c, text helpers in
 * rpt_html_text.c, figures in rpt_html_fig.c), the compare adapter (rpt_html_compare.c) and the
 * trend page (rpt_html_history.c): the page model both report modes fill, the scaffolding every
 * page has. Not for other modules. */
#ifndef DBT3_RPT_HTML_INT_H
#define DBT3_RPT_HTML_INT_H
#include "base/util.h"
#include "result/res.h"
#include "stats/st_instr.h"
#include <stdio.h>

struct rpt_trace;

#define RPT_HTML_MAX_SIDES 16
/* The longest legend name and header label, in bytes: a label is free text of any length, and a
 * legend name is repeated on every chart, so a longer one is cut (with "...") to keep the page's
 * size within a bound of its input's. */
#define RPT_HTML_NAME_MAX 80
#define RPT_HTML_LABEL_MAX 4096

struct rpt_compare;

/* Figures of one query in one result file. Pointers point into the result (not owned) except
 * means, which rpt_html_fig_release frees. */
struct rpt_html_fig {
	int present;			/* the file has the query */
	size_t n_restarts, n_ok;	/* restarts recorded / with status ok and measured runs */
	double *means;			/* n_ok restart means (ms) */
	double gmean;			/* geometric mean of the restart means (ms); NaN if none */
	double cov_within, cov_between; /* from the one-way ANOVA (stats/st.h); NaN if unknown */
	double sd_log, sd_lo, sd_hi;	/* sd of log restart means, its 95% CI (st_noise); NaN */
	double sd_between, sd_ucb;	/* its between-restart part; 95% upper bound */
	unsigned position_runs;		/* run-position effect: bit j = run j + 1 differs */
	int position_effect;		/* the F test flags it (at 0.05 / 22) */
	size_t not_steady, timeout, crash, error; /* restarts marked so */
	long long rows;			  /* rows of the first restart that has them, or -1 */
	const char *plan, *plan_sha256;	  /* of the first restart with a plan */
	const char *result_sha256;	  /* of the first restart with one */
	const char *error_text;		  /* error text of the first restart that has one */
	int plans_differ, results_differ; /* between this file's restarts */
	struct st_instr_side instr;	  /* instructions per execution (callgrind's, else the
					   * PMU's); restarts 0 without counts */
};

int rpt_html_fig_compute(struct rpt_html_fig *out, const struct res_query *q);
void rpt_html_fig_release(struct rpt_html_fig *f);

/* The comparison of one query (compare mode). */
struct rpt_html_row {
	const char *verdict;   /* "regression", "improvement", "unchanged", "inconclusive",
				* "wrong-result" (static strings) */
	double old_ms, new_ms; /* geometric means of the restart means */
	double ratio, lo, hi;  /* new/old and its CI; NaN when untested */
	double p, p_adj;       /* raw and corrected p; NaN when untested */
	double sim_lo, sim_hi; /* simultaneous CI (Bonferroni); NaN when untested */
	const char *test;      /* "pooled", "welch", "pooled+baseline", ... (static) */
	int plan_changed, wrong;
	const struct rpt_plan *plan_diff; /* the structural plan diff, or NULL */
	/* the per-table rows of a query whose work changed and with it a table's rows examined,
	 * or NULL */
	const struct rpt_analyze *analyze;
	const struct rpt_funcs *funcs;	  /* the functions that moved most, or NULL */
	const struct rpt_trace *trace;	  /* the optimizer traces of a changed plan, or NULL */
	int bound; /* +1: ratio is a lower bound (new always timed out), -1 an upper bound, 0 none
		    */
	const char *why; /* reason for inconclusive / wrong-result, or NULL (static) */
};

struct rpt_html_side {
	const struct res_file *res;
	const char *path; /* file name shown on the page, or NULL */
	char *name;	  /* legend name, unique on the page (owned) */
	const char *base; /* name without the "old: " prefix (points into name) */
};

struct rpt_html_page {
	int compare;	/* 1: two sides, rows filled */
	char *title;	/* owned */
	char *settings; /* compare: "correction holm, method welch" (owned) or NULL */
	struct rpt_html_side sides[RPT_HTML_MAX_SIDES];
	size_t n_sides;
	const char **ids; /* union of query ids in order (pointing into results) */
	size_t n_ids;
	struct rpt_html_fig *figs; /* figs[q * n_sides + s] */
	struct rpt_html_row *rows; /* compare: n_ids rows (owned) */
	double alpha, min_effect;
	char **notes; /* file-level warnings to show (borrowed), n_notes */
	size_t n_notes;
	struct {
		int valid;
		double ratio, lo, hi;
	} overall;
	const struct rpt_compare *cmp; /* compare mode: the model (borrowed), for the sequential
					* section */
};

/* Fills the page for n results: query ids (the n_ids given, else the union in order of first
 * appearance), side names ("<prefix>: <label or file name>" when prefixes is not NULL),
 * per-query figures. Release with rpt_html_page_release. */
int rpt_html_page_init(struct rpt_html_page *pg, const struct res_file *const *files,
		       const char *const *paths, const char *const *prefixes, size_t n,
		       const char *const *ids, size_t n_ids, struct errbuf *err);
void rpt_html_page_release(struct rpt_html_page *pg);

/* Writes the whole page. */
int rpt_html_page_write(FILE *out, const struct rpt_html_page *pg, struct errbuf *err);

/* The sequential section (compare with the sequential rule: pg->cmp->opts.sequential) and the
 * budget section (sides written by run --budget), in rpt_html_seq.c; each writes nothing when it
 * does not apply. rpt_html_seq_json is the charts' data (a new reference; JSON null when the
 * section does not apply, NULL on out of memory). */
void rpt_html_seq_write(FILE *out, const struct rpt_html_page *pg);
void rpt_html_budget_write(FILE *out, const struct rpt_html_page *pg);
json_t *rpt_html_seq_json(const struct rpt_html_page *pg);

/* The page data as compact JSON text (7 significant digits), taking over data's reference;
 * NULL when out of memory (also when data is NULL). The caller frees it. */
char *rpt_html_data_text(json_t *data);

/* Every page's start: from <!DOCTYPE html> to the <h1> of title (escaped, also the <title>),
 * with the inlined CSS; the page goes on inside <header>. */
void rpt_html_page_head(FILE *out, const char *title);

/* Every page's end, from </main>: the footer with the licences of the inlined libraries, the
 * data (JSON text) in script#dbt3-data, Vega, Vega-Lite and the page's own script (js_len
 * bytes of js). */
void rpt_html_page_tail(FILE *out, const char *data, const unsigned char *js, size_t js_len);

/* The pieces of a page, in rpt_html_*.c (see each file). */
/* rpt_html_text.c */
void rpt_html_esc(FILE *out, const char *s);

/* Both plans' tables and strategies side by side with the diff's changes marked. */
struct rpt_plan;
void rpt_html_plan_diff(FILE *out, const struct rpt_plan *p, const char *old_name,
			const char *new_name);
/* rpt_html_analyze.c: a table of the tables whose rows examined changed, and the estimate
 * errors. */
struct rpt_analyze;
void rpt_html_analyze(FILE *out, const struct rpt_analyze *a, const char *old_name,
		      const char *new_name);
void rpt_html_esc_limited(FILE *out, const char *s, size_t max);
char *rpt_html_cut(const char *s, size_t max);
void rpt_html_fmt_ms(char *buf, size_t n, double ms);
void rpt_html_fmt_pct(char *buf, size_t n, double frac);
void rpt_html_fmt_g(char *buf, size_t n, const char *fmt, double v);
void rpt_html_td_num(FILE *out, double v, const char *text);
char *rpt_html_section_text(json_t *v);
json_t *rpt_html_section_get(json_t *obj, const char *alternatives);

/* rpt_html_head.c */
void rpt_html_meta_write(FILE *out, const struct rpt_html_page *pg);
const char *rpt_html_verdict_label(const char *v);
void rpt_html_headline_write(FILE *out, const struct rpt_html_page *pg);
void rpt_html_warnings_write(FILE *out, const struct rpt_html_page *pg);

/* rpt_html_queries.c */
void rpt_html_table_compare_write(FILE *out, const struct rpt_html_page *pg);
void rpt_html_table_report_write(FILE *out, const struct rpt_html_page *pg);
void rpt_html_queries_write(FILE *out, const struct rpt_html_page *pg);

#endif
