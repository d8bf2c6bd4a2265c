/* SPDX-License-Identifier: MIT */
/* The compare and summary models: restart means per query, tests, corrections, verdicts. */
#include "base/util.h"
#include "reports/rpt.h"
#include "reports/rpt_plan.h"
#include "reports/rpt_trace.h"
#include "stats/st_restart_summary.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const verdict_names[RPT_N_VERDICTS] = {
    "unchanged", "improvement", "inconclusive", "regression", "wrong-result"};

const char *rpt_verdict_name(enum rpt_verdict v)
{
	return (unsigned)v < RPT_N_VERDICTS ? verdict_names[v] : "unknown";
}

const char *rpt_test_name(enum st_test_kind k)
{
	static const char *const names[] = {[ST_TEST_WELCH] = "welch",
					    [ST_TEST_POOLED] = "pooled",
					    [ST_TEST_BASELINE] = "pooled+baseline",
					    [ST_TEST_MODERATED] = "moderated",
					    [ST_TEST_PAIRED] = "paired",
					    [ST_TEST_ADJUSTED] = "adjusted",
					    [ST_TEST_PAIRED_ADJUSTED] = "paired+adjusted"};
	return UTIL_ENUM_NAME(names, k, "none");
}

void rpt_compare_opts_init(struct rpt_compare_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = 0.05;
	o->min_effect = 0.02;
	o->correction = ST_CORR_HOLM;
	o->method = ST_METHOD_AUTO;
	o->alt = ST_GREATER;
}

void rpt_summary_opts_init(struct rpt_summary_opts *o)
{
	struct rpt_compare_opts c;
	rpt_compare_opts_init(&c);
	memset(o, 0, sizeof(*o));
	o->detect = 0.03;
	o->power = 0.8;
	o->max_restarts = 100;
	rpt_summary_opts_take(o, &c);
}

void rpt_summary_opts_take(struct rpt_summary_opts *o, const struct rpt_compare_opts *c)
{
	o->alpha = c->alpha;
	o->min_effect = c->min_effect;
	o->correction = c->correction;
	o->method = c->method;
	o->alt = c->alt;
	o->min_effect_test = c->min_effect_test;
}

/* ---- comparability ---- */

static int add_warning(struct rpt_compare *c, const char *fmt, ...) UTIL_PRINTF(2, 3);

static int add_warning(struct rpt_compare *c, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	char **w = realloc(c->warnings, (c->n_warnings + 1) * sizeof(*w));
	if (!w) {
		free(msg);
		return -1;
	}
	c->warnings = w;
	c->warnings[c->n_warnings++] = msg;
	return 0;
}

/* One difference: an error without force, a warning with it. */
static int differs(int force, struct rpt_compare *c, struct errbuf *err,
		   const struct rpt_file_info *a, const struct rpt_file_info *b, const char *what)
{
	if (force) {
		if (c && add_warning(c, "'%s' and '%s' are not comparable: %s (compared anyway)",
				     a->path, b->path, what) < 0)
			return errbuf_set(err, "out of memory");
		return 0;
	}
	return errbuf_set(err, "'%s' and '%s' are not comparable: %s (--force compares anyway)",
			  a->path, b->path, what);
}

