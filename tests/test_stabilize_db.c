/* SPDX-License-Identifier: MIT */
/* `stabilize` end to end at SF 0.01 with a tiny plan: the rounds interleave, every candidate
 * gets its restarts, the table and the files are written, transparent huge pages are back to
 * what they were, and `run --profile` takes the profile it wrote and records it. No figure is
 * checked: this host is shared while the tests run (bench/data/stabilize-20261201 has the measurements). */
#include "harness.h"
#include "result/res.h"
#include "tests/th_db.h"
#include "tests/th_spawn.h"
#include <glob.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

static struct th_db db; /* one loaded instance shared by the cases (made in main) */
static int loaded;

static int read_thp(char *out, size_t len)
{
	return th_read_line("/sys/kernel/mm/transparent_hugepage/enabled", out, len);
}

TH_TEST(stabilize_db, tiny_experiment_end_to_end)
{
	CU_ASSERT_FATAL(loaded);
	char dir[4300], log[4300], thp_before[128] = "", thp_after[128] = "";
	snprintf(dir, sizeof(dir), "%s/stab", db.tmp);
	snprintf(log, sizeof(log), "%s/stab.log", db.tmp);
	int have_thp = read_thp(thp_before, sizeof(thp_before)) == 0;
	const char *args[] = {"stabilize",
			      "-s",
			      "0.01",
			      "--rounds",
			      "2",
			      "--warmup",
			      "1",
			      "--runs",
			      "2",
			      "--queries",
			      "1,6",
			      "--candidates",
			      "no-aslr,thp-never,pool-load",
			      "-o",
			      dir,
			      "--datadir",
			      db.inst,
			      "--port",
			      db.portarg,
			      "--json",
			      /* restarts of tiny queries on a busy test host are often
			       * disturbed; this test checks the experiment, not figures */
			      "--keep-disturbed",
			      NULL};
	CU_ASSERT_EQUAL_FATAL(th_run_logged(log, args, NULL), 0);
	if (have_thp) {
		CU_ASSERT_EQUAL(read_thp(thp_after, sizeof(thp_after)), 0);
		CU_ASSERT_STRING_EQUAL(thp_after, thp_before);
	}
	char path[4400];
	json_error_t je;
	snprintf(path, sizeof(path), "%s/stabilize.json", dir);
	json_t *a = json_load_file(path, 0, &je), *row;
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	size_t i, measured = 0;
	json_array_foreach(json_object_get(a, "candidates"), i, row)
	{
		const char *name = json_string_value(json_object_get(row, "name"));
		if (!json_is_true(json_object_get(row, "available")))
			continue;
		measured++;
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(row, "restarts")), 2);
		CU_ASSERT(json_is_number(json_object_get(row, "median_cov")));
		if (strcmp(name, "default") != 0)
			CU_ASSERT(json_is_number(json_object_get(row, "variance_ratio")));
	}
	CU_ASSERT(measured >= 3); /* default, no-aslr, pool-load (two server options; thp-never needs root) */
	/* interleaved: round 1's restarts all come before round 2's */
	double last_r0 = 0, first_r1 = 1e300;
	json_array_foreach(json_object_get(a, "candidates"), i, row)
	{
		if (!json_is_true(json_object_get(row, "available")))
			continue;
		for (int r = 0; r < 2; r++) {
			struct res_file *res = NULL;
			struct errbuf err;
			snprintf(path, sizeof(path), "%s/%s/r%03d.json", dir,
				 json_string_value(json_object_get(row, "name")), r);
			CU_ASSERT_EQUAL_FATAL(res_file_read(&res, path, &err), 0);
			struct stat st;
			CU_ASSERT_EQUAL(stat(path, &st), 0);
			double t = (double)st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9;
			if (r == 0 && t > last_r0)
				last_r0 = t;
			if (r == 1 && t < first_r1)
				first_r1 = t;
			res_file_free(res);
		}
	}
	CU_ASSERT(last_r0 <= first_r1);
	json_decref(a);
	/* the profile is what run --profile takes, and the run records it */
	char prof[4400], out[4400], rlog[4400];
	snprintf(prof, sizeof(prof), "%s/profile.json", dir);
	snprintf(out, sizeof(out), "%s/profiled.json", db.tmp);
	snprintf(rlog, sizeof(rlog), "%s/profiled.log", db.tmp);
	const char *rargs[] = {"run",	     "-s",	  "0.01",     "-o",	   out,
			       "--restarts", "1",	  "--warmup", "1",	   "--runs",
			       "1",	     "--queries", "6",	      "--profile", prof,
			       "--datadir",  db.inst,	  "--port",   db.portarg,  NULL};
	CU_ASSERT_EQUAL_FATAL(th_run_logged(rlog, rargs, NULL), 0);
	struct res_file *res = NULL;
	struct errbuf err;
	CU_ASSERT_EQUAL_FATAL(res_file_read(&res, out, &err), 0);
	json_t *p = json_object_get(res->plan, "profile");
	CU_ASSERT_PTR_NOT_NULL(p);
	CU_ASSERT(json_is_array(json_object_get(p, "settings")));
	res_file_free(res);
	/* the same directory again: refused before anything runs, nothing overwritten */
	CU_ASSERT_EQUAL(th_run_logged(log, args, NULL), 2);
	/* a file that is not a profile: one line, exit 2 */
	const char *bad[] = {"run", "-s", "0.01", "-o", out, "--profile", log, NULL};
	CU_ASSERT_EQUAL(th_run_logged(rlog, bad, NULL), 2);
}

