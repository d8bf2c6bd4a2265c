/* SPDX-License-Identifier: MIT */
/* Unit tests of the run protocol's parts: query lists, variants, shuffles, plan shapes, result
 * hashes, the CPU sampler, the schema validator and the end-of-run table. */
#include "harness.h"
#include "result/res.h"
#include "runner/run.h"
#include "runner/run_cpu.h"
#include "runner/run_exec.h"
#include "runner/run_explain.h"
#include "runner/run_report.h"
#include "th_schema.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

TH_TEST(run, query_lists_parse)
{
	static const struct {
		const char *in;
		int n;
		int first, last;
	} ok[] = {
	    {"1-22", 22, 1, 22},  {"6", 1, 6, 6},     {"Q6,Q14", 2, 6, 14},
	    {"1,3,5-7", 5, 1, 7}, {"22,1", 2, 22, 1}, {"q2-q4", 3, 2, 4},
	};
	static const char *const bad[] = {"",	"0", "23",  "1-",    "-3", "5-2", "1,,2",
					  "1,", "x", "1,1", "1-3,2", "Q",  "123"};
	int out[RUN_MAX_QUERIES];
	struct errbuf err;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int n = run_queries_parse(out, ok[i].in, &err);
		CU_ASSERT_EQUAL(n, ok[i].n);
		if (n > 0) {
			CU_ASSERT_EQUAL(out[0], ok[i].first);
			CU_ASSERT_EQUAL(out[n - 1], ok[i].last);
		}
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err.msg[0] = '\0';
		CU_ASSERT_EQUAL(run_queries_parse(out, bad[i], &err), -1);
		CU_ASSERT(err.msg[0] != '\0');
	}
}

TH_TEST(run, variant_parses_binary_and_options)
{
	struct run_variant v;
	struct errbuf err;
	CU_ASSERT_EQUAL_FATAL(run_variant_parse(&v,
						"new:mysqld=/opt/new/mariadbd,"
						"join_cache_level=4,skip-name-resolve",
						&err),
			      0);
	CU_ASSERT_STRING_EQUAL(v.name, "new");
	CU_ASSERT_STRING_EQUAL(v.mysqld, "/opt/new/mariadbd");
	CU_ASSERT_EQUAL_FATAL(v.n_options, 2);
	CU_ASSERT_STRING_EQUAL(v.options[0].name, "join_cache_level");
	CU_ASSERT_STRING_EQUAL(v.options[0].value, "4");
	CU_ASSERT_STRING_EQUAL(v.options[1].name, "skip-name-resolve");
	CU_ASSERT_PTR_NULL(v.options[1].value);
	run_variant_release(&v);

	/* bare flags: as leading items, or skip-/enable-/disable- flags anywhere */
	CU_ASSERT_EQUAL_FATAL(run_variant_parse(&v,
						"f:innodb_file_per_table,mysqld=/x,x=1,"
						"enable-x,disable-y,loose-skip-z",
						&err),
			      0);
	CU_ASSERT_EQUAL(v.n_options, 5);
	run_variant_release(&v);

	CU_ASSERT_EQUAL(run_variant_parse(&v, "old:", &err), 0); /* the default server */
	CU_ASSERT_PTR_NULL(v.mysqld);
	run_variant_release(&v);
	CU_ASSERT_EQUAL(run_variant_parse(&v, "noname", &err), -1);
	CU_ASSERT_EQUAL(run_variant_parse(&v, ":mysqld=/x", &err), -1);
	CU_ASSERT_EQUAL(run_variant_parse(&v, "a b:mysqld=/x", &err), -1);
	CU_ASSERT_EQUAL(run_variant_parse(&v, "a:mysqld=", &err), -1);
}

/* A value with commas in double quotes stays one option (\" and \\ inside); the spec is kept as
 * given (it is stored in the result file and parsed again by --resume). */
