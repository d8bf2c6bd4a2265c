/* SPDX-License-Identifier: MIT */
/* run --side-by-side against real private MariaDB servers at SF 0.01: both variants' servers up
 * at once on their clones, pinned to the server's PUs, the executions alternated and balanced as
 * the files record, both servers' work counters, files valid against the schema, compare pairing
 * them; the default (side by side where both fit, else restart-paired, said in one line); and
 * the refusals (one variant, pools that do not fit) that make nothing. */
#include "harness.h"
#include "runner/run_sbs.h"
#include "tests/th_db.h"
#include "tests/th_pin.h"
#include "tests/th_schema.h"
#include "tests/th_spawn.h"
#include <jansson.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct th_db db; /* one loaded instance (made in main) */
static int loaded;

static pid_t spawn(const char *log, const char *const *args, int pin)
{
	return th_db_spawn(&db, log, args, pin);
}

static uint64_t affinity_of(pid_t pid)
{
	cpu_set_t s;
	uint64_t m = 0;
	if (sched_getaffinity(pid, sizeof(s), &s) < 0)
		return 0;
	for (int c = 0; c < 64; c++)
		if (CPU_ISSET(c, &s))
			m |= UINT64_C(1) << c;
	return m;
}

/* What the poller saw of the two clones' servers while the run went on. */
struct seen {
	int both_up;	  /* samples with both servers alive at once */
	long pids[2][16]; /* the distinct pids of each clone's server */
	int n_pids[2];
	uint64_t affinity[2]; /* the union of what each server's affinity was */
};

static void sample(struct seen *s)
{
	long pid[2];
	for (int k = 0; k < 2; k++) {
		char inst[4300];
		snprintf(inst, sizeof(inst), "%s/sbs/%d", db.inst, k);
		pid[k] = th_server_pid(inst);
		if (pid[k] <= 0 || kill((pid_t)pid[k], 0) != 0) {
			pid[k] = 0;
			continue;
		}
		s->affinity[k] |= affinity_of((pid_t)pid[k]);
		int known = 0;
		for (int i = 0; i < s->n_pids[k]; i++)
			known |= s->pids[k][i] == pid[k];
		if (!known && s->n_pids[k] < 16)
			s->pids[k][s->n_pids[k]++] = pid[k];
	}
	s->both_up += pid[0] > 0 && pid[1] > 0;
}

static int seen_pid(const struct seen *s, int k, long pid)
{
	for (int i = 0; i < s->n_pids[k]; i++)
		if (s->pids[k][i] == pid)
			return 1;
	return 0;
}

/* One entry's pair record against the other side's and what was seen: the same record, the
 * order alternating strictly from the pair's opener (A in even pairs, B in odd ones), as many
 * executions of each side as their entries hold. */
static void check_pair(const json_t *ea, const json_t *eb, const struct seen *s, int pair)
{
	const json_t *pa = json_object_get(ea, "side_by_side"),
		     *pb = json_object_get(eb, "side_by_side");
	CU_ASSERT_FATAL(json_is_object(pa) && json_is_object(pb));
	CU_ASSERT(json_equal(pa, pb));
	const char *first = json_string_value(json_object_get(pa, "first"));
	const char *order = json_string_value(json_object_get(pa, "order"));
	CU_ASSERT_FATAL(first && order);
	CU_ASSERT_STRING_EQUAL(first, pair % 2 ? "b" : "a"); /* no seed: alternating over pairs */
	size_t nw = json_array_size(json_object_get(ea, "warmup_ms"));
	size_t nm = json_array_size(json_object_get(ea, "measured_ms"));
	CU_ASSERT_EQUAL(nw, json_array_size(json_object_get(eb, "warmup_ms")));
	CU_ASSERT_EQUAL(nm, json_array_size(json_object_get(eb, "measured_ms")));
	CU_ASSERT_EQUAL(strlen(order), 2 * (nw + nm));
	CU_ASSERT(run_sbs_order_valid(order, pair % 2));
	size_t a = 0, b = 0;
	for (const char *p = order; *p; p++)
		a += *p == 'A', b += *p == 'B';
	CU_ASSERT_EQUAL(a, nw + nm);
	CU_ASSERT_EQUAL(b, nw + nm);
	/* both servers up: the pids recorded are the ones seen, each started once before */
	const json_t *pids = json_object_get(pa, "pids"),
		     *t = json_object_get(pa, "started_unix_ms");
	for (int k = 0; k < 2; k++)
		CU_ASSERT(seen_pid(s, k, (long)json_integer_value(json_array_get(pids, k))));
	CU_ASSERT(json_number_value(json_array_get(t, 0)) > 0);
	CU_ASSERT(json_number_value(json_array_get(t, 1)) > 0);
	/* the work counters of both servers, one per measured execution or one for all */
	CU_ASSERT(json_is_object(json_object_get(ea, "work")));
	CU_ASSERT(json_is_object(json_object_get(eb, "work")));
	/* each sampler counted the other server as the tool's */
	const json_t *ia = json_object_get(ea, "interference");
	if (ia)
		CU_ASSERT(json_is_number(json_object_get(ia, "partner_server_cpu_ms")));
}

