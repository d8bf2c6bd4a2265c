/* SPDX-License-Identifier: MIT */
/* Unit tests of side by side's order within a pair and its two buffer pools (runner/run_sbs.h).
 * The pools' expected figures: python3 tests/data/run_sbs_pools.py (its output is
 * tests/data/run_sbs_pools.out), the rule of docs/server.md worked by hand. */
#include "harness.h"
#include "runner/run_sbs.h"
#include <string.h>

#define MIB (UINT64_C(1) << 20)
#define GIB (UINT64_C(1) << 30)

TH_TEST(run_sbs, pools_fit_or_refuse_as_derived)
{
	static const struct {
		uint64_t data;
		double sf;
		uint64_t ram, need, cap;
		int fits;
	} c[] = {
	    {0, 10, 24 * GIB, UINT64_C(35030827008), UINT64_C(19327352832), 0},
	    {0, 10, UINT64_C(24683664) * 1024, UINT64_C(35030827008), UINT64_C(18924699648), 0},
	    {0, 1, 24 * GIB, UINT64_C(3623878656), UINT64_C(19327352832), 1},
	    {256 * MIB, 0.1, 8 * GIB, UINT64_C(536870912), UINT64_C(4294967296), 1},
	    {0, 1, 8 * GIB, UINT64_C(3623878656), UINT64_C(4294967296), 0},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct run_sbs_pools p;
		struct errbuf err = {{0}};
		int rc = run_sbs_pools_plan(&p, c[i].data, c[i].sf, c[i].ram, 0, NULL, &err);
		CU_ASSERT_EQUAL(p.need, c[i].need);
		CU_ASSERT_EQUAL(p.cap, c[i].cap);
		CU_ASSERT_EQUAL(p.pool[0], c[i].need);
		CU_ASSERT_EQUAL(p.pool[1], c[i].need);
		CU_ASSERT_EQUAL(p.fits, c[i].fits);
		CU_ASSERT_EQUAL(rc, c[i].fits ? 0 : RUN_SBS_NO_ROOM);
		if (!c[i].fits) { /* one line: what is short (the command says what to do) */
			CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "gives the pools at most"));
			CU_ASSERT_PTR_NULL(strstr(err.msg, "restart-paired"));
			CU_ASSERT_PTR_NULL(strchr(err.msg, '\n'));
		}
	}
}

/* --buffer-pool and a variant's own pool are what the check adds up; RAM unknown: no check. */
TH_TEST(run_sbs, pools_from_options)
{
	struct run_sbs_pools p;
	struct errbuf err;
	const uint64_t own[2] = {0, 3 * GIB};
	CU_ASSERT_EQUAL(run_sbs_pools_plan(&p, 0, 10, 24 * GIB, 8 * GIB, NULL, &err), 0);
	CU_ASSERT_EQUAL(p.pool[0], 8 * GIB);
	CU_ASSERT_EQUAL(p.pool[1], 8 * GIB);
	CU_ASSERT_EQUAL(run_sbs_pools_plan(&p, 0, 10, 24 * GIB, 16 * GIB, own, &err),
			RUN_SBS_NO_ROOM);
	CU_ASSERT_EQUAL(p.pool[0], 16 * GIB);
	CU_ASSERT_EQUAL(p.pool[1], 3 * GIB);
	CU_ASSERT_EQUAL(run_sbs_pools_plan(&p, 0, 10, 24 * GIB, 15 * GIB, own, &err), 0);
	CU_ASSERT_EQUAL(run_sbs_pools_plan(&p, 0, 10, 0, 0, NULL, &err), 0); /* 18 + 3 > 18 */
	CU_ASSERT_EQUAL(p.cap, 0);
	CU_ASSERT_EQUAL(p.fits, 1);
}

/* Without a seed A opens even pairs and B odd ones, so each side opens half the pairs. */
TH_TEST(run_sbs, pair_opener_alternates)
{
	int opened[2] = {0, 0};
	for (int pair = 0; pair < 6; pair++) {
		CU_ASSERT_EQUAL(run_sbs_first(0, 0, pair), pair % 2);
		opened[run_sbs_first(0, 0, pair)]++;
	}
	CU_ASSERT_EQUAL(opened[0], 3);
	CU_ASSERT_EQUAL(opened[1], 3);
}

/* With a seed: a coin per pair, the same for the same seed, about half each way. */
TH_TEST(run_sbs, coin_is_seeded_and_fair)
{
	int heads = 0, same = 1, differs = 0;
	for (int pair = 0; pair < 2000; pair++) {
		int f = run_sbs_first(42, 1, pair);
		CU_ASSERT(f == 0 || f == 1);
		heads += f;
		same &= f == run_sbs_first(42, 1, pair);
		differs += f != run_sbs_first(43, 1, pair);
	}
	CU_ASSERT(same);
	/* binomial(2000, 1/2): sd 22.4; 4.5 sd either side fails by chance with p < 1e-5 */
	CU_ASSERT(heads > 900 && heads < 1100);
	CU_ASSERT(differs > 900 && differs < 1100);
}

/* The pair's order when nothing fails, written out by hand: strict alternation through the
 * warm-up, the measured runs and from one query to the next. */