int rpt_comparable(const struct rpt_file_info *a, const struct rpt_file_info *b, int force,
		   struct rpt_compare *c, struct errbuf *err)
{
	char what[512];
	const struct res_file *x = a->res, *y = b->res;
	if (x->format_version != y->format_version) {
		snprintf(what, sizeof(what), "format version %d vs %d", x->format_version,
			 y->format_version);
		if (differs(force, c, err, a, b, what) < 0)
			return -1;
	}
	double sx = res_file_scale_factor(x), sy = res_file_scale_factor(y);
	if (fabs(sx - sy) > 1e-9 * fmax(fabs(sx), fabs(sy))) {
		snprintf(what, sizeof(what), "scale factor %g vs %g", sx, sy);
		if (differs(force, c, err, a, b, what) < 0)
			return -1;
	}
	const char *fx = res_file_dataset_fingerprint(x), *fy = res_file_dataset_fingerprint(y);
	if (fx && fy && strcmp(fx, fy) != 0) {
		snprintf(what, sizeof(what), "dataset fingerprint %.12s… vs %.12s…", fx, fy);
		if (differs(force, c, err, a, b, what) < 0)
			return -1;
	}
	size_t common = 0;
	for (size_t i = 0; i < x->n_queries; i++) {
		const struct res_query *qx = &x->queries[i];
		const struct res_query *qy = res_file_find_query(y, qx->id);
		if (!qy)
			continue;
		common++;
		if (strcmp(qx->sql_sha256, qy->sql_sha256) != 0) {
			snprintf(
			    what, sizeof(what),
			    "query %s has another text or parameters (sql_sha256 %.12s… vs %.12s…)",
			    qx->id, qx->sql_sha256, qy->sql_sha256);
			if (differs(force, c, err, a, b, what) < 0)
				return -1;
		}
	}
	if (common == 0)
		return errbuf_set(err, "'%s' and '%s' have no query in common", a->path, b->path);
	return 0;
}

/* ---- compare ---- */

void rpt_compare_free(struct rpt_compare *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_queries; i++) {
		rpt_side_release(&c->queries[i].old);
		rpt_side_release(&c->queries[i].new);
		rpt_work_release(&c->queries[i].work);
		rpt_funcs_release(&c->queries[i].funcs);
		rpt_plan_free(c->queries[i].plan_diff);
		rpt_analyze_release(&c->queries[i].analyze);
		rpt_trace_free(c->queries[i].trace);
	}
	free(c->queries);
	for (size_t i = 0; i < c->n_warnings; i++)
		free(c->warnings[i]);
	free(c->warnings);
	free(c);
}

/* The fingerprint of r (result of an ok restart, or plan), or NULL. */
static const char *fingerprint(const struct res_restart *r, int plan)
{
	if (plan)
		return r->plan_sha256;
	return r->status == RES_STATUS_OK ? r->result_sha256 : NULL;
}

static int has_fingerprint(const struct res_query *q, const char *sha, int plan)
{
	for (size_t i = 0; i < q->n_restarts; i++) {
		const char *f = fingerprint(&q->restarts[i], plan);
		if (f && strcmp(f, sha) == 0)
			return 1;
	}
	return 0;
}

/* The first restart of a whose fingerprint b never has (b having some); NULL when none. */
static const struct res_restart *first_unmatched(const struct res_query *a,
						 const struct res_query *b, int plan)
{
	int b_has_any = 0;
	for (size_t i = 0; i < b->n_restarts && !b_has_any; i++)
		b_has_any = fingerprint(&b->restarts[i], plan) != NULL;
	if (!b_has_any)
		return NULL;
	for (size_t i = 0; i < a->n_restarts; i++) {
		const char *f = fingerprint(&a->restarts[i], plan);
		if (f && !has_fingerprint(b, f, plan))
			return &a->restarts[i];
	}
	return NULL;
}

/* The side's stored fingerprint is the SHA-256 of its plan text's shape. */
static int fingerprint_of_plan(const struct rpt_side *s)
{
	struct errbuf err;
	char *shape = NULL, hex[65];
	if (!s->plan_sha256 || res_explain_shape(s->plan, &shape, &err) < 0)
		return 0;
	util_sha256_hex(hex, shape, strlen(shape));
	free(shape);
	return strcmp(hex, s->plan_sha256) == 0;
}

/* A changed plan's structural diff. When both plans parse, their fingerprints are their
 * shapes' and the shapes are equal but for the order of members, the plan did not change
 * (docs/explain.md); a plan that does not parse, or a diff without changes of plans whose
 * fingerprints are not their shapes', keeps the fingerprint's word without a diff. */
static void diff_plans(struct rpt_query *q)
{
	struct errbuf err;
	if (!q->plan_changed || !q->old.plan || !q->new.plan)
		return;
	if (rpt_plan_build(&q->plan_diff, q->old.plan, q->new.plan, &err) < 0)
		return;
	if (res_xdiff_plan_changes(&q->plan_diff->diff) == 0) {
		rpt_plan_free(q->plan_diff);
		q->plan_diff = NULL;
		if (fingerprint_of_plan(&q->old) && fingerprint_of_plan(&q->new))
			q->plan_changed = 0;
	}
}

