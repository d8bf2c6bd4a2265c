/* SPDX-License-Identifier: MIT */
/* What a time verdict costs on this host (stats/st_cost.h). */
#include "stats/st_cost.h"
#include "stats/st_restart_summary.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int st_cost_noise(struct st_cost_noise *out, const struct res_file *res, struct errbuf *err)
{
	size_t m = res->n_queries ? res->n_queries : 1;
	double *sd = malloc(m * sizeof(double)), *k = malloc(m * sizeof(double));
	memset(out, 0, sizeof(*out));
	out->sd = out->sd_lo = out->sd_hi = NAN;
	if (!sd || !k) {
		free(sd);
		free(k);
		return errbuf_set(err, "out of memory");
	}
	size_t n = 0;
	for (size_t i = 0; i < res->n_queries; i++) {
		struct st_restart_summary g;
		if (st_restart_summary_compute(&g, &res->queries[i], 0.05, err) < 0) {
			st_restart_summary_release(&g);
			free(sd);
			free(k);
			return -1;
		}
		if (g.have_noise && isfinite(g.noise.sd_log)) {
			sd[n] = g.noise.sd_log;
			k[n++] = (double)g.n_ok;
		}
		st_restart_summary_release(&g);
	}
	if (n) {
		out->n_queries = n;
		out->sd = median(sd, n);
		out->k = (size_t)floor(median(k, n));
		double ucb;
		st_sd_ci(&out->sd_lo, &out->sd_hi, &ucb, out->sd, (double)out->k - 1, 0.95);
	}
	free(sd);
	free(k);
	return 0;
}

int st_cost_host_line(char *out, size_t len, const struct res_file *res, struct errbuf *err)
{
	struct res_noise_host h;
	struct st_cost_noise nz;
	if (len)
		out[0] = '\0';
	if (res_noise_host(&h, res) < 0)
		return errbuf_set(err, "out of memory");
	if (!h.causes || len == 0)
		return 0;
	if (st_cost_noise(&nz, res, err) < 0)
		return -1;
	int k = res_noise_host_text(out, len, &h);
	size_t at = strlen(out);
	if (k && nz.n_queries && at < len)
		snprintf(out + at, len - at, "; restart noise here is about %.0f%%", 100 * nz.sd);
	return 1;
}
