/* SPDX-License-Identifier: MIT */
/* Unit tests of the budget planning rules (runner/run_budget.h), the corrected not_steady check
 * (runner/run_steady.h), durations and the variant order. Reference values: Rscript
 * tests/data/run_budget_ref.R (its output is tests/data/run_budget_ref.out). */
#include "harness.h"
#include "base/cli.h"
#include "runner/run.h"
#include "runner/run_budget.h"
#include "runner/run_budget_plan.h"
#include "runner/run_steady.h"
#include "stats/st.h"
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

TH_TEST(run_budget, durations_parse)
{
	static const struct {
		const char *in;
		double s;
	} ok[] = {{"45m", 2700}, {"90s", 90}, {"1h30m", 5400}, {"1.5h", 5400},
		  {"90", 90},	 {"2m30s", 150}, {"1h0m5s", 3605}};
	static const char *const bad[] = {"", "0", "0s", "-5m", "5x", "1h30", "m", "1e3s",
					  "0x10m", "inf", "5 m", "3d"};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		double v = -1;
		CU_ASSERT_EQUAL(cli_parse_duration(ok[i].in, &v), 0);
		CU_ASSERT_DOUBLE_EQUAL(v, ok[i].s, 1e-9);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		double v;
		CU_ASSERT_EQUAL(cli_parse_duration(bad[i], &v), -1);
	}
}

