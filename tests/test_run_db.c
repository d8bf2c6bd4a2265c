/* SPDX-License-Identifier: MIT */
/* The run protocol against a real private MariaDB at SF 0.01: schema-valid results, a server
 * killed mid-run, a query timeout, resume after an interrupt, interleaved variants (balanced
 * order), one pinned run whose recorded placement is checked against /proc, a --budget run that
 * ends within its budget + 5%, and a row count changed during a run. */
#include "harness.h"
#include "reports/rpt.h"
#include "result/res.h"
#include "runner/run.h"
#include "tests/th_db.h"
#include "tests/th_pin.h"
#include "tests/th_schema.h"
#include "tests/th_spawn.h"
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static struct th_db db; /* one loaded instance shared by the cases (made in main) */
static int loaded;

/* th_db_spawn with --no-pin: placement is checked by one case alone
 * (pinned_run_records_the_placement_it_had), the others run on any machine. */
static pid_t spawn(const char *log, const char *const *args)
{
	return th_db_spawn(&db, log, args, 0);
}

/* Runs dbt3stab to the end; the exit code. */
static int run_cli(const char *tag, const char *const *args)
{
	return th_db_run(&db, tag, args);
}

static char *tmp_path(const char *name)
{
	char *p = NULL;
	if (asprintf(&p, "%s/%s", db.tmp, name) < 0)
		return NULL;
	return p;
}

static int file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* Nonzero when the file holds text. */
static int log_contains(const char *path, const char *text)
{
	char *all = NULL;
	struct errbuf err;
	int found = util_read_file(path, &all, NULL, &err) == 0 && strstr(all, text) != NULL;
	free(all);
	return found;
}

/* The server of the instance is not running (no stray process). */
static void assert_server_stopped(void)
{
	long pid = th_server_pid(db.inst); /* 0: no pid file, stopped */
	CU_ASSERT(pid <= 0 || kill((pid_t)pid, 0) != 0);
}

static const struct res_restart *restart_of(const struct res_query *q, int index)
{
	for (size_t i = 0; i < q->n_restarts; i++)
		if (q->restarts[i].index == index)
			return &q->restarts[i];
	return NULL;
}

/* The pool was sized from the loaded tablespaces (docs/server.md): the server reports the pool
 * recorded, and it holds the data with the rule's room (x 1.25 + 128 MiB). */