/* Seconds since the epoch, as file times are. */
static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The newest modification time of DIR/<candidate>/r*.json: when the last restart ended. */
static double last_restart_s(const char *dir)
{
	char pattern[4400];
	glob_t g;
	double newest = 0;
	snprintf(pattern, sizeof(pattern), "%s/*/r*.json", dir);
	if (glob(pattern, 0, NULL, &g) != 0)
		return 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct stat st;
		if (stat(g.gl_pathv[i], &st) == 0) {
			double t = (double)st.st_mtim.tv_sec + (double)st.st_mtim.tv_nsec / 1e9;
			newest = t > newest ? t : newest;
		}
	}
	globfree(&g);
	return newest;
}

/* Runs 'dbt3stab query 6' on the instance: 1 when it was refused because holder holds the
 * instance (exit 4, naming it); else 0. */
static int query_refused(const char *log, const char *holder)
{
	const char *query[] = {"query",	 "6",	    "-s",	"0.01", "--datadir",
			       db.inst, "--port", db.portarg, NULL};
	char want[160];
	int rc = th_wait_exit(th_spawn(log, query, NULL));
	char *text = NULL;
	struct errbuf err;
	snprintf(want, sizeof(want), "is in use by %s", holder);
	int refused = rc == 4 && util_read_file(log, &text, NULL, &err) == 0 && strstr(text, want);
	if (!refused)
		fprintf(stderr, "query during the experiment: exit %d: %s\n", rc, text ? text : "");
	free(text);
	return refused;
}

/* The instance is stabilize's from before its first restart to after its last: the lock file
 * names stabilize throughout (not its restarts' runs), and a command that tries the instance
 * meanwhile ('query', which takes the lock first, every 200 ms: between two restarts too) is
 * refused naming stabilize, exit 4. A try once the last restart is over may get in. */
TH_TEST(stabilize_db, instance_locked_for_the_whole_experiment)
{
	CU_ASSERT_FATAL(loaded);
	char dir[4300], log[4300], qlog[4300], lockf[4300], want[96], holder[512];
	snprintf(dir, sizeof(dir), "%s/stab-lock", db.tmp);
	snprintf(log, sizeof(log), "%s/stab-lock.log", db.tmp);
	snprintf(qlog, sizeof(qlog), "%s/stab-lock-query.log", db.tmp);
	snprintf(lockf, sizeof(lockf), "%s/instance.lock", db.inst);
	const char *args[] = {"stabilize", "-s",	   "0.01",	"--rounds",	  "3",
			      "--warmup",  "0",		   "--runs",	"1",		  "--queries",
			      "6",	   "--candidates", "no-aslr",	"-o",		  dir,
			      "--datadir", db.inst,	   "--port",	db.portarg,	  "--keep-disturbed",
			      NULL}; /* the tries below are the others on its PUs */
	pid_t pid = th_spawn(log, args, NULL);
	CU_ASSERT_FATAL(pid > 0);
	snprintf(want, sizeof(want), "pid %d (dbt3stab stabilize)", (int)pid);
	int st = 0, named = 0, tries = 0, refused = 0, other_holder = 0;
	double got_in = 0; /* when a try that was not refused began */
	while (waitpid(pid, &st, WNOHANG) != pid) {
		if (th_read_line(lockf, holder, sizeof(holder)) < 0)
			holder[0] = '\0';
		if (strcmp(holder, want) != 0) { /* not taken yet; or a restart's run took it */
			other_holder |= named && !got_in;
			th_sleep_ms(20);
			continue;
		}
		named = 1;
		if (got_in) { /* it got in: wait for the end, then see when that was */
			th_sleep_ms(100);
			continue;
		}
		double t = now_s();
		tries++;
		if (query_refused(qlog, want))
			refused++;
		else
			got_in = t;
		th_sleep_ms(200);
	}
	int rc = th_exit_code(st);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc != 0)
		th_show_log(log);
	CU_ASSERT_TRUE(named);
	CU_ASSERT_FALSE(other_holder); /* once stabilize's, the lock stays so */
	CU_ASSERT(tries >= 3);
	if (got_in) { /* only after the last restart */
		CU_ASSERT(got_in > last_restart_s(dir));
	} else {
		CU_ASSERT_EQUAL(refused, tries);
	}
	/* the lock file is left naming its last holder: stabilize, not one of its runs */
	if (!got_in) {
		CU_ASSERT_EQUAL(th_read_line(lockf, holder, sizeof(holder)), 0);
		CU_ASSERT_STRING_EQUAL(holder, want);
	}
}

int main(int argc, char **argv)
{
	return th_db_main_loaded(&db, &loaded, "stab", "stabilize_db", th_cases(), argc, argv);
}
