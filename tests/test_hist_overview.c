/* SPDX-License-Identifier: MIT */
/* What `history check` and `history report` put first: a store of 31 synthetic nights in two
 * series (hosts a and b, 22 queries, 7 restarts, 1% restart noise drawn with a fixed seed), with a
 * 15% step in a/Q5 from night 11, a 10% step in b/Q17 from night 21 and one 30% night in a/Q9
 * (night 16). By construction: a/Q5 has one change point at index 10 (night 10 the last result
 * before, night 11 the first after), b/Q17 one at index 20 (nights 20 and 21), a/Q9 none; the two
 * steps are the only changed cells, the more recent first; every build range names the nights'
 * build ids, server versions and binary hashes as written. */
#include "history/hist.h"
#include "reports/rpt_history.h"
#include "result/res.h"
#include "tests/harness.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NIGHTS 31

static char *tmp;
static char db_path[4200];

/* xorshift64* and Box-Muller: the same noise on every machine. */
static unsigned long long rng_state = 20261203ULL;

static double rng_uniform(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return ((double)((rng_state * 2685821657736338717ULL) >> 11) + 0.5) / 9007199254740992.0;
}

static double rng_normal(void)
{
	double u = rng_uniform(), v = rng_uniform();
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* The level of query q (0-based) of host h ('a' or 'b') on night n (1-based). */
static double level(char h, size_t q, int n)
{
	double m = 10.0 * (double)(q + 1);
	if (h == 'a' && q == 4 && n >= 11)
		m *= 1.15; /* step: a/Q5 from night 11 */
	if (h == 'b' && q == 16 && n >= 21)
		m *= 1.10; /* step: b/Q17 from night 21 */
	if (h == 'a' && q == 8 && n == 16)
		m *= 1.30; /* outlier: a/Q9 on night 16 */
	return m;
}

/* Night n of host h as a result file, stored with build id "h-NN", server version
 * "10.11.NN-MariaDB" and binary hash NN repeated. */
static int add_night(struct hist_store *st, char h, int n)
{
	struct res_file *res = NULL;
	struct errbuf err = {""};
	char path[4300], at[32], build[16], version[32], sha[65];
	if (res_file_read(&res, DBT3_SOURCE_DIR "/tests/data/seq_html_old.json", &err) < 0)
		return -1;
	snprintf(at, sizeof(at), "2026-11-%02dT01:00:00Z", n);
	res_set_string(&res->started_at, at);
	snprintf(at, sizeof(at), "2026-11-%02dT01:40:00Z", n);
	res_set_string(&res->finished_at, at);
	json_object_set_new(res->host, "name", json_string(h == 'a' ? "host-a" : "host-b"));
	snprintf(version, sizeof(version), "10.11.%02d-MariaDB", n);
	for (int i = 0; i < 32; i++) {
		sha[2 * i] = (char)('0' + n / 10 % 10);
		sha[2 * i + 1] = (char)('0' + n % 10);
	}
	sha[64] = '\0';
	json_object_set_new(res->server, "version", json_string(version));
	json_object_set_new(res->server, "binary_sha256", json_string(sha));
	for (size_t q = 0; q < res->n_queries; q++)
		for (size_t r = 0; r < res->queries[q].n_restarts; r++) {
			struct res_restart *rr = &res->queries[q].restarts[r];
			double m = level(h, q, n) * exp(0.01 * rng_normal());
			for (size_t k = 0; k < rr->n_measured; k++)
				rr->measured_ms[k] = m;
		}
	snprintf(path, sizeof(path), "%s/%c%02d.json", tmp, h, n);
	snprintf(build, sizeof(build), "%c-%02d", h, n);
	int rc = res_file_write(res, path, &err);
	res_file_free(res);
	long long id;
	enum hist_add_status status;
	if (rc == 0)
		rc = hist_store_add(st, path, build, NULL, &id, &status, &err);
	if (rc < 0)
		fprintf(stderr, "night %c%d: %s\n", h, n, err.msg);
	return rc;
}

/* The store, made once, and its check with the default options. */
static int checked(struct hist_check *out)
{
	static int made;
	struct hist_store *st = NULL;
	struct errbuf err = {""};
	struct hist_detect_opts o;
	if (hist_store_open(&st, db_path, &err) < 0)
		return -1;
	for (int n = 1; !made && n <= NIGHTS; n++)
		if (add_night(st, 'a', n) < 0 || add_night(st, 'b', n) < 0) {
			hist_store_close(st);
			return -1;
		}
	made = 1;
	hist_detect_opts_init(&o);
	int rc = hist_check_run(out, st, NULL, NULL, &o, &err);
	if (rc < 0)
		fprintf(stderr, "check: %s\n", err.msg);
	hist_store_close(st);
	return rc;
}

static const struct hist_check_series *series_of(const struct hist_check *c, const char *host)
{
	for (size_t s = 0; s < c->n; s++)
		if (!strcmp(c->series[s].s.info.host, host))
			return &c->series[s];
	return NULL;
}

static const char *cell_name(const struct hist_check *c, const struct rpt_hist_cell *cell,
			     char *buf, size_t n)
{
	const struct hist_check_series *cs = &c->series[cell->series];
	snprintf(buf, n, "%s/%s", cs->s.info.host, cs->s.qs[cell->query].query);
	return buf;
}

TH_TEST(hist_overview, both_steps_come_first)
{
	struct hist_check c;
	struct rpt_hist_cell *cells = NULL;
	struct rpt_hist_matrix m;
	size_t n = 0;
	char name[64];
	CU_ASSERT_EQUAL_FATAL(checked(&c), 0);
	CU_ASSERT_EQUAL_FATAL(c.n, 2);
	CU_ASSERT_EQUAL_FATAL(rpt_history_cells(&cells, &n, &c), 0);
	CU_ASSERT_EQUAL_FATAL(n, 44);
	/* the more recent step first, then the older one; nothing else changed (not the outlier) */
	CU_ASSERT_STRING_EQUAL(cell_name(&c, &cells[0], name, sizeof(name)), "host-b/Q17");
	CU_ASSERT_EQUAL(cells[0].rank, RPT_HIST_SLOWER);
	CU_ASSERT_EQUAL(cells[0].age, NIGHTS - 20);
	CU_ASSERT_STRING_EQUAL(cell_name(&c, &cells[1], name, sizeof(name)), "host-a/Q5");
	CU_ASSERT_EQUAL(cells[1].rank, RPT_HIST_SLOWER);
	CU_ASSERT_EQUAL(cells[1].age, NIGHTS - 10);
	for (size_t i = 2; i < n; i++) {
		if (RPT_HIST_CHANGED(cells[i].rank))
			fprintf(stderr, "also changed: %s\n", cell_name(&c, &cells[i], name, 64));
		CU_ASSERT_FALSE(RPT_HIST_CHANGED(cells[i].rank));
	}
	/* the matrix: rows Q17, Q5 first; columns b, a */
	CU_ASSERT_EQUAL_FATAL(rpt_history_matrix(&m, cells, n, &c), 0);
	CU_ASSERT_EQUAL(m.n_rows, 22);
	CU_ASSERT_EQUAL(m.n_cols, 2);
	CU_ASSERT_STRING_EQUAL(m.rows[0], "Q17");
	CU_ASSERT_STRING_EQUAL(m.rows[1], "Q5");
	CU_ASSERT_STRING_EQUAL(c.series[m.cols[0]].s.info.host, "host-b");
	CU_ASSERT_STRING_EQUAL(c.series[m.cols[1]].s.info.host, "host-a");
	rpt_history_matrix_release(&m);
	free(cells);
	hist_check_release(&c);
}

/* The change points of a query: exactly the indices expected. */
static const struct hist_query_check *query_check(const struct hist_check_series *cs,
						  const char *id, const struct hist_query_series **qs)
{
	long q = cs ? rpt_history_query_index(cs, id) : -1;
	if (q < 0)
		return NULL;
	*qs = &cs->s.qs[q];
	return &cs->checks[q];
}

TH_TEST(hist_overview, change_points_where_the_steps_are)
{
	struct hist_check c;
	const struct hist_query_series *qs;
	CU_ASSERT_EQUAL_FATAL(checked(&c), 0);
	const struct hist_check_series *a = series_of(&c, "host-a"), *b = series_of(&c, "host-b");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	const struct hist_query_check *k = query_check(a, "Q5", &qs);
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	CU_ASSERT_EQUAL(k->n_cps, 1);
	CU_ASSERT_EQUAL(k->cps[0].index, 10);
	CU_ASSERT_TRUE(k->cps[0].test.ratio > 1.13 && k->cps[0].test.ratio < 1.17);
	k = query_check(b, "Q17", &qs);
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	CU_ASSERT_EQUAL(k->n_cps, 1);
	CU_ASSERT_EQUAL(k->cps[0].index, 20);
	CU_ASSERT_TRUE(k->cps[0].test.ratio > 1.08 && k->cps[0].test.ratio < 1.12);
	/* the outlier night is no change point */
	k = query_check(a, "Q9", &qs);
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	CU_ASSERT_EQUAL(k->n_cps, 0);
	hist_check_release(&c);
}

/* One end of a build range as the JSON writes it. */
static void check_end(json_t *o, const char *host, int night)
{
	char build[16], at[32], version[32], sha[65];
	snprintf(build, sizeof(build), "%c-%02d", host[5], night);
	snprintf(at, sizeof(at), "2026-11-%02dT01:00:00Z", night);
	snprintf(version, sizeof(version), "10.11.%02d-MariaDB", night);
	for (int i = 0; i < 32; i++) {
		sha[2 * i] = (char)('0' + night / 10 % 10);
		sha[2 * i + 1] = (char)('0' + night % 10);
	}
	sha[64] = '\0';
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(o, "build_id")), build);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(o, "started_at")), at);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(o, "server_version")), version);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(o, "server_binary_sha256")), sha);
}

