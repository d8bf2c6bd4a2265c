/* SPDX-License-Identifier: MIT */
/* stats/st_seq.c, st_seq_tbounds.c: boundaries against published tables and independent SciPy
 * computations (tests/data/seq_bounds.py, seq_tbounds.py), decisions against the latter's own
 * implementation, t statistics against R. */
#include "stats/st_seq.h"
#include "stats/st_seq_tbounds.h"
#include "tests/harness.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

struct bound_case {
	enum st_seq_spending spending;
	double alpha;
	size_t m, max_pairs, first_look;
	enum st_alternative alt;
	double z[16];
};

/* The options of a reference case's design (c: a bound_case or a tbound_case). */
#define OPTS_OF(o, c)                                                                              \
	do {                                                                                       \
		st_seq_opts_init(o);                                                               \
		(o)->spending = (c)->spending;                                                     \
		(o)->alpha = (c)->alpha;                                                           \
		(o)->m = (c)->m;                                                                   \
		(o)->max_pairs = (c)->max_pairs;                                                   \
		(o)->first_look = (c)->first_look;                                                 \
		(o)->alt = (c)->alt;                                                               \
	} while (0)

static void design_of(struct st_seq_design *out, const struct bound_case *c)
{
	struct st_seq_opts o;
	struct errbuf err;
	OPTS_OF(&o, c);
	CU_ASSERT_EQUAL_FATAL(st_seq_design_init(out, &o, &err), 0);
}

static void check_bounds(const struct bound_case *cases, size_t n, double tol)
{
	static struct st_seq_design d;
	for (size_t i = 0; i < n; i++) {
		const struct bound_case *c = &cases[i];
		design_of(&d, c);
		for (size_t k = 1; k < c->first_look; k++)
			CU_ASSERT(isinf(d.z[k]));
		for (size_t k = c->first_look; k <= c->max_pairs; k++)
			CU_ASSERT_DOUBLE_EQUAL(d.z[k], c->z[k - c->first_look], tol);
		CU_ASSERT(isinf(d.z[c->max_pairs + 1]));
		CU_ASSERT_DOUBLE_EQUAL(d.spent[c->max_pairs],
				       c->alpha / (double)c->m * (c->alt == ST_GREATER ? 2 : 1), 1e-15);
	}
}

/* Two-sided alpha 0.05, K = 5 equally spaced looks, as tabulated for the Lan-DeMets spending
 * functions (DeMets & Lan 1994, Stat Med 13:1341-1352; gsDesign's sfLDOF / sfLDPocock with
 * test.type = 2, and ldbounds): O'Brien-Fleming type 4.877 3.357 2.680 2.290 2.031, Pocock type
 * 2.438 2.427 2.410 2.397 2.386. */
TH_TEST(stats_seq, bounds_match_published_tables)
{
	static const struct bound_case published[] = {
		{ST_SPEND_OBF, 0.05, 1, 5, 1, ST_TWO_SIDED, {4.877, 3.357, 2.680, 2.290, 2.031}},
		{ST_SPEND_POCOCK, 0.05, 1, 5, 1, ST_TWO_SIDED, {2.438, 2.427, 2.410, 2.397, 2.386}},
	};
	check_bounds(published, NELEM(published), 6e-4);
}

/* /usr/bin/python3 tests/data/seq_bounds.py (SciPy 1.10.1, multivariate normal rectangle
 * probabilities by Genz's algorithm), the designs dbt3stab uses: alpha 0.05 over 22 queries,
 * looks from the second pair. */
TH_TEST(stats_seq, bounds_match_scipy)
{
	static const struct bound_case scipy[] = {
#include "data/seq_bounds_ref.inc"
	};
	check_bounds(scipy, NELEM(scipy), 2e-4);
}

struct tbound_case {
	enum st_seq_spending spending;
	double alpha;
	size_t m, max_pairs, first_look;
	enum st_alternative alt;
	enum st_seq_pairing pairing;
	double t[24];
};

