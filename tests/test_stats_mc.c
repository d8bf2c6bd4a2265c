/* SPDX-License-Identifier: MIT */
/* Monte Carlo proof of the compare statistics on simulated result data (fixed seeds). */
#include "stats/st.h"
#include "tests/harness.h"
#include "tests/th_mc.h"
#include "tests/mc_noise.h"
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The simulated host (issue 7): 22 queries, 10 measured runs per restart, between-restart CoV
 * log-uniform from 0.5% to 8% per query, within-restart CoV 0.1%, log-normal times. */
#define MC_Q 22
#define MC_RUNS 10
#define MC_MAXR 16
#define MC_COV_LO 0.005
#define MC_COV_HI 0.08
#define MC_COV_WITHIN 0.001
#define MC_ALPHA 0.05
#define MC_MIN_EFFECT 0.02

/* Pair counts: env DBT3_MC_SCALE multiplies them (e.g. 10 for the figures in the docs). */
#define MC_PAIRS_AA 4000
#define MC_PAIRS_POWER 1000

struct mc_setup {
	size_t n;      /* restarts a side */
	double effect; /* slowdown of query 0 in the new build (0: A/A) */
	double cov0;   /* between-restart CoV of query 0; 0: log-uniform like the others */
	enum st_method method;
	enum st_alternative alt;
	size_t baseline_n; /* restarts of a baseline result per query, 0: none */
	int fixed_grid;	   /* CoVs fixed at 0.5% x 16^(q/21) instead of drawn per pair */
	int naive;	   /* also run the naive run-by-run analysis */
};

struct mc_result {
	size_t pairs;
	size_t any_flag;    /* pairs with any query flagged (regression or improvement) */
	size_t q0_reg;	    /* pairs with query 0 flagged as a regression */
	size_t naive_any;   /* run-by-run analysis: pairs with any query flagged */
	double mean_d0;	    /* EB: mean fitted prior df */
	double gmean_s0;    /* EB: geometric mean of the fitted prior variance */
	size_t per_q[MC_Q]; /* pairs where query q was flagged */
};

/* sd of log times for a coefficient of variation c: sqrt(log(1 + c^2)) (log-normal). */
static double lsd(double cov)
{
	return sqrt(log1p(cov * cov));
}

/* The rule compare used before issue 14 (and the naive analysis): Holm over the tested queries,
 * then each query's verdict by st_verdict_of. compare now decides with st_decide_ext. */
static void decide_before(enum st_verdict *v, double *padj, const struct st_test *t,
			  enum st_alternative alt)
{
	double p[MC_Q];
	for (size_t i = 0; i < MC_Q; i++)
		p[i] = t[i].kind == ST_TEST_NONE ? NAN : t[i].p;
	st_p_adjust(padj, p, MC_Q, ST_CORR_HOLM);
	for (size_t i = 0; i < MC_Q; i++)
		v[i] = st_verdict_of(&t[i], padj[i], MC_ALPHA, MC_MIN_EFFECT, alt);
}

/* One restart of one query: MC_RUNS log-normal runs around exp(mu + restart effect). */
static void sim_restart(double *runs, gsl_rng *r, double mu, double sd_b, double sd_w)
{
	double eff = mu + gsl_ran_gaussian_ziggurat(r, sd_b);
	for (int j = 0; j < MC_RUNS; j++)
		runs[j] = exp(eff + gsl_ran_gaussian_ziggurat(r, sd_w));
}

