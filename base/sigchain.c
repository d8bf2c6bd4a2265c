/* SPDX-License-Identifier: MIT */
/* The process's signal handlers (git's sigchain.c): a stack per signal, the stop flag, and the
 * interrupt that runs the cleanups, writes the command's note and exits 130. */
#include "base/sigchain.h"
#include "base/cli.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>

#define SIGCHAIN_NSIG 32 /* the classic signals: all the tool handles */
#define SIGCHAIN_DEPTH 4
#define SIGCHAIN_CLEANUPS 8

/* What each push replaced, per signal: only the main thread pushes and pops. */
static struct {
	struct sigaction old[SIGCHAIN_DEPTH];
	int n;
} stacks[SIGCHAIN_NSIG];

/* The state the handlers read: written before they can run, or by them. */
static volatile sig_atomic_t stop_sig;
static void (*volatile cleanups[SIGCHAIN_CLEANUPS])(void);
static volatile sig_atomic_t n_cleanups;
static volatile sigchain_note_fn note_fn;
static void *volatile note_ctx;

/* enum sigchain_set's bits and their signals, in the order they are pushed. */
static const struct {
	unsigned bit;
	int sig;
} set_sigs[] = {
    {SIGCHAIN_INT, SIGINT},
    {SIGCHAIN_TERM, SIGTERM},
    {SIGCHAIN_HUP, SIGHUP},
    {SIGCHAIN_PIPE, SIGPIPE},
};
#define N_SET_SIGS (sizeof(set_sigs) / sizeof(set_sigs[0]))

int sigchain_push(int sig, sigchain_fn fn)
{
	if (sig <= 0 || sig >= SIGCHAIN_NSIG) {
		errno = EINVAL;
		return -1;
	}
	if (stacks[sig].n >= SIGCHAIN_DEPTH) {
		errno = ENOMEM;
		return -1;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGHUP);
	if (sigaction(sig, &sa, &stacks[sig].old[stacks[sig].n]) < 0)
		return -1;
	stacks[sig].n++;
	return 0;
}

int sigchain_pop(int sig)
{
	if (sig <= 0 || sig >= SIGCHAIN_NSIG || stacks[sig].n == 0) {
		errno = EINVAL;
		return -1;
	}
	if (sigaction(sig, &stacks[sig].old[stacks[sig].n - 1], NULL) < 0)
		return -1;
	stacks[sig].n--;
	return 0;
}

int sigchain_push_set(unsigned set, sigchain_fn fn)
{
	for (size_t i = 0; i < N_SET_SIGS; i++) {
		if (!(set & set_sigs[i].bit) || sigchain_push(set_sigs[i].sig, fn) == 0)
			continue;
		int saved = errno;
		while (i-- > 0)
			if (set & set_sigs[i].bit)
				sigchain_pop(set_sigs[i].sig);
		errno = saved;
		return -1;
	}
	return 0;
}

void sigchain_pop_set(unsigned set)
{
	for (size_t i = N_SET_SIGS; i-- > 0;)
		if (set & set_sigs[i].bit)
			sigchain_pop(set_sigs[i].sig);
}

int sigchain_is_default(int sig)
{
	struct sigaction cur;
	return sigaction(sig, NULL, &cur) == 0 && cur.sa_handler == SIG_DFL;
}

void sigchain_default(unsigned set)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < N_SET_SIGS; i++)
		if (set & set_sigs[i].bit)
			sigaction(set_sigs[i].sig, &sa, NULL);
}

static void on_stop(int sig)
{
	stop_sig = sig;
}

int sigchain_push_stop(unsigned set)
{
	stop_sig = 0;
	return sigchain_push_set(set, on_stop);
}

const volatile sig_atomic_t *sigchain_stop_flag(void)
{
	return &stop_sig;
}

void sigchain_exit_handler(int sig)
{
	(void)sig;
	for (sig_atomic_t i = n_cleanups; i-- > 0;)
		cleanups[i]();
	sigchain_note_fn note = note_fn;
	const char *const *piece = note ? note(note_ctx) : NULL;
	for (; piece && *piece; piece++) {
		ssize_t w = write(STDERR_FILENO, *piece, strlen(*piece));
		(void)w;
	}
	_exit(CLI_INTERRUPTED);
}

int sigchain_push_exit(unsigned set)
{
	return sigchain_push_set(set, sigchain_exit_handler);
}

int sigchain_cleanup_add(void (*fn)(void))
{
	if (n_cleanups >= SIGCHAIN_CLEANUPS)
		return -1;
	cleanups[n_cleanups] = fn;
	n_cleanups++; /* after the slot: a handler never sees an empty one */
	return 0;
}

void sigchain_note_set(sigchain_note_fn note, void *ctx)
{
	note_fn = NULL; /* a handler never sees the new function with the old context */
	note_ctx = ctx;
	note_fn = note;
}
