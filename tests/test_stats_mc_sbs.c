/* SPDX-License-Identifier: MIT */
/* Monte Carlo of the sequential design of run --side-by-side --budget (Pocock-type spending, first
 * look after pair 3) against today's (O'Brien-Fleming from pair 2), on the per-pair noise measured
 * side by side (tests/data/sbs_seq.py); fixed seeds, checked against its own simulation. */
#include "runner/run_budget_plan.h"
#include "stats/st_seq.h"
#include "tests/harness.h"
#include "tests/th_mc.h"
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MQ 22
#define Q21 20
#define ALPHA 0.05
#define DETECT 0.03 /* run --budget's --detect */
#define MAXK 16
#define REPS 4000 /* per row; DBT3_MC_SCALE=10 for the tables in docs/side-by-side.md */

struct calib {
	const char *id;
	double sd1, sd2; /* sd of the per-pair log ratio, session 1 and 2 */
};

static const struct calib calib[MQ] = {
#include "data/sbs_calib.inc"
};

struct bound_ref {
	enum st_seq_spending spending;
	size_t first, K;
	double t[MAXK];
};

struct sim_ref {
	const char *name;
	enum st_seq_spending spending;
	size_t first, K;
	double effect;
	size_t reps;
	double any, by[4], pairs; /* Q21 a regression by pair 3, 4, 5, K; mean pairs to decide */
};

/* Each pair's log ratio side by side: its sd as measured (the two sessions pooled), times mult;
 * tails: 0 normal, else Student t on that many df scaled to the same sd. */
struct scenario {
	enum st_seq_spending spending;
	size_t first;
	const size_t *horizon; /* K after each pair (K of them), NULL: K fixed */
	size_t K;
	double effect; /* Q21's change (0: A/A) */
	double sd21;   /* Q21's sd (0: calibrated) */
	double mult;
	double tails;
	int no_margin; /* 1: --detect 0, so that a flag needs no estimate of 3% or more */
};

struct outcome {
	size_t reps, any;
	size_t by[4]; /* Q21 a regression by pair 3, 4, 5, K */
	double pairs; /* mean pairs until Q21 was decided (K when not) */
};

static double sd_of(int q)
{
	return sqrt((calib[q].sd1 * calib[q].sd1 + calib[q].sd2 * calib[q].sd2) / 2);
}

static void design_of(struct st_seq_design *d, const struct scenario *sc)
{
	struct st_seq_opts o;
	struct errbuf err;
	size_t h[MAXK];
	st_seq_opts_init(&o);
	o.alpha = ALPHA;
	o.m = MQ;
	o.min_effect = sc->no_margin ? 0 : DETECT;
	o.first_look = sc->first;
	o.spending = sc->spending;
	for (size_t i = 0; i < sc->K; i++)
		h[i] =
		    sc->horizon ? (sc->horizon[i] < sc->first ? sc->first : sc->horizon[i]) : sc->K;
	CU_ASSERT_EQUAL_FATAL(st_seq_design_init_horizon(d, &o, h, sc->K, &err), 0);
}

static double noise(gsl_rng *r, const struct scenario *sc, double sd)
{
	if (sc->tails > 0)
		return sd * gsl_ran_tdist(r, sc->tails) / sqrt(sc->tails / (sc->tails - 2));
	return gsl_ran_gaussian_ziggurat(r, sd);
}

static void mc_run(struct outcome *out, const struct scenario *sc, size_t reps, unsigned long seed)
{
	static struct st_seq_design d;
	struct errbuf err;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, seed);
	design_of(&d, sc);
	memset(out, 0, sizeof(*out));
	for (size_t rep = 0; rep < reps; rep++) {
		int flagged = 0;
		for (int q = 0; q < MQ; q++) {
			double sd = (q == Q21 && sc->sd21 > 0 ? sc->sd21 : sd_of(q)) * sc->mult;
			double mu = q == Q21 ? log1p(sc->effect) : 0;
			struct st_seq_state st;
			st_seq_state_init(&st);
			for (size_t i = 0; i < sc->K && st.decision == ST_SEQ_UNDECIDED; i++)
				st_seq_feed(&st, &d, 1, exp(mu + noise(r, sc, sd)), &err);
			flagged |=
			    st.decision == ST_SEQ_REGRESSION || st.decision == ST_SEQ_IMPROVEMENT;
			if (q != Q21)
				continue;
			size_t at = st.decision == ST_SEQ_REGRESSION ? st.decided_at : 0;
			const size_t by[4] = {3, 4, 5, sc->K};
			for (int j = 0; j < 4; j++)
				out->by[j] += at && at <= by[j];
			out->pairs += st.decided_at ? (double)st.decided_at : (double)sc->K;
		}
		out->any += (size_t)flagged;
	}
	out->reps = reps;
	out->pairs /= (double)reps;
	gsl_rng_free(r);
}