static void assert_pool_holds_data(const struct res_file *res)
{
	json_t *bp = json_object_get(res->server, "buffer_pool");
	json_t *vars = json_object_get(res->server, "variables");
	CU_ASSERT_PTR_NOT_NULL_FATAL(bp);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(bp, "data_source")),
			       "tablespace_files");
	json_int_t data = json_integer_value(json_object_get(bp, "data_bytes"));
	json_int_t pool = json_integer_value(json_object_get(bp, "pool_bytes"));
	CU_ASSERT(data > (1 << 20)); /* SF 0.01: some MiB of .ibd */
	CU_ASSERT(pool >= data + data / 4 + (128 << 20));
	CU_ASSERT(json_is_true(json_object_get(bp, "fits")));
	CU_ASSERT_EQUAL(res_file_pool_fits(res), 1);
	const char *var = json_string_value(json_object_get(vars, "innodb_buffer_pool_size"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(var);
	CU_ASSERT_EQUAL(strtoll(var, NULL, 10), pool);
}

TH_TEST(run_db, result_is_complete_and_schema_valid)
{
	CU_ASSERT_FATAL(loaded);
	char *out = tmp_path("plain.json");
	const char *args[] = {"run",	"-s",	    "0.01",  "-o",	out, "--restarts",
			      "2",	"--warmup", "1",     "--runs",	"2", "--queries",
			      "1,6,15", "--label",  "ctest", "--quiet", NULL};
	CU_ASSERT_EQUAL_FATAL(run_cli("plain", args), 0);
	th_result_assert_valid(out);
	assert_server_stopped();
	struct res_file *res = th_result_read(out);
	CU_ASSERT_PTR_NOT_NULL(res->finished_at);
	CU_ASSERT_STRING_EQUAL(res->label, "ctest");
	CU_ASSERT_DOUBLE_EQUAL(res_file_scale_factor(res), 0.01, 1e-12);
	CU_ASSERT_PTR_NOT_NULL(res_file_dataset_fingerprint(res));
	assert_pool_holds_data(res);
	CU_ASSERT_EQUAL_FATAL(res->n_queries, 3);
	static const struct {
		const char *id;
		long long rows; /* SF 0.01 answers */
	} want[] = {{"Q1", 4}, {"Q6", 1}, {"Q15", 1}};
	for (int i = 0; i < 3; i++) {
		const struct res_query *q = &res->queries[i];
		CU_ASSERT_STRING_EQUAL(q->id, want[i].id);
		CU_ASSERT_EQUAL_FATAL(q->n_restarts, 2);
		for (int r = 0; r < 2; r++) {
			const struct res_restart *x = restart_of(q, r);
			CU_ASSERT_PTR_NOT_NULL_FATAL(x);
			CU_ASSERT_EQUAL(x->status, RES_STATUS_OK);
			CU_ASSERT_EQUAL(x->n_warmup, 1);
			CU_ASSERT_EQUAL(x->n_measured, 2);
			CU_ASSERT_EQUAL(x->n_server_cpu, 2);
			for (size_t k = 0; k < x->n_measured; k++) {
				CU_ASSERT(x->measured_ms[k] > 0);
				/* The server worked on it, and not longer than the wall time
				 * by more than rounding. */
				CU_ASSERT(x->server_cpu_ms[k] > 0);
				CU_ASSERT(x->server_cpu_ms[k] < x->measured_ms[k] * 2 + 1);
			}
			CU_ASSERT_EQUAL(x->rows, want[i].rows);
			CU_ASSERT_PTR_NOT_NULL(x->result_sha256);
			CU_ASSERT_PTR_NOT_NULL(x->plan_sha256);
			CU_ASSERT_PTR_NOT_NULL(x->plan);
			CU_ASSERT_PTR_NULL(x->error);
		}
		/* Same data, same answer and (stable statistics) the same plan shape. */
		CU_ASSERT_STRING_EQUAL(q->restarts[0].result_sha256, q->restarts[1].result_sha256);
		CU_ASSERT_STRING_EQUAL(q->restarts[0].plan_sha256, q->restarts[1].plan_sha256);
	}
	res_file_free(res);
	free(out);
}

/* Waits until path exists (a first checkpoint); 0 when it did within ms. */
static int wait_for_file(const char *path, pid_t child, int ms)
{
	for (int waited = 0; waited < ms; waited += 20) {
		if (file_exists(path))
			return 0;
		if (waitpid(child, NULL, WNOHANG) == child)
			return -1;
		th_sleep_ms(20);
	}
	return -1;
}

TH_TEST(run_db, killed_server_is_recorded_and_the_run_goes_on)
{
	CU_ASSERT_FATAL(loaded);
	char *out = tmp_path("crash.json"), log[4300];
	snprintf(log, sizeof(log), "%s/crash.log", db.tmp);
	/* Q6 first (short): its checkpoint says Q1 (30 executions) has begun. */
	const char *args[] = {"run",	    "-s",	 "0.01",     "-o",	out,
			      "--restarts", "2",	 "--warmup", "0",	"--runs",
			      "30",	    "--queries", "6,1,14",   "--quiet", NULL};
	pid_t child = spawn(log, args);
	CU_ASSERT_EQUAL_FATAL(wait_for_file(out, child, 120000), 0);
	long pid = th_server_pid(db.inst);
	CU_ASSERT_FATAL(pid > 0);
	th_sleep_ms(100);
	CU_ASSERT_EQUAL(kill((pid_t)pid, SIGKILL), 0);
	int rc = th_wait_exit(child);
	if (rc != 0)
		th_show_log(log);
	CU_ASSERT_EQUAL(rc, 0);
	th_result_assert_valid(out);
	assert_server_stopped();
	struct res_file *res = th_result_read(out);
	int crashes = 0, ok = 0;
	for (size_t i = 0; i < res->n_queries; i++) {
		const struct res_query *q = &res->queries[i];
		CU_ASSERT_EQUAL(q->n_restarts, 2); /* every query measured in both restarts */
		for (size_t k = 0; k < q->n_restarts; k++) {
			const struct res_restart *x = &q->restarts[k];
			if (x->status == RES_STATUS_CRASH) {
				crashes++;
				CU_ASSERT_STRING_EQUAL(q->id, "Q1");
				CU_ASSERT_EQUAL(x->index, 0);
				CU_ASSERT(x->error && strstr(x->error, "signal 9"));
				/* The tail of the server's error log is kept. */
				CU_ASSERT(x->error && strchr(x->error, '\n'));
			} else {
				CU_ASSERT_EQUAL(x->status, RES_STATUS_OK);
				CU_ASSERT_EQUAL(x->n_measured, 30);
				ok++;
			}
		}
	}
	CU_ASSERT_EQUAL(crashes, 1);
	CU_ASSERT_EQUAL(ok, 5);
	res_file_free(res);
	free(out);
}

TH_TEST(run_db, query_timeout_is_recorded_and_the_run_goes_on)
{
	CU_ASSERT_FATAL(loaded);
	char *out = tmp_path("timeout.json");
	/* 1 ms: Q1 aggregates 60 000 lineitem rows, never that fast. */
	const char *args[] = {
	    "run",	"-s",	   "0.01",   "-o", out,		"--restarts", "2",
	    "--warmup", "1",	   "--runs", "2",  "--queries", "1,6",	      "--query-timeout",
	    "0.001",	"--quiet", NULL};
	CU_ASSERT_EQUAL_FATAL(run_cli("timeout", args), 0);
	struct res_file *res = th_result_read_valid(out);
	CU_ASSERT_PTR_NOT_NULL(res->finished_at);
	const struct res_query *q1 = res_file_find_query(res, "Q1");
	const struct res_query *q6 = res_file_find_query(res, "Q6");
	CU_ASSERT_PTR_NOT_NULL_FATAL(q1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(q6);
	CU_ASSERT_EQUAL_FATAL(q1->n_restarts, 2);
	for (size_t k = 0; k < 2; k++) {
		CU_ASSERT_EQUAL(q1->restarts[k].status, RES_STATUS_TIMEOUT);
		CU_ASSERT_PTR_NOT_NULL(q1->restarts[k].error);
	}
	/* The run went on: Q6 was attempted in both restarts after Q1's kill. */
	CU_ASSERT_EQUAL(q6->n_restarts, 2);
	res_file_free(res);
	free(out);
}

static int start_seq(const struct res_restart *x)
{
	json_t *v = x->extra ? json_object_get(x->extra, "server_start") : NULL;
	return json_is_integer(v) ? (int)json_integer_value(v) : -1;
}

/* Refusals before any measurement: an unwritable output (exit 2, no server started) and a
 * server that cannot start (exit 4, no file claimed, no table). */
/* The CPUs (or nodes) of a kernel list such as "0-2,5" as a bit set; 0 when malformed or a
 * number is >= 64 (enough for the machines this runs on; then the case fails, not passes). */
static uint64_t id_list_mask(const char *list)
{
	uint64_t m = 0;
	const char *p = list;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p)
			return 0;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p)
				return 0;
		}
		if (a < 0 || b < a || b >= 64)
			return 0;
		for (long i = a; i <= b; i++)
			m |= UINT64_C(1) << i;
		p = *end == ',' ? end + 1 : end;
		if (*end != ',' && *end != '\0' && *end != '\n')
			return 0;
		if (*end == '\n')
			break;
	}
	return m;
}

/* The value of "key:\t..." in /proc/<pid>/task/<tid>/status as a bit set; 0 when unreadable. */
static uint64_t task_status_mask(pid_t pid, const char *tid, const char *key)
{
	char path[384], line[512];
	snprintf(path, sizeof(path), "/proc/%d/task/%s/status", (int)pid, tid);
	FILE *f = fopen(path, "r");
	uint64_t m = 0;
	size_t klen = strlen(key);
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
			m = id_list_mask(line + klen + 1 + strspn(line + klen + 1, " \t"));
			break;
		}
	if (f)
		fclose(f);
	return m;
}

/* What /proc showed for one process over all samples: every thread's Cpus_allowed_list. */
struct seen_affinity {
	uint64_t all_of, any_of; /* intersection and union over threads and samples */
	int threads_max;
};

/* Which threads sample_threads reads: all, the main one (tid == pid), or the others. */
enum which_threads { ALL_THREADS, MAIN_THREAD, OTHER_THREADS };