TH_TEST(run, variant_quoted_values_keep_commas)
{
	struct run_variant v;
	struct errbuf err = {""};
	const char *spec = "b:mysqld=/x,sql_mode=\"STRICT_TRANS_TABLES,NO_ZERO_DATE\","
			   "init_connect=\"SET @a=\\\"x,y\\\"\\\\\",skip-log-bin";
	CU_ASSERT_EQUAL_FATAL(run_variant_parse(&v, spec, &err), 0);
	CU_ASSERT_EQUAL_FATAL(v.n_options, 3);
	CU_ASSERT_STRING_EQUAL(v.options[0].name, "sql_mode");
	CU_ASSERT_STRING_EQUAL(v.options[0].value, "STRICT_TRANS_TABLES,NO_ZERO_DATE");
	CU_ASSERT_STRING_EQUAL(v.options[1].name, "init_connect");
	CU_ASSERT_STRING_EQUAL(v.options[1].value, "SET @a=\"x,y\"\\");
	CU_ASSERT_STRING_EQUAL(v.options[2].name, "skip-log-bin");
	CU_ASSERT_PTR_NULL(v.options[2].value);
	CU_ASSERT_STRING_EQUAL(v.spec, spec);
	run_variant_release(&v);
}

/* Names are safe file names of bounded length (NAME.json is written in the output directory);
 * an unquoted comma in a value is refused, not passed on as an option of its own. */
