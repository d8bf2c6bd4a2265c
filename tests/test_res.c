/* SPDX-License-Identifier: MIT */
#include "result/res.h"
#include "result/res_counts.h"
#include "result/res_funcs.h"
#include "tests/harness.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define SHA_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define SHA_B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

/* A valid file with one query and two restarts; the malformed cases edit it textually. */
static const char base[] =
    "{\"format\":\"dbt3stab-result\",\"format_version\":1,\"tool_version\":\"0.1.0\","
    "\"started_at\":\"2026-11-30T01:00:00Z\",\"finished_at\":\"2026-11-30T02:00:00Z\","
    "\"host\":{},\"server\":{},\"dataset\":{\"scale_factor\":0.01,\"fingerprint\":null},"
    "\"plan\":{},\"pinning\":{},\"queries\":[{\"id\":\"Q1\",\"sql_sha256\":\"" SHA_A "\","
    "\"restarts\":[{\"index\":0,\"status\":\"ok\",\"warmup_ms\":[2.5],\"measured_ms\":[1.25,1.5],"
    "\"server_cpu_ms\":[1.0,1.1],\"rows\":4,\"result_sha256\":\"" SHA_B "\","
    "\"plan_sha256\":null,\"not_steady\":false,\"error\":null},"
    "{\"index\":1,\"status\":\"ok\",\"warmup_ms\":[],\"measured_ms\":[1.3,1.4],"
    "\"server_cpu_ms\":[],\"rows\":4,\"result_sha256\":\"" SHA_B "\","
    "\"plan_sha256\":null,\"not_steady\":false,\"error\":null}]}]}";

/* A $.server.buffer_pool record with the given "fits" value. */
#define POOL_OK(fits)                                                                              \
	"{\"rule\":\"r\",\"data_bytes\":268435456,\"data_source\":\"tablespace_files\","        \
	"\"need_bytes\":536870912,\"cap_bytes\":1073741824,\"ram_bytes\":2147483648,"           \
	"\"pool_bytes\":536870912,\"pool_source\":\"rule\",\"fits\":" fits "}"

/* An $.interference record with no restart, the rule's member name at value v. */
#define INTERFERENCE(name, v)                                                                      \
	"\"interference\":{\"disturbed_share\":0.05,\"disturbed_floor_ms\":30,\"" name "\":" v     \
	",\"restarts\":[]},"

static char *replaced(const char *find, const char *repl)
{
	const char *at = strstr(base, find);
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	size_t pre = (size_t)(at - base), flen = strlen(find), rlen = strlen(repl);
	char *out = malloc(sizeof(base) + rlen);
	memcpy(out, base, pre);
	memcpy(out + pre, repl, rlen);
	strcpy(out + pre + rlen, at + flen);
	return out;
}

TH_TEST(res, base_file_parses)
{
	struct res_file *res = NULL;
	struct errbuf err = {""};
	int rc = res_file_parse(&res, base, strlen(base), "base.json", &err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(res->n_queries, 1);
	CU_ASSERT_STRING_EQUAL(res->queries[0].id, "Q1");
	CU_ASSERT_EQUAL(res->queries[0].n_restarts, 2);
	struct res_restart *r = &res->queries[0].restarts[0];
	CU_ASSERT_EQUAL(r->n_measured, 2);
	CU_ASSERT_DOUBLE_EQUAL(r->measured_ms[1], 1.5, 0);
	CU_ASSERT_EQUAL(r->rows, 4);
	CU_ASSERT_PTR_NULL(r->plan_sha256);
	CU_ASSERT_DOUBLE_EQUAL(res_file_scale_factor(res), 0.01, 0);
	CU_ASSERT_PTR_NULL(res_file_dataset_fingerprint(res));
	CU_ASSERT_PTR_NOT_NULL(res->finished_at);
	res_file_free(res);
}

/* The rule's floor per query is read under its name, and under its name before 2026-12-03 in the
 * files written then. */
TH_TEST(res, interference_floor_per_query_under_both_names)
{
	static const char *const members[] = {
	    "\"pinning\":{}," INTERFERENCE("disturbed_floor_ms_per_query", "20"),
	    "\"pinning\":{}," INTERFERENCE("disturbed_ticks_ms_per_query", "20"),
	    "\"pinning\":{}," INTERFERENCE("disturbed_floor_ms_per_query", "0"),
	};
	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++) {
		char *text = replaced("\"pinning\":{},", members[i]);
		struct res_file *res = NULL;
		struct errbuf err = {""};
		CU_ASSERT_EQUAL(res_file_parse(&res, text, strlen(text), "i.json", &err), 0);
		CU_ASSERT_PTR_NOT_NULL(res);
		res_file_free(res);
		free(text);
	}
}

