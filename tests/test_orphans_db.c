/* SPDX-License-Identifier: MIT */
/* No stray servers (docs/server.md): a side-by-side run killed with SIGKILL takes its clones'
 * servers with it; servers left on the clones by a process that ended without stopping them are
 * listed by `server status` on the instance, stopped by `server stop` on it and by the next run
 * before it makes the clones again; at the end no server of the test's directory runs. */
#include "harness.h"
#include "server/srv_clone.h"
#include "tests/th_db.h"
#include "tests/th_spawn.h"
#include <dirent.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct th_db db; /* one loaded instance (made in main) */
static int loaded;

/* The pids of live processes run with --defaults-file= under prefix (not zombies: a zombie's
 * cmdline is empty) into pids (max): their count. */
static int servers_under(const char *prefix, long *pids, int max)
{
	char want[4300];
	int n = 0;
	snprintf(want, sizeof(want), "--defaults-file=%s/", prefix);
	DIR *d = opendir("/proc");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char *end, path[300], buf[8192];
		long pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
		FILE *f = fopen(path, "r");
		size_t r = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
		if (f)
			fclose(f);
		buf[r] = '\0';
		for (size_t i = 0; i < r; i += strlen(buf + i) + 1)
			if (strncmp(buf + i, want, strlen(want)) == 0) {
				if (n < max)
					pids[n] = pid;
				n++;
				break;
			}
	}
	if (d)
		closedir(d);
	return n;
}

/* Whether pid is a live process run with --defaults-file=DIR/sbs/K/my.cnf. */
static int clone_server_alive(long pid, int k)
{
	char dir[4300];
	long pids[16];
	snprintf(dir, sizeof(dir), "%s/sbs/%d", db.inst, k);
	int n = servers_under(dir, pids, 16);
	for (int i = 0; i < n && i < 16; i++)
		if (pids[i] == pid)
			return 1;
	return 0;
}

/* Waits up to seconds for no server under the test's directory: 1 when none is left. */
static int none_left_within(int seconds)
{
	long pids[16];
	for (int i = 0; i < seconds * 10; i++) {
		if (servers_under(db.tmp, pids, 16) == 0)
			return 1;
		th_sleep_ms(100);
	}
	return 0;
}

/* Kills whatever server of the test's directory still runs (a failed assertion leaves some). */
static void kill_leftovers(void)
{
	long pids[16];
	int n = servers_under(db.tmp, pids, 16);
	for (int i = 0; i < n && i < 16; i++)
		kill((pid_t)pids[i], SIGKILL);
	none_left_within(10);
}

/* Starts a side-by-side A/A run (one restart of Q1, one execution), waits until both clones'
 * servers run (pids into pid[2], other than not[2]), then SIGKILLs the run. 0, or -1 when the
 * run ended or the servers did not come up in time (its log shown). */
static int run_until_both_up(const char *tag, long pid[2], const long not [2])
{
	char out[4300], log[4300];
	snprintf(out, sizeof(out), "%s/%s", db.tmp, tag);
	snprintf(log, sizeof(log), "%s/%s.log", db.tmp, tag);
	const char *args[] = {"run",	    "-s",	 "0.01",      "-o", out,
			      "--variant",  "a:",	 "--variant", "b:", "--side-by-side",
			      "--restarts", "1",	 "--warmup",  "0",  "--runs",
			      "1",	    "--queries", "1",	      NULL};
	pid_t child = th_db_spawn(&db, log, args, 0);
	if (child <= 0)
		return -1;
	int up = 0, st = 0;
	for (int i = 0; i < 6000 && !up; i++) { /* 600 s: the run's probes come first */
		if (waitpid(child, &st, WNOHANG) == child) {
			th_show_log(log);
			return -1;
		}
		up = 1;
		for (int k = 0; k < 2; k++) {
			char dir[4300];
			snprintf(dir, sizeof(dir), "%s/sbs/%d", db.inst, k);
			pid[k] = th_server_pid(dir);
			up &= pid[k] > 0 && pid[k] != not [k] && clone_server_alive(pid[k], k);
		}
		if (!up)
			th_sleep_ms(100);
	}
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	if (!up)
		th_show_log(log);
	return up ? 0 : -1;
}

/* DIR/sbs/0 and DIR/sbs/1 as a run makes them (a case run alone has none yet). */
static void need_clones(void)
{
	for (int k = 0; k < 2; k++) {
		char dst[4300];
		struct errbuf err;
		snprintf(dst, sizeof(dst), "%s/sbs/%d/data", db.inst, k);
		if (access(dst, F_OK) == 0)
			continue;
		snprintf(dst, sizeof(dst), "%s/sbs/%d", db.inst, k);
		if (srv_instance_clone(db.inst, dst, NULL, &err) < 0)
			fprintf(stderr, "%s\n", err.msg);
		CU_ASSERT_EQUAL_FATAL(access(dst, F_OK), 0);
	}
}

/* Starts a server on each clone with `server start`, which exits and leaves it running: the
 * servers nothing stops by itself. Their pids into pid[2]. */
