/* SPDX-License-Identifier: MIT */
/* The HTML report page: header, overview chart, sortable table, per-query charts and plans.
 * Text is written server-side (escaped here); charts are Vega-Lite specs built by report.js from
 * the data embedded as JSON. */
#include "reports/rpt_html.h"
#include "reports/rpt_html_assets.h"
#include "reports/rpt_html_int.h"
#include "stats/st_figs.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void rpt_html_escape(FILE *out, const char *s)
{
	if (!s)
		return;
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
				fputc(*s, out);
		}
	}
}

static void esc(FILE *out, const char *s)
{
	rpt_html_escape(out, s);
}

/* Escapes at most max bytes of s (not splitting a UTF-8 sequence), "..." when cut. */
static void esc_limited(FILE *out, const char *s, size_t max)
{
	size_t n = strlen(s);
	if (n <= max) {
		esc(out, s);
		return;
	}
	while (max > 0 && ((unsigned char)s[max] & 0xc0) == 0x80)
		max--;
	char *cut = strndup(s, max);
	esc(out, cut ? cut : "");
	fputs("\xe2\x80\xa6", out);
	free(cut);
}

/* ---- figures of one query in one result ---- */

void rpt_html_fig_release(struct rpt_html_fig *f)
{
	free(f->means);
	memset(f, 0, sizeof(*f));
}

/* The figures of st_figs_compute; the run-position effect judged at 0.05 / 22 as in the
 * end-of-run table. */
int rpt_html_fig_compute(struct rpt_html_fig *out, const struct res_query *q)
{
	memset(out, 0, sizeof(*out));
	out->gmean = out->cov_within = out->cov_between = NAN;
	out->sd_log = out->sd_lo = out->sd_hi = out->sd_between = out->sd_ucb = NAN;
	out->rows = -1;
	if (!q)
		return 0;
	struct st_figs g;
	struct errbuf e;
	if (st_figs_compute(&g, q, 0.05 / 22, &e) < 0) {
		st_figs_release(&g);
		return -1;
	}
	out->present = 1;
	out->n_restarts = g.n_restarts;
	out->n_ok = g.n_ok;
	out->means = g.means;
	g.means = NULL;
	out->not_steady = g.not_steady;
	out->timeout = g.timeout;
	out->crash = g.crash;
	out->error = g.error;
	out->rows = g.rows;
	out->plan = g.plan;
	out->plan_sha256 = g.plan_sha256;
	out->result_sha256 = g.result_sha256;
	out->error_text = g.error_text;
	out->plans_differ = g.plans_differ;
	out->results_differ = g.results_differ;
	if (g.have_stats) {
		out->gmean = g.stats.gmean;
		out->cov_within = g.stats.cov_within;
		out->cov_between = g.n_ok >= 2 ? g.stats.cov_between : NAN;
	} else if (g.n_ok > 0) {
		out->gmean = st_gmean(out->means, g.n_ok);
	}
	if (g.have_noise) {
		out->sd_log = g.noise.sd_log;
		out->sd_lo = g.noise.sd_lo;
		out->sd_hi = g.noise.sd_hi;
		out->sd_between = g.noise.sd_between;
		out->sd_ucb = g.noise.sd_ucb;
	}
	out->position_effect = g.position_effect;
	out->position_runs = g.position_runs;
	st_figs_release(&g);
	return 0;
}

/* ---- small formatting helpers ---- */

static void fmt_ms(char *buf, size_t n, double ms)
{
	if (!isfinite(ms))
		snprintf(buf, n, "\xe2\x80\x94"); /* em dash */
	else if (ms >= 1000)
		snprintf(buf, n, "%.0f", ms);
	else if (ms >= 100)
		snprintf(buf, n, "%.1f", ms);
	else if (ms >= 10)
		snprintf(buf, n, "%.2f", ms);
	else
		snprintf(buf, n, "%.3f", ms);
}

static void fmt_pct(char *buf, size_t n, double frac)
{
	if (!isfinite(frac))
		snprintf(buf, n, "\xe2\x80\x94");
	else
		snprintf(buf, n, "%.2f%%", frac * 100);
}

static void fmt_g(char *buf, size_t n, const char *fmt, double v)
{
	if (!isfinite(v))
		snprintf(buf, n, "\xe2\x80\x94");
	else
		snprintf(buf, n, fmt, v);
}

/* A numeric table cell that sorts by v (NaN sorts last). */
static void td_num(FILE *out, double v, const char *text)
{
	if (isfinite(v))
		fprintf(out, "<td data-v=\"%.17g\">", v);
	else
		fputs("<td data-v=\"NaN\">", out);
	esc(out, text);
	fputs("</td>", out);
}

/* Renders a value of a free-form result section as text: strings as they are, numbers, booleans,
 * arrays joined with ", ", objects as compact JSON. Caller frees; NULL when absent or null. */
static char *section_text(json_t *v)
{
	char *s = NULL;
	if (!v || json_is_null(v))
		return NULL;
	if (json_is_string(v))
		return strdup(json_string_value(v));
	if (json_is_integer(v)) {
		if (asprintf(&s, "%lld", (long long)json_integer_value(v)) < 0)
			return NULL;
		return s;
	}
	if (json_is_real(v)) {
		if (asprintf(&s, "%g", json_real_value(v)) < 0)
			return NULL;
		return s;
	}
	if (json_is_boolean(v))
		return strdup(json_is_true(v) ? "yes" : "no");
	if (json_is_array(v)) {
		size_t i, len = 0;
		json_t *e;
		char *acc = strdup("");
		json_array_foreach(v, i, e)
		{
			char *t = section_text(e);
			const char *part = t ? t : "null";
			size_t pl = strlen(part);
			char *grown = acc ? realloc(acc, len + pl + 3) : NULL;
			if (!grown) {
				free(t);
				free(acc);
				return NULL;
			}
			acc = grown;
			if (i > 0) {
				memcpy(acc + len, ", ", 2);
				len += 2;
			}
			memcpy(acc + len, part, pl + 1);
			len += pl;
			free(t);
		}
		return acc;
	}
	if (json_is_object(v)) {
		const char *key;
		json_t *e;
		char *acc = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&acc, &len);
		if (!mem)
			return NULL;
		int first = 1;
		json_object_foreach(v, key, e)
		{
			char *t = section_text(e);
			fprintf(mem, "%s%s: %s", first ? "" : ", ", key, t ? t : "null");
			free(t);
			first = 0;
		}
		fclose(mem);
		return acc;
	}
	return NULL;
}

