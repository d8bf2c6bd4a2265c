/* SPDX-License-Identifier: MIT */
/* history check: every query series of every (selected) series through hist_check_query. */
#include "history/hist.h"
#include <stdlib.h>
#include <string.h>

static int check_series(struct hist_check_series *cs, const struct hist_detect_opts *o,
			struct errbuf *err)
{
	size_t nq = cs->s.n_qs;
	cs->checks = calloc(nq + 1, sizeof(*cs->checks));
	if (!cs->checks)
		return errbuf_set(err, "out of memory");
	cs->verdict_alpha = o->alpha / (double)(nq ? nq : 1);
	for (size_t q = 0; q < nq; q++) {
		const struct hist_query_series *qs = &cs->s.qs[q];
		struct hist_pt *pts = calloc(qs->n + 1, sizeof(*pts));
		if (!pts)
			return errbuf_set(err, "out of memory");
		for (size_t i = 0; i < qs->n; i++)
			pts[i] = (struct hist_pt){qs->pts[i].means, qs->pts[i].n};
		/* a query missing from the newest result has no newest verdict */
		int has_newest = qs->n && qs->pts[qs->n - 1].result_id == cs->s.newest_id;
		int rc = hist_check_query(&cs->checks[q], pts, qs->n, cs->verdict_alpha, o, err);
		free(pts);
		if (rc < 0)
			return -1;
		if (!has_newest) {
			cs->checks[q].verdict = HIST_INCONCLUSIVE;
			cs->checks[q].newest.kind = ST_TEST_NONE;
			cs->checks[q].starts_regression = 0;
		}
	}
	return 0;
}

int hist_check_run(struct hist_check *out, struct hist_store *st, const char *filter,
		   const char *since, const struct hist_detect_opts *o, struct errbuf *err)
{
	struct hist_series_info *info = NULL;
	size_t n = 0;
	memset(out, 0, sizeof(*out));
	out->opts = *o;
	if (hist_store_series(&info, &n, st, filter, err) < 0)
		return -1;
	if (filter && n == 0) {
		hist_series_info_free(info, n);
		errbuf_set(err, "unknown series '%s' (see 'dbt3stab history list')", filter);
		return HIST_E_UNKNOWN;
	}
	out->series = calloc(n + 1, sizeof(*out->series));
	int rc = out->series ? 0 : errbuf_set(err, "out of memory");
	for (size_t i = 0; rc == 0 && i < n; i++) {
		rc = hist_series_load(&out->series[i].s, st, &info[i], since, err);
		if (rc == 0) {
			out->n = i + 1;
			rc = check_series(&out->series[i], o, err);
		}
		for (size_t q = 0; rc == 0 && q < out->series[i].s.n_qs; q++)
			out->any_starts_regression |= out->series[i].checks[q].starts_regression;
	}
	/* the series' descriptions stay with the check; the copies in s.info point to them */
	for (size_t i = 0; rc == 0 && i < n; i++) {
		out->series[i].s.info = info[i];
	}
	if (rc == 0) {
		free(info);
		return 0;
	}
	hist_series_info_free(info, n);
	for (size_t i = 0; out->series && i < out->n; i++)
		memset(&out->series[i].s.info, 0, sizeof(out->series[i].s.info));
	hist_check_release(out);
	return -1;
}

void hist_check_release(struct hist_check *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		struct hist_check_series *cs = &c->series[i];
		for (size_t q = 0; cs->checks && q < cs->s.n_qs; q++)
			hist_query_check_release(&cs->checks[q]);
		free(cs->checks);
		free(cs->s.info.host);
		free(cs->s.info.fingerprint);
		free(cs->s.info.flavour);
		free(cs->s.info.protocol);
		free(cs->s.info.first_at);
		free(cs->s.info.last_at);
		hist_series_release(&cs->s);
	}
	free(c->series);
	memset(c, 0, sizeof(*c));
}
