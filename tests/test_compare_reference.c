/* SPDX-License-Identifier: MIT */
/* 'dbt3stab compare --format json' end to end against numbers computed outside dbt3stab: R's
 * t.test and p.adjust on the same result files (tests/data/compare_reference.json, made by
 * tests/data/compare_reference.py). Every option is given on the command line, including the
 * issue-14 defaults (--method auto, --alternative greater) as cases of their own. */
#include "tests/harness.h"
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define REL_TOL 1e-9

/* Runs compare for one reference case; its JSON report, or NULL. *exit_code gets the exit. */
static json_t *run_compare(const json_t *c, int *exit_code)
{
	const json_t *o = json_object_get(c, "options");
	char cmd[8192];
	snprintf(cmd, sizeof(cmd),
		 "'%s' compare '%s/tests/data/%s' '%s/tests/data/%s' --format json -q "
		 "--method %s --correction %s --alpha %.17g --min-effect %.17g --alternative %s",
		 DBT3_BINARY, DBT3_SOURCE_DIR, json_string_value(json_object_get(c, "old")),
		 DBT3_SOURCE_DIR, json_string_value(json_object_get(c, "new")),
		 json_string_value(json_object_get(o, "method")),
		 json_string_value(json_object_get(o, "correction")),
		 json_real_value(json_object_get(o, "alpha")),
		 json_real_value(json_object_get(o, "min_effect")),
		 json_string_value(json_object_get(o, "alternative")));
	FILE *p = popen(cmd, "r");
	if (!p)
		return NULL;
	json_error_t jerr;
	json_t *out = json_loadf(p, 0, &jerr);
	int st = pclose(p);
	*exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	if (!out)
		fprintf(stderr, "%s: %s\n", cmd, jerr.text);
	return out;
}

/* got equals the reference want at REL_TOL; a reference "Inf" is what JSON cannot hold: null
 * in a query's df, "inf" in the prior's. */
static void check_number(const char *what, const json_t *got, const json_t *want)
{
	if (json_is_string(want)) {
		CU_ASSERT_STRING_EQUAL(json_string_value(want), "Inf");
		int ok = json_is_null(got) ||
			 (json_is_string(got) && strcmp(json_string_value(got), "inf") == 0);
		if (!ok)
			fprintf(stderr, "%s: expected infinity\n", what);
		CU_ASSERT_TRUE(ok);
		return;
	}
	double w = json_number_value(want), g = json_number_value(got);
	int ok = json_is_number(got) && fabs(g - w) <= REL_TOL * fabs(w);
	if (!ok)
		fprintf(stderr, "%s: %.17g, R says %.17g (relative %.3g)\n", what, g, w,
			fabs(g - w) / fabs(w));
	CU_ASSERT_TRUE(ok);
}

static void check_fields(const char *where, const json_t *got, const json_t *want,
			 const char *const *names)
{
	char what[256];
	for (const char *const *n = names; *n; n++) {
		snprintf(what, sizeof(what), "%s %s", where, *n);
		check_number(what, json_object_get(got, *n), json_object_get(want, *n));
	}
	const json_t *gci = json_object_get(got, "ci"), *wci = json_object_get(want, "ci");
	for (size_t i = 0; i < 2; i++) {
		snprintf(what, sizeof(what), "%s ci[%zu]", where, i);
		check_number(what, json_array_get(gci, i), json_array_get(wci, i));
	}
}

static const json_t *query_by_id(const json_t *report, const char *id)
{
	const json_t *qs = json_object_get(report, "queries");
	for (size_t i = 0; i < json_array_size(qs); i++)
		if (strcmp(json_string_value(json_object_get(json_array_get(qs, i), "id")), id) ==
		    0)
			return json_array_get(qs, i);
	return NULL;
}

static void check_query(const char *cname, const json_t *got, const json_t *want, int *regressed)
{
	static const char *const nums[] = {"ratio", "t", "df", "p", "p_adjusted", NULL};
	char where[200], what[260];
	const char *verdict = json_string_value(json_object_get(want, "verdict"));
	snprintf(where, sizeof(where), "%s %s", cname,
		 json_string_value(json_object_get(want, "id")));
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	check_fields(where, got, want, nums);
	/* each side's geometric mean and sd of the logs: R's old_gmean_ms is our old.gmean_ms */
	static const char *const sides[] = {"old", "new"}, *const stats[] = {"gmean_ms", "sd_log"};
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < 2; i++) {
			char key[64];
			snprintf(key, sizeof(key), "%s_%s", sides[i], stats[k]);
			snprintf(what, sizeof(what), "%s %s %s", where, sides[i], stats[k]);
			check_number(what,
				     json_object_get(json_object_get(got, sides[i]), stats[k]),
				     json_object_get(want, key));
		}
	const char *got_verdict = json_string_value(json_object_get(got, "verdict"));
	if (!got_verdict)
		got_verdict = "(none)";
	if (strcmp(got_verdict, verdict) != 0)
		fprintf(stderr, "%s: verdict %s, R says %s\n", where, got_verdict, verdict);
	CU_ASSERT_STRING_EQUAL(got_verdict, verdict);
	if (strcmp(verdict, "regression") == 0)
		*regressed = 1;
}

static void check_case(const json_t *c)
{
	static const char *const overall[] = {"ratio", "t", "df", "p", NULL};
	const char *name = json_string_value(json_object_get(c, "name"));
	int code = -1, regressed = 0;
	json_t *rep = run_compare(c, &code);
	CU_ASSERT_PTR_NOT_NULL_FATAL(rep);
	const json_t *want_qs = json_object_get(c, "queries");
	CU_ASSERT_EQUAL(json_array_size(json_object_get(rep, "queries")), json_array_size(want_qs));
	for (size_t i = 0; i < json_array_size(want_qs); i++) {
		const json_t *w = json_array_get(want_qs, i);
		check_query(name, query_by_id(rep, json_string_value(json_object_get(w, "id"))), w,
			    &regressed);
	}
	char where[200];
	snprintf(where, sizeof(where), "%s overall", name);
	check_fields(where, json_object_get(rep, "overall"), json_object_get(c, "overall"),
		     overall);
	const json_t *prior = json_object_get(c, "eb_prior");
	if (prior) {
		static const char *const p[] = {"df", "var_log", NULL};
		char what[260];
		for (const char *const *n = p; *n; n++) {
			snprintf(what, sizeof(what), "%s eb_prior %s", name, *n);
			check_number(what, json_object_get(json_object_get(rep, "eb_prior"), *n),
				     json_object_get(prior, *n));
		}
	}
	CU_ASSERT_EQUAL(code, regressed ? 1 : 0); /* exit 1 when any query regressed */
	json_decref(rep);
}

TH_TEST(compare_reference, json_report_matches_r)
{
	char path[4096];
	json_error_t jerr;
	snprintf(path, sizeof(path), "%s/tests/data/compare_reference.json", DBT3_SOURCE_DIR);
	json_t *ref = json_load_file(path, 0, &jerr);
	if (!ref)
		fprintf(stderr, "%s: %s\n", path, jerr.text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ref);
	const json_t *cases = json_object_get(ref, "cases");
	CU_ASSERT_EQUAL(json_array_size(cases), 8);
	for (size_t i = 0; i < json_array_size(cases); i++)
		check_case(json_array_get(cases, i));
	json_decref(ref);
}

TH_MAIN(compare_reference)