/* Simulates `pairs` old/new pairs of result files and analyses each as `compare` does. */
static void mc_run(struct mc_result *out, const struct mc_setup *s, size_t pairs,
		   unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	static const size_t nruns[MC_MAXR] = {MC_RUNS, MC_RUNS, MC_RUNS, MC_RUNS, MC_RUNS, MC_RUNS,
					      MC_RUNS, MC_RUNS, MC_RUNS, MC_RUNS, MC_RUNS, MC_RUNS,
					      MC_RUNS, MC_RUNS, MC_RUNS, MC_RUNS};
	double runs[2][MC_MAXR * MC_RUNS], means[2][MC_MAXR], first[2][MC_RUNS];
	struct st_sample sa[MC_Q], sb[MC_Q];
	struct st_test t[MC_Q], naive[MC_Q];
	struct st_prior base[MC_Q], prior;
	enum st_verdict v[MC_Q];
	double padj[MC_Q], sum_d0 = 0, sum_ls0 = 0;
	struct st_compare_opts o;
	struct errbuf err;
	double sd_w = lsd(MC_COV_WITHIN);

	memset(out, 0, sizeof(*out));
	gsl_rng_set(r, seed);
	st_compare_opts_init(&o);
	o.method = s->method;
	o.alt = s->alt;
	o.alpha = MC_ALPHA;
	for (size_t p = 0; p < pairs; p++) {
		size_t flagged = 0;
		for (int q = 0; q < MC_Q; q++) {
			double u = s->fixed_grid ? q / (MC_Q - 1.0) : gsl_rng_uniform(r);
			double cov = exp(log(MC_COV_LO) + u * (log(MC_COV_HI) - log(MC_COV_LO)));
			double mu = log(0.05) + gsl_rng_uniform(r) * log(400.0); /* 50 ms .. 20 s */
			double sd_b, eff = 0;
			if (q == 0 && s->cov0 > 0)
				cov = s->cov0;
			if (q == 0)
				eff = log1p(s->effect);
			sd_b = lsd(cov);
			for (int side = 0; side < 2; side++) {
				for (size_t k = 0; k < s->n; k++)
					sim_restart(runs[side] + k * MC_RUNS, r,
						    mu + (side ? eff : 0), sd_b, sd_w);
				st_restart_means(means[side], runs[side], nruns, s->n, &err);
				memcpy(first[side], runs[side], sizeof(first[side]));
			}
			st_sample_init(&sa[q], means[0], s->n, &err);
			st_sample_init(&sb[q], means[1], s->n, &err);
			/* the naive analysis: the runs of one start per side as if independent */
			st_compare_opts_init(&o);
			if (s->naive)
				st_compare_means(&naive[q], first[0], MC_RUNS, first[1], MC_RUNS,
						 &o, &err);
			base[q].df = 0;
			base[q].var = NAN;
			if (s->baseline_n >= 2) {
				double bm[MC_MAXR * 4];
				for (size_t k = 0; k < s->baseline_n; k++) {
					double br[MC_RUNS];
					sim_restart(br, r, mu, sd_b, sd_w);
					st_restart_means(&bm[k], br, nruns, 1, &err);
				}
				st_baseline_prior(&base[q], bm, s->baseline_n, &err);
			}
		}
		st_compare_opts_init(&o);
		o.method = s->method;
		o.alt = s->alt;
		o.alpha = MC_ALPHA;
		st_compare_all(t, &prior, sa, sb, MC_Q, s->baseline_n >= 2 ? base : NULL, &o, &err);
		sum_d0 += isfinite(prior.df) ? prior.df : 1000;
		sum_ls0 += prior.df > 0 ? log(prior.var) : 0;
		decide_before(v, padj, t, s->alt);
		for (int q = 0; q < MC_Q; q++) {
			int f = v[q] == ST_VERDICT_REGRESSION || v[q] == ST_VERDICT_IMPROVEMENT;
			flagged += f;
			out->per_q[q] += f;
		}
		out->any_flag += flagged > 0;
		out->q0_reg += v[0] == ST_VERDICT_REGRESSION;
		if (!s->naive)
			continue;
		decide_before(v, padj, naive, ST_TWO_SIDED);
		flagged = 0;
		for (int q = 0; q < MC_Q; q++)
			flagged += v[q] == ST_VERDICT_REGRESSION || v[q] == ST_VERDICT_IMPROVEMENT;
		out->naive_any += flagged > 0;
	}
	out->pairs = pairs;
	out->mean_d0 = sum_d0 / (double)pairs;
	out->gmean_s0 = exp(sum_ls0 / (double)pairs);
	gsl_rng_free(r);
}

