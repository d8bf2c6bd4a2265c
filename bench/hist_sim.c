/* SPDX-License-Identifier: MIT */
/* Statistical benchmark of `history check` (docs/history.md): synthetic nightly series drawn like
 * real runs (restart means log-normal with a between-restart CoV of 0.5-8%, 5 restarts a night,
 * 22 queries, 60 nights), with steps, slow drifts and single-night outliers injected; the check
 * run as a nightly job would (on the series up to each night) against the naive nightly rule
 * (compare newest vs previous night: Welch, Holm over the queries, flag at verdict regression).
 * usage: hist_sim [REPLICATES [SEED [MAX_P]]]   (built and run by bench/history.sh) */
#include "history/hist.h"
#include "stats/st.h"
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NQ 22
#define NN 60
#define NR 5

enum kind { K_NULL, K_STEP2, K_STEP3, K_STEP5, K_STEP10, K_DRIFT, K_OUTLIER, K_KINDS };
static const char *const kind_name[K_KINDS] = {"none", "step 2%", "step 3%", "step 5%",
					       "step 10%", "drift 0.3%/night", "outlier 15%"};
static const double step_size[K_KINDS] = {0, 0.02, 0.03, 0.05, 0.10, 0, 0};

struct query {
	enum kind kind;
	double cov;
	int event; /* night of the step, start of the drift, the outlier night */
	double means[NN][NR];
};

/* Per kind and CoV band (0: CoV <= 2%, 1: above): the tallies. */
struct tally {
	long n;		    /* query series */
	long found3;	    /* CP at the event night (its build) reported by night event+3 */
	long found_end;	    /* ... by the last night */
	long nights_sum;    /* nights from the event to the first report (found_end ones) */
	long flagged_night; /* exit 1 (starts a regression) on the event night */
	long naive_flag;    /* naive rule flags the event night */
	long false_cp;	    /* CPs at the last night away from the event (+-2) */
	long query_nights;  /* nights observed */
	long alarms;	    /* nights with exit 1 and nothing to find (see replicate) */
	long naive_alarms;  /* nights the naive rule flags with nothing to find */
	long outlier_cp;    /* outlier reported as a CP at some night */
};

static void draw(struct query *q, enum kind k, gsl_rng *r)
{
	q->kind = k;
	q->cov = exp(log(0.005) + gsl_rng_uniform(r) * (log(0.08) - log(0.005)));
	q->event = 20 + (int)gsl_rng_uniform_int(r, 36); /* nights 20..55 */
	double sigma = sqrt(log1p(q->cov * q->cov)), level = 100 * (1 + gsl_rng_uniform(r));
	for (int t = 0; t < NN; t++) {
		double f = 1;
		if (step_size[k] > 0 && t >= q->event)
			f = 1 + step_size[k];
		else if (k == K_DRIFT && t >= q->event)
			f = pow(1.003, t - q->event + 1);
		else if (k == K_OUTLIER && t == q->event)
			f = 1.15;
		for (int i = 0; i < NR; i++)
			q->means[t][i] = level * f * exp(gsl_ran_gaussian(r, sigma));
	}
}

static int near_event(const struct hist_cp *cps, size_t n, int event, int tol)
{
	for (size_t i = 0; i < n; i++)
		if (abs((int)cps[i].index - event) <= tol)
			return 1;
	return 0;
}

/* The naive rule on night t: Welch of night t against t-1 for every query, Holm, regression. */
static void naive_night(int *out_flag, struct query *qs, int t)
{
	struct st_test tests[NQ];
	struct st_compare_opts co;
	double p[NQ], padj[NQ];
	struct errbuf err;
	st_compare_opts_init(&co);
	co.method = ST_METHOD_WELCH;
	for (int q = 0; q < NQ; q++) {
		st_compare_means(&tests[q], qs[q].means[t - 1], NR, qs[q].means[t], NR, &co, &err);
		p[q] = tests[q].p;
	}
	st_p_adjust(padj, p, NQ, ST_CORR_HOLM);
	for (int q = 0; q < NQ; q++)
		out_flag[q] = st_verdict_of(&tests[q], padj[q], 0.05, 0.02, ST_TWO_SIDED) ==
			      ST_VERDICT_REGRESSION;
}

static double max_p_opt = 0.001;

