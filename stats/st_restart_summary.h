/* SPDX-License-Identifier: MIT */
/* The per-query figures of one result file: restart means, ANOVA CoVs, noise, run-position
 * effect, fingerprint agreement and restart counts. One rule for every output (the end-of-run
 * table, compare, summary, the HTML report): only restarts with status ok and measured runs
 * count. */
#ifndef DBT3_ST_RESTART_SUMMARY_H
#define DBT3_ST_RESTART_SUMMARY_H

#include "result/res.h"
#include "stats/st.h"

struct st_restart_summary {
	size_t n_restarts, n_ok; /* recorded / with status ok and measured runs */
	double *means;		 /* n_ok arithmetic restart means (ms) */
	int *indices;		 /* n_ok: the restart index (res_restart.index) of each mean */
	double *runs;		 /* the measured runs of those restarts, concatenated */
	size_t *nruns;		 /* n_ok: runs of each */
	int have_stats;		 /* stats is set (n_ok >= 1 and st_query_stats_compute took them) */
	struct st_query_stats stats;
	int have_noise; /* n_ok >= 2 and noise is set */
	struct st_noise noise;
	int have_position; /* the run-position F test ran */
	struct st_position position;
	int position_effect;	/* p < the alpha asked */
	unsigned position_runs; /* bit j: run j + 1 differs (when position_effect) */
	char why[256];		/* why stats or noise is missing though n_ok asks for it */
	size_t not_steady, warmup_cut, timeout, crash, error; /* restarts marked so */
	long long rows;		   /* of the first restart that has them, or -1 */
	long long ok_rows;	   /* of the first ok restart that has them, or -1 (compare's) */
	int rows_vary;		   /* an execution returned another row count than the first of its
				    * restart (a restart's row_count_changes, any status) */
	const char *plan_sha256;   /* of the first restart with a plan fingerprint */
	const char *plan;	   /* that restart's plan text, or NULL (older files have none) */
	const char *result_sha256; /* of the first ok restart with one */
	const char *error_text;	   /* of the first restart that has one */
	int plans_differ;	   /* plan fingerprints differ between restarts */
	int results_differ;	   /* result fingerprints differ between ok restarts */
};

/* Fills out from q; the run-position effect is judged at position_alpha. Returns -1 only when
 * out of memory. st_restart_summary_release() frees out in every case. */
int st_restart_summary_compute(struct st_restart_summary *out, const struct res_query *q,
			       double position_alpha, struct errbuf *err);
void st_restart_summary_release(struct st_restart_summary *f);

#endif