static const struct {
	const char *find, *repl, *msg;
} malformed[] = {
    {"{\"format\"", "x{\"format\"",
     "'bad.json': not JSON: '[' or '{' expected near 'x' (line 1, column 1)"},
    {"\"dbt3stab-result\"", "\"other\"",
     "'bad.json': $.format: not a dbt3stab result file (\"other\", expected \"dbt3stab-result\")"},
    {"\"format_version\":1", "\"format_version\":2",
     "'bad.json': $.format_version: unsupported format version 2 (this dbt3stab reads 1)"},
    {"\"format_version\":1", "\"format_version\":\"1\"",
     "'bad.json': $.format_version: expected an integer, found a string"},
    {"\"tool_version\":\"0.1.0\",", "", "'bad.json': $.tool_version: missing"},
    {"\"scale_factor\":0.01", "\"scale_factor\":-1",
     "'bad.json': $.dataset.scale_factor: -1 out of range (above 0, at most 100000)"},
    {"\"scale_factor\":0.01", "\"scale_factor\":1e308",
     "'bad.json': $.dataset.scale_factor: 1e+308 out of range (above 0, at most 100000)"},
    {"[1.3,1.4]", "[1.3,1e308]",
     "'bad.json': $.queries[0].restarts[1].measured_ms[1]: time 1e+308 ms above the bound of "
     "1e+09 ms"},
    {"\"warmup_ms\":[2.5]", "\"warmup_ms\":[1000000001]",
     "'bad.json': $.queries[0].restarts[0].warmup_ms[0]: time 1e+09 ms above the bound of 1e+09 "
     "ms"},
    {"\"server_cpu_ms\":[1.0,1.1]", "\"server_cpu_ms\":[1.0,2e9]",
     "'bad.json': $.queries[0].restarts[0].server_cpu_ms[1]: time 2e+09 ms above the bound of "
     "1e+09 ms"},
    /* found by tests/fuzz/fuzz_res: written rounded to the nanosecond, 1e-10 became 0, and a
     * resumed file could not be read back */
    {"[1.3,1.4]", "[1.3,1e-10]",
     "'bad.json': $.queries[0].restarts[1].measured_ms[1]: time 1e-10 ms below the writer's "
     "resolution of 1e-06 ms"},
    {"\"started_at\":\"2026-11-30T01:00:00Z\"", "\"started_at\":\"yesterday\"",
     "'bad.json': $.started_at: not a UTC timestamp like YYYY-MM-DDThh:mm:ssZ: \"yesterday\""},
    {"\"finished_at\":\"2026-11-30T02:00:00Z\"", "\"finished_at\":\"2026-11-30 02:00:00\"",
     "'bad.json': $.finished_at: not a UTC timestamp like YYYY-MM-DDThh:mm:ssZ: \"2026-11-30 "
     "02:00:00\""},
    {"\"finished_at\":\"2026-11-30T02:00:00Z\"", "\"finished_at\":7",
     "'bad.json': $.finished_at: expected a string or null, found an integer"},
    {"\"host\":{}", "\"host\":{\"name\":[]}",
     "'bad.json': $.host.name: expected a string or null, found an array"},
    {"\"server\":{}", "\"server\":{\"binary_sha256\":\"abc\"}",
     "'bad.json': $.server.binary_sha256: not a SHA-256 (64 lowercase hex digits): \"abc\""},
    {"\"server\":{}", "\"server\":{\"buffer_pool\":[]}",
     "'bad.json': $.server.buffer_pool: expected an object, found an array"},
    {"\"server\":{}", "\"server\":{\"buffer_pool\":{\"data_bytes\":-1}}",
     "'bad.json': $.server.buffer_pool.data_bytes: -1 out of range (0 to 1152921504606846976)"},
    {"\"server\":{}", "\"server\":{\"buffer_pool\":" POOL_OK("\"maybe\"") "}",
     "'bad.json': $.server.buffer_pool.fits: expected a boolean, found a string"},
    {"\"server\":{}",
     "\"server\":{\"buffer_pool\":{\"data_bytes\":1,\"need_bytes\":1,\"cap_bytes\":1,"
     "\"ram_bytes\":1,\"pool_bytes\":1,\"rule\":\"r\",\"data_source\":\"guess\"}}",
     "'bad.json': $.server.buffer_pool.data_source: \"guess\" is not one of tablespace_files or "
     "scale_estimate"},
    {"\"index\":1", "\"index\":100000",
     "'bad.json': $.queries[0].restarts[1].index: out of range 100000"},
    {"\"not_steady\":false,\"error\":null},", "\"not_steady\":false,\"error\":null,\"trend_p\":2},",
     "'bad.json': $.queries[0].restarts[0].trend_p: 2 out of range (at least 0, at most 1)"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"row_count_changes\":[{\"execution\":1,\"rows\":3}]},",
     "'bad.json': $.queries[0].restarts[0].row_count_changes[0].execution: 1 out of range (2 to "
     "200001)"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"warmup_steady\":\"yes\"},",
     "'bad.json': $.queries[0].restarts[0].warmup_steady: expected a boolean, found a string"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"refresh\":{\"set\":0,\"orders\":1,\"lineitems\":4}},",
     "'bad.json': $.queries[0].restarts[0].refresh.set: 0 out of range (1 to 999)"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"refresh\":{\"set\":1,\"orders\":-1,\"lineitems\":4}},",
     "'bad.json': $.queries[0].restarts[0].refresh.orders: -1 out of range (0 to "
     "1125899906842624)"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"data_check\":{\"same\":true}},",
     "'bad.json': $.queries[0].restarts[0].data_check.before: missing"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"data_check\":{\"before\":{\"orders\":1,"
     "\"lineitems\":2,\"orders_checksum\":\"12x\",\"lineitem_checksum\":\"3\"}}},",
     "'bad.json': $.queries[0].restarts[0].data_check.before.orders_checksum: not a checksum (1 "
     "to 20 decimal digits): \"12x\""},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"data_check\":{\"before\":{\"orders\":1,"
     "\"lineitems\":2,\"orders_checksum\":\"1\",\"lineitem_checksum\":\"3\"},\"same\":1}},",
     "'bad.json': $.queries[0].restarts[0].data_check.same: expected a boolean, found an integer"},
    {"\"plan\":{}", "\"plan\":{\"refresh\":{\"set\":1000,\"orders_per_set\":10}}",
     "'bad.json': $.plan.refresh.set: 1000 out of range (1 to 999)"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"work\":[1]},",
     "'bad.json': $.queries[0].restarts[0].work: expected an object, found an array"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"work\":{\"Handler_read_key\":[5,5,5]}},",
     "'bad.json': $.queries[0].restarts[0].work.Handler_read_key: 3 counts for 2 measured runs "
     "(expected as many, or one integer)"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"work\":{\"Sort_rows\":-1}},",
     "'bad.json': $.queries[0].restarts[0].work.Sort_rows: expected an integer 0 to 2^53 or an "
     "array of them"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"work\":{\"Sort_rows\":[1,1.5]}},",
     "'bad.json': $.queries[0].restarts[0].work.Sort_rows: entry 1: expected an integer 0 to "
     "2^53"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"work\":{\"\":1}},",
     "'bad.json': $.queries[0].restarts[0].work: a counter name of 0 characters (1 to 64)"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"work\":{\"a\\u001b[2J\":1}},",
     "'bad.json': $.queries[0].restarts[0].work.a?[2J: a counter name is letters, digits and '_' "
     "only"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"work\":{\"Rows_read\":9007199254740993}},",
     "'bad.json': $.queries[0].restarts[0].work.Rows_read: expected an integer 0 to 2^53 or an "
     "array of them"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"instructions\":{\"callgrind_ir\":[5,5,5]}},",
     "'bad.json': $.queries[0].restarts[0].instructions.callgrind_ir: 3 counts for 2 measured runs "
     "(expected as many, or one integer)"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"instructions\":7},",
     "'bad.json': $.queries[0].restarts[0].instructions: expected an object, found an integer"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"instructions_tol\":2},",
     "'bad.json': $.queries[0].restarts[0].instructions_tol: 2 out of range (above 0, at most 1)"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"functions\":{\"total\":9,\"named\":9,"
     "\"resolved\":0,\"unnamed\":0,\"list\":[[\"f\",-1,3]]}},",
     "'bad.json': $.queries[0].restarts[0].functions: list[0]: expected [name, self, inclusive] "
     "with counts"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"functions\":{\"total\":9,\"named\":9,"
     "\"resolved\":0,\"list\":[]}},",
     "'bad.json': $.queries[0].restarts[0].functions: unnamed: expected a count"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"functions\":{\"total\":9,\"named\":9,"
     "\"resolved\":0,\"unnamed\":0,\"list\":[[\"\",1,3]]}},",
     "'bad.json': $.queries[0].restarts[0].functions: list[0]: a name of 0 bytes (1 to 383)"},
    {"\"not_steady\":false,\"error\":null},",
     "\"not_steady\":false,\"error\":null,\"functions\":{\"total\":9,\"named\":9,"
     "\"resolved\":0,\"unnamed\":0,\"list\":[],\"x\":1}},",
     "'bad.json': $.queries[0].restarts[0].functions: unknown member \"x\""},
    /* the level's floor per query window, under its name and its name before 2026-12-03 */
    {"\"pinning\":{},", "\"pinning\":{}," INTERFERENCE("disturbed_floor_ms_per_query", "-1"),
     "'bad.json': $.interference.disturbed_floor_ms_per_query: -1 out of range (at least 0, at "
     "most 1e+09)"},
    {"\"pinning\":{},", "\"pinning\":{}," INTERFERENCE("disturbed_ticks_ms_per_query", "\"20\""),
     "'bad.json': $.interference.disturbed_ticks_ms_per_query: expected a number, found a "
     "string"},
    {"\"host\":{}", "\"host\":[]", "'bad.json': $.host: expected an object, found an array"},
    {"\"id\":\"Q1\",", "", "'bad.json': $.queries[0].id: missing"},
    /* F9: an id is printed in every table and heading: no control, HTML or Markdown character */
    {"\"id\":\"Q1\",", "\"id\":\"Q1\\u001b[2J\",",
     "'bad.json': $.queries[0].id: not letters, digits, '_', '.', ':' or '-'"},
    {"\"id\":\"Q1\",", "\"id\":\"<b>Q1|\",",
     "'bad.json': $.queries[0].id: not letters, digits, '_', '.', ':' or '-'"},
    {"\"sql_sha256\":\"aaaa", "\"sql_sha256\":\"Xaaa",
     "'bad.json': $.queries[0].sql_sha256: not a SHA-256 (64 lowercase hex digits): "
     "\"Xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\""},
    {"[1.3,1.4]", "[1.3,-1.5]",
     "'bad.json': $.queries[0].restarts[1].measured_ms[1]: negative time -1.5"},
    {"[1.3,1.4]", "[1.3,1e999]", NULL /* jansson: real number overflow */},
    {"[1.3,1.4]", "[1.3,\"1.4\"]",
     "'bad.json': $.queries[0].restarts[1].measured_ms[1]: expected a number, found a string"},
    {"[1.3,1.4]", "[]",
     "'bad.json': $.queries[0].restarts[1].measured_ms: empty measured runs in a restart with "
     "status ok"},
    {"\"server_cpu_ms\":[1.0,1.1]", "\"server_cpu_ms\":[1.0]",
     "'bad.json': $.queries[0].restarts[0].server_cpu_ms: 1 entries for 2 measured runs "
     "(expected as many, or none)"},
    {"\"status\":\"ok\"", "\"status\":\"fine\"",
     "'bad.json': $.queries[0].restarts[0].status: unknown status \"fine\" (ok, timeout, crash "
     "or error)"},
    {"\"index\":1", "\"index\":0",
     "'bad.json': $.queries[0].restarts[1].index: duplicate restart index 0"},
    {"\"rows\":4", "\"rows\":-4",
     "'bad.json': $.queries[0].restarts[0].rows: negative row count -4"},
    {"\"not_steady\":false,\"error\":null},", "\"error\":null},",
     "'bad.json': $.queries[0].restarts[0].not_steady: missing"},
    {"\"warmup_ms\":[2.5]", "\"warmup_ms\":null",
     "'bad.json': $.queries[0].restarts[0].warmup_ms: expected an array, found null"},
    {"\"host\":{}", "\"host\":{},\"host\":{}", NULL /* duplicate key, from jansson */},
    /* found by tests/fuzz/fuzz_res: messages quote the file, and stay one line: jansson's token
     * with a raw newline, a string with an escaped newline or a terminal escape */
    {"\"tool_version\":\"0.1.0\"", "\"tool_version\":\"0.1\\\n.0\"",
     "'bad.json': not JSON: invalid escape near '\"0.1\\?' (line 2, column 0)"},
    {"\"result_sha256\":\"" SHA_B "\"", "\"result_sha256\":\"ab\\ncd\\u001b[2J\"",
     "'bad.json': $.queries[0].restarts[0].result_sha256: not a SHA-256 (64 lowercase hex "
     "digits): \"ab?cd?[2J\""},
};