static void replicate(struct tally tl[K_KINDS][2], gsl_rng *r)
{
	static struct query qs[NQ];
	struct hist_detect_opts o;
	hist_detect_opts_init(&o);
	o.max_p = max_p_opt;
	for (int q = 0; q < NQ; q++)
		draw(&qs[q], (enum kind)(gsl_rng_uniform_int(r, K_KINDS)), r);
	int first[NQ], found3[NQ], outl[NQ];
	for (int q = 0; q < NQ; q++)
		first[q] = -1, found3[q] = 0, outl[q] = 0;
	for (int t = 1; t < NN; t++) {
		int naive[NQ];
		naive_night(naive, qs, t);
		for (int q = 0; q < NQ; q++) {
			struct query *Q = &qs[q];
			struct tally *y = &tl[Q->kind][Q->cov > 0.02];
			struct hist_pt pts[NN];
			struct hist_query_check c;
			struct errbuf err;
			for (int i = 0; i <= t; i++)
				pts[i] = (struct hist_pt){Q->means[i], NR};
			if (hist_check_query(&c, pts, (size_t)t + 1, 0.05 / NQ, &o, &err) < 0)
				abort();
			int ev = Q->kind != K_NULL && Q->kind != K_DRIFT ? Q->event : -100;
			y->query_nights++;
			if (Q->kind == K_NULL || Q->kind == K_DRIFT) /* a drift has no event night */
				ev = -100;
			if (c.starts_regression && t == Q->event && Q->kind != K_NULL)
				y->flagged_night++;
			if (naive[q] && t == Q->event && Q->kind != K_NULL)
				y->naive_flag++;
			/* a false alarm: before a slowdown (step, drift), or away from an outlier
			 * night and the night after it; never in a series with nothing injected */
			int quiet = Q->kind == K_OUTLIER ? !(t >= ev && t <= ev + 1)
				    : Q->kind == K_NULL	 ? 1
							 : t < Q->event;
			y->alarms += c.starts_regression && quiet;
			y->naive_alarms += naive[q] && quiet;
			if (Q->kind != K_NULL && t >= Q->event && first[q] < 0) {
				int hit = Q->kind == K_DRIFT
					      ? c.n_cps && c.cps[c.n_cps - 1].index >= (size_t)Q->event &&
						    c.cps[c.n_cps - 1].test.ratio > 1
					      : near_event(c.cps, c.n_cps, Q->event, 0);
				if (hit && Q->kind != K_OUTLIER) {
					first[q] = t;
					found3[q] = t - Q->event <= 3;
				}
			}
			if (Q->kind == K_OUTLIER && t >= Q->event &&
			    (near_event(c.cps, c.n_cps, Q->event, 0) ||
			     near_event(c.cps, c.n_cps, Q->event + 1, 0)))
				outl[q] = 1;
			if (t == NN - 1) {
				for (size_t i = 0; i < c.n_cps; i++)
					if (Q->kind == K_NULL || Q->kind == K_OUTLIER ||
					    (Q->kind != K_DRIFT && abs((int)c.cps[i].index - Q->event) > 2))
						y->false_cp++;
			}
			hist_query_check_release(&c);
		}
	}
	for (int q = 0; q < NQ; q++) {
		struct tally *y = &tl[qs[q].kind][qs[q].cov > 0.02];
		y->n++;
		y->found3 += found3[q];
		y->outlier_cp += outl[q];
		if (first[q] >= 0) {
			y->found_end++;
			y->nights_sum += first[q] - qs[q].event;
		}
	}
}

static void pct(long a, long n)
{
	if (n)
		printf(" %.1f%% |", 100.0 * (double)a / (double)n);
	else
		printf(" – |");
}

static void row(const char *name, const char *band, const struct tally *y, enum kind k)
{
	double qn = y->query_nights ? (double)y->query_nights : NAN;
	int step = step_size[k] > 0;
	printf("| %s | %s | %ld |", name, band, y->n);
	step ? pct(y->found3, y->n) : (void)printf(" – |");
	step || k == K_DRIFT ? pct(y->found_end, y->n) : (void)printf(" – |");
	if ((step || k == K_DRIFT) && y->found_end)
		printf(" %.1f |", (double)y->nights_sum / (double)y->found_end);
	else
		printf(" – |");
	step || k == K_OUTLIER ? pct(y->flagged_night, y->n) : (void)printf(" – |");
	step || k == K_OUTLIER ? pct(y->naive_flag, y->n) : (void)printf(" – |");
	printf(" %.3f | %.3f | %.3f |", 100 * y->false_cp / qn, 100 * y->alarms / qn,
	       100 * y->naive_alarms / qn);
	k == K_OUTLIER ? pct(y->n - y->outlier_cp, y->n) : (void)printf(" – |");
	printf("\n");
}

int main(int argc, char **argv)
{
	long reps = argc > 1 ? strtol(argv[1], NULL, 10) : 100;
	unsigned long seed = argc > 2 ? strtoul(argv[2], NULL, 10) : 20261201;
	if (argc > 3)
		max_p_opt = strtod(argv[3], NULL);
	static struct tally tl[K_KINDS][2];
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, seed);
	for (long i = 0; i < reps; i++)
		replicate(tl, r);
	gsl_rng_free(r);
	printf("%ld replicates of %d queries x %d nights x %d restarts, seed %lu, max p %g; CoV "
	       "log-uniform 0.5-8%%\n\n",
	       reps, NQ, NN, NR, seed, max_p_opt);
	printf("| injected | CoV | series | CP at the event within 3 nights | CP by night 60 | "
	       "mean nights until CP | exit 1 on the event night | naive flags the event night | "
	       "false CPs /100 query-nights | false exit 1 /100 query-nights | naive false flags "
	       "/100 query-nights | outlier never a CP |\n|---|---|---|---|---|---|---|---|---|---|"
	       "---|---|\n");
	for (int k = 0; k < K_KINDS; k++)
		for (int b = 0; b < 2; b++)
			row(kind_name[k], b ? "2-8%" : "0.5-2%", &tl[k][b], (enum kind)k);
	return 0;
}
