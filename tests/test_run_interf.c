/* SPDX-License-Identifier: MIT */
/* Unit tests of the interference record: the /proc parsers on fixture text (the expected sums
 * worked out by hand from the fixture's columns), the disturbed rule, the reader's checks. */
#include "harness.h"
#include "result/res.h"
#include "runner/run_interf.h"
#include "runner/run_memprobe.h"
#include <fcntl.h>
#include <linux/magic.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SHA_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

/* /proc/stat of a 4-CPU host; columns: user nice system idle iowait irq softirq steal guest
 * guest_nice. */
static const char proc_stat[] = "cpu  151993 351687 89065 65686 742 0 835 2053 0 0\n"
				"cpu0 86799 169331 39119 34612 124 0 35 995 0 0\n"
				"cpu1 65193 182356 49946 31074 618 0 800 1057 0 0\n"
				"cpu2 10 20 30 40 50 60 70 80 90 100\n"
				"cpu10 1 1 1 1 1 1 1 1 0 0\n"
				"intr 3974168 0 0 0\n"
				"ctxt 13042904\n";

TH_TEST(run_interf, stat_sums_the_listed_cpus)
{
	uint64_t busy, steal;
	const unsigned one[] = {1}, two[] = {0, 2}, ten[] = {10}, absent[] = {3};
	/* cpu1: 65193 + 182356 + 49946 + 0 + 800 */
	CU_ASSERT_EQUAL(run_interf_parse_stat(proc_stat, one, 1, &busy, &steal), 0);
	CU_ASSERT_EQUAL(busy, 298295);
	CU_ASSERT_EQUAL(steal, 1057);
	/* cpu0: 86799 + 169331 + 39119 + 0 + 35 = 295284; cpu2: 10 + 20 + 30 + 60 + 70 = 190 */
	CU_ASSERT_EQUAL(run_interf_parse_stat(proc_stat, two, 2, &busy, &steal), 0);
	CU_ASSERT_EQUAL(busy, 295474);
	CU_ASSERT_EQUAL(steal, 995 + 80);
	/* "cpu1" is not a prefix match of "cpu10" */
	CU_ASSERT_EQUAL(run_interf_parse_stat(proc_stat, ten, 1, &busy, &steal), 0);
	CU_ASSERT_EQUAL(busy, 5);
	CU_ASSERT_EQUAL(steal, 1);
	/* every CPU: the aggregate line 151993 + 351687 + 89065 + 0 + 835 */
	CU_ASSERT_EQUAL(run_interf_parse_stat(proc_stat, NULL, 0, &busy, &steal), 0);
	CU_ASSERT_EQUAL(busy, 593580);
	CU_ASSERT_EQUAL(steal, 2053);
	CU_ASSERT_EQUAL(run_interf_parse_stat(proc_stat, absent, 1, &busy, &steal), -1);
	CU_ASSERT_EQUAL(run_interf_parse_stat("cpu0 1 2\n", NULL, 0, &busy, &steal), -1);
}

TH_TEST(run_interf, pidstat_takes_fields_after_the_command)
{
	uint64_t ticks, majflt;
	/* fields 10 (minflt) .. 15: 100 0 7 0 1234 56 -> majflt 7, utime 1234, stime 56 */
	static const char plain[] = "8317 (mariadbd) S 8311 8311 28162 0 -1 4194304 100 0 7 0 "
				    "1234 56 0 0 20 0 31 0 331274 3133440 389\n";
	/* a command with spaces and a ')' must not shift the fields */
	static const char odd[] = "42 (a) b (c) R 1 1 1 0 -1 0 5 0 3 0 10 20 0 0 20 0 1 0 9 9 9\n";
	CU_ASSERT_EQUAL(run_interf_parse_pidstat(plain, &ticks, &majflt), 0);
	CU_ASSERT_EQUAL(ticks, 1290);
	CU_ASSERT_EQUAL(majflt, 7);
	CU_ASSERT_EQUAL(run_interf_parse_pidstat(odd, &ticks, &majflt), 0);
	CU_ASSERT_EQUAL(ticks, 30);
	CU_ASSERT_EQUAL(majflt, 3);
	CU_ASSERT_EQUAL(run_interf_parse_pidstat("8317 (x) S 1 2\n", &ticks, &majflt), -1);
	CU_ASSERT_EQUAL(run_interf_parse_pidstat("no parenthesis", &ticks, &majflt), -1);
	/* num_threads is field 20: 31 and 1 */
	uint64_t threads;
	CU_ASSERT_EQUAL(run_interf_parse_nthreads(plain, &threads), 0);
	CU_ASSERT_EQUAL(threads, 31);
	CU_ASSERT_EQUAL(run_interf_parse_nthreads(odd, &threads), 0);
	CU_ASSERT_EQUAL(threads, 1);
	CU_ASSERT_EQUAL(run_interf_parse_nthreads("8317 (x) S 1 2 3 4 5 6 7 8 9 10 11\n", &threads),
			-1);
}

