/* SPDX-License-Identifier: MIT */
/* The check of a lent variance (stats/st_lend.h). */
#include "stats/st_lend.h"
#include <float.h>
#include <gsl/gsl_cdf.h>
#include <math.h>

static int usable(const struct st_prior *v)
{
	return v->df >= 1 && v->var > 0 && isfinite(v->var);
}

/* Per query, F = s²_own / s²_lent has the F(ν_own, ν_lent) distribution when both estimate the
 * same variance from independent data (Snedecor & Cochran, Statistical Methods, 8th ed., sec.
 * 6.12); its upper-tail p is that query's evidence that tonight is noisier. Fisher's method
 * combines k independent p values: -2 Σ ln p_i ~ χ²(2k) under H0 (R. A. Fisher, Statistical
 * Methods for Research Workers, 4th ed., 1932, sec. 21.1). The queries of one restart share it, so
 * their p values are positively dependent and the combination rejects more often than its level:
 * it errs towards refusing the loan, the safe side. */
void st_var_ratio_test(struct st_var_ratio *out, const struct st_prior *own,
		       const struct st_prior *lent, size_t m)
{
	double x = 0, log_ratio = 0;
	size_t k = 0;
	for (size_t i = 0; i < m; i++) {
		if (!usable(&own[i]) || !usable(&lent[i]))
			continue;
		double f = own[i].var / lent[i].var;
		double p = gsl_cdf_fdist_Q(f, own[i].df, lent[i].df);
		x += -2 * log(p > DBL_MIN ? p : DBL_MIN);
		log_ratio += log(f);
		k++;
	}
	out->queries = k;
	out->ratio = k ? exp(log_ratio / (double)k) : NAN;
	out->p = k ? gsl_cdf_chisq_Q(x, 2 * (double)k) : NAN;
}
