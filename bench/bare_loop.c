/* SPDX-License-Identifier: MIT */
/* The runner's own cost per execution: a bare mysql_real_query loop against run_exec (what
 * 'dbt3stab run' calls per execution) on a trivial query, interleaved in rounds.
 * usage: bare_loop CLIENT_CNF [N [ROUNDS [SQL]]]   (built and run by bench/runner-overhead.sh;
 * CLIENT_CNF: the instance's DIR/client.cnf, its account, password and socket) */
#include "base/util.h"
#include "runner/run_cpu.h"
#include "runner/run_exec.h"
#include "runner/run_interf.h"
#include <math.h>
#include "bench/bench_mysql.h"
#include <mysql.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum mode { BARE, EXEC, EXEC_CPU, EXEC_CPU_WATCH, EXEC_NOISE, NMODES };
static const char *const mode_names[NMODES] = {
    "bare mysql_real_query loop", "run_exec", "run_exec + server CPU time",
    "run_exec + server CPU + timeout watchdog", "... + interference every 18 executions"};

/* run samples interference (runner/run_interf.h) before the first and after the last execution
 * of a query in a restart: with the fixed protocol's 8 warm-up + 10 runs, once per 18. */
#define NOISE_EVERY 18

static long server_pid(MYSQL *m)
{
	long pid = -1;
	if (mysql_query(m, "SELECT @@pid_file") == 0) {
		MYSQL_RES *r = mysql_store_result(m);
		MYSQL_ROW row = r ? mysql_fetch_row(r) : NULL;
		FILE *f = row && row[0] ? fopen(row[0], "r") : NULL;
		if (f) {
			if (fscanf(f, "%ld", &pid) != 1)
				pid = -1;
			fclose(f);
		}
		mysql_free_result(r);
	}
	return pid;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bare_loop CLIENT_CNF [N [ROUNDS [SQL]]]\n");
		return 2;
	}
	const char *cnf = argv[1];
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : 20000;
	long rounds = argc > 3 ? strtol(argv[3], NULL, 10) : 5;
	const char *sql = argc > 4 ? argv[4] : "SELECT 1";
	if (n < 1 || rounds < 1 || rounds > 100)
		return 2;
	MYSQL *m = bench_connect("bare_loop", cnf);
	struct errbuf err;
	struct run_cpu *cpu = NULL;
	struct run_watch *watch = NULL;
	long pid = server_pid(m);
	if (pid <= 0 || run_cpu_new(&cpu, (pid_t)pid, RUN_CPU_AUTO, &err) < 0) {
		fprintf(stderr, "bare_loop: cannot sample the server's CPU (pid %ld)\n", pid);
		return 1;
	}
	if (run_watch_new(&watch, bench_connect("bare_loop", cnf), 3600ull * 1000000000ull, &err) <
	    0) {
		fprintf(stderr, "bare_loop: %s\n", err.msg);
		return 1;
	}
	struct run_interf *noise = NULL;
	struct run_interf_rec rec;
	if (run_interf_new(&noise, (pid_t)pid, run_interf_query_tid(m, 0), NULL, 0, &err) < 0) {
		fprintf(stderr, "bare_loop: %s\n", err.msg);
		return 1;
	}
	double loop_us[NMODES][100], timed_us[NMODES][100];
	/* EXEC_NOISE: the execution right after a sample, the other ones, one sample */
	double first_us[100], rest_us[100], sample_us[100];
	for (long r = 0; r < rounds; r++) {
		for (int k = 0; k < NMODES; k++) {
			int md = (int)((k + r) % NMODES); /* rotate: no mode always goes first */
			uint64_t timed = 0, t0 = util_now_ns(), first = 0, n_first = 0,
				 sample_ns = 0, n_samples = 0;
			for (long i = 0; i < n; i++) {
				if (md == BARE) {
					uint64_t a = util_now_ns();
					if (mysql_real_query(m, sql, (unsigned long)strlen(sql)) !=
					    0)
						return 1;
					MYSQL_RES *res = mysql_use_result(m);
					while (res && mysql_fetch_row(res))
						;
					mysql_free_result(res);
					timed += util_now_ns() - a;
					continue;
				}
				struct run_exec_result x;
				if (md == EXEC_NOISE && i % NOISE_EVERY == 0) {
					uint64_t s0 = util_now_ns();
					if ((i > 0 && run_interf_end(noise, &rec, &err) < 0) ||
					    run_interf_begin(noise, &err) < 0) {
						fprintf(stderr, "bare_loop: %s\n", err.msg);
						return 1;
					}
					sample_ns += util_now_ns() - s0;
					n_samples += 1 + (i > 0);
				}
				if (run_exec(m, sql, 0, md >= EXEC_CPU ? cpu : NULL,
					     md >= EXEC_CPU_WATCH ? watch : NULL, NULL, &x,
					     &err) != RUN_EXEC_OK) {
					fprintf(stderr, "bare_loop: %s\n", err.msg);
					return 1;
				}
				timed += x.wall_ns;
				if (md == EXEC_NOISE && i % NOISE_EVERY == 0) {
					first += x.wall_ns;
					n_first++;
				}
			}
			if (md == EXEC_NOISE) {
				first_us[r] = (double)first / 1e3 / (double)n_first;
				rest_us[r] = n > (long)n_first ? (double)(timed - first) / 1e3 /
								     (double)(n - (long)n_first)
							       : NAN;
			}
			uint64_t s0 = util_now_ns();
			if (md == EXEC_NOISE && run_interf_end(noise, &rec, &err) < 0) {
				fprintf(stderr, "bare_loop: %s\n", err.msg);
				return 1;
			}
			if (md == EXEC_NOISE)
				sample_us[r] = (double)(sample_ns + util_now_ns() - s0) / 1e3 /
					       (double)(n_samples + 1);
			loop_us[md][r] = (double)(util_now_ns() - t0) / 1e3 / (double)n;
			timed_us[md][r] = (double)timed / 1e3 / (double)n;
		}
	}
	printf("server CPU time from %s\n", run_cpu_source_name(cpu));
	printf("%ld rounds x %ld executions of \"%s\" per mode, modes interleaved and rotated; "
	       "medians:\n",
	       rounds, n, sql);
	printf("%-42s %12s %14s %10s\n", "mode", "us/exec", "timed us/exec", "ratio");
	double bare = 0;
	for (int md = 0; md < NMODES; md++) {
		qsort(loop_us[md], (size_t)rounds, sizeof(double), bench_cmp_double);
		qsort(timed_us[md], (size_t)rounds, sizeof(double), bench_cmp_double);
		double l = loop_us[md][rounds / 2], t = timed_us[md][rounds / 2];
		if (md == BARE)
			bare = l;
		printf("%-42s %12.2f %14.2f %10.3f\n", mode_names[md], l, t, l / bare);
	}
	printf("overhead of the full runner path: %+.2f us per execution (%+.2f us inside the "
	       "timed window)\n",
	       loop_us[EXEC_NOISE][rounds / 2] - loop_us[BARE][rounds / 2],
	       timed_us[EXEC_NOISE][rounds / 2] - timed_us[BARE][rounds / 2]);
	printf("of which interference sampling: %+.2f us per execution (%+.2f us inside the "
	       "timed window)\n",
	       loop_us[EXEC_NOISE][rounds / 2] - loop_us[EXEC_CPU_WATCH][rounds / 2],
	       timed_us[EXEC_NOISE][rounds / 2] - timed_us[EXEC_CPU_WATCH][rounds / 2]);
	qsort(sample_us, (size_t)rounds, sizeof(double), bench_cmp_double);
	printf("one interference sample (run_interf_begin or run_interf_end): %.2f us\n",
	       sample_us[rounds / 2]);
	qsort(first_us, (size_t)rounds, sizeof(double), bench_cmp_double);
	qsort(rest_us, (size_t)rounds, sizeof(double), bench_cmp_double);
	printf(
	    "timed window with sampling: %.2f us for the execution right after a sample, %.2f us "
	    "for the other %d (without sampling: %.2f us)\n",
	    first_us[rounds / 2], rest_us[rounds / 2], NOISE_EVERY - 1,
	    timed_us[EXEC_CPU_WATCH][rounds / 2]);
	run_interf_free(noise);
	run_watch_free(watch);
	run_cpu_free(cpu);
	mysql_close(m);
	return 0;
}