TH_TEST(run_sbs, pair_order_alternates_strictly)
{
	static const struct {
		int first, n, slots[3];
		const char *want;
	} c[] = {
	    /* two queries of 1 warm-up + 2 runs (3 slots each), opener B: Q1 is BA then BABA
	     * (warm-up, measured) and ends with A, so Q2 opens with B: BA then BABA */
	    {1, 2, {3, 3}, "BABABABABABA"},
	    /* opener A: 2 warm-up + 3 runs (5 slots: ABAB | ABABAB); 0 warm-up + 2 runs and the
	     * unrecorded slot that hashes the result (3 slots: ABAB | AB); 1 run (AB) */
	    {0, 3, {5, 3, 1}, "ABABABABABABABABAB"},
	    /* a query with no slot (decided, or both files have it) runs nothing: BABA, -, BA */
	    {1, 3, {2, 0, 1}, "BABABA"},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char s[64];
		size_t n = run_sbs_pair_order(s, sizeof(s), c[i].first, c[i].slots, c[i].n);
		CU_ASSERT_STRING_EQUAL(s, c[i].want);
		CU_ASSERT_EQUAL(n, strlen(c[i].want));
		CU_ASSERT(run_sbs_order_valid(s, c[i].first));
		for (size_t k = 1; s[k]; k++) /* no server twice in a row */
			CU_ASSERT(s[k] != s[k - 1]);
	}
	char cut[8]; /* 6 letters and the '+' of a cut string */
	const int six[] = {6};
	CU_ASSERT_EQUAL(run_sbs_pair_order(cut, sizeof(cut), 0, six, 1), 12);
	CU_ASSERT_STRING_EQUAL(cut, "ABABAB+");
}

/* A query opens with the side that did not execute last: after a side failed and the other
 * finished the query alone, the next query opens with the failed side again. */
TH_TEST(run_sbs, query_opens_with_the_side_that_did_not_run_last)
{
	CU_ASSERT_EQUAL(run_sbs_query_first(0, -1), 0); /* the pair's first query: its opener */
	CU_ASSERT_EQUAL(run_sbs_query_first(1, -1), 1);
	CU_ASSERT_EQUAL(run_sbs_query_first(0, 1), 0); /* Q1 ended ...AB: Q2 opens with A */
	CU_ASSERT_EQUAL(run_sbs_query_first(1, 0), 1); /* ...BA: B */
	CU_ASSERT_EQUAL(run_sbs_query_first(0, 0), 1); /* Q1 ABAA (B failed): Q2 opens with B */
	CU_ASSERT_EQUAL(run_sbs_query_first(1, 1), 0);
}

TH_TEST(run_sbs, order_string_checked)
{
	static const struct {
		const char *s;
		int first, valid;
	} c[] = {
	    {"ABABAB", 0, 1},
	    {"ABABAB", 1, 0},
	    {"BABA", 1, 1},
	    {"", 0, 1},
	    {"ABBA", 0, 0},		/* the ABBA order of older versions */
	    {"ABBAABABBAABBAAB", 0, 0}, /* a query of its third session: 3 warm-up + 5 runs */
	    {"ABABABABABABABAB", 0, 1}, /* the same query in strict alternation */
	    {"ABABBB", 0, 1},		/* A failed at its third execution: B alone */
	    {"ABAA", 0, 1},		/* B failed at its second: A alone */
	    {"BBB", 0, 1},		/* A failed at its first */
	    {"AAA", 0, 1},		/* B failed at its first */
	    {"ABABBA", 0, 0},
	    {"AAB", 0, 0},
	    {"ABAB+", 0, 1},
	    {"AB+A", 0, 0},
	    {"ABxB", 0, 0},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		CU_ASSERT_EQUAL(run_sbs_order_valid(c[i].s, c[i].first), c[i].valid);
	char s[16] = "";
	const char *seq = "ABABABAB";
	for (const char *p = seq; *p; p++)
		run_sbs_order_add(s, sizeof(s), *p == 'B');
	CU_ASSERT_STRING_EQUAL(s, seq);
	for (int i = 0; i < 20; i++) /* a full string ends in '+' */
		run_sbs_order_add(s, sizeof(s), i % 2);
	CU_ASSERT_EQUAL(strlen(s), sizeof(s) - 1);
	CU_ASSERT_EQUAL(s[strlen(s) - 1], '+');
}

/* plan.side_by_side.order: the names this version writes, and the ABBA ones run --resume
 * refuses. */
TH_TEST(run_sbs, order_names)
{
	CU_ASSERT_STRING_EQUAL(run_sbs_order_name(0), "alternate");
	CU_ASSERT_STRING_EQUAL(run_sbs_order_name(1), "alternate-coin");
	CU_ASSERT(run_sbs_order_current("alternate"));
	CU_ASSERT(run_sbs_order_current("alternate-coin"));
	CU_ASSERT(!run_sbs_order_current("abba"));
	CU_ASSERT(!run_sbs_order_current("coin"));
	CU_ASSERT(!run_sbs_order_current(""));
	CU_ASSERT(!run_sbs_order_current(NULL));
}

TH_MAIN(run_sbs)
