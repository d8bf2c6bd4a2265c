/* SPDX-License-Identifier: MIT */
/* Test-only (in dbt3_harness): the dbt3stab binary under test (DBT3_BINARY) run as a child,
 * its output in a log file or a buffer, and the waits around it. */
#ifndef DBT3_TH_SPAWN_H
#define DBT3_TH_SPAWN_H
#include "base/util.h"
#include <stddef.h>
#include <sys/types.h>

/* Arguments th_spawn passes at most (args and extra together). */
#define TH_SPAWN_MAX_ARGS 60

/* Sleeps ms milliseconds. */
void th_sleep_ms(long ms);

/* Starts DBT3_BINARY with args then extra (each NULL-terminated; extra may be NULL), stdout and
 * stderr into log (truncated first). The child's pid, or -1 when fork failed or there are more
 * than TH_SPAWN_MAX_ARGS arguments. */
pid_t th_spawn(const char *log, const char *const *args, const char *const *extra);

/* Waits for pid: its exit code, 128 + the signal that ended it, or -1. */
int th_wait_exit(pid_t pid);

/* The exit code of a status from wait() or pclose(): as th_wait_exit. */
int th_exit_code(int status);

/* Copies log to stderr between marker lines (what a failed command said). */
void th_show_log(const char *log);

/* th_spawn, then th_wait_exit; the log goes to stderr when the exit code is not 0. */
int th_run_logged(const char *log, const char *const *args, const char *const *extra);

/* Runs the shell command line fmt (printf-like) with stderr joined to stdout; up to len - 1
 * bytes of the output into out (NUL-terminated; the rest is read and dropped, so that the
 * command does not die of SIGPIPE). The exit code as th_exit_code, -1 when it could not run. */
int th_sh(char *out, size_t len, const char *fmt, ...) UTIL_PRINTF(3, 4);

/* Runs the shell command line fmt (printf-like) with system(): its exit code as th_exit_code,
 * -1 when it could not run. */
int th_system(const char *fmt, ...) UTIL_PRINTF(1, 2);

/* Other processes' CPU time on the host while this test's children run, as the test sees it
 * for itself: the busy time (user, nice, system, irq, softirq) of every CPU from /proc/stat,
 * minus the CPU time of this process and of the children it has waited for (a dbt3stab run
 * with the servers it reaped, a hog), between th_host_watch_begin (before the first child)
 * and th_host_watch_others_ms (after the last is waited for); -1 when /proc/stat cannot be
 * read. Each figure ticks at USER_HZ: th_host_watch_slack_ms is how far the two reads of
 * every CPU's counters can be off. */
struct th_host_watch {
	double busy_ms, own_ms, wall_ms;
};
void th_host_watch_begin(struct th_host_watch *w);
double th_host_watch_others_ms(const struct th_host_watch *w, double *out_wall_ms);
double th_host_watch_slack_ms(void);

/* The pid in the instance directory's mysqld.pid; 0 when there is none. */
long th_server_pid(const char *inst);

#endif
