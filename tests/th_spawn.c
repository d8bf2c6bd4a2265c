/* SPDX-License-Identifier: MIT */
#include "tests/th_spawn.h"
#include "base/util.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void th_sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Appends the NULL-terminated list a (may be NULL) to argv[n...]; the new count, or -1 when
 * it would pass TH_SPAWN_MAX_ARGS arguments after the program. */
static int add_args(const char **argv, int n, const char *const *a)
{
	for (; a && *a; a++) {
		if (n > TH_SPAWN_MAX_ARGS)
			return -1;
		argv[n++] = *a;
	}
	return n;
}

pid_t th_spawn(const char *log, const char *const *args, const char *const *extra)
{
	const char *argv[TH_SPAWN_MAX_ARGS + 2];
	argv[0] = DBT3_BINARY;
	int n = add_args(argv, 1, args);
	if (n >= 0)
		n = add_args(argv, n, extra);
	if (n < 0) {
		fprintf(stderr, "th_spawn: more than %d arguments\n", TH_SPAWN_MAX_ARGS);
		return -1;
	}
	argv[n] = NULL;
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		execv(DBT3_BINARY, (char *const *)argv);
		_exit(127);
	}
	return pid;
}

int th_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

int th_wait_exit(pid_t pid)
{
	int st;
	if (pid < 0)
		return -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return th_exit_code(st);
}

void th_show_log(const char *log)
{
	char *text = NULL;
	struct errbuf err;
	if (util_read_file(log, &text, NULL, &err) == 0)
		fprintf(stderr, "--- %s\n%s---\n", log, text);
	free(text);
}

int th_run_logged(const char *log, const char *const *args, const char *const *extra)
{
	int rc = th_wait_exit(th_spawn(log, args, extra));
	if (rc != 0)
		th_show_log(log);
	return rc;
}

int th_sh(char *out, size_t len, const char *fmt, ...)
{
	char cmd[16384];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	out[0] = '\0';
	if (n < 0 || (size_t)n + sizeof(" 2>&1") > sizeof(cmd))
		return -1;
	strcat(cmd, " 2>&1");
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	size_t got = fread(out, 1, len - 1, p);
	out[got] = '\0';
	char rest[4096];
	while (fread(rest, 1, sizeof(rest), p) > 0)
		;
	int st = pclose(p);
	return st < 0 ? -1 : th_exit_code(st);
}

int th_system(const char *fmt, ...)
{
	char cmd[16384];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(cmd))
		return -1;
	int st = system(cmd);
	return st == -1 ? -1 : th_exit_code(st);
}

long th_server_pid(const char *inst)
{
	char path[4300], *text = NULL;
	struct errbuf err;
	snprintf(path, sizeof(path), "%s/mysqld.pid", inst);
	if (util_read_file(path, &text, NULL, &err) < 0)
		return 0;
	long pid = strtol(text, NULL, 10);
	free(text);
	return pid > 0 ? pid : 0;
}

/* Busy milliseconds of every CPU (the "cpu" line of /proc/stat), -1 unknown. */
static double host_busy_ms(void)
{
	char line[512];
	unsigned long long v[7] = {0};
	FILE *f = fopen("/proc/stat", "r");
	if (!f)
		return -1;
	int ok = fgets(line, sizeof(line), f) != NULL &&
		 sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
			&v[4], &v[5], &v[6]) == 7;
	fclose(f);
	if (!ok)
		return -1;
	/* user nice system idle iowait irq softirq: all but idle and iowait */
	return (double)(v[0] + v[1] + v[2] + v[5] + v[6]) * 1000.0 / (double)sysconf(_SC_CLK_TCK);
}

static double own_cpu_ms(void)
{
	struct rusage self, kids;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	double s = (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec + kids.ru_utime.tv_sec +
			    kids.ru_stime.tv_sec);
	double us = (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec + kids.ru_utime.tv_usec +
			     kids.ru_stime.tv_usec);
	return s * 1000.0 + us / 1000.0;
}

void th_host_watch_begin(struct th_host_watch *w)
{
	w->busy_ms = host_busy_ms();
	w->own_ms = own_cpu_ms();
	w->wall_ms = (double)util_now_ns() / 1e6;
}

double th_host_watch_others_ms(const struct th_host_watch *w, double *out_wall_ms)
{
	double busy = host_busy_ms(), own = own_cpu_ms();
	if (out_wall_ms)
		*out_wall_ms = (double)util_now_ns() / 1e6 - w->wall_ms;
	if (busy < 0 || w->busy_ms < 0)
		return -1;
	double others = (busy - w->busy_ms) - (own - w->own_ms);
	return others > 0 ? others : 0;
}

double th_host_watch_slack_ms(void)
{
	return 2.0 * (double)sysconf(_SC_NPROCESSORS_ONLN) * 1000.0 / (double)sysconf(_SC_CLK_TCK);
}