/* The analyses compared: the default and the candidates that need fewer restarts. */
struct mc_config {
	const char *name;
	enum st_method method;
	enum st_alternative alt;
	size_t baseline_n;
	unsigned seed;	 /* its seed offset, kept when another configuration leaves the list */
	int keeps_bound; /* asserted: A/A false alarms <= alpha + 2 s.e. */
};

/* welch: the default. pooled: Student t. 1s: one-sided
 * (regressions only). eb: moderated t. b10: a baseline of 10 restarts pooled in. */
static const struct mc_config configs[] = {
    {"welch", ST_METHOD_WELCH, ST_TWO_SIDED, 0, 0, 1},
    {"pooled", ST_METHOD_POOLED, ST_TWO_SIDED, 0, 1, 1},
    {"pooled-1s", ST_METHOD_POOLED, ST_GREATER, 0, 3, 1},
    {"eb", ST_METHOD_EB, ST_TWO_SIDED, 0, 4, 0},
    {"pooled+b10", ST_METHOD_POOLED, ST_TWO_SIDED, 10, 5, 1},
};
enum { CONF_WELCH, CONF_POOLED, CONF_POOLED_1S, CONF_EB, CONF_BASE };
#define MC_NCONF (sizeof(configs) / sizeof(configs[0]))

/* A/A: the share of pairs with any of the 22 queries flagged is at most alpha + 2 MC standard
 * errors for every method that claims the bound; the naive run-by-run analysis of the same data
 * flags far more. */
TH_TEST(stats_mc, aa_false_alarms_bounded)
{
	size_t pairs = (size_t)(MC_PAIRS_AA * th_mc_scale());
	double se = th_mc_se(MC_ALPHA, pairs);

	printf("\n  A/A, %d queries, 5 restarts a side, %zu pairs, Holm, alpha %.2f, "
	       "min-effect 2%% (MC s.e. at alpha: %.4f)\n",
	       MC_Q, pairs, MC_ALPHA, se);
	for (size_t i = 0; i < MC_NCONF; i++) {
		struct mc_setup s = {.n = 5,
				     .method = configs[i].method,
				     .alt = configs[i].alt,
				     .baseline_n = configs[i].baseline_n,
				     .naive = i == 0};
		struct mc_result res;
		mc_run(&res, &s, pairs, 1000 + configs[i].seed);
		printf("    %-10s any query flagged in %.4f of pairs", configs[i].name,
		       th_mc_share(res.any_flag, pairs));
		if (configs[i].method == ST_METHOD_EB)
			printf(" (mean prior df %.2f)", res.mean_d0);
		if (s.naive)
			printf("; naive run-by-run on the same data: %.4f",
			       th_mc_share(res.naive_any, pairs));
		printf("\n");
		if (configs[i].keeps_bound)
			CU_ASSERT(th_mc_share(res.any_flag, pairs) <= MC_ALPHA + 2 * se);
		if (s.naive)
			CU_ASSERT(th_mc_share(res.naive_any, pairs) > 0.5);
	}
	fflush(stdout);
}

/* The same host with the CoVs fixed per query (0.5% .. 8%): the false alarms of each method
 * split by the noisiest and the quietest 6 queries. Shrinking variances (eb) moves the false
 * alarms onto the noisy queries, night after night; the pooled test does not. */
