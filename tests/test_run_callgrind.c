/* SPDX-License-Identifier: MIT */
/* The profile by function (runner/run_callgrind.c, run_cg_syms.c): a real callgrind output
 * (tests/data/callgrind/small.out, made by gen.sh) read into the values derive.py took from
 * callgrind_annotate's own tables (expected.tsv), addresses named from a symbol list, the
 * positions and compressions of the format, and malformed outputs refused. */
#include "harness.h"
#include "runner/run_callgrind.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_data(const char *name, size_t *len)
{
	char path[1024], *text = NULL;
	struct errbuf err;
	snprintf(path, sizeof(path), "%s/tests/data/callgrind/%s", DBT3_SOURCE_DIR, name);
	CU_ASSERT_EQUAL_FATAL(util_read_file(path, &text, len, &err), 0);
	return text;
}

static const struct run_cg_fn *find(const struct run_cg_profile *p, const char *name)
{
	for (int i = 0; i < p->n; i++)
		if (strcmp(p->fn[i].name, name) == 0)
			return &p->fn[i];
	return NULL;
}

static struct run_cg_profile *parse_small(const struct run_cg_syms *syms)
{
	size_t len;
	char *text = read_data("small.out", &len);
	struct run_cg_profile *p = malloc(sizeof(*p));
	struct errbuf err = {""};
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(run_cg_parse(text, len, syms, p, &err), 0);
	free(text);
	return p;
}

/* Every function of expected.tsv: kept with annotate's self and inclusive counts when either
 * holds RUN_CG_SHARE of the total, absent otherwise; the list sorted by self. */
TH_TEST(run_callgrind, real_output_matches_callgrind_annotate)
{
	struct run_cg_profile *p = parse_small(NULL);
	char *tsv = read_data("expected.tsv", NULL);
	long long total = -1;
	int rows = 0, kept = 0;
	for (char *line = strtok(tsv, "\n"); line; line = strtok(NULL, "\n")) {
		char name[256];
		long long self = -1, incl = -1;
		if (sscanf(line, "total\t%lld", &total) == 1)
			continue;
		CU_ASSERT_EQUAL_FATAL(sscanf(line, "%255[^\t]\t%lld\t%lld", name, &self, &incl), 3);
		rows++;
		const struct run_cg_fn *f = find(p, name);
		int want = self >= 0.005 * 252779 || incl >= 0.005 * 252779;
		CU_ASSERT_EQUAL(f != NULL, want);
		if (!f || !want)
			continue;
		kept++;
		CU_ASSERT_EQUAL(f->self, self);
		CU_ASSERT_EQUAL(f->incl, incl);
	}
	CU_ASSERT_EQUAL(total, 252779);
	CU_ASSERT_EQUAL(p->total, total);
	CU_ASSERT_EQUAL(rows, 9);
	CU_ASSERT_EQUAL(kept, 8); /* tiny (2 instructions) is below 0.5 % */
	CU_ASSERT_EQUAL(p->n, kept);
	CU_ASSERT_STRING_EQUAL(p->fn[0].name, "leaf_a");
	for (int i = 1; i < p->n; i++)
		CU_ASSERT(p->fn[i - 1].self >= p->fn[i].self);
	CU_ASSERT_EQUAL(p->named + p->unnamed, total);
	CU_ASSERT_EQUAL(p->resolved, 0);
	free(tsv);
	free(p);
}

