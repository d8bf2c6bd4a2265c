/* SPDX-License-Identifier: MIT */
/* `stabilize`: an interleaved A/A experiment per candidate stabilizer (docs/stability.md). Each
 * restart is one `dbt3stab run --restarts 1` of a candidate; the candidates take turns restart
 * by restart, in an order rotated every round, so drift favours none. */
#ifndef DBT3_RUN_STABILIZE_H
#define DBT3_RUN_STABILIZE_H
#include "base/util.h"
#include <jansson.h>
#include <signal.h>

#define RUN_STAB_MAX_CANDS 16
#define RUN_STAB_MAX_ROUNDS 200
/* Rounds without --rounds or --budget: 6, so that the permutation test's smallest p, 1/252,
 * is below 0.05 over the 11 candidates a host like this one measures (docs/stability.md). */
#define RUN_STAB_DEFAULT_ROUNDS 6

/* One candidate setting: run options (and for some a host change or an environment). */
struct run_stab_cand {
	const char *name;
	const char *what;    /* one line for the table */
	const char *args[6]; /* extra `run` arguments, NULL-terminated */
	int thp_never;	     /* host: transparent huge pages "never" during its restarts */
	const char *preload; /* LD_PRELOAD for its server, or NULL */
	int available;
	char why[160];	  /* why not available */
	char arg_buf[64]; /* storage of a computed argument (server-2pu's PU list) */
};

struct run_stab_opts {
	const char *binary; /* dbt3stab to run */
	const char *dir;    /* output directory: DIR/<candidate>/rNNN.json */
	double scale;
	const char *queries; /* --queries value or NULL (all) */
	const char *datadir; /* instance directory or NULL (default) */
	const char *port;    /* or NULL */
	int warmup, runs;
	int rounds;	    /* 0: as many as the budget allows (at least 3) */
	double budget_s;    /* 0: no budget (rounds, default RUN_STAB_DEFAULT_ROUNDS) */
	double alpha;	    /* of the variance-ratio CIs (0.05) */
	int keep_disturbed; /* analyse disturbed restarts too (default: left out, counted) */
	const volatile sig_atomic_t *stop; /* set by a signal handler: finish the restart, stop */
	void (*event)(void *arg, const char *msg);
	void *arg;
};

/* DIR/<candidate>/rNNN.<ext>: the file of one round's restart of candidate c. */
void run_stab_result_path(char *out, size_t len, const struct run_stab_opts *o,
			  const struct run_stab_cand *c, int round, const char *ext);

/* The known candidates, availability checked on this host; *n set. */
void run_stab_candidates(struct run_stab_cand out[RUN_STAB_MAX_CANDS], int *n);

/* Keeps only the candidates named in list ("default" is always kept); -1 on an unknown name. */
int run_stab_select(struct run_stab_cand *c, int *n, const char *list, struct errbuf *err);

/* Runs the experiment and returns the analysis as JSON (docs/stability.md, "--json"); THP is
 * restored after every restart that changed it, also when *stop is set. The instance lock is
 * held from before the first restart to after the last, and passed to each restart's `run`
 * (srv_lock_pass). NULL on failure (an instance in use among them); a directory that already
 * holds an experiment is refused before anything runs. */
json_t *run_stab_experiment(struct run_stab_cand *c, int n, const struct run_stab_opts *o,
			    struct errbuf *err);

/* -1 when o->dir already holds an experiment (its default's first restart): nothing measured
 * is overwritten. */
int run_stab_dir_unused(const struct run_stab_cand *c, const struct run_stab_opts *o,
			struct errbuf *err);

/* The analysis of the result files already in o->dir (no measuring): for --analyze. */
json_t *run_stab_analyze(const struct run_stab_cand *c, int n, const struct run_stab_opts *o,
			 struct errbuf *err);

/* The profile of the recommended settings: {"format": "dbt3stab-profile", "format_version": 1,
 * "settings": [...], "run_args": [...], "preload": str|null, "thp": "never"|null,
 * "measured": {...}}. */
json_t *run_stab_profile(const struct run_stab_cand *c, int n, json_t *analysis);

/* Reads a profile file: its run_args appended to *args (malloc'd strings; caller frees), its
 * preload (or NULL) and its settings. */
int run_stab_profile_read(const char *path, json_t **out, struct errbuf *err);

/* `run --profile FILE`: a new argv with the profile's run_args after argv[0] (the command
 * line's own options come later and win) and --profile FILE removed; *out_profile what to
 * record (plan.profile), whose "preload" the caller gives the server (srv_opts.preload, after
 * run_preload_check); nothing is set in this process's environment. Nothing to do
 * (0, *out_argv NULL) without --profile. The caller frees *out_argv (not its strings) and
 * decrefs *out_profile, which owns the strings. */
int run_stab_profile_argv(int argc, char **argv, int *out_argc, char ***out_argv,
			  json_t **out_profile, struct errbuf *err);

/* A preload for the server (run --preload, a profile's preload), which the server's user
 * loads: an absolute path to a regular file which, links resolved, and every directory above it
 * are owned by root or this user and writable by no one else (a sticky directory excepted).
 * out: the resolved path, what the server is given. 0, or -1 with one line. */
int run_preload_check(char *out, size_t len, const char *path, struct errbuf *err);

#endif