/* Pair `pair` of a file as it ran: the order strings of its queries' entries in the order they
 * ran (their "position"), joined, alternate strictly, A B A B ... from the pair's opener (no seed:
 * A in even pairs, B in odd ones), with no server twice in a row, across the queries too; and
 * they are the order run_sbs_pair_order plans for those slots. Returns the queries seen. */
static int check_pair_alternates(const json_t *res, int pair)
{
	char joined[4096] = "", planned[4096];
	const char *orders[32] = {0};
	int slots[32] = {0}, n = 0;
	const json_t *q, *e;
	size_t i, j;
	json_array_foreach(json_object_get(res, "queries"), i, q)
	    json_array_foreach(json_object_get(q, "restarts"), j, e)
	{
		json_int_t pos = json_integer_value(json_object_get(e, "position"));
		if (json_integer_value(json_object_get(e, "index")) != pair || pos < 0 || pos >= 32)
			continue;
		orders[pos] =
		    json_string_value(json_object_get(json_object_get(e, "side_by_side"), "order"));
		size_t nw = json_array_size(json_object_get(e, "warmup_ms"));
		/* without a warm-up one more, unrecorded slot hashes the result */
		slots[pos] = (int)(nw + json_array_size(json_object_get(e, "measured_ms")) + !nw);
		n++;
	}
	int m = 0;
	for (int k = 0; k < 32; k++) {
		if (!orders[k])
			continue;
		CU_ASSERT(strlen(joined) + strlen(orders[k]) < sizeof(joined));
		strncat(joined, orders[k], sizeof(joined) - strlen(joined) - 1);
		slots[m++] = slots[k];
	}
	CU_ASSERT_EQUAL(joined[0], pair % 2 ? 'B' : 'A');
	for (size_t k = 1; joined[k]; k++)
		CU_ASSERT(joined[k] != joined[k - 1]);
	run_sbs_pair_order(planned, sizeof(planned), pair % 2, slots, m);
	CU_ASSERT_STRING_EQUAL(joined, planned);
	return n;
}

static json_t *load_checked(const char *path, const char *schema)
{
	struct errbuf err = {{0}};
	if (th_schema_validate_files(schema, path, &err) < 0)
		fprintf(stderr, "%s: %s\n", path, err.msg);
	CU_ASSERT_EQUAL(th_schema_validate_files(schema, path, &err), 0);
	json_error_t jerr;
	return json_load_file(path, 0, &jerr);
}