/* Looks up "a.b" in a section object. */
static json_t *section_get_one(json_t *obj, const char *dotted)
{
	char key[64];
	const char *p = dotted;
	while (obj && *p) {
		size_t n = strcspn(p, ".");
		if (n >= sizeof(key))
			return NULL;
		memcpy(key, p, n);
		key[n] = '\0';
		obj = json_is_object(obj) ? json_object_get(obj, key) : NULL;
		p += n + (p[n] == '.');
	}
	return obj;
}

/* Looks up the first of "a.b|c|..." that is present and not null. */
static json_t *section_get(json_t *obj, const char *alternatives)
{
	char one[128];
	const char *p = alternatives;
	while (*p) {
		size_t n = strcspn(p, "|");
		if (n >= sizeof(one))
			return NULL;
		memcpy(one, p, n);
		one[n] = '\0';
		json_t *v = section_get_one(obj, one);
		if (v && !json_is_null(v))
			return v;
		p += n + (p[n] == '|');
	}
	return NULL;
}

/* ---- the page ---- */

/* One row of the header table: a label and, per side, a value (NULL when absent). */
static void meta_row(FILE *out, const char *label, char **vals, size_t n)
{
	int any = 0, differ = 0;
	for (size_t i = 0; i < n; i++) {
		any |= vals[i] != NULL;
		if (i > 0 && (!vals[i] != !vals[0] || (vals[i] && strcmp(vals[i], vals[0]))))
			differ = 1;
	}
	if (!any)
		return;
	fputs("<tr><th>", out);
	esc(out, label);
	fputs("</th>", out);
	for (size_t i = 0; i < n; i++) {
		fputs(differ && n > 1 ? "<td class=\"differs\">" : "<td>", out);
		if (vals[i])
			esc(out, vals[i]);
		else
			fputs("<span class=\"muted\">\xe2\x80\x94</span>", out);
		fputs("</td>", out);
	}
	fputs("</tr>\n", out);
}

static void free_vals(char **vals, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(vals[i]);
		vals[i] = NULL;
	}
}

/* Rows of the header: label, getter. A getter fills a malloc'd string or NULL. */
enum meta_kind { MK_PATH, MK_LABEL, MK_STRING, MK_SECTION, MK_PLAN, MK_DATES };

struct meta_field {
	const char *label;
	enum meta_kind kind;
	size_t section; /* offsetof(struct res_file, host), ... for MK_SECTION */
	const char *key;
};

static char *meta_value(const struct rpt_html_page *pg, size_t i, const struct meta_field *f)
{
	const struct res_file *r = pg->sides[i].res;
	char *s = NULL;
	switch (f->kind) {
	case MK_PATH:
		return pg->sides[i].path ? strdup(pg->sides[i].path) : NULL;
	case MK_LABEL:
		return r->label ? strdup(r->label) : NULL;
	case MK_DATES:
		if (asprintf(&s, "%s \xe2\x80\x93 %s", r->started_at ? r->started_at : "?",
			     r->finished_at ? r->finished_at : "unfinished") < 0)
			return NULL;
		return s;
	case MK_STRING:
		return r->tool_version ? strdup(r->tool_version) : NULL;
	case MK_PLAN: {
		json_t *p = r->plan;
		char *rs = section_text(section_get(p, "restarts"));
		char *wu = section_text(section_get(p, "warmup"));
		char *ru = section_text(section_get(p, "runs"));
		char *order = section_text(section_get(p, "query_order"));
		char *seed = section_text(section_get(p, "seed"));
		char *bs = section_text(section_get(p, "budget_s"));
		if (bs && (rs || wu || ru)) {
			/* run --budget: warmup and runs are the upper bounds (--warmup-max,
			 * --runs-max), not what every query had */
			if (asprintf(&s,
				     "%s restarts \xc3\x97 (warm-up until steady, at most %s + at most "
				     "%s measured) in a budget of %s s%s%s%s%s",
				     rs ? rs : "?", wu ? wu : "?", ru ? ru : "?", bs,
				     order ? ", order " : "", order ? order : "",
				     seed ? ", seed " : "", seed ? seed : "") < 0)
				s = NULL;
		} else if (rs || wu || ru) {
			if (asprintf(&s, "%s restarts \xc3\x97 (%s warm-up + %s measured)%s%s%s%s",
				     rs ? rs : "?", wu ? wu : "?", ru ? ru : "?",
				     order ? ", order " : "", order ? order : "",
				     seed ? ", seed " : "", seed ? seed : "") < 0)
				s = NULL;
		}
		free(rs);
		free(wu);
		free(ru);
		free(bs);
		free(order);
		free(seed);
		return s;
	}
	case MK_SECTION: {
		json_t *const *sec = (json_t *const *)((const char *)r + f->section);
		return section_text(section_get(*sec, f->key));
	}
	}
	return NULL;
}

