/* SPDX-License-Identifier: MIT */
/* Tiny CUnit harness: each tests/test_<module>.c is one executable with one suite. */
#ifndef DBT3_TEST_HARNESS_H
#define DBT3_TEST_HARNESS_H
#include <CUnit/CUnit.h>

struct th_case {
	const char *name;
	CU_TestFunc fn;
};

/* Runs the NULL-terminated cases as suite; returns the process exit code. A
 * name given on the command line runs only the cases whose name contains it. */
int th_run(const char *suite, const struct th_case *cases, int argc, char **argv);

/* Makes a fresh empty directory under $TMPDIR (or /tmp) for a test; caller frees. */
char *th_tempdir(const char *tag);

/* Removes a directory tree made by th_tempdir; NULL is fine. */
void th_rmtree(const char *dir);

#endif