static const char *design_name(const struct scenario *sc)
{
	return sc->spending == ST_SPEND_OBF ? "OBF" : "Pocock";
}

static void print_row(const char *what, const struct scenario *sc, const struct outcome *o)
{
	double n = (double)o->reps;
	printf("    %-26s %-6s from %zu, K %2zu: any flagged %.4f  Q21 by 3/4/5/K %.3f %.3f %.3f "
	       "%.3f  mean pairs %.2f\n",
	       what, design_name(sc), sc->first, sc->K, (double)o->any / n, (double)o->by[0] / n,
	       (double)o->by[1] / n, (double)o->by[2] / n, (double)o->by[3] / n, o->pairs);
	fflush(stdout);
}

/* The design run_budget_design makes for a side-by-side plan is the one simulated here, and the
 * restart-paired one is today's: Pocock from pair 3 against O'Brien-Fleming from pair 2. */
static void test_stats_mc_sbs__runner_uses_this_design(void)
{
	struct run_plan p;
	struct st_seq_design d;
	struct errbuf err;
	size_t h[8] = {8, 8, 8, 8, 8, 8, 8, 8};
	memset(&p, 0, sizeof(p));
	p.alpha = ALPHA;
	p.detect = DETECT;
	p.n_queries = MQ;
	p.side_by_side = 1;
	CU_ASSERT_EQUAL_FATAL(run_budget_design(&d, &p, h, 8, &err), 0);
	CU_ASSERT_EQUAL(d.opts.spending, ST_SPEND_POCOCK);
	CU_ASSERT_EQUAL(d.opts.first_look, 3);
	CU_ASSERT(isinf(d.t[2]) && isfinite(d.t[3]));
	CU_ASSERT_STRING_EQUAL(run_budget_rule_name(&p, 2), "group-sequential-pocock");
	h[0] = h[1] = 2; /* a budget that held 2 pairs after pair 1: the first look is still 3 */
	CU_ASSERT_EQUAL_FATAL(run_budget_design(&d, &p, h, 8, &err), 0);
	CU_ASSERT_EQUAL(d.horizon[1], 3);
	p.side_by_side = 0;
	h[0] = h[1] = 8;
	CU_ASSERT_EQUAL_FATAL(run_budget_design(&d, &p, h, 8, &err), 0);
	CU_ASSERT_EQUAL(d.opts.spending, ST_SPEND_OBF);
	CU_ASSERT_EQUAL(d.opts.first_look, 2);
	CU_ASSERT_STRING_EQUAL(run_budget_rule_name(&p, 2), "group-sequential-obf");
	CU_ASSERT_STRING_EQUAL(run_budget_rule_name(&p, 3), "repeated-ci-bonferroni");
	CU_ASSERT_STRING_EQUAL(run_budget_rule_name(&p, 1), "precision");
}

/* The critical t of every design compared against tests/data/sbs_seq.py (the exact chain of
 * seq_tbounds.py on a finer grid): 0.2% up to 20, 1% up to 1000, as test_stats_seq; beyond 1000
 * (O'Brien-Fleming's first looks, spending 1e-7 or less on 1-2 df) both only above 1000. */
static void test_stats_mc_sbs__bounds_match_scipy(void)
{
	static const struct bound_ref refs[] = {
#include "data/sbs_seq_bounds.inc"
	};
	for (size_t i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
		struct st_seq_design d;
		struct scenario sc = {refs[i].spending, refs[i].first, NULL, refs[i].K, 0, 0, 1, 0, 0};
		design_of(&d, &sc);
		for (size_t k = 0; k < sc.first; k++)
			CU_ASSERT(isinf(d.t[k]));
		for (size_t k = sc.first; k <= sc.K; k++) {
			double ref = refs[i].t[k - sc.first];
			double tol = ref * (ref > 1000 ? 2e-2 : ref > 20 ? 1e-2 : 2e-3);
			if (ref > 1000) { /* nothing is ever decided there */
				CU_ASSERT(d.t[k] > 1000);
				continue;
			}
			CU_ASSERT_DOUBLE_EQUAL(d.t[k], ref, tol);
			if (fabs(d.t[k] - ref) > tol)
				printf("\n    design %zu look %zu: t %.6g, SciPy %.6g", i, k,
				       d.t[k], ref);
		}
	}
}