static const struct meta_field meta_fields[] = {
    {"file", MK_PATH, 0, NULL},
    {"label", MK_LABEL, 0, NULL},
    {"server version", MK_SECTION, offsetof(struct res_file, server), "version"},
    {"server binary", MK_SECTION, offsetof(struct res_file, server), "binary"},
    {"binary SHA-256", MK_SECTION, offsetof(struct res_file, server), "binary_sha256"},
    {"variant", MK_SECTION, offsetof(struct res_file, plan), "variant"},
    {"scale factor", MK_SECTION, offsetof(struct res_file, dataset), "scale_factor"},
    {"dataset fingerprint", MK_SECTION, offsetof(struct res_file, dataset), "fingerprint"},
    {"indexes", MK_SECTION, offsetof(struct res_file, dataset), "indexes"},
    {"host", MK_SECTION, offsetof(struct res_file, host), "name"},
    {"CPU", MK_SECTION, offsetof(struct res_file, host), "cpu_model"},
    {"kernel", MK_SECTION, offsetof(struct res_file, host), "kernel"},
    {"governor", MK_SECTION, offsetof(struct res_file, host), "governor"},
    {"turbo", MK_SECTION, offsetof(struct res_file, host), "turbo"},
    {"ASLR", MK_SECTION, offsetof(struct res_file, host), "aslr"},
    {"topology", MK_SECTION, offsetof(struct res_file, host), "topology"},
    {"pinned", MK_SECTION, offsetof(struct res_file, pinning), "placement.pinned|pinned"},
    {"server CPUs", MK_SECTION, offsetof(struct res_file, pinning),
     "placement.server_cpus|server_cpus"},
    {"client CPUs", MK_SECTION, offsetof(struct res_file, pinning),
     "placement.client_cpus|client_cpus"},
    {"memory nodes", MK_SECTION, offsetof(struct res_file, pinning),
     "placement.membind_nodes|memory_nodes|membind_nodes"},
    {"pinning verified", MK_SECTION, offsetof(struct res_file, pinning), "verified"},
    {"stabilizers", MK_SECTION, offsetof(struct res_file, pinning), "stabilizers"},
    {"query parameters", MK_SECTION, offsetof(struct res_file, plan), "parameters"},
    {"protocol", MK_PLAN, 0, NULL},
    {"run", MK_DATES, 0, NULL},
    {"dbt3stab version", MK_STRING, 0, NULL},
};

static void write_meta(FILE *out, const struct rpt_html_page *pg)
{
	char *vals[RPT_HTML_MAX_SIDES] = {0};
	fputs("<table class=\"meta\">\n", out);
	if (pg->compare) {
		fputs("<tr><th></th><th>old</th><th>new</th></tr>\n", out);
	} else if (pg->n_sides > 1) {
		fputs("<tr><th></th>", out);
		for (size_t i = 0; i < pg->n_sides; i++) {
			fputs("<th>", out);
			esc(out, pg->sides[i].name);
			fputs("</th>", out);
		}
		fputs("</tr>\n", out);
	}
	for (size_t f = 0; f < sizeof(meta_fields) / sizeof(meta_fields[0]); f++) {
		for (size_t i = 0; i < pg->n_sides; i++)
			vals[i] = meta_value(pg, i, &meta_fields[f]);
		meta_row(out, meta_fields[f].label, vals, pg->n_sides);
		free_vals(vals, pg->n_sides);
	}
	fputs("</table>\n", out);
}

static const char *verdict_label(const char *v)
{
	return v ? v : "";
}

static void write_headline(FILE *out, const struct rpt_html_page *pg)
{
	char a[32], b[32], c[32];
	if (!pg->compare) {
		size_t nq = pg->n_ids;
		fprintf(out, "<p class=\"headline\">%zu result file%s, %zu quer%s.</p>\n",
			pg->n_sides, pg->n_sides == 1 ? "" : "s", nq, nq == 1 ? "y" : "ies");
		return;
	}
	fputs("<p class=\"headline\">Overall geometric-mean ratio new/old: ", out);
	if (pg->overall.valid) {
		fmt_g(a, sizeof(a), "%.4f", pg->overall.ratio);
		fmt_g(b, sizeof(b), "%.4f", pg->overall.lo);
		fmt_g(c, sizeof(c), "%.4f", pg->overall.hi);
		fprintf(
		    out,
		    "<strong class=\"overall-ratio\">%s</strong> (%.0f%% CI %s \xe2\x80\x93 %s)", a,
		    (1 - pg->alpha) * 100, b, c);
	} else {
		fputs("<strong>not available</strong>", out);
	}
	fprintf(out, "; alpha %g, min-effect %g%%", pg->alpha, pg->min_effect * 100);
	if (pg->settings) {
		fputs(", ", out);
		esc(out, pg->settings);
	}
	fputs(".</p>\n<ul class=\"counts\">\n", out);
	static const char *const order[] = {"wrong-result", "regression", "improvement",
					    "inconclusive", "unchanged"};
	for (size_t v = 0; v < 5; v++) {
		size_t n = 0;
		for (size_t i = 0; i < pg->n_ids; i++)
			n += pg->rows[i].verdict && !strcmp(pg->rows[i].verdict, order[v]);
		fprintf(
		    out,
		    "<li class=\"count-%s\"><b>%zu</b><span class=\"badge v-%s\">%s</span></li>\n",
		    order[v], n, order[v], order[v]);
	}
	size_t plans = 0;
	for (size_t i = 0; i < pg->n_ids; i++)
		plans += pg->rows[i].plan_changed;
	fprintf(out, "<li class=\"count-plan-changed\"><b>%zu</b>plan changed</li>\n</ul>\n",
		plans);
}