/* The critical t of each look against tests/data/seq_tbounds.py: the same chain of the data
 * vector's angle written again with numpy/SciPy on a 2.5x finer grid with exact Student-t tails;
 * its direct simulation of the t statistics (tests/data/seq_tbounds.out) confirms that these
 * boundaries spend the design's alpha and the normal boundaries converted to t did not. Critical
 * values up to 20 agree to 0.2%; the far ones of the early looks (heavy tails on 1-3 df, where a
 * 1% change of t is a 2% change of a tail probability of 1e-4 or less) to 1%, beyond 1000 (nothing
 * there is ever decided) to 2%, beyond 1e6 only that. */
TH_TEST(stats_seq, t_bounds_match_scipy)
{
	static const struct tbound_case cases[] = {
#include "data/seq_tbounds_ref.inc"
	};
	static struct st_seq_design d;
	struct st_seq_opts o;
	struct errbuf err;
	for (size_t i = 0; i < NELEM(cases); i++) {
		const struct tbound_case *c = &cases[i];
		OPTS_OF(&o, c);
		o.pairing = c->pairing;
		CU_ASSERT_EQUAL_FATAL(st_seq_design_init(&d, &o, &err), 0);
		for (size_t k = 0; k < c->first_look; k++)
			CU_ASSERT(isinf(d.t[k]));
		for (size_t k = c->first_look; k <= c->max_pairs; k++) {
			double ref = c->t[k - c->first_look];
			double tol = ref * (ref > 1000 ? 2e-2 : ref > 20 ? 1e-2 : 2e-3);
			if (ref > 1e6) { /* a double holds the angle to ~1e-16 only */
				CU_ASSERT(d.t[k] > 1e6);
				continue;
			}
			CU_ASSERT_DOUBLE_EQUAL(d.t[k], ref, tol);
			if (fabs(d.t[k] - ref) > tol)
				printf("\n    case %zu look %zu: t %.6g, SciPy %.6g", i, k, d.t[k], ref);
		}
		CU_ASSERT(isinf(d.t[c->max_pairs + 1]));
	}
}

/* With one look the exact boundary is Student's quantile, as printed in any t table: two-sided
 * alpha 0.05 all spent after pair 2 is t(0.975; 1) = 12.706 paired, t(0.975; 2) = 4.303 pooled;
 * after pair 5, t(0.975; 4) = 2.776 paired, t(0.975; 8) = 2.306 pooled. A design with looks from
 * pair 1 spends pair 1's share at pair 2, where the first variance exists. */
TH_TEST(stats_seq, t_bound_of_one_look_is_students_quantile)
{
	static struct st_seq_design d;
	static const struct {
		size_t k;
		enum st_seq_pairing pairing;
		double t;
	} cases[] = {
		{2, ST_SEQ_PAIRED, 12.706}, {2, ST_SEQ_UNPAIRED, 4.303},
		{5, ST_SEQ_PAIRED, 2.776},  {5, ST_SEQ_UNPAIRED, 2.306},
	};
	struct st_seq_opts o;
	struct errbuf err;
	for (size_t i = 0; i < NELEM(cases); i++) {
		st_seq_opts_init(&o);
		o.m = 1;
		o.max_pairs = o.first_look = cases[i].k;
		o.pairing = cases[i].pairing;
		CU_ASSERT_EQUAL_FATAL(st_seq_design_init(&d, &o, &err), 0);
		CU_ASSERT_DOUBLE_EQUAL(d.t[cases[i].k], cases[i].t, 5e-4);
	}
	st_seq_opts_init(&o);
	o.m = 1;
	o.max_pairs = 2;
	o.first_look = 1;
	CU_ASSERT_EQUAL_FATAL(st_seq_design_init(&d, &o, &err), 0);
	CU_ASSERT(isinf(d.t[1]));
	CU_ASSERT_DOUBLE_EQUAL(d.t[2], 12.706, 5e-4);
}

