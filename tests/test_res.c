/* SPDX-License-Identifier: MIT */
#include "result/res.h"
#include "tests/harness.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void test_res__base_file_parses(void)
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
     "'bad.json': $.dataset.scale_factor: not a positive number: -1"},
    {"\"host\":{}", "\"host\":[]", "'bad.json': $.host: expected an object, found an array"},
    {"\"id\":\"Q1\",", "", "'bad.json': $.queries[0].id: missing"},
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
};

static void test_res__malformed_inputs_name_file_and_path(void)
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

static void test_res__non_ok_restart_may_have_no_runs(void)
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

static void test_res__write_then_read_keeps_everything(void)
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

static void test_res__read_missing_file_names_it(void)
{
	struct res_file *res = NULL;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL(res_file_read(&res, "/nonexistent/x.json", &err), -1);
	CU_ASSERT_STRING_EQUAL(err.msg,
			       "cannot open '/nonexistent/x.json': No such file or directory");
}

int main(int argc, char **argv)
{
	static const struct th_case cases[] = {
	    {"base_file_parses", test_res__base_file_parses},
	    {"malformed_inputs_name_file_and_path", test_res__malformed_inputs_name_file_and_path},
	    {"non_ok_restart_may_have_no_runs", test_res__non_ok_restart_may_have_no_runs},
	    {"write_then_read_keeps_everything", test_res__write_then_read_keeps_everything},
	    {"read_missing_file_names_it", test_res__read_missing_file_names_it},
	    {NULL, NULL},
	};
	return th_run("res", cases, argc, argv);
}