static void write_warnings(FILE *out, const struct rpt_html_page *pg)
{
	int opened = 0;
	for (size_t i = 0; !pg->compare && i < pg->n_sides; i++) { /* compare: in its notes */
		char noise[1024];
		int pool = res_file_pool_fits(pg->sides[i].res) == 0;
		size_t nd = res_noise_line(pg->sides[i].res, noise, sizeof(noise));
		if (!pool && !nd)
			continue;
		if (!opened)
			fputs("<h2>Warnings</h2>\n<ul class=\"warnings\">\n", out);
		opened = 1;
		for (int k = 0; k < 2; k++) {
			if (k == 0 ? !pool : !nd)
				continue;
			fputs("<li>", out);
			esc(out, pg->sides[i].name);
			fputs(": ", out);
			esc(out, k == 0 ? RES_POOL_NOT_FIT : noise);
			fputs("</li>\n", out);
		}
	}
	for (size_t i = 0; i < pg->n_notes; i++) {
		if (!opened)
			fputs("<h2>Warnings</h2>\n<ul class=\"warnings\">\n", out);
		opened = 1;
		fputs("<li>", out);
		esc(out, pg->notes[i]);
		fputs("</li>\n", out);
	}
	for (size_t q = 0; q < pg->n_ids; q++) {
		for (size_t s = 0; s < pg->n_sides; s++) {
			const struct rpt_html_fig *f = &pg->figs[q * pg->n_sides + s];
			if (!f->not_steady && !f->timeout && !f->crash && !f->error &&
			    !f->results_differ)
				continue;
			if (!opened)
				fputs("<h2>Warnings</h2>\n<ul class=\"warnings\">\n", out);
			opened = 1;
			fputs("<li>", out);
			esc(out, pg->ids[q]);
			fputs(" in ", out);
			esc(out, pg->sides[s].name);
			fputs(":", out);
			if (f->not_steady)
				fprintf(
				    out,
				    " %zu restart%s not steady (the measured runs still trend);",
				    f->not_steady, f->not_steady == 1 ? "" : "s");
			if (f->timeout)
				fprintf(out, " %zu timeout%s;", f->timeout,
					f->timeout == 1 ? "" : "s");
			if (f->crash)
				fprintf(out, " %zu crash%s;", f->crash, f->crash == 1 ? "" : "es");
			if (f->error)
				fprintf(out, " %zu error%s;", f->error, f->error == 1 ? "" : "s");
			if (f->results_differ)
				fputs(" result fingerprints differ between restarts;", out);
			if (f->error_text) {
				fputs(" <q class=\"mono\">", out);
				esc_limited(out, f->error_text, 300);
				fputs("</q>", out);
			}
			fputs("</li>\n", out);
		}
	}
	if (opened)
		fputs("</ul>\n", out);
}

static void write_marks(FILE *out, const struct rpt_html_page *pg, size_t q)
{
	for (size_t s = 0; s < pg->n_sides; s++) {
		const struct rpt_html_fig *f = &pg->figs[q * pg->n_sides + s];
		const char *who = pg->compare ? (s == 0 ? "old " : "new ") : "";
		if (f->not_steady)
			fprintf(out, "<span class=\"mark warn\">%snot steady</span>", who);
		if (f->timeout)
			fprintf(out, "<span class=\"mark warn\">%stimeout</span>", who);
		if (f->crash)
			fprintf(out, "<span class=\"mark warn\">%scrash</span>", who);
		if (f->error)
			fprintf(out, "<span class=\"mark warn\">%serror</span>", who);
		if (!f->present)
			fprintf(out, "<span class=\"mark warn\">%smissing</span>", who);
	}
	if (pg->compare && pg->rows[q].plan_changed)
		fputs("<span class=\"mark plan\">plan changed</span>", out);
}

/* "5.10% [3.20–12.4%]" or "-". */
static void fmt_noise(char *buf, size_t n, const struct rpt_html_fig *f)
{
	if (!isfinite(f->sd_log))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.2f%% [%.2f\xe2\x80\x93%.2f%%]", 100 * f->sd_log,
			 100 * f->sd_lo, 100 * f->sd_hi);
}

/* The run-position mark: "warm-up? runs 1, 2". */
static void write_position(FILE *out, const struct rpt_html_fig *f)
{
	if (!f->position_effect)
		return;
	fputs("<span class=\"mark warn\" title=\"the same runs differ in every restart: the "
	      "restart mean is not a steady-state mean\">warm-up? runs",
	      out);
	for (unsigned j = 0, k = 0; j < 32; j++)
		if (f->position_runs & (1u << j))
			fprintf(out, "%s %u", k++ ? "," : "", j + 1);
	fputs("</span>", out);
}