/* A thread of this process that sleeps `naps` times (a voluntary context switch each), then
 * waits until told to end. */
struct napper {
	pthread_t t;
	int naps;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int napped, end;
};

static void *napper_main(void *arg)
{
	struct napper *z = arg;
	for (int i = 0; i < z->naps; i++)
		nanosleep(&(struct timespec){0, 1000000}, NULL);
	pthread_mutex_lock(&z->mu);
	z->napped = 1;
	pthread_cond_broadcast(&z->cv);
	while (!z->end)
		pthread_cond_wait(&z->cv, &z->mu);
	pthread_mutex_unlock(&z->mu);
	return NULL;
}

static void napper_start(struct napper *z, int naps)
{
	memset(z, 0, sizeof(*z));
	z->naps = naps;
	pthread_mutex_init(&z->mu, NULL);
	pthread_cond_init(&z->cv, NULL);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&z->t, NULL, napper_main, z), 0);
	pthread_mutex_lock(&z->mu);
	while (!z->napped)
		pthread_cond_wait(&z->cv, &z->mu);
	pthread_mutex_unlock(&z->mu);
}

static void napper_stop(struct napper *z)
{
	pthread_mutex_lock(&z->mu);
	z->end = 1;
	pthread_cond_broadcast(&z->cv);
	pthread_mutex_unlock(&z->mu);
	pthread_join(z->t, NULL);
	pthread_cond_destroy(&z->cv);
	pthread_mutex_destroy(&z->mu);
}

/* The sampler keeps its thread list open between samples: a thread started between two samples
 * (the count changes) and a thread that replaced one that ended (the count stays) are both
 * summed; sampled on this test process, whose threads' naps are the context switches. */
TH_TEST(run_interf, sampler_follows_the_threads)
{
	struct run_interf *n = NULL;
	struct run_interf_rec rec;
	struct errbuf err = {""};
	struct napper a, b;
	CU_ASSERT_EQUAL_FATAL(run_interf_new(&n, getpid(), 0, NULL, 0, &err), 0);
	/* 1: a new thread between the samples: its 50 naps count */
	CU_ASSERT_EQUAL_FATAL(run_interf_begin(n, &err), 0);
	napper_start(&a, 50);
	CU_ASSERT_EQUAL_FATAL(run_interf_end(n, &rec, &err), 0);
	CU_ASSERT(rec.vcsw >= 50);
	/* 2: thread a (parked, listed at the first sample) ends and b takes its place: the same
	 * count of threads, but a's file answers no more, so the list is taken again and b's 50
	 * naps count (less what a had, about 50 and its park) */
	CU_ASSERT_EQUAL_FATAL(run_interf_begin(n, &err), 0);
	napper_stop(&a);
	napper_start(&b, 120);
	CU_ASSERT_EQUAL_FATAL(run_interf_end(n, &rec, &err), 0);
	CU_ASSERT(rec.vcsw >= 120 - 60);
	napper_stop(&b);
	run_interf_free(n);
}

TH_TEST(run_interf, status_context_switches)
{
	uint64_t vol, invol;
	static const char status[] = "Name:\tmariadbd\nState:\tS (sleeping)\n"
				     "Cpus_allowed_list:\t0\n"
				     "voluntary_ctxt_switches:\t1523\n"
				     "nonvoluntary_ctxt_switches:\t87\n";
	CU_ASSERT_EQUAL(run_interf_parse_ctxt(status, &vol, &invol), 0);
	CU_ASSERT_EQUAL(vol, 1523);
	CU_ASSERT_EQUAL(invol, 87);
	CU_ASSERT_EQUAL(run_interf_parse_ctxt("Name:\tx\n", &vol, &invol), -1);
}

/* /proc/PID/io as Linux 6.1 prints it (the figures of a MariaDB server at SF 10); a key counts
 * only at a line's start: cancelled_write_bytes is not write_bytes. */
TH_TEST(run_interf, io_takes_the_storage_bytes)
{
	uint64_t rd, wr;
	static const char io[] = "rchar: 58789803\nwchar: 1204\nsyscr: 1682\nsyscw: 12\n"
				 "read_bytes: 3578163200\nwrite_bytes: 368640\n"
				 "cancelled_write_bytes: 4096\n";
	static const char no_write[] = "rchar: 1\nread_bytes: 7\ncancelled_write_bytes: 4096\n";
	CU_ASSERT_EQUAL(run_interf_parse_io(io, &rd, &wr), 0);
	CU_ASSERT_EQUAL(rd, 3578163200ULL);
	CU_ASSERT_EQUAL(wr, 368640);
	CU_ASSERT_EQUAL(run_interf_parse_io(no_write, &rd, &wr), -1);
	CU_ASSERT_EQUAL(run_interf_parse_io("rchar: 1\n", &rd, &wr), -1);
}