static void sample_threads_of(pid_t pid, struct seen_affinity *s, enum which_threads which)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	struct dirent *de;
	int n = 0;
	while (d && (de = readdir(d)) != NULL) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		int main_thread = strtol(de->d_name, NULL, 10) == (long)pid;
		if ((which == MAIN_THREAD && !main_thread) || (which == OTHER_THREADS && main_thread))
			continue;
		uint64_t m = task_status_mask(pid, de->d_name, "Cpus_allowed_list");
		if (!m)
			continue; /* the thread ended meanwhile */
		s->all_of &= m;
		s->any_of |= m;
		n++;
	}
	if (d)
		closedir(d);
	if (n > s->threads_max)
		s->threads_max = n;
}

static void sample_threads(pid_t pid, struct seen_affinity *s)
{
	sample_threads_of(pid, s, ALL_THREADS);
}

/* The pid of the instance's server when it is running as a child of run_pid, else 0. */
static pid_t server_child_of(pid_t run_pid)
{
	char path[4300], line[256];
	pid_t pid = (pid_t)th_server_pid(db.inst);
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = pid > 0 ? fopen(path, "r") : NULL;
	pid_t ppid = 0;
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "PPid:", 5) == 0)
			ppid = (pid_t)strtol(line + 5, NULL, 10);
	if (f)
		fclose(f);
	return ppid == run_pid ? pid : 0;
}

/* The server's memory policy as the kernel shows it: " bind:0 " in numa_maps when bound. */
static int server_numa_bind(pid_t pid, char *out, size_t len)
{
	char path[64], line[4096];
	snprintf(path, sizeof(path), "/proc/%d/numa_maps", (int)pid);
	FILE *f = fopen(path, "r");
	int found = 0;
	out[0] = '\0';
	while (f && !found && fgets(line, sizeof(line), f)) {
		char *b = strstr(line, " bind:");
		if (b) {
			snprintf(out, len, "%.*s", (int)strcspn(b + 6, " \n"), b + 6);
			found = 1;
		}
	}
	if (f)
		fclose(f);
	return found;
}

/* `run` with pinning on (no --no-pin): while it runs, every thread of the server and of the
 * client process is read from /proc; the placement the result records must be what they had:
 * the server's threads on its PUs, the client's thread on the client's, and the thread of the
 * memory probe (made before the first start, probing between queries) on the server's. */
TH_TEST(run_db, pinned_run_records_the_placement_it_had)
{
	CU_ASSERT_FATAL(loaded);
	char *out = tmp_path("pinned.json"), log[4300];
	snprintf(log, sizeof(log), "%s/pinned.log", db.tmp);
	const char *args[] = {"run",	    "-s",	 "0.01",     "-o",	out,
			      "--restarts", "1",	 "--warmup", "1",	"--runs",
			      "30",	    "--queries", "1,6",	     "--quiet", NULL};
	pid_t child = th_db_spawn(&db, log, args, 1);
	CU_ASSERT_FATAL(child > 0);
	struct seen_affinity srv = {UINT64_MAX, 0, 0}, cli = {UINT64_MAX, 0, 0},
			     probe = {UINT64_MAX, 0, 0};
	int samples = 0, st = 0, have_bind = 0;
	char bind[64] = "";
	pid_t w;
	while ((w = waitpid(child, &st, WNOHANG)) == 0) {
		pid_t server = server_child_of(child); /* up: the client is bound by now */
		if (server > 0) {
			sample_threads(server, &srv);
			sample_threads_of(child, &cli, MAIN_THREAD);
			sample_threads_of(child, &probe, OTHER_THREADS);
			if (!have_bind)
				have_bind = server_numa_bind(server, bind, sizeof(bind));
			samples++;
		}
		th_sleep_ms(20);
	}
	CU_ASSERT_EQUAL_FATAL(w, child);
	int rc = th_exit_code(st);
	if (rc != 0)
		th_show_log(log);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	json_error_t jerr;
	json_t *res = json_load_file(out, 0, &jerr);
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	const json_t *pl = json_object_get(json_object_get(res, "pinning"), "placement");
	if (!json_is_true(json_object_get(pl, "pinned"))) {
		th_skip(json_string_value(json_object_get(pl, "warning")));
		json_decref(res);
		free(out);
		return;
	}
	uint64_t want_srv = th_pin_ids_mask(json_object_get(pl, "server_cpus")),
		 want_cli = th_pin_ids_mask(json_object_get(pl, "client_cpus")),
		 want_nodes = th_pin_ids_mask(json_object_get(pl, "membind_nodes"));
	/* what the result claims is a real placement on this machine */
	cpu_set_t mine;
	uint64_t allowed = 0;
	CU_ASSERT_EQUAL_FATAL(sched_getaffinity(0, sizeof(mine), &mine), 0);
	for (int c = 0; c < 64; c++)
		if (CPU_ISSET(c, &mine))
			allowed |= UINT64_C(1) << c;
	CU_ASSERT(want_srv != 0 && want_cli != 0);
	CU_ASSERT_EQUAL(want_srv & want_cli, 0);
	CU_ASSERT_EQUAL(want_srv & ~allowed, 0);
	CU_ASSERT_EQUAL(want_cli & ~allowed, 0);
	/* and it is what /proc showed, for every thread in every sample */
	fprintf(stderr,
		"\n%d samples; server %d threads cpus %#" PRIx64 " (recorded %#" PRIx64
		"), client %d threads cpus %#" PRIx64 " (recorded %#" PRIx64
		"), server memory bind:%s (recorded nodes %#" PRIx64 ")\n",
		samples, srv.threads_max, srv.any_of, want_srv, cli.threads_max, cli.any_of,
		want_cli, bind, want_nodes);
	CU_ASSERT(samples > 0);
	CU_ASSERT(srv.threads_max > 1);
	CU_ASSERT_EQUAL(srv.all_of, want_srv);
	CU_ASSERT_EQUAL(srv.any_of, want_srv);
	CU_ASSERT_EQUAL(cli.all_of, want_cli);
	CU_ASSERT_EQUAL(cli.any_of, want_cli);
	fprintf(stderr, "other threads of the client: at most %d, cpus %#" PRIx64 "\n",
		probe.threads_max, probe.any_of);
	CU_ASSERT_EQUAL(probe.threads_max, 1); /* the probe's, all the time */
	CU_ASSERT_EQUAL(probe.any_of & ~want_srv, 0); /* none seen: 0 */
	CU_ASSERT_TRUE(have_bind);
	CU_ASSERT_EQUAL(id_list_mask(bind), want_nodes);
	json_decref(res);
	free(out);
}

