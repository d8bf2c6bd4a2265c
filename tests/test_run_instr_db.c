/* SPDX-License-Identifier: MIT */
/* run --instructions at SF 0.01 on a real private MariaDB under Valgrind callgrind: every
 * measured execution has a positive count, the same run position counts the same in two
 * restarts (within 0.5 %), the warm-up ended on the rule, the server record names Valgrind; the
 * profile by function is recorded and sane; and a run without it records the PMU's counts or why
 * there are none. */
#include "harness.h"
#include "base/util.h"
#include "result/res.h"
#include "result/res_counts.h"
#include "result/res_funcs.h"
#include "tests/th_db.h"
#include "tests/th_schema.h"
#include "tests/th_spawn.h"
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct th_db db; /* one loaded instance shared by the cases (made in main) */
static int loaded;

/* run with args (after "-s 0.01 -o DIR/NAME.json"), read and checked against the schema. */
static struct res_file *run_read(const char *name, const char *const *args)
{
	char out[4300], log[4300];
	snprintf(out, sizeof(out), "%s/%s.json", db.tmp, name);
	snprintf(log, sizeof(log), "%s/%s.log", db.tmp, name);
	const char *head[] = {"run", "-s", "0.01", "-o", out, "--datadir", db.inst,
			      "--port", db.portarg, NULL};
	CU_ASSERT_EQUAL_FATAL(th_run_logged(log, head, args), 0);
	return th_result_read_valid(out);
}

/* Files in the instance's tmp dir whose names begin with prefix: Valgrind's "vgdb-" FIFOs,
 * callgrind's "callgrind.out." dumps; none should be left once the server stopped. */
static int tmp_files_left(const char *prefix)
{
	char dir[4300];
	snprintf(dir, sizeof(dir), "%s/tmp", db.inst);
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;
	while (d && (de = readdir(d)) != NULL)
		n += strncmp(de->d_name, prefix, strlen(prefix)) == 0;
	if (d)
		closedir(d);
	return n;
}

TH_TEST(run_instr_db, counts_recorded_positive_and_steady)
{
	CU_ASSERT_FATAL(loaded);
	const char *args[] = {"--instructions", "--restarts", "2",	  "--warmup", "4",
			      "--runs",		"2",	      "--queries", "6,14,3", NULL};
	struct res_file *res = run_read("instr", args);
	CU_ASSERT_TRUE(json_is_true(json_object_get(res->plan, "instructions")));
	CU_ASSERT_STRING_EQUAL(
	    json_string_value(json_object_get(res->plan, "instructions_source")), "callgrind");
	json_t *vg = json_object_get(res->server, "valgrind");
	const char *version = json_string_value(json_object_get(vg, "version"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(version);
	CU_ASSERT_EQUAL(strncmp(version, "valgrind-", 9), 0);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(vg, "aslr")), "off");
	CU_ASSERT_EQUAL(tmp_files_left("vgdb-"), 0);
	CU_ASSERT_EQUAL_FATAL(res->n_queries, 3);
	for (size_t q = 0; q < res->n_queries; q++) {
		struct res_query *qq = &res->queries[q];
		CU_ASSERT_EQUAL_FATAL(qq->n_restarts, 2);
		struct res_counts c[2];
		for (int r = 0; r < 2; r++) {
			CU_ASSERT_EQUAL_FATAL(
			    res_counts_get(&c[r], &qq->restarts[r], "instructions"), 1);
			CU_ASSERT_EQUAL(c[r].n_exec, 2);
			CU_ASSERT_EQUAL_FATAL(res_counts_find(&c[r], "callgrind_ir"), 0);
		}
		/* the counts are the server's alone: the same warm-up in both restarts, and the
		 * same run position counts the same */
		CU_ASSERT_EQUAL(qq->restarts[0].n_warmup, qq->restarts[1].n_warmup);
		for (size_t e = 0; e < 2; e++) {
			double a = (double)c[0].v[e], b = (double)c[1].v[e];
			fprintf(stderr, "%s run %zu: %.0f %.0f (%+.4f%%), warm-up %zu\n", qq->id,
				e + 1, a, b, 100 * (b / a - 1), qq->restarts[0].n_warmup);
			CU_ASSERT(a > 1e6 && b > 1e6);
			CU_ASSERT(fabs(b / a - 1) <= 0.005);
		}
		if (strcmp(qq->id, "Q6") == 0) /* steady from its second execution */
			CU_ASSERT_TRUE(json_is_true(
			    json_object_get(qq->restarts[0].extra, "instructions_steady")));
		res_counts_release(&c[0]);
		res_counts_release(&c[1]);
	}
	res_file_free(res);
}