static void write_table_compare(FILE *out, const struct rpt_html_page *pg)
{
	char buf[64];
	fputs("<table class=\"figures\" id=\"figures\">\n<thead><tr>"
	      "<th class=\"text\">query</th><th class=\"text\">verdict</th>"
	      "<th>old ms</th><th>new ms</th><th>ratio</th><th>CI low (unadj.)</th>"
	      "<th>CI high (unadj.)</th><th>p</th><th>adj. p</th><th class=\"text\">test</th>"
	      "<th>n old</th><th>n new</th>"
	      "<th>noise sd old</th><th>noise sd new</th><th class=\"text\">marks</th>"
	      "</tr></thead>\n<tbody>\n",
	      out);
	for (size_t q = 0; q < pg->n_ids; q++) {
		const struct rpt_html_row *r = &pg->rows[q];
		const struct rpt_html_fig *fo = &pg->figs[q * 2], *fn = &pg->figs[q * 2 + 1];
		fprintf(out, "<tr class=\"verdict-%s\" data-query=\"", verdict_label(r->verdict));
		esc(out, pg->ids[q]);
		fputs("\"><td data-v=\"", out);
		/* sort Q2 before Q10: by position in the plan */
		fprintf(out, "%zu\">", q);
		esc(out, pg->ids[q]);
		fprintf(out, "</td><td class=\"text\"><span class=\"badge v-%s\">%s</span></td>",
			verdict_label(r->verdict), verdict_label(r->verdict));
		fmt_ms(buf, sizeof(buf), r->old_ms);
		td_num(out, r->old_ms, buf);
		fmt_ms(buf, sizeof(buf), r->new_ms);
		td_num(out, r->new_ms, buf);
		fmt_g(buf, sizeof(buf), r->bound > 0 ? ">= %.4f" : r->bound < 0 ? "<= %.4f" : "%.4f",
		      r->ratio);
		td_num(out, r->ratio, buf);
		fmt_g(buf, sizeof(buf), "%.4f", r->lo);
		td_num(out, r->lo, buf);
		fmt_g(buf, sizeof(buf), "%.4f", r->hi);
		td_num(out, r->hi, buf);
		fmt_g(buf, sizeof(buf), "%.3g", r->p);
		td_num(out, r->p, buf);
		fmt_g(buf, sizeof(buf), "%.3g", r->p_adj);
		td_num(out, r->p_adj, buf);
		fputs("<td class=\"text\">", out);
		esc(out, r->test ? r->test : "none");
		fputs("</td>", out);
		snprintf(buf, sizeof(buf), "%zu", fo->n_ok);
		td_num(out, (double)fo->n_ok, buf);
		snprintf(buf, sizeof(buf), "%zu", fn->n_ok);
		td_num(out, (double)fn->n_ok, buf);
		fmt_pct(buf, sizeof(buf), fo->sd_log);
		td_num(out, fo->sd_log, buf);
		fmt_pct(buf, sizeof(buf), fn->sd_log);
		td_num(out, fn->sd_log, buf);
		fputs("<td class=\"text\">", out);
		write_marks(out, pg, q);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
}

static void write_table_report(FILE *out, const struct rpt_html_page *pg)
{
	char buf[64];
	fputs("<table class=\"figures\" id=\"figures\">\n<thead><tr>"
	      "<th class=\"text\">query</th><th class=\"text\">result</th><th>restarts</th>"
	      "<th>geo. mean (ms)</th><th>within-restart CoV</th><th>noise sd [95% CI]</th>"
	      "<th>rows</th><th class=\"text\">marks</th></tr></thead>\n<tbody>\n",
	      out);
	for (size_t q = 0; q < pg->n_ids; q++) {
		for (size_t s = 0; s < pg->n_sides; s++) {
			const struct rpt_html_fig *f = &pg->figs[q * pg->n_sides + s];
			if (!f->present)
				continue;
			fputs("<tr data-query=\"", out);
			esc(out, pg->ids[q]);
			fprintf(out, "\"><td data-v=\"%zu\">", q);
			esc(out, pg->ids[q]);
			fputs("</td><td class=\"text\">", out);
			esc(out, pg->sides[s].name);
			fputs("</td>", out);
			snprintf(buf, sizeof(buf), "%zu", f->n_ok);
			td_num(out, (double)f->n_ok, buf);
			fmt_ms(buf, sizeof(buf), f->gmean);
			td_num(out, f->gmean, buf);
			fmt_pct(buf, sizeof(buf), f->cov_within);
			td_num(out, f->cov_within, buf);
			fmt_noise(buf, sizeof(buf), f);
			td_num(out, f->sd_log, buf);
			fmt_g(buf, sizeof(buf), "%.0f", f->rows >= 0 ? (double)f->rows : NAN);
			td_num(out, f->rows >= 0 ? (double)f->rows : NAN, buf);
			fputs("<td class=\"text\">", out);
			const struct rpt_html_fig *one = f;
			if (one->not_steady)
				fputs("<span class=\"mark warn\">not steady</span>", out);
			write_position(out, one);
			if (one->timeout)
				fputs("<span class=\"mark warn\">timeout</span>", out);
			if (one->crash)
				fputs("<span class=\"mark warn\">crash</span>", out);
			if (one->error)
				fputs("<span class=\"mark warn\">error</span>", out);
			if (one->plans_differ)
				fputs("<span class=\"mark plan\">plan differs between "
				      "restarts</span>",
				      out);
			fputs("</td></tr>\n", out);
		}
	}
	fputs("</tbody></table>\n", out);
}

/* The plan as indented JSON when it parses, else as it is; escaped. */
/* The join order at a glance: every "table" of the plan in document order as
 * "name access_type key", joined by arrows (escaped). *n counts the tables written. */
static void write_plan_shape(FILE *out, json_t *v, size_t *n)
{
	const char *key;
	json_t *e;
	size_t i;
	if (json_is_object(v)) {
		const char *name = json_string_value(json_object_get(v, "table_name"));
		if (name) {
			const char *access = json_string_value(json_object_get(v, "access_type"));
			const char *k = json_string_value(json_object_get(v, "key"));
			fputs(*n ? " \xe2\x86\x92 " : "", out);
			fputs("<b>", out);
			esc(out, name);
			fputs("</b>", out);
			if (access) {
				fputc(' ', out);
				esc(out, access);
			}
			if (k) {
				fputc(' ', out);
				esc(out, k);
			}
			(*n)++;
		}
		json_object_foreach(v, key, e)
		{
			write_plan_shape(out, e, n);
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, e)
		{
			write_plan_shape(out, e, n);
		}
	}
}

static void write_plan(FILE *out, const char *plan)
{
	json_error_t jerr;
	json_t *j = plan ? json_loads(plan, 0, &jerr) : NULL;
	char *pretty = j ? json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
	if (j) {
		size_t n = 0;
		fputs("<p class=\"plan-shape\">", out);
		write_plan_shape(out, j, &n);
		fputs("</p>", out);
	}
	fputs("<pre>", out);
	if (pretty || plan)
		esc(out, pretty ? pretty : plan);
	else
		fputs("(no plan recorded)", out);
	fputs("</pre>", out);
	free(pretty);
	json_decref(j);
}

/* Plans side by side: compare mode when the plan changed; report mode when the files' plans
 * differ. */
static int show_plans(const struct rpt_html_page *pg, size_t q)
{
	int show = 0;
	if (pg->compare) {
		show = pg->rows[q].plan_changed;
	} else {
		const char *first = NULL;
		for (size_t s = 0; s < pg->n_sides; s++) {
			const char *sha = pg->figs[q * pg->n_sides + s].plan_sha256;
			if (!sha)
				continue;
			if (first && strcmp(first, sha))
				show = 1;
			first = first ? first : sha;
		}
	}
	return show;
}

static void write_plans(FILE *out, const struct rpt_html_page *pg, size_t q)
{
	if (!show_plans(pg, q))
		return;
	fputs(
	    "<div class=\"plans\"><h4>Plans (EXPLAIN FORMAT=JSON, first restart of each side)</h4>"
	    "<div class=\"side-by-side\">",
	    out);
	for (size_t s = 0; s < pg->n_sides; s++) {
		const struct rpt_html_fig *f = &pg->figs[q * pg->n_sides + s];
		fputs("<div><h4>", out);
		esc(out, pg->sides[s].name);
		if (f->plan_sha256) {
			fputs(" <span class=\"muted mono\">", out);
			fprintf(out, "%.12s", f->plan_sha256);
			fputs("</span>", out);
		}
		fputs("</h4>", out);
		write_plan(out, f->plan);
		fputs("</div>", out);
	}
	fputs("</div></div>\n", out);
}

static void write_queries(FILE *out, const struct rpt_html_page *pg)
{
	char a[32], b[32], c[32];
	fputs("<h2>Per query</h2>\n<p class=\"muted\">Left: the mean of the measured runs of each "
	      "restart (one dot per server start). Right: every execution of every restart in "
	      "order, one line per restart; runs left of the dashed line are warm-up.</p>\n"
	      "<div class=\"queries\">\n",
	      out);
	for (size_t q = 0; q < pg->n_ids; q++) {
		const char *v = pg->compare ? verdict_label(pg->rows[q].verdict) : "none";
		fprintf(out, "<article class=\"query verdict-%s%s\" id=\"q-%zu\" data-query=\"", v,
			show_plans(pg, q) ? " has-plans" : "", q);
		esc(out, pg->ids[q]);
		fputs("\"><h3>", out);
		esc(out, pg->ids[q]);
		if (pg->compare) {
			const struct rpt_html_row *r = &pg->rows[q];
			fprintf(out, " <span class=\"badge v-%s\">%s</span>", v, v);
			write_marks(out, pg, q);
			fputs("</h3>\n<p class=\"facts\">", out);
			fmt_g(a, sizeof(a), "%.4f", r->ratio);
			fmt_g(b, sizeof(b), "%.4f", r->lo);
			fmt_g(c, sizeof(c), "%.4f", r->hi);
			fprintf(out, "ratio %s [%s, %s] (%.0f%% CI, per query, unadjusted", a, b,
				c, (1 - pg->alpha) * 100);
			fmt_g(b, sizeof(b), "%.4f", r->sim_lo);
			fmt_g(c, sizeof(c), "%.4f", r->sim_hi);
			fprintf(out, "; simultaneous over the queries [%s, %s])", b, c);
			fmt_g(a, sizeof(a), "%.3g", r->p_adj);
			fprintf(out, ", adj. p %s, test %s", a, r->test ? r->test : "none");
			if (r->why) {
				fputs(" (", out);
				esc(out, r->why);
				fputs(")", out);
			}
		} else {
			write_marks(out, pg, q);
			fputs("</h3>\n<p class=\"facts\">", out);
		}
		for (size_t s = 0; s < pg->n_sides; s++) {
			const struct rpt_html_fig *f = &pg->figs[q * pg->n_sides + s];
			if (pg->compare || s > 0)
				fputs("<br>", out);
			esc(out, pg->sides[s].name);
			fmt_ms(a, sizeof(a), f->gmean);
			fmt_noise(b, sizeof(b), f);
			fmt_pct(c, sizeof(c), f->cov_within);
			fprintf(out, ": %s ms over %zu restart%s, noise sd (log restart means) %s",
				a, f->n_ok, f->n_ok == 1 ? "" : "s", b);
			if (isfinite(f->sd_between) && f->sd_between > 0)
				fprintf(out, ", between-restart part %.2f%%", 100 * f->sd_between);
			else if (isfinite(f->sd_ucb))
				fprintf(out, ", between-restart part 0 (at most %.2f%%, 95%% bound)",
					100 * f->sd_ucb);
			fprintf(out, ", within-restart CoV %s", c);
			if (f->position_effect)
				fputs(", run-position effect (warm-up?)", out);
		}
		fputs("</p>\n<div class=\"charts\">", out);
		fprintf(out, "<div class=\"chart\" data-chart=\"means\" data-q=\"%zu\"></div>", q);
		fprintf(out, "<div class=\"chart\" data-chart=\"warmup\" data-q=\"%zu\"></div>", q);
		fputs("</div>\n", out);
		write_plans(out, pg, q);
		fputs("</article>\n", out);
	}
	fputs("</div>\n", out);
}

/* The data report.js draws from. */
static json_t *page_data(const struct rpt_html_page *pg)
{
	json_t *d = json_object(), *sides = json_array(), *qs = json_array();
	if (!d || !sides || !qs)
		goto fail;
	json_object_set_new(d, "mode", json_string(pg->compare ? "compare" : "report"));
	for (size_t s = 0; s < pg->n_sides; s++)
		json_array_append_new(sides, json_string(pg->sides[s].name));
	json_object_set_new(d, "sides", sides);
	sides = NULL;
	json_object_set_new(d, "alpha", json_real(pg->alpha));
	json_object_set_new(d, "band",
			    json_pack("[f,f]", 1.0 / (1.0 + pg->min_effect), 1.0 + pg->min_effect));
	if (pg->compare && pg->overall.valid)
		json_object_set_new(
		    d, "overall",
		    json_pack("{s:o,s:o,s:o}", "ratio", res_json_num(pg->overall.ratio), "lo",
			      res_json_num(pg->overall.lo), "hi", res_json_num(pg->overall.hi)));
	for (size_t q = 0; q < pg->n_ids; q++) {
		json_t *jq = json_object(), *jsides = json_array();
		json_object_set_new(jq, "id", json_string(pg->ids[q]));
		if (pg->compare) {
			const struct rpt_html_row *r = &pg->rows[q];
			json_object_set_new(jq, "verdict", json_string(verdict_label(r->verdict)));
			json_object_set_new(jq, "ratio", res_json_num(r->ratio));
			json_object_set_new(jq, "lo", res_json_num(r->lo));
			json_object_set_new(jq, "hi", res_json_num(r->hi));
			json_object_set_new(jq, "p_adj", res_json_num(r->p_adj));
			json_object_set_new(jq, "plan_changed", json_boolean(r->plan_changed));
			json_object_set_new(jq, "wrong", json_boolean(r->wrong));
		}
		for (size_t s = 0; s < pg->n_sides; s++) {
			const struct rpt_html_fig *f = &pg->figs[q * pg->n_sides + s];
			const struct res_query *rq =
			    res_file_find_query(pg->sides[s].res, pg->ids[q]);
			json_t *js = json_object(), *means = json_array(), *runs = json_array();
			for (size_t i = 0; i < f->n_ok; i++)
				json_array_append_new(means, res_json_num(f->means[i]));
			for (size_t i = 0; rq && i < rq->n_restarts; i++) {
				const struct res_restart *r = &rq->restarts[i];
				size_t n = 0;
				for (size_t j = 0; j < r->n_warmup; j++)
					json_array_append_new(
					    runs, json_pack("[i,I,o,i]", r->index, (json_int_t)++n,
							    res_json_num(r->warmup_ms[j]), 0));
				for (size_t j = 0; j < r->n_measured; j++)
					json_array_append_new(
					    runs, json_pack("[i,I,o,i]", r->index, (json_int_t)++n,
							    res_json_num(r->measured_ms[j]), 1));
			}
			json_object_set_new(js, "means", means);
			json_object_set_new(js, "runs", runs);
			json_array_append_new(jsides, js);
		}
		json_object_set_new(jq, "sides", jsides);
		json_array_append_new(qs, jq);
	}
	json_object_set_new(d, "queries", qs);
	json_object_set_new(d, "seq", rpt_html_seq_json(pg));
	return d;
fail:
	json_decref(d);
	json_decref(sides);
	json_decref(qs);
	return NULL;
}

/* JSON inside <script type="application/json">: '<', '>' and '&' only occur inside strings, where
 * \u escapes keep the text identical after JSON.parse and nothing can close the element. */
void rpt_html_json_script(FILE *out, const char *text)
{
	for (const char *p = text; *p; p++) {
		if (*p == '<')
			fputs("\\u003c", out);
		else if (*p == '>')
			fputs("\\u003e", out);
		else if (*p == '&')
			fputs("\\u0026", out);
		else
			fputc(*p, out);
	}
}

char *rpt_html_data_text(json_t *data)
{
	char *text = data ? json_dumps(data, JSON_COMPACT | JSON_REAL_PRECISION(7)) : NULL;
	json_decref(data);
	return text;
}

void rpt_html_page_head(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"dbt3stab " DBT3STAB_VERSION "\">\n<title>",
	      out);
	esc(out, title);
	fputs("</title>\n<style>\n", out);
	fwrite(rpt_asset_report_css, 1, rpt_asset_report_css_len, out);
	fputs("</style>\n</head>\n<body>\n<header>\n<h1>", out);
	esc(out, title);
	fputs("</h1>\n", out);
}

