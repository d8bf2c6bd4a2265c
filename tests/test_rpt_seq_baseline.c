/* SPDX-License-Identifier: MIT */
/* compare --sequential --baseline: each query's sequential test borrows the baseline's restart
 * variance. The expected figures were worked out from the fixture files by hand (Python, the
 * arithmetic mean of each ok restart's measured runs, logs, sample variances):
 *   seq_sep_new.json Q11: 8 restarts, variance of the log means 4.46608e-4 on 7 df, lent
 *   paired as 8.93216e-4; seq_old/seq_new Q11: 8 pairs, mean log ratio 0.00641270, sum of
 *   squares of the log ratios about their mean ss = 5.14007e-3 (own t 0.66934 on 7 df);
 *   pooled: var = (ss + 7 x 8.93216e-4) / 14, se = sqrt(var / 8) = 0.0100856, t = 0.635826 on
 *   14 df.
 * The lend check's figures (tonight's variances against the lent ones) are from
 * tests/data/lend_check.py (mpmath), which also wrote the quieter baseline seq_quiet_base.json. */
#include "reports/rpt.h"
#include "result/res.h"
#include "tests/harness.h"
#include "tests/th_rpt.h"
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

static struct rpt_compare *build_with(const struct files *f, int with_base, const char *base_name)
{
	struct rpt_compare_opts o;
	struct rpt_compare *c = NULL;
	struct errbuf err = {""};
	struct rpt_file_info fo = {"seq_old.json", f->old}, fn = {"seq_new.json", f->new},
			     fb = {base_name, f->base};
	rpt_compare_opts_init(&o);
	o.sequential = 1;
	if (rpt_compare_build(&c, &fo, &fn, with_base ? &fb : NULL, &o, &err) < 0)
		fprintf(stderr, "%s\n", err.msg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	return c;
}

static struct rpt_compare *build(const struct files *f, int with_base)
{
	return build_with(f, with_base, "seq_sep_new.json");
}

/* The text rpt_seq_write writes for c (free it). */
static char *seq_text(const struct rpt_compare *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	rpt_seq_write(m, c, 0);
	fclose(m);
	return text;
}

/* sequential.baseline_check of c's JSON report (a new reference). */
static json_t *check_json(const struct rpt_compare *c)
{
	json_t *report = json_object();
	rpt_seq_json(report, c);
	json_t *b = json_object_get(json_object_get(report, "sequential"), "baseline_check");
	json_incref(b);
	json_decref(report);
	return b;
}

/* Q11 (undecided in both): the look after the last pair, with and without the baseline. */
TH_TEST(rpt_seq_baseline, the_look_pools_the_baseline)
{
	struct files f;
	files_read(&f);
	struct rpt_compare *with = build(&f, 1), *without = build(&f, 0);
	const struct rpt_query *q = th_rpt_query(with, "Q11"), *q0 = th_rpt_query(without, "Q11");
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
TH_TEST(rpt_seq_baseline, the_report_says_so)
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
	json_t *jq = rpt_seq_query_json(c, th_rpt_query(c, "Q11"));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(jq, "borrowed_df")), 7);
	CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(jq, "df")), 14, 0);
	json_decref(jq);
	json_decref(report);
	rpt_compare_free(c);
	files_free(&f);
}

/* The baseline of the fixture is not quieter than the pairs (4 queries, tonight's variance 0.407
 * the lent one on the geometric mean, p 0.9639): it is lent, and the report gives the figures. */
TH_TEST(rpt_seq_baseline, the_lend_check_figures)
{
	struct files f;
	files_read(&f);
	struct rpt_compare *c = build(&f, 1);
	CU_ASSERT_EQUAL(c->lend.queries, 4);
	CU_ASSERT_DOUBLE_EQUAL(c->lend.ratio, 0.4071260706, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(c->lend.p, 0.963858289226, 1e-9);
	CU_ASSERT_EQUAL(c->lend_refused, 0);
	char *text = seq_text(c);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "pooled with their pairs'; tonight's variance x0.407 "
					    "the lent one over 4 queries (Fisher's combination of "
					    "one-sided F tests, p 0.964)\n"));
	free(text);
	json_t *b = check_json(c);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(b, "queries")), 4);
	CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(b, "p")), 0.963858289226, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(b, "alpha")), 0.05, 0);
	CU_ASSERT(json_is_false(json_object_get(b, "refused")));
	json_decref(b);
	rpt_compare_free(c);
	files_free(&f);
}