static void start_left_servers(long pid[2])
{
	char text[4096];
	for (int k = 0; k < 2; k++) {
		char dir[4300];
		snprintf(dir, sizeof(dir), "%s/sbs/%d", db.inst, k);
		int rc =
		    th_sh(text, sizeof(text), "'%s' server start --datadir '%s'", DBT3_BINARY, dir);
		if (rc)
			fprintf(stderr, "%s\n", text);
		CU_ASSERT_EQUAL_FATAL(rc, 0);
		pid[k] = th_server_pid(dir);
		CU_ASSERT_FATAL(clone_server_alive(pid[k], k));
	}
}

/* SIGKILL of the run while both clone servers run: they get SIGTERM from the kernel (the
 * parent-death signal) and are gone without anyone stopping them. */
TH_TEST(orphans_db, killed_run_takes_its_servers_along)
{
	CU_ASSERT_FATAL(loaded);
	long pid[2], none[2] = {0, 0};
	CU_ASSERT_EQUAL_FATAL(run_until_both_up("killed", pid, none), 0);
	int gone = none_left_within(60);
	CU_ASSERT(gone);
	if (!gone)
		kill_leftovers();
}

/* Servers left on the clones: `server status --datadir DIR` lists them (text and --json's
 * "clones"), `server stop --datadir DIR` stops them. */
TH_TEST(orphans_db, status_and_stop_cover_clone_servers)
{
	CU_ASSERT_FATAL(loaded);
	need_clones();
	long pid[2];
	char text[8192], want[200];
	start_left_servers(pid);
	int rc =
	    th_sh(text, sizeof(text), "'%s' server status --datadir '%s'", DBT3_BINARY, db.inst);
	CU_ASSERT_EQUAL(rc, 1); /* the instance's own server does not run */
	for (int k = 0; k < 2; k++) {
		snprintf(want, sizeof(want), "clone running: pid %ld, datadir '", pid[k]);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
	}
	rc = th_sh(text, sizeof(text), "'%s' server status --json --datadir '%s' 2>/dev/null",
		   DBT3_BINARY, db.inst);
	CU_ASSERT_EQUAL(rc, 1);
	json_error_t jerr;
	json_t *j = json_loads(text, 0, &jerr);
	json_t *clones = json_object_get(j, "clones");
	CU_ASSERT(json_is_false(json_object_get(j, "running")));
	CU_ASSERT_EQUAL(json_array_size(clones), 2);
	for (size_t k = 0; k < json_array_size(clones) && k < 2; k++) {
		json_t *c = json_array_get(clones, k);
		CU_ASSERT(json_is_true(json_object_get(c, "running")));
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(c, "pid")), pid[k]);
	}
	json_decref(j);
	rc = th_sh(text, sizeof(text), "'%s' server stop --datadir '%s'", DBT3_BINARY, db.inst);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "clone server stopped"));
	for (int k = 0; k < 2; k++)
		CU_ASSERT(!clone_server_alive(pid[k], k));
	kill_leftovers();
}

/* A new run stops the servers left on the clones before it makes the clones again (never a
 * clone tree removed under a live server), says so, and runs its own. */
TH_TEST(orphans_db, new_run_stops_left_clone_servers_first)
{
	CU_ASSERT_FATAL(loaded);
	need_clones();
	long old[2], pid[2];
	char text[8192], log[4300];
	start_left_servers(old);
	CU_ASSERT_EQUAL_FATAL(run_until_both_up("again", pid, old), 0);
	for (int k = 0; k < 2; k++)
		CU_ASSERT(!clone_server_alive(old[k], k));
	snprintf(log, sizeof(log), "%s/again.log", db.tmp);
	CU_ASSERT_EQUAL(th_sh(text, sizeof(text), "cat '%s'", log), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "stopped the server left running on clone"));
	/* The killed run's own go with it (killed_run_takes_its_servers_along proves the signal);
	 * one still up after 60 s must at least be listed and stopped by the instance's commands. */
	if (!none_left_within(60)) {
		long left[16];
		int n = servers_under(db.tmp, left, 16);
		fprintf(stderr, "note: %d server(s) outlived the killed run by 60 s\n", n);
		CU_ASSERT_EQUAL(th_sh(text, sizeof(text), "'%s' server status --json --datadir '%s'",
				      DBT3_BINARY, db.inst),
				1);
		for (int i = 0; i < n && i < 16; i++) {
			char want[64];
			snprintf(want, sizeof(want), "\"pid\": %ld", left[i]);
			CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
		}
		CU_ASSERT_EQUAL(th_sh(text, sizeof(text), "'%s' server stop --datadir '%s'",
				      DBT3_BINARY, db.inst),
				0);
		CU_ASSERT(none_left_within(10));
	}
	kill_leftovers();
}

/* Whatever the cases did: no server whose option file is under the test's directory runs. */
TH_TEST(orphans_db, no_server_left)
{
	long pids[16];
	int n = servers_under(db.tmp, pids, 16);
	CU_ASSERT_EQUAL(n, 0);
	if (n)
		kill_leftovers();
}

int main(int argc, char **argv)
{
	return th_db_main_loaded(&db, &loaded, "orphans", "orphans_db", th_cases(), argc, argv);
}