/* The pool record is read back as written; files without it say "not recorded". */
TH_TEST(res, buffer_pool_fits_read)
{
	static const struct {
		const char *server;
		int want;
	} cases[] = {
	    {"\"server\":{}", -1},
	    {"\"server\":{\"buffer_pool\":null}", -1},
	    {"\"server\":{\"buffer_pool\":" POOL_OK("true") "}", 1},
	    {"\"server\":{\"buffer_pool\":" POOL_OK("false") "}", 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text = replaced("\"server\":{}", cases[i].server);
		struct res_file *res = NULL;
		struct errbuf err = {""};
		CU_ASSERT_EQUAL_FATAL(res_file_parse(&res, text, strlen(text), "pool.json", &err), 0);
		CU_ASSERT_EQUAL(res_file_pool_fits(res), cases[i].want);
		res_file_free(res);
		free(text);
	}
}

/* A work record: constant counters written once, varying ones per run; read back expanded. */
TH_TEST(res, work_counts_round_trip)
{
	char *text = replaced("\"not_steady\":false,\"error\":null},",
			      "\"not_steady\":false,\"error\":null,\"work\":{\"Handler_read_key\":"
			      "[7,9],\"Sort_rows\":4}},");
	struct res_file *res = NULL;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL_FATAL(res_file_parse(&res, text, strlen(text), "w.json", &err), 0);
	struct res_counts c, none;
	CU_ASSERT_EQUAL(res_counts_get(&c, &res->queries[0].restarts[0], "work"), 1);
	CU_ASSERT_EQUAL(c.n, 2);
	CU_ASSERT_EQUAL(c.n_exec, 2);
	int k = res_counts_find(&c, "Handler_read_key"), s = res_counts_find(&c, "Sort_rows");
	CU_ASSERT_FATAL(k >= 0 && s >= 0);
	CU_ASSERT_EQUAL(c.v[k * 2], 7);
	CU_ASSERT_EQUAL(c.v[k * 2 + 1], 9);
	CU_ASSERT_EQUAL(c.v[s * 2], 4);
	CU_ASSERT_EQUAL(c.v[s * 2 + 1], 4);
	CU_ASSERT_EQUAL(res_counts_first_warm(&c, &res->queries[0].restarts[0]), 0);
	CU_ASSERT_EQUAL(res_counts_get(&none, &res->queries[0].restarts[1], "work"), 0);
	CU_ASSERT_EQUAL(none.n, 0);
	json_t *j = res_counts_json(&c);
	char *dump = json_dumps(j, JSON_COMPACT);
	CU_ASSERT_STRING_EQUAL(dump, "{\"Handler_read_key\":[7,9],\"Sort_rows\":4}");
	free(dump);
	json_decref(j);
	/* the writer keeps it: written and read back, the same record */
	char *again = res_file_dumps(res);
	struct res_file *res2 = NULL;
	CU_ASSERT_EQUAL_FATAL(res_file_parse(&res2, again, strlen(again), "w2.json", &err), 0);
	struct res_counts c2;
	CU_ASSERT_EQUAL(res_counts_get(&c2, &res2->queries[0].restarts[0], "work"), 1);
	CU_ASSERT_EQUAL(c2.n, 2);
	CU_ASSERT_EQUAL(c2.v[res_counts_find(&c2, "Handler_read_key") * 2 + 1], 9);
	res_counts_release(&c2);
	res_counts_release(&c);
	res_file_free(res2);
	res_file_free(res);
	free(again);
	free(text);
}

/* A profile by function is read back as written. */
TH_TEST(res, functions_round_trip)
{
	char *text = replaced("\"not_steady\":false,\"error\":null},",
			      "\"not_steady\":false,\"error\":null,\"functions\":{\"total\":100,"
			      "\"named\":90,\"resolved\":80,\"unnamed\":10,\"list\":[[\"row_search_"
			      "mvcc(unsigned char*)\",50,90],[\"0x00000000000000a0\",10,10]]}},");
	struct res_file *res = NULL;
	struct errbuf err = {""};
	static struct res_funcs f;
	CU_ASSERT_EQUAL_FATAL(res_file_parse(&res, text, strlen(text), "f.json", &err), 0);
	CU_ASSERT_EQUAL_FATAL(res_funcs_get(&f, &res->queries[0].restarts[0]), 1);
	CU_ASSERT_EQUAL(f.total, 100);
	CU_ASSERT_EQUAL(f.resolved, 80);
	CU_ASSERT_EQUAL_FATAL(f.n, 2);
	CU_ASSERT_STRING_EQUAL(f.fn[0].name, "row_search_mvcc(unsigned char*)");
	CU_ASSERT_EQUAL(f.fn[0].incl, 90);
	CU_ASSERT_EQUAL(f.fn[1].self, 10);
	CU_ASSERT_EQUAL(res_funcs_get(&f, &res->queries[0].restarts[1]), 0);
	char *again = res_file_dumps(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(again);
	CU_ASSERT_PTR_NOT_NULL(strstr(again, "row_search_mvcc(unsigned char*)"));
	res_file_free(res);
	free(again);
	free(text);
}

/* An instruction record sits beside work in the same form; read back per execution. */
TH_TEST(res, instructions_counts_round_trip)
{
	char *text = replaced("\"not_steady\":false,\"error\":null},",
			      "\"not_steady\":false,\"error\":null,\"instructions\":{"
			      "\"callgrind_ir\":[136828955,136826001]},\"instructions_steady\":true,"
			      "\"instructions_tol\":0.002},");
	struct res_file *res = NULL;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL_FATAL(res_file_parse(&res, text, strlen(text), "i.json", &err), 0);
	struct res_counts c;
	CU_ASSERT_EQUAL_FATAL(res_counts_get(&c, &res->queries[0].restarts[0], "instructions"), 1);
	CU_ASSERT_EQUAL(c.n, 1);
	CU_ASSERT_EQUAL(res_counts_find(&c, "callgrind_ir"), 0);
	CU_ASSERT_EQUAL(c.v[0], 136828955LL);
	CU_ASSERT_EQUAL(c.v[1], 136826001LL);
	char *again = res_file_dumps(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(again);
	CU_ASSERT_PTR_NOT_NULL(strstr(again, "\"instructions_tol\": 0.002"));
	CU_ASSERT_PTR_NOT_NULL(strstr(again, "136826001"));
	res_counts_release(&c);
	res_file_free(res);
	free(again);
	free(text);
}

TH_TEST(res, malformed_inputs_name_file_and_path)
{
	for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		char *text = replaced(malformed[i].find, malformed[i].repl);
		struct res_file *res = NULL;
		struct errbuf err = {""};
		int rc = res_file_parse(&res, text, strlen(text), "bad.json", &err);
		CU_ASSERT_EQUAL(rc, -1);
		CU_ASSERT_PTR_NULL(res);
		if (malformed[i].msg && strcmp(err.msg, malformed[i].msg) != 0) {
			fprintf(stderr, "\ncase %zu:\n got  %s\n want %s\n", i, err.msg,
				malformed[i].msg);
			CU_FAIL("message differs");
		}
		if (!malformed[i].msg)
			CU_ASSERT(strncmp(err.msg, "'bad.json': not JSON: ", 22) == 0);
		CU_ASSERT_PTR_NULL(strchr(err.msg, '\n'));
		free(text);
	}
}

/* The plan a file states: its members are checked for type and range, and the data must agree. */
#define PLAN_OK                                                                                    \
	"\"plan\":{\"restarts\":2,\"warmup\":1,\"runs\":2,\"queries\":[\"Q6\",\"Q1\"],"                 \
	"\"query_order\":\"fixed\",\"seed\":null,\"query_timeout_s\":null,\"max_crashes\":3}"

static const struct {
	const char *plan, *msg;
} plans[] = {
    {PLAN_OK, NULL},
    {"\"plan\":{\"restarts\":-1e9}",
     "'bad.json': $.plan.restarts: expected an integer, found a number"},
    {"\"plan\":{\"restarts\":true}",
     "'bad.json': $.plan.restarts: expected an integer, found a boolean"},
    {"\"plan\":{\"restarts\":0}", "'bad.json': $.plan.restarts: 0 out of range (1 to 100000)"},
    {"\"plan\":{\"runs\":null}", "'bad.json': $.plan.runs: expected an integer, found null"},
    {"\"plan\":{\"warmup\":-1}", "'bad.json': $.plan.warmup: -1 out of range (0 to 100000)"},
    {"\"plan\":{\"queries\":[\"Q6\"]}",
     "'bad.json': $.queries[0].id: \"Q1\" is not in $.plan.queries"},
    {"\"plan\":{\"queries\":\"Q1\"}",
     "'bad.json': $.plan.queries: expected an array, found a string"},
    {"\"plan\":{\"queries\":[\"Q1\",\"Q1\"]}",
     "'bad.json': $.plan.queries[1]: duplicate query \"Q1\""},
    {"\"plan\":{\"restarts\":1}",
     "'bad.json': $.queries[0].restarts[1].index: 1 is not below $.plan.restarts (1)"},
    {"\"plan\":{\"runs\":1}",
     "'bad.json': $.queries[0].restarts[0].measured_ms: 2 entries, more than $.plan.runs (1)"},
    {"\"plan\":{\"warmup\":0}",
     "'bad.json': $.queries[0].restarts[0].warmup_ms: 1 entries, more than $.plan.warmup (0)"},
    {"\"plan\":{\"query_order\":\"random\"}",
     "'bad.json': $.plan.query_order: \"random\" is not one of fixed or shuffled"},
    {"\"plan\":{\"seed\":-3}",
     "'bad.json': $.plan.seed: -3 out of range (0 to 9223372036854775807)"},
    {"\"plan\":{\"query_timeout_s\":1e308}",
     "'bad.json': $.plan.query_timeout_s: 1e+308 out of range (above 0, at most 1e+06)"},
    {"\"plan\":{\"query_timeout_s\":0}",
     "'bad.json': $.plan.query_timeout_s: 0 out of range (above 0, at most 1e+06)"},
    {"\"plan\":{\"max_crashes\":1.5}",
     "'bad.json': $.plan.max_crashes: expected an integer, found a number"},
    {"\"plan\":{\"steady_alpha\":2}",
     "'bad.json': $.plan.steady_alpha: 2 out of range (above 0, at most 0.5)"},
    {"\"plan\":{\"variant\":7}", "'bad.json': $.plan.variant: expected a string or null, found "
				      "an integer"},
    /* members run --budget adds */
    {"\"plan\":{\"variant_order\":\"abab\"}",
     "'bad.json': $.plan.variant_order: \"abab\" is not one of abba, shuffled or fixed"},
    {"\"plan\":{\"max_pairs\":1}", "'bad.json': $.plan.max_pairs: 1 out of range (2 to 128)"},
    {"\"plan\":{\"budget_s\":-5}",
     "'bad.json': $.plan.budget_s: -5 out of range (above 0, at most 1e+07)"},
    {"\"plan\":{\"keep_all\":1}", "'bad.json': $.plan.keep_all: expected a boolean, found an "
				       "integer"},
    {"\"plan\":{},\"budget\":{\"pairs\":3,\"elapsed_s\":1,\"budget_s\":60}",
     "'bad.json': $.budget.stop_reason: missing"},
    {"\"plan\":{},\"budget\":{\"pairs\":3,\"elapsed_s\":-1,\"budget_s\":60,"
     "\"stop_reason\":null}",
     "'bad.json': $.budget.elapsed_s: -1 out of range (at least 0, at most 1e+09)"},
    {"\"plan\":{},\"budget\":{\"pairs\":3,\"elapsed_s\":0,\"budget_s\":60,"
     "\"stop_reason\":\"budget\"}",
     NULL},
};

TH_TEST(res, plan_members_checked_against_data)
{
	for (size_t i = 0; i < sizeof(plans) / sizeof(plans[0]); i++) {
		char *text = replaced("\"plan\":{}", plans[i].plan);
		struct res_file *res = NULL;
		struct errbuf err = {""};
		int rc = res_file_parse(&res, text, strlen(text), "bad.json", &err);
		if (!plans[i].msg) {
			CU_ASSERT_EQUAL(rc, 0);
		} else if (rc != -1 || strcmp(err.msg, plans[i].msg) != 0) {
			fprintf(stderr, "\nplan case %zu:\n got  %d %s\n want %s\n", i, rc,
				err.msg, plans[i].msg);
			CU_FAIL("plan case differs");
		}
		res_file_free(res);
		free(text);
	}
}

/* A run --streams entry ("T:...") holds one time per stream: plan.streams.count bounds it, not
 * plan.runs. */
TH_TEST(res, throughput_entries_bounded_by_streams)
{
	static const struct {
		const char *plan, *msg;
	} cases[] = {
	    {"\"plan\":{\"runs\":1,\"streams\":{\"count\":2}}", NULL},
	    {"\"plan\":{\"runs\":1,\"streams\":{\"count\":1}}",
	     "'t.json': $.queries[0].restarts[0].measured_ms: 2 entries, more than "
	     "$.plan.streams.count (1)"},
	    {"\"plan\":{\"runs\":1}",
	     "'t.json': $.queries[0].restarts[0].measured_ms: 2 entries, more than $.plan.runs (1)"},
	    {"\"plan\":{\"streams\":{\"count\":41}}",
	     "'t.json': $.plan.streams.count: 41 out of range (1 to 40)"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *a = replaced("\"plan\":{}", cases[i].plan);
		char *at = strstr(a, "\"id\":\"Q1\"");
		CU_ASSERT_PTR_NOT_NULL_FATAL(at);
		char *text = malloc(strlen(a) + 8);
		size_t pre = (size_t)(at - a);
		memcpy(text, a, pre);
		strcpy(text + pre, "\"id\":\"T:Q1\"");
		strcat(text, at + strlen("\"id\":\"Q1\""));
		struct res_file *res = NULL;
		struct errbuf err = {""};
		int rc = res_file_parse(&res, text, strlen(text), "t.json", &err);
		if (!cases[i].msg) {
			CU_ASSERT_EQUAL(rc, 0);
		} else if (rc != -1 || strcmp(err.msg, cases[i].msg) != 0) {
			fprintf(stderr, "\ncase %zu:\n got  %d %s\n want %s\n", i, rc, err.msg,
				cases[i].msg);
			CU_FAIL("throughput case differs");
		}
		res_file_free(res);
		free(text);
		free(a);
	}
}

/* The data's queries follow the plan's order (Q6 before Q1 in PLAN_OK). */
TH_TEST(res, queries_out_of_plan_order_refused)
{
	char *plan = replaced("\"plan\":{}", PLAN_OK);
	const char *q1 = strstr(plan, "{\"id\":\"Q1\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(q1);
	/* A second query Q6 after Q1: in the plan, but before Q1 there. */
	char *text = malloc(strlen(plan) + 400);
	size_t pre = strlen(plan) - 2; /* before the closing "]}" */
	memcpy(text, plan, pre);
	sprintf(text + pre,
		",{\"id\":\"Q6\",\"sql_sha256\":\"" SHA_A "\",\"restarts\":[]}]}");
	struct res_file *res = NULL;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL(res_file_parse(&res, text, strlen(text), "bad.json", &err), -1);
	CU_ASSERT_STRING_EQUAL(err.msg,
			       "'bad.json': $.queries[1].id: \"Q6\" out of the order of $.plan.queries");
	res_file_free(res);
	free(text);
	free(plan);
}

TH_TEST(res, non_ok_restart_may_have_no_runs)
{
	char *text =
	    replaced("\"index\":1,\"status\":\"ok\",\"warmup_ms\":[],\"measured_ms\":[1.3,1.4]",
		     "\"index\":1,\"status\":\"crash\",\"warmup_ms\":[],\"measured_ms\":[]");
	struct res_file *res = NULL;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL_FATAL(res_file_parse(&res, text, strlen(text), "crash.json", &err), 0);
	CU_ASSERT_EQUAL(res->queries[0].restarts[1].status, RES_STATUS_CRASH);
	CU_ASSERT_EQUAL(res->queries[0].restarts[1].n_measured, 0);
	res_file_free(res);
	free(text);
}

TH_TEST(res, write_then_read_keeps_everything)
{
	char *dir = th_tempdir("res");
	char path[4096];
	struct errbuf err = {""};
	snprintf(path, sizeof(path), "%s/r.json", dir);

	struct res_file *res = res_file_new();
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	CU_ASSERT_EQUAL(res_set_string(&res->label, "nightly"), 0);
	json_object_set_new(res->dataset, "scale_factor", json_real(0.1));
	json_object_set_new(res->dataset, "fingerprint", json_string(SHA_A));
	json_object_set_new(res->host, "name", json_string("box"));
	res->extra = json_pack("{s:s}", "variant_of", "run-42");
	struct res_query *q = res_file_add_query(res, "Q6", SHA_A);
	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	CU_ASSERT_PTR_NULL(res_file_add_query(res, "Q6", SHA_A));
	double warm[] = {3.0}, meas[] = {1234.567891, 0.000001, 1e-3 + 2e-6},
	       cpu[] = {1200.5, 0.0, 0.0011};
	struct res_restart r = {
	    .index = 0,
	    .status = RES_STATUS_OK,
	    .warmup_ms = warm,
	    .n_warmup = 1,
	    .measured_ms = meas,
	    .n_measured = 3,
	    .server_cpu_ms = cpu,
	    .n_server_cpu = 3,
	    .rows = 1,
	    .result_sha256 = SHA_B,
	    .plan_sha256 = SHA_A,
	    .plan = "{\"query_block\": {}}",
	    .not_steady = 1,
	    .extra = json_pack("{s:f}", "trend_p", 0.01),
	};
	CU_ASSERT_PTR_NOT_NULL(res_query_add_restart(q, &r));
	json_decref(r.extra);
	r.index = 1;
	r.status = RES_STATUS_TIMEOUT;
	r.n_measured = r.n_server_cpu = 0;
	r.rows = -1;
	r.result_sha256 = r.plan_sha256 = r.plan = NULL;
	r.not_steady = 0;
	r.error = "killed after 10 s";
	r.extra = NULL;
	CU_ASSERT_PTR_NOT_NULL(res_query_add_restart(q, &r));
	CU_ASSERT_EQUAL(res_file_write(res, path, &err), 0);
	CU_ASSERT_EQUAL(access(path, F_OK), 0);

	struct res_file *back = NULL;
	int rc = res_file_read(&back, path, &err);
	if (rc)
		fprintf(stderr, "%s\n", err.msg);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(back->label, "nightly");
	CU_ASSERT_PTR_NULL(back->finished_at);
	CU_ASSERT_STRING_EQUAL(res_file_dataset_fingerprint(back), SHA_A);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(back->extra, "variant_of")),
			       "run-42");
	struct res_query *bq = res_file_find_query(back, "Q6");
	CU_ASSERT_PTR_NOT_NULL_FATAL(bq);
	CU_ASSERT_EQUAL_FATAL(bq->n_restarts, 2);
	struct res_restart *b0 = &bq->restarts[0], *b1 = &bq->restarts[1];
	CU_ASSERT_EQUAL(b0->n_measured, 3);
	/* nanosecond precision survives: the text holds the decimal exactly */
	CU_ASSERT_DOUBLE_EQUAL(b0->measured_ms[0], 1234.567891, 0);
	CU_ASSERT_DOUBLE_EQUAL(b0->measured_ms[1], 0.000001, 0);
	CU_ASSERT_DOUBLE_EQUAL(b0->measured_ms[2], 0.001002, 0);
	CU_ASSERT_DOUBLE_EQUAL(b0->server_cpu_ms[2], 0.0011, 0);
	CU_ASSERT_STRING_EQUAL(b0->plan, "{\"query_block\": {}}");
	CU_ASSERT_TRUE(b0->not_steady);
	CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(b0->extra, "trend_p")), 0.01, 0);
	CU_ASSERT_EQUAL(b1->status, RES_STATUS_TIMEOUT);
	CU_ASSERT_EQUAL(b1->rows, -1);
	CU_ASSERT_STRING_EQUAL(b1->error, "killed after 10 s");

	/* the written file follows the JSON Schema of docs/result.schema.json */
	char cmd[8192];
	snprintf(
	    cmd, sizeof(cmd),
	    "for p in python3 /usr/bin/python3; do if $p -c 'import jsonschema' 2>/dev/null; "
	    "then exec $p '%s/tests/data/validate_result.py' '%s/docs/result.schema.json' '%s'; "
	    "fi; done; echo 'no python3 with jsonschema (python3-jsonschema)'; exit 3",
	    DBT3_SOURCE_DIR, DBT3_SOURCE_DIR, path);
	CU_ASSERT_EQUAL(system(cmd), 0);

	/* a second write of what was read is byte-identical (resume rewrites checkpoints) */
	char *t1 = res_file_dumps(res), *t2 = res_file_dumps(back);
	CU_ASSERT_STRING_EQUAL(t1, t2);
	free(t1);
	free(t2);
	res_file_free(back);
	res_file_free(res);
	th_rmtree(dir);
	free(dir);
}

