/* SPDX-License-Identifier: MIT */
/* The run protocol: per restart start the (pinned) server, per query warm-up then measured
 * executions in one connection, result and plan fingerprints, stop, checkpoint. Variants of the
 * server are interleaved restart by restart; an interrupted run is completed with resume. */
#ifndef DBT3_RUN_H
#define DBT3_RUN_H
#include "base/util.h"
#include "pinning/pin.h"
#include "result/res.h"
#include "runner/run_plan.h"
#include "server/srv.h"
#include <signal.h>
#include <stdint.h>

/* The ids of the refresh functions' entries in a result file (run --refresh). */
#define RUN_RF1 "RF1"
#define RUN_RF2 "RF2"
/* run --streams S (the throughput test): entries T:Q1 ... T:Q22 (one time per stream), T:stream
 * (each stream's wall time) and, with --refresh, T:RF1 and T:RF2 (one time per pair). */
#define RUN_STREAMS_MAX 40 /* TPC-H's query streams 1 ... 40 (Appendix A) */
#define RUN_T_PREFIX "T:"
#define RUN_T_STREAM "T:stream"
#define RUN_T_RF1 "T:RF1"
#define RUN_T_RF2 "T:RF2"

/* A server build or setting to measure: --variant NAME:mysqld=PATH[,option=value...]. */
struct run_variant {
	char *name;
	char *mysqld;		/* server binary, NULL for the default */
	struct srv_kv *options; /* server options of this variant, in order */
	size_t n_options;
	char *spec; /* the text given on the command line */
};

#define RUN_MAX_VARIANT_NAME 64 /* a variant name: also a file name, NAME.json */

/* Parses one --variant value into out (release with run_variant_release): a name that is a safe
 * file name, then comma-separated items; a value with commas is double-quoted
 * (sql_mode="A,B", with \" and \\ inside). A line break, '!' or control character anywhere is
 * refused (they would reach the server's option file). */
int run_variant_parse(struct run_variant *out, const char *spec, struct errbuf *err);
void run_variant_release(struct run_variant *v);

/* run --resume takes the binaries from its own command line, never from the file: the given
 * --variant values must be the file's plan.variant_spec values (file, nf), each once, as the
 * same text. -1 with the variant that differs, is missing or is not in the file. */
int run_variant_resume_check(const char *const *file, int nf, const char *const *given, int ng,
			     struct errbuf *err);

/* A server binary given as a path (it has a '/') must be an executable regular file; a bare name
 * is looked up on PATH when the server starts. what names it in the message ("variant 'a':
 * mysqld"). */
int run_binary_check(const char *what, const char *path, struct errbuf *err);

/* What the protocol reports while it runs (the command layer displays it). */
struct run_progress {
	const char *variant;   /* NULL without variants */
	int restart, restarts; /* 0-based restart, total */
	const char *query;     /* "Q7", NULL between queries */
	int qpos, nq;	       /* position of the query in this restart, 0-based, and count */
	int run, runs;	       /* execution within the query (warm-up included), 1-based */
	uint64_t elapsed_ns;
	double eta_s; /* NaN while unknown */
};

struct run_hooks {
	void (*progress)(void *arg, const struct run_progress *p);
	/* Notable events: a crash, a timeout, a restart done, a verification warning. */
	void (*event)(void *arg, const char *msg);
	void *arg;
};

/* One output of a run: a variant (or the only server), its options and its result file. */
struct run_target {
	const char *name;	       /* variant name or NULL */
	const char *spec;	       /* the --variant text or NULL */
	struct srv_opts *opts;	       /* server options of this target (borrowed) */
	char *out_path;		       /* result file path (borrowed) */
	struct res_file *res;	       /* filled by run_execute; may be pre-filled by resume */
	volatile sig_atomic_t written; /* 1: a first write of out_path began, 2: done */
};

/* Outcome beyond 0/-1. */
enum run_error {
	RUN_E_SERVER = -2, /* the server failed to start or crashed more than max_crashes */
	RUN_E_NODATA = -3, /* no complete load of the plan's scale factor (or other data) */
	RUN_E_REFUSED = -4, /* side by side cannot run here (disk space, RAM for two pools) */
};

/* Runs the plan on the targets (interleaved restart by restart), writing each target's result
 * file after every query (a checkpoint) and at the end with finished_at. pin may be NULL
 * (unpinned). Returns 0, -1 (err), or RUN_E_SERVER (the files keep what was measured). */
int run_execute(const struct run_plan *plan, struct run_target *targets, int n_targets,
		struct pin_ctx *pin, const struct run_hooks *hooks, struct errbuf *err);

/* Host section of the result: name, cpu_model, kernel, topology, governor, turbo, aslr. */
json_t *run_host_json(const char *topology);

#endif