TH_TEST(hist_overview, build_ranges_name_the_nights_around_each_step)
{
	struct hist_check c;
	CU_ASSERT_EQUAL_FATAL(checked(&c), 0);
	json_t *j = rpt_history_json(&c), *q;
	size_t i, found = 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	json_array_foreach(json_object_get(j, "queries"), i, q)
	{
		const char *id = json_string_value(json_object_get(q, "id"));
		const char *sid = json_string_value(json_object_get(q, "series"));
		json_t *cps = json_object_get(q, "change_points");
		const char *host = NULL;
		for (size_t s = 0; s < c.n; s++)
			if (!strcmp(c.series[s].s.info.id, sid))
				host = c.series[s].s.info.host;
		int a5 = !strcmp(host, "host-a") && !strcmp(id, "Q5");
		int b17 = !strcmp(host, "host-b") && !strcmp(id, "Q17");
		CU_ASSERT_EQUAL(json_array_size(cps), (size_t)(a5 || b17));
		CU_ASSERT_EQUAL(json_is_true(json_object_get(q, "changed")), a5 || b17);
		if (!a5 && !b17)
			continue;
		found++;
		json_t *cp = json_array_get(cps, 0);
		check_end(json_object_get(cp, "last_before"), host, a5 ? 10 : 20);
		check_end(json_object_get(cp, "first_after"), host, a5 ? 11 : 21);
	}
	CU_ASSERT_EQUAL(found, 2);
	json_decref(j);
	hist_check_release(&c);
}