/* The C simulation against sbs_seq.py's own (numpy, its own decision rule) on the same model:
 * every share within 4 standard errors of the difference of two simulations, the mean pairs
 * within 4 of theirs (the pairs' sd is at most K / 2). */
static void test_stats_mc_sbs__agrees_with_numpy(void)
{
	static const struct sim_ref refs[] = {
#include "data/sbs_seq_sim.inc"
	};
	size_t reps = (size_t)(REPS * th_mc_scale());
	printf("\n  against tests/data/sbs_seq.py, %zu replicates here\n", reps);
	for (size_t i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
		const struct sim_ref *x = &refs[i];
		struct scenario sc = {x->spending, x->first, NULL, x->K, x->effect, 0, 1, 0, 0};
		struct outcome o;
		mc_run(&o, &sc, reps, 3300 + i);
		print_row(x->name, &sc, &o);
		double got[5] = {(double)o.any / (double)reps, (double)o.by[0] / (double)reps,
				 (double)o.by[1] / (double)reps, (double)o.by[2] / (double)reps,
				 (double)o.by[3] / (double)reps};
		double want[5] = {x->any, x->by[0], x->by[1], x->by[2], x->by[3]};
		for (int j = 0; j < 5; j++) {
			double p = (got[j] + want[j]) / 2;
			double se =
			    sqrt(p * (1 - p) * (1.0 / (double)reps + 1.0 / (double)x->reps));
			CU_ASSERT(fabs(got[j] - want[j]) <= 4 * se + 1e-9);
			if (fabs(got[j] - want[j]) > 4 * se + 1e-9)
				printf("    %s share %d: %.4f here, %.4f numpy\n", x->name, j,
				       got[j], want[j]);
		}
		double se_pairs =
		    (double)x->K / 2 * sqrt(1.0 / (double)reps + 1.0 / (double)x->reps);
		CU_ASSERT(fabs(o.pairs - x->pairs) <= 4 * se_pairs);
	}
}

/* A/A on the measured side-by-side noise: any of the 22 queries flagged (regression or
 * improvement), family-wise, <= alpha + 2 s.e. for the new design and its neighbours, with a
 * fixed horizon of 8 and 12 pairs, the horizon of the measured side-by-side A/B (6 growing to 8),
 * noise twice as large, and heavy tails (Student t on 4 df: the exact t boundaries assume normal
 * log ratios). */
static void test_stats_mc_sbs__aa_false_alarms(void)
{
	static const size_t ab[8] = {6, 6, 7, 7, 7, 7, 8, 8};
	size_t reps = (size_t)(REPS * th_mc_scale());
	double se = th_mc_se(ALPHA, reps);
	const struct scenario sc[] = {
	    {ST_SPEND_OBF, 2, NULL, 8, 0, 0, 1, 0, 0},
	    {ST_SPEND_POCOCK, 3, NULL, 8, 0, 0, 1, 0, 0},
	    {ST_SPEND_POCOCK, 2, NULL, 8, 0, 0, 1, 0, 0},
	    {ST_SPEND_POCOCK, 4, NULL, 8, 0, 0, 1, 0, 0},
	    {ST_SPEND_POCOCK, 3, NULL, 12, 0, 0, 1, 0, 0},
	    {ST_SPEND_POCOCK, 3, ab, 8, 0, 0, 1, 0, 0},
	    {ST_SPEND_POCOCK, 3, NULL, 8, 0, 0, 2, 0, 0},
	    {ST_SPEND_POCOCK, 3, NULL, 8, 0, 0, 1, 4, 0},
	    {ST_SPEND_OBF, 2, NULL, 8, 0, 0, 1, 0, 1},
	    {ST_SPEND_POCOCK, 3, NULL, 8, 0, 0, 1, 0, 1},
	    {ST_SPEND_POCOCK, 3, NULL, 8, 0, 0, 1, 4, 1},
	};
	static const char *const what[] = {"A/A (today)",
					   "A/A (new)",
					   "A/A",
					   "A/A",
					   "A/A",
					   "A/A, horizon 6 -> 8",
					   "A/A, noise x2",
					   "A/A, t4 tails",
					   "A/A, no margin (today)",
					   "A/A, no margin (new)",
					   "A/A, no margin, t4 tails"};
	printf("\n  A/A, %d queries, alpha %.2f, %zu replicates (MC s.e. at alpha %.4f)\n", MQ,
	       ALPHA, reps, se);
	for (size_t i = 0; i < sizeof(sc) / sizeof(sc[0]); i++) {
		struct outcome o;
		mc_run(&o, &sc[i], reps, 3400 + i);
		print_row(what[i], &sc[i], &o);
		CU_ASSERT(th_mc_share(o.any, reps) <= ALPHA + 2 * se);
	}
}