TH_TEST(stats_mc, aa_false_alarms_by_query_noise)
{
	size_t pairs = (size_t)(MC_PAIRS_AA * th_mc_scale());
	static const size_t which[] = {CONF_WELCH, CONF_POOLED, CONF_EB};
	static const unsigned seed[] = {0, 1, 3}; /* as when independent filtering was the third */

	printf("\n  A/A with fixed CoVs, %zu pairs: share of pairs flagging one of the 6 noisiest "
	       "(4.6%%-8%%) / 6 quietest (0.5%%-0.9%%) queries\n",
	       pairs);
	for (size_t k = 0; k < sizeof(which) / sizeof(which[0]); k++) {
		const struct mc_config *c = &configs[which[k]];
		struct mc_setup s = {.n = 5,
				     .method = c->method,
				     .alt = c->alt,
				     .fixed_grid = 1};
		struct mc_result res;
		size_t hi = 0, lo = 0;
		mc_run(&res, &s, pairs, 3000 + seed[k]);
		for (int q = 0; q < 6; q++) {
			lo += res.per_q[q];
			hi += res.per_q[MC_Q - 1 - q];
		}
		printf("    %-10s all %.4f  noisy %.4f  quiet %.4f\n", c->name,
		       th_mc_share(res.any_flag, pairs), th_mc_share(hi, pairs), th_mc_share(lo, pairs));
		if (c->keeps_bound)
			CU_ASSERT(th_mc_share(res.any_flag, pairs) <=
				  MC_ALPHA + 2 * th_mc_se(MC_ALPHA, pairs));
	}
	fflush(stdout);
}

/* Power at 3..10 restarts a side, simulated and from st_power, for every configuration. */
static void power_table(double effect, double cov0)
{
	size_t pairs = (size_t)(MC_PAIRS_POWER * th_mc_scale());
	size_t need[MC_NCONF], need_calc[MC_NCONF];
	double sim5[MC_NCONF], sim8[MC_NCONF];

	printf("\n  power: %.0f%% slowdown of one query at %.0f%% restart CoV (the other 21 "
	       "unchanged), %zu pairs per cell (MC s.e. <= %.3f); sim / calc\n    n ",
	       effect * 100, cov0 * 100, pairs, th_mc_se(0.5, pairs));
	for (size_t i = 0; i < MC_NCONF; i++) {
		printf(" %13s", configs[i].name);
		need[i] = need_calc[i] = 0;
	}
	printf("\n");
	for (size_t n = 3; n <= 10; n++) {
		printf("    %-2zu", n);
		for (size_t i = 0; i < MC_NCONF; i++) {
			const struct mc_config *c = &configs[i];
			struct mc_setup s = {.n = n,
					     .effect = effect,
					     .cov0 = cov0,
					     .method = c->method,
					     .alt = c->alt,
					     .baseline_n = c->baseline_n};
			struct mc_result res;
			struct st_power_spec ps = {
			    .effect = effect,
			    .sd_log = lsd(cov0),
			    .alpha = MC_ALPHA,
			    .m = MC_Q,
			    .corr = ST_CORR_HOLM,
			    .min_effect = MC_MIN_EFFECT,
			    .method = c->method,
			    .alt = c->alt,
			    .baseline_df = c->baseline_n ? (double)(c->baseline_n - 1) : 0,
			};
			double sim, calc;
			mc_run(&res, &s, pairs, 2000 + 10 * n + c->seed);
			sim = th_mc_share(res.q0_reg, pairs);
			if (c->method == ST_METHOD_EB) {
				/* the prior the EB fit found on this host (its mean over the pairs)
				 */
				ps.eb.df = res.mean_d0;
				ps.eb.var = res.gmean_s0;
			}
			calc = st_power(&ps, n);
			printf("   %.3f/%.3f", sim, calc);
			if (c->keeps_bound)
				CU_ASSERT(fabs(sim - calc) < 0.05);
			if (!need[i] && sim >= 0.8)
				need[i] = n;
			if (!need_calc[i] && calc >= 0.8)
				need_calc[i] = n;
			if (n == 5)
				sim5[i] = sim;
			if (n == 8)
				sim8[i] = sim;
		}
		printf("\n");
	}
	printf("    restarts a side for 80%% (sim/calc):");
	for (size_t i = 0; i < MC_NCONF; i++)
		printf(" %s %zu/%zu", configs[i].name, need[i], need_calc[i]);
	printf("\n");
	fflush(stdout);
	/* the issue's requirement for the default: >= 80% at 8 restarts a side */
	CU_ASSERT(sim8[CONF_WELCH] >= 0.8);
	/* the alternatives: more power at 5 restarts (margin > 2 s.e. of a difference), and fewer
	 * restarts for 80% by the calculation, which the simulation confirmed within 5 points */
	CU_ASSERT(sim5[CONF_POOLED] > sim5[CONF_WELCH] + 3 * th_mc_se(0.5, pairs));
	CU_ASSERT(sim5[CONF_POOLED_1S] > sim5[CONF_POOLED] + 3 * th_mc_se(0.5, pairs));
	CU_ASSERT(sim5[CONF_BASE] > sim5[CONF_POOLED] + 3 * th_mc_se(0.5, pairs));
	CU_ASSERT(need_calc[CONF_POOLED_1S] < need_calc[CONF_WELCH]);
	CU_ASSERT(need_calc[CONF_BASE] <= need_calc[CONF_WELCH] - 2);
}

