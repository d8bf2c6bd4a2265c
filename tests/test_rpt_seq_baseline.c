/* SPDX-License-Identifier: MIT */
/* compare --sequential --baseline: each query's sequential test borrows the baseline's restart
 * variance. The expected figures were worked out from the fixture files by hand (Python, the
 * arithmetic mean of each ok restart's measured runs, logs, sample variances):
 *   seq_sep_new.json Q11: 8 restarts, variance of the log means 4.46608e-4 on 7 df, lent
 *   paired as 8.93216e-4; seq_old/seq_new Q11: 8 pairs, mean log ratio 0.00641270, sum of
 *   squares of the log ratios about their mean ss = 5.14007e-3 (own t 0.66934 on 7 df);
 *   pooled: var = (ss + 7 x 8.93216e-4) / 14, se = sqrt(var / 8) = 0.0100856, t = 0.635826 on
 *   14 df. */
#include "reports/rpt.h"
#include "result/res.h"
#include "tests/harness.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DATA DBT3_SOURCE_DIR "/tests/data/"

struct files {
	struct res_file *old, *new, *base;
};

static void files_read(struct files *f)
{
	struct errbuf err = {""};
	memset(f, 0, sizeof(*f));
	CU_ASSERT_EQUAL_FATAL(res_file_read(&f->old, DATA "seq_old.json", &err), 0);
	CU_ASSERT_EQUAL_FATAL(res_file_read(&f->new, DATA "seq_new.json", &err), 0);
	CU_ASSERT_EQUAL_FATAL(res_file_read(&f->base, DATA "seq_sep_new.json", &err), 0);
}

static void files_free(struct files *f)
{
	res_file_free(f->old);
	res_file_free(f->new);
	res_file_free(f->base);
}

static struct rpt_compare *build(const struct files *f, int with_base)
{
	struct rpt_compare_opts o;
	struct rpt_compare *c = NULL;
	struct errbuf err = {""};
	struct rpt_file_info fo = {"seq_old.json", f->old}, fn = {"seq_new.json", f->new},
			     fb = {"seq_sep_new.json", f->base};
	rpt_compare_opts_init(&o);
	o.sequential = 1;
	if (rpt_compare_build(&c, &fo, &fn, with_base ? &fb : NULL, &o, &err) < 0)
		fprintf(stderr, "%s\n", err.msg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	return c;
}

static const struct rpt_query *query(const struct rpt_compare *c, const char *id)
{
	for (size_t i = 0; i < c->n_queries; i++)
		if (strcmp(c->queries[i].id, id) == 0)
			return &c->queries[i];
	CU_FAIL_FATAL("query missing");
	return NULL;
}

/* Q11 (undecided in both): the look after the last pair, with and without the baseline. */
static void test_rpt_seq_baseline__the_look_pools_the_baseline(void)
{
	struct files f;
	files_read(&f);
	struct rpt_compare *with = build(&f, 1), *without = build(&f, 0);
	const struct rpt_query *q = query(with, "Q11"), *q0 = query(without, "Q11");
	CU_ASSERT(with->paired);
	CU_ASSERT_EQUAL(with->seq_base.opts.prior_df, 7);
	CU_ASSERT_DOUBLE_EQUAL(q->seq_prior.df, 7, 0);
	CU_ASSERT_DOUBLE_EQUAL(q->seq_prior.var, 2 * 4.4660793766549604e-4, 1e-12);
	CU_ASSERT_EQUAL(q->seq.decided_at, 0);
	CU_ASSERT_EQUAL(q->n_pairs, 8);
	CU_ASSERT_DOUBLE_EQUAL(q->seq.look.df, 14, 0);
	CU_ASSERT_DOUBLE_EQUAL(q->seq.look.se, 0.010085609494692690, 1e-10);
	CU_ASSERT_DOUBLE_EQUAL(q->seq.look.t, 0.6358264128628436, 1e-8);
	/* without a baseline: its own 7 df */
	CU_ASSERT_EQUAL(without->seq_base.opts.prior_df, 0);
	CU_ASSERT_DOUBLE_EQUAL(q0->seq_prior.df, 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(q0->seq.look.df, 7, 0);
	CU_ASSERT_DOUBLE_EQUAL(q0->seq.look.t, 0.6693449632759539, 1e-8);
	/* the borrowed design's bounds are lower at every look with a bound */
	for (size_t k = 2; k <= with->seq.looks; k++)
		if (isfinite(with->seq.t[k]))
			CU_ASSERT(with->seq_base.t[k] < with->seq.t[k]);
	rpt_compare_free(with);
	rpt_compare_free(without);
	files_free(&f);
}

/* The report says who borrowed, from which file, on how many df; JSON too. */
static void test_rpt_seq_baseline__the_report_says_so(void)
{
	struct files f;
	char *text = NULL;
	size_t len = 0;
	files_read(&f);
	struct rpt_compare *c = build(&f, 1);
	FILE *m = open_memstream(&text, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	rpt_seq_write(m, c, 0);
	fclose(m);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "variance: 4 of 4 queries borrow the restart variance "
					    "of the baseline 'seq_sep_new.json' (twice it, for a "
					    "pair's log ratio) on 7 df"));
	free(text);
	json_t *report = json_object();
	rpt_seq_json(report, c);
	json_t *b = json_object_get(json_object_get(report, "sequential"), "borrowed_variance");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(b, "df")), 7);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(b, "queries")), 4);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(b, "baseline")),
			       "seq_sep_new.json");
	json_t *jq = rpt_seq_query_json(c, query(c, "Q11"));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(jq, "borrowed_df")), 7);
	CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(jq, "df")), 14, 0);
	json_decref(jq);
	json_decref(report);
	rpt_compare_free(c);
	files_free(&f);
}

int main(int argc, char **argv)
{
	static const struct th_case cases[] = {
	    {"the_look_pools_the_baseline", test_rpt_seq_baseline__the_look_pools_the_baseline},
	    {"the_report_says_so", test_rpt_seq_baseline__the_report_says_so},
	    {NULL, NULL},
	};
	return th_run("rpt_seq_baseline", cases, argc, argv);
}
