/* SPDX-License-Identifier: MIT */
#include "harness.h"
#include "base/util.h"
#include <CUnit/Basic.h>
#include <ftw.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static unsigned skipped; /* th_skip calls during th_run */
static const struct th_reg *regs[TH_MAX_CASES];
static size_t n_regs;

void th_register(const struct th_reg *reg)
{
	if (n_regs == TH_MAX_CASES) {
		fprintf(stderr, "more than %d cases in one test file\n", TH_MAX_CASES);
		abort();
	}
	regs[n_regs++] = reg;
}

static int by_order(const void *a, const void *b)
{
	const struct th_reg *x = *(const struct th_reg *const *)a,
			    *y = *(const struct th_reg *const *)b;
	return (x->order > y->order) - (x->order < y->order);
}

const struct th_case *th_cases(void)
{
	static struct th_case cases[TH_MAX_CASES + 1];
	qsort(regs, n_regs, sizeof(regs[0]), by_order);
	for (size_t i = 0; i < n_regs; i++)
		cases[i] = regs[i]->c;
	cases[n_regs] = (struct th_case){NULL, NULL};
	return cases;
}

void th_skip(const char *why)
{
	skipped++;
	fprintf(stderr, "\nSKIPPED: %s\n", why);
}

/* A case runs when an argument is part of its name, or when no argument names cases; an
 * argument "-NAME" leaves out the cases NAME is part of (ctest runs a quiet case on its own). */
static int wanted(const char *name, int argc, char **argv)
{
	int named = 0, hit = 0;
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1] && strstr(name, argv[i] + 1))
			return 0;
		if (argv[i][0] != '-') {
			named = 1;
			hit |= strstr(name, argv[i]) != NULL;
		}
	}
	return !named || hit;
}

int th_run(const char *suite, const struct th_case *cases, int argc, char **argv)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	CU_pSuite s = CU_add_suite(suite, NULL, NULL);
	if (!s)
		goto fail;
	for (const struct th_case *c = cases; c->name; c++)
		if (wanted(c->name, argc, argv) && !CU_add_test(s, c->name, c->fn))
			goto fail;
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	unsigned ran = CU_get_number_of_tests_run();
	CU_cleanup_registry();
	if (failed || ran == 0)
		return 1;
	if (skipped) {
		fprintf(stderr, "%s: %u case(s) skipped, exit %d\n", suite, skipped,
			TH_EXIT_SKIPPED);
		return TH_EXIT_SKIPPED;
	}
	return 0;
fail:
	fprintf(stderr, "cunit: %s\n", CU_get_error_msg());
	CU_cleanup_registry();
	return 2;
}

char *th_tempdir(const char *tag)
{
	const char *base = getenv("TMPDIR");
	char *path = NULL;
	if (asprintf(&path, "%s/dbt3-%s-XXXXXX", base && *base ? base : "/tmp", tag) < 0)
		return NULL;
	if (!mkdtemp(path)) {
		free(path);
		return NULL;
	}
	/* searchable, not listable: run as root, dbt3stab runs a managed server as 'mysql',
	 * which must reach an instance directory made in here (docs/server.md) */
	chmod(path, 0711);
	return path;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void th_rmtree(const char *dir)
{
	if (dir)
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int th_read_line(const char *path, char *out, size_t len)
{
	char *text = NULL;
	struct errbuf err;
	out[0] = '\0';
	if (util_read_file(path, &text, NULL, &err) < 0)
		return -1;
	int ok = text[0] != '\0';
	snprintf(out, len, "%.*s", (int)strcspn(text, "\n"), text);
	free(text);
	return ok ? 0 : -1;
}

char *th_slurp(const char *path)
{
	char *text = NULL;
	struct errbuf err;
	if (util_read_file(path, &text, NULL, &err) < 0)
		return NULL;
	return text;
}

size_t th_count(const char *hay, const char *needle)
{
	size_t n = 0, l = strlen(needle);
	for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += l)
		n++;
	return n;
}

void th_md5_is(const char *what, const void *data, size_t len, const char *want)
{
	unsigned char d[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	char hex[33] = "";
	EVP_Digest(len ? data : "", len, d, &n, EVP_md5(), NULL);
	for (unsigned i = 0; i < n && i < 16; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	if (strcmp(hex, want) != 0)
		fprintf(stderr, "%s: md5 %s, want %s\n", what, hex, want);
	CU_ASSERT_STRING_EQUAL(hex, want);
}

void th_md5_file_is(const char *path, const char *want)
{
	char *data = NULL;
	size_t len = 0;
	struct errbuf err;
	CU_ASSERT_EQUAL_FATAL(util_read_file(path, &data, &len, &err), 0);
	th_md5_is(path, data, len, want);
	free(data);
}
