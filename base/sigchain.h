/* SPDX-License-Identifier: MIT */
/* The process's signal handlers in one place (git's sigchain.c): a stack of handlers per signal,
 * the stop flag of the commands that finish their step first, and the interrupt that runs the
 * registered cleanups, writes the command's note and exits 130. Only this file calls sigaction. */
#ifndef DBT3_SIGCHAIN_H
#define DBT3_SIGCHAIN_H
#include <signal.h>

/* Sets of signals for the _set functions. */
enum sigchain_set {
	SIGCHAIN_INT = 1 << 0,
	SIGCHAIN_TERM = 1 << 1,
	SIGCHAIN_HUP = 1 << 2,			      /* the terminal closed */
	SIGCHAIN_PIPE = 1 << 3,			      /* only for sigchain_default */
	SIGCHAIN_STOP = SIGCHAIN_INT | SIGCHAIN_TERM, /* what interrupts a command */
};

/* A handler: only async-signal-safe calls (signal-safety(7)) and volatile sig_atomic_t state. */
typedef void (*sigchain_fn)(int sig);

/* Installs fn (or SIG_DFL, SIG_IGN) for sig, with SIGINT, SIGTERM and SIGHUP blocked while it
 * runs, and keeps the handler it replaces for sigchain_pop. At most 4 pushes per signal below
 * 32. 0, or -1 with errno (EINVAL: no such signal; ENOMEM: too many pushes). */
int sigchain_push(int sig, sigchain_fn fn);

/* Restores what the last sigchain_push(sig) replaced. 0, or -1 with errno (EINVAL: none). */
int sigchain_pop(int sig);

/* sigchain_push and sigchain_pop on each signal of set (enum sigchain_set); a push that fails
 * halfway pops what it pushed. */
int sigchain_push_set(unsigned set, sigchain_fn fn);
void sigchain_pop_set(unsigned set);

/* Nonzero when sig has its default disposition (nobody installed a handler or SIG_IGN). */
int sigchain_is_default(int sig);

/* Sets the signals of set back to their default disposition and forgets nothing: for a child
 * between fork and exec (async-signal-safe). */
void sigchain_default(unsigned set);

/* Pushes, on each signal of set, the handler that only notes the signal, and clears the note: a
 * command that stops between steps polls *sigchain_stop_flag() (the last signal's number, 0
 * before one came) and pops the set when done. */
int sigchain_push_stop(unsigned set);
const volatile sig_atomic_t *sigchain_stop_flag(void);

/* The interrupt that ends the process: runs the cleanups (the newest first), writes the note to
 * standard error and exits CLI_INTERRUPTED (130). sigchain_push_exit pushes it on set. */
void sigchain_exit_handler(int sig);
int sigchain_push_exit(unsigned set);

/* Adds a cleanup the exit handler runs, async-signal-safe itself (the server registry's
 * srv_stop_registered). At most 8; 0, or -1 when full. */
int sigchain_cleanup_add(void (*fn)(void));

/* The command's note, which the exit handler writes to standard error: note(ctx) returns its
 * pieces, written one after the other up to a NULL (NULL: nothing), so that a note made of a
 * path and a command line needs no buffer of their joined size. It runs in the handler, so it
 * only reads what was prepared beforehand. note NULL removes it. */
typedef const char *const *(*sigchain_note_fn)(void *ctx);
void sigchain_note_set(sigchain_note_fn note, void *ctx);

#endif
