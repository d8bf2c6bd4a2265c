/* SPDX-License-Identifier: MIT */
/* The process-wide registry of started servers: stopped on a signal or at exit. */
#include "server/srv_int.h"
#include "base/sigchain.h"
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

/* ---- the process-wide registry of started servers (signal and atexit path) ----
 * One of the module's two global tables (the other: the instance locks): the pids of servers
 * (and initializers) this process started and has not stopped or detached, so a signal or
 * exit() can stop them. */

#define REG_MAX 32
static volatile pid_t reg_pids[REG_MAX];
static volatile pid_t reg_owner[REG_MAX]; /* a forked child that exits must not stop them */
static pthread_once_t reg_once = PTHREAD_ONCE_INIT;

void srv_sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

void srv_stop_registered(void)
{
	int saved = errno;
	pid_t self = getpid();
	for (int i = 0; i < REG_MAX; i++)
		if (reg_owner[i] != self)
			reg_pids[i] = 0; /* inherited over fork: the parent stops them */
	/* each entry leads its own process group (setsid/setpgid): the initializer's children too
	 */
	for (int i = 0; i < REG_MAX; i++)
		if (reg_pids[i] > 0)
			kill(-reg_pids[i], SIGTERM);
	for (int waited = 0; waited < 300; waited++) { /* 30 s */
		int left = 0;
		for (int i = 0; i < REG_MAX; i++) {
			pid_t p = reg_pids[i];
			if (p <= 0)
				continue;
			if (waitpid(p, NULL, WNOHANG) == p || (kill(p, 0) < 0 && errno == ESRCH))
				reg_pids[i] = 0;
			else
				left++;
		}
		if (!left)
			break;
		srv_sleep_ms(100);
	}
	for (int i = 0; i < REG_MAX; i++) {
		pid_t p = reg_pids[i];
		if (p > 0) {
			kill(-p, SIGKILL);
			waitpid(p, NULL, 0);
			reg_pids[i] = 0;
		}
	}
	errno = saved;
}

/* On the first server: SIGINT and SIGTERM stop the registered servers and exit 130, unless the
 * command pushed a handler of its own (a stop flag lets it finish its step; run's exit handler
 * runs this cleanup too). */
static void reg_install(void)
{
	sigchain_cleanup_add(srv_stop_registered);
	if (sigchain_is_default(SIGINT))
		sigchain_push(SIGINT, sigchain_exit_handler);
	if (sigchain_is_default(SIGTERM))
		sigchain_push(SIGTERM, sigchain_exit_handler);
	atexit(srv_stop_registered);
}

void srv_reg_add(pid_t pid)
{
	pthread_once(&reg_once, reg_install);
	for (int i = 0; i < REG_MAX; i++)
		if (reg_pids[i] <= 0) {
			reg_owner[i] = getpid();
			reg_pids[i] = pid;
			return;
		}
}

void srv_reg_remove(pid_t pid)
{
	for (int i = 0; i < REG_MAX; i++)
		if (reg_pids[i] == pid)
			reg_pids[i] = 0;
}