/* One restart of Q6: its profile by function adds up, names dispatch_command as holding nearly
 * all of it, keeps only functions of 0.5 % or more, and with Debian's symbol list names them
 * all; the dump is gone. */
TH_TEST(run_instr_db, profile_by_function_recorded)
{
	CU_ASSERT_FATAL(loaded);
	const char *args[] = {"--instructions", "--restarts", "1",	   "--warmup", "2",
			      "--runs",		"1",	      "--queries", "6",	       NULL};
	struct res_file *res = run_read("funcs", args);
	static struct res_funcs f;
	struct res_counts c;
	CU_ASSERT_EQUAL_FATAL(res->n_queries, 1);
	const struct res_restart *r = &res->queries[0].restarts[0];
	CU_ASSERT_EQUAL_FATAL(res_funcs_get(&f, r), 1);
	CU_ASSERT_EQUAL_FATAL(res_counts_get(&c, r, "instructions"), 1);
	double ir = (double)c.v[0];
	fprintf(stderr, "Q6: %lld in the dump, %.0f counted, %zu functions, %lld named (%lld from "
			"the symbol list), %lld unnamed\n",
		f.total, ir, f.n, f.named, f.resolved, f.unnamed);
	CU_ASSERT(f.total >= ir && f.total <= 1.05 * ir); /* the dump counts a little of itself */
	CU_ASSERT_EQUAL(f.named + f.unnamed, f.total);
	CU_ASSERT(f.resolved <= f.named);
	CU_ASSERT(f.n >= 5);
	int dispatch = 0;
	for (size_t i = 0; i < f.n; i++) {
		CU_ASSERT(f.fn[i].self <= f.fn[i].incl && f.fn[i].incl <= f.total);
		CU_ASSERT(f.fn[i].self >= 0.005 * f.total || f.fn[i].incl >= 0.005 * f.total);
		if (i)
			CU_ASSERT(f.fn[i - 1].self >= f.fn[i].self);
		if (strncmp(f.fn[i].name, "dispatch_command(", 17) == 0)
			dispatch = f.fn[i].incl >= 0.9 * f.total;
	}
	CU_ASSERT_TRUE(dispatch);
	const char *bin = json_string_value(json_object_get(res->server, "binary"));
	if (access("/usr/share/doc/mariadb-server/mariadbd.sym.gz", R_OK) == 0 && bin &&
	    strcmp(bin, "/usr/sbin/mariadbd") == 0)
		CU_ASSERT_EQUAL(f.unnamed, 0);
	CU_ASSERT_EQUAL(tmp_files_left("callgrind.out."), 0);
	res_counts_release(&c);
	res_file_free(res);
}

/* A member's string, "" when it is not one. */
static const char *str_of(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));
	return v ? v : "";
}

/* One variant's file of the budget run below: decided on the counts after the 2 pairs
 * --min-restarts owes, each measured restart counted; the decision of Q20 into *out. */
static void budget_file_check(const char *path, const char *side, const char **out)
{
	struct res_file *res = th_result_read_valid(path);
	CU_ASSERT_STRING_EQUAL(str_of(res->plan, "warmup_rule"), "instructions-steady");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(res->plan, "runs_max")), 2);
	json_t *b = json_object_get(res->extra, "budget");
	CU_ASSERT_STRING_EQUAL(str_of(b, "stop_reason"), "all-decided");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(b, "pairs")), 2);
	CU_ASSERT_EQUAL_FATAL(res->n_queries, 2);
	for (size_t i = 0; i < res->n_queries; i++) {
		const struct res_query *q = &res->queries[i];
		json_t *d = json_object_get(q->extra, "budget");
		const char *dec = str_of(d, "decision");
		fprintf(stderr, "%s %s: %s on %s, ratio %.4f\n", side, q->id, dec,
			str_of(d, "decided_on"), json_number_value(json_object_get(d, "ratio")));
		CU_ASSERT_STRING_EQUAL(str_of(d, "decided_on"), "instructions");
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(d, "decided_after_pairs")), 2);
		CU_ASSERT_EQUAL_FATAL(q->n_restarts, 2);
		for (size_t r = 0; r < 2; r++) {
			struct res_counts c;
			CU_ASSERT_EQUAL(res_counts_get(&c, &q->restarts[r], "instructions"), 1);
			CU_ASSERT_EQUAL(c.n_exec, 2);
			res_counts_release(&c);
		}
		if (strcmp(q->id, "Q14") == 0) {
			CU_ASSERT_STRING_EQUAL(dec, "unchanged");
		} else {
			CU_ASSERT(strcmp(dec, "regression") == 0 || strcmp(dec, "improvement") == 0);
			*out = dec[0] == 'r' ? "regression" : "improvement";
		}
	}
	res_file_free(res);
}