/* Sets result_changed/plan_changed from the fingerprints of the two sides (as sets: a result
 * that varies between restarts is a change only if the other side never produced it). */
static void compare_fingerprints(struct rpt_query *q)
{
	const struct res_query *a = q->old.q, *b = q->new.q;
	q->result_changed = first_unmatched(a, b, 0) || first_unmatched(b, a, 0);
	if (!q->result_changed && q->old.rows >= 0 && q->new.rows >= 0 &&
	    q->old.rows != q->new.rows)
		q->result_changed = 1;
	if (q->old.rows_vary || q->new.rows_vary)
		q->result_changed = 1;
	const struct res_restart *nb = first_unmatched(b, a, 1), *na = first_unmatched(a, b, 1);
	q->plan_changed = nb || na;
	if (nb) {
		q->new.plan_sha256 = nb->plan_sha256;
		q->new.plan = nb->plan;
	}
	if (na) {
		q->old.plan_sha256 = na->plan_sha256;
		q->old.plan = na->plan;
	}
	diff_plans(q);
	if (q->plan_changed && rpt_trace_build(&q->trace, a, b) < 0)
		q->trace = NULL;
}

static void test_none(struct st_test *t)
{
	memset(t, 0, sizeof(*t));
	t->kind = ST_TEST_NONE;
	t->diff = t->ratio = t->se = t->df = t->t = t->p = t->ci_lo = t->ci_hi = NAN;
	t->p_greater = t->p_less = t->p_tost = t->tost_lo = t->tost_hi = NAN;
	t->ci_sim_lo = t->ci_sim_hi = t->var_f_p = NAN;
}

/* What a baseline used by q's test added: the power (st_power) to flag a slowdown of 2 x
 * min-effect at the noise the test used, n = the smaller side, without and with its df. */
static void baseline_power(struct rpt_query *q, const struct rpt_compare *c, size_t m)
{
	const struct st_test *t = &q->test;
	size_t n = t->n_a < t->n_b ? t->n_a : t->n_b;
	double inv_n = 1.0 / (double)t->n_a + 1.0 / (double)t->n_b;
	struct st_power_spec s = {
	    .effect = 2 * c->opts.min_effect,
	    .sd_log = sqrt(t->se * t->se / inv_n),
	    .alpha = c->opts.alpha,
	    .m = m,
	    .corr = c->opts.correction,
	    .min_effect = c->opts.min_effect,
	    .method = ST_METHOD_POOLED,
	    .alt = c->opts.alt,
	    .min_effect_test = c->opts.min_effect_test,
	};
	if (t->base_use != ST_BASE_USED || !isfinite(s.sd_log))
		return;
	if (n < 2)
		return;
	q->power_nobase = st_power(&s, n);
	s.baseline_df = t->base_df;
	q->power_base = st_power(&s, n);
}

/* Counts of the baseline's use and the median power it added; the improvements count. */
static void baseline_summary(struct rpt_compare *c)
{
	double *a = calloc(2 * (c->n_queries ? c->n_queries : 1), sizeof(double)), *b;
	size_t k = 0;
	c->power_nobase = c->power_base = NAN;
	c->n_base_used = c->n_base_unused = c->n_base_paired = 0;
	c->counts_impr = c->counts[RPT_IMPROVEMENT];
	for (size_t i = 0; i < c->n_queries; i++) {
		enum st_baseline_use u = c->queries[i].test.base_use;
		c->n_base_used += u == ST_BASE_USED;
		c->n_base_unused += u == ST_BASE_UNUSED_WELCH || u == ST_BASE_UNUSED_NOISE ||
				    u == ST_BASE_UNUSED_PAIRED;
		c->n_base_paired += u == ST_BASE_UNUSED_PAIRED;
	}
	if (!a)
		return;
	b = a + c->n_queries;
	for (size_t i = 0; i < c->n_queries; i++)
		if (isfinite(c->queries[i].power_base)) {
			a[k] = c->queries[i].power_nobase;
			b[k++] = c->queries[i].power_base;
		}
	if (k) {
		util_sort_doubles(a, k);
		util_sort_doubles(b, k);
		c->power_nobase = util_median_sorted(a, k);
		c->power_base = util_median_sorted(b, k);
	}
	free(a);
}

