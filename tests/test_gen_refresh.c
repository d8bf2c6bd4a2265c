/* SPDX-License-Identifier: MIT */
/* dbt3/gen_refresh.c against TPC-H dbgen -U's own update sets (md5 of each file at SF 0.01 and
 * 0.1; how they were made: tests/data/dbgen/README.md), and the 'gen --refresh' command. */
#include "base/cli.h"
#include "dbt3/gen.h"
#include "dbt3/gen_refresh.h"
#include "tests/harness.h"
#include "tests/th_gen.h"
#include "tests/th_spawn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* One update set's three files as dbgen 2.17.3 writes them (default format: rows end '|'). */
struct ref_set {
	int set;
	const char *orders, *lineitem, *delete;
};

/* dbgen -s 0.01 -U 3: tests/data/dbgen/sf0.01-refresh.md5 */
static const struct ref_set ref_sf001[] = {
    {1, "3c31b94f1bd15a67d8101b0d63f9eb58", "3309ecc7e015d92ca35249f91f303a71",
     "079060433d8301aaa3783456ed18c7f0"},
    {2, "bb402163444b211c9d4a24a8029d2907", "257dcf795b5959aad60bbdde88b743e0",
     "6861e53624044eb66a27c4d51eff4a83"},
    {3, "4342daf00f0f7d1748d322cbd88eb501", "b74c4ec1fcbfa3f4cc607b1b47aec8ca",
     "db1f9b91d446638c574e91b4aad802e8"},
};

/* The same sets without the trailing '|' (dbgen built with EOL_HANDLING's output: "KEY" in
 * delete.N): tests/data/dbgen/sf0.01-refresh-no-trailing-delimiter.md5 */
static const struct ref_set ref_sf001_nt[] = {
    {1, "204f76c0bfacec0a503897941942f34d", "8d5f6d64607b1120b7cf2dadef9c21db",
     "f3fedd2ecc7985f3d27411fc2bba8d6e"},
    {2, "84befa13d64451a44a132c2f96e1f396", "fc01fb473e4686c49be2c7aa0ab138a0",
     "11fd5121378bc57ebc0df8f5af047d94"},
    {3, "ce451095901afe153f2e0ce3c5fffc01", "6026ef8b56aabb51b441ab1426742e3e",
     "fd38f102df6987edc28a434682d0912a"},
};

/* dbgen -s 0.1 -U 2: tests/data/dbgen/sf0.1-refresh.md5 */
static const struct ref_set ref_sf01[] = {
    {1, "118b5ceb0a94dead0cf7b82749295ce4", "c11a7b7022f06c3e42243072eac98c77",
     "fbe49c09cda2fbad3dfdcb69e5f3aed8"},
    {2, "4b504f83182aef31b21c746d7fad8733", "32893697123bfb326db9575968855edd",
     "4452dccc9aef54b941f1dfe5100b5e91"},
};

/* tests/data/dbgen/sf0.1-refresh-no-trailing-delimiter.md5 */
static const struct ref_set ref_sf01_nt[] = {
    {1, "6ef25c1fbeeb24256defa5c509993c2e", "8dfb08631e9e2aad780f6697c148d744",
     "7458a1fc756db0890ac33382887adc86"},
    {2, "8bb2683f1e5f6407f6910cc64634cb0e", "eccf95dbcf498208df9361cadd756dbf",
     "18145fdc90e62cbdb52f54b5ec71f7ec"},
};

static void check_md5(const char *what, int set, const struct gen_buf *b, const char *want)
{
	char name[64];
	snprintf(name, sizeof(name), "set %d %s", set, what);
	th_md5_is(name, b->data, b->len, want);
}

static void check_sets(const struct gen_ctx *ctx, const struct ref_set *ref, size_t n,
		       unsigned flags)
{
	struct gen_buf o = {0}, l = {0}, d = {0};
	struct errbuf err;
	for (size_t i = 0; i < n; i++) {
		CU_ASSERT_EQUAL_FATAL(gen_refresh_inserts(ctx, ref[i].set, flags, &o, &l, &err), 0);
		CU_ASSERT_EQUAL_FATAL(gen_refresh_deletes(ctx, ref[i].set, flags, &d, &err), 0);
		check_md5("orders.tbl.u", ref[i].set, &o, ref[i].orders);
		check_md5("lineitem.tbl.u", ref[i].set, &l, ref[i].lineitem);
		check_md5("delete.", ref[i].set, &d, ref[i].delete);
	}
	gen_buf_release(&o);
	gen_buf_release(&l);
	gen_buf_release(&d);
}

