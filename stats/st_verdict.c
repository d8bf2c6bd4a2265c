/* SPDX-License-Identifier: MIT */
/* Multiplicity, verdicts and the overall ratio, from the tests of stats/st.c. */
#include "stats/st.h"
#include "stats/st_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct pidx {
	double p;
	size_t i;
};

static int pidx_cmp(const void *x, const void *y)
{
	const struct pidx *a = x, *b = y;
	return a->p < b->p ? -1 : a->p > b->p ? 1 : (a->i > b->i) - (a->i < b->i);
}

/* Holm (1979, Scand. J. Statist. 6:65-70) step-down: with p_(1) <= ... <= p_(m),
 * p~_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)). Benjamini & Hochberg (1995, JRSS B 57:289-300)
 * step-up: p~_(i) = min_{j >= i} min(1, m p_(j) / j). Both as R's p.adjust (stats package). */
void st_p_adjust(double *out, const double *p, size_t m, enum st_correction corr)
{
	struct pidx *v = malloc((m ? m : 1) * sizeof(*v));
	size_t n = 0;

	if (!v) { /* cannot sort: Bonferroni needs no sort and is never smaller than Holm or BH */
		size_t k = 0;
		for (size_t i = 0; i < m; i++)
			k += !isnan(p[i]);
		for (size_t i = 0; i < m; i++)
			out[i] = isnan(p[i]) ? NAN : fmin(1, p[i] * (corr == ST_CORR_NONE ? 1 : k));
		return;
	}
	for (size_t i = 0; i < m; i++)
		if (!isnan(p[i]))
			v[n++] = (struct pidx){p[i], i};
	for (size_t i = 0; i < m; i++)
		if (isnan(p[i]))
			out[i] = NAN;
	qsort(v, n, sizeof(*v), pidx_cmp);
	if (corr == ST_CORR_HOLM) {
		double run = 0;
		for (size_t j = 0; j < n; j++) {
			double q = fmin(1, (double)(n - j) * v[j].p);
			run = fmax(run, q);
			out[v[j].i] = run;
		}
	} else if (corr == ST_CORR_BH) {
		double run = 1;
		for (size_t j = n; j-- > 0;) {
			double q = fmin(1, (double)n * v[j].p / (double)(j + 1));
			run = fmin(run, q);
			out[v[j].i] = run;
		}
	} else {
		for (size_t j = 0; j < n; j++)
			out[v[j].i] = v[j].p;
	}
	free(v);
}

/* Significance after correction AND a practically relevant size: |log ratio| >= log(1 + e). */
enum st_verdict st_verdict_of(const struct st_test *t, double p_adj, double alpha,
			      double min_effect, enum st_alternative alt)
{
	if (t->kind == ST_TEST_NONE || isnan(p_adj))
		return ST_VERDICT_INCONCLUSIVE;
	if (!(p_adj < alpha))
		return ST_VERDICT_UNCHANGED;
	if (t->diff >= log1p(min_effect) && t->diff > 0)
		return ST_VERDICT_REGRESSION;
	if (alt == ST_TWO_SIDED && t->diff <= -log1p(min_effect) && t->diff < 0)
		return ST_VERDICT_IMPROVEMENT;
	return ST_VERDICT_UNCHANGED;
}

/* Equivalence by confidence-interval inclusion (Westlake 1976, Biometrics 32:741-744; the
 * interval form of Schuirmann's 1987 two one-sided tests, J Pharmacokinet Biopharm 15:657-680,
 * here with the two-sided 1 - alpha CI, which is conservative): no change of min_effect when
 * the CI of the ratio lies inside [1/(1+e), 1+e] (symmetric on the log scale). */
int st_ci_rules_out(const struct st_test *t, double min_effect)
{
	double hi = 1 + min_effect;
	if (t->kind == ST_TEST_NONE || !isfinite(t->ci_lo) || !isfinite(t->ci_hi))
		return 0;
	return t->ci_lo >= 1 / hi && t->ci_hi <= hi;
}

/* TOST decision (Schuirmann 1987): both one-sided tests reject at alpha. */
int st_tost_rules_out(const struct st_test *t, double alpha)
{
	return t->kind != ST_TEST_NONE && t->p_tost < alpha;
}

