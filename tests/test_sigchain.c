/* SPDX-License-Identifier: MIT */
/* base/sigchain.c: handlers pushed, raised with raise() and popped; the stop flag; the exit
 * handler's cleanups, note and exit code, seen from a forked child. */
#include "base/sigchain.h"
#include "tests/harness.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t got_a, got_b;

static void on_a(int sig)
{
	got_a = sig;
}

static void on_b(int sig)
{
	got_b = sig;
}

TH_TEST(sigchain, pushed_handler_runs_and_pop_restores_the_default)
{
	CU_ASSERT_TRUE_FATAL(sigchain_is_default(SIGUSR1));
	got_a = 0;
	CU_ASSERT_EQUAL(sigchain_push(SIGUSR1, on_a), 0);
	CU_ASSERT_FALSE(sigchain_is_default(SIGUSR1));
	CU_ASSERT_EQUAL(raise(SIGUSR1), 0);
	CU_ASSERT_EQUAL(got_a, SIGUSR1);
	CU_ASSERT_EQUAL(sigchain_pop(SIGUSR1), 0);
	CU_ASSERT_TRUE(sigchain_is_default(SIGUSR1));
}

TH_TEST(sigchain, pops_restore_in_reverse_order)
{
	CU_ASSERT_EQUAL_FATAL(sigchain_push(SIGUSR2, on_a), 0);
	CU_ASSERT_EQUAL_FATAL(sigchain_push(SIGUSR2, on_b), 0);
	CU_ASSERT_EQUAL_FATAL(sigchain_push(SIGUSR2, SIG_IGN), 0);
	got_a = got_b = 0;
	raise(SIGUSR2); /* ignored: the process lives on */
	CU_ASSERT_EQUAL(got_a + got_b, 0);
	CU_ASSERT_EQUAL(sigchain_pop(SIGUSR2), 0);
	raise(SIGUSR2);
	CU_ASSERT_EQUAL(got_b, SIGUSR2);
	CU_ASSERT_EQUAL(got_a, 0);
	CU_ASSERT_EQUAL(sigchain_pop(SIGUSR2), 0);
	got_b = 0;
	raise(SIGUSR2);
	CU_ASSERT_EQUAL(got_a, SIGUSR2);
	CU_ASSERT_EQUAL(got_b, 0);
	CU_ASSERT_EQUAL(sigchain_pop(SIGUSR2), 0);
	CU_ASSERT_TRUE(sigchain_is_default(SIGUSR2));
}

TH_TEST(sigchain, stop_flag_holds_the_last_signal)
{
	CU_ASSERT_EQUAL_FATAL(sigchain_push_stop(SIGCHAIN_STOP), 0);
	const volatile sig_atomic_t *stop = sigchain_stop_flag();
	CU_ASSERT_EQUAL(*stop, 0);
	raise(SIGTERM);
	CU_ASSERT_EQUAL(*stop, SIGTERM);
	raise(SIGINT);
	CU_ASSERT_EQUAL(*stop, SIGINT);
	CU_ASSERT_TRUE(sigchain_is_default(SIGHUP)); /* not in the set */
	sigchain_pop_set(SIGCHAIN_STOP);
	CU_ASSERT_TRUE(sigchain_is_default(SIGINT));
	CU_ASSERT_TRUE(sigchain_is_default(SIGTERM));
	CU_ASSERT_EQUAL_FATAL(sigchain_push_stop(SIGCHAIN_INT), 0);
	CU_ASSERT_EQUAL(*stop, 0); /* a new push clears it */
	sigchain_pop_set(SIGCHAIN_INT);
}

TH_TEST(sigchain, refuses_bad_signals_and_a_full_stack)
{
	errno = 0;
	CU_ASSERT_EQUAL(sigchain_push(0, on_a), -1);
	CU_ASSERT_EQUAL(errno, EINVAL);
	CU_ASSERT_EQUAL(sigchain_push(64, on_a), -1);
	CU_ASSERT_EQUAL(sigchain_pop(SIGUSR1), -1); /* nothing pushed */
	CU_ASSERT_EQUAL(errno, EINVAL);
	for (int i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(sigchain_push(SIGTERM, on_a), 0);
	errno = 0;
	CU_ASSERT_EQUAL(sigchain_push(SIGTERM, on_b), -1);
	CU_ASSERT_EQUAL(errno, ENOMEM);
	/* a set that fails halfway pops what it pushed: SIGINT is back to the default */
	CU_ASSERT_EQUAL(sigchain_push_set(SIGCHAIN_STOP, on_b), -1);
	CU_ASSERT_TRUE(sigchain_is_default(SIGINT));
	for (int i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(sigchain_pop(SIGTERM), 0);
	CU_ASSERT_TRUE(sigchain_is_default(SIGTERM));
}

TH_TEST(sigchain, default_resets_without_forgetting)
{
	CU_ASSERT_EQUAL_FATAL(sigchain_push(SIGTERM, on_a), 0);
	CU_ASSERT_EQUAL_FATAL(sigchain_push(SIGPIPE, SIG_IGN), 0);
	sigchain_default(SIGCHAIN_TERM | SIGCHAIN_PIPE);
	CU_ASSERT_TRUE(sigchain_is_default(SIGTERM));
	CU_ASSERT_TRUE(sigchain_is_default(SIGPIPE));
	CU_ASSERT_EQUAL(sigchain_pop(SIGTERM), 0);
	CU_ASSERT_EQUAL(sigchain_pop(SIGPIPE), 0);
}

static void cleanup_first(void)
{
	ssize_t w = write(STDERR_FILENO, "first cleanup\n", 14);
	(void)w;
}

static void cleanup_second(void)
{
	ssize_t w = write(STDERR_FILENO, "second cleanup\n", 15);
	(void)w;
}

static const char *const *note(void *ctx)
{
	static const char *const pieces[] = {"the ", "note", "\n", NULL};
	(void)ctx;
	return pieces;
}

/* Runs the exit handler in a child on sig: its exit status and standard error in out. */
static int exit_child(int sig, int with_note, char *out, size_t len)
{
	int fds[2];
	if (pipe(fds) < 0)
		return -1;
	pid_t child = fork();
	if (child == 0) {
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		sigchain_cleanup_add(cleanup_first);
		sigchain_cleanup_add(cleanup_second);
		sigchain_note_set(with_note ? note : NULL, NULL);
		if (sigchain_push_exit(SIGCHAIN_STOP | SIGCHAIN_HUP) < 0)
			_exit(3);
		raise(sig);
		_exit(0); /* not reached: the handler exits */
	}
	close(fds[1]);
	size_t n = 0;
	ssize_t got;
	while (n + 1 < len && (got = read(fds[0], out + n, len - 1 - n)) > 0)
		n += (size_t)got;
	out[n] = '\0';
	close(fds[0]);
	int st = 0;
	if (child < 0 || waitpid(child, &st, 0) != child)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1000 + WTERMSIG(st);
}

TH_TEST(sigchain, exit_handler_runs_cleanups_newest_first_then_the_note)
{
	char out[256];
	CU_ASSERT_EQUAL(exit_child(SIGHUP, 1, out, sizeof(out)), 130);
	CU_ASSERT_STRING_EQUAL(out, "second cleanup\nfirst cleanup\nthe note\n");
	CU_ASSERT_EQUAL(exit_child(SIGTERM, 0, out, sizeof(out)), 130);
	CU_ASSERT_STRING_EQUAL(out, "second cleanup\nfirst cleanup\n");
	CU_ASSERT_TRUE(sigchain_is_default(SIGHUP)); /* the parent's handlers are untouched */
}

TH_MAIN(sigchain)