TH_TEST(gen_refresh, sf001_matches_dbgen_md5)
{
	struct gen_ctx *ctx = th_gen_sf001();
	CU_ASSERT_PTR_NOT_NULL_FATAL(ctx);
	/* dbgen: 15000 orders / 10000 = 1 in integer division, times 10 */
	CU_ASSERT_EQUAL(gen_refresh_rows(ctx), 10);
	check_sets(ctx, ref_sf001, sizeof(ref_sf001) / sizeof(ref_sf001[0]), 0);
	check_sets(ctx, ref_sf001_nt, sizeof(ref_sf001_nt) / sizeof(ref_sf001_nt[0]),
		   GEN_NO_TRAILING_DELIMITER);
}

TH_TEST(gen_refresh, sf01_matches_dbgen_md5)
{
	struct gen_ctx *ctx = NULL;
	struct errbuf err;
	CU_ASSERT_EQUAL_FATAL(gen_ctx_new(&ctx, 0.1, &err), 0);
	CU_ASSERT_EQUAL(gen_refresh_rows(ctx), 150);
	check_sets(ctx, ref_sf01, sizeof(ref_sf01) / sizeof(ref_sf01[0]), 0);
	check_sets(ctx, ref_sf01_nt, sizeof(ref_sf01_nt) / sizeof(ref_sf01_nt[0]),
		   GEN_NO_TRAILING_DELIMITER);
	gen_ctx_free(ctx);
}

/* The lines of b when they start with the keys keys[0..n) in order, one line per key (runs: one
 * or more, as lineitem); -1 otherwise. */
static int first_column_keys(const struct gen_buf *b, const int64_t *keys, int64_t n, int runs)
{
	int64_t k = 0, lines = 0;
	const char *p = b->data, *end = b->data + b->len;
	while (p < end) {
		long long key = strtoll(p, NULL, 10);
		if (runs && k > 0 && key == keys[k - 1]) {
			/* another line of the same order */
		} else if (k < n && key == keys[k]) {
			k++;
		} else {
			return -1;
		}
		lines++;
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return -1;
		p = nl + 1;
	}
	return k == n ? (int)lines : -1;
}

/* Set 2 drawn alone (its streams jumped to) equals the rows that follow set 1 when both are drawn
 * in one pass; inserted keys fill the sparse gaps (index with sequence 1) and the deleted keys are
 * the table's first orders, in the order of orders.tbl. */
TH_TEST(gen_refresh, keys_and_stream_continuation)
{
	struct gen_ctx *ctx = th_gen_sf001();
	CU_ASSERT_PTR_NOT_NULL_FATAL(ctx);
	struct errbuf err;
	struct gen_buf o1 = {0}, l1 = {0}, o2 = {0}, l2 = {0}, both_o = {0}, both_l = {0}, t = {0};
	int64_t rows = gen_refresh_rows(ctx), n = gen_rows(ctx, GEN_ORDERS);
	CU_ASSERT_EQUAL_FATAL(gen_refresh_inserts(ctx, 1, 0, &o1, &l1, &err), 0);
	CU_ASSERT_EQUAL_FATAL(gen_refresh_inserts(ctx, 2, 0, &o2, &l2, &err), 0);
	CU_ASSERT_EQUAL_FATAL(gen_orders_extra(ctx, n, 2 * rows, 1, 1, 0, &both_o, &both_l, &err),
			      0);
	CU_ASSERT_EQUAL(both_o.len, o1.len + o2.len);
	CU_ASSERT(both_o.len == o1.len + o2.len &&
		  memcmp(both_o.data + o1.len, o2.data, o2.len) == 0);
	CU_ASSERT(both_l.len == l1.len + l2.len &&
		  memcmp(both_l.data + l1.len, l2.data, l2.len) == 0);
	/* keys: set 1 inserts indexes 1..10 with seq 1 (9..15, 40, 41, 42) */
	int64_t ins[10], del[10];
	for (int i = 0; i < 10; i++) {
		ins[i] = gen_refresh_insert_key(ctx, 1, i);
		del[i] = gen_refresh_delete_key(ctx, 1, i);
	}
	CU_ASSERT_EQUAL(ins[0], 9);
	CU_ASSERT_EQUAL(ins[6], 15);
	CU_ASSERT_EQUAL(ins[7], 40);
	CU_ASSERT_EQUAL(del[0], 1);
	CU_ASSERT_EQUAL(del[7], 32);
	CU_ASSERT_EQUAL(first_column_keys(&o1, ins, 10, 0), 10);
	CU_ASSERT(first_column_keys(&l1, ins, 10, 1) >= 10);
	/* the deleted orders are orders.tbl's first ten rows */
	CU_ASSERT_EQUAL_FATAL(gen_chunk(ctx, GEN_ORDERS, 0, 10, 0, &t, NULL, &err), 0);
	CU_ASSERT_EQUAL(first_column_keys(&t, del, 10, 0), 10);
	CU_ASSERT_EQUAL(gen_refresh_delete_unit(ctx, 2, 0), 10);
	struct gen_buf *all[] = {&o1, &l1, &o2, &l2, &both_o, &both_l, &t};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		gen_buf_release(all[i]);
}