TH_TEST(stats_mc, power_20pct_at_6pct)
{
	power_table(0.20, 0.06);
}

TH_TEST(stats_mc, power_3pct_at_1pct)
{
	power_table(0.03, 0.01);
}

/* ---- issue 14: before/after on this machine's noise ---------------------------------------- */

/* The analyses of the issue-14 table: "before" is compare as it was (Welch, two-sided, Holm,
 * significant and estimate >= min-effect); "after" the new default (auto pooled/Welch,
 * one-sided for regressions), with --min-effect-test, and with a 10-restart baseline. */
struct mc14_config {
	const char *name;
	enum st_method method;
	enum st_alternative alt;
	int shifted;	   /* --min-effect-test */
	int before;	   /* decide_before (the old rule) instead of st_decide_ext */
	size_t baseline_n; /* restarts of a baseline of the same host, 0: none */
};
static const struct mc14_config c14[] = {
    {"before (welch, two-sided)", ST_METHOD_WELCH, ST_TWO_SIDED, 0, 1, 0},
    {"after (auto, one-sided)", ST_METHOD_AUTO, ST_GREATER, 0, 0, 0},
    {"after --min-effect-test", ST_METHOD_AUTO, ST_GREATER, 1, 0, 0},
    {"after + baseline (10)", ST_METHOD_AUTO, ST_GREATER, 0, 0, 10},
};
enum { C14_BEFORE, C14_AFTER, C14_SHIFT, C14_BASE, C14_N };

/* The cells: A/A; a true +1.9% at 0.5% CoV; 3% at 1% CoV; 5% at 3% CoV (query 1 changed with
 * that between-restart CoV, the other 21 with the variance components measured on this
 * machine, tests/mc_noise.h; query 1's within-restart noise is Q1's). */
struct mc14_cell {
	const char *name;
	double effect, cov0;
};
static const struct mc14_cell cells14[] = {
    {"A/A: pairs with a false regression", 0, 0},
    {"+1.9% at 0.5% CoV flagged >= 2%", 0.019, 0.005},
    {"power 3% at 1% CoV", 0.03, 0.01},
    {"power 5% at 3% CoV", 0.05, 0.03},
};
enum { CELL_AA, CELL_19, CELL_3_1, CELL_5_3, CELL_N };

/* One restart mean of a query with log restart effect sd sd_b and log run sd sd_w. */
static double mc14_restart_mean(gsl_rng *r, double mu, double sd_b, double sd_w)
{
	double runs[MC_RUNS], m;
	size_t n = MC_RUNS;
	struct errbuf err;
	sim_restart(runs, r, mu, sd_b, sd_w);
	st_restart_means(&m, runs, &n, 1, &err);
	return m;
}