/* Tests every query with a successful restart on both sides, then corrects and decides. */
static int run_tests(struct rpt_compare *c, enum st_verdict *verdicts, struct errbuf *err)
{
	size_t n = c->n_queries, m = 0, k = n ? n : 1;
	struct st_sample *sa = calloc(k, sizeof(*sa)), *sb = calloc(k, sizeof(*sb));
	struct st_prior *base = calloc(k, sizeof(*base));
	struct st_test *tests = calloc(k, sizeof(*tests));
	size_t *map = calloc(k, sizeof(*map));
	double *padj = calloc(k, sizeof(double)), *pimp = calloc(k, sizeof(double));
	enum st_verdict *v = calloc(k, sizeof(*v));
	int rc = -1;
	if (!sa || !sb || !base || !tests || !map || !padj || !pimp || !v) {
		errbuf_set(err, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct rpt_query *q = &c->queries[i];
		test_none(&q->test);
		q->p_adj = q->p_adj_impr = NAN;
		q->power_nobase = q->power_base = NAN;
		verdicts[i] = ST_VERDICT_INCONCLUSIVE;
		if (!q->old.n_used || !q->new.n_used)
			continue;
		if (st_sample_init(&sa[m], q->old.means_ms, q->old.n_used, err) < 0 ||
		    st_sample_init(&sb[m], q->new.means_ms, q->new.n_used, err) < 0 ||
		    rpt_baseline_prior(&base[m], &c->baseline, q->id, err) < 0)
			goto out;
		map[m++] = i;
	}
	struct st_compare_opts so;
	st_compare_opts_init(&so);
	so.method = c->opts.method;
	so.alt = c->opts.alt;
	so.alpha = c->opts.alpha;
	so.min_effect = c->opts.min_effect;
	so.min_effect_test = c->opts.min_effect_test;
	if (m && st_compare_all(tests, &c->eb_prior, sa, sb, m, base, &so, err) < 0)
		goto out;
	if (c->paired && rpt_paired_tests(c, tests, map, m, &so, err) < 0)
		goto out;
	if (c->opts.adjust_memory && rpt_adjusted_tests(c, tests, map, m, &so, err) < 0)
		goto out;
	struct st_decide_opts dopt = {c->opts.correction, c->opts.alpha, c->opts.min_effect,
				      c->opts.alt, c->opts.min_effect_test};
	st_decide_ext(v, padj, pimp, tests, m, &dopt);
	for (size_t j = 0; j < m; j++) {
		struct rpt_query *q = &c->queries[map[j]];
		q->test = tests[j];
		q->p_adj = padj[j];
		q->p_adj_impr = pimp[j];
		verdicts[map[j]] = v[j];
		baseline_power(q, c, m);
	}
	rc = 0;
out:
	free(sa);
	free(sb);
	free(base);
	free(tests);
	free(map);
	free(padj);
	free(pimp);
	free(v);
	return rc;
}

/* The query timeout of a result file in ms (plan.query_timeout_s), NaN when not recorded. */
static double timeout_ms(const struct res_file *r)
{
	json_t *t = r ? json_object_get(r->plan, "query_timeout_s") : NULL;
	double s = json_is_number(t) ? json_number_value(t) : NAN;
	return s > 0 && isfinite(s) ? 1000.0 * s : NAN;
}

/* 1 when every restart of s timed out (and there is at least one). */
static int all_timed_out(const struct rpt_side *s)
{
	return s->present && s->n_restarts > 0 && s->timeouts == s->n_restarts;
}

static void decide(struct rpt_compare *c, const enum st_verdict *verdicts)
{
	c->worst = RPT_UNCHANGED;
	c->n_data_differs = 0;
	memset(c->counts, 0, sizeof(c->counts));
	c->n_tested = 0;
	for (size_t i = 0; i < c->n_queries; i++) {
		struct rpt_query *q = &c->queries[i];
		q->why = NULL;
		q->bound = 0;
		q->bound_ratio = NAN;
		if (q->test.kind != ST_TEST_NONE)
			c->n_tested++;
		q->data_differs = q->result_changed && c->data_differs;
		if (q->data_differs) {
			q->verdict = RPT_INCONCLUSIVE;
			q->why =
			    "results differ, and so does the data (dataset.content_check): not "
			    "the build's";
			c->n_data_differs++;
		} else if (q->result_changed) {
			q->verdict = RPT_WRONG_RESULT;
			q->why =
			    q->old.rows_vary || q->new.rows_vary
				? "row count changed between executions"
			    : q->old.rows >= 0 && q->new.rows >= 0 && q->old.rows != q->new.rows
				? "row counts differ"
				: "result fingerprints differ";
		} else if (all_timed_out(&q->new) && q->old.n_used) {
			/* at least as slow as the timeout: the ratio is a lower bound */
			q->verdict = RPT_REGRESSION;
			q->why = "timed out in every restart of the new file, completed in the old";
			q->bound = 1;
			q->bound_ratio = timeout_ms(c->new.res) / q->old.gmean_ms;
		} else if (all_timed_out(&q->old) && q->new.n_used) {
			q->verdict = RPT_IMPROVEMENT;
			q->why = "timed out in every restart of the old file, completes in the new";
			q->bound = -1;
			q->bound_ratio = q->new.gmean_ms / timeout_ms(c->old.res);
		} else if (!q->old.n_used || !q->new.n_used) {
			q->verdict = RPT_INCONCLUSIVE;
			q->why = "no successful restart on a side";
		} else if (q->test.kind == ST_TEST_NONE) {
			q->verdict = RPT_INCONCLUSIVE;
			q->why = "fewer than 2 restarts on a side (use --baseline)";
		} else {
			switch (verdicts[i]) {
			case ST_VERDICT_REGRESSION:
				q->verdict = RPT_REGRESSION;
				break;
			case ST_VERDICT_IMPROVEMENT:
				q->verdict = RPT_IMPROVEMENT;
				break;
			case ST_VERDICT_INCONCLUSIVE:
				q->verdict = RPT_INCONCLUSIVE;
				q->why = "untested";
				break;
			default:
				/* unchanged only when TOST rules out a change of min-effect */
				if (st_tost_rules_out(&q->test, c->opts.alpha)) {
					q->verdict = RPT_UNCHANGED;
				} else {
					q->verdict = RPT_INCONCLUSIVE;
					q->why =
					    "not flagged, but the equivalence test (TOST) does "
					    "not rule out a change of min-effect (more restarts "
					    "needed)";
				}
			}
		}
		c->counts[q->verdict]++;
		if (q->verdict > c->worst)
			c->worst = q->verdict;
	}
}

/* The overall ratio: by restart when the restarts line up, else from the per-query tests. */
static void overall(struct rpt_compare *c)
{
	size_t nq = 0, na = 0, nb = 0;
	int maxa = -1, maxb = -1;
	struct errbuf err;
	for (size_t i = 0; i < c->n_queries; i++) {
		const struct rpt_query *q = &c->queries[i];
		if (q->verdict == RPT_WRONG_RESULT || q->data_differs || !q->old.n_used ||
		    !q->new.n_used)
			continue;
		nq++;
		for (size_t j = 0; j < q->old.n_used; j++)
			maxa = q->old.indices[j] > maxa ? q->old.indices[j] : maxa;
		for (size_t j = 0; j < q->new.n_used; j++)
			maxb = q->new.indices[j] > maxb ? q->new.indices[j] : maxb;
	}
	c->have_overall = 0;
	if (nq == 0)
		return;
	na = (size_t)maxa + 1;
	nb = (size_t)maxb + 1;
	double *a = malloc(na * nq * sizeof(double)), *b = malloc(nb * nq * sizeof(double));
	if (a && b && na <= 100000 && nb <= 100000) {
		for (size_t k = 0; k < na * nq; k++)
			a[k] = NAN;
		for (size_t k = 0; k < nb * nq; k++)
			b[k] = NAN;
		size_t col = 0;
		for (size_t i = 0; i < c->n_queries; i++) {
			const struct rpt_query *q = &c->queries[i];
			if (q->verdict == RPT_WRONG_RESULT || q->data_differs || !q->old.n_used ||
			    !q->new.n_used)
				continue;
			for (size_t j = 0; j < q->old.n_used; j++)
				a[(size_t)q->old.indices[j] * nq + col] = q->old.means_ms[j];
			for (size_t j = 0; j < q->new.n_used; j++)
				b[(size_t)q->new.indices[j] * nq + col] = q->new.means_ms[j];
			col++;
		}
		if (st_overall_by_restart(&c->overall, a, na, b, nb, nq, c->opts.alpha, &err) == 0)
			c->have_overall = 1;
	}
	free(a);
	free(b);
	if (c->have_overall)
		return;
	struct st_test *tests = calloc(c->n_queries, sizeof(*tests));
	size_t m = 0;
	for (size_t i = 0; tests && i < c->n_queries; i++)
		if (c->queries[i].verdict != RPT_WRONG_RESULT && !c->queries[i].data_differs &&
		    c->queries[i].test.kind != ST_TEST_NONE)
			tests[m++] = c->queries[i].test;
	if (tests && m && st_overall_from_tests(&c->overall, tests, m, c->opts.alpha, &err) == 0)
		c->have_overall = 1;
	free(tests);
}

/* One warning listing the queries of a that b does not have. */
static int warn_only_in(struct rpt_compare *c, const struct rpt_file_info *a,
			const struct rpt_file_info *b)
{
	char list[1024] = "";
	size_t n = 0, at = 0;
	for (size_t i = 0; i < a->res->n_queries; i++) {
		const char *id = a->res->queries[i].id;
		if (res_file_find_query(b->res, id))
			continue;
		n++;
		int k = snprintf(list + at, sizeof(list) - at, "%s%s", at ? ", " : "", id);
		if (k > 0 && (size_t)k < sizeof(list) - at)
			at += (size_t)k;
	}
	if (n == 0)
		return 0;
	return add_warning(c, "%s only in '%s': %s", n == 1 ? "query" : "queries", a->path, list);
}

/* Sets c->data_differs: the content checks of the data each run started on differ, or only
 * one file has one (two files of older versions have none: nothing is known, nothing said). */
static int data_check(struct rpt_compare *c, const struct rpt_file_info *a,
		      const struct rpt_file_info *b)
{
	const char *x = res_file_content_check(a->res), *y = res_file_content_check(b->res);
	c->data_differs = (x || y) && (!x || !y || strcmp(x, y) != 0);
	if (!c->data_differs)
		return 0;
	return add_warning(c,
			   "'%s' and '%s' were measured on different data (content check %s vs "
			   "%s): result differences are reported as data differs, not wrong "
			   "results",
			   a->path, b->path, x ? x : "none", y ? y : "none");
}

/* A query's other signals than its time: work counters, instructions, functions, per-table
 * rows, counted into c; -1 on out of memory. */
static int build_signals(struct rpt_compare *c, struct rpt_query *q, const struct res_query *qa,
			 const struct res_query *qb)
{
	if (rpt_work_build(&q->work, qa, qb) < 0 || rpt_instr_build(&q->instr, qa, qb) < 0 ||
	    rpt_funcs_build(&q->funcs, qa, qb, &q->instr) < 0 ||
	    rpt_analyze_build(&q->analyze, qa, qb) < 0)
		return -1;
	c->n_work_compared += q->work.compared;
	c->n_work_changed += q->work.changed;
	c->n_instr_compared += q->instr.compared;
	c->n_instr_changed += q->instr.changed;
	c->n_analyze_changed += q->work.changed && q->analyze.n_rows > 0;
	return 0;
}

int rpt_compare_build(struct rpt_compare **out, const struct rpt_file_info *old,
		      const struct rpt_file_info *new, const struct rpt_file_info *baseline,
		      const struct rpt_compare_opts *opts, struct errbuf *err)
{
	struct rpt_compare *c = calloc(1, sizeof(*c));
	enum st_verdict *verdicts = NULL;
	*out = NULL;
	if (!c)
		return errbuf_set(err, "out of memory");
	c->opts = *opts;
	c->old = *old;
	c->new = *new;
	if (baseline)
		c->baseline = *baseline;
	if (rpt_comparable(old, new, opts->force, c, err) < 0)
		goto fail;
	if (c->baseline.res && rpt_comparable(baseline, new, opts->force, c, err) < 0)
		goto fail;
	if (warn_only_in(c, old, new) < 0 || warn_only_in(c, new, old) < 0)
		goto oom;
	const struct rpt_file_info *files[] = {old, new, c->baseline.res ? &c->baseline : NULL};
	for (size_t i = 0; i < 3; i++)
		if (files[i] && !files[i]->res->finished_at &&
		    add_warning(c, "'%s' is an unfinished run (finished_at is null)",
				files[i]->path) < 0)
			goto oom;
	for (size_t i = 0; i < 3; i++)
		if (files[i] && res_file_pool_fits(files[i]->res) == 0 &&
		    add_warning(c, "'%s': " RES_POOL_NOT_FIT, files[i]->path) < 0)
			goto oom;
	if (opts->exclude_disturbed &&
	    add_warning(
		c, "--exclude-disturbed: excluded %zu disturbed restart%s of '%s', %zu of '%s'",
		opts->excluded_old, opts->excluded_old == 1 ? "" : "s", old->path,
		opts->excluded_new, new->path) < 0)
		goto oom;
	for (size_t i = 0; i < 3; i++) {
		char noise[1024];
		if (files[i] && res_interf_line(files[i]->res, noise, sizeof(noise)) &&
		    add_warning(c, "'%s': %s", files[i]->path, noise) < 0)
			goto oom;
	}
	if (data_check(c, old, new) < 0)
		goto oom;
	c->queries = calloc(old->res->n_queries ? old->res->n_queries : 1, sizeof(*c->queries));
	if (!c->queries)
		goto oom;
	for (size_t i = 0; i < old->res->n_queries; i++) {
		const struct res_query *qa = &old->res->queries[i];
		const struct res_query *qb = res_file_find_query(new->res, qa->id);
		if (!qb)
			continue;
		struct rpt_query *q = &c->queries[c->n_queries++];
		q->id = qa->id;
		if (rpt_side_init(&q->old, old, qa, err) < 0 ||
		    rpt_side_init(&q->new, new, qb, err) < 0)
			goto fail;
		q->warn = rpt_side_warn(&q->old) | rpt_side_warn(&q->new);
		compare_fingerprints(q);
		if (build_signals(c, q, qa, qb) < 0)
			goto oom;
	}
	verdicts = calloc(c->n_queries ? c->n_queries : 1, sizeof(*verdicts));
	if (!verdicts)
		goto oom;
	rpt_pairing_decide(c);
	if (c->sbs && opts->adjust_memory) {
		errbuf_set(err,
			   "'%s' and '%s' ran side by side: the two sides of a pair share the "
			   "host's state and are tested paired; drop --adjust-memory",
			   old->path, new->path);
		goto fail;
	}
	if (run_tests(c, verdicts, err) < 0)
		goto fail;
	decide(c, verdicts);
	/* --adjust-memory is a fixed-sample test: never the replay of run --budget's files */
	c->opts.seq_auto =
	    !opts->sequential && !opts->fixed && !opts->adjust_memory && rpt_seq_recorded(c);
	c->opts.sequential = opts->sequential || c->opts.seq_auto;
	if (c->opts.sequential && rpt_seq_replay(c, c->opts.alt, err) < 0)
		goto fail;
	free(verdicts);
	baseline_summary(c);
	overall(c);
	*out = c;
	return 0;
oom:
	errbuf_set(err, "out of memory");
fail:
	free(verdicts);
	rpt_compare_free(c);
	return -1;
}

/* ---- summary ---- */

void rpt_summary_free(struct rpt_summary *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_queries; i++) {
		rpt_side_release(&s->queries[i].side);
		rpt_work_release(&s->queries[i].work);
	}
	free(s->queries);
	free(s);
}