/* st_seq_t_bounds refuses what it cannot compute. */
TH_TEST(stats_seq, t_bounds_reject_bad_input)
{
	double t[8], delta[8] = {0, 0, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01};
	struct errbuf err;
	CU_ASSERT_EQUAL(st_seq_t_bounds(t, delta, 1, 5, ST_SEQ_T_ONE_SAMPLE, &err), ST_EINVAL);
	CU_ASSERT_EQUAL(st_seq_t_bounds(t, delta, 4, 3, ST_SEQ_T_ONE_SAMPLE, &err), ST_EINVAL);
	delta[3] = NAN;
	CU_ASSERT_EQUAL(st_seq_t_bounds(t, delta, 2, 5, ST_SEQ_T_POOLED, &err), ST_EINVAL);
	delta[3] = 0.49; /* 0.52 in all: more than one side can spend */
	CU_ASSERT_EQUAL(st_seq_t_bounds(t, delta, 2, 5, ST_SEQ_T_POOLED, &err), ST_EINVAL);
	delta[3] = 0;
	CU_ASSERT_EQUAL(st_seq_t_bounds(t, delta, 2, 5, ST_SEQ_T_POOLED, &err), 0);
	CU_ASSERT(isinf(t[3]));
	CU_ASSERT(t[2] > t[4] && t[4] > t[5]);
}

/* Lan & DeMets's functions at t = 0.5 against the closed forms evaluated with SciPy:
 * 2 * norm.sf(norm.isf(0.025 / 2) / sqrt(0.5)) = 0.0015255; 0.025 * log(1 + (e - 1) / 2). */
TH_TEST(stats_seq, spending_functions)
{
	CU_ASSERT_DOUBLE_EQUAL(st_seq_spend(ST_SPEND_OBF, 0.025, 0.5), 0.00152532, 2e-8);
	CU_ASSERT_DOUBLE_EQUAL(st_seq_spend(ST_SPEND_POCOCK, 0.025, 0.5), 0.0155029, 2e-7);
	CU_ASSERT_EQUAL(st_seq_spend(ST_SPEND_OBF, 0.025, 0), 0);
	CU_ASSERT_EQUAL(st_seq_spend(ST_SPEND_OBF, 0.025, 1), 0.025);
	CU_ASSERT_EQUAL(st_seq_spend(ST_SPEND_POCOCK, 0.025, 2), 0.025);
}

static const double old_ms[10] = {100, 102, 99, 101, 100.5, 98.8, 100.2, 101.1, 99.5, 100.3};

struct decision_case {
	const char *name;
	int paired;
	enum st_seq_decision decision;
	size_t at;
	double t, t_bound;
};

static const double *factors_of(const char *name)
{
	static const double reg[] = {1.05, 1.06, 1.045, 1.055, 1.05, 1.052, 1.048, 1.051, 1.049, 1.05};
	static const double imp[] = {0.93, 0.95, 0.94, 0.945, 0.935, 0.94, 0.95, 0.93, 0.94, 0.942};
	static const double unc[] = {1.001, 0.999, 1.002, 0.998, 1.0, 1.001, 0.999, 1.0005, 0.9995, 1.0};
	static const double noisy[] = {1.03, 0.98, 1.06, 1.01, 0.97, 1.05, 1.0, 1.04, 0.99, 1.02};
	if (strcmp(name, "regression") == 0)
		return reg;
	if (strcmp(name, "improvement") == 0)
		return imp;
	if (strcmp(name, "unchanged") == 0)
		return unc;
	return noisy;
}

/* A horizon that follows the budget: tests/data/seq_horizon.py (SciPy, Genz's algorithm) gives
 * the cumulative alpha of one side and the boundaries of three schedules of K (alpha 0.05 / 22
 * two-sided, O'Brien-Fleming type, first look after pair 2): K growing from 8 to 12, jumping from
 * 4 to 12 (looks 3 to 6 spend nothing: infinite boundaries), shrinking from 12 to 6 (look 6 spends
 * the rest). */
struct horizon_case {
	const char *name;
	size_t n;
	size_t horizon[16];
	size_t looks;
	double cum[16];
	double z[16];
};

static const struct horizon_case horizon_cases[] = {
#include "data/seq_horizon_ref.inc"
};

static void horizon_opts(struct st_seq_opts *o)
{
	st_seq_opts_init(o);
	o->alpha = 0.05;
	o->m = 22;
	o->first_look = 2;
	o->alt = ST_TWO_SIDED;
	o->spending = ST_SPEND_OBF;
}

