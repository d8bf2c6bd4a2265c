/* SPDX-License-Identifier: MIT */
/* Instructions per execution (docs/work.md, "Instructions"): Valgrind callgrind's count inside
 * the server's command dispatch (run --instructions), or the hardware counters of the server
 * thread that runs the session's queries where the host has a PMU. Read from outside, around
 * each execution, never inside its timed window. */
#ifndef DBT3_RUN_INSTR_H
#define DBT3_RUN_INSTR_H
#include "base/util.h"
#include "server/srv.h"
#include <mysql.h>
#include <stddef.h>

#define RUN_INSTR_TOL 0.002 /* warm-up: two consecutive counts within 0.2% of each other */

enum run_instr_source {
	RUN_INSTR_NONE = 0,
	RUN_INSTR_CALLGRIND = 1 << 0, /* the server under Valgrind (srv_opts.valgrind) */
	RUN_INSTR_PMU = 1 << 1,	      /* perf_event_open on the query thread */
};

/* The names in the restart's "instructions" record. */
#define RUN_INSTR_CALLGRIND_NAME "callgrind_ir"
#define RUN_INSTR_PMU_INSTRUCTIONS "pmu_instructions"
#define RUN_INSTR_PMU_CYCLES "pmu_cycles"

/* Sums the per-thread totals of a callgrind "status internal" answer (the lines
 * "events-TID: N ..." after "events: Ir ..."; the first event, Ir). -1 (err) when the text has
 * no "events:" line naming Ir first, no thread total, or a count that is not a number. */
int run_instr_parse_status(const char *text, long long *out, struct errbuf *err);

/* The warm-up rule on counts: 1 when the last two of v[0..n) differ by at most tol of the
 * earlier one (n >= 2), else 0. */
int run_instr_steady(const long long *v, size_t n, double tol);

/* The counts of one session. */
struct run_instr;

/* Opens the counting of the session m of server s: callgrind (zeroes the counts once to see
 * that vgdb answers), or the PMU counters of m's server thread (found by
 * information_schema.PROCESSLIST.TID, MariaDB). -1 with one line when it cannot. */
int run_instr_open(struct run_instr **out, enum run_instr_source src, struct srv *s, MYSQL *m,
		   struct errbuf *err);

/* Around one execution: before zeroes (callgrind) or reads the counters (PMU); after reads
 * what the execution counted into out[0] (instructions) and out[1] (cycles; -1 without). */
int run_instr_before(struct run_instr *in, struct errbuf *err);
int run_instr_after(struct run_instr *in, long long out[2], struct errbuf *err);

enum run_instr_source run_instr_source_of(const struct run_instr *in);

/* NULL is fine. */
void run_instr_free(struct run_instr *in);

/* The PMU's counters of thread tid (instructions and cycles, user mode, one group): the group
 * leader's fd, or -1 with err naming why (e.g. "no hardware PMU": perf_event_open's ENOENT). */
int run_instr_pmu_open(pid_t tid, int *out_fd_cycles, struct errbuf *err);

/* Reads the group opened by run_instr_pmu_open: instructions and cycles so far. */
int run_instr_pmu_read(int fd, long long out[2], struct errbuf *err);

#endif
