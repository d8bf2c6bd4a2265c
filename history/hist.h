/* SPDX-License-Identifier: MIT */
/* Nightly history (docs/history.md): a store of whole result files in SQLite or MySQL/MariaDB,
 * series of restart means per query, change points (E-Divisive means with a Welch t-test) and a
 * verdict on the newest result. */
#ifndef DBT3_HIST_H
#define DBT3_HIST_H
#include "result/res.h"
#include "base/util.h"
#include "stats/st.h"
#include <stddef.h>

#define HIST_SCHEMA_VERSION 4

/* ---- store ---------------------------------------------------------------------------------- */

struct hist_store;

/* Opens (creating and migrating the schema) the store at location: NULL for
 * $DBT3STAB_HOME/history.sqlite, a file path, or mysql://[USER@]HOST[:PORT]/DATABASE with optional
 * ?socket=PATH&option-file=PATH (password from MYSQL_PWD or an option file). Free with
 * hist_store_close. A store that cannot be reached or is not a database: -1 with err filled. */
int hist_store_open(struct hist_store **out, const char *location, struct errbuf *err);

/* Opens an existing store for reading only (list, show, export, check, report): nothing is
 * created, migrated or written, so a store the user may read but not write can be read (a
 * 0444 file, a read-only account). It must be at HIST_SCHEMA_VERSION. */
int hist_store_open_read(struct hist_store **out, const char *location, struct errbuf *err);
void hist_store_close(struct hist_store *st);

/* The schema version found before migration (0: a new store) and now. */
int hist_store_version(const struct hist_store *st, int *out_before, int *out_now);

enum hist_add_status { HIST_ADDED = 0, HIST_DUPLICATE = 1 };

/* Reads, validates and stores one result file in one transaction; *out_id is the new (or the
 * already stored) result id. Invalid file: -1 with the reader's line in err, nothing stored. */
int hist_store_add(struct hist_store *st, const char *path, const char *build_id, const char *label,
		   long long *out_id, enum hist_add_status *out_status, struct errbuf *err);

/* Removes a result and its restarts; HIST_E_UNKNOWN when there is no such id. */
#define HIST_E_UNKNOWN (-2)
int hist_store_remove(struct hist_store *st, long long id, struct errbuf *err);

/* One series: a query set measured on one host, dataset, server flavour and protocol. */
struct hist_series_info {
	char id[17]; /* 16 hex digits of SHA-256 of the key */
	char *host, *fingerprint, *flavour, *protocol;
	double scale_factor;
	long long n_results;
	char *first_at, *last_at;
};

/* All series (filter: NULL or a prefix of the id), ordered by host and id; the caller frees with
 * hist_series_info_free. */
int hist_store_series(struct hist_series_info **out, size_t *n, struct hist_store *st,
		      const char *filter, struct errbuf *err);
void hist_series_info_free(struct hist_series_info *s, size_t n);

/* One stored result as a row. */
struct hist_result_info {
	long long id;
	char series_id[17];
	char *sha256, *started_at, *finished_at, *added_at, *build_id, *label, *host, *flavour,
	    *server_version, *binary_sha256, *protocol, *variant, *fingerprint;
	double scale_factor;
};
void hist_result_info_release(struct hist_result_info *r);

/* Results of a series (NULL: all) in started_at order; free with hist_result_infos_free. */
int hist_store_results(struct hist_result_info **out, size_t *n, struct hist_store *st,
		       const char *series_id, struct errbuf *err);
void hist_result_infos_free(struct hist_result_info *r, size_t n);

/* One result by id, with its stored file text (*out_json, malloc'd; may be NULL to skip).
 * HIST_E_UNKNOWN when absent. */
int hist_store_result(struct hist_result_info *out, char **out_json, struct hist_store *st,
		      long long id, struct errbuf *err);

/* One row per restart mean, as `history export` writes it. */
typedef int (*hist_export_fn)(void *ctx, const char *const *cols, size_t n);
extern const char *const hist_export_columns[];
#define HIST_EXPORT_NCOLS 12
int hist_store_export(struct hist_store *st, const char *series_id, hist_export_fn fn, void *ctx,
		      struct errbuf *err);

/* ---- series --------------------------------------------------------------------------------- */

/* One result of a series for one query: its restart means (ms, restarts with status ok), and
 * what identifies its build (server_version, binary_sha256: NULL when the file had none). */
struct hist_point {
	long long result_id;
	char *started_at, *build_id, *server_version, *binary_sha256;
	double *means;
	size_t n;
};

struct hist_query_series {
	char *query;
	struct hist_point *pts; /* in started_at order */
	size_t n;
};

