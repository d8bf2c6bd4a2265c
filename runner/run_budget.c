/* SPDX-License-Identifier: MIT */
/* Planning a run inside a time budget: the rules of runner/run_budget.h. */
#include "runner/run_budget.h"
#include "base/util.h"
#include "runner/run_plan.h"
#include <gsl/gsl_cdf.h>
#include <math.h>

int run_budget_on(const struct run_plan *p)
{
	return p->budget_s > 0;
}

double run_budget_total_s(const struct run_plan *p)
{
	return p->budget_s;
}

double run_budget_left_s(const struct run_plan *p, double elapsed_s)
{
	return p->budget_s - elapsed_s;
}

double run_warmup_tol(double cov_within)
{
	double t = RUN_WARMUP_Z * cov_within;
	return isfinite(t) && t > RUN_WARMUP_TOL_MIN ? t : RUN_WARMUP_TOL_MIN;
}

static double mean_of(const double *x, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

int run_warmup_steady(const double *x, size_t n, double tol)
{
	const size_t w = RUN_WARMUP_WINDOW;
	if (n < 2 * w)
		return 0;
	double last = mean_of(x + n - w, w), before = mean_of(x + n - 2 * w, w);
	if (!(last > 0) || !(before > 0))
		return 0;
	return fabs(log(last / before)) <= tol;
}

int run_warmup_over_pace(double now_s, double last_s, int runs, double deadline_s)
{
	return now_s + (1.0 + (runs > 0 ? runs : 0)) * (last_s > 0 ? last_s : 0) > deadline_s;
}

static int usable_cost(double c)
{
	return c > 0 && isfinite(c);
}

void run_pace_shares(const double *cost, int n, double *cum)
{
	double known = 0, sum = 0;
	int n_known = 0;
	for (int i = 0; i < n; i++)
		if (usable_cost(cost[i])) {
			known += cost[i];
			n_known++;
		}
	double fill = n_known ? known / n_known : 1.0;
	for (int i = 0; i < n; i++) {
		sum += usable_cost(cost[i]) ? cost[i] : fill;
		cum[i] = sum;
	}
	for (int i = 0; i < n; i++)
		cum[i] = i == n - 1 ? 1.0 : cum[i] / sum;
}

/* (var_between + var_within / n) (c_fixed + n c_exec): variance times cost per restart. */
static double alloc_product(double n, double c_fixed, double c_exec, double vw, double vb)
{
	return (vb + vw / n) * (c_fixed + n * c_exec);
}

int run_budget_runs(double c_fixed, double c_exec, double var_within, double var_between, int nmin,
		    int nmax)
{
	if (!(c_fixed >= 0) || !(c_exec > 0) || nmin < 1 || nmax < nmin || !(var_within >= 0))
		return -1;
	if (!(var_between > 0))
		return nmax;
	if (var_within == 0)
		return nmin;
	double opt = sqrt(c_fixed / c_exec * var_within / var_between);
	if (opt <= nmin)
		return nmin;
	if (opt >= nmax)
		return nmax;
	double lo = floor(opt), hi = ceil(opt);
	if (lo < nmin)
		return (int)hi;
	return alloc_product(lo, c_fixed, c_exec, var_within, var_between) <=
		       alloc_product(hi, c_fixed, c_exec, var_within, var_between)
		   ? (int)lo
		   : (int)hi;
}

double run_budget_restart_cost(double startstop_s, const struct run_qcost *q, size_t n)
{
	double s = startstop_s;
	for (size_t i = 0; i < n; i++)
		if (q[i].active && isfinite(q[i].exec_s))
			s += (double)(q[i].warmup + q[i].runs) * q[i].exec_s;
	return s;
}

int run_budget_fits(double elapsed_s, double next_s, double budget_s)
{
	return elapsed_s + next_s <= budget_s;
}

const char *run_budget_stop(const struct run_budget_state *s, int *paced)
{
	int full = run_budget_fits(s->elapsed_s, s->full_s, s->budget_s);
	if (paced)
		*paced = 0;
	if (s->undecided == 0)
		return "all-decided";
	if (s->pairs < s->min_pairs)
		return NULL;
	if (!full && !run_budget_fits(s->elapsed_s, s->least_s, s->budget_s))
		return "budget";
	if (s->horizon && (size_t)s->pairs >= s->horizon)
		return "max-pairs"; /* the last look spent what alpha was left */
	if (s->pairs >= RUN_BUDGET_MAX_PAIRS)
		return "max-pairs";
	if (paced)
		*paced = !full;
	return NULL;
}

const char *run_decision_name(enum run_decision d)
{
	static const char *const names[] = {[RUN_DECIDED_UNCHANGED] = "unchanged",
					    [RUN_DECIDED_REGRESSION] = "regression",
					    [RUN_DECIDED_IMPROVEMENT] = "improvement",
					    [RUN_DECIDED_PRECISE] = "precise"};
	return UTIL_ENUM_NAME(names, d, "undecided");
}

double run_budget_look_alpha(double alpha, size_t k, size_t m)
{
	double kk = (double)k;
	return alpha * 6.0 / (M_PI * M_PI * kk * kk) / (double)(m ? m : 1);
}

/* Mean and sample sd of x[0..n-1] (n >= 2). */
static void mean_sd(const double *x, size_t n, double *mean, double *sd)
{
	double m = mean_of(x, n), ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	*sd = sqrt(ss / (double)(n - 1));
}

enum run_decision run_budget_decide_paired(const double *a, const double *b, size_t k,
					   double detect, double alpha, size_t m,
					   double *out_ratio, double *out_lo, double *out_hi)
{
	double d[1024], mean, sd;
	if (out_ratio)
		*out_ratio = NAN;
	if (out_lo)
		*out_lo = NAN;
	if (out_hi)
		*out_hi = NAN;
	if (k < 3 || k > sizeof(d) / sizeof(d[0]))
		return RUN_UNDECIDED;
	for (size_t i = 0; i < k; i++) {
		if (!(a[i] > 0) || !(b[i] > 0))
			return RUN_UNDECIDED;
		d[i] = log(b[i]) - log(a[i]);
	}
	mean_sd(d, k, &mean, &sd);
	double half = gsl_cdf_tdist_Qinv(run_budget_look_alpha(alpha, k, m) / 2, (double)(k - 1)) *
		      sd / sqrt((double)k);
	double lo = mean - half, hi = mean + half, bound = log1p(detect);
	if (out_ratio)
		*out_ratio = exp(mean);
	if (out_lo)
		*out_lo = exp(lo);
	if (out_hi)
		*out_hi = exp(hi);
	if (lo > 0)
		return RUN_DECIDED_REGRESSION;
	if (hi < 0)
		return RUN_DECIDED_IMPROVEMENT;
	if (lo >= -bound && hi <= bound)
		return RUN_DECIDED_UNCHANGED;
	return RUN_UNDECIDED;
}

enum run_decision run_budget_decide_single(const double *means, size_t k, double detect,
					   double alpha, size_t m)
{
	double l[1024], mean, sd;
	if (k < 3 || k > sizeof(l) / sizeof(l[0]))
		return RUN_UNDECIDED;
	for (size_t i = 0; i < k; i++) {
		if (!(means[i] > 0))
			return RUN_UNDECIDED;
		l[i] = log(means[i]);
	}
	mean_sd(l, k, &mean, &sd);
	double se = sd / sqrt((double)k);
	double need = (gsl_cdf_tdist_Qinv(alpha / (2.0 * (double)(m ? m : 1)), (double)(k - 1)) +
		       gsl_cdf_ugaussian_Pinv(0.8)) *
		      M_SQRT2 * se;
	return need <= log1p(detect) ? RUN_DECIDED_PRECISE : RUN_UNDECIDED;
}