TH_TEST(run_db, refusals_claim_nothing)
{
	CU_ASSERT_FATAL(loaded);
	char log[4300], bad[4300];
	snprintf(bad, sizeof(bad), "%s/no-such-dir/x.json", db.tmp);
	const char *unwritable[] = {"run", "-s", "0.01", "-o", bad, "--queries", "6", NULL};
	snprintf(log, sizeof(log), "%s/refuse1.log", db.tmp);
	uint64_t t0 = util_now_ns();
	CU_ASSERT_EQUAL(th_wait_exit(spawn(log, unwritable)), 2);
	CU_ASSERT(util_now_ns() - t0 < 5000000000u); /* refused before starting the server */
	CU_ASSERT_TRUE(log_contains(log, "cannot write the result file"));
	assert_server_stopped();

	/* a port taken by someone else */
	int busy = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t alen = sizeof(a);
	CU_ASSERT_FATAL(busy >= 0 && bind(busy, (struct sockaddr *)&a, sizeof(a)) == 0 &&
			listen(busy, 1) == 0 &&
			getsockname(busy, (struct sockaddr *)&a, &alen) == 0);
	char busyport[16];
	snprintf(busyport, sizeof(busyport), "%d", (int)ntohs(a.sin_port));
	char *out = tmp_path("busy.json");
	/* spawn() appends the instance's --port: the busy one goes in as a server option, which
	 * the server reads last */
	char portopt[64];
	snprintf(portopt, sizeof(portopt), "port=%s", busyport);
	const char *args[] = {"run",	   "-s", "0.01",       "-o", out,
			      "--queries", "6",	 "--restarts", "1",  "--server-option",
			      portopt,	   NULL};
	snprintf(log, sizeof(log), "%s/refuse2.log", db.tmp);
	CU_ASSERT_EQUAL(th_wait_exit(spawn(log, args)), 4);
	close(busy);
	CU_ASSERT_FALSE(file_exists(out));
	CU_ASSERT_FALSE(log_contains(log, "wrote '"));
	CU_ASSERT_FALSE(log_contains(log, "mean"));
	CU_ASSERT_TRUE(log_contains(log, "Address already in use"));
	assert_server_stopped();
	free(out);
}

TH_TEST(run_db, resume_completes_an_interrupted_run)
{
	CU_ASSERT_FATAL(loaded);
	char *out = tmp_path("resume.json"), log[4300];
	snprintf(log, sizeof(log), "%s/resume1.log", db.tmp);
	const char *args[] = {"run",	    "-s",	 "0.01",     "-o",	out,
			      "--restarts", "3",	 "--warmup", "1",	"--runs",
			      "3",	    "--queries", "6,14",     "--quiet", NULL};
	pid_t child = spawn(log, args);
	CU_ASSERT_EQUAL_FATAL(wait_for_file(out, child, 120000), 0);
	CU_ASSERT_EQUAL(kill(child, SIGINT), 0);
	int rc = th_wait_exit(child);
	CU_ASSERT_EQUAL(rc, 130);
	assert_server_stopped();
	/* the note gives the command that continues the run: with the instance options it had */
	char note[9000];
	snprintf(note, sizeof(note),
		 "interrupted; finished restarts kept in '%s'; continue with:\n    dbt3stab run "
		 "--resume %s --datadir %s --port %s --no-pin\n",
		 out, out, db.inst, db.portarg);
	CU_ASSERT_TRUE(log_contains(log, note));
	struct res_file *res = th_result_read(out);
	CU_ASSERT_PTR_NULL(res->finished_at); /* a checkpoint */
	size_t before = 0;
	for (size_t i = 0; i < res->n_queries; i++)
		before += res->queries[i].n_restarts;
	CU_ASSERT(before >= 1 && before < 6);
	res_file_free(res);

	/* the same command again, without --resume: refused, the checkpoint left as it is */
	char *kept = NULL, *after = NULL;
	struct errbuf rerr;
	CU_ASSERT_EQUAL(util_read_file(out, &kept, NULL, &rerr), 0);
	snprintf(log, sizeof(log), "%s/resume-again.log", db.tmp);
	CU_ASSERT_EQUAL(th_wait_exit(spawn(log, args)), 2);
	CU_ASSERT_TRUE(log_contains(log, "exists: complete an interrupted run with --resume"));
	CU_ASSERT_EQUAL(util_read_file(out, &after, NULL, &rerr), 0);
	CU_ASSERT_TRUE(kept && after && strcmp(kept, after) == 0);
	free(kept);
	free(after);

	/* that command, as printed (the shell reads it), completes the run */
	char cmd[9400];
	snprintf(cmd, sizeof(cmd), "'%s'%s --quiet >'%s/resume2.log' 2>&1", DBT3_BINARY,
		 strstr(note, "    dbt3stab ") + strlen("    dbt3stab"), db.tmp);
	cmd[strcspn(cmd, "\n")] = ' ';
	int src = system(cmd);
	snprintf(log, sizeof(log), "%s/resume2.log", db.tmp);
	if (src != 0)
		th_show_log(log);
	CU_ASSERT_EQUAL_FATAL(src, 0);
	res = th_result_read_valid(out);
	CU_ASSERT_PTR_NOT_NULL(res->finished_at);
	CU_ASSERT_EQUAL_FATAL(res->n_queries, 2);
	for (size_t i = 0; i < res->n_queries; i++) {
		int starts[3] = {-1, -1, -1};
		const struct res_query *q = &res->queries[i];
		CU_ASSERT_EQUAL(q->n_restarts, 3);
		for (int r = 0; r < 3; r++) {
			const struct res_restart *x = restart_of(q, r);
			CU_ASSERT_PTR_NOT_NULL_FATAL(x);
			CU_ASSERT_EQUAL(x->status, RES_STATUS_OK);
			CU_ASSERT_EQUAL(x->n_measured, 3);
			starts[r] = start_seq(x);
		}
		/* a new server start per restart, numbered on over the resume */
		CU_ASSERT(starts[0] >= 0 && starts[0] < starts[1] && starts[1] < starts[2]);
	}
	res_file_free(res);

	/* complete: a further --resume leaves the file as it is; plan options are refused */
	char *before_text = NULL, *after_text = NULL;
	struct errbuf err;
	CU_ASSERT_EQUAL(util_read_file(out, &before_text, NULL, &err), 0);
	const char *again[] = {"run", "--resume", out, NULL};
	CU_ASSERT_EQUAL(run_cli("resume3", again), 0);
	snprintf(log, sizeof(log), "%s/resume3.log", db.tmp);
	CU_ASSERT_TRUE(log_contains(log, "is complete (finished at"));
	CU_ASSERT_EQUAL(util_read_file(out, &after_text, NULL, &err), 0);
	CU_ASSERT_TRUE(before_text && after_text && strcmp(before_text, after_text) == 0);
	free(before_text);
	free(after_text);
	const char *more[] = {"run", "--resume", out, "--restarts", "5", NULL};
	snprintf(log, sizeof(log), "%s/resume4.log", db.tmp);
	CU_ASSERT_EQUAL(th_wait_exit(spawn(log, more)), 2);
	CU_ASSERT_TRUE(log_contains(log, "drop --restarts"));
	free(out);
}