TH_TEST(stats_seq, horizon_bounds_match_scipy)
{
	static struct st_seq_design d;
	struct st_seq_opts o;
	struct errbuf err;
	horizon_opts(&o);
	for (size_t i = 0; i < NELEM(horizon_cases); i++) {
		const struct horizon_case *c = &horizon_cases[i];
		double cum[ST_SEQ_MAX_PAIRS + 1];
		size_t last = st_seq_spend_horizon(cum, ST_SPEND_OBF, 0.05 / 22 / 2, 2, c->horizon,
						   c->n);
		CU_ASSERT_EQUAL(last, c->looks);
		for (size_t k = 1; k <= c->n; k++)
			CU_ASSERT_DOUBLE_EQUAL(cum[k], c->cum[k - 1], c->cum[k - 1] * 1e-9);
		CU_ASSERT_EQUAL_FATAL(st_seq_design_init_horizon(&d, &o, c->horizon, c->n, &err), 0);
		CU_ASSERT_EQUAL(d.looks, c->looks);
		for (size_t k = 1; k <= c->looks; k++) {
			if (isinf(c->z[k - 1])) {
				CU_ASSERT(isinf(d.z[k]));
			} else {
				CU_ASSERT_DOUBLE_EQUAL(d.z[k], c->z[k - 1], 2e-4);
			}
			CU_ASSERT_EQUAL(d.horizon[k], c->horizon[k - 1]);
		}
		CU_ASSERT(isinf(d.z[c->looks + 1]));
		CU_ASSERT_EQUAL(d.opts.max_pairs, c->horizon[c->n - 1]);
	}
}

/* What run --budget does and compare --sequential replays: the run builds the design after
 * each pair k from K_1..K_k (K growing from 8 to 12) and feeds pair k with it; the replay builds
 * it once from the K recorded for every look. A look's boundary must not depend on later K:
 * the same boundaries, decisions and pairs of decision. */
TH_TEST(stats_seq, horizon_run_reproduces_replay)
{
	static struct st_seq_design step, whole;
	const struct horizon_case *c = &horizon_cases[0];
	struct st_seq_opts o;
	struct errbuf err;
	horizon_opts(&o);
	CU_ASSERT_STRING_EQUAL_FATAL(c->name, "grows_8_to_12");
	CU_ASSERT_EQUAL_FATAL(st_seq_design_init_horizon(&whole, &o, c->horizon, c->n, &err), 0);
	static const char *const seqs[] = {"regression", "improvement", "unchanged", "noisy"};
	struct st_seq_state run[4], replay[4];
	for (size_t q = 0; q < 4; q++) {
		st_seq_state_init(&run[q]);
		st_seq_state_init(&replay[q]);
	}
	for (size_t k = 1; k <= c->n; k++) {
		CU_ASSERT_EQUAL_FATAL(st_seq_design_init_horizon(&step, &o, c->horizon, k, &err), 0);
		for (size_t j = 1; j <= k; j++)
			CU_ASSERT_EQUAL(memcmp(&step.z[j], &whole.z[j], sizeof(double)), 0);
		for (size_t q = 0; q < 4; q++) {
			const double *f = factors_of(seqs[q]);
			double a = old_ms[(k - 1) % 10], b = a * f[(k - 1) % 10];
			CU_ASSERT_EQUAL(st_seq_feed(&run[q], &step, a, b, &err), 0);
			CU_ASSERT_EQUAL(st_seq_feed(&replay[q], &whole, a, b, &err), 0);
		}
	}
	for (size_t q = 0; q < 4; q++) {
		CU_ASSERT_EQUAL(run[q].decision, replay[q].decision);
		CU_ASSERT_EQUAL(run[q].decided_at, replay[q].decided_at);
		CU_ASSERT_EQUAL(memcmp(&run[q].look.t_bound, &replay[q].look.t_bound,
				       sizeof(double)),
				0);
	}
	CU_ASSERT_EQUAL(replay[0].decision, ST_SEQ_REGRESSION);
}