/* Simultaneous CIs by Bonferroni (Dunn 1961, JASA 56:52-64): each of the m intervals at level
 * 1 - alpha/m, so all m cover together with probability >= 1 - alpha. Holm rejects whenever the
 * Bonferroni interval excludes the null, so a flagged query's simultaneous CI may still touch
 * 1 but an interval that excludes 1 (two-sided test) is always flagged or beyond min-effect. */
static void simultaneous_ci(struct st_test *tests, size_t m, double alpha, enum st_correction c)
{
	size_t k = 0;
	for (size_t i = 0; i < m; i++)
		k += tests[i].kind != ST_TEST_NONE;
	for (size_t i = 0; i < m; i++) {
		struct st_test *t = &tests[i];
		double a = c == ST_CORR_NONE || k == 0 ? alpha : alpha / (double)k, q;
		if (t->kind == ST_TEST_NONE) {
			t->ci_sim_lo = t->ci_sim_hi = NAN;
			continue;
		}
		q = st_t_quantile(1 - a / 2, t->df);
		t->ci_sim_lo = exp(t->diff - q * t->se);
		t->ci_sim_hi = exp(t->diff + q * t->se);
	}
}

/* Regressions and improvements as two families when one-sided: the regression test spends all
 * of alpha on "slower" (Holm over the p_greater), and improvements are reported from their own
 * Holm family over the p_less, so counting them costs the regressions nothing. Without the
 * min-effect test the point estimate must also reach min-effect (the "significant and at least
 * min-effect" rule, e.g. the practical-significance filter of Lakens 2017, Soc Psychol Personal
 * Sci 8:355-362, discusses this combination). */
size_t st_decide_ext(enum st_verdict *out_verdict, double *out_padj, double *out_padj_impr,
		     struct st_test *tests, size_t m, const struct st_decide_opts *o)
{
	double buf[3 * 64], *p = m <= 64 ? buf : malloc(3 * m * sizeof(double)), *pi, *adj_i;
	double mu = log1p(o->min_effect);
	size_t nreg = 0;
	if (!p) { /* cannot allocate (more than 64 queries): nothing is decided */
		for (size_t i = 0; i < m; i++) {
			out_verdict[i] = ST_VERDICT_INCONCLUSIVE;
			out_padj[i] = NAN;
			if (out_padj_impr)
				out_padj_impr[i] = NAN;
		}
		return 0;
	}
	pi = p + m;
	adj_i = pi + m;
	for (size_t i = 0; i < m; i++) {
		int none = tests[i].kind == ST_TEST_NONE;
		p[i] = none ? NAN : tests[i].p;
		pi[i] = none ? NAN : o->alt == ST_GREATER ? tests[i].p_less : tests[i].p;
	}
	st_p_adjust(out_padj, p, m, o->corr);
	if (o->alt == ST_GREATER)
		st_p_adjust(adj_i, pi, m, o->corr);
	else
		memcpy(adj_i, out_padj, m * sizeof(double));
	for (size_t i = 0; i < m; i++) {
		const struct st_test *t = &tests[i];
		int big_up = o->min_effect_test || t->diff >= mu;
		int big_down = o->min_effect_test || t->diff <= -mu;
		if (t->kind == ST_TEST_NONE)
			out_verdict[i] = ST_VERDICT_INCONCLUSIVE;
		else if (out_padj[i] < o->alpha && t->diff > 0 && big_up)
			out_verdict[i] = ST_VERDICT_REGRESSION;
		else if (adj_i[i] < o->alpha && t->diff < 0 && big_down)
			out_verdict[i] = ST_VERDICT_IMPROVEMENT;
		else
			out_verdict[i] = ST_VERDICT_UNCHANGED;
		nreg += out_verdict[i] == ST_VERDICT_REGRESSION;
	}
	if (out_padj_impr)
		memcpy(out_padj_impr, adj_i, m * sizeof(double));
	simultaneous_ci(tests, m, o->alpha, o->corr);
	if (p != buf)
		free(p);
	return nreg;
}