/* Share of pairs with any regression (A/A) or with query 1 a regression (otherwise). */
static double mc14_run(const struct mc14_config *c, const struct mc14_cell *cell, size_t n,
		       size_t pairs, unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct st_sample sa[MC_Q], sb[MC_Q];
	struct st_test t[MC_Q];
	struct st_prior base[MC_Q], prior;
	enum st_verdict v[MC_Q];
	double padj[MC_Q], m[2][MC_MAXR], bm[16];
	struct st_compare_opts o;
	struct st_decide_opts d = {ST_CORR_HOLM, MC_ALPHA, MC_MIN_EFFECT, c->alt, c->shifted};
	struct errbuf err;
	size_t hits = 0;

	gsl_rng_set(r, seed);
	st_compare_opts_init(&o);
	o.method = c->method;
	o.alt = c->alt;
	o.alpha = MC_ALPHA;
	o.min_effect = MC_MIN_EFFECT;
	o.min_effect_test = c->shifted;
	for (size_t p = 0; p < pairs; p++) {
		size_t nreg = 0;
		for (int q = 0; q < MC_Q; q++) {
			double sd_b = q == 0 && cell->cov0 > 0 ? lsd(cell->cov0) : mc_noise[q][0];
			double sd_w = mc_noise[q][1], mu = log(100.0);
			for (int side = 0; side < 2; side++)
				for (size_t k = 0; k < n; k++)
					m[side][k] = mc14_restart_mean(
					    r, mu + (side && q == 0 ? log1p(cell->effect) : 0), sd_b,
					    sd_w);
			st_sample_init(&sa[q], m[0], n, &err);
			st_sample_init(&sb[q], m[1], n, &err);
			base[q].df = 0;
			base[q].var = NAN;
			if (c->baseline_n) {
				for (size_t k = 0; k < c->baseline_n; k++)
					bm[k] = mc14_restart_mean(r, mu, sd_b, sd_w);
				st_baseline_prior(&base[q], bm, c->baseline_n, &err);
			}
		}
		st_compare_all(t, &prior, sa, sb, MC_Q, c->baseline_n ? base : NULL, &o, &err);
		if (c->before)
			decide_before(v, padj, t, c->alt);
		else
			st_decide_ext(v, padj, NULL, t, MC_Q, &d);
		for (int q = 0; q < MC_Q; q++)
			nreg += v[q] == ST_VERDICT_REGRESSION;
		hits += cell->effect == 0 ? nreg > 0 : v[0] == ST_VERDICT_REGRESSION;
	}
	gsl_rng_free(r);
	return th_mc_share(hits, pairs);
}

/* The table of docs/monte-carlo.md ("Before and after the one-sided default"), for 5 and 8 restarts a side,
 * with the issue's targets: family-wise false regressions <= 5%; <= 5% ">= 2%" flags for a true
 * +1.9% with --min-effect-test; >= 10 points more power than before at 5 restarts for 3% at 1%
 * CoV (5% at 3% CoV: only with a baseline, see the docs). */
TH_TEST(stats_mc, issue14_before_after)
{
	size_t pairs = (size_t)(MC_PAIRS_POWER * th_mc_scale());
	double res[2][C14_N][CELL_N], se = th_mc_se(MC_ALPHA, pairs), se5 = th_mc_se(0.5, pairs);
	static const size_t ns[2] = {5, 8};

	printf("\n  issue 14, this machine's noise (tests/mc_noise.h), Holm, alpha 0.05, min-effect "
	       "2%%, %zu pairs per cell (MC s.e. at 0.05: %.4f, at 0.5: %.4f)\n",
	       pairs, se, se5);
	for (size_t ni = 0; ni < 2; ni++) {
		printf("    n = %zu restarts a side\n", ns[ni]);
		for (size_t ci = 0; ci < CELL_N; ci++) {
			printf("      %-38s", cells14[ci].name);
			for (size_t k = 0; k < C14_N; k++) {
				res[ni][k][ci] = mc14_run(&c14[k], &cells14[ci], ns[ni], pairs,
							  14000 + 100 * ni + 10 * ci + k);
				printf("  %s %.4f", k == 0 ? "" : "|", res[ni][k][ci]);
			}
			printf("\n");
		}
	}
	printf("      columns:");
	for (size_t k = 0; k < C14_N; k++)
		printf(" %s%s", c14[k].name, k + 1 < C14_N ? ";" : "\n");
	fflush(stdout);
	for (size_t ni = 0; ni < 2; ni++) {
		for (size_t k = C14_AFTER; k < C14_N; k++)
			CU_ASSERT(res[ni][k][CELL_AA] <= MC_ALPHA + 2 * se);
		CU_ASSERT(res[ni][C14_SHIFT][CELL_19] <= MC_ALPHA + 2 * se);
	}
	CU_ASSERT(res[0][C14_AFTER][CELL_3_1] >= res[0][C14_BEFORE][CELL_3_1] + 0.10);
	CU_ASSERT(res[0][C14_AFTER][CELL_5_3] > res[0][C14_BEFORE][CELL_5_3] + 3 * se5);
	CU_ASSERT(res[0][C14_BASE][CELL_5_3] >= res[0][C14_BEFORE][CELL_5_3] + 0.10);
	CU_ASSERT(res[0][C14_BASE][CELL_3_1] > res[0][C14_AFTER][CELL_3_1]);
}

