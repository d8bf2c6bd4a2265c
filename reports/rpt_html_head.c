/* SPDX-License-Identifier: MIT */
/* The HTML page's header: the settings of each side, the headline, the warnings. */
#include "reports/rpt_html.h"
#include "reports/rpt_html_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
	rpt_html_esc(out, label);
	fputs("</th>", out);
	for (size_t i = 0; i < n; i++) {
		fputs(differ && n > 1 ? "<td class=\"differs\">" : "<td>", out);
		if (vals[i])
			rpt_html_esc(out, vals[i]);
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
		return r->label ? rpt_html_cut(r->label, RPT_HTML_LABEL_MAX) : NULL;
	case MK_DATES:
		if (asprintf(&s, "%s \xe2\x80\x93 %s", r->started_at ? r->started_at : "?",
			     r->finished_at ? r->finished_at : "unfinished") < 0)
			return NULL;
		return s;
	case MK_STRING:
		return r->tool_version ? strdup(r->tool_version) : NULL;
	case MK_PLAN: {
		json_t *p = r->plan;
		char *rs = rpt_html_section_text(rpt_html_section_get(p, "restarts"));
		char *wu = rpt_html_section_text(rpt_html_section_get(p, "warmup"));
		char *ru = rpt_html_section_text(rpt_html_section_get(p, "runs"));
		char *order = rpt_html_section_text(rpt_html_section_get(p, "query_order"));
		char *seed = rpt_html_section_text(rpt_html_section_get(p, "seed"));
		char *bs = rpt_html_section_text(rpt_html_section_get(p, "budget_s"));
		if (bs && (rs || wu || ru)) {
			/* run --budget: warmup and runs are the upper bounds (--warmup-max,
			 * --runs-max), not what every query had */
			if (asprintf(
				&s,
				"%s restarts \xc3\x97 (warm-up until steady, at most %s + at most "
				"%s measured) in a budget of %s s%s%s%s%s",
				rs ? rs : "?", wu ? wu : "?", ru ? ru : "?", bs,
				order ? ", order " : "", order ? order : "", seed ? ", seed " : "",
				seed ? seed : "") < 0)
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
		return rpt_html_section_text(rpt_html_section_get(*sec, f->key));
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

void rpt_html_meta_write(FILE *out, const struct rpt_html_page *pg)
{
	char *vals[RPT_HTML_MAX_SIDES] = {0};
	fputs("<table class=\"meta\">\n", out);
	if (pg->compare) {
		fputs("<tr><th></th><th>old</th><th>new</th></tr>\n", out);
	} else if (pg->n_sides > 1) {
		fputs("<tr><th></th>", out);
		for (size_t i = 0; i < pg->n_sides; i++) {
			fputs("<th>", out);
			rpt_html_esc(out, pg->sides[i].name);
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

const char *rpt_html_verdict_label(const char *v)
{
	return v ? v : "";
}

void rpt_html_headline_write(FILE *out, const struct rpt_html_page *pg)
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
		rpt_html_fmt_g(a, sizeof(a), "%.4f", pg->overall.ratio);
		rpt_html_fmt_g(b, sizeof(b), "%.4f", pg->overall.lo);
		rpt_html_fmt_g(c, sizeof(c), "%.4f", pg->overall.hi);
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
		rpt_html_esc(out, pg->settings);
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

void rpt_html_warnings_write(FILE *out, const struct rpt_html_page *pg)
{
	int opened = 0;
	for (size_t i = 0; !pg->compare && i < pg->n_sides; i++) { /* compare: in its notes */
		char noise[1024];
		int pool = res_file_pool_fits(pg->sides[i].res) == 0;
		size_t nd = res_interf_line(pg->sides[i].res, noise, sizeof(noise));
		if (!pool && !nd)
			continue;
		if (!opened)
			fputs("<h2>Warnings</h2>\n<ul class=\"warnings\">\n", out);
		opened = 1;
		for (int k = 0; k < 2; k++) {
			if (k == 0 ? !pool : !nd)
				continue;
			fputs("<li>", out);
			rpt_html_esc(out, pg->sides[i].name);
			fputs(": ", out);
			rpt_html_esc(out, k == 0 ? RES_POOL_NOT_FIT : noise);
			fputs("</li>\n", out);
		}
	}
	for (size_t i = 0; i < pg->n_notes; i++) {
		if (!opened)
			fputs("<h2>Warnings</h2>\n<ul class=\"warnings\">\n", out);
		opened = 1;
		fputs("<li>", out);
		rpt_html_esc(out, pg->notes[i]);
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
			rpt_html_esc(out, pg->ids[q]);
			fputs(" in ", out);
			rpt_html_esc(out, pg->sides[s].name);
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
				rpt_html_esc_limited(out, f->error_text, 300);
				fputs("</q>", out);
			}
			fputs("</li>\n", out);
		}
	}
	if (opened)
		fputs("</ul>\n", out);
}
