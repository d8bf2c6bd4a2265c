/* SPDX-License-Identifier: MIT */
/* Whether a baseline's restart variance may be lent to tonight's sequential test: tonight's own
 * variances against the lent ones over the queries (docs/statistics.md, "A variance borrowed
 * from a baseline"). */
#ifndef DBT3_ST_LEND_H
#define DBT3_ST_LEND_H
#include "stats/st.h"
#include <stddef.h>

/* The check over the queries that have both variances. */
struct st_var_ratio {
	size_t queries; /* queries with a variance of their own (df >= 1) and a lent one */
	double ratio;	/* geometric mean over them of own / lent variance (NaN: none) */
	double p;	/* one-sided: tonight noisier than the lent variance says (NaN: none) */
};

/* own[i] and lent[i]: tonight's variance of query i's statistic and the variance lent to it, each
 * on its df; a query with df < 1 or a variance not > 0 on either side is left out. p combines
 * the queries' one-sided F tests (own / lent in the upper tail of F(df own, df lent)) by Fisher's
 * method. */
void st_var_ratio_test(struct st_var_ratio *out, const struct st_prior *own,
		       const struct st_prior *lent, size_t m);

#endif