/* Brute force over n in R (run_budget_ref.R, "runs per restart"). */
TH_TEST(run_budget, runs_per_restart_is_cost_optimal)
{
	static const struct {
		double cf, ce, vw, vb;
		int nmin, nmax, want;
	} c[] = {
	    {30, 0.5, 4e-4, 1e-4, 2, 10, 10}, {2, 0.5, 4e-4, 1e-4, 2, 10, 4},
	    {3, 0.4, 1e-4, 4e-4, 2, 10, 2},   {10, 1, 1e-4, 2e-5, 1, 20, 7},
	    {7, 1, 2.5e-4, 1e-4, 1, 20, 4},   {5, 0.25, 3e-4, 1e-4, 3, 12, 8},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		CU_ASSERT_EQUAL(
		    run_budget_runs(c[i].cf, c[i].ce, c[i].vw, c[i].vb, c[i].nmin, c[i].nmax),
		    c[i].want);
	/* No restart variance seen yet: the upper bound; no within variance: the lower one. */
	CU_ASSERT_EQUAL(run_budget_runs(10, 1, 1e-4, 0, 2, 10), 10);
	CU_ASSERT_EQUAL(run_budget_runs(10, 1, 1e-4, NAN, 2, 10), 10);
	CU_ASSERT_EQUAL(run_budget_runs(10, 1, 0, 1e-4, 2, 10), 2);
	CU_ASSERT_EQUAL(run_budget_runs(10, 0, 1e-4, 1e-4, 2, 10), -1);
	CU_ASSERT_EQUAL(run_budget_runs(10, 1, 1e-4, 1e-4, 5, 4), -1);
}

TH_TEST(run_budget, warmup_rule_sees_a_transient)
{
	/* The shape of Q10/Q14/Q17 at SF 0.1: slower at executions 2-4, then settled. */
	double x[] = {100, 130, 135, 130, 100, 100, 101, 100};
	int first = 0;
	for (size_t n = 1; n <= 8 && !first; n++)
		if (run_warmup_steady(x, n, run_warmup_tol(0.01)))
			first = (int)n;
	CU_ASSERT_EQUAL(first, 8); /* windows {5,6} against {7,8} */
	double flat[] = {50, 50.2, 49.9, 50.1};
	CU_ASSERT_EQUAL(run_warmup_steady(flat, 3, 0.02), 0); /* needs two windows */
	CU_ASSERT_EQUAL(run_warmup_steady(flat, 4, 0.02), 1);
	CU_ASSERT_DOUBLE_EQUAL(run_warmup_tol(NAN), RUN_WARMUP_TOL_MIN, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(run_warmup_tol(0.001), RUN_WARMUP_TOL_MIN, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(run_warmup_tol(0.05), 0.15, 1e-15);
}

/* How often the rule calls a steady (iid log-normal) series unsteady at one check: R gives
 * 0.00273, 0.00298, 0.00268 for CoV 1%, 3%, 10% (analytic 2(1 - Phi(3)) = 0.0027). 200000 checks
 * a CoV: binomial sd 0.000116, so +-0.0006 is five sd. Fixed seed. */
TH_TEST(run_budget, warmup_rule_false_unsteady_rate)
{
	static const double cov[] = {0.01, 0.03, 0.10}, want[] = {0.002730, 0.002978, 0.002675};
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	CU_ASSERT_PTR_NOT_NULL_FATAL(rng);
	gsl_rng_set(rng, 20131);
	for (size_t c = 0; c < 3; c++) {
		const size_t n = 200000;
		double s = sqrt(log1p(cov[c] * cov[c])), tol = run_warmup_tol(cov[c]);
		size_t unsteady = 0;
		for (size_t i = 0; i < n; i++) {
			double x[4];
			for (int k = 0; k < 4; k++)
				x[k] = 100 * exp(gsl_ran_gaussian(rng, s));
			unsteady += !run_warmup_steady(x, 4, tol);
		}
		double rate = (double)unsteady / (double)n;
		CU_ASSERT_DOUBLE_EQUAL(rate, want[c], 0.0006);
	}
	gsl_rng_free(rng);
}

TH_TEST(run_budget, next_pair_cost_and_fit)
{
	struct run_qcost q[] = {{0.5, 4, 6, 1}, {2.0, 8, 3, 1}, {1.0, 4, 10, 0}, {NAN, 4, 5, 1}};
	/* 3 + (4 + 6) 0.5 + (8 + 3) 2 = 30; the inactive and the unknown add nothing. */
	CU_ASSERT_DOUBLE_EQUAL(run_budget_restart_cost(3, q, 4), 30, 1e-12);
	CU_ASSERT_EQUAL(run_budget_fits(100, 30, 130), 1);
	CU_ASSERT_EQUAL(run_budget_fits(100.5, 30, 130), 0);
}

TH_TEST(run_budget, look_levels_sum_to_alpha)
{
	CU_ASSERT_DOUBLE_EQUAL(run_budget_look_alpha(0.05, 1, 1), 0.0303963550927, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(run_budget_look_alpha(0.05, 3, 22), 0.000153516944913, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(run_budget_look_alpha(0.05, 10, 22), 1.38165250421e-05, 1e-16);
	double s = 0;
	for (size_t k = 1; k <= 1000000; k++)
		s += run_budget_look_alpha(0.05, k, 1);
	CU_ASSERT(s < 0.05 && s > 0.05 * (1 - 1.1e-6)); /* tail beyond 10^6 ~ 6/(pi^2 10^6) */
}

/* R: run_budget_ref.R, "paired repeated CI". */
TH_TEST(run_budget, paired_decisions)
{
	double a1[] = {100, 102, 99, 101, 100, 98}, b1[] = {120, 121, 119, 122, 118, 120};
	double a2[] = {100, 101, 99, 100.5, 99.5, 100.2, 100.1, 99.8};
	double b2[] = {100.2, 100.9, 99.1, 100.4, 99.7, 100.0, 100.3, 99.9};
	double a3[] = {100, 110, 90}, b3[] = {104, 112, 95};
	double r, lo, hi;
	CU_ASSERT_EQUAL(run_budget_decide_paired(a1, b1, 6, 0.03, 0.05, 22, &r, &lo, &hi),
			RUN_DECIDED_REGRESSION);
	CU_ASSERT_DOUBLE_EQUAL(r, 1.2000305647, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(lo, 1.1152625057, 1e-8);
	CU_ASSERT_DOUBLE_EQUAL(hi, 1.2912416126, 1e-8);
	CU_ASSERT_EQUAL(run_budget_decide_paired(b1, a1, 6, 0.03, 0.05, 22, NULL, NULL, NULL),
			RUN_DECIDED_IMPROVEMENT);
	CU_ASSERT_EQUAL(run_budget_decide_paired(a2, b2, 8, 0.03, 0.05, 22, &r, &lo, &hi),
			RUN_DECIDED_UNCHANGED);
	CU_ASSERT_DOUBLE_EQUAL(lo, 0.9948605650, 1e-8);
	CU_ASSERT_DOUBLE_EQUAL(hi, 1.0061789551, 1e-8);
	CU_ASSERT_EQUAL(run_budget_decide_paired(a3, b3, 3, 0.03, 0.05, 22, &r, &lo, &hi),
			RUN_UNDECIDED);
	CU_ASSERT_DOUBLE_EQUAL(lo, 0.4461821446, 1e-8);
	CU_ASSERT_DOUBLE_EQUAL(hi, 2.4138725078, 1e-7);
	/* Two pairs are not enough to look. */
	CU_ASSERT_EQUAL(run_budget_decide_paired(a1, b1, 2, 0.03, 0.05, 22, NULL, NULL, NULL),
			RUN_UNDECIDED);
}

TH_TEST(run_budget, single_build_precision)
{
	double tight[] = {100, 100.5, 99.7, 100.2, 99.9}, loose[] = {100, 105, 95, 102, 98};
	CU_ASSERT_EQUAL(run_budget_decide_single(tight, 5, 0.03, 0.05, 22), RUN_DECIDED_PRECISE);
	CU_ASSERT_EQUAL(run_budget_decide_single(loose, 5, 0.03, 0.05, 22), RUN_UNDECIDED);
	CU_ASSERT_EQUAL(run_budget_decide_single(tight, 2, 0.03, 0.05, 22), RUN_UNDECIDED);
}

/* Steady series of 10 runs, 22 queries x 5 restarts per simulated run: R gives the family-wise
 * rate of flagging any as 0.9948 uncorrected (exact MK at 0.05) and 0.0386 with Holm. 2000 runs:
 * binomial sd 0.0043 at 0.0386; +-0.02 leaves room for five. Fixed seed. */
TH_TEST(run_budget, not_steady_family_rate)
{
	enum { M = 110, N = 10, RUNS = 2000 };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	CU_ASSERT_PTR_NOT_NULL_FATAL(rng);
	gsl_rng_set(rng, 1979);
	size_t any_raw = 0, any_holm = 0;
	for (int run = 0; run < RUNS; run++) {
		double p[M];
		int flags[M], raw = 0;
		for (int i = 0; i < M; i++) {
			double x[N];
			struct st_mk mk;
			for (int k = 0; k < N; k++)
				x[k] = 100 * exp(gsl_ran_gaussian(rng, 0.02));
			CU_ASSERT_EQUAL_FATAL(st_mann_kendall(&mk, x, N, NULL), 0);
			p[i] = mk.p;
			raw |= mk.p < 0.05;
		}
		any_raw += (size_t)raw;
		any_holm += run_steady_holm(flags, p, M, 0.05) > 0;
	}
	CU_ASSERT_DOUBLE_EQUAL((double)any_raw / RUNS, 0.9948, 0.01);
	CU_ASSERT_DOUBLE_EQUAL((double)any_holm / RUNS, 0.0386, 0.02);
	gsl_rng_free(rng);
	/* NaN entries (untested) leave the family: 0.01 is flagged among 3 tests, not among 5. */
	double p[] = {0.01, NAN, 0.5, NAN, 0.9};
	int flags[5];
	CU_ASSERT_EQUAL(run_steady_holm(flags, p, 5, 0.05), 1);
	CU_ASSERT_EQUAL(flags[0], 1);
	CU_ASSERT_EQUAL(flags[1], 0);
}

/* Without --seed the variant order alternates A B, B A, A B, ... (balanced). */
TH_TEST(run_budget, variant_order_is_balanced)
{
	struct run_plan p;
	int v[3];
	run_plan_init(&p);
	for (int r = 0; r < 6; r++) {
		run_variant_order(&p, r, 2, v);
		CU_ASSERT_EQUAL(v[0], r % 2);
		CU_ASSERT_EQUAL(v[1], 1 - r % 2);
	}
	run_variant_order(&p, 1, 3, v);
	CU_ASSERT(v[0] == 2 && v[1] == 1 && v[2] == 0);
	p.variant_order = RUN_VORDER_FIXED; /* files written before: A B A B */
	run_variant_order(&p, 1, 2, v);
	CU_ASSERT(v[0] == 0 && v[1] == 1);
}

/* Adds restart `index` of query id to res: 4 warm-up executions of 2 x level, 5 measured runs
 * level * (1 + wiggle[k]). */
static void add_restart(struct res_file *res, const char *id, int index, double level)
{
	static const double wiggle[5] = {-0.002, 0.001, 0.0, 0.002, -0.001};
	double warm[4], meas[5];
	for (int k = 0; k < 4; k++)
		warm[k] = 2 * level;
	for (int k = 0; k < 5; k++)
		meas[k] = level * (1 + wiggle[k]);
	struct res_query *q = res_file_find_query(res, id);
	if (!q)
		q = res_file_add_query(res, id,
				       "0000000000000000000000000000000000000000000000000000000000000000");
	struct res_restart r = {.index = index, .status = RES_STATUS_OK, .warmup_ms = warm,
				.n_warmup = 4, .measured_ms = meas, .n_measured = 5, .rows = 1};
	CU_ASSERT_PTR_NOT_NULL_FATAL(res_query_add_restart(q, &r));
}

/* Two variants over 8 pairs: Q1 20% slower in new, Q6 the same, Q14 noisy (+-30% from pair to
 * pair). The sequential test decides Q1 and Q6 and leaves Q14; decided queries leave the next
 * pair and its cost. */
TH_TEST(run_budget, next_pair_decides_and_drops_queries)
{
	struct run_plan p;
	struct run_qnext next[3];
	struct errbuf err;
	run_plan_init(&p);
	p.budget_s = 600;
	p.n_queries = 3;
	p.queries[0] = 1, p.queries[1] = 6, p.queries[2] = 14;
	struct res_file *res[2] = {res_file_new(), res_file_new()};
	CU_ASSERT_PTR_NOT_NULL_FATAL(res[0]);
	CU_ASSERT_PTR_NOT_NULL_FATAL(res[1]);
	static const double drift[8] = {1.0, 1.01, 0.99, 1.02, 0.98, 1.0, 1.01, 0.99};
	static const double noisy[8] = {1.3, 0.7, 1.2, 0.8, 1.25, 0.75, 1.3, 0.7};
	for (int r = 0; r < 8; r++) {
		add_restart(res[0], "Q1", r, 100 * drift[r]);
		add_restart(res[1], "Q1", r, 120 * drift[r]);
		add_restart(res[0], "Q6", r, 50 * drift[r]);
		add_restart(res[1], "Q6", r, 50 * drift[r]);
		add_restart(res[0], "Q14", r, 10 * noisy[r]);
		add_restart(res[1], "Q14", r, 10 * noisy[7 - r]);
	}
	static struct run_budget_seq seq;
	memset(&seq, 0, sizeof(seq));
	seq.budget_s = 600;
	seq.elapsed_s = 60;
	seq.min_pairs = 2;
	run_budget_next_init(next, &p);
	double ss[2] = {1.0, 1.0};
	struct run_pair_cost cost = {0, 0};
	/* All eight pairs at once (as after a resume of the loop): one look per pair, each with the
	 * K estimated now (K_k for every k). */
	int undecided = run_budget_next(next, &p, res, 2, 8, ss, 0, &seq, &cost, &err);
	CU_ASSERT_EQUAL(undecided, 1);
	CU_ASSERT_EQUAL_FATAL(seq.n_horizon, 8);
	for (size_t k = 1; k < 8; k++)
		CU_ASSERT_EQUAL(seq.horizon[k], seq.horizon[0]);
	CU_ASSERT(seq.horizon[0] >= 8);
	CU_ASSERT_EQUAL(next[0].decision, RUN_DECIDED_REGRESSION);
	CU_ASSERT_EQUAL(next[1].decision, RUN_DECIDED_UNCHANGED);
	CU_ASSERT_EQUAL(next[2].decision, RUN_UNDECIDED);
	CU_ASSERT_DOUBLE_EQUAL(next[0].ratio, 1.2, 1e-9);
	CU_ASSERT(next[0].ci_lo > 1 && next[0].ci_hi >= next[0].ci_lo);
	/* Q1's pairs all say exactly 1.2: decided at the first look, after pair 2. */
	CU_ASSERT_EQUAL(next[0].decided_after, 2);
	CU_ASSERT(next[1].decided_after >= 2 && next[1].decided_after <= 8);
	CU_ASSERT_EQUAL(next[0].active, 0);
	CU_ASSERT_EQUAL(next[1].active, 0);
	CU_ASSERT_EQUAL(next[2].active, 1);
	/* The next pair: the start + stop of both variants and Q14 alone: (4 warm-up + runs)
	 * executions at its mean time (warm-up 2 x level, so (4 * 20 + 5 * 10) / 9 ms a side). */
	double per = (4 * 20.0 + 5 * 10.0) / 9 / 1000;
	CU_ASSERT(next[2].runs >= p.runs_min && next[2].runs <= p.runs_max);
	CU_ASSERT_DOUBLE_EQUAL(cost.full_s, 2 * (1.0 + (4 + next[2].runs) * per), 1e-9);
	/* ... and at its least: --warmup-min 4 and --runs-min 3 (or fewer planned). */
	int least_runs = next[2].runs < 3 ? next[2].runs : 3;
	CU_ASSERT_DOUBLE_EQUAL(cost.least_s, 2 * (1.0 + (4 + least_runs) * per), 1e-9);
	/* Decisions are final: another look changes nothing. */
	CU_ASSERT_EQUAL(run_budget_next(next, &p, res, 2, 8, ss, 0, &seq, &cost, &err), 1);
	CU_ASSERT_EQUAL(next[0].decision, RUN_DECIDED_REGRESSION);
	/* --measure-decided: decided queries stay in the next pair and its cost. */
	p.keep_all = 1;
	struct run_pair_cost all = {0, 0};
	CU_ASSERT_EQUAL(run_budget_next(next, &p, res, 2, 8, ss, 0, &seq, &all, &err), 1);
	CU_ASSERT(next[0].active && next[1].active && next[2].active);
	CU_ASSERT(all.full_s > cost.full_s);
	CU_ASSERT(all.least_s > cost.least_s);
	res_file_free(res[0]);
	res_file_free(res[1]);
}

/* K after k pairs: the pairs done plus those the budget still holds at the estimated cost of a
 * pair. The real run of issue 13 (SF 0.1, 10 minutes): after pair 1 (about 70 s) K was 8 and
 * stayed so; after pair 8 (414 s, 49 s a pair) the budget holds 3 more. */
TH_TEST(run_budget, horizon_follows_the_budget)
{
	CU_ASSERT_EQUAL(run_budget_horizon(1, 2, 600, 70, 70, NAN), 8);
	CU_ASSERT_EQUAL(run_budget_horizon(8, 2, 600, 414, 49, NAN), 11);
	CU_ASSERT_EQUAL(run_budget_horizon(1, 2, 600, 60, 60, NAN), 10);
	CU_ASSERT_EQUAL(run_budget_horizon(1, 2, 600, 590, 60, NAN), 2); /* at least the first look */
	CU_ASSERT_EQUAL(run_budget_horizon(1, 4, 600, 590, 60, NAN), 4); /* --min-restarts 4 */
	CU_ASSERT_EQUAL(run_budget_horizon(6, 2, 600, 599, 60, NAN), 6); /* the last pair: t = 1 */
	CU_ASSERT_EQUAL(run_budget_horizon(6, 2, 600, 700, 60, NAN), 6); /* over the budget */
	CU_ASSERT_EQUAL(run_budget_horizon(1, 2, 1e9, 1, 1, NAN), ST_SEQ_MAX_PAIRS);
	CU_ASSERT_EQUAL(run_budget_horizon(1, 2, 600, 60, NAN, NAN), ST_SEQ_MAX_PAIRS);
	CU_ASSERT_EQUAL(run_budget_horizon(200, 2, 1e9, 1, 1, NAN), ST_SEQ_MAX_PAIRS);
}

/* Side by side the measured runs are what the allocation gives, as restart-paired: with strict
 * alternation no slot differs from another, so an odd count needs no rounding (docs/side-by-side.md). The
 * first pairs' RUN_BUDGET_RUNS_FIRST (5) within --runs-min and --runs-max either way. */
TH_TEST(run_budget, sbs_runs_not_rounded_to_even)
{
	static const struct {
		int rmin, rmax, want;
	} t[] = {{3, 10, 5}, {2, 3, 3}, {7, 10, 7}, {1, 1, 1}};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		for (int sbs = 0; sbs < 2; sbs++) {
			struct run_plan p;
			struct run_qnext next[1];
			memset(&p, 0, sizeof(p));
			p.side_by_side = sbs;
			p.n_queries = 1;
			p.runs_min = t[i].rmin;
			p.runs_max = t[i].rmax;
			run_budget_next_init(next, &p);
			CU_ASSERT_EQUAL(next[0].runs, t[i].want);
		}
}

/* The paced last pair counts in K when the time left after the full pairs holds its least cost.
 * SF 1 in 45 minutes (bench/data/budget-sf1-sf10-20261201): after pair 1 at 938 s, pairs of ~900 s and a
 * least pair of ~450 s: 1 + 1 full + 1 paced; after pair 2 at 1795 s with 919 s a pair, 905 s
 * left: 2 + 0 + 1. */
TH_TEST(run_budget, horizon_counts_the_paced_pair)
{
	CU_ASSERT_EQUAL(run_budget_horizon(1, 2, 2700, 938, 900, 450), 3);
	CU_ASSERT_EQUAL(run_budget_horizon(2, 2, 2700, 1795, 919, 450), 3);
	CU_ASSERT_EQUAL(run_budget_horizon(2, 2, 2700, 1795, 919, NAN), 2);
	/* 530 s left at 70 s a pair: 7 pairs and 40 s over */
	CU_ASSERT_EQUAL(run_budget_horizon(1, 2, 600, 70, 70, 40), 9);
	CU_ASSERT_EQUAL(run_budget_horizon(1, 2, 600, 70, 70, 41), 8);
	CU_ASSERT_EQUAL(run_budget_horizon(1, 2, 600, 70, 70, 70), 8); /* least = full: none */
	CU_ASSERT_EQUAL(run_budget_horizon(1, 2, 600, 70, 70, 0), 8);  /* not a cost */
	CU_ASSERT_EQUAL(run_budget_horizon(127, 2, 1e4, 1, 70, 40), ST_SEQ_MAX_PAIRS);
}

/* When the run stops: each rule of run_budget_stop on its own. */
TH_TEST(run_budget, stop_rules_and_the_paced_pair)
{
	/* 2 pairs done of a 2700 s budget at 1795 s: a pair as planned 919 s, at least 450 s */
	struct run_budget_state s = {2, 2, 5, 3, 1795, 2700, 919, 450};
	int paced = -1;
	CU_ASSERT_PTR_NULL(run_budget_stop(&s, &paced));
	CU_ASSERT_EQUAL(paced, 1);
	s.full_s = 905; /* exactly fits: as planned */
	CU_ASSERT_PTR_NULL(run_budget_stop(&s, &paced));
	CU_ASSERT_EQUAL(paced, 0);
	s.full_s = 919, s.least_s = 906; /* neither fits */
	CU_ASSERT_STRING_EQUAL(run_budget_stop(&s, &paced), "budget");
	CU_ASSERT_EQUAL(paced, 0);
	s.least_s = 450, s.horizon = 2; /* the last look spent all alpha */
	CU_ASSERT_STRING_EQUAL(run_budget_stop(&s, &paced), "max-pairs");
	CU_ASSERT_EQUAL(paced, 0);
	s.horizon = 0, s.pairs = RUN_BUDGET_MAX_PAIRS; /* one build: no horizon, the cap */
	CU_ASSERT_STRING_EQUAL(run_budget_stop(&s, &paced), "max-pairs");
	s.pairs = 2, s.undecided = 0;
	CU_ASSERT_STRING_EQUAL(run_budget_stop(&s, &paced), "all-decided");
	CU_ASSERT_EQUAL(paced, 0);
	/* owed by --min-restarts 4: on whatever the estimate, paced as owed, not as the last pair */
	s.undecided = 5, s.min_pairs = 4, s.least_s = 5000;
	CU_ASSERT_PTR_NULL(run_budget_stop(&s, &paced));
	CU_ASSERT_EQUAL(paced, 0);
	s.min_pairs = 2;
	CU_ASSERT_STRING_EQUAL(run_budget_stop(&s, NULL), "budget");
}

/* The pacing of an owed restart: a warm-up execution is not started when it and the measured runs
 * after it would end after the deadline. */
TH_TEST(run_budget, pacing_caps_the_warmup)
{
	CU_ASSERT_EQUAL(run_warmup_over_pace(10, 1, 5, 16), 0); /* 10 + 6 * 1 = 16: fits */
	CU_ASSERT_EQUAL(run_warmup_over_pace(10, 1, 5, 15.9), 1);
	CU_ASSERT_EQUAL(run_warmup_over_pace(0, 0.5, 3, 1.9), 1);
	CU_ASSERT_EQUAL(run_warmup_over_pace(0, 0.5, 3, 2.0), 0);
}

/* An owed restart's time split by expected cost, worked by hand: costs 1, 3, 6 of 10 end at
 * 0.1, 0.4, 1; an unknown cost (0, NaN, negative) counts as the mean of the known ones; none known:
 * equal shares. */
TH_TEST(run_budget, pace_shares_follow_the_cost)
{
	double cum[4];
	run_pace_shares((const double[]){1, 3, 6}, 3, cum);
	CU_ASSERT_DOUBLE_EQUAL(cum[0], 0.1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(cum[1], 0.4, 1e-12);
	CU_ASSERT_EQUAL(cum[2], 1.0);
	/* known 2 and 6 (mean 4): 2, 4, 6, 4 of 16 */
	run_pace_shares((const double[]){2, 0, 6, NAN}, 4, cum);
	CU_ASSERT_DOUBLE_EQUAL(cum[0], 2.0 / 16, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(cum[1], 6.0 / 16, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(cum[2], 12.0 / 16, 1e-12);
	CU_ASSERT_EQUAL(cum[3], 1.0);
	run_pace_shares((const double[]){0, -1, 0, 0}, 4, cum);
	CU_ASSERT_DOUBLE_EQUAL(cum[0], 0.25, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(cum[1], 0.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(cum[2], 0.75, 1e-12);
	CU_ASSERT_EQUAL(cum[3], 1.0);
	run_pace_shares((const double[]){5}, 1, cum);
	CU_ASSERT_EQUAL(cum[0], 1.0);
}

/* Pair by pair as the run calls it (restart means: Q1 20% slower, Q6 the same, Q14 noisy; each
 * server start + stop 30 s; the pairs end 70 s apart): after pair k, K_k is computed from the
 * cost of another pair like pair k, recomputed here by hand from the data (per target 30 s plus,
 * per query measured in pair k, (4 warm-up + its runs) executions at its mean time (13/9 of the
 * mean level: 4 warm-up at 2x, 5 runs at 1x)), before the look's decisions. After pair 8 the
 * budget holds no ninth pair: K_8 = 8 and the design has spent all of alpha / m. */
TH_TEST(run_budget, horizon_reestimated_each_pair)
{
	static const double drift[8] = {1.0, 1.01, 0.99, 1.02, 0.98, 1.0, 1.01, 0.99};
	static const double noisy[8] = {1.3, 0.7, 1.2, 0.8, 1.25, 0.75, 1.3, 0.7};
	static struct run_budget_seq seq;
	struct run_plan p;
	struct run_qnext next[3];
	struct errbuf err;
	double lv[3][2][8];
	run_plan_init(&p);
	p.budget_s = 600;
	p.n_queries = 3;
	p.queries[0] = 1, p.queries[1] = 6, p.queries[2] = 14;
	for (int r = 0; r < 8; r++) {
		lv[0][0][r] = 100 * drift[r], lv[0][1][r] = 120 * drift[r];
		lv[1][0][r] = lv[1][1][r] = 50 * drift[r];
		lv[2][0][r] = 10 * noisy[r], lv[2][1][r] = 10 * noisy[7 - r];
	}
	static const char *const ids[3] = {"Q1", "Q6", "Q14"};
	struct res_file *res[2] = {res_file_new(), res_file_new()};
	CU_ASSERT_PTR_NOT_NULL_FATAL(res[0]);
	CU_ASSERT_PTR_NOT_NULL_FATAL(res[1]);
	memset(&seq, 0, sizeof(seq));
	seq.budget_s = 600;
	seq.min_pairs = 2;
	run_budget_next_init(next, &p);
	double ss[2] = {30, 30};
	struct run_pair_cost cost;
	for (int k = 1; k <= 8; k++) {
		for (int q = 0; q < 3; q++)
			if (next[q].active)
				for (int t = 0; t < 2; t++)
					add_restart(res[t], ids[q], k - 1, lv[q][t][k - 1]);
		double expect = 0, least = 0;
		for (int t = 0; t < 2; t++) {
			expect += 30;
			least += 30;
			for (int q = 0; q < 3; q++) {
				const struct res_query *rq = res_file_find_query(res[t], ids[q]);
				double sum = 0;
				for (size_t i = 0; i < rq->n_restarts; i++)
					sum += lv[q][t][rq->restarts[i].index];
				double exec = 13.0 / 9 * (sum / (double)rq->n_restarts) / 1000;
				int lr = next[q].runs < 3 ? next[q].runs : 3;
				if (next[q].active) {
					expect += (4 + next[q].runs) * exec;
					least += (4 + lr) * exec;
				}
			}
		}
		seq.elapsed_s = 70.0 * k;
		CU_ASSERT(run_budget_next(next, &p, res, 2, k, ss, 0, &seq, &cost, &err) >= 0);
		CU_ASSERT_EQUAL_FATAL(seq.n_horizon, (size_t)k);
		double left = 600 - 70.0 * k, full = floor(left / expect);
		size_t K = (size_t)k + (size_t)full +
			   (least < expect && left - full * expect >= least ? 1 : 0);
		CU_ASSERT_EQUAL(seq.horizon[k - 1], K < 2 ? 2 : K);
	}
	CU_ASSERT_EQUAL(seq.horizon[0], 9); /* 1 + floor(530 / 64.42) */
	CU_ASSERT_EQUAL(seq.horizon[7], 8);
	CU_ASSERT_EQUAL(seq.design.looks, 8);
	CU_ASSERT_DOUBLE_EQUAL(seq.design.spent[8], 0.05 / 3, 1e-15);
	CU_ASSERT_EQUAL(next[0].decision, RUN_DECIDED_REGRESSION);
	res_file_free(res[0]);
	res_file_free(res[1]);
}

/* Adds restart `index` of query id to res: warm-up 20 and 10 ms, 2 measured runs of ms, each
 * counting `count` instructions (callgrind_ir), or no "instructions" record when count is 0. */
static void add_instr_restart(struct res_file *res, const char *id, int index, long long count,
			      double ms)
{
	double warm[2] = {20, 10}, meas[2] = {ms, ms};
	struct res_query *q = res_file_find_query(res, id);
	if (!q)
		q = res_file_add_query(res, id,
				       "0000000000000000000000000000000000000000000000000000000000000000");
	struct res_restart r = {.index = index, .status = RES_STATUS_OK, .warmup_ms = warm,
				.n_warmup = 2, .measured_ms = meas, .n_measured = 2, .rows = 1};
	r.extra = count ? json_pack("{s:{s:I}}", "instructions", "callgrind_ir", (json_int_t)count)
			: json_object();
	CU_ASSERT_PTR_NOT_NULL_FATAL(res_query_add_restart(q, &r));
	json_decref(r.extra);
}

/* --instructions: the counts decide from 2 pairs on, by compare's rule (0.5 % + 2 x the two
 * spreads; docs/work.md, "The instructions verdict"). Expected by hand from the rule's text: Q4
 * +4 % with spreads 1e-4 and 0 (bound 0.52 %): regression; Q20 -10 %: improvement; Q14 +0.01 %
 * (bound 0.5 %): unchanged; Q9 +2 % with spreads 2 % a side (bound 8.5 % > --detect 3 %):
 * undecided; Q3 without counts in one file: undecided. The times (10 and 13 ms, crossed
 * between the files) leave the time test undecided after 2 pairs. */
TH_TEST(run_budget, instruction_counts_decide)
{
	static const struct {
		const char *id;
		long long a[2], b[2];
		enum run_decision want;
	} c[] = {
	    {"Q4", {15000000, 15001500}, {15600000, 15600000}, RUN_DECIDED_REGRESSION},
	    {"Q20", {7000000, 7000000}, {6300000, 6300000}, RUN_DECIDED_IMPROVEMENT},
	    {"Q14", {8500000, 8500000}, {8500850, 8500850}, RUN_DECIDED_UNCHANGED},
	    {"Q9", {100000000, 102000000}, {102000000, 104040000}, RUN_UNDECIDED},
	    {"Q3", {86000000, 86000000}, {0, 0}, RUN_UNDECIDED},
	};
	struct run_plan p;
	run_plan_init(&p);
	p.instructions = 1;
	run_plan_instr_defaults(&p, 0);
	p.budget_s = 600;
	p.n_queries = 5;
	struct res_file *res[2] = {res_file_new(), res_file_new()};
	CU_ASSERT_PTR_NOT_NULL_FATAL(res[0]);
	CU_ASSERT_PTR_NOT_NULL_FATAL(res[1]);
	for (int i = 0; i < 5; i++) {
		p.queries[i] = atoi(c[i].id + 1);
		for (int r = 0; r < 2; r++) {
			add_instr_restart(res[0], c[i].id, r, c[i].a[r], r ? 13 : 10);
			add_instr_restart(res[1], c[i].id, r, c[i].b[r], r ? 10 : 13);
		}
	}
	for (int i = 0; i < 5; i++) {
		const struct res_query *q[2] = {res_file_find_query(res[0], c[i].id),
						res_file_find_query(res[1], c[i].id)};
		double ratio;
		CU_ASSERT_EQUAL(run_budget_instr(&p, q, 2, 2, &ratio), c[i].want);
		CU_ASSERT_EQUAL(run_budget_instr(&p, q, 2, 1, NULL), RUN_UNDECIDED); /* 1 pair */
		if (c[i].b[0])
			CU_ASSERT_DOUBLE_EQUAL(ratio, (c[i].b[0] + c[i].b[1]) / (double)(c[i].a[0] + c[i].a[1]),
					       1e-12);
		/* one build: precise when 0.5 % + 4 x its spread is within --detect */
		CU_ASSERT_EQUAL(run_budget_instr(&p, q, 1, 2, NULL),
				strcmp(c[i].id, "Q9") == 0 ? RUN_UNDECIDED : RUN_DECIDED_PRECISE);
	}
	/* In the budget's look: decided on the counts, out of the next pair; Q9 and Q3 left to the
	 * times (their two pairs are not enough for the sequential test's first decision). */
	struct run_qnext next[5];
	struct run_budget_seq seq;
	struct run_pair_cost cost;
	struct errbuf err;
	double ss[2] = {5, 5};
	memset(&seq, 0, sizeof(seq));
	seq.budget_s = 600;
	seq.elapsed_s = 60;
	seq.min_pairs = 2;
	run_budget_next_init(next, &p);
	CU_ASSERT_EQUAL(run_budget_next(next, &p, res, 2, 2, ss, 0.5, &seq, &cost, &err), 2);
	for (int i = 0; i < 5; i++) {
		int by_counts = c[i].want != RUN_UNDECIDED;
		CU_ASSERT_EQUAL(next[i].on_instr, by_counts);
		CU_ASSERT_EQUAL(next[i].active, !by_counts);
		if (by_counts) {
			CU_ASSERT_EQUAL(next[i].decision, c[i].want);
			CU_ASSERT_EQUAL(next[i].decided_after, 2);
		}
	}
	/* The next pair: Q9 and Q3, 2 warm-ups (the most seen) + 2 runs a side at their mean
	 * execution ((20 + 10 + 10 + 10 + 20 + 10 + 13 + 13) / 8 = 13.25 ms) plus 0.5 s outside
	 * the timed window each. */
	CU_ASSERT_EQUAL(next[3].runs, 2);
	CU_ASSERT_DOUBLE_EQUAL(cost.full_s, 2 * (5 + 2 * 4 * (0.01325 + 0.5)), 1e-9);
	res_file_free(res[0]);
	res_file_free(res[1]);
}

/* --instructions' defaults, and what the command line gave kept. */
TH_TEST(run_budget, instruction_defaults)
{
	struct run_plan p;
	run_plan_init(&p);
	run_plan_instr_defaults(&p, 0);
	CU_ASSERT_EQUAL(p.restarts, 5); /* nothing without --instructions */
	p.instructions = 1;
	run_plan_instr_defaults(&p, 0);
	CU_ASSERT(p.restarts == 2 && p.warmup == 10 && p.runs == 2);
	CU_ASSERT(p.warmup_min == 2 && p.warmup_max == 10 && p.runs_min == 2 && p.runs_max == 2);
	run_plan_init(&p);
	p.instructions = 1;
	p.runs_min = 4;
	p.warmup_max = 1;
	p.restarts = 3;
	run_plan_instr_defaults(&p, RUN_GIVEN_RUNS_MIN | RUN_GIVEN_WARMUP_MAX | RUN_GIVEN_RESTARTS);
	CU_ASSERT(p.restarts == 3 && p.runs_min == 4 && p.runs_max == 4);
	CU_ASSERT(p.warmup_max == 1 && p.warmup_min == 1);
}

TH_MAIN(run_budget)
