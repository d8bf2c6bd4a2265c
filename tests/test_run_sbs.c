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
		CU_ASSERT_EQUAL(rc, c[i].fits ? 0 : -1);
		if (!c[i].fits) { /* one line that names the way */
			CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "restart-paired"));
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
	CU_ASSERT_EQUAL(run_sbs_pools_plan(&p, 0, 10, 24 * GIB, 16 * GIB, own, &err), -1);
	CU_ASSERT_EQUAL(p.pool[0], 16 * GIB);
	CU_ASSERT_EQUAL(p.pool[1], 3 * GIB);
	CU_ASSERT_EQUAL(run_sbs_pools_plan(&p, 0, 10, 24 * GIB, 15 * GIB, own, &err), 0);
	CU_ASSERT_EQUAL(run_sbs_pools_plan(&p, 0, 10, 0, 0, NULL, &err), 0); /* 18 + 3 > 18 */
	CU_ASSERT_EQUAL(p.cap, 0);
	CU_ASSERT_EQUAL(p.fits, 1);
}

/* Without a seed A opens even pairs and B odd ones; within a phase the slots go A B, B A, ... */
TH_TEST(run_sbs, order_alternates_and_balances)
{
	for (int pair = 0; pair < 6; pair++)
		CU_ASSERT_EQUAL(run_sbs_first(0, 0, pair), pair % 2);
	int firsts[2] = {0, 0};
	for (int pair = 0; pair < 2; pair++) /* two pairs of 5 slots: each opens 5 slots */
		for (int k = 0; k < 5; k++)
			firsts[run_sbs_slot_first(run_sbs_first(0, 0, pair), k)]++;
	CU_ASSERT_EQUAL(firsts[0], 5);
	CU_ASSERT_EQUAL(firsts[1], 5);
	static const int want[] = {0, 1, 0, 1, 0, 1}; /* openers of A B, B A, A B, ...: ABBAAB.. */
	for (int k = 0; k < 6; k++)
		CU_ASSERT_EQUAL(run_sbs_slot_first(0, k), want[k]);
	for (int k = 0; k < 6; k++)
		CU_ASSERT_EQUAL(run_sbs_slot_first(1, k), 1 - (k % 2));
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

TH_TEST(run_sbs, order_string_checked)
{
	char s[16] = "";
	const char *seq = "ABBAABBA"; /* 2 warm-up slots (AB BA) then 2 measured (AB BA) */
	for (const char *p = seq; *p; p++)
		run_sbs_order_add(s, sizeof(s), *p == 'B');
	CU_ASSERT_STRING_EQUAL(s, seq);
	CU_ASSERT(run_sbs_order_valid(s, 0, 2));
	CU_ASSERT(!run_sbs_order_valid(s, 1, 2));
	CU_ASSERT(!run_sbs_order_valid("ABBABAAB", 0, 2)); /* measured did not restart with A */
	CU_ASSERT(run_sbs_order_valid("ABBAAB", 0, 2));
	CU_ASSERT(run_sbs_order_valid("ABBAAB", 0, 3)); /* three warm-up slots */
	CU_ASSERT(!run_sbs_order_valid("ABBAAB", 0, 1));
	CU_ASSERT(run_sbs_order_valid("ABABBA", 0, 1));
	CU_ASSERT(!run_sbs_order_valid("ABAB", 0, 2));
	CU_ASSERT(!run_sbs_order_valid("AABB", 0, 2));
	CU_ASSERT(run_sbs_order_valid("ABBBB", 0, 2)); /* A failed: B alone */
	CU_ASSERT(!run_sbs_order_valid("ABBBA", 0, 2));
	CU_ASSERT(run_sbs_order_valid("BABA", 1, 1));
	CU_ASSERT(run_sbs_order_valid("BAAB", 1, 2));
	CU_ASSERT(!run_sbs_order_valid("BAAB", 1, 1));
	for (int i = 0; i < 20; i++) /* a full string ends in '+' */
		run_sbs_order_add(s, sizeof(s), i % 2);
	CU_ASSERT_EQUAL(strlen(s), sizeof(s) - 1);
	CU_ASSERT_EQUAL(s[strlen(s) - 1], '+');
}

TH_MAIN(run_sbs)
