/* SPDX-License-Identifier: MIT */
/* What a time verdict costs on this host (stats/st_cost.h). */
#include "stats/st_cost.h"
#include "base/util.h"
#include "stats/st_restart_summary.h"
#include "result/res_counts.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double median(double *v, size_t n)
{
	util_sort_doubles(v, n);
	return util_median_sorted(v, n);
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
	struct res_interf_host h;
	struct st_cost_noise nz;
	if (len)
		out[0] = '\0';
	if (res_interf_host(&h, res) < 0)
		return errbuf_set(err, "out of memory");
	if (!h.causes || len == 0)
		return 0;
	if (st_cost_noise(&nz, res, err) < 0)
		return -1;
	int k = res_interf_host_text(out, len, &h);
	size_t at = strlen(out);
	if (k && nz.n_queries && at < len)
		snprintf(out + at, len - at, "; restart noise here is about %.0f%%", 100 * nz.sd);
	return 1;
}

void st_cost_opts_init(struct st_cost_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = 0.05;
	o->power = 0.8;
	o->min_effect = 0.02;
	o->corr = ST_CORR_HOLM;
	o->method = ST_METHOD_AUTO;
	o->alt = ST_GREATER;
	o->max_restarts = 100;
}

static struct st_power_spec spec_of(const struct st_cost *c, double effect, double sd)
{
	struct st_power_spec s = {
	    .effect = effect,
	    .sd_log = sd,
	    .alpha = c->opts.alpha,
	    .m = c->m ? c->m : 1,
	    .corr = c->opts.corr,
	    .min_effect = c->opts.min_effect,
	    .method = c->opts.method,
	    .alt = c->opts.alt,
	    .min_effect_test = c->opts.min_effect_test,
	};
	return s;
}

/* Restarts a side for effect at sd: the smallest n in [2, opts.max_restarts] whose st_power
 * reaches opts.power (0 when none, or sd unknown). What st_restarts_needed answers, found by
 * bisection since the power rises with n: about 8 evaluations instead of up to 100, which keeps
 * the end of a run and of summary fast when the noise is large. */