/* Two variants side by side, pinned, 2 pairs of Q1, Q6, Q21 (2 warm-up + 3 runs). */
TH_TEST(run_sbs_db, both_up_alternated_pinned_and_compared)
{
	CU_ASSERT_FATAL(loaded);
	char out[4300], log[4300], schema[4300], pa[4400], pb[4400], clone0[4300];
	snprintf(out, sizeof(out), "%s/sbs", db.tmp);
	snprintf(log, sizeof(log), "%s/sbs.log", db.tmp);
	snprintf(schema, sizeof(schema), "%s/docs/result.schema.json", DBT3_SOURCE_DIR);
	const char *args[] = {"run",	    "-s",
			      "0.01",	    "-o",
			      out,	    "--side-by-side",
			      "--variant",  "a:mysqld=mariadbd",
			      "--variant",  "b:mysqld=mariadbd,optimizer_switch=semijoin=off",
			      "--restarts", "2",
			      "--warmup",   "2",
			      "--runs",	    "3",
			      "--queries",  "1,6,21",
			      "--quiet",    NULL};
	pid_t child = spawn(log, args, 1);
	CU_ASSERT_FATAL(child > 0);
	struct seen s;
	memset(&s, 0, sizeof(s));
	int st = 0;
	pid_t w;
	while ((w = waitpid(child, &st, WNOHANG)) == 0) {
		sample(&s);
		th_sleep_ms(20);
	}
	CU_ASSERT_EQUAL_FATAL(w, child);
	if (th_exit_code(st) != 0)
		th_show_log(log);
	CU_ASSERT_EQUAL_FATAL(th_exit_code(st), 0);
	fprintf(stderr, "\nboth up in %d samples; pids seen %d + %d; affinity %#llx %#llx\n",
		s.both_up, s.n_pids[0], s.n_pids[1], (unsigned long long)s.affinity[0],
		(unsigned long long)s.affinity[1]);
	CU_ASSERT(s.both_up > 0);
	CU_ASSERT_EQUAL(s.n_pids[0], 2); /* restarted together: a new server each pair */
	CU_ASSERT_EQUAL(s.n_pids[1], 2);
	snprintf(clone0, sizeof(clone0), "%s/sbs/0", db.inst);
	CU_ASSERT_EQUAL(access(clone0, F_OK), -1); /* the clones are removed */
	snprintf(pa, sizeof(pa), "%s/a.json", out);
	snprintf(pb, sizeof(pb), "%s/b.json", out);
	json_t *ra = load_checked(pa, schema), *rb = load_checked(pb, schema);
	CU_ASSERT_FATAL(ra && rb);
	const json_t *sbs = json_object_get(json_object_get(ra, "plan"), "side_by_side");
	CU_ASSERT(json_is_object(sbs));
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(sbs, "order")), "alternate");
	const char *how = json_string_value(json_object_get(sbs, "clone"));
	CU_ASSERT(how && (!strcmp(how, "reflink") || !strcmp(how, "copy")));
	/* both pinned to the server's PUs, as each file records and /proc showed */
	for (int k = 0; k < 2; k++) {
		const json_t *pin = json_object_get(k ? rb : ra, "pinning");
		const json_t *pl = json_object_get(pin, "placement");
		CU_ASSERT_TRUE(json_is_true(json_object_get(pl, "pinned")));
		CU_ASSERT_TRUE(json_is_true(json_object_get(pin, "verified")));
		uint64_t want = th_pin_ids_mask(json_object_get(pl, "server_cpus"));
		CU_ASSERT(want != 0);
		CU_ASSERT_EQUAL(s.affinity[k], want);
		CU_ASSERT_EQUAL(th_pin_ids_mask(json_object_get(pl, "client_cpus")) & want, 0);
	}
	const json_t *qa = json_object_get(ra, "queries"), *qb = json_object_get(rb, "queries");
	CU_ASSERT_EQUAL_FATAL(json_array_size(qa), 3);
	for (size_t i = 0; i < 3; i++) {
		const json_t *ea = json_object_get(json_array_get(qa, i), "restarts");
		const json_t *eb = json_object_get(json_array_get(qb, i), "restarts");
		CU_ASSERT_EQUAL_FATAL(json_array_size(ea), 2);
		CU_ASSERT_EQUAL_FATAL(json_array_size(eb), 2);
		for (int r = 0; r < 2; r++)
			check_pair(json_array_get(ea, r), json_array_get(eb, r), &s, r);
	}
	for (int r = 0; r < 2; r++) /* the three queries of each pair: 2 x 3 x (2 + 3) executions */
		CU_ASSERT_EQUAL(check_pair_alternates(ra, r), 3);
	/* compare pairs them side by side */
	char cmp[4400];
	snprintf(cmp, sizeof(cmp), "%s/cmp.json", out);
	int rc = th_system("'%s' compare '%s' '%s' --format json -o '%s' --quiet", DBT3_BINARY, pa,
			   pb, cmp);
	CU_ASSERT(rc == 0 || rc == 1);
	json_error_t jerr;
	json_t *c = json_load_file(cmp, 0, &jerr);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	const json_t *pairing = json_object_get(c, "pairing");
	CU_ASSERT_TRUE(json_is_true(json_object_get(pairing, "paired")));
	CU_ASSERT_TRUE(json_is_true(json_object_get(pairing, "side_by_side")));
	json_decref(c);
	json_decref(ra);
	json_decref(rb);
}

