/* SPDX-License-Identifier: MIT */
/* Tiny CUnit harness: each tests/test_<module>.c is one executable with one suite. */
#ifndef DBT3_TEST_HARNESS_H
#define DBT3_TEST_HARNESS_H
#include <CUnit/CUnit.h>
#include <stddef.h>

struct th_case {
	const char *name;
	CU_TestFunc fn;
};

/* A case that registers itself before main runs (th_cases): TH_TEST(srv_db, crash_is_detected)
 * { ... } defines test_srv_db__crash_is_detected, run as "crash_is_detected". The cases of a file
 * run in the order they are defined in (headers it includes count where they are included). */
#define TH_TEST(suite, name)                                                                       \
	static void test_##suite##__##name(void);                                                  \
	__attribute__((constructor)) static void th_add_##suite##__##name(void)                    \
	{                                                                                          \
		static const struct th_reg reg = {{#name, test_##suite##__##name}, __COUNTER__};   \
		th_register(&reg);                                                                 \
	}                                                                                          \
	static void test_##suite##__##name(void)

/* A row of a hand-written table of cases for th_run, the name written once: TH_CASE(srv_db,
 * crash_is_detected) is {"crash_is_detected", test_srv_db__crash_is_detected}. TH_TEST makes
 * the table unnecessary; this stays for a branch written before it. */
#define TH_CASE(suite, name) {#name, test_##suite##__##name}

/* The main of a test file that only runs its cases: th_run(suite, th_cases(), ...). */
#define TH_MAIN(suite)                                                                             \
	int main(int argc, char **argv)                                                            \
	{                                                                                          \
		return th_run(#suite, th_cases(), argc, argv);                                     \
	}

/* A case as TH_TEST registers it: the case and where it stands in its file. */
struct th_reg {
	struct th_case c;
	int order;
};

/* Adds a case (TH_TEST does it); more than TH_MAX_CASES in one file is a fatal error. */
void th_register(const struct th_reg *reg);

/* Cases one test file may register. */
#define TH_MAX_CASES 64

/* The registered cases in their order, NULL-terminated, for th_run. */
const struct th_case *th_cases(void);

/* The exit code of a test executable that ran no failing case but skipped at least one
 * (ctest's SKIP_RETURN_CODE, set in tests/CMakeLists.txt). */
#define TH_EXIT_SKIPPED 77

/* Runs the NULL-terminated cases as suite; returns the process exit code: 0 all passed,
 * 1 a failure (or nothing ran), TH_EXIT_SKIPPED none failed but a case called th_skip. A
 * name given on the command line runs only the cases whose name contains it; "-NAME" leaves
 * out those whose name contains NAME (the quiet cases, tests/CMakeLists.txt). */
int th_run(const char *suite, const struct th_case *cases, int argc, char **argv);

/* Marks the running case as skipped because its check cannot run here (why: one line, printed
 * as "SKIPPED: why"); the case returns right after. A skip is never a pass: the executable
 * then exits TH_EXIT_SKIPPED and ctest reports it as skipped. */
void th_skip(const char *why);

/* Makes a fresh empty directory under $TMPDIR (or /tmp) for a test; caller frees. */
char *th_tempdir(const char *tag);

/* Removes a directory tree made by th_tempdir; NULL is fine. */
void th_rmtree(const char *dir);

/* The first line of the file path, without its newline, into out (len bytes): 0; -1 when the
 * file cannot be opened or has no line (out is then ""). */
int th_read_line(const char *path, char *out, size_t len);

/* The whole file path, NUL-terminated; NULL when it cannot be read. Caller frees. */
char *th_slurp(const char *path);

/* Asserts that the md5 of data (len bytes) is want (32 hex digits), saying what differs
 * (the md5 of what) on stderr when it is not. */
void th_md5_is(const char *what, const void *data, size_t len, const char *want);

/* th_md5_is of the whole file path; a failed read is a fatal failure. */
void th_md5_file_is(const char *path, const char *want);

/* Occurrences of needle in hay, not overlapping. */
size_t th_count(const char *hay, const char *needle);

#endif