struct hist_series {
	struct hist_series_info info;
	struct hist_query_series *qs; /* in query order Q1..Q22 */
	size_t n_qs;
	long long newest_id; /* newest result of the series */
};

/* Loads a series' restart means (since: NULL or an ISO date; results started before are left
 * out). */
int hist_series_load(struct hist_series *out, struct hist_store *st,
		     const struct hist_series_info *info, const char *since, struct errbuf *err);
void hist_series_release(struct hist_series *s);

/* ---- detection ------------------------------------------------------------------------------ */

struct hist_detect_opts {
	double max_p;	   /* a split is a change point when its Welch p is below (0.001) */
	double min_effect; /* ... and its ratio is at least 1 + min_effect either way (0.02) */
	size_t min_size;   /* results on each side of a change point (3) */
	double alpha;	   /* CI level 1 - alpha of ratios, level of the newest verdict (0.05) */
};
void hist_detect_opts_init(struct hist_detect_opts *o);

/* A view of one point: n restart means. */
struct hist_pt {
	const double *means;
	size_t n;
};

/* A change point: index of the first point after it, the test of after vs before on the log
 * restart means of the two adjacent segments, and the E-Divisive statistic. */
struct hist_cp {
	size_t index;
	double q;		/* E-Divisive Q-hat of the split */
	struct st_test test;	/* ratio after/before, CI, p */
};

/* The E-Divisive means statistic Q-hat (Matteson and James 2014, alpha = 1) of splitting x[0..n)
 * at tau (0 < tau < n); NaN when a side has fewer than 2 points. */
double hist_edivisive_q(const double *x, size_t n, size_t tau);

/* Change points of pts[0..n) in order; *out malloc'd (the caller frees), *n_out their count. */
int hist_detect(struct hist_cp **out, size_t *n_out, const struct hist_pt *pts, size_t n,
		const struct hist_detect_opts *o, struct errbuf *err);

/* The level of one stable segment, results [from, to): the geometric mean of all its restart
 * means with their two-sided 1 - alpha CI (st_gmean_ci). */
struct hist_level {
	size_t from, to;
	double gmean, lo, hi;
};

/* The n_cps + 1 segments of pts[0..n) between the change points cps (in order) into
 * out[n_cps + 1]; -1 when out of memory. */
int hist_levels(struct hist_level *out, const struct hist_pt *pts, size_t n,
		const struct hist_cp *cps, size_t n_cps, double alpha);

enum hist_verdict {
	HIST_UNCHANGED = 0,
	HIST_IMPROVEMENT,
	HIST_REGRESSION,
	HIST_INCONCLUSIVE,
};
const char *hist_verdict_name(enum hist_verdict v);

/* The newest point against the last stable segment (the points since the last change point,
 * the newest left out), Welch on log restart means: regression or improvement when p < alpha and
 * the ratio is beyond 1 + min_effect; unchanged when the 1 - o->alpha CI lies inside the
 * min-effect band; else inconclusive. out_test (may be NULL) gets the test, CI at o->alpha. */
enum hist_verdict hist_newest_verdict(struct st_test *out_test, const struct hist_pt *pts, size_t n,
				      const struct hist_cp *cps, size_t n_cps, double alpha,
				      const struct hist_detect_opts *o);

/* The whole check of one query series: change points, the newest verdict, and whether the
 * newest result starts a regression: its verdict is regression and none of the o->min_size - 1
 * results before it had that verdict on the series up to it. */
struct hist_query_check {
	struct hist_cp *cps;
	size_t n_cps;
	enum hist_verdict verdict;
	struct st_test newest; /* newest vs last stable segment; kind NONE when untested */
	int starts_regression;
};
int hist_check_query(struct hist_query_check *out, const struct hist_pt *pts, size_t n,
		     double alpha, const struct hist_detect_opts *o, struct errbuf *err);
void hist_query_check_release(struct hist_query_check *c);

/* ---- the check of a whole store ------------------------------------------------------------ */

struct hist_check_series {
	struct hist_series s;
	struct hist_query_check *checks; /* s.n_qs, one per query series */
	double verdict_alpha;		 /* alpha / number of queries (Bonferroni) */
};

struct hist_check {
	struct hist_check_series *series;
	size_t n;
	struct hist_detect_opts opts;
	int any_starts_regression;
};

/* Checks every series (filter: NULL or a prefix of a series id, HIST_E_UNKNOWN when none
 * matches) on the results started at or after since (NULL: all). Release with
 * hist_check_release. */
int hist_check_run(struct hist_check *out, struct hist_store *st, const char *filter,
		   const char *since, const struct hist_detect_opts *o, struct errbuf *err);
void hist_check_release(struct hist_check *c);

#endif
