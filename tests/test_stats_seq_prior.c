/* SPDX-License-Identifier: MIT */
/* Unit tests of the sequential t with a variance borrowed from a baseline (st_seq_t_bounds_prior,
 * st_seq_state_set_prior): one look against Student's table, several looks against a direct
 * simulation of the pooled t statistics (written here, independent of the recursion), one look's
 * figures against a hand computation. */
#include "stats/st_seq.h"
#include "stats/st_seq_tbounds.h"
#include "tests/harness.h"
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* One look spends delta on one side: its bound is Student's upper delta quantile on the pooled
 * df, st_seq_t_df + prior. Values from a printed t table (e.g. NIST/SEMATECH e-Handbook,
 * 1.3.6.7.2): t(0.975; 10) = 2.228, t(0.975; 4) = 2.776, t(0.995; 20) = 2.845. */
TH_TEST(stats_seq_prior, one_look_is_students_quantile)
{
	static const struct {
		size_t k;
		enum st_seq_t_kind kind;
		double prior, delta, t;
	} cases[] = {
	    {3, ST_SEQ_T_ONE_SAMPLE, 8, 0.025, 2.228}, /* 2 + 8 df */
	    {2, ST_SEQ_T_POOLED, 8, 0.025, 2.228},     /* 2 + 8 df */
	    {1, ST_SEQ_T_ONE_SAMPLE, 4, 0.025, 2.776}, /* after one pair: the prior's 4 df */
	    {6, ST_SEQ_T_ONE_SAMPLE, 15, 0.005, 2.845},
	    {3, ST_SEQ_T_ONE_SAMPLE, 0, 0.025, 4.303}, /* no prior: 2 df, as before */
	};
	struct errbuf err = {""};
	for (size_t i = 0; i < NELEM(cases); i++) {
		double t[8], delta[8] = {0};
		size_t k = cases[i].k;
		delta[k] = cases[i].delta;
		CU_ASSERT_EQUAL_FATAL(
		    st_seq_t_bounds_prior(t, delta, k, k, cases[i].kind, cases[i].prior, &err), 0);
		CU_ASSERT_DOUBLE_EQUAL(t[k], cases[i].t, 5e-4);
	}
}

/* A look after one pair needs a prior; a prior must be a whole number of df. */
TH_TEST(stats_seq_prior, bad_priors_are_refused)
{
	double t[8], delta[8] = {0, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01};
	struct errbuf err = {""};
	struct st_seq_state s;
	CU_ASSERT_EQUAL(st_seq_t_bounds_prior(t, delta, 1, 4, ST_SEQ_T_ONE_SAMPLE, 0, &err),
			ST_EINVAL);
	CU_ASSERT_STRING_EQUAL(err.msg, "sequential t looks 1..4: the first needs 2 pairs (1 with "
					"a prior variance)");
	CU_ASSERT_EQUAL(st_seq_t_bounds_prior(t, delta, 1, 4, ST_SEQ_T_ONE_SAMPLE, 2.5, &err),
			ST_EINVAL);
	CU_ASSERT_EQUAL(st_seq_t_bounds_prior(t, delta, 1, 4, ST_SEQ_T_ONE_SAMPLE, -1, &err),
			ST_EINVAL);
	CU_ASSERT_EQUAL(st_seq_t_bounds_prior(t, delta, 1, 4, ST_SEQ_T_ONE_SAMPLE, 1, &err), 0);
	st_seq_state_init(&s);
	CU_ASSERT_EQUAL(st_seq_state_set_prior(&s, 0, 4, &err), ST_EINVAL);
	CU_ASSERT_EQUAL(st_seq_state_set_prior(&s, NAN, 4, &err), ST_EINVAL);
	CU_ASSERT_EQUAL(st_seq_state_set_prior(&s, 0.01, 0, &err), ST_EINVAL);
	CU_ASSERT_EQUAL(s.prior_df, 0);
}