/* Only regular files are read: a device, a FIFO (opening it must not block) or a directory gets
 * one line naming what it is. */
TH_TEST(res, non_regular_files_refused)
{
	char *dir = th_tempdir("res_fifo");
	char fifo[4200];
	snprintf(fifo, sizeof(fifo), "%s/fifo.json", dir);
	CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
	const struct {
		const char *path, *kind;
	} cases[] = {{"/dev/zero", "a character device"}, {fifo, "a FIFO"}, {dir, "a directory"}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct res_file *res = NULL;
		struct errbuf err = {""};
		char want[4400];
		snprintf(want, sizeof(want), "'%s': not a result file (%s, not a regular file)",
			 cases[i].path, cases[i].kind);
		CU_ASSERT_EQUAL(res_file_read(&res, cases[i].path, &err), -1);
		CU_ASSERT_STRING_EQUAL(err.msg, want);
		CU_ASSERT_PTR_NULL(res);
	}
	th_rmtree(dir);
	free(dir);
}

/* A file above the size bound is refused from its size, before anything is read (the test file
 * is sparse: it takes no disk space). */
TH_TEST(res, oversized_file_refused)
{
	char *dir = th_tempdir("res_big");
	char path[4200];
	snprintf(path, sizeof(path), "%s/big.json", dir);
	int fd = open(path, O_WRONLY | O_CREAT, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(ftruncate(fd, (off_t)RES_MAX_FILE_BYTES + 1), 0);
	close(fd);
	struct res_file *res = NULL;
	struct errbuf err = {""};
	char want[4400];
	snprintf(want, sizeof(want), "'%s': larger than a result file may be (256 MiB)", path);
	CU_ASSERT_EQUAL(res_file_read(&res, path, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.msg, want);
	th_rmtree(dir);
	free(dir);
}

/* n copies of item between open and close, comma-separated (malloc'd). */
static char *repeated(const char *open, const char *item, const char *sep, size_t n,
		      const char *close)
{
	size_t il = strlen(item), sl = strlen(sep);
	char *out = malloc(strlen(open) + n * (il + sl) + strlen(close) + 1), *p = out;
	p += sprintf(p, "%s", open);
	for (size_t i = 0; i < n; i++) {
		memcpy(p, item, il);
		p += il;
		if (i + 1 < n) {
			memcpy(p, sep, sl);
			p += sl;
		}
	}
	strcpy(p, close);
	return out;
}

/* The structure bounds are checked on the text, before a JSON tree is built: a 1-million-entry
 * array, deep nesting, too many values in total. */
TH_TEST(res, structure_bounds_refused_before_parsing)
{
	struct {
		char *text;
		const char *msg;
	} cases[] = {
	    {repeated("[", "0", ",", 1000000, "]"),
	     "'big.json': an array or object with more than 100000 entries"},
	    {repeated("{\"h\":", "{\"a\":", "", 65, "1"),
	     "'big.json': nested deeper than 64 levels"},
	    {repeated("[", "[0,0,0,0,0,0,0,0,0,0]", ",", 99999, "]"),
	     "'big.json': more than 1048576 JSON keys and values"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct res_file *res = NULL;
		struct errbuf err = {""};
		CU_ASSERT_EQUAL(
		    res_file_parse(&res, cases[i].text, strlen(cases[i].text), "big.json", &err),
		    -1);
		CU_ASSERT_STRING_EQUAL(err.msg, cases[i].msg);
		free(cases[i].text);
	}
}

/* Brackets, commas and escaped quotes inside strings are not structure. */
TH_TEST(res, strings_do_not_count_as_structure)
{
	char *label = repeated("\"label\":\"\\\"", "[{,", "", 70000, "\",");
	char *text = replaced("\"started_at\"", "\"started_at\"");
	size_t at = (size_t)(strstr(text, "\"started_at\"") - text);
	char *full = malloc(strlen(text) + strlen(label) + 1);
	memcpy(full, text, at);
	strcpy(full + at, label);
	strcat(full, text + at);
	struct res_file *res = NULL;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL(res_file_parse(&res, full, strlen(full), "label.json", &err), 0);
	CU_ASSERT_STRING_EQUAL(err.msg, "");
	CU_ASSERT_EQUAL(res ? strlen(res->label) : 0, 1 + 3 * 70000);
	res_file_free(res);
	free(full);
	free(text);
	free(label);
}

TH_TEST(res, read_missing_file_names_it)
{
	struct res_file *res = NULL;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL(res_file_read(&res, "/nonexistent/x.json", &err), -1);
	CU_ASSERT_STRING_EQUAL(err.msg,
			       "cannot open '/nonexistent/x.json': No such file or directory");
}

/* What -o must not replace: a result, a stabilize analysis, a stabilize profile, by the first
 * "format" member that names one (a profile's nested analysis comes later); anything else,
 * a FIFO (not opened for long) and no file are RES_KIND_NONE. */
TH_TEST(res, file_kind_by_format)
{
	static const struct {
		const char *text;
		enum res_kind kind;
	} cases[] = {
	    {"{\n \"format\": \"dbt3stab-result\",\n \"format_version\": 1}", RES_KIND_RESULT},
	    {"{\"format\":\"dbt3stab-stabilize\",\"candidates\":[]}", RES_KIND_STABILIZE},
	    {"{\"format\": \"dbt3stab-profile\", \"measured\": {\"format\": "
	     "\"dbt3stab-stabilize\"}}",
	     RES_KIND_PROFILE},
	    {"{\"format\": \"dbt3stab-compare\", \"old\": {\"format\": \"dbt3stab-result\"}}",
	     RES_KIND_RESULT}, /* as before: a result's format anywhere in the first 4 KiB */
	    {"{\"format\": \"dbt3stab-compare\"}", RES_KIND_NONE},
	    {"{\"formats\": \"dbt3stab-result\"}", RES_KIND_NONE},
	    {"<html>dbt3stab-result</html>", RES_KIND_NONE},
	    {"", RES_KIND_NONE},
	};
	char *dir = th_tempdir("kind"), path[4200];
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	snprintf(path, sizeof(path), "%s/f.json", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *f = fopen(path, "w");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		fputs(cases[i].text, f);
		fclose(f);
		enum res_kind k = res_file_kind(path);
		if (k != cases[i].kind)
			fprintf(stderr, "'%s': kind %d, not %d\n", cases[i].text, (int)k,
				(int)cases[i].kind);
		CU_ASSERT_EQUAL(k, cases[i].kind);
	}
	CU_ASSERT_STRING_EQUAL(res_kind_name(RES_KIND_PROFILE), "a stabilize profile");
	CU_ASSERT_STRING_EQUAL(res_kind_name(RES_KIND_NONE), "");
	unlink(path);
	CU_ASSERT_EQUAL(res_file_kind(path), RES_KIND_NONE);
	CU_ASSERT_EQUAL(mkfifo(path, 0600), 0);
	CU_ASSERT_EQUAL(res_file_kind(path), RES_KIND_NONE); /* no writer: does not block */
	CU_ASSERT_EQUAL(res_file_kind(dir), RES_KIND_NONE);
	unlink(path);
	th_rmtree(dir);
	free(dir);
}

TH_MAIN(res)