TH_TEST(run_db, variants_interleave)
{
	CU_ASSERT_FATAL(loaded);
	char *dir = tmp_path("variants");
	const char *args[] = {"run",
			      "-s",
			      "0.01",
			      "-o",
			      dir,
			      "--restarts",
			      "2",
			      "--warmup",
			      "0",
			      "--runs",
			      "2",
			      "--queries",
			      "6",
			      "--restart-paired",
			      "--variant",
			      "old:mysqld=/usr/sbin/mariadbd",
			      "--variant",
			      "new:mysqld=/usr/sbin/mariadbd,join_cache_level=4,"
			      "sql_mode=\"STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION\"",
			      "--quiet",
			      NULL};
	CU_ASSERT_EQUAL_FATAL(run_cli("variants", args), 0);
	char path[2][4400];
	struct res_file *res[2];
	const char *names[2] = {"old", "new"};
	for (int v = 0; v < 2; v++) {
		snprintf(path[v], sizeof(path[v]), "%s/%s.json", dir, names[v]);
		res[v] = th_result_read_valid(path[v]);
		CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(res[v]->plan, "variant")),
				       names[v]);
	}
	/* A B, B A (balanced): the server starts 0 and 3 were old, 1 and 2 new. */
	const struct res_query *qa = res_file_find_query(res[0], "Q6");
	const struct res_query *qb = res_file_find_query(res[1], "Q6");
	CU_ASSERT_EQUAL_FATAL(qa->n_restarts, 2);
	CU_ASSERT_EQUAL_FATAL(qb->n_restarts, 2);
	CU_ASSERT_EQUAL(start_seq(restart_of(qa, 0)), 0);
	CU_ASSERT_EQUAL(start_seq(restart_of(qb, 0)), 1);
	CU_ASSERT_EQUAL(start_seq(restart_of(qb, 1)), 2);
	CU_ASSERT_EQUAL(start_seq(restart_of(qa, 1)), 3);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(res[0]->plan, "variant_order")),
			       "abba");
	/* Each variant's own settings reached its server; the data and answers are shared. */
	char *sa = json_dumps(json_object_get(res[0]->server, "options"), JSON_COMPACT);
	char *sb = json_dumps(json_object_get(res[1]->server, "options"), JSON_COMPACT);
	CU_ASSERT_PTR_NULL(strstr(sa ? sa : "", "join_cache_level"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb ? sb : "", "join_cache_level"));
	/* a quoted value keeps its comma: the server reports the whole sql_mode */
	const char *mode[2];
	for (int v = 0; v < 2; v++)
		mode[v] = json_string_value(
		    json_object_get(json_object_get(res[v]->server, "variables"), "sql_mode"));
	CU_ASSERT_STRING_EQUAL(mode[1] ? mode[1] : "",
			       "STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION");
	CU_ASSERT_STRING_NOT_EQUAL(mode[0] ? mode[0] : "", mode[1] ? mode[1] : "");
	free(sa);
	free(sb);
	CU_ASSERT_STRING_EQUAL(res_file_dataset_fingerprint(res[0]),
			       res_file_dataset_fingerprint(res[1]));
	CU_ASSERT_STRING_EQUAL(qa->restarts[0].result_sha256, qb->restarts[0].result_sha256);
	res_file_free(res[0]);
	res_file_free(res[1]);
	free(dir);
}

/* run --budget with two variants that differ by a server option: the run ends within the budget
 * + 5% (the bound is the feature's promise, not a performance figure), never in the middle of a
 * restart, and records per query and restart the warm-up it took, the runs, the decision, and
 * which queries it stopped measuring. A quiet case (tests/CMakeLists.txt): the run plans each
 * pair from the cost of the pairs before it, so a host that turns busy during the run can make
 * the last pair overrun; an overrun while other processes took more than 5 % of a CPU (the
 * test's own count over the run) is skipped, saying so, and on a quiet host it fails. */
