/* SPDX-License-Identifier: MIT */
/* compare --adjust-memory: each query's test adjusted for the memory-contention probe of its
 * restarts (docs/statistics.md, "Adjusting for memory contention"). */
#include "reports/rpt.h"
#include "stats/st_adjust.h"
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

/* The covariate of the restart with index idx, NaN when it has none. */
static double cov_at(const double *cov, size_t n, int idx)
{
	return idx >= 0 && (size_t)idx < n ? cov[idx] : NAN;
}

/* One side's restarts that have a covariate. */
static size_t adjusted_side(double *y, double *x, const struct rpt_side *s, const double *cov,
			    size_t ncov)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_used; i++) {
		double v = cov_at(cov, ncov, s->indices[i]);
		if (isfinite(v)) {
			y[n] = s->means_ms[i];
			x[n++] = v;
		}
	}
	return n;
}

/* The adjusted test of q into *t when q has enough restarts with a covariate (1), else 0
 * (t untouched); -1 on out of memory. */
static int adjust_query(struct st_test *t, const struct rpt_query *q, const double *co, size_t nco,
			const double *cn, size_t ncn, const struct st_compare_opts *so)
{
	size_t room = (q->old.n_used > q->new.n_used ? q->old.n_used : q->new.n_used) + 1;
	double *buf = malloc(4 * room * sizeof(double));
	double *a = buf, *xa = buf + room, *b = buf + 2 * room, *xb = buf + 3 * room;
	struct st_test adj;
	struct errbuf err;
	int ok = 0;
	if (!buf)
		return -1;
	size_t na = adjusted_side(a, xa, &q->old, co, nco);
	size_t nb = adjusted_side(b, xb, &q->new, cn, ncn);
	ok = st_compare_adjusted(&adj, a, xa, na, b, xb, nb, so, &err) == 0;
	free(buf);
	if (ok)
		*t = adj;
	return ok;
}

int rpt_adjusted_tests(struct rpt_compare *c, struct st_test *tests, const size_t *map, size_t m,
		       const struct st_compare_opts *so, struct errbuf *err)
{
	double *co = NULL, *cn = NULL, *ratios = calloc(m ? m : 1, sizeof(double));
	size_t nco = 0, ncn = 0;
	int rc = -1, wo = ratios ? res_interf_probe_covariate(c->old.res, &co, &nco) : -1;
	int wn = wo >= 0 ? res_interf_probe_covariate(c->new.res, &cn, &ncn) : -1;
	c->n_adjusted = 0;
	c->adjust_sd_ratio = NAN;
	if (wo < 0 || wn < 0) {
		errbuf_set(err, "out of memory");
		goto out;
	}
	if (wo == 0 || wn == 0) {
		errbuf_set(err,
			   "'%s' has no memory probes (run writes them since the probe "
			   "came, docs/run.md): --adjust-memory cannot adjust",
			   wo == 0 ? c->old.path : c->new.path);
		goto out;
	}
	for (size_t j = 0; j < m; j++) {
		int a = adjust_query(&tests[j], &c->queries[map[j]], co, nco, cn, ncn, so);
		if (a < 0) {
			errbuf_set(err, "out of memory");
			goto out;
		}
		if (a && isfinite(tests[j].adj_sd_ratio))
			ratios[c->n_adjusted] = tests[j].adj_sd_ratio;
		c->n_adjusted += (size_t)a;
	}
	if (c->n_adjusted) {
		gsl_sort(ratios, 1, c->n_adjusted);
		c->adjust_sd_ratio = gsl_stats_median_from_sorted_data(ratios, 1, c->n_adjusted);
	}
	rc = 0;
out:
	free(co);
	free(cn);
	free(ratios);
	return rc;
}

void rpt_adjust_text(char *buf, size_t size, const struct rpt_compare *c)
{
	snprintf(
	    buf, size,
	    "%zu of %zu queries for memory contention (two-sample ANCOVA on the mean log probe "
	    "after each restart's queries, one df less; never paired: the probe carries the "
	    "host's state a pair shares); residual sd a median %.2f of the unadjusted",
	    c->n_adjusted, c->n_tested, c->adjust_sd_ratio);
}

void rpt_adjust_write(FILE *f, const struct rpt_compare *c, int md)
{
	char text[320];
	if (!c->opts.adjust_memory)
		return;
	rpt_adjust_text(text, sizeof(text), c);
	fprintf(f, "%sadjusted: %s\n", md ? "- " : "", text);
}

void rpt_adjust_json(json_t *report, const struct rpt_compare *c)
{
	if (!c->opts.adjust_memory) {
		json_object_set_new(report, "adjustment", json_null());
		return;
	}
	json_object_set_new(report, "adjustment",
			    json_pack("{s:s, s:s, s:I, s:I, s:o}", "covariate",
				      "mean log memory_probe_after_ns of the restart", "model",
				      "ancova", "queries", (json_int_t)c->n_adjusted, "tested",
				      (json_int_t)c->n_tested, "median_sd_ratio",
				      res_json_num(c->adjust_sd_ratio)));
}