/* --no-trailing-delimiter: each row without its last '|' (delete.N as dbgen 2.17 EOL_HANDLING:
 * "KEY"). */
TH_TEST(gen_refresh, no_trailing_delimiter)
{
	struct gen_ctx *ctx = th_gen_sf001();
	CU_ASSERT_PTR_NOT_NULL_FATAL(ctx);
	struct errbuf err;
	struct gen_buf a = {0}, b = {0}, la = {0}, lb = {0};
	CU_ASSERT_EQUAL_FATAL(gen_refresh_inserts(ctx, 1, 0, &a, &la, &err), 0);
	CU_ASSERT_EQUAL_FATAL(gen_refresh_inserts(ctx, 1, GEN_NO_TRAILING_DELIMITER, &b, &lb, &err),
			      0);
	/* removing every "|\n"'s bar from a gives b */
	size_t k = 0;
	int same = 1;
	for (size_t i = 0; i < a.len && same; i++) {
		if (a.data[i] == '|' && i + 1 < a.len && a.data[i + 1] == '\n')
			continue;
		same = k < b.len && b.data[k++] == a.data[i];
	}
	CU_ASSERT(same && k == b.len);
	CU_ASSERT(lb.len < la.len && lb.len > 0);
	CU_ASSERT_EQUAL_FATAL(gen_refresh_deletes(ctx, 2, GEN_NO_TRAILING_DELIMITER, &b, &err), 0);
	CU_ASSERT(b.len > 2 && memcmp(b.data, "35\n", 3) == 0); /* index 11: 1 << 5 | 3, seq 0 */
	gen_buf_release(&a);
	gen_buf_release(&b);
	gen_buf_release(&la);
	gen_buf_release(&lb);
}

TH_TEST(gen_refresh, set_range_checked)
{
	struct gen_ctx *ctx = th_gen_sf001();
	CU_ASSERT_PTR_NOT_NULL_FATAL(ctx);
	struct errbuf err;
	struct gen_buf o = {0}, l = {0};
	CU_ASSERT_EQUAL(gen_refresh_check(ctx, 1, &err), 0);
	CU_ASSERT_EQUAL(gen_refresh_check(ctx, GEN_REFRESH_SET_MAX, &err), 0);
	CU_ASSERT_EQUAL(gen_refresh_check(ctx, 0, &err), -1);
	CU_ASSERT_EQUAL(gen_refresh_inserts(ctx, GEN_REFRESH_SET_MAX + 1, 0, &o, &l, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "out of range"));
	gen_buf_release(&o);
	gen_buf_release(&l);
}

static int run_gen(const char *args)
{
	return th_system("'%s' gen %s >/dev/null 2>&1", DBT3_BINARY, args);
}

/* `gen -s 0.01 --refresh 3` writes dbgen's nine files, as dbgen names them, and nothing else. */
TH_TEST(gen_refresh, command_writes_dbgen_files)
{
	char *dir = th_tempdir("genrf");
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	char args[4200], path[4200];
	snprintf(args, sizeof(args), "-s 0.01 --refresh 3 -q -o '%s'", dir);
	CU_ASSERT_EQUAL_FATAL(run_gen(args), 0);
	for (size_t i = 0; i < sizeof(ref_sf001) / sizeof(ref_sf001[0]); i++) {
		const char *fmt[3] = {"%s/orders.tbl.u%d", "%s/lineitem.tbl.u%d", "%s/delete.%d"};
		const char *want[3] = {ref_sf001[i].orders, ref_sf001[i].lineitem,
				       ref_sf001[i].delete};
		for (int f = 0; f < 3; f++) {
			snprintf(path, sizeof(path), fmt[f], dir, ref_sf001[i].set);
			th_md5_file_is(path, want[f]);
		}
	}
	snprintf(path, sizeof(path), "%s/orders.tbl", dir);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
	/* refused: a table list or stdout with --refresh, set 0, 1000 */
	snprintf(args, sizeof(args), "-s 0.01 --refresh 1 -T orders -o '%s'", dir);
	CU_ASSERT_EQUAL(run_gen(args), CLI_USAGE);
	CU_ASSERT_EQUAL(run_gen("-s 0.01 --refresh 1 --stdout"), CLI_USAGE);
	CU_ASSERT_EQUAL(run_gen("-s 0.01 --refresh 0"), CLI_USAGE);
	CU_ASSERT_EQUAL(run_gen("-s 0.01 --refresh 1000"), CLI_USAGE);
	/* below SF 0.01 a set has no rows (dbgen writes only empty delete files): refused */
	snprintf(args, sizeof(args), "-s 0.005 --refresh 1 -j 1 -o '%s/small'", dir);
	CU_ASSERT_EQUAL(run_gen(args), CLI_USAGE);
	snprintf(path, sizeof(path), "%s/small/delete.1", dir);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
	th_rmtree(dir);
	free(dir);
}

TH_MAIN(gen_refresh)