/* Side by side within a budget: the plan records its own design (Pocock-type spending, first look
 * after pair 3), every pair alternates strictly, whatever warm-up and runs each query got, and
 * compare replays that design on the two files. */
TH_TEST(run_sbs_db, budget_pocock_from_pair_3_alternated)
{
	CU_ASSERT_FATAL(loaded);
	char out[4300], log[4300], schema[4300], pa[4400], pb[4400], cmp[4400];
	snprintf(out, sizeof(out), "%s/sbs-budget", db.tmp);
	snprintf(log, sizeof(log), "%s/sbs-budget.log", db.tmp);
	snprintf(schema, sizeof(schema), "%s/docs/result.schema.json", DBT3_SOURCE_DIR);
	const char *args[] = {"run",	   "-s",	  "0.01",	   "-o",
			      out,	   "--side-by-side", "--budget",   "40s",
			      "--min-restarts", "3",	  "--variant",	   "a:mysqld=mariadbd",
			      "--variant", "b:mysqld=mariadbd,optimizer_switch=semijoin=off",
			      "--queries", "1,6,21",	  "--quiet",	   NULL};
	int rc = th_wait_exit(spawn(log, args, 1));
	if (rc != 0)
		th_show_log(log);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	snprintf(pa, sizeof(pa), "%s/a.json", out);
	snprintf(pb, sizeof(pb), "%s/b.json", out);
	json_t *ra = load_checked(pa, schema), *rb = load_checked(pb, schema);
	CU_ASSERT_FATAL(ra && rb);
	for (int k = 0; k < 2; k++) {
		const json_t *plan = json_object_get(k ? rb : ra, "plan");
		CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(plan, "decision_rule")),
				       "group-sequential-pocock");
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(plan, "first_look")), 3);
		CU_ASSERT(json_integer_value(json_object_get(plan, "restarts")) >= 3);
		const json_t *sbs = json_object_get(plan, "side_by_side");
		CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(sbs, "order")),
				       "alternate");
		for (int r = 0; r < json_integer_value(json_object_get(plan, "restarts")); r++)
			CU_ASSERT(check_pair_alternates(k ? rb : ra, r) > 0);
	}
	snprintf(cmp, sizeof(cmp), "%s/cmp.json", out);
	rc = th_system("'%s' compare '%s' '%s' --format json -o '%s' --quiet", DBT3_BINARY, pa, pb,
		       cmp);
	CU_ASSERT(rc == 0 || rc == 1);
	json_error_t jerr;
	json_t *c = json_load_file(cmp, 0, &jerr);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	const json_t *seq = json_object_get(c, "sequential");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(seq, "why")), "recorded");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(seq, "spending")), "pocock");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(seq, "first_look")), 3);
	json_decref(c);
	json_decref(ra);
	json_decref(rb);
}

/* A run of two cheap variants of Q6 with neither --side-by-side nor --restart-paired. */
static int default_run(const char *name, const char *opt, char *text, size_t len)
{
	char out[4300], log[4300], va[200], vb[200];
	snprintf(out, sizeof(out), "%s/%s", db.tmp, name);
	snprintf(log, sizeof(log), "%s/%s.log", db.tmp, name);
	snprintf(va, sizeof(va), "a:mysqld=mariadbd%s", opt);
	snprintf(vb, sizeof(vb), "b:mysqld=mariadbd%s", opt);
	const char *args[] = {"run",	   "-s",       "0.01",	  "-o",	       out,
			      "--variant", va,	       "--variant", vb,	       "--restarts",
			      "1",	   "--warmup", "1",	  "--runs",    "1",
			      "--queries", "6",	       "--no-table", NULL};
	int rc = th_wait_exit(spawn(log, args, 0));
	if (th_sh(text, len, "cat '%s'", log) != 0 || rc != 0)
		th_show_log(log);
	return rc;
}