TH_TEST(run_db, budget_run_ends_in_time_and_records_its_plan)
{
	CU_ASSERT_FATAL(loaded);
	char *dir = tmp_path("budget");
	const double budget = 60;
	const char *args[] = {"run",
			      "-s",
			      "0.01",
			      "-o",
			      dir,
			      "--budget",
			      "60s",
			      "--queries",
			      "1,6,14,17",
			      "--restart-paired",
			      "--variant",
			      "old:mysqld=/usr/sbin/mariadbd",
			      "--variant",
			      "new:mysqld=/usr/sbin/mariadbd,join_cache_level=4",
			      "--quiet",
			      NULL};
	struct th_host_watch watch;
	th_host_watch_begin(&watch);
	CU_ASSERT_EQUAL_FATAL(run_cli("budget", args), 0);
	double wall_ms = 0, others_ms = th_host_watch_others_ms(&watch, &wall_ms);
	double wall = wall_ms / 1e3;
	fprintf(stderr, "budget run: %.1f s of %.0f s; others' CPU time on the host %.1f s\n", wall,
		budget, others_ms / 1e3);
	if (wall > budget * 1.05 && (others_ms < 0 || others_ms >= 0.05 * wall_ms)) {
		char why[200];
		snprintf(why, sizeof(why),
			 "the run took %.1f s of a %.0f s budget while other processes took %.1f s "
			 "of CPU time: the host was busy, the bound is not tested",
			 wall, budget, others_ms / 1e3);
		th_skip(why);
		free(dir);
		return;
	}
	CU_ASSERT(wall <= budget * 1.05);
	const char *names[2] = {"old", "new"};
	struct res_file *res[2];
	long long pairs = -1;
	for (int v = 0; v < 2; v++) {
		char path[4400];
		snprintf(path, sizeof(path), "%s/%s.json", dir, names[v]);
		res[v] = th_result_read_valid(path);
		CU_ASSERT_PTR_NOT_NULL(res[v]->finished_at);
		CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(res[v]->plan, "budget_s")),
				       budget, 1e-9);
		CU_ASSERT_STRING_EQUAL(
		    json_string_value(json_object_get(res[v]->plan, "variant_order")), "abba");
		json_t *b = res[v]->extra ? json_object_get(res[v]->extra, "budget") : NULL;
		CU_ASSERT_PTR_NOT_NULL_FATAL(b);
		pairs = json_integer_value(json_object_get(b, "pairs"));
		double elapsed = json_number_value(json_object_get(b, "elapsed_s"));
		const char *why = json_string_value(json_object_get(b, "stop_reason"));
		CU_ASSERT_FATAL(pairs >= 1);
		CU_ASSERT(elapsed > 0 && elapsed <= wall);
		CU_ASSERT_PTR_NOT_NULL_FATAL(why);
		CU_ASSERT(strcmp(why, "budget") == 0 || strcmp(why, "all-decided") == 0 ||
			  strcmp(why, "max-pairs") == 0);
		CU_ASSERT_STRING_EQUAL(
		    json_string_value(json_object_get(res[v]->plan, "decision_rule")),
		    "group-sequential-obf");
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(res[v]->plan, "first_look")), 2);
		/* K re-estimated after every pair from the pairs' cost: one per pair, each at
		 * least the pairs done and the first look; plan.max_pairs is the last */
		json_t *horizon = json_object_get(res[v]->plan, "horizon");
		CU_ASSERT_FATAL(json_is_array(horizon) && json_array_size(horizon) == (size_t)pairs);
		for (size_t k = 0; k < (size_t)pairs; k++)
			CU_ASSERT(json_integer_value(json_array_get(horizon, k)) >=
				  (json_int_t)(k + 1 < 2 ? 2 : k + 1));
		json_int_t last = json_integer_value(json_array_get(horizon, (size_t)pairs - 1));
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(res[v]->plan, "max_pairs")), last);
		if (strcmp(why, "max-pairs") == 0) /* the last look spent what alpha was left */
			CU_ASSERT_EQUAL(last, pairs);
		json_t *paced = json_object_get(b, "last_pair_paced"); /* only ever true */
		CU_ASSERT(paced == NULL || json_is_true(paced));
		/* the end of each pair, rising, the last no later than the record */
		json_t *ends = json_object_get(b, "pair_elapsed_s");
		CU_ASSERT_FATAL(json_is_array(ends) && json_array_size(ends) == (size_t)pairs);
		for (size_t k = 0; k < (size_t)pairs; k++) {
			double e = json_number_value(json_array_get(ends, k));
			CU_ASSERT(e > 0 && e <= elapsed);
			if (k > 0)
				CU_ASSERT(e > json_number_value(json_array_get(ends, k - 1)));
		}
		if (strcmp(why, "budget") == 0) /* stopped because the next pair would not fit */
			CU_ASSERT(elapsed + json_number_value(
						json_object_get(b, "next_pair_estimate_s")) >
				  budget);
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(res[v]->plan, "restarts")),
				pairs);
	}
	for (size_t k = 0; k < res[0]->n_queries; k++) {
		const struct res_query *qa = &res[0]->queries[k];
		const struct res_query *qb = res_file_find_query(res[1], qa->id);
		CU_ASSERT_PTR_NOT_NULL_FATAL(qb);
		json_t *d = qa->extra ? json_object_get(qa->extra, "budget") : NULL;
		CU_ASSERT_PTR_NOT_NULL_FATAL(d);
		const char *decision = json_string_value(json_object_get(d, "decision"));
		CU_ASSERT_PTR_NOT_NULL_FATAL(decision);
		json_t *after = json_object_get(d, "decided_after_pairs");
		if (strcmp(decision, "undecided") == 0) {
			CU_ASSERT(json_is_null(after));
			CU_ASSERT_EQUAL(qa->n_restarts, (size_t)pairs);
		} else {
			CU_ASSERT(strcmp(decision, "unchanged") == 0 ||
				  strcmp(decision, "regression") == 0 ||
				  strcmp(decision, "improvement") == 0);
			/* decided after j pairs (the first look is after 2): not measured
			 * afterwards */
			CU_ASSERT(json_integer_value(after) >= 2);
			CU_ASSERT_EQUAL(qa->n_restarts, (size_t)json_integer_value(after));
		}
		CU_ASSERT_EQUAL(qa->n_restarts, qb->n_restarts); /* paired */
		for (int v = 0; v < 2; v++) {
			const struct res_query *q = v ? qb : qa;
			for (size_t i = 0; i < q->n_restarts; i++) {
				const struct res_restart *r = &q->restarts[i];
				CU_ASSERT_EQUAL(r->status, RES_STATUS_OK);
				CU_ASSERT(r->n_warmup >= 4 && r->n_warmup <= 20);
				json_t *steady = json_object_get(r->extra, "warmup_steady");
				CU_ASSERT_FATAL(json_is_boolean(steady));
				/* a warm-up ends steady, at its most, or capped by the pace
				 * (docs/run.md: a paced pair on a slow host) */
				if (r->n_warmup < 20 &&
				    !json_is_true(json_object_get(r->extra, "warmup_capped")))
					CU_ASSERT(json_is_true(steady));
				CU_ASSERT(r->n_measured >= 3 && r->n_measured <= 10);
				CU_ASSERT(json_is_number(json_object_get(r->extra, "trend_p")));
				/* TPC-H answers do not change between executions */
				CU_ASSERT_PTR_NULL(json_object_get(r->extra, "row_count_changes"));
				CU_ASSERT_PTR_NOT_NULL(r->result_sha256);
			}
		}
		/* balanced order: in the second pair the new variant's server started first */
		const struct res_restart *a1 = restart_of(qa, 1), *b1 = restart_of(qb, 1);
		if (a1 && b1)
			CU_ASSERT(start_seq(b1) < start_seq(a1));
	}
	/* a plain compare replays the run's rule from the two files by default (with the K the run
	 * used at each look): paired, and for every query the decision the run recorded, after the
	 * same pair */
	struct rpt_file_info fo = {"old.json", res[0]}, fn = {"new.json", res[1]},
			     fb = {NULL, NULL};
	struct rpt_compare_opts co;
	struct rpt_compare *cmp = NULL;
	struct errbuf cerr;
	rpt_compare_opts_init(&co);
	CU_ASSERT_EQUAL_FATAL(rpt_compare_build(&cmp, &fo, &fn, &fb, &co, &cerr), 0);
	CU_ASSERT(cmp->paired);
	CU_ASSERT(cmp->opts.sequential && cmp->opts.seq_auto);
	for (size_t k = 0; k < cmp->n_queries; k++) {
		const struct rpt_query *q = &cmp->queries[k];
		const struct res_query *qa = res_file_find_query(res[0], q->id);
		json_t *d = qa && qa->extra ? json_object_get(qa->extra, "budget") : NULL;
		json_t *after = json_object_get(d, "decided_after_pairs");
		CU_ASSERT_STRING_EQUAL(st_seq_decision_name(q->seq.decision),
				       json_string_value(json_object_get(d, "decision")));
		CU_ASSERT_EQUAL((json_int_t)q->seq.decided_at,
				json_is_integer(after) ? json_integer_value(after) : 0);
	}
	rpt_compare_free(cmp);
	res_file_free(res[0]);
	res_file_free(res[1]);
	free(dir);
}