/* Q21 slowed x1.2 (the semijoin=off A/B) at its measured sd (0.80% and 1.72% in the two
 * sessions, pooled 1.34%), at the noisier session's and at half the pooled one (the slot-order
 * effect taken out by strict alternation): the new design decides it earlier than today's, most
 * often after pair 3; the cost, a small change (x1.05, x1.03) at the median noise, by the
 * horizon. */
static void test_stats_mc_sbs__q21_decided_earlier(void)
{
	size_t reps = (size_t)(REPS * th_mc_scale());
	double se = th_mc_se(0.5, reps);
	struct outcome today, now, o;
	printf("\n  power, %zu replicates (MC s.e. <= %.3f)\n", reps, se);
	struct scenario t8 = {ST_SPEND_OBF, 2, NULL, 8, 0.2, 0, 1, 0, 0};
	struct scenario n8 = {ST_SPEND_POCOCK, 3, NULL, 8, 0.2, 0, 1, 0, 0};
	mc_run(&today, &t8, reps, 3500);
	print_row("Q21 x1.2 (today)", &t8, &today);
	mc_run(&now, &n8, reps, 3501);
	print_row("Q21 x1.2 (new)", &n8, &now);
	CU_ASSERT(now.pairs < today.pairs - 1);
	CU_ASSERT(th_mc_share(now.by[0], reps) > 0.35);
	CU_ASSERT(th_mc_share(now.by[1], reps) > 0.85);
	CU_ASSERT(th_mc_share(today.by[0], reps) < 0.05);
	const struct scenario more[] = {
	    {ST_SPEND_POCOCK, 2, NULL, 8, 0.2, 0, 1, 0, 0},
	    {ST_SPEND_POCOCK, 4, NULL, 8, 0.2, 0, 1, 0, 0},
	    {ST_SPEND_OBF, 2, NULL, 12, 0.2, 0, 1, 0, 0},
	    {ST_SPEND_POCOCK, 3, NULL, 12, 0.2, 0, 1, 0, 0},
	    {ST_SPEND_OBF, 2, NULL, 8, 0.2, 0.0172, 1, 0, 0},
	    {ST_SPEND_POCOCK, 3, NULL, 8, 0.2, 0.0172, 1, 0, 0},
	    {ST_SPEND_POCOCK, 3, NULL, 8, 0.2, 0.0067, 1, 0, 0},
	};
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++) {
		mc_run(&o, &more[i], reps, 3510 + i);
		print_row(more[i].sd21 > 0.01	? "Q21 x1.2 at sd 1.72%"
			  : more[i].sd21 > 0	? "Q21 x1.2 at sd 0.67%"
						: "Q21 x1.2",
			  &more[i], &o);
	}
	const struct scenario small[] = {
	    {ST_SPEND_OBF, 2, NULL, 8, 0.05, 0.015, 1, 0, 0},
	    {ST_SPEND_POCOCK, 3, NULL, 8, 0.05, 0.015, 1, 0, 0},
	    {ST_SPEND_OBF, 2, NULL, 8, 0.03, 0.015, 1, 0, 0},
	    {ST_SPEND_POCOCK, 3, NULL, 8, 0.03, 0.015, 1, 0, 0},
	    {ST_SPEND_POCOCK, 4, NULL, 8, 0.03, 0.015, 1, 0, 0},
	    {ST_SPEND_OBF, 2, NULL, 12, 0.03, 0.015, 1, 0, 0},
	    {ST_SPEND_POCOCK, 3, NULL, 12, 0.03, 0.015, 1, 0, 0},
	};
	for (size_t i = 0; i < sizeof(small) / sizeof(small[0]); i++) {
		mc_run(&o, &small[i], reps, 3520 + i);
		print_row(small[i].effect > 0.04 ? "x1.05 at sd 1.5%" : "x1.03 at sd 1.5%",
			  &small[i], &o);
	}
}

int main(int argc, char **argv)
{
	static const struct th_case cases[] = {
	    TH_CASE(stats_mc_sbs, runner_uses_this_design),
	    TH_CASE(stats_mc_sbs, bounds_match_scipy),
	    TH_CASE(stats_mc_sbs, agrees_with_numpy),
	    TH_CASE(stats_mc_sbs, aa_false_alarms),
	    TH_CASE(stats_mc_sbs, q21_decided_earlier),
	    {NULL, NULL},
	};
	return th_run("stats_mc_sbs", cases, argc, argv);
}
