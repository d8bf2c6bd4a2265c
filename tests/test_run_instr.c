/* SPDX-License-Identifier: MIT */
/* Instruction counts (runner/run_instr.c): callgrind's "status internal" parsed on two real
 * answers (tests/data/callgrind_status_*.txt, totals from tests/data/callgrind_status.py), the
 * malformed ones refused, the warm-up rule, and the PMU's open: on a host without a PMU (this
 * VM) the clear refusal the doctor's perf_counters check agrees with. */
#include "harness.h"
#include "pinning/doctor.h"
#include "runner/run_instr.h"
#include "tests/data/callgrind_status_ref.inc"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static char *read_data(const char *name)
{
	char path[1024], *text = NULL;
	struct errbuf err;
	snprintf(path, sizeof(path), "%s/tests/data/%s", DBT3_SOURCE_DIR, name);
	CU_ASSERT_EQUAL_FATAL(util_read_file(path, &text, NULL, &err), 0);
	return text;
}

TH_TEST(run_instr, real_status_answers_sum_the_threads)
{
	for (size_t i = 0; i < sizeof(callgrind_ref) / sizeof(callgrind_ref[0]); i++) {
		char *text = read_data(callgrind_ref[i].file);
		long long total = -1;
		struct errbuf err = {""};
		CU_ASSERT_EQUAL(run_instr_parse_status(text, &total, &err), 0);
		CU_ASSERT_EQUAL(total, callgrind_ref[i].total);
		free(text);
	}
}

/* Only the thread totals count: a frame line "events-13-0: N" repeats its thread's count. */
TH_TEST(run_instr, frames_are_not_totals)
{
	static const char text[] = "sending command status internal to pid 7\n"
				   "events: Ir\n"
				   "threads: 1 2\n"
				   "events-1: 10\n"
				   "events-1-0: 10\n"
				   "events-2: 32 5\n"
				   "events-2-0: 32 5\n"
				   "events-2-1: 32 5\n";
	long long total = -1;
	struct errbuf err = {""};
	CU_ASSERT_EQUAL(run_instr_parse_status(text, &total, &err), 0);
	CU_ASSERT_EQUAL(total, 42);
}

TH_TEST(run_instr, malformed_answers_refused)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
	    {"sending command status internal to pid 7\nNo such process\n",
	     "no 'events:' line in callgrind's status (not callgrind?)"},
	    {"events: Dr Ir\nevents-1: 5 6\n", "callgrind does not count instructions (Ir) first"},
	    {"events: Ir\nthreads: 1\n", "no thread totals in callgrind's status"},
	    {"events: Ir\nevents-1: 12x\n",
	     "callgrind's status has a thread total that is not a count"},
	    {"events: Ir\nevents-1: -4\n",
	     "callgrind's status has a thread total that is not a count"},
	    {"events: Ir\nevents-1: 99999999999999999999\n",
	     "callgrind's status has a thread total that is not a count"},
	    {"events: Ir\nevents-1: 9223372036854775807\nevents-2: 1\n",
	     "callgrind's counts overflow"},
	    {"", "no 'events:' line in callgrind's status (not callgrind?)"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long long total = -1;
		struct errbuf err = {""};
		CU_ASSERT_EQUAL(run_instr_parse_status(cases[i].text, &total, &err), -1);
		CU_ASSERT_STRING_EQUAL(err.msg, cases[i].msg);
		CU_ASSERT_EQUAL(total, -1);
	}
}

/* Steady: the last two counts within tol of the earlier one, in either direction. */
TH_TEST(run_instr, warmup_rule)
{
	static const struct {
		long long v[4];
		size_t n;
		int steady;
	} cases[] = {
	    {{1000, 1002}, 2, 1},	      {{1000, 998}, 2, 1},	  {{1000, 1003}, 2, 0},
	    {{1000, 997}, 2, 0},	      {{5000, 1000, 1002}, 3, 1}, {{1000}, 1, 0},
	    {{0, 0}, 2, 0},		      {{1000, 1000, 1300}, 3, 0},
	    {{159094249, 107804237, 101696036}, 3, 0}, /* Q3 at SF 0.01, runs 1-3 (cg001.tsv) */
	    {{890621653, 887956376, 887935045}, 3, 1}, /* Q1, runs 1-3 */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CU_ASSERT_EQUAL(run_instr_steady(cases[i].v, cases[i].n, 0.002), cases[i].steady);
}

/* The PMU of this thread: counts that grow where the host has one; elsewhere one line naming
 * why, and then the doctor's perf_counters check warns too (the same decision). */
TH_TEST(run_instr, pmu_counts_or_says_why)
{
	struct errbuf err = {""};
	int cycles = -1;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	int fd = run_instr_pmu_open(tid, &cycles, &err);
	struct doctor_check checks[DOCTOR_N_CHECKS];
	struct doctor_env env = {.root = "", .sample_ms = 1};
	doctor_run(checks, &env);
	const struct doctor_check *perf = NULL;
	for (int i = 0; i < DOCTOR_N_CHECKS; i++)
		if (strcmp(checks[i].name, "perf_counters") == 0)
			perf = &checks[i];
	CU_ASSERT_PTR_NOT_NULL_FATAL(perf);
	if (fd < 0) {
		CU_ASSERT(strstr(err.msg, "perf_event_open of instructions") != NULL);
		CU_ASSERT_EQUAL(perf->status, DOCTOR_WARN);
		return;
	}
	CU_ASSERT_EQUAL(perf->status, DOCTOR_OK);
	long long a[2], b[2];
	CU_ASSERT_EQUAL(ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP), 0);
	CU_ASSERT_EQUAL_FATAL(run_instr_pmu_read(fd, a, &err), 0);
	volatile unsigned long x = 0;
	for (unsigned long i = 0; i < 1000000; i++)
		x += i;
	CU_ASSERT_EQUAL_FATAL(run_instr_pmu_read(fd, b, &err), 0);
	CU_ASSERT(b[0] - a[0] >= 1000000);
	CU_ASSERT(b[1] > a[1]);
	close(cycles);
	close(fd);
}

TH_MAIN(run_instr)