TH_TEST(run, variant_bad_specs_refused)
{
	static const struct {
		const char *spec, *msg;
	} cases[] = {
	    {".:mysqld=/x", "bad variant name '.' (a letter or digit, then letters, digits, '-', "
			    "'_', '.')"},
	    {"..:mysqld=/x", "bad variant name '..' (a letter or digit, then letters, digits, '-', "
			     "'_', '.')"},
	    {"-a:",
	     "bad variant name '-a' (a letter or digit, then letters, digits, '-', '_', '.')"},
	    {"a/b:", "bad variant name 'a/b' (a letter or digit, then letters, digits, '-', '_', "
		     "'.')"},
	    {"a:sql_mode=A,B", "bad variant 'a:sql_mode=A,B': option name 'B' (lowercase letters, "
			       "digits, '-', '_', '.'; a value with commas goes in double quotes: "
			       "name=\"A,B\")"},
	    {"a:x=\"A,B", "bad variant 'a:x=\"A,B': unterminated quote"},
	    {"a:x=\"A\"B", "bad variant 'a:x=\"A\"B': a quoted value ends at its quote"},
	    {"a:x=A\"B", "bad variant 'a:x=A\"B': a quote inside a value (quote the whole value: "
			 "name=\"...\")"},
	    {"a:,x=1", "bad variant 'a:,x=1': empty option name"},
	    {"a:mysqld", "bad variant 'a:mysqld': mysqld needs a path"},
	    /* a lowercase rest of a value with a comma, after a name=value item */
	    {"a:mysqld=/x,sql_mode=a,b",
	     "bad variant 'a:mysqld=/x,sql_mode=a,b': 'b' after 'sql_mode=a' has no '=' (a value "
	     "with commas goes in double quotes: sql_mode=\"a,b\"; a flag there is "
	     "skip-/enable-/disable-NAME or NAME=1)"},
	    {"a:mysqld=/x,innodb_file_per_table",
	     "bad variant 'a:mysqld=/x,innodb_file_per_table': 'innodb_file_per_table' after "
	     "'mysqld=/x' has no '=' (a value with commas goes in double quotes: "
	     "mysqld=\"/x,innodb_file_per_table\"; a flag there is skip-/enable-/disable-NAME or "
	     "NAME=1)"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run_variant v;
		struct errbuf err = {""};
		CU_ASSERT_EQUAL(run_variant_parse(&v, cases[i].spec, &err), -1);
		if (strcmp(err.msg, cases[i].msg) != 0) {
			fprintf(stderr, "\ncase %s:\n got  %s\n want %s\n", cases[i].spec, err.msg,
				cases[i].msg);
			CU_FAIL("message differs");
		}
	}
	char longname[200];
	memset(longname, 'n', 65);
	strcpy(longname + 65, ":mysqld=/x");
	struct run_variant v;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL(run_variant_parse(&v, longname, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.msg,
			       "bad variant name 'nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn' "
			       "(1 to 64 characters)");
	strcpy(longname + 64, ":mysqld=/x"); /* 64 characters: fine */
	CU_ASSERT_EQUAL(run_variant_parse(&v, longname, &err), 0);
	run_variant_release(&v);
}

/* A binary given as a path is checked before anything starts; a bare name is looked up on PATH. */
TH_TEST(run, binary_check_names_the_problem)
{
	struct errbuf err = {""};
	CU_ASSERT_EQUAL(run_binary_check("variant 'a': mysqld", "/nonexist", &err), -1);
	CU_ASSERT_STRING_EQUAL(err.msg,
			       "variant 'a': mysqld '/nonexist': No such file or directory");
	CU_ASSERT_EQUAL(run_binary_check("--mysqld", "/etc", &err), -1);
	CU_ASSERT_STRING_EQUAL(err.msg, "--mysqld '/etc' is not an executable file");
	CU_ASSERT_EQUAL(run_binary_check("--mysqld", "/bin/sh", &err), 0);
	CU_ASSERT_EQUAL(run_binary_check("--mysqld", "mariadbd", &err), 0);
	/* a bare name is looked up where the server start looks, before anything starts */
	CU_ASSERT_EQUAL(run_binary_check("variant 'a': mysqld", "no-such-mariadbd-x", &err), -1);
	CU_ASSERT_STRING_EQUAL(err.msg,
			       "variant 'a': mysqld 'no-such-mariadbd-x' is not an "
			       "executable found on PATH (nor in /usr/sbin, /usr/local/sbin, "
			       "/usr/bin, /usr/local/bin, /sbin)");
}

static int is_permutation(const int *a, int n, int lo)
{
	int seen[64] = {0};
	for (int i = 0; i < n; i++) {
		if (a[i] < lo || a[i] >= lo + n || seen[a[i]])
			return 0;
		seen[a[i]] = 1;
	}
	return 1;
}

TH_TEST(run, orders_are_deterministic_permutations)
{
	struct run_plan p;
	int a[RUN_MAX_QUERIES], b[RUN_MAX_QUERIES], v[4];
	run_plan_init(&p);
	run_plan_order(&p, 3, a);
	for (int i = 0; i < RUN_MAX_QUERIES; i++)
		CU_ASSERT_EQUAL(a[i], i + 1); /* fixed: the plan order */
	run_variant_order(&p, 1, 4, v);
	for (int i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(v[i], 3 - i); /* no seed, odd restart: reversed (A B, B A) */

	p.shuffled = 1;
	p.seed = 42;
	p.seed_given = 1;
	run_plan_order(&p, 0, a);
	run_plan_order(&p, 0, b);
	CU_ASSERT(is_permutation(a, RUN_MAX_QUERIES, 1));
	CU_ASSERT_EQUAL(memcmp(a, b, sizeof(a)), 0); /* same seed and restart: same order */
	run_plan_order(&p, 1, b);
	CU_ASSERT(is_permutation(b, RUN_MAX_QUERIES, 1));
	CU_ASSERT_NOT_EQUAL(memcmp(a, b, sizeof(a)), 0); /* a new order per restart */
	p.seed = 43;
	run_plan_order(&p, 0, b);
	CU_ASSERT_NOT_EQUAL(memcmp(a, b, sizeof(a)), 0);

	/* Variant orders over 40 restarts: a permutation each time, both orders occur. */
	int first_a = 0;
	for (int r = 0; r < 40; r++) {
		int w[2];
		run_variant_order(&p, r, 2, w);
		CU_ASSERT(is_permutation(w, 2, 0));
		first_a += w[0] == 0;
	}
	CU_ASSERT(first_a > 5 && first_a < 35);
}

/* A MariaDB EXPLAIN FORMAT=JSON document with placeholders for the estimates. */
static char *mariadb_plan(const char *access, int rows, double cost)
{
	char *s = NULL;
	int rc = asprintf(
	    &s,
	    "{\"query_block\": {\"select_id\": 1, \"cost\": %g, \"filesort\": {\"sort_key\": "
	    "\"l_returnflag, l_linestatus\", \"temporary_table\": {\"nested_loop\": [{\"table\": "
	    "{\"table_name\": \"lineitem\", \"access_type\": \"%s\", \"possible_keys\": "
	    "[\"i_l_shipdate\"], \"key\": \"i_l_shipdate\", \"key_length\": \"4\", "
	    "\"used_key_parts\": [\"l_shipdate\"], \"rows\": %d, \"filtered\": 100, "
	    "\"attached_condition\": \"lineitem.l_shipdate <= '1998-09-02'\"}}, {\"table\": "
	    "{\"table_name\": \"orders\", \"access_type\": \"eq_ref\", \"key\": \"PRIMARY\", "
	    "\"ref\": [\"dbt3.lineitem.l_orderkey\"], \"rows\": 1, \"cost\": %g}}]}}}}",
	    cost, access, rows, cost / 3);
	return rc < 0 ? NULL : s;
}

TH_TEST(run, plan_shape_ignores_estimates)
{
	struct errbuf err;
	char *a = mariadb_plan("range", 1000, 12.5), *b = mariadb_plan("range", 98765, 0.25);
	char *c = mariadb_plan("ALL", 1000, 12.5);
	char *sa = NULL, *sb = NULL, *sc = NULL;
	CU_ASSERT_EQUAL_FATAL(run_explain_shape(a, &sa, &err), 0);
	CU_ASSERT_EQUAL_FATAL(run_explain_shape(b, &sb, &err), 0);
	CU_ASSERT_EQUAL_FATAL(run_explain_shape(c, &sc, &err), 0);
	CU_ASSERT_STRING_EQUAL(sa, sb);
	CU_ASSERT_STRING_NOT_EQUAL(sa, sc);
	CU_ASSERT_PTR_NULL(strstr(sa, "rows"));
	CU_ASSERT_PTR_NULL(strstr(sa, "cost"));
	CU_ASSERT_PTR_NULL(strstr(sa, "attached_condition"));
	CU_ASSERT_PTR_NULL(strstr(sa, "possible_keys"));
	CU_ASSERT_STRING_EQUAL(
	    sa, "{\"query_block\":{\"select_id\":1,\"filesort\":{\"sort_key\":\"l_returnflag, "
		"l_linestatus\",\"temporary_table\":{\"nested_loop\":[{\"table\":{\"table_name\":"
		"\"lineitem\",\"access_type\":\"range\",\"key\":\"i_l_shipdate\","
		"\"used_key_parts\":[\"l_shipdate\"]}},{\"table\":{\"table_name\":\"orders\","
		"\"access_type\":\"eq_ref\",\"key\":\"PRIMARY\",\"ref\":[\"dbt3.lineitem."
		"l_orderkey\"]}}]}}}}");
	/* MySQL's form: cost_info objects and used_columns go. */
	char *sm = NULL;
	CU_ASSERT_EQUAL(
	    run_explain_shape("{\"query_block\":{\"select_id\":1,\"cost_info\":"
			      "{\"query_cost\":\"1.5\"},\"table\":{\"table_name\":\"t\","
			      "\"access_type\":\"ALL\",\"rows_examined_per_scan\":3,"
			      "\"used_columns\":[\"a\",\"b\"]}}}",
			      &sm, &err),
	    0);
	CU_ASSERT_STRING_EQUAL(sm, "{\"query_block\":{\"select_id\":1,\"table\":{\"table_name\":"
				   "\"t\",\"access_type\":\"ALL\"}}}");
	/* Join order is the shape too. */
	char *swap = NULL;
	CU_ASSERT_EQUAL(run_explain_shape("{\"nested_loop\":[{\"table\":{\"table_name\":\"b\"}},"
					  "{\"table\":{\"table_name\":\"a\"}}]}",
					  &swap, &err),
			0);
	CU_ASSERT_STRING_EQUAL(swap, "{\"nested_loop\":[{\"table\":{\"table_name\":\"b\"}},"
				     "{\"table\":{\"table_name\":\"a\"}}]}");
	CU_ASSERT_EQUAL(run_explain_shape("{not json", &swap, &err), -1);
	free(a);
	free(b);
	free(c);
	free(sa);
	free(sb);
	free(sc);
	free(sm);
	free(swap);
}

TH_TEST(run, result_hash_matches_its_definition)
{
	/* Rows ("ab", NULL) and ("", "7"), built by hand per run_exec.h. */
	static const unsigned char bytes[] = {
	    1, 2, 0, 0, 0, 0, 0, 0, 0, 'a', 'b', 0, '\n', /* row 1 */
	    1, 0, 0, 0, 0, 0, 0, 0, 0, 1,   1,	 0, 0,	  0, 0, 0, 0, 0, '7', '\n',
	};
	char expect[65], got[65];
	util_sha256_hex(expect, bytes, sizeof(bytes));
	struct run_hash *h = run_hash_new();
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	run_hash_value(h, "ab", 2);
	run_hash_value(h, NULL, 0);
	run_hash_row_end(h);
	run_hash_value(h, "", 0);
	run_hash_value(h, "7", 1);
	run_hash_row_end(h);
	run_hash_final(h, got);
	CU_ASSERT_STRING_EQUAL(got, expect);

	/* NULL and the empty string differ; so do row boundaries. */
	char n1[65], n2[65];
	h = run_hash_new();
	run_hash_value(h, NULL, 0);
	run_hash_row_end(h);
	run_hash_final(h, n1);
	h = run_hash_new();
	run_hash_value(h, "", 0);
	run_hash_row_end(h);
	run_hash_final(h, n2);
	CU_ASSERT_STRING_NOT_EQUAL(n1, n2);
}

static double process_cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *burn_thread(void *arg)
{
	double t0 = process_cpu_s();
	volatile double x = 0;
	(void)arg;
	while (process_cpu_s() - t0 < 0.05)
		for (int i = 0; i < 10000; i++)
			x += i * 0.5;
	return NULL;
}

TH_TEST(run, cpu_sampler_follows_process_cpu_time)
{
	static const enum run_cpu_source sources[] = {RUN_CPU_CLOCK, RUN_CPU_SCHEDSTAT};
	static const char *const names[] = {"clock_getcpuclockid", "schedstat"};
	for (int s = 0; s < 2; s++) {
		struct run_cpu *c = NULL;
		struct errbuf err;
		uint64_t ns = 0;
		CU_ASSERT_EQUAL_FATAL(run_cpu_new(&c, getpid(), sources[s], &err), 0);
		CU_ASSERT_STRING_EQUAL(run_cpu_source_name(c), names[s]);
		double t0 = process_cpu_s();
		volatile double x = 0;
		while (process_cpu_s() - t0 < 0.2)
			for (int i = 0; i < 10000; i++)
				x += i * 0.5;
		double used = process_cpu_s() - t0;
		CU_ASSERT_EQUAL_FATAL(run_cpu_sample(c, &ns, &err), 0);
		double got = (double)ns / 1e9;
		/* Both read the counter behind the process CPU-time clock. */
		CU_ASSERT(got > used * 0.9 && got < used * 1.1 + 0.01);
		/* A second sample right away: almost nothing. */
		CU_ASSERT_EQUAL(run_cpu_sample(c, &ns, &err), 0);
		CU_ASSERT(ns < 20000000u);
		/* A thread that burns 50 ms and ends before the sample: the process clock keeps
		 * its time, schedstat (per live thread) loses it. */
		pthread_t th;
		CU_ASSERT_EQUAL_FATAL(pthread_create(&th, NULL, burn_thread, NULL), 0);
		pthread_join(th, NULL);
		CU_ASSERT_EQUAL(run_cpu_sample(c, &ns, &err), 0);
		if (sources[s] == RUN_CPU_CLOCK)
			CU_ASSERT(ns >= 45000000u);
		run_cpu_free(c);
	}
	struct run_cpu *c = NULL;
	struct errbuf err;
	CU_ASSERT_EQUAL(run_cpu_new(&c, 0x7ffffff0, RUN_CPU_AUTO, &err), -1); /* no such process */
	run_cpu_free(NULL);
}

TH_TEST(run, schema_validator_keywords)
{
	json_error_t je;
	json_t *schema = json_loads(
	    "{\"type\":\"object\",\"required\":[\"a\"],\"properties\":{"
	    "\"a\":{\"type\":\"integer\",\"minimum\":1},"
	    "\"s\":{\"oneOf\":[{\"$ref\":\"#/$defs/hex\"},{\"type\":\"null\"}]},"
	    "\"e\":{\"enum\":[\"x\",\"y\"]},"
	    "\"l\":{\"type\":\"array\",\"items\":{\"type\":\"number\",\"exclusiveMinimum\":0}},"
	    "\"st\":{\"type\":\"string\"}},"
	    "\"if\":{\"properties\":{\"st\":{\"const\":\"ok\"}}},"
	    "\"then\":{\"properties\":{\"l\":{\"minItems\":1}}},"
	    "\"$defs\":{\"hex\":{\"type\":\"string\",\"pattern\":\"^[0-9a-f]{4}$\"}}}",
	    0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(schema);
	static const struct {
		const char *doc;
		int valid;
		const char *where;
	} cases[] = {
	    {"{\"a\":1}", 1, NULL},
	    {"{\"a\":1,\"s\":\"00ff\",\"e\":\"y\",\"l\":[0.5,2]}", 1, NULL},
	    {"{\"a\":1,\"s\":null}", 1, NULL},
	    {"{}", 0, "required member 'a'"},
	    {"{\"a\":0}", 0, "$.a: less than the minimum"},
	    {"{\"a\":1.5}", 0, "$.a: not of type integer"},
	    {"{\"a\":1,\"s\":\"00FF\"}", 0, "$.s: matches none of oneOf"},
	    {"{\"a\":1,\"e\":\"z\"}", 0, "$.e: not one of the enum"},
	    {"{\"a\":1,\"l\":[1,0]}", 0, "$.l[1]: not more than 0"},
	    {"{\"a\":1,\"st\":\"ok\",\"l\":[]}", 0, "$.l: fewer items"},
	    {"{\"a\":1,\"st\":\"timeout\",\"l\":[]}", 1, NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct errbuf err = {{0}};
		json_t *doc = json_loads(cases[i].doc, 0, &je);
		CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
		int rc = th_schema_validate(schema, doc, &err);
		CU_ASSERT_EQUAL(rc == 0, cases[i].valid);
		if (cases[i].where && !strstr(err.msg, cases[i].where)) {
			fprintf(stderr, "case %zu: '%s' lacks '%s'\n", i, err.msg, cases[i].where);
			CU_FAIL("message");
		}
		json_decref(doc);
	}
	json_decref(schema);
}

/* A result with two queries as run would write it. */
static struct res_file *sample_result(void)
{
	struct res_file *res = res_file_new();
	struct run_plan p;
	run_plan_init(&p);
	p.restarts = 2;
	p.n_queries = 2;
	p.queries[0] = 1;
	p.queries[1] = 6;
	res_set_section(&res->plan, run_plan_to_json(&p, NULL, NULL));
	json_object_set_new(res->dataset, "scale_factor", json_real(0.01));
	static const char sha[] =
	    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	struct res_query *q1 = res_file_add_query(res, "Q1", sha);
	double warm[] = {3.0}, m0[] = {2.0, 2.0, 2.0}, m1[] = {2.2, 2.2, 2.2}, cpu[] = {1, 1, 1};
	struct res_restart r = {0};
	r.warmup_ms = warm;
	r.n_warmup = 1;
	r.measured_ms = m0;
	r.n_measured = 3;
	r.server_cpu_ms = cpu;
	r.n_server_cpu = 3;
	r.rows = 4;
	r.result_sha256 = (char *)sha;
	r.plan_sha256 = (char *)sha;
	res_query_add_restart(q1, &r);
	r.index = 1;
	r.measured_ms = m1;
	res_query_add_restart(q1, &r);
	struct res_query *q6 = res_file_add_query(res, "Q6", sha);
	struct res_restart t = {0};
	t.status = RES_STATUS_TIMEOUT;
	t.rows = -1;
	t.error = "killed after the query timeout";
	res_query_add_restart(q6, &t);
	return res;
}

TH_TEST(run, result_validates_against_the_schema)
{
	struct res_file *res = sample_result();
	json_t *doc = res_file_to_json(res);
	json_error_t je;
	json_t *schema = json_load_file(DBT3_SOURCE_DIR "/docs/result.schema.json", 0, &je);
	struct errbuf err = {{0}};
	CU_ASSERT_PTR_NOT_NULL_FATAL(schema);
	/* A checkpoint (finished_at null) and a finished file are both valid. */
	CU_ASSERT_EQUAL(th_schema_validate(schema, doc, &err), 0);
	if (err.msg[0])
		fprintf(stderr, "%s\n", err.msg);
	res_file_finish(res);
	json_decref(doc);
	doc = res_file_to_json(res);
	CU_ASSERT_EQUAL(th_schema_validate(schema, doc, &err), 0);
	/* And a broken one is caught. */
	json_t *q = json_array_get(json_object_get(doc, "queries"), 0);
	json_t *r = json_array_get(json_object_get(q, "restarts"), 0);
	json_object_set_new(r, "status", json_string("fine"));
	CU_ASSERT_EQUAL(th_schema_validate(schema, doc, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "$.queries[0].restarts[0].status"));
	json_decref(doc);
	json_decref(schema);

	/* The plan section reads back as the plan. */
	struct run_plan back;
	CU_ASSERT_EQUAL(run_plan_from_result(&back, res, &err), 0);
	CU_ASSERT_EQUAL(back.restarts, 2);
	CU_ASSERT_EQUAL(back.warmup, 8);
	CU_ASSERT_EQUAL(back.runs, 10);
	CU_ASSERT_EQUAL(back.n_queries, 2);
	CU_ASSERT_EQUAL(back.queries[1], 6);
	CU_ASSERT_EQUAL(back.shuffled, 0);
	res_file_free(res);
}

/* The plan's order is written as query_order; files of 0.1.0 carry "order" too, and a file with
 * only "order" (older writers) still resumes with its order. */
TH_TEST(run, plan_order_read_under_either_name)
{
	struct res_file *res = sample_result();
	struct errbuf err = {{0}};
	struct run_plan back;
	json_t *plan = res->plan;
	CU_ASSERT_PTR_NOT_NULL(json_object_get(plan, "query_order"));
	CU_ASSERT_PTR_NULL(json_object_get(plan, "order"));
	json_object_set_new(plan, "query_order", json_string("shuffled"));
	CU_ASSERT_EQUAL(run_plan_from_result(&back, res, &err), 0);
	CU_ASSERT_EQUAL(back.shuffled, 1);
	json_object_del(plan, "query_order");
	json_object_set_new(plan, "order", json_string("shuffled"));
	CU_ASSERT_EQUAL(run_plan_from_result(&back, res, &err), 0);
	CU_ASSERT_EQUAL(back.shuffled, 1);
	json_object_set_new(plan, "order", json_string("fixed"));
	CU_ASSERT_EQUAL(run_plan_from_result(&back, res, &err), 0);
	CU_ASSERT_EQUAL(back.shuffled, 0);
	res_file_free(res);
}

/* A side-by-side file resumes when its order is strict alternation ("alternate", with a seed
 * "alternate-coin"); one of the ABBA order of older versions ("abba", "coin") or without an
 * order is refused in one line. */
TH_TEST(run, plan_side_by_side_abba_not_resumed)
{
	static const struct {
		const char *order; /* NULL: no member */
		int rc;
	} c[] = {{"alternate", 0}, {"alternate-coin", 0}, {"abba", -1}, {"coin", -1}, {NULL, -1}};
	struct res_file *res = sample_result();
	struct run_plan back;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct errbuf err = {{0}};
		json_t *sbs = json_object();
		if (c[i].order)
			json_object_set_new(sbs, "order", json_string(c[i].order));
		json_object_set_new(res->plan, "side_by_side", sbs);
		CU_ASSERT_EQUAL(run_plan_from_result(&back, res, &err), c[i].rc);
		if (c[i].rc == 0) {
			CU_ASSERT_EQUAL(back.side_by_side, 1);
		} else {
			CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "ABBA order"));
			CU_ASSERT_PTR_NULL(strchr(err.msg, '\n'));
		}
	}
	json_object_del(res->plan, "side_by_side"); /* restart-paired */
	struct errbuf err = {{0}};
	CU_ASSERT_EQUAL(run_plan_from_result(&back, res, &err), 0);
	CU_ASSERT_EQUAL(back.side_by_side, 0);
	res_file_free(res);
}

TH_TEST(run, table_has_mean_cov_and_noise_bound)
{
	struct res_file *res = sample_result();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CU_ASSERT_EQUAL(run_report_table(f, res, NULL), 0);
	fclose(f);
	/* Q1: mean 2.1, no spread within a restart, sd of the restart means sqrt(0.02). */
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "Q1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "2.100"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "0.00%"));
	/* noise sd: sd of log restart means |log(2.2/2.0)|/sqrt(2) and its 95% upper bound on 1 df,
	 * s sqrt(1/chi2.ppf(0.05, 1)) (SciPy: 6.74%, 107.48%) */
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "6.74%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "107.48%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "1 timeout"));
	free(buf);
	res_file_free(res);
}