/* Whatever the horizon does (growing, shrinking, jumping; a fixed LCG draws 200 schedules), the
 * spending never decreases, never exceeds alpha, and reaches it exactly at a look with k >= K_k;
 * a constant K gives the fixed design bit for bit. */
TH_TEST(stats_seq, horizon_spends_at_most_alpha)
{
	static struct st_seq_design fixed, h;
	const double side = 0.05 / 22 / 2;
	unsigned long x = 12345;
	for (int rep = 0; rep < 200; rep++) {
		size_t horizon[40], n = 0, K = 2;
		double cum[ST_SEQ_MAX_PAIRS + 1];
		while (n < 40) {
			x = (x * 1103515245UL + 12345UL) % 2147483648UL;
			long step = (long)(x >> 16) % 7 - 2; /* -2 .. +4 */
			K = (size_t)((long)K + step < 2 ? 2 : (long)K + step > 60 ? 60 : (long)K + step);
			horizon[n++] = K;
		}
		size_t last = st_seq_spend_horizon(cum, ST_SPEND_OBF, side, 2, horizon, n);
		for (size_t k = 1; k <= n; k++) {
			CU_ASSERT(cum[k] >= cum[k - 1]);
			CU_ASSERT(cum[k] <= side);
		}
		CU_ASSERT_EQUAL(cum[1], 0);
		if (last < n || n >= horizon[n - 1])
			CU_ASSERT_EQUAL(cum[last], side);
		for (size_t k = 2; k < last; k++)
			CU_ASSERT(k < horizon[k - 1]);
	}
	struct st_seq_opts o;
	struct errbuf err;
	size_t ten[10] = {10, 10, 10, 10, 10, 10, 10, 10, 10, 10};
	horizon_opts(&o);
	o.max_pairs = 10;
	CU_ASSERT_EQUAL_FATAL(st_seq_design_init(&fixed, &o, &err), 0);
	CU_ASSERT_EQUAL_FATAL(st_seq_design_init_horizon(&h, &o, ten, 10, &err), 0);
	CU_ASSERT_EQUAL(memcmp(fixed.z, h.z, sizeof(fixed.z)), 0);
	CU_ASSERT_EQUAL(fixed.looks, 10);
	CU_ASSERT_DOUBLE_EQUAL(h.spent[10], 0.05 / 22, 1e-15);
	/* a horizon below the first look, or none, is refused */
	size_t bad[2] = {10, 1};
	CU_ASSERT_EQUAL(st_seq_design_init_horizon(&h, &o, bad, 2, &err), ST_EINVAL);
	CU_ASSERT_EQUAL(st_seq_design_init_horizon(&h, &o, ten, 0, &err), ST_EINVAL);
}

/* tests/data/seq_tbounds.py's numpy implementation of the rule (t on log ratios or pooled
 * two-sample t, its exact critical t, repeated CI against +-2%): the decision, the pair it came
 * at, t and the critical t there (or at pair 10 when undecided). */
TH_TEST(stats_seq, decisions_match_scipy)
{
	static const struct decision_case cases[] = {
#include "data/seq_decisions_ref.inc"
	};
	static struct st_seq_design dp, du;
	struct st_seq_opts o;
	struct errbuf err;
	st_seq_opts_init(&o);
	CU_ASSERT_EQUAL_FATAL(st_seq_design_init(&dp, &o, &err), 0);
	o.pairing = ST_SEQ_UNPAIRED;
	CU_ASSERT_EQUAL_FATAL(st_seq_design_init(&du, &o, &err), 0);
	for (size_t i = 0; i < NELEM(cases); i++) {
		const struct decision_case *c = &cases[i];
		const double *f = factors_of(c->name);
		struct st_seq_state s;
		st_seq_state_init(&s);
		for (size_t k = 0; k < 10; k++)
			CU_ASSERT_EQUAL_FATAL(st_seq_feed(&s, c->paired ? &dp : &du, old_ms[k],
							  old_ms[k] * f[k], &err),
					      0);
		CU_ASSERT_EQUAL(s.pairs, 10);
		CU_ASSERT_EQUAL(s.decision, c->decision);
		CU_ASSERT_EQUAL(s.decided_at, c->at);
		CU_ASSERT_EQUAL(s.look.pairs, c->at ? c->at : 10);
		CU_ASSERT_DOUBLE_EQUAL(s.look.t, c->t, fabs(c->t) * 1e-5);
		CU_ASSERT_DOUBLE_EQUAL(s.look.t_bound, c->t_bound, c->t_bound * 2e-3);
	}
}