/* Whether both files of the run `name` (valid against the schema) record side by side (1),
 * neither (0), or disagree (-1). */
static int recorded_side_by_side(const char *name)
{
	char schema[4300];
	int n = 0;
	snprintf(schema, sizeof(schema), "%s/docs/result.schema.json", DBT3_SOURCE_DIR);
	for (int k = 0; k < 2; k++) {
		char path[4400];
		snprintf(path, sizeof(path), "%s/%s/%c.json", db.tmp, name, "ab"[k]);
		json_t *r = load_checked(path, schema);
		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		n += json_is_object(json_object_get(json_object_get(r, "plan"), "side_by_side"));
		json_decref(r);
	}
	return n == 2 ? 1 : n == 0 ? 0 : -1;
}

/* Two variants go side by side by default; where two pools do not fit in RAM (each variant's
 * own innodb_buffer_pool_size at 45 % of it: together above any cap), the run measures
 * restart-paired and says so in one line. */
TH_TEST(run_sbs_db, default_side_by_side_else_restart_paired)
{
	CU_ASSERT_FATAL(loaded);
	char text[8192], opt[100];
	CU_ASSERT_EQUAL_FATAL(default_run("default-fits", "", text, sizeof(text)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "side by side: two "));
	CU_ASSERT_EQUAL(recorded_side_by_side("default-fits"), 1);
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
	CU_ASSERT_FATAL(pages > 0 && page > 0);
	unsigned long long mib = (unsigned long long)pages * (unsigned long long)page / 1048576;
	snprintf(opt, sizeof(opt), ",innodb_buffer_pool_size=%lluM", mib * 45 / 100);
	CU_ASSERT_EQUAL_FATAL(default_run("default-no-room", opt, text, sizeof(text)), 0);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "restart-paired: side by side needs two buffer pools ("));
	CU_ASSERT_PTR_NULL(strstr(text, "drop --side-by-side"));
	CU_ASSERT_EQUAL(recorded_side_by_side("default-no-room"), 0);
}

/* One variant, and two pools RAM cannot hold: one line naming the way, exit 2, nothing made. */
TH_TEST(run_sbs_db, refusals_make_nothing)
{
	CU_ASSERT_FATAL(loaded);
	char out[4300], log[4300], text[8192], clones[4300];
	snprintf(out, sizeof(out), "%s/refused", db.tmp);
	snprintf(clones, sizeof(clones), "%s/sbs/0", db.inst);
	const char *one[] = {
	    "run", "-s", "0.01", "-o", out, "--side-by-side", "--variant", "a:mysqld=mariadbd",
	    NULL};
	snprintf(log, sizeof(log), "%s/refused1.log", db.tmp);
	CU_ASSERT_EQUAL(th_wait_exit(spawn(log, one, 0)), 2);
	const char *big[] = {"run",
			     "-s",
			     "0.01",
			     "-o",
			     out,
			     "--side-by-side",
			     "--buffer-pool",
			     "64T",
			     "--variant",
			     "a:mysqld=mariadbd",
			     "--variant",
			     "b:mysqld=mariadbd",
			     NULL};
	snprintf(log, sizeof(log), "%s/refused2.log", db.tmp);
	CU_ASSERT_EQUAL(th_wait_exit(spawn(log, big, 0)), 2);
	CU_ASSERT_EQUAL(th_sh(text, sizeof(text), "cat '%s'", log), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "gives the pools at most"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ": measure restart-paired (drop --side-by-side)"));
	CU_ASSERT_EQUAL(access(out, F_OK), -1);
	CU_ASSERT_EQUAL(access(clones, F_OK), -1);
}

int main(int argc, char **argv)
{
	return th_db_main_loaded(&db, &loaded, "sbs", "run_sbs_db", th_cases(), argc, argv);
}