void rpt_html_page_tail(FILE *out, const char *data, const unsigned char *js, size_t js_len)
{
	fputs("</main>\n<footer>\n<p>Generated by dbt3stab " DBT3STAB_VERSION ". Charts: Vega and "
	      "Vega-Lite (University of Washington Interactive Data Lab, BSD-3-Clause), inlined; "
	      "the page fetches nothing.</p>\n<details><summary>Licences of the inlined "
	      "libraries</summary><pre>",
	      out);
	esc(out, (const char *)rpt_asset_licenses);
	fputs("</pre></details>\n</footer>\n<script type=\"application/json\" id=\"dbt3-data\">",
	      out);
	rpt_html_json_script(out, data);
	fputs("</script>\n<script>\n", out);
	fwrite(rpt_asset_vega_js, 1, rpt_asset_vega_js_len, out);
	fputs("\n</script>\n<script>\n", out);
	fwrite(rpt_asset_vega_lite_js, 1, rpt_asset_vega_lite_js_len, out);
	fputs("\n</script>\n<script>\n", out);
	fwrite(js, 1, js_len, out);
	fputs("\n</script>\n</body>\n</html>\n", out);
}

int rpt_html_page_write(FILE *out, const struct rpt_html_page *pg, struct errbuf *err)
{
	char *text = rpt_html_data_text(page_data(pg));
	if (!text)
		return errbuf_set(err, "cannot build the report data: out of memory");
	rpt_html_page_head(out, pg->title);
	write_headline(out, pg);
	write_meta(out, pg);
	fputs("</header>\n<main>\n", out);
	write_warnings(out, pg);
	if (pg->compare)
		fputs("<h2>Ratio new/old per query</h2>\n<p class=\"muted\">Point: ratio of the "
		      "geometric "
		      "means of the restart means; bar: its confidence interval; shaded: the "
		      "min-effect "
		      "band; colour: verdict; diamond: plan changed; cross: wrong result.</p>\n"
		      "<div class=\"chart\" data-chart=\"forest\" id=\"forest\"></div>\n",
		      out);
	else
		fputs("<h2>Restart-to-restart spread</h2>\n<p class=\"muted\">Each dot is the mean "
		      "of the "
		      "measured runs of one server start, relative to the geometric mean of that "
		      "file's restart means for the query.</p>\n"
		      "<div class=\"chart\" data-chart=\"spread\" id=\"spread\"></div>\n",
		      out);
	rpt_html_seq_write(out, pg);
	fputs("<noscript><p class=\"chart-error\">The charts need JavaScript; the tables below do "
	      "not.</p></noscript>\n<h2>Figures</h2>\n<p class=\"muted\">Click a column header to "
	      "sort.",
	      out);
	if (pg->compare)
		fputs(" ms: geometric mean of the restart means; ratio new/old with its confidence "
		      "interval; p before and after the correction; n: restarts used; CoV: "
		      "between-restart coefficient of variation.",
		      out);
	fputs("</p>\n<div class=\"table-wrap\">\n", out);
	if (pg->compare)
		write_table_compare(out, pg);
	else
		write_table_report(out, pg);
	fputs("</div>\n", out);
	rpt_html_budget_write(out, pg);
	write_queries(out, pg);
	rpt_html_page_tail(out, text, rpt_asset_report_js, rpt_asset_report_js_len);
	free(text);
	if (ferror(out))
		return errbuf_set(err, "cannot write the report");
	return 0;
}