/* The work column: Rows_read of the warm executions (600572 in every restart: "600.6 k"); a
 * query without work records shows "-"; one restart with another count adds "varies". */
TH_TEST(run, table_has_the_work_column)
{
	struct res_file *res = sample_result();
	struct res_query *q = &res->queries[0];
	for (size_t j = 0; j < q->n_restarts; j++) {
		if (!q->restarts[j].extra)
			q->restarts[j].extra = json_object();
		json_object_set_new(q->restarts[j].extra, "work",
				    json_pack("{s:i}", "Rows_read", 600572));
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CU_ASSERT_EQUAL(run_report_table(f, res, NULL), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "work rows read"));
	char *q1 = strstr(buf, "\nQ1 ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(q1);
	CU_ASSERT_PTR_NOT_NULL(strstr(q1, "600.6 k"));
	CU_ASSERT_PTR_NULL(strstr(buf, "varies"));
	free(buf);
	json_object_set_new(q->restarts[0].extra, "work", json_pack("{s:i}", "Rows_read", 600000));
	buf = NULL;
	f = open_memstream(&buf, &len);
	CU_ASSERT_EQUAL(run_report_table(f, res, NULL), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, " varies"));
	free(buf);
	res_file_free(res);
}

/* A --budget restart whose warm-up reached --warmup-max before it was steady (warmup_steady
 * false) is counted in the notes: its measured runs may still hold the transient. A restart
 * without the member (a fixed-protocol run) or with true is not. */