/* --budget with --instructions, the semijoin A/B (docs/work.md): semijoin=off changes the plan
 * of Q20 and not of Q14 (tests/test_run_work_db.c), so Q20's counts change and Q14's do not; the
 * counts decide both after the 2 pairs --min-restarts owes, well inside the budget, and both
 * files say the same. Two cheap queries: 4 server starts under Valgrind are most of its time. */
TH_TEST(run_instr_db, budget_decides_on_the_counts)
{
	CU_ASSERT_FATAL(loaded);
	char dir[4300], log[4300], on[4400], off[4400];
	const char *dec_on = "", *dec_off = "";
	snprintf(dir, sizeof(dir), "%s/budget", db.tmp);
	snprintf(log, sizeof(log), "%s/budget.log", db.tmp);
	const char *head[] = {"run", "-s", "0.01", "-o", dir, "--datadir", db.inst,
			      "--port", db.portarg, NULL};
	const char *args[] = {"--instructions", "--budget", "10m", "--queries", "14,20",
			      "--variant", "on:mysqld=/usr/sbin/mariadbd", "--variant",
			      "off:mysqld=/usr/sbin/mariadbd,optimizer_switch=semijoin=off", NULL};
	uint64_t t0 = util_now_ns();
	CU_ASSERT_EQUAL_FATAL(th_run_logged(log, head, args), 0);
	double wall = (double)(util_now_ns() - t0) / 1e9;
	fprintf(stderr, "budget run with --instructions: %.0f s\n", wall);
	CU_ASSERT(wall < 600);
	snprintf(on, sizeof(on), "%s/on.json", dir);
	snprintf(off, sizeof(off), "%s/off.json", dir);
	budget_file_check(on, "on", &dec_on);
	budget_file_check(off, "off", &dec_off);
	CU_ASSERT_STRING_EQUAL(dec_on, dec_off);
}

/* Without --instructions: the PMU's counts of the query thread, or the reason there are none. */
TH_TEST(run_instr_db, pmu_counts_or_the_reason)
{
	CU_ASSERT_FATAL(loaded);
	const char *args[] = {"--restarts", "1", "--warmup", "1", "--runs", "2", "--queries", "6",
			      NULL};
	struct res_file *res = run_read("pmu", args);
	const char *why = json_string_value(json_object_get(res->plan, "pmu_unavailable"));
	const char *src = json_string_value(json_object_get(res->plan, "instructions_source"));
	struct res_counts c;
	int have = res_counts_get(&c, &res->queries[0].restarts[0], "instructions");
	if (why) {
		fprintf(stderr, "no PMU counts: %s\n", why);
		CU_ASSERT_PTR_NULL(src);
		CU_ASSERT_EQUAL(have, 0);
		CU_ASSERT(strstr(why, "perf_event_open") != NULL);
	} else {
		CU_ASSERT_STRING_EQUAL(src, "pmu");
		CU_ASSERT_EQUAL_FATAL(have, 1);
		int i = res_counts_find(&c, "pmu_instructions"), k = res_counts_find(&c, "pmu_cycles");
		CU_ASSERT_FATAL(i >= 0 && k >= 0);
		CU_ASSERT(c.v[i * 2] > 1000000 && c.v[k * 2] > 0);
	}
	res_counts_release(&c);
	res_file_free(res);
}

int main(int argc, char **argv)
{
	return th_db_main_loaded(&db, &loaded, "instr", "run_instr_db", th_cases(), argc, argv);
}