/* Per restart g_r = (1/nq) sum_q log x[r,q]: the log of that restart's geometric mean over all
 * queries. Restarts are the independent units, so a Welch test on the g_r (Welch 1947) keeps any
 * correlation between queries of one restart; exp(mean g_b - mean g_a) is the ratio of the
 * overall geometric means. */
int st_overall_by_restart(struct st_overall *out, const double *a, size_t na, const double *b,
			  size_t nb, size_t nq, double alpha, struct errbuf *err)
{
	double *g;
	size_t ka = 0, kb = 0;
	struct st_sample sa, sb;
	struct st_test t;
	struct st_compare_opts o;
	int rc;

	memset(out, 0, sizeof(*out));
	if (nq == 0)
		return errbuf_set(err, "no queries"), ST_ENODATA;
	g = malloc((na + nb + 1) * sizeof(double));
	if (!g)
		return errbuf_set(err, "out of memory"), ST_EINVAL;
	for (int side = 0; side < 2; side++) {
		const double *x = side ? b : a;
		size_t nr = side ? nb : na, *k = side ? &kb : &ka;
		double *dst = side ? g + ka : g;
		for (size_t r = 0; r < nr; r++) {
			double s = 0;
			if (!st_valid_times(x + r * nq, nq))
				continue;
			for (size_t q = 0; q < nq; q++)
				s += log(x[r * nq + q]);
			dst[(*k)++] = exp(s / (double)nq);
		}
	}
	if (ka < 2 || kb < 2) {
		free(g);
		return errbuf_set(err, "fewer than 2 complete restarts on a side"), ST_ENODATA;
	}
	st_compare_opts_init(&o);
	o.alpha = alpha;
	rc = st_sample_init(&sa, g, ka, err);
	if (rc == 0)
		rc = st_sample_init(&sb, g + ka, kb, err);
	if (rc == 0)
		rc = st_compare(&t, &sa, &sb, &o, err);
	free(g);
	if (rc)
		return rc;
	out->kind = ST_OVERALL_BY_RESTART;
	out->n_queries = nq;
	out->diff = t.diff;
	out->ratio = t.ratio;
	out->se = t.se;
	out->df = t.df;
	out->t = t.t;
	out->p = t.p;
	out->ci_lo = t.ci_lo;
	out->ci_hi = t.ci_hi;
	return 0;
}

/* Mean of m independent log ratios: diff = (1/m) sum d_q, se^2 = (1/m^2) sum se_q^2, df by
 * Welch-Satterthwaite: (sum se_q^2)^2 / sum (se_q^4 / df_q) (Satterthwaite 1946). */
int st_overall_from_tests(struct st_overall *out, const struct st_test *tests, size_t m,
			  double alpha, struct errbuf *err)
{
	double sd = 0, sv = 0, sv2 = 0, q;
	size_t k = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < m; i++) {
		const struct st_test *t = &tests[i];
		double v;
		if (t->kind == ST_TEST_NONE || !isfinite(t->se))
			continue;
		v = t->se * t->se;
		sd += t->diff;
		sv += v;
		if (isfinite(t->df) && t->df > 0)
			sv2 += v * v / t->df;
		k++;
	}
	if (k == 0)
		return errbuf_set(err, "no query was tested"), ST_ENODATA;
	out->kind = ST_OVERALL_INDEPENDENT;
	out->n_queries = k;
	out->diff = sd / (double)k;
	out->ratio = exp(out->diff);
	out->se = sqrt(sv) / (double)k;
	out->df = sv2 > 0 ? sv * sv / sv2 : INFINITY;
	if (out->se > 0) {
		out->t = out->diff / out->se;
		out->p = fmin(1, 2 * st_t_upper(fabs(out->t), out->df));
	} else {
		out->t = out->diff == 0 ? 0 : copysign(INFINITY, out->diff);
		out->p = out->diff == 0 ? 1 : 0;
	}
	q = st_t_quantile(1 - alpha / 2, out->df);
	out->ci_lo = exp(out->diff - q * out->se);
	out->ci_hi = exp(out->diff + q * out->se);
	return 0;
}