/* ---- building a page ---- */

void rpt_html_page_release(struct rpt_html_page *pg)
{
	if (pg->figs)
		for (size_t i = 0; i < pg->n_ids * pg->n_sides; i++)
			rpt_html_fig_release(&pg->figs[i]);
	free(pg->figs);
	for (size_t s = 0; s < pg->n_sides; s++)
		free(pg->sides[s].name);
	free(pg->ids);
	free(pg->rows);
	free(pg->title);
	free(pg->settings);
	memset(pg, 0, sizeof(*pg));
}

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	return slash ? slash + 1 : path;
}

/* A side's name of the given kind: 0 label, 1 variant, 2 file name; NULL when it has none. */
static const char *side_base(const struct rpt_html_page *pg, size_t s, int kind)
{
	const struct res_file *r = pg->sides[s].res;
	if (kind == 0)
		return r->label && *r->label ? r->label : NULL;
	if (kind == 1) {
		const char *v = json_string_value(json_object_get(r->plan, "variant"));
		return v && *v ? v : NULL;
	}
	return pg->sides[s].path ? base_name(pg->sides[s].path) : NULL;
}

int rpt_html_page_init(struct rpt_html_page *pg, const struct res_file *const *files,
		       const char *const *paths, const char *const *prefixes, size_t n,
		       const char *const *ids, size_t n_ids, struct errbuf *err)
{
	memset(pg, 0, sizeof(*pg));
	pg->alpha = 0.05;
	pg->min_effect = 0.02;
	if (n == 0 || n > RPT_HTML_MAX_SIDES)
		return errbuf_set(err, "a report takes 1 to %d result files", RPT_HTML_MAX_SIDES);
	pg->n_sides = n;
	size_t cap = 0;
	for (size_t s = 0; s < n; s++) {
		pg->sides[s].res = files[s];
		pg->sides[s].path = paths ? paths[s] : NULL;
		cap += files[s]->n_queries;
	}
	pg->ids = calloc(cap + n_ids + 1, sizeof(*pg->ids));
	if (!pg->ids)
		goto oom;
	for (size_t i = 0; ids && i < n_ids; i++)
		pg->ids[pg->n_ids++] = ids[i];
	/* else the union of the query ids, in the order of first appearance */
	for (size_t s = 0; !ids && s < n; s++) {
		for (size_t q = 0; q < files[s]->n_queries; q++) {
			const char *id = files[s]->queries[q].id;
			size_t i;
			for (i = 0; i < pg->n_ids && strcmp(pg->ids[i], id); i++)
				;
			if (i == pg->n_ids)
				pg->ids[pg->n_ids++] = id;
		}
	}
	/* legend names: the labels, else the variants, else the file names, whichever tells the
	 * sides apart; "#i" added when none does; "<prefix>: " in front */
	int kind;
	for (kind = 0; kind < 3; kind++) {
		int distinct = 1;
		for (size_t s = 0; s < n && distinct; s++) {
			const char *a = side_base(pg, s, kind);
			for (size_t t = s + 1; t < n && distinct; t++) {
				const char *b = side_base(pg, t, kind);
				distinct = a && b && strcmp(a, b);
			}
			distinct &= a != NULL;
		}
		if (distinct)
			break;
	}
	for (size_t s = 0; s < n; s++) {
		const char *base = side_base(pg, s, kind < 3 ? kind : 0);
		int rc;
		if (!base)
			base = side_base(pg, s, 2);
		if (!base)
			base = "result";
		if (kind == 3 && n > 1)
			rc = asprintf(&pg->sides[s].name, "%s%s%s (#%zu)",
				      prefixes ? prefixes[s] : "", prefixes ? ": " : "", base,
				      s + 1);
		else if (prefixes && strcmp(prefixes[s], base))
			rc = asprintf(&pg->sides[s].name, "%s: %s", prefixes[s], base);
		else
			rc = asprintf(&pg->sides[s].name, "%s", base);
		if (rc < 0) {
			pg->sides[s].name = NULL;
			goto oom;
		}
		pg->sides[s].base = pg->sides[s].name;
		if (prefixes && !strncmp(pg->sides[s].name, prefixes[s], strlen(prefixes[s])) &&
		    !strncmp(pg->sides[s].name + strlen(prefixes[s]), ": ", 2))
			pg->sides[s].base += strlen(prefixes[s]) + 2;
	}
	pg->figs = calloc(pg->n_ids * n + 1, sizeof(*pg->figs));
	if (!pg->figs)
		goto oom;
	for (size_t q = 0; q < pg->n_ids; q++)
		for (size_t s = 0; s < n; s++)
			if (rpt_html_fig_compute(&pg->figs[q * n + s],
						 res_file_find_query(files[s], pg->ids[q])) < 0)
				goto oom;
	return 0;
oom:
	rpt_html_page_release(pg);
	return errbuf_set(err, "cannot build the report: out of memory");
}

int rpt_html_write_report(FILE *out, const struct res_file *const *files, const char *const *paths,
			  size_t n, struct errbuf *err)
{
	struct rpt_html_page pg;
	if (rpt_html_page_init(&pg, files, paths, NULL, n, NULL, 0, err) < 0)
		return -1;
	int rc = 0;
	if (n == 1)
		rc = asprintf(&pg.title, "dbt3stab report: %s", pg.sides[0].name);
	else
		rc = asprintf(&pg.title, "dbt3stab report: %zu results", n);
	if (rc < 0) {
		pg.title = NULL;
		rpt_html_page_release(&pg);
		return errbuf_set(err, "cannot build the report: out of memory");
	}
	rc = rpt_html_page_write(out, &pg, err);
	rpt_html_page_release(&pg);
	return rc;
}