static size_t needed(const struct st_cost *c, double effect, double sd)
{
	size_t lo = 2, hi = c->opts.max_restarts;
	struct st_power_spec s = spec_of(c, effect, sd);
	if (!isfinite(sd) || hi < 2 || !(st_power(&s, hi) >= c->opts.power))
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (st_power(&s, mid) >= c->opts.power)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

size_t st_cost_restarts(const struct st_cost_opts *o, size_t m, double effect, double sd)
{
	struct st_cost c;
	memset(&c, 0, sizeof(c));
	if (o)
		c.opts = *o;
	else
		st_cost_opts_init(&c.opts);
	c.m = m;
	return needed(&c, effect, sd);
}

/* The smallest change found with opts.power at k restarts a side: st_power rises with the
 * effect, so bisection on log(1 + effect) over [0.1 %, 1000 %] to 0.1 % of the ratio. */
static double detectable(const struct st_cost *c, size_t k)
{
	if (k < 2 || !isfinite(c->noise.sd))
		return NAN;
	struct st_power_spec s = spec_of(c, 9.0, c->noise.sd);
	if (!(st_power(&s, k) >= c->opts.power))
		return NAN;
	double lo = log(1.001), hi = log(10.0);
	while (hi - lo > 1e-3) {
		double mid = (lo + hi) / 2;
		s.effect = expm1(mid);
		if (st_power(&s, k) >= c->opts.power)
			hi = mid;
		else
			lo = mid;
	}
	return expm1(hi);
}

/* Whether q's work (Rows_read, else Handler_read_rnd_next) is the same in every warm measured
 * execution of every ok restart: -1 without work records or with fewer than 2 such restarts. */
static int work_steady(const struct res_query *q)
{
	long long first;
	size_t restarts;
	int varies = res_query_rows_read(q, &first, &restarts);
	return restarts < 2 || first < 0 ? -1 : !varies;
}

/* The other signals: work counters, instruction counts, run --budget's decisions. */
static void signals_of(struct st_cost *c, const struct res_file *res)
{
	for (size_t i = 0; i < res->n_queries; i++) {
		const struct res_query *q = &res->queries[i];
		int w = work_steady(q);
		c->work_queries += w >= 0;
		c->work_steady += w == 1;
		int instr = 0;
		for (size_t j = 0; j < q->n_restarts && !instr; j++)
			instr = json_is_object(json_object_get(q->restarts[j].extra, "instructions"));
		c->instr_queries += instr;
		json_t *b = json_object_get(q->extra, "budget");
		const char *d = json_string_value(json_object_get(b, "decision"));
		if (d) {
			c->budget_queries++;
			c->decided += strcmp(d, "undecided") != 0;
		}
	}
	c->side_by_side = json_is_object(json_object_get(res->plan, "side_by_side"));
}

/* The wall time of a comparison of n restarts a side: 2 n restarts (NaN: unknown, or n 0). */
static double wall_of(const struct st_cost *c, size_t n)
{
	return n && isfinite(c->restart_s) ? 2.0 * (double)n * c->restart_s : NAN;
}

/* Restarts a side by st_restarts_needed (st_power: Holm's first step alpha/m, the noncentral-t
 * power of the pooled test over the chi-square of its variance; Cohen 1988, ch. 2; Holm 1979)
 * at the file's median noise and at both ends of its 95% chi-square CI, which bound it since
 * the count rises with the noise. */
int st_cost_compute(struct st_cost *out, const struct res_file *res, const struct st_cost_opts *o,
		    struct errbuf *err)
{
	static const double effects[ST_COST_EFFECTS] = {0.05, 0.10};
	memset(out, 0, sizeof(*out));
	if (o)
		out->opts = *o;
	else
		st_cost_opts_init(&out->opts);
	if (st_cost_noise(&out->noise, res, err) < 0)
		return -1;
	out->m = res->n_queries;
	out->sf = res_file_scale_factor(res);
	out->restart_s = res_restart_cost_s(res);
	signals_of(out, res);
	for (int i = 0; i < ST_COST_EFFECTS; i++) {
		struct st_cost_effect *e = &out->eff[i];
		e->effect = effects[i];
		e->restarts = needed(out, e->effect, out->noise.sd);
		e->restarts_lo = needed(out, e->effect, out->noise.sd_lo);
		e->restarts_hi = needed(out, e->effect, out->noise.sd_hi);
		e->sbs_restarts = out->side_by_side
				      ? 0
				      : needed(out, e->effect, ST_COST_SBS_RATIO * out->noise.sd);
		e->wall_s = wall_of(out, e->restarts);
		e->wall_lo_s = wall_of(out, e->restarts_lo);
		e->wall_hi_s = wall_of(out, e->restarts_hi);
	}
	out->detect_now = detectable(out, out->noise.k);
	return 0;
}

/* "40 s", "38 min", "2.7 h" */
static void fmt_dur(char *out, size_t len, double s)
{
	if (!isfinite(s))
		snprintf(out, len, "?");
	else if (s < 90)
		snprintf(out, len, "%.0f s", s);
	else if (s < 90 * 60)
		snprintf(out, len, "%.0f min", s / 60);
	else
		snprintf(out, len, "%.1f h", s / 3600);
}

/* "24", or "more than 100" for 0 */
static void fmt_n(char *out, size_t len, size_t n, size_t max)
{
	if (n)
		snprintf(out, len, "%zu", n);
	else
		snprintf(out, len, "more than %zu", max);
}

static void effect_line(FILE *f, const struct st_cost *c, const struct st_cost_effect *e,
			const char *b)
{
	char n[32], lo[32], hi[32], w[32], wlo[32], whi[32];
	size_t max = c->opts.max_restarts;
	fmt_n(n, sizeof(n), e->restarts, max);
	fmt_n(lo, sizeof(lo), e->restarts_lo, max);
	fmt_n(hi, sizeof(hi), e->restarts_hi, max);
	fprintf(f, "%sa %.0f%% change: %s restarts a side (95%% CI %s to %s)", b, 100 * e->effect,
		n, lo, hi);
	if (!isfinite(c->restart_s)) {
		fprintf(f, "\n");
		return;
	}
	if (!e->restarts) { /* the time of max restarts a side is a lower bound */
		fmt_dur(w, sizeof(w), wall_of(c, max));
		fprintf(f, ", more than %s of runs at SF %g\n", w, c->sf);
		return;
	}
	fmt_dur(w, sizeof(w), e->wall_s);
	fmt_dur(wlo, sizeof(wlo), e->wall_lo_s);
	fmt_dur(whi, sizeof(whi), e->wall_hi_s);
	fprintf(f, ", %s of runs at SF %g (%s to %s)\n", w, c->sf, wlo,
		e->restarts_hi ? whi : "more");
}

static void signals_line(FILE *f, const struct st_cost *c, const char *b)
{
	const char *sep = "";
	fprintf(f, "%sother signals: ", b);
	if (c->work_queries) {
		fprintf(f, "work counters the same in every restart for %zu of %zu queries (a "
			   "change in their work is decided now, compare's work test)",
			c->work_steady, c->work_queries);
		sep = "; ";
	}
	if (c->instr_queries) {
		fprintf(f, "%sinstruction counts for %zu queries (compare decides a change "
			   "beyond 0.5%%)",
			sep, c->instr_queries);
		sep = "; ";
	} else {
		fprintf(f, "%srun --instructions counts instructions (a 0.5%% change, but "
			   "callgrind runs about 45 times slower)",
			sep);
		sep = "; ";
	}
	if (!c->side_by_side && c->eff[0].sbs_restarts)
		fprintf(f, "%srun --side-by-side: about %zu restarts a side for %.0f%% (its noise "
			   "was %.2fx restart-paired here)",
			sep, c->eff[0].sbs_restarts, 100 * c->eff[0].effect, ST_COST_SBS_RATIO);
	fprintf(f, "\n");
}

int st_cost_write(FILE *f, const struct st_cost *c, int md)
{
	const char *b = md ? "- " : "  ";
	if (!c->noise.n_queries) {
		fprintf(f, "%sverdict cost here: unknown (the noise needs 2 restarts with status "
			   "ok)\n",
			md ? "**" : "");
		return ferror(f) ? -1 : 0;
	}
	fprintf(f, "%sverdict cost here%s: restart noise %.1f%% (95%% CI %.1f%% to %.1f%%; the "
		   "median of %zu queries over %zu restarts); one query among %zu, %s at %g, "
		   "%.0f%% power%s\n",
		md ? "**" : "", md ? "**" : "", 100 * c->noise.sd, 100 * c->noise.sd_lo,
		100 * c->noise.sd_hi, c->noise.n_queries, c->noise.k, c->m ? c->m : 1,
		c->opts.corr == ST_CORR_HOLM ? "Holm" : c->opts.corr == ST_CORR_BH ? "BH" : "uncorrected",
		c->opts.alpha, 100 * c->opts.power,
		isfinite(c->restart_s) ? "" : " (a restart's time unknown)");
	for (int i = 0; i < ST_COST_EFFECTS; i++)
		effect_line(f, c, &c->eff[i], b);
	fprintf(f, "%sdecided now: ", b);
	if (c->budget_queries)
		fprintf(f, "run --budget decided %zu of %zu queries; ", c->decided,
			c->budget_queries);
	if (isfinite(c->detect_now))
		fprintf(f, "%zu restarts a side find a change of %.0f%% or more\n", c->noise.k,
			100 * c->detect_now);
	else
		fprintf(f, "%zu restarts a side find no change below 900%%\n", c->noise.k);
	signals_line(f, c, b);
	return ferror(f) ? -1 : 0;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *n_or_null(size_t n)
{
	return n ? json_integer((json_int_t)n) : json_null();
}

static json_t *change_json(const struct st_cost_effect *e)
{
	return json_pack("{s:f, s:o, s:[o, o], s:o, s:[o, o], s:o}", "effect", e->effect,
			 "restarts", n_or_null(e->restarts), "restarts_ci",
			 n_or_null(e->restarts_lo), n_or_null(e->restarts_hi), "wall_s",
			 num_or_null(e->wall_s), "wall_ci_s", num_or_null(e->wall_lo_s),
			 num_or_null(e->wall_hi_s), "side_by_side_restarts",
			 n_or_null(e->sbs_restarts));
}

json_t *st_cost_json(const struct st_cost *c)
{
	json_t *changes = json_array();
	for (int i = 0; changes && i < ST_COST_EFFECTS; i++)
		json_array_append_new(changes, change_json(&c->eff[i]));
	const char *corr = c->opts.corr == ST_CORR_HOLM ? "holm"
			   : c->opts.corr == ST_CORR_BH	    ? "bh"
							    : "none";
	return json_pack(
	    "{s:{s:o, s:[o, o], s:I, s:I}, s:{s:f, s:f, s:s, s:I, s:s, s:f, s:I}, s:o, s:o, s:o, "
	    "s:{s:o, s:I, s:I}, s:{s:I, s:I, s:I, s:b}}",
	    "noise", "sd", num_or_null(c->noise.sd), "ci", num_or_null(c->noise.sd_lo),
	    num_or_null(c->noise.sd_hi), "restarts", (json_int_t)c->noise.k, "queries",
	    (json_int_t)c->noise.n_queries, "test", "alpha", c->opts.alpha, "power", c->opts.power,
	    "correction", corr, "queries", (json_int_t)(c->m ? c->m : 1), "alternative",
	    c->opts.alt == ST_GREATER ? "greater" : "two-sided", "min_effect", c->opts.min_effect,
	    "max_restarts", (json_int_t)c->opts.max_restarts, "scale_factor", num_or_null(c->sf),
	    "restart_s", num_or_null(c->restart_s), "changes", changes ? changes : json_null(),
	    "decided", "detect_now", num_or_null(c->detect_now), "budget_decided",
	    (json_int_t)c->decided, "budget_queries", (json_int_t)c->budget_queries, "signals",
	    "work_queries", (json_int_t)c->work_queries, "work_steady", (json_int_t)c->work_steady,
	    "instructions_queries", (json_int_t)c->instr_queries, "side_by_side",
	    c->side_by_side);
}