/* --min-restarts (default 2): a one-build budget run whose first restart alone takes the whole
 * budget (1 s: a server start and stop take longer) still makes the second restart, so the table
 * has a between-restart noise; the second restart's share of the budget is spent, so its pacing
 * stops every warm-up at --warmup-min (unless steady by then) and the measured runs at --runs-min,
 * and says so. */
TH_TEST(run_db, budget_makes_min_restarts)
{
	CU_ASSERT_FATAL(loaded);
	char *out = tmp_path("minrestarts.json");
	const char *args[] = {"run", "-s", "0.01", "-o", out, "--budget", "1s", "--queries", "1,6",
			      NULL};
	char log[4300];
	CU_ASSERT_EQUAL_FATAL(run_cli("minrestarts", args), 0);
	/* after the first restart the second, still owed, cannot fit a 1 s budget: said once */
	snprintf(log, sizeof(log), "%s/minrestarts.log", db.tmp);
	CU_ASSERT(log_contains(log, "the 1 restart --min-restarts still owes needs at least"));
	CU_ASSERT(log_contains(log, "s of its 1 s budget"));
	struct res_file *res = th_result_read(out);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(res->plan, "min_restarts")), 2);
	json_t *b = res->extra ? json_object_get(res->extra, "budget") : NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(b, "pairs")), 2);
	CU_ASSERT(json_number_value(json_object_get(b, "elapsed_s")) > 1); /* over: owed */
	for (size_t k = 0; k < res->n_queries; k++) {
		const struct res_query *q = &res->queries[k];
		CU_ASSERT_EQUAL_FATAL(q->n_restarts, 2);
		const struct res_restart *r = restart_of(q, 1);
		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		CU_ASSERT_EQUAL(r->n_warmup, 4);
		json_t *capped = json_object_get(r->extra, "warmup_capped");
		json_t *steady = json_object_get(r->extra, "warmup_steady");
		CU_ASSERT(json_is_true(steady) != json_is_true(capped));
		/* the first pair plans 5 runs (no variance yet); the spent share cuts them to
		 * --runs-min (3) */
		CU_ASSERT_EQUAL(r->n_measured, 3);
		CU_ASSERT(json_is_true(json_object_get(r->extra, "runs_capped")));
	}
	res_file_free(res);
	free(out);
}

/* Rewrites a result's started_at and finished_at 30 s apart (the fixed part of a restart that
 * --costs-from takes from them: 30 s less its executions). */
static void prior_took_30s(const char *path)
{
	json_error_t jerr;
	json_t *j = json_load_file(path, 0, &jerr);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	json_object_set_new(j, "started_at", json_string("2026-12-02T08:00:00Z"));
	json_object_set_new(j, "finished_at", json_string("2026-12-02T08:00:30Z"));
	CU_ASSERT_EQUAL_FATAL(json_dump_file(j, path, JSON_INDENT(2)), 0);
	json_decref(j);
}

/* --costs-from: an earlier result's times give the first restart its costs, so a budget that
 * cannot hold the restarts --min-restarts owes is said before anything runs (both owed
 * restarts, not the one left after the first); a file of another scale factor and the option
 * without --budget are refused before anything is created (exit 2). */
TH_TEST(run_db, costs_from_warns_before_the_first_restart)
{
	CU_ASSERT_FATAL(loaded);
	char *prior = tmp_path("prior.json"), *out = tmp_path("costs.json"),
	     *other = tmp_path("costs-other.json"), log[4300];
	const char *first[] = {"run",	     "-s",	  "0.01",     "-o",	 prior,
			       "--restarts", "1",	  "--warmup", "1",	 "--runs",
			       "1",	     "--queries", "1,6",      "--quiet", NULL};
	CU_ASSERT_EQUAL_FATAL(run_cli("prior", first), 0);
	/* its wall time, in whole seconds, may be 0 on a fast host (started and finished in one
	 * second): a fixed part of 0 would let the owed restarts fit. Say it took 30 s. */
	prior_took_30s(prior);
	const char *args[] = {"run", "-s",	  "0.01", "-o",		  out,	 "--budget",
			      "1s",  "--queries", "1,6",  "--costs-from", prior, NULL};
	CU_ASSERT_EQUAL_FATAL(run_cli("costs", args), 0);
	snprintf(log, sizeof(log), "%s/costs.log", db.tmp);
	CU_ASSERT(log_contains(log, "the 2 restarts --min-restarts still owes need at least"));
	CU_ASSERT_FALSE(log_contains(log, "the 1 restart --min-restarts still owes"));
	struct res_file *res = th_result_read(out);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(res->plan, "costs_from")), prior);
	res_file_free(res);
	const char *sf[] = {"run",	"-s", "0.1",	      "-o",  other,
			    "--budget", "1s", "--costs-from", prior, NULL};
	CU_ASSERT_EQUAL(run_cli("costs-sf", sf), 2);
	snprintf(log, sizeof(log), "%s/costs-sf.log", db.tmp);
	CU_ASSERT(log_contains(log, "was measured at SF 0.01, not at SF 0.1"));
	const char *nobudget[] = {"run", "-s", "0.01", "-o", other, "--costs-from", prior, NULL};
	CU_ASSERT_EQUAL(run_cli("costs-nobudget", nobudget), 2);
	snprintf(log, sizeof(log), "%s/costs-nobudget.log", db.tmp);
	CU_ASSERT(log_contains(log, "--costs-from needs --budget"));
	CU_ASSERT_EQUAL(access(other, F_OK), -1);
	free(prior);
	free(out);
	free(other);
}