/* The sampler's write_bytes on this process: 4 MiB written and synced to a file between the
 * samples are 4 MiB the process made the storage layer write (tmpfs has no storage: there
 * the counter is read, and stays below the 4 MiB). */
TH_TEST(run_interf, sampler_counts_the_storage_writes)
{
	enum { MIB = 1 << 20, TIMES = 4 };
	struct run_interf *n = NULL;
	struct run_interf_rec rec;
	struct errbuf err = {""};
	struct statfs fs;
	char *dir = th_tempdir("io"), path[4200];
	static char block[MIB];
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	snprintf(path, sizeof(path), "%s/w", dir);
	memset(block, 'x', sizeof(block));
	CU_ASSERT_EQUAL_FATAL(run_interf_new(&n, getpid(), 0, NULL, 0, &err), 0);
	CU_ASSERT_EQUAL_FATAL(run_interf_begin(n, &err), 0);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	for (int i = 0; i < TIMES; i++)
		CU_ASSERT_EQUAL(write(fd, block, sizeof(block)), (ssize_t)sizeof(block));
	CU_ASSERT_EQUAL(fsync(fd), 0);
	CU_ASSERT_EQUAL(close(fd), 0);
	CU_ASSERT_EQUAL_FATAL(run_interf_end(n, &rec, &err), 0);
	CU_ASSERT_EQUAL_FATAL(statfs(dir, &fs), 0);
	CU_ASSERT(rec.read_bytes >= 0);
	if (fs.f_type == TMPFS_MAGIC) {
		CU_ASSERT(rec.write_bytes >= 0 && rec.write_bytes < TIMES * MIB);
	} else {
		CU_ASSERT(rec.write_bytes >= TIMES * MIB);
	}
	json_t *j = run_interf_rec_json(&rec);
	CU_ASSERT(json_is_integer(json_object_get(j, "write_bytes")));
	json_decref(j);
	run_interf_free(n);
	unlink(path);
	th_rmtree(dir);
	free(dir);
}

/* MySQL 8 has no PROCESSLIST.TID: its OS thread id is performance_schema.threads.THREAD_OS_ID
 * of the row whose PROCESSLIST_ID is the connection (MySQL 8.0 reference manual, "The threads
 * Table"); MariaDB 10.11: information_schema.PROCESSLIST.TID. No MySQL binary here: the MariaDB
 * statement runs in test_run_interf_db. */
TH_TEST(run_interf, thread_id_statement_per_flavour)
{
	const char *my = run_interf_tid_sql(1), *maria = run_interf_tid_sql(0);
	CU_ASSERT_PTR_NOT_NULL(strstr(my, "THREAD_OS_ID FROM performance_schema.threads"));
	CU_ASSERT_PTR_NOT_NULL(strstr(my, "PROCESSLIST_ID = CONNECTION_ID()"));
	CU_ASSERT_PTR_NOT_NULL(strstr(maria, "TID FROM information_schema.PROCESSLIST"));
	CU_ASSERT_PTR_NOT_NULL(strstr(maria, "ID = CONNECTION_ID()"));
}

/* Adds to rq the entry of restart `index` (one measured run of 1 ms) with the interference
 * record rec (the reference is taken). */
static void add_entry(struct res_query *rq, int index, json_t *rec)
{
	double ms[1] = {1.0};
	struct res_restart rr = {.index = index, .measured_ms = ms, .n_measured = 1, .rows = 1};
	CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
	rr.extra = json_pack("{s:o}", "interference", rec);
	CU_ASSERT_PTR_NOT_NULL_FATAL(res_query_add_restart(rq, &rr));
	json_decref(rr.extra);
}

/* A file with three restarts of two queries; restart 1's windows had 400 ms of others' CPU in
 * 1000 ms, restart 2's 20 ms in 1000 (under the 30 ms floor), restart 0 steal of 60 in 1000. */
static struct res_file *noisy_file(void)
{
	static const double other[3][2] = {{0, 0}, {150, 250}, {10, 10}};
	static const double steal[3][2] = {{30, 30}, {0, 0}, {0, 0}};
	struct res_file *res = res_file_new();
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	for (int q = 0; q < 2; q++) {
		struct res_query *rq = res_file_add_query(res, q ? "Q2" : "Q1", SHA_A);
		for (int r = 0; r < 3; r++)
			add_entry(rq, r,
				  json_pack("{s:f, s:f, s:f, s:f, s:n, s:n, s:i, s:i, s:i}",
					    "window_ms", 500.0, "other_cpu_ms", other[r][q],
					    "steal_ms", steal[r][q], "server_cpu_ms", 400.0,
					    "query_thread_cpu_ms", "server_rest_cpu_ms",
					    "voluntary_ctxt_switches", 10,
					    "involuntary_ctxt_switches", 2, "major_faults", 0));
	}
	return res;
}