static int summary_query(struct rpt_summary_query *sq, const struct rpt_summary *s,
			 const struct res_query *q, struct errbuf *err)
{
	const struct rpt_summary_opts *o = &s->opts;
	sq->id = q->id;
	sq->power_now = NAN;
	/* the run-position F test is judged at alpha / (queries in the file) */
	size_t m = s->n_queries ? s->n_queries : 1;
	struct st_restart_summary g;
	int rc = rpt_side_init_figs(&sq->side, &g, &s->file, q, o->alpha / (double)m, err);
	if (rc == 0)
		sq->warn = rpt_side_warn(&sq->side);
	if (rc == 0 && rpt_work_build(&sq->work, q, NULL) < 0)
		rc = errbuf_set(err, "out of memory");
	if (rc == 0 && rpt_instr_build(&sq->instr, q, q) < 0)
		rc = errbuf_set(err, "out of memory");
	if (rc < 0 || !sq->side.n_used) {
		st_restart_summary_release(&g);
		return rc;
	}
	size_t k = g.n_ok;
	int bad = !g.have_stats || (k >= 2 && !g.have_noise);
	if (bad)
		errbuf_set(err, "'%s': $.queries[%td]: query %s: %s", s->file.path,
			   q - s->file.res->queries, q->id, g.why);
	sq->stats = g.stats;
	sq->have_noise = g.have_noise;
	sq->noise = g.noise;
	sq->have_position = g.have_position;
	sq->position = g.position;
	sq->position_effect = g.position_effect;
	sq->position_flags = g.position_runs;
	if (sq->position_effect)
		sq->warn |= RPT_W_POSITION;
	st_restart_summary_release(&g);
	if (bad)
		return -1;
	sq->have_stats = 1;
	if (k < 2 || !isfinite(sq->stats.sd_log))
		return 0;
	struct st_power_spec spec = {
	    .effect = o->detect,
	    .sd_log = sq->stats.sd_log,
	    .alpha = o->alpha,
	    .m = s->n_queries ? s->n_queries : 1,
	    .corr = o->correction,
	    .min_effect = o->min_effect,
	    .method = o->method,
	    .baseline_df = 0,
	    .alt = o->alt,
	    .min_effect_test = o->min_effect_test,
	};
	sq->power_now = st_power(&spec, k);
	if (st_restarts_needed(&sq->needed, &spec, o->power, o->max_restarts) < 0) {
		sq->needed = 0;
		sq->needed_over = 1;
	}
	/* needed is monotone in the noise, so the CI of the noise maps to one of needed */
	spec.sd_log = sq->noise.sd_lo;
	if (st_restarts_needed(&sq->needed_lo, &spec, o->power, o->max_restarts) < 0)
		sq->needed_lo = 0;
	spec.sd_log = sq->noise.sd_hi;
	if (st_restarts_needed(&sq->needed_hi, &spec, o->power, o->max_restarts) < 0) {
		sq->needed_hi = 0;
		sq->needed_hi_over = 1;
	}
	return 0;
}

int rpt_summary_build(struct rpt_summary **out, const struct rpt_file_info *file,
		      const struct rpt_summary_opts *opts, struct errbuf *err)
{
	struct rpt_summary *s = calloc(1, sizeof(*s));
	*out = NULL;
	if (!s)
		return errbuf_set(err, "out of memory");
	s->opts = *opts;
	s->file = *file;
	size_t n = file->res->n_queries;
	s->queries = calloc(n ? n : 1, sizeof(*s->queries));
	if (!s->queries) {
		free(s);
		return errbuf_set(err, "out of memory");
	}
	s->n_queries = n;
	for (size_t i = 0; i < n; i++)
		if (summary_query(&s->queries[i], s, &file->res->queries[i], err) < 0) {
			rpt_summary_free(s);
			return -1;
		}
	*out = s;
	return 0;
}