/* The pooled t statistics of one simulated run under H0: k pairs of N(0, 1) (paired: their
 * differences; pooled: two samples) and a baseline's sum of squares, a chi^2 on prior df drawn
 * as a sum of squared normals. Crossing of the upper boundary at look k with no crossing of
 * either side before is counted in hits[k]. */
static void simulate_run(gsl_rng *r, enum st_seq_t_kind kind, size_t prior, const double *t,
			 size_t first, size_t last, unsigned long *hits)
{
	double prior_ss = 0, mean_a = 0, m2_a = 0, mean_b = 0, m2_b = 0;
	for (size_t i = 0; i < prior; i++) {
		double z = gsl_ran_gaussian_ziggurat(r, 1);
		prior_ss += z * z;
	}
	for (size_t k = 1; k <= last; k++) {
		double b = gsl_ran_gaussian_ziggurat(r, 1), a = 0, d;
		if (kind == ST_SEQ_T_POOLED)
			a = gsl_ran_gaussian_ziggurat(r, 1);
		d = b - mean_b;
		mean_b += d / (double)k;
		m2_b += d * (b - mean_b);
		d = a - mean_a;
		mean_a += d / (double)k;
		m2_a += d * (a - mean_a);
		if (k < first)
			continue;
		double df, var, stat;
		if (kind == ST_SEQ_T_POOLED) {
			df = 2.0 * (double)k - 2 + (double)prior;
			var = (m2_a + m2_b + prior_ss) / df;
			stat = (mean_b - mean_a) / sqrt(var * 2 / (double)k);
		} else {
			df = (double)k - 1 + (double)prior;
			var = (m2_b + prior_ss) / df;
			stat = mean_b / sqrt(var / (double)k);
		}
		if (stat > t[k])
			hits[k]++;
		if (fabs(stat) > t[k])
			return;
	}
}

/* Several looks: the boundaries spend delta[k] per side at each look k. A direct simulation of
 * the pooled t statistics (200000 runs, fixed seed) finds each look's crossing frequency within
 * 4.5 binomial standard errors of it, for both kinds, a look after the first pair included. A
 * wrong count of df shows: one df too many moves the crossing probability at these looks by
 * 10-35 %, 5-13 standard errors (tried: 0.0054 instead of 0.008 at the second look). */
TH_TEST(stats_seq_prior, bounds_match_a_simulation)
{
	enum { RUNS = 200000 };
	static const struct {
		enum st_seq_t_kind kind;
		size_t prior, first, last;
	} cases[] = {
	    {ST_SEQ_T_ONE_SAMPLE, 4, 1, 5},
	    {ST_SEQ_T_ONE_SAMPLE, 9, 2, 6},
	    {ST_SEQ_T_POOLED, 3, 1, 4},
	};
	struct errbuf err = {""};
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	gsl_rng_set(r, 20261202);
	for (size_t c = 0; c < NELEM(cases); c++) {
		double t[8], delta[8] = {0};
		unsigned long hits[8] = {0};
		for (size_t k = cases[c].first; k <= cases[c].last; k++)
			delta[k] = 0.004 * (double)(k - cases[c].first + 1); /* 0.004, 0.008, ... */
		CU_ASSERT_EQUAL_FATAL(st_seq_t_bounds_prior(t, delta, cases[c].first, cases[c].last,
							    cases[c].kind, (double)cases[c].prior,
							    &err),
				      0);
		for (long i = 0; i < RUNS; i++)
			simulate_run(r, cases[c].kind, cases[c].prior, t, cases[c].first,
				     cases[c].last, hits);
		for (size_t k = cases[c].first; k <= cases[c].last; k++) {
			double p = (double)hits[k] / RUNS,
			       se = sqrt(delta[k] * (1 - delta[k]) / RUNS);
			if (!(fabs(p - delta[k]) < 4.5 * se))
				fprintf(stderr,
					"case %zu look %zu: t %.4f crossed %.5f, want %.5f\n", c, k,
					t[k], p, delta[k]);
			CU_ASSERT(fabs(p - delta[k]) < 4.5 * se);
		}
	}
	gsl_rng_free(r);
}