TH_TEST(run, table_notes_warmup_cut)
{
	struct res_file *res = sample_result();
	char *buf = NULL;
	size_t len = 0;
	struct res_query *q = &res->queries[0];
	CU_ASSERT_FATAL(q->n_restarts >= 2);
	for (size_t j = 0; j < 2; j++) {
		if (!q->restarts[j].extra)
			q->restarts[j].extra = json_object();
		json_object_set_new(q->restarts[j].extra, "warmup_steady", json_boolean(j == 1));
	}
	FILE *f = open_memstream(&buf, &len);
	CU_ASSERT_EQUAL(run_report_table(f, res, NULL), 0);
	fclose(f);
	char *q1 = strstr(buf, "\nQ1 ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(q1);
	char *eol = strchr(q1 + 1, '\n');
	CU_ASSERT_PTR_NOT_NULL_FATAL(eol);
	*eol = '\0';
	CU_ASSERT_PTR_NOT_NULL(strstr(q1, "1 warm-up cut"));
	CU_ASSERT_PTR_NULL(strstr(eol + 1, "warm-up cut")); /* no other query has the member */
	free(buf);
	res_file_free(res);
}

/* The end-of-run notes of the first n targets as text (*notes their count, when not NULL). */
static char *notes_text(const struct run_target *t, int n, int *notes)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int k = run_report_notes(f, t, n);
	fclose(f);
	if (notes)
		*notes = k;
	return buf;
}