/* The address callgrind could not name takes the symbol list's demangled name. */
TH_TEST(run_callgrind, symbol_list_names_addresses)
{
	static const char nm[] = "0000000000000010 b _ZL7THR_THD\n"
				 "000000000001ab70 t _ZN3foo3barEv\n"
				 "000000000001ab90 T plain_c_function\n"
				 "000000000001ac00 W _ZN3foo3bazIiEEvT_\n";
	struct run_cg_syms *sy = NULL;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL_FATAL(run_cg_syms_parse(&sy, nm, sizeof(nm) - 1, &err), 0);
	CU_ASSERT_PTR_NULL(run_cg_syms_at(sy, 0x10)); /* data, not a function */
	CU_ASSERT_STRING_EQUAL(run_cg_syms_at(sy, 0x1ab90), "plain_c_function");
	CU_ASSERT_STRING_EQUAL(run_cg_syms_at(sy, 0x1ac00), "void foo::baz<int>(int)");
	CU_ASSERT_PTR_NULL(run_cg_syms_at(sy, 0x1ab71));
	struct run_cg_profile *p = parse_small(sy);
	CU_ASSERT_PTR_NULL(find(p, "0x000000000001ab70"));
	const struct run_cg_fn *f = find(p, "foo::bar()");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(f->self, 0);
	CU_ASSERT_EQUAL(f->incl, 252779);
	free(p);
	run_cg_syms_free(sy);
}

/* "positions: instr line", hexadecimal and "*" positions, trailing zeros left out, names not
 * compressed, an address name with a recursion level, and a "totals:" that wins over "summary:". */
TH_TEST(run_callgrind, positions_and_compressions)
{
	static const char text[] = "# callgrind format\n"
				   "version: 1\n"
				   "positions: instr line\n"
				   "events: Ir Dr\n"
				   "summary: 999\n"
				   "fn=outer\n"
				   "0x10 3 400 7\n"
				   "+4 * 100\n"
				   "cfn=0x00000000000000a0\n"
				   "calls=2 0x20 9\n"
				   "* -1 500 3\n"
				   "-2 +1\n"
				   "fn=0x00000000000000a0\n"
				   "0xa0 1 300\n"
				   "cfn=0x00000000000000a0'2\n"
				   "calls=1 0xa0 1\n"
				   "* * 200\n"
				   "fn=0x00000000000000a0'2\n"
				   "0xa0 1 200\n"
				   "totals: 1000\n";
	struct run_cg_profile p;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL_FATAL(run_cg_parse(text, sizeof(text) - 1, NULL, &p, &err), 0);
	CU_ASSERT_EQUAL(p.total, 1000);
	CU_ASSERT_EQUAL(p.n, 2);
	const struct run_cg_fn *o = find(&p, "outer"), *a = find(&p, "0x00000000000000a0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL(o->self, 500);
	CU_ASSERT_EQUAL(o->incl, 1000);
	CU_ASSERT_EQUAL(a->self, 500);
	CU_ASSERT_EQUAL(a->incl, 500);
	CU_ASSERT_EQUAL(p.unnamed, 500);
	CU_ASSERT_EQUAL(p.named, 500);
}

TH_TEST(run_callgrind, malformed_outputs_refused)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
	    {"fn=a\n1 2\n", "no 'events:' line"},
	    {"events: Dr\nfn=a\n1 2\n", "instructions (Ir) first"},
	    {"events: Ir\n1 2\n", "before any 'fn='"},
	    {"events: Ir\nfn=a\ncalls=1 2\n1 2\n", "without 'cfn='"},
	    {"events: Ir\nfn=(3)\n", "used before it is defined"},
	    {"events: Ir\nfn=(x) a\n", "not '(id)'"},
	    {"events: Ir\nfn=a\n1 lots\n", "not a count"},
	    {"events: Ir\nfn=a\n1 -5\n", "not a count"},
	    {"events: Ir\nfn=a\nhello world\n", "does not write"},
	    {"events: Ir\npositions: instr line col\n", "3 columns"},
	    {"events: Ir\nfn=\n", "empty function name"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run_cg_profile p;
		struct errbuf err = {""};
		CU_ASSERT_EQUAL(run_cg_parse(cases[i].text, strlen(cases[i].text), NULL, &p, &err),
				-1);
		if (!strstr(err.msg, cases[i].msg))
			fprintf(stderr, "case %zu: '%s' lacks '%s'\n", i, err.msg, cases[i].msg);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, cases[i].msg));
	}
}

TH_MAIN(run_callgrind)