/* R: t.test(sleep$extra[11:20], sleep$extra[1:10], paired = TRUE) gives t = 4.0621, df = 9,
 * mean difference 1.58; the pooled two-sample t is 1.8608 on 18 df. */
TH_TEST(stats_seq, paired_and_pooled_t_match_r_sleep)
{
	static const double s1[] = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
	static const double s2[] = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};
	static struct st_seq_design d;
	struct st_seq_opts o;
	struct errbuf err;
	for (int paired = 1; paired >= 0; paired--) {
		st_seq_opts_init(&o);
		o.max_pairs = 20;
		o.min_effect = 100; /* never decided: the look at pair 10 stays */
		o.pairing = paired ? ST_SEQ_PAIRED : ST_SEQ_UNPAIRED;
		CU_ASSERT_EQUAL_FATAL(st_seq_design_init(&d, &o, &err), 0);
		struct st_seq_state s;
		st_seq_state_init(&s);
		for (size_t i = 0; i < 10; i++)
			CU_ASSERT_EQUAL_FATAL(st_seq_feed(&s, &d, exp(s1[i]), exp(s2[i]), &err), 0);
		CU_ASSERT_EQUAL(s.decision, ST_SEQ_UNDECIDED);
		CU_ASSERT_DOUBLE_EQUAL(s.look.diff, 1.58, 1e-12);
		CU_ASSERT_DOUBLE_EQUAL(s.look.t, paired ? 4.0621 : 1.8608, 5e-5);
		CU_ASSERT_DOUBLE_EQUAL(s.look.df, paired ? 9 : 18, 0);
	}
}

/* R: t.test(sleep$extra[11:20], sleep$extra[1:10], paired = TRUE) prints t = 4.0621, df = 9,
 * p-value = 0.002833, 95 percent confidence interval 0.7001142 2.4598858. */
TH_TEST(stats_seq, fixed_paired_test_matches_r_sleep)
{
	static const double s1[] = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
	static const double s2[] = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};
	double a[10], b[10];
	struct st_test t;
	struct st_compare_opts o;
	struct errbuf err;
	st_compare_opts_init(&o);
	o.alt = ST_TWO_SIDED;
	for (int i = 0; i < 10; i++) {
		a[i] = exp(s1[i]);
		b[i] = exp(s2[i]);
	}
	CU_ASSERT_EQUAL_FATAL(st_compare_paired(&t, a, b, 10, &o, &err), 0);
	CU_ASSERT_EQUAL(t.kind, ST_TEST_PAIRED);
	CU_ASSERT_DOUBLE_EQUAL(t.diff, 1.58, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t.t, 4.0621, 5e-5);
	CU_ASSERT_DOUBLE_EQUAL(t.df, 9, 0);
	CU_ASSERT_DOUBLE_EQUAL(t.p, 0.002833, 5e-7);
	CU_ASSERT_DOUBLE_EQUAL(log(t.ci_lo), 0.7001142, 5e-7);
	CU_ASSERT_DOUBLE_EQUAL(log(t.ci_hi), 2.4598858, 5e-7);
	o.alt = ST_GREATER;
	CU_ASSERT_EQUAL_FATAL(st_compare_paired(&t, a, b, 10, &o, &err), 0);
	CU_ASSERT_DOUBLE_EQUAL(t.p, 0.002833 / 2, 5e-7);
	CU_ASSERT_EQUAL(st_compare_paired(&t, a, b, 1, &o, &err), ST_ENODATA);
	a[3] = 0;
	CU_ASSERT_EQUAL(st_compare_paired(&t, a, b, 10, &o, &err), ST_EINVAL);
}