/* "Restarts needed" from one file of 3 restarts (the quick start): the point figure is biased
 * low, the interval from the noise's 95% CI is not. The noise is set where the plan needs 7
 * restarts a side (3% slowdown, 80% power, the default test, 22 queries); a file's interval
 * misses (its upper figure < 7) only when the chi-square CI of its sd falls below the true sd:
 * at most 2.5%. */
TH_TEST(stats_mc, restarts_needed_interval)
{
	size_t files = (size_t)(2 * MC_PAIRS_POWER * th_mc_scale()), low = 0, miss = 0, need = 0;
	struct st_power_spec ps = {.effect = 0.03,
				   .alpha = MC_ALPHA,
				   .m = MC_Q,
				   .corr = ST_CORR_HOLM,
				   .min_effect = MC_MIN_EFFECT,
				   .method = ST_METHOD_AUTO,
				   .alt = ST_GREATER};
	double sd = 0.005;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 1407);
	/* the largest noise that still needs 7 */
	for (; sd < 0.05; sd += 0.0001) {
		ps.sd_log = sd + 0.0001;
		if (st_restarts_needed(&need, &ps, 0.8, 100) < 0 || need > 7)
			break;
	}
	ps.sd_log = sd;
	CU_ASSERT_EQUAL_FATAL(st_restarts_needed(&need, &ps, 0.8, 100), 0);
	CU_ASSERT_EQUAL_FATAL(need, 7);
	for (size_t f = 0; f < files; f++) {
		double runs[3 * 5];
		size_t nr[3] = {5, 5, 5}, n_pt = 0, n_hi = 0;
		struct st_noise z;
		struct errbuf err;
		for (int k = 0; k < 3; k++) {
			double e = gsl_ran_gaussian_ziggurat(r, sd);
			for (int j = 0; j < 5; j++)
				runs[k * 5 + j] = exp(e + gsl_ran_gaussian_ziggurat(r, 1e-4));
		}
		st_noise_compute(&z, runs, nr, 3, 0.95, &err);
		ps.sd_log = z.sd_log;
		if (st_restarts_needed(&n_pt, &ps, 0.8, 5) == 0) /* needs at most 5 */
			low++;
		ps.sd_log = z.sd_hi;
		if (st_restarts_needed(&n_hi, &ps, 0.8, 6) == 0) /* at most 6 */
			miss++;
	}
	gsl_rng_free(r);
	printf("\n  restarts needed from a 3-restart file, true need 7 (sd of log restart means "
	       "%.4f), %zu files: point figure <= 5 in %.4f; upper end of the 95%% interval < 7 in "
	       "%.4f\n",
	       sd, files, th_mc_share(low, files), th_mc_share(miss, files));
	fflush(stdout);
	CU_ASSERT(th_mc_share(low, files) > 0.2); /* the bias the issue describes */
	CU_ASSERT(th_mc_share(miss, files) <= 0.025 + 2 * th_mc_se(0.025, files));
}

TH_MAIN(stats_mc)