/* The end-of-run notes compare result fingerprints of ok restarts only (the per-query figures'
 * rule, stats/st_restart_summary.h): a crashed restart's fingerprint is of a partial result. */
TH_TEST(run, notes_compare_fingerprints_of_ok_restarts)
{
	static char other[] = "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff";
	struct res_file *a = sample_result(), *b = sample_result();
	double m[] = {2.0};
	struct res_restart crash = {0};
	crash.index = 2;
	crash.status = RES_STATUS_CRASH;
	crash.measured_ms = m;
	crash.n_measured = 1;
	crash.rows = 1;
	crash.result_sha256 = other;
	crash.error = "lost connection";
	res_query_add_restart(&a->queries[0], &crash);
	/* variant b: its first Q1 restart crashed with another fingerprint, its second is ok */
	b->queries[0].restarts[0].status = RES_STATUS_CRASH;
	free(b->queries[0].restarts[0].result_sha256);
	b->queries[0].restarts[0].result_sha256 = strdup(other);
	struct run_target t[2] = {{.name = "old", .res = a}, {.name = "new", .res = b}};
	int notes;
	char *buf = notes_text(t, 2, &notes);
	CU_ASSERT_PTR_NULL(strstr(buf, "differs"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "old Q1 restart 3: crash: lost connection\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "new Q1 restart 1: crash: \n"));
	CU_ASSERT_EQUAL(notes, 4); /* the two crashes and the two Q6 timeouts */
	free(buf);
	/* an ok restart with another fingerprint is a note, and so is another variant's answer */
	free(a->queries[0].restarts[1].result_sha256);
	a->queries[0].restarts[1].result_sha256 = strdup(other);
	buf = notes_text(t, 1, NULL);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "old Q1: the result differs between restarts\n"));
	free(buf);
	free(b->queries[0].restarts[1].result_sha256);
	b->queries[0].restarts[1].result_sha256 = strdup(other);
	buf = notes_text(t, 2, NULL);
	/* a's first ok restart has sha, b's now other */
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "new: the result of Q1 differs from old's\n"));
	free(buf);
	res_file_free(a);
	res_file_free(b);
}

TH_MAIN(run)