TH_TEST(run_interf, disturbed_rule_and_exclusion)
{
	struct res_file *res = noisy_file();
	struct res_interf_restart *r;
	size_t n, dropped;
	char line[512];
	CU_ASSERT_EQUAL_FATAL(res_interf_restarts(res, &r, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_EQUAL(r[0].causes, RES_INTERF_STEAL);	    /* 60 of 1000 ms: 6% >= 5%, >= 30 ms */
	CU_ASSERT_EQUAL(r[1].causes, RES_INTERF_OTHER_CPU); /* 400 of 1000 */
	CU_ASSERT_EQUAL(r[2].causes, 0);		   /* 20 ms: under the floor */
	CU_ASSERT_DOUBLE_EQUAL(r[1].window_ms, 1000, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r[1].vcsw, 20, 1e-9);
	free(r);
	CU_ASSERT_EQUAL(res_interf_line(res, line, sizeof(line)), 2);
	CU_ASSERT_STRING_EQUAL(line, "2 of 3 restarts disturbed (restart 1: steal 6% of a PU; "
				     "restart 2: other processes 40% of a PU)");
	CU_ASSERT_EQUAL(res_file_drop_disturbed(res, &dropped), 0);
	CU_ASSERT_EQUAL(dropped, 2);
	for (size_t q = 0; q < res->n_queries; q++) {
		CU_ASSERT_EQUAL_FATAL(res->queries[q].n_restarts, 1);
		CU_ASSERT_EQUAL(res->queries[q].restarts[0].index, 2);
	}
	res_file_free(res);
}

/* A restart's I/O sums are over the records that have the counters: restart 0's two records
 * read 1000 + 2500 bytes and wrote 10 + 0; restart 1's have none (null, absent), so its sums are
 * left out of the JSON rather than written as 0. A negative count is refused at read. */
TH_TEST(run_interf, io_sums_per_restart)
{
	struct res_file *res = res_file_new(), *back = NULL;
	struct res_interf_restart *r;
	struct errbuf err = {""};
	size_t n;
	static const int rd[2] = {1000, 2500}, wr[2] = {10, 0};
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	for (int q = 0; q < 2; q++) {
		struct res_query *rq = res_file_add_query(res, q ? "Q2" : "Q1", SHA_A);
		for (int k = 0; k < 2; k++) {
			json_t *rec = json_pack(
			    "{s:f, s:f, s:f, s:f, s:n, s:n, s:i, s:i, s:i, s:i, s:i}", "window_ms",
			    10.0, "other_cpu_ms", 0.0, "steal_ms", 0.0, "server_cpu_ms", 5.0,
			    "query_thread_cpu_ms", "server_rest_cpu_ms", "voluntary_ctxt_switches",
			    1, "involuntary_ctxt_switches", 0, "major_faults", 0, "read_bytes",
			    rd[q], "write_bytes", wr[q]);
			CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
			if (k == 1 && q == 0) { /* unreadable */
				json_object_set_new(rec, "read_bytes", json_null());
				json_object_set_new(rec, "write_bytes", json_null());
			} else if (k == 1) { /* a file from before the counters */
				json_object_del(rec, "read_bytes");
				json_object_del(rec, "write_bytes");
			}
			add_entry(rq, k, rec);
		}
	}
	CU_ASSERT_EQUAL_FATAL(res_interf_restarts(res, &r, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_EQUAL(r[0].n_io, 2);
	CU_ASSERT_DOUBLE_EQUAL(r[0].read_bytes, 3500, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r[0].write_bytes, 10, 1e-9);
	CU_ASSERT_EQUAL(r[1].n_io, 0);
	json_t *j = res_interf_json(r, n), *list = json_object_get(j, "restarts");
	CU_ASSERT_DOUBLE_EQUAL(
	    json_number_value(json_object_get(json_array_get(list, 0), "read_bytes")), 3500, 1e-9);
	CU_ASSERT_PTR_NULL(json_object_get(json_array_get(list, 1), "read_bytes"));
	json_decref(j);
	free(r);
	json_t *rec = json_object_get(res->queries[0].restarts[0].extra, "interference");
	json_object_set_new(rec, "read_bytes", json_integer(-5));
	json_object_set_new(res->plan, "restarts", json_integer(2));
	json_object_set_new(res->dataset, "scale_factor", json_real(0.01));
	char *text = res_file_dumps(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_EQUAL(res_file_parse(&back, text, strlen(text), "n.json", &err), -1);
	CU_ASSERT_STRING_EQUAL(err.msg,
			       "'n.json': $.queries[0].restarts[0].interference.read_bytes: "
			       "-5 out of range (0 to 1e15)");
	res_file_free(back);
	free(text);
	res_file_free(res);
}

/* What the runner writes reads back; a negative time or an unknown cause is refused. */
TH_TEST(run_interf, records_read_back_and_bad_ones_refused)
{
	struct res_file *res = noisy_file(), *back = NULL;
	struct errbuf err = {""};
	struct res_interf_restart *r;
	size_t n;
	json_object_set_new(res->plan, "restarts", json_integer(3));
	CU_ASSERT_EQUAL_FATAL(res_interf_restarts(res, &r, &n), 0);
	res->extra = json_object();
	json_object_set_new(res->extra, "interference", res_interf_json(r, n));
	free(r);
	json_object_set_new(res->dataset, "scale_factor", json_real(0.01));
	char *text = res_file_dumps(res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_EQUAL(res_file_parse(&back, text, strlen(text), "n.json", &err), 0);
	if (err.msg[0])
		fprintf(stderr, "%s\n", err.msg);
	CU_ASSERT_EQUAL(res_interf_line(back, err.msg, sizeof(err.msg)), 2);
	res_file_free(back);
	static const struct {
		const char *find, *repl, *want;
	} bad[] = {
	    {"\"other_cpu_ms\": 150", "\"other_cpu_ms\": -1",
	     "'n.json': $.queries[0].restarts[1].interference.other_cpu_ms: -1 out of range (0 to "
	     "1e+09)"},
	    {"\"other_cpu\"", "\"gremlins\"",
	     "'n.json': $.interference.restarts[1].causes[0]: not one of other_cpu, steal or "
	     "memory"},
	    {"\"voluntary_ctxt_switches\": 10,", "\"voluntary_ctxt_switches\": \"ten\",",
	     "'n.json': $.queries[0].restarts[0].interference.voluntary_ctxt_switches: expected a "
	     "number, found a string"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *at = strstr(text, bad[i].find);
		CU_ASSERT_PTR_NOT_NULL_FATAL(at);
		size_t pre = (size_t)(at - text);
		char *t2 = malloc(strlen(text) + strlen(bad[i].repl) + 1);
		memcpy(t2, text, pre);
		strcpy(t2 + pre, bad[i].repl);
		strcat(t2, at + strlen(bad[i].find));
		back = NULL;
		CU_ASSERT_EQUAL(res_file_parse(&back, t2, strlen(t2), "n.json", &err), -1);
		if (strcmp(err.msg, bad[i].want) != 0)
			fprintf(stderr, "case %zu\n got  %s\n want %s\n", i, err.msg, bad[i].want);
		CU_ASSERT_STRING_EQUAL(err.msg, bad[i].want);
		res_file_free(back);
		free(t2);
	}
	free(text);
	res_file_free(res);
}

/* The ring is one cycle through every slot whatever its size, and its size follows the
 * documented rule: an eighth of the last-level cache, between 1 and 16 MiB. */
TH_TEST(run_interf, memory_probe_ring_is_one_cycle)
{
	static const size_t sizes[] = {16, 24, 1000, 1u << 20, (4u << 20) + 8};
	struct errbuf err = {""};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct run_memprobe *p = NULL;
		CU_ASSERT_EQUAL_FATAL(run_memprobe_new(&p, sizes[i], &err), 0);
		CU_ASSERT_EQUAL(run_memprobe_bytes(p), sizes[i] / sizeof(size_t) * sizeof(size_t));
		CU_ASSERT_EQUAL(run_memprobe_cycle_length(p), sizes[i] / sizeof(size_t));
		CU_ASSERT(run_memprobe_take(p) >= 0); /* runs (a time is not asserted) */
		run_memprobe_free(p);
	}
	run_memprobe_free(NULL);
	CU_ASSERT_EQUAL(run_memprobe_ring_bytes(0), 4u << 20);	       /* 32 MiB assumed */
	CU_ASSERT_EQUAL(run_memprobe_ring_bytes(32u << 20), 4u << 20); /* this VM's L3 */
	CU_ASSERT_EQUAL(run_memprobe_ring_bytes(96u << 20), 12u << 20);
	CU_ASSERT_EQUAL(run_memprobe_ring_bytes(4u << 20), 1u << 20);	 /* at least 1 MiB */
	CU_ASSERT_EQUAL(run_memprobe_ring_bytes(512u << 20), 16u << 20); /* at most 16 MiB */
}

/* doctor's memory reference: one cycle through the first slot of every 64-byte line, as many
 * steps as lines from slot 0 back to it, and its size 16 times run's ring within 64-256 MiB. */
TH_TEST(run_interf, memory_reference_is_one_cycle_of_lines)
{
	static const size_t sizes[] = {64, 128, 1000, 1u << 20, (1u << 20) + 64};
	struct errbuf err = {""};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct run_memprobe *p = NULL;
		size_t lines = sizes[i] / 64 < 2 ? 2 : sizes[i] / 64;
		CU_ASSERT_EQUAL_FATAL(run_memprobe_new_far(&p, sizes[i], 100, &err), 0);
		CU_ASSERT_EQUAL(run_memprobe_bytes(p), lines * 64);
		CU_ASSERT_EQUAL(run_memprobe_cycle_length(p), lines);
		CU_ASSERT(run_memprobe_take(p) >= 0); /* runs (a time is not asserted) */
		run_memprobe_free(p);
	}
	CU_ASSERT_EQUAL(run_memprobe_far_bytes(1u << 20), 64u << 20);	/* at least 64 MiB */
	CU_ASSERT_EQUAL(run_memprobe_far_bytes(4u << 20), 64u << 20);	/* 16 x 4 MiB */
	CU_ASSERT_EQUAL(run_memprobe_far_bytes(12u << 20), 192u << 20); /* 16 x 12 MiB */
	CU_ASSERT_EQUAL(run_memprobe_far_bytes(16u << 20), 256u << 20); /* at most 256 MiB */
}

/* A file of four restarts of four queries, each entry with the probes before and after it
 * (ns per step), host.memory_probe.floor_ns 10. After-probes above 2 x 10: restart 0 none,
 * restart 1 all four (100% > 25%, and against the others' median of 0.125 unusual:
 * disturbed), restart 2 one of four (25%, not above), restart 3 both of its two, but probes
 * after only two of its queries are under the 3 a verdict needs. */
static struct res_file *probed_file(double floor_ns)
{
	static const double after[4][4] = {
	    {12, 15, 19, 18}, {25, 30, 40, 21}, {21, 12, 12, 12}, {40, 50, 0, 0}};
	struct res_file *res = res_file_new();
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	json_object_set_new(res->host, "memory_probe",
			    json_pack("{s:i, s:f, s:i}", "ring_bytes", 4 << 20, "floor_ns",
				      floor_ns, "calibration_probes", 9));
	for (int q = 0; q < 4; q++) {
		char id[8];
		snprintf(id, sizeof(id), "Q%d", q + 1);
		struct res_query *rq = res_file_add_query(res, id, SHA_A);
		for (int r = 0; r < 4; r++) {
			json_t *rec = json_pack("{s:f, s:f, s:f, s:f, s:n, s:n, s:i, s:i, s:i}",
						"window_ms", 500.0, "other_cpu_ms", 0.0, "steal_ms",
						0.0, "server_cpu_ms", 400.0, "query_thread_cpu_ms",
						"server_rest_cpu_ms", "voluntary_ctxt_switches", 10,
						"involuntary_ctxt_switches", 2, "major_faults", 0);
			if (after[r][q] > 0) {
				json_object_set_new(rec, "memory_probe_before_ns",
						    json_real(q ? after[r][q - 1] : 11.0));
				json_object_set_new(rec, "memory_probe_after_ns",
						    json_real(after[r][q]));
			}
			add_entry(rq, r, rec);
		}
	}
	return res;
}

TH_TEST(run_interf, memory_contention_rule)
{
	struct res_file *res = probed_file(10.0);
	struct res_interf_restart *r;
	size_t n;
	char line[512];
	CU_ASSERT_EQUAL_FATAL(res_interf_restarts(res, &r, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	static const size_t probes[4] = {4, 4, 4, 2}, pressed[4] = {0, 4, 1, 2};
	static const unsigned causes[4] = {0, RES_INTERF_MEMORY, 0, 0};
	for (int i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(r[i].n_mem, probes[i]);
		CU_ASSERT_EQUAL(r[i].n_mem_pressured, pressed[i]);
		CU_ASSERT_EQUAL(r[i].causes, causes[i]);
		CU_ASSERT_DOUBLE_EQUAL(r[i].mem_floor_ns, 10.0, 1e-12);
	}
	CU_ASSERT_DOUBLE_EQUAL(r[1].mem_max_ns, 40.0, 1e-12);
	json_t *j = res_interf_json(r, n), *e1 = json_array_get(json_object_get(j, "restarts"), 1);
	CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(j, "memory_floor_ns")), 10, 1e-12);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(e1, "memory_pressured")), 4);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(json_object_get(e1, "causes"), 0)),
			       "memory");
	/* what the runner writes reads back, the memory cause included */
	res->extra = json_object();
	json_object_set_new(res->extra, "interference", j);
	json_object_set_new(res->plan, "restarts", json_integer(4));
	json_object_set_new(res->dataset, "scale_factor", json_real(0.01));
	char *text = res_file_dumps(res);
	struct res_file *back = NULL;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL(res_file_parse(&back, text, strlen(text), "m.json", &err), 0);
	CU_ASSERT_EQUAL(res_interf_line(back, line, sizeof(line)), 1);
	CU_ASSERT_STRING_EQUAL(line, "1 of 4 restarts disturbed (restart 2: memory contention "
				     "after 4 of 4 queries)");
	res_file_free(back);
	free(text);
	free(r);
	res_file_free(res);
	/* the floor is the fastest probe of the file: with the host's at 20 (a calibration in a
	 * noisy moment) the records' 11 ns before-probes set it, and the verdicts stay */
	res = probed_file(20.0);
	CU_ASSERT_EQUAL_FATAL(res_interf_restarts(res, &r, &n), 0);
	CU_ASSERT_DOUBLE_EQUAL(r[0].mem_floor_ns, 11.0, 1e-12);
	CU_ASSERT_EQUAL(r[1].n_mem_pressured, 3); /* 25, 30 and 40 > 22 */
	CU_ASSERT_EQUAL(r[2].n_mem_pressured, 0); /* 21 < 22 */
	free(r);
	res_file_free(res);
}

/* A process that spins until killed, bound to PU pu when pin. */
static pid_t spinner(int pin, unsigned pu)
{
	pid_t child = fork();
	if (child == 0) {
		if (pin) {
			cpu_set_t set;
			CPU_ZERO(&set);
			CPU_SET(pu, &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
		volatile unsigned long x = 0;
		for (;;)
			x++;
	}
	return child;
}

/* n's window, its record into rec: held open 400 ms while child (> 0: a spinner, killed after
 * it) runs, or opened and closed at once (child 0). */
static void window(struct run_interf *n, struct run_interf_rec *rec, pid_t child)
{
	struct errbuf err = {""};
	CU_ASSERT_EQUAL_FATAL(run_interf_begin(n, &err), 0);
	if (child > 0) {
		struct timespec ts = {0, 400000000L};
		nanosleep(&ts, NULL);
	}
	CU_ASSERT_EQUAL_FATAL(run_interf_end(n, rec, &err), 0);
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
}

/* The record's JSON has the number key when want, no key when not. */
static void member_is(const struct run_interf_rec *rec, const char *key, int want)
{
	json_t *j = run_interf_rec_json(rec);
	if (want) {
		CU_ASSERT(json_is_number(json_object_get(j, key)));
	} else {
		CU_ASSERT_PTR_NULL(json_object_get(j, key));
	}
	json_decref(j);
}

/* Side by side: a second process standing for the other server spins while the window is
 * open; its CPU time is recorded as the partner's and is not in other_cpu_ms (which on this
 * host may hold the neighbours' time, so only the partner's share is bounded). */
TH_TEST(run_interf, partner_cpu_is_the_tools)
{
	struct run_interf *n = NULL;
	struct run_interf_rec rec;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL_FATAL(run_interf_new(&n, getpid(), 0, NULL, 0, &err), 0);
	pid_t child = spinner(0, 0);
	CU_ASSERT_FATAL(child >= 0);
	CU_ASSERT_EQUAL(run_interf_set_partner(n, child), 0);
	window(n, &rec, child);
	CU_ASSERT(rec.partner_cpu_ms > 0);
	CU_ASSERT(rec.partner_cpu_ms <= rec.window_ms + 20);
	member_is(&rec, "partner_server_cpu_ms", 1);
	CU_ASSERT_EQUAL(run_interf_set_partner(n, 0), 0); /* none: no member */
	window(n, &rec, 0);
	CU_ASSERT(rec.partner_cpu_ms < 0);
	member_is(&rec, "partner_server_cpu_ms", 0);
	run_interf_free(n);
}

/* Others on the server's own PU: a process pinned to the PU the sampler was told is the
 * server's spins while the window is open (the "server", this process, sleeps); its time is
 * in server_pu_other_cpu_ms, which a sampler without the server's PUs does not record. */
TH_TEST(run_interf, others_on_the_servers_pu)
{
	struct run_interf *n = NULL;
	struct run_interf_rec rec;
	struct errbuf err = {""};
	cpu_set_t set;
	unsigned pu = 0;
	CU_ASSERT_EQUAL_FATAL(sched_getaffinity(0, sizeof(set), &set), 0);
	while (pu < CPU_SETSIZE && !CPU_ISSET(pu, &set))
		pu++;
	CU_ASSERT_FATAL(pu < CPU_SETSIZE);
	CU_ASSERT_EQUAL_FATAL(run_interf_new(&n, getpid(), 0, &pu, 1, &err), 0);
	run_interf_set_server_pus(n, 1);
	pid_t child = spinner(1, pu);
	CU_ASSERT_FATAL(child >= 0);
	window(n, &rec, child);
	/* the spinner had the PU but for what others took of it: well above the 5 % level */
	fprintf(stderr, "window %.0f ms, others on the server's PU %.0f ms\n", rec.window_ms,
		rec.server_pu_other_cpu_ms);
	CU_ASSERT(rec.server_pu_other_cpu_ms > 0.25 * rec.window_ms);
	CU_ASSERT(rec.server_pu_other_cpu_ms <= rec.window_ms + 20);
	member_is(&rec, "server_pu_other_cpu_ms", 1);
	run_interf_set_server_pus(n, 0); /* not known: no member */
	window(n, &rec, 0);
	CU_ASSERT(rec.server_pu_other_cpu_ms < 0);
	member_is(&rec, "server_pu_other_cpu_ms", 0);
	run_interf_free(n);
}

/* Contention in 3 of 4 restarts (every probe after their queries at 30-63 ns against a floor
 * of 10) is the host's: no restart is disturbed, host.contention says it once, and the file
 * with it reads back and passes the schema. */
TH_TEST(run_interf, host_contention_is_one_finding)
{
	static const double after[4] = {30, 41, 60, 12};
	struct res_file *res = res_file_new();
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	json_object_set_new(res->host, "memory_probe",
			    json_pack("{s:i, s:f, s:i, s:[f, f, f]}", "ring_bytes", 4 << 20,
				      "floor_ns", 10.0, "calibration_probes", 3, "calibration_ns",
				      10.0, 11.0, 35.0));
	for (int q = 0; q < 4; q++) {
		char id[8];
		snprintf(id, sizeof(id), "Q%d", q + 1);
		struct res_query *rq = res_file_add_query(res, id, SHA_A);
		for (int r = 0; r < 4; r++)
			add_entry(
			    rq, r,
			    json_pack("{s:f, s:f, s:f, s:f, s:n, s:n, s:i, s:i, s:i, s:f, s:f}",
				      "window_ms", 500.0, "other_cpu_ms", 0.0, "steal_ms", 0.0,
				      "server_cpu_ms", 400.0, "query_thread_cpu_ms",
				      "server_rest_cpu_ms", "voluntary_ctxt_switches", 10,
				      "involuntary_ctxt_switches", 2, "major_faults", 0,
				      "memory_probe_before_ns", after[r], "memory_probe_after_ns",
				      after[r] + q));
	}
	struct res_interf_restart *r;
	size_t n;
	CU_ASSERT_EQUAL_FATAL(res_interf_restarts(res, &r, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	for (int i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(r[i].level, i < 3 ? (unsigned)RES_INTERF_MEMORY : 0u);
		CU_ASSERT_EQUAL(r[i].causes, 0);
	}
	free(r);
	struct res_interf_host h;
	char text[256];
	CU_ASSERT_EQUAL_FATAL(res_interf_host(&h, res), 0);
	CU_ASSERT_EQUAL(h.causes, RES_INTERF_MEMORY);
	CU_ASSERT_EQUAL(h.at_level[2], 3);
	/* the 16 probes after: 30-33, 41-44, 60-63, 12-15; median (33 + 41) / 2 */
	CU_ASSERT_DOUBLE_EQUAL(h.probe_median_ns, 37.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(h.median_share[2], 1.0, 1e-12);
	CU_ASSERT_EQUAL(res_interf_host_text(text, sizeof(text), &h), 1);
	CU_ASSERT_STRING_EQUAL(text, "memory contention in 3 of 4 restarts (probe median "
				     "3.7\u00d7 its floor)");
	/* written by the runner's update, read back, valid */
	json_object_set_new(res->plan, "restarts", json_integer(4));
	json_object_set_new(res->dataset, "scale_factor", json_real(0.01));
	CU_ASSERT_EQUAL_FATAL(run_interf_update(res), 0);
	json_t *mem = json_object_get(json_object_get(res->host, "contention"), "memory");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(mem, "restarts")), 3);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(mem, "of")), 4);
	char *dump = res_file_dumps(res);
	struct res_file *back = NULL;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL(res_file_parse(&back, dump, strlen(dump), "h.json", &err), 0);
	CU_ASSERT_EQUAL(res_interf_line(back, text, sizeof(text)), 0);
	res_file_free(back);
	/* a contention entry the reader does not know is refused */
	json_object_set_new(
	    json_object_get(res->host, "contention"), "disk",
	    json_pack("{s:i, s:i, s:f}", "restarts", 1, "of", 4, "median_share", 0.5));
	free(dump);
	dump = res_file_dumps(res);
	CU_ASSERT_EQUAL(res_file_parse(&back, dump, strlen(dump), "h.json", &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "$.host.contention"));
	free(dump);
	res_file_free(res);
}

TH_MAIN(run_interf)