/* One look's figures by hand: pairs (100, 110) and (100, 108), d = log 1.10, log 1.08, mean
 * 0.0861356, sum of squares 1.68345e-4; with a prior variance 4e-4 on 4 df the pooled variance is
 * (1.68345e-4 + 16e-4) / (1 + 4) = 3.53669e-4, se = sqrt(var / 2) = 0.0132979, t = 6.47738 on
 * 5 df. Unpaired on the same means (old 100, 104; new 110, 108): diff 0.0665253, pooled
 * variance (ss + 16e-4) / (2 + 4), se = sqrt(var x 2 / 2) = 0.0205648, t = 3.23490 on 6 df. */
TH_TEST(stats_seq_prior, a_look_pools_the_prior)
{
	static const double old[2][2] = {{100, 100}, {100, 104}},
			    new_[2][2] = {{110, 108}, {110, 108}};
	static const struct {
		enum st_seq_pairing pairing;
		double diff, se, t, df;
	} want[] = {
	    {ST_SEQ_PAIRED, 0.0861356105, 0.0132979150, 6.477377107, 5},
	    {ST_SEQ_UNPAIRED, 0.0665252539, 0.0205648471, 3.234901461, 6},
	};
	struct st_seq_opts o;
	struct st_seq_design d;
	struct st_seq_state s;
	struct errbuf err = {""};
	for (size_t i = 0; i < NELEM(want); i++) {
		st_seq_opts_init(&o);
		o.m = 1;
		o.max_pairs = 4;
		o.pairing = want[i].pairing;
		o.prior_df = 4;
		CU_ASSERT_EQUAL_FATAL(st_seq_design_init(&d, &o, &err), 0);
		st_seq_state_init(&s);
		/* the state's prior must have the design's df */
		CU_ASSERT_EQUAL(st_seq_feed(&s, &d, 100, 110, &err), ST_EINVAL);
		CU_ASSERT_EQUAL(s.pairs, 0);
		CU_ASSERT_EQUAL_FATAL(st_seq_state_set_prior(&s, 4e-4, 4, &err), 0);
		for (int k = 0; k < 2; k++)
			CU_ASSERT_EQUAL_FATAL(st_seq_feed(&s, &d, old[i][k], new_[i][k], &err), 0);
		CU_ASSERT_DOUBLE_EQUAL(s.look.diff, want[i].diff, 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(s.look.se, want[i].se, 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(s.look.t, want[i].t, 1e-8);
		CU_ASSERT_DOUBLE_EQUAL(s.look.df, want[i].df, 0);
	}
}

/* With a prior the design has a boundary after the first pair (without one it has none there),
 * and every bound is lower than without it: the same alpha on more df. */
TH_TEST(stats_seq_prior, a_prior_lowers_every_bound)
{
	struct st_seq_opts o;
	struct st_seq_design with, without;
	struct errbuf err = {""};
	st_seq_opts_init(&o);
	o.max_pairs = 6;
	o.first_look = 1;
	CU_ASSERT_EQUAL_FATAL(st_seq_design_init(&without, &o, &err), 0);
	o.prior_df = 5;
	CU_ASSERT_EQUAL_FATAL(st_seq_design_init(&with, &o, &err), 0);
	CU_ASSERT(isinf(without.t[1]));
	CU_ASSERT(isfinite(with.t[1]));
	for (size_t k = 2; k <= 6; k++)
		if (isfinite(without.t[k]))
			CU_ASSERT(with.t[k] < without.t[k]);
	CU_ASSERT(isfinite(with.t[6]) && isfinite(without.t[6]));
}

TH_MAIN(stats_seq_prior)