/* A baseline far quieter than tonight (seq_quiet_base.json: its restart variance / 25; tonight's
 * variance 10.18 the lent one, p 1.194e-7): refused, so every query's test is the one without a
 * baseline (Q11: its own 7 df, t 0.66934). */
TH_TEST(rpt_seq_baseline, a_quieter_baseline_is_refused)
{
	struct files f;
	struct errbuf err = {""};
	files_read(&f);
	res_file_free(f.base);
	CU_ASSERT_EQUAL_FATAL(res_file_read(&f.base, DATA "seq_quiet_base.json", &err), 0);
	struct rpt_compare *c = build_with(&f, 1, "seq_quiet_base.json");
	CU_ASSERT_EQUAL(c->lend.queries, 4);
	CU_ASSERT_DOUBLE_EQUAL(c->lend.ratio, 10.17815163, 1e-7);
	CU_ASSERT_DOUBLE_EQUAL(c->lend.p / 1.19390342089e-7, 1, 1e-6);
	CU_ASSERT_EQUAL(c->lend_refused, 1);
	CU_ASSERT_EQUAL(c->seq_base.opts.prior_df, 0);
	for (size_t i = 0; i < c->n_queries; i++)
		CU_ASSERT_DOUBLE_EQUAL(c->queries[i].seq_prior.df, 0, 0);
	const struct rpt_query *q = th_rpt_query(c, "Q11");
	CU_ASSERT_DOUBLE_EQUAL(q->seq.look.df, 7, 0);
	CU_ASSERT_DOUBLE_EQUAL(q->seq.look.t, 0.6693449632759539, 1e-8);
	char *text = seq_text(c);
	CU_ASSERT_PTR_NOT_NULL(strstr(
	    text, "variance: not borrowed from the baseline 'seq_quiet_base.json': tonight's "
		  "variance x10.2 the lent one over 4 queries (Fisher's combination of one-sided "
		  "F tests, p 1.19e-07) < 0.05; each query uses its own pairs only\n"));
	CU_ASSERT_PTR_NULL(strstr(text, "borrow the restart variance"));
	free(text);
	json_t *b = check_json(c);
	CU_ASSERT(json_is_true(json_object_get(b, "refused")));
	json_decref(b);
	rpt_compare_free(c);
	files_free(&f);
}

/* Two runs (unpaired): seq_old.json against seq_sep_new.json with seq_new.json as the baseline.
 * Tonight's variance is the within-variant one, pooled on 14 df, against the baseline's restart
 * variance itself (not twice it): x1.888 over 4 queries, p 0.08474 — lent
 * (tests/data/lend_check.py). */
TH_TEST(rpt_seq_baseline, the_unpaired_check)
{
	struct rpt_compare_opts o;
	struct rpt_compare *c = NULL;
	struct errbuf err = {""};
	struct res_file *old = NULL, *new = NULL, *base = NULL;
	CU_ASSERT_EQUAL_FATAL(res_file_read(&old, DATA "seq_old.json", &err), 0);
	CU_ASSERT_EQUAL_FATAL(res_file_read(&new, DATA "seq_sep_new.json", &err), 0);
	CU_ASSERT_EQUAL_FATAL(res_file_read(&base, DATA "seq_new.json", &err), 0);
	struct rpt_file_info fo = {"seq_old.json", old}, fn = {"seq_sep_new.json", new},
			     fb = {"seq_new.json", base};
	rpt_compare_opts_init(&o);
	o.sequential = 1;
	CU_ASSERT_EQUAL_FATAL(rpt_compare_build(&c, &fo, &fn, &fb, &o, &err), 0);
	CU_ASSERT_FALSE(c->paired);
	CU_ASSERT_EQUAL(c->lend.queries, 4);
	CU_ASSERT_DOUBLE_EQUAL(c->lend.ratio, 1.887532896, 1e-8);
	CU_ASSERT_DOUBLE_EQUAL(c->lend.p, 0.0847394014446, 1e-10);
	CU_ASSERT_EQUAL(c->lend_refused, 0);
	CU_ASSERT_EQUAL(c->seq_base.opts.prior_df, 7);
	rpt_compare_free(c);
	res_file_free(old);
	res_file_free(new);
	res_file_free(base);
}

TH_MAIN(rpt_seq_baseline)