/* A query whose row count changes between executions of one restart: run records each execution
 * that differs from the first, and compare calls it a wrong result (exit 3). The change is made
 * from a second connection while the run's Q1 executes: a lineitem row with a new return flag
 * and line status gives Q1 a fifth group in every execution that starts after the insert (each
 * statement reads its own snapshot), and not in the one running. The row is removed afterwards. */
TH_TEST(run_db, row_count_change_is_recorded_and_flagged)
{
	CU_ASSERT_FATAL(loaded);
	char *out = tmp_path("rows.json"), log[4300];
	const char *args[] = {"run",	    "-s",	 "0.01",     "-o",	out,
			      "--restarts", "1",	 "--warmup", "0",	"--runs",
			      "40",	    "--queries", "1",	     "--quiet", NULL};
	struct srv_opts o;
	struct srv *s = NULL;
	struct errbuf err;
	MYSQL *m = NULL;
	srv_opts_init(&o);
	srv_opts_parse(&o, SRV_OPT_DATADIR, db.inst, &err);
	o.port = db.port;
	CU_ASSERT_EQUAL_FATAL(srv_opts_finish(&o, &err), 0);
	CU_ASSERT_EQUAL_FATAL(srv_open(&s, &o, &err), 0);
	snprintf(log, sizeof(log), "%s/rows.log", db.tmp);
	pid_t pid = spawn(log, args);
	for (int i = 0; i < 6000 && !m; i++) { /* the run's server answers */
		if (srv_is_alive(s))
			m = srv_connect(s, "dbt3", &err);
		if (!m)
			th_sleep_ms(10);
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	int seen = 0; /* a Q1 execution is running */
	for (int i = 0; i < 3000 && !seen; i++) {
		if (mysql_query(m,
				"SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO "
				"LIKE '%l_returnflag%' AND INFO NOT LIKE '%PROCESSLIST%'") == 0) {
			MYSQL_RES *r = mysql_store_result(m);
			MYSQL_ROW row = r ? mysql_fetch_row(r) : NULL;
			seen = row && row[0] && atoi(row[0]) > 0;
			mysql_free_result(r);
		}
		if (!seen)
			th_sleep_ms(5);
	}
	CU_ASSERT_FATAL(seen);
	static const char insert[] =
	    "INSERT INTO lineitem (l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, "
	    "l_extendedprice, l_discount, l_tax, l_returnflag, l_linestatus, l_shipdate, "
	    "l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, l_comment) SELECT "
	    "l_orderkey, l_partkey, l_suppkey, 99, l_quantity, l_extendedprice, l_discount, l_tax, "
	    "'X', 'X', l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, "
	    "l_comment FROM lineitem WHERE l_shipdate <= '1998-08-01' LIMIT 1";
	int ins = mysql_query(m, insert);
	if (ins)
		fprintf(stderr, "insert: %s\n", mysql_error(m));
	mysql_close(m);
	int rc = th_wait_exit(pid);
	if (rc != 0)
		th_show_log(log);
	/* Remove the row (the run stopped its server) before asserting anything. */
	struct srv_launch launch = {0};
	if (srv_start(s, &launch, &err) == 0) {
		MYSQL *c = srv_connect(s, "dbt3", &err);
		if (!c || mysql_query(c, "DELETE FROM lineitem WHERE l_linenumber = 99"))
			fprintf(stderr, "cannot remove the test row: %s\n",
				c ? mysql_error(c) : err.msg);
		if (c)
			mysql_close(c);
		srv_stop(s, &err);
	} else {
		fprintf(stderr, "cannot start the server to remove the test row: %s\n", err.msg);
	}
	srv_free(s);
	srv_opts_release(&o);
	CU_ASSERT_EQUAL_FATAL(ins, 0);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	struct res_file *res = th_result_read(out);
	const struct res_query *q = res_file_find_query(res, "Q1");
	CU_ASSERT_EQUAL_FATAL(q->n_restarts, 1);
	const struct res_restart *r = &q->restarts[0];
	CU_ASSERT_EQUAL(r->rows, 4); /* the first execution's count */
	json_t *changes = json_object_get(r->extra, "row_count_changes");
	CU_ASSERT_FATAL(json_is_array(changes) && json_array_size(changes) >= 1);
	/* From the first changed execution on, every one returned 5 rows, up to the 40th and last:
	 * with --warmup 0 the first measured one fingerprints the result, no extra execution. */
	size_t n = json_array_size(changes);
	json_int_t first =
	    json_integer_value(json_object_get(json_array_get(changes, 0), "execution"));
	CU_ASSERT(first >= 2);
	CU_ASSERT_EQUAL(
	    json_integer_value(json_object_get(json_array_get(changes, n - 1), "execution")), 40);
	CU_ASSERT_EQUAL((json_int_t)n, 40 - first + 1);
	for (size_t i = 0; i < n; i++)
		CU_ASSERT_EQUAL(
		    json_integer_value(json_object_get(json_array_get(changes, i), "rows")), 5);
	res_file_free(res);
	/* compare: the query is a wrong result, exit 3. */
	char cmd[9000];
	snprintf(log, sizeof(log), "%s/rows-compare.log", db.tmp);
	snprintf(cmd, sizeof(cmd), "'%s' compare '%s' '%s' >'%s' 2>&1", DBT3_BINARY, out, out, log);
	int st = system(cmd);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 3);
	CU_ASSERT(log_contains(log, "row count changed between executions"));
	free(out);
}

int main(int argc, char **argv)
{
	return th_db_main_loaded(&db, &loaded, "run", "run_db", th_cases(), argc, argv);
}