/* The Markdown of a CI comment: the two steps, the recent one first, then one line. */
TH_TEST(hist_overview, markdown_lists_the_steps_then_one_line)
{
	struct hist_check c;
	char *buf = NULL;
	size_t len = 0;
	CU_ASSERT_EQUAL_FATAL(checked(&c), 0);
	FILE *f = open_memstream(&buf, &len);
	struct errbuf err;
	CU_ASSERT_EQUAL(rpt_history_write(f, &c, RPT_MARKDOWN, &err), 0);
	fclose(f);
	const struct hist_check_series *a = series_of(&c, "host-a"), *b = series_of(&c, "host-b");
	char row_b[128], row_a[128];
	snprintf(row_b, sizeof(row_b), "\n| %s | Q17 | slower |", b->s.info.id);
	snprintf(row_a, sizeof(row_a), "\n| %s | Q5 | slower |", a->s.info.id);
	const char *pb = strstr(buf, row_b), *pa = strstr(buf, row_a);
	CU_ASSERT_PTR_NOT_NULL(pb);
	CU_ASSERT_PTR_NOT_NULL(pa);
	CU_ASSERT_TRUE(pb && pa && pb < pa);
	/* exactly two rows, then the line */
	size_t rows = 0;
	for (const char *p = buf; (p = strstr(p, "\n| ")); p++)
		rows++;
	CU_ASSERT_EQUAL(rows, 2 + 1); /* the header row too */
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "b-20 (2026-11-20T01:00:00Z, 10.11.20-MariaDB, "
					   "202020202020) &rarr; b-21 (2026-11-21T01:00:00Z, "
					   "10.11.21-MariaDB, 212121212121)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\nNothing else changed (42 other series \xc3\x97 "
					   "queries).\n"));
	free(buf);
	hist_check_release(&c);
}