TH_TEST(stats_seq, bad_input_is_rejected)
{
	static struct st_seq_design d;
	struct st_seq_opts o;
	struct errbuf err;
	st_seq_opts_init(&o);
	o.max_pairs = 1; /* below first_look */
	CU_ASSERT_EQUAL(st_seq_design_init(&d, &o, &err), ST_EINVAL);
	o.max_pairs = ST_SEQ_MAX_PAIRS + 1;
	CU_ASSERT_EQUAL(st_seq_design_init(&d, &o, &err), ST_EINVAL);
	st_seq_opts_init(&o);
	o.alpha = 1;
	CU_ASSERT_EQUAL(st_seq_design_init(&d, &o, &err), ST_EINVAL);
	st_seq_opts_init(&o);
	o.m = 0;
	CU_ASSERT_EQUAL(st_seq_design_init(&d, &o, &err), ST_EINVAL);
	st_seq_opts_init(&o);
	o.min_effect = -0.1;
	CU_ASSERT_EQUAL(st_seq_design_init(&d, &o, &err), ST_EINVAL);

	st_seq_opts_init(&o);
	CU_ASSERT_EQUAL_FATAL(st_seq_design_init(&d, &o, &err), 0);
	struct st_seq_state s;
	st_seq_state_init(&s);
	CU_ASSERT_EQUAL(st_seq_feed(&s, &d, 0, 1, &err), ST_EINVAL);
	CU_ASSERT_EQUAL(st_seq_feed(&s, &d, 1, NAN, &err), ST_EINVAL);
	CU_ASSERT_EQUAL(st_seq_feed(&s, &d, INFINITY, 1, &err), ST_EINVAL);
	CU_ASSERT_EQUAL(s.pairs, 0); /* a bad pair is not counted */
	CU_ASSERT_EQUAL(st_seq_feed(&s, &d, 1, 1.5, &err), 0);
	CU_ASSERT_EQUAL(s.pairs, 1);
	CU_ASSERT_EQUAL(s.decision, ST_SEQ_UNDECIDED); /* one pair: no variance yet */
	CU_ASSERT(isinf(s.look.t_bound));
}

/* Beyond max_pairs no alpha is left: nothing more is decided, however clear. */
TH_TEST(stats_seq, no_decision_after_max_pairs)
{
	static struct st_seq_design d;
	struct st_seq_opts o;
	struct errbuf err;
	st_seq_opts_init(&o);
	o.max_pairs = 2;
	CU_ASSERT_EQUAL_FATAL(st_seq_design_init(&d, &o, &err), 0);
	struct st_seq_state s;
	st_seq_state_init(&s);
	CU_ASSERT_EQUAL(st_seq_feed(&s, &d, 100, 150, &err), 0);
	CU_ASSERT_EQUAL(st_seq_feed(&s, &d, 100, 140, &err), 0);
	CU_ASSERT_EQUAL(s.decision, ST_SEQ_UNDECIDED); /* df 1: t bound in the thousands */
	for (int i = 0; i < 20; i++)
		CU_ASSERT_EQUAL(st_seq_feed(&s, &d, 100, 150 + i % 2, &err), 0);
	CU_ASSERT_EQUAL(s.decision, ST_SEQ_UNDECIDED);
	CU_ASSERT(isinf(s.look.t_bound));
}

TH_TEST(stats_seq, names)
{
	enum st_seq_spending sp;
	CU_ASSERT_STRING_EQUAL(st_seq_decision_name(ST_SEQ_UNDECIDED), "undecided");
	CU_ASSERT_STRING_EQUAL(st_seq_decision_name(ST_SEQ_REGRESSION), "regression");
	CU_ASSERT_EQUAL(st_seq_spending_parse("pocock", &sp), 0);
	CU_ASSERT_EQUAL(sp, ST_SPEND_POCOCK);
	CU_ASSERT_STRING_EQUAL(st_seq_spending_name(sp), "pocock");
	CU_ASSERT_EQUAL(st_seq_spending_parse("lan", &sp), ST_EINVAL);
}

TH_MAIN(stats_seq)