/* The page: the overview's first rows are the two steps, each cell linking to its chart. */
TH_TEST(hist_overview, page_opens_on_both_steps)
{
	struct hist_check c;
	struct errbuf err = {""};
	char *buf = NULL, want[256];
	size_t len = 0;
	CU_ASSERT_EQUAL_FATAL(checked(&c), 0);
	FILE *f = open_memstream(&buf, &len);
	CU_ASSERT_EQUAL(rpt_html_write_history(f, &c, &err), 0);
	fclose(f);
	const struct hist_check_series *a = series_of(&c, "host-a"), *b = series_of(&c, "host-b");
	const char *body = strstr(buf, "<table class=\"overview\">");
	CU_ASSERT_PTR_NOT_NULL_FATAL(body);
	body = strstr(body, "<tbody>\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(body);
	snprintf(want, sizeof(want), "<tbody>\n<tr data-changed=\"1\"><th class=\"text\">Q17</th>");
	CU_ASSERT_EQUAL(strncmp(body, want, strlen(want)), 0);
	snprintf(want, sizeof(want), "<a href=\"#q-%s-Q17\"><span class=\"ratio slower\">",
		 b->s.info.id);
	const char *row2 = strstr(body + 8, "\n<tr ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(row2);
	CU_ASSERT_PTR_NOT_NULL(strstr(body, want));
	CU_ASSERT_TRUE(strstr(body, want) < row2);
	snprintf(want, sizeof(want), "\n<tr data-changed=\"1\"><th class=\"text\">Q5</th>");
	CU_ASSERT_EQUAL(strncmp(row2, want, strlen(want)), 0);
	snprintf(want, sizeof(want), "<a href=\"#q-%s-Q5\"><span class=\"ratio slower\">",
		 a->s.info.id);
	CU_ASSERT_PTR_NOT_NULL(strstr(row2, want));
	/* the third row is unchanged, and every chart's anchor is there */
	const char *row3 = strstr(row2 + 1, "\n<tr ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(row3);
	snprintf(want, sizeof(want), "\n<tr data-changed=\"0\">");
	CU_ASSERT_EQUAL(strncmp(row3, want, strlen(want)), 0);
	snprintf(want, sizeof(want), "<figure class=\"small verdict-");
	size_t figs = 0;
	for (const char *p = buf; (p = strstr(p, want)); p++)
		figs++;
	CU_ASSERT_EQUAL(figs, 44);
	free(buf);
	hist_check_release(&c);
}

int main(int argc, char **argv)
{
	tmp = th_tempdir("hist_overview");
	snprintf(db_path, sizeof(db_path), "%s/history.sqlite", tmp);
	int rc = th_run("hist_overview", th_cases(), argc, argv);
	th_rmtree(tmp);
	free(tmp);
	return rc;
}
