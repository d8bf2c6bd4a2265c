/* SPDX-License-Identifier: MIT */
/* 'dbt3stab gen -s 1' against dbgen's SF 1 output (md5 of each file), in both row formats. */
#include "base/cli.h"
#include "dbt3/gen.h"
#include "tests/harness.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

struct ref_md5 {
	const char *file;
	const char *md5;
};

/* dbgen -s 1, default format (every row ends with '|'). */
static const struct ref_md5 ref_sf1[] = {
    {"customer", "b662b705bc3ac183c1942367cf522e42"},
    {"lineitem", "e6368ad3f339bf1d4a3b8a1beba23870"},
    {"nation", "2f588e0b7fa72939b498c2abecd9fbbe"},
    {"orders", "62264a9feaa3a3fd59805910dfe18a30"},
    {"part", "b7ca9b82dc3d9c6543a96faac588a281"},
    {"partsupp", "1b531d9b3963dd72c920179b31135e84"},
    {"region", "c235841b00d29ad4f817771fcc851207"},
    {"supplier", "565f8733ecdb2faf654a3efe0a422957"},
    {NULL, NULL},
};

/* The same data without the trailing '|' (DBT-3's MySQL build of dbgen, EOL_HANDLING). */
static const struct ref_md5 ref_sf1_notrail[] = {
    {"customer", "0093d35b26ce43f258dc82eee112ec5a"},
    {"lineitem", "52f30b7034f09fab583068e5b07e4832"},
    {"nation", "01ab9bc150261c9918ce9636be80ea15"},
    {"orders", "e4dcfc65003fdea77b560ced6da43b42"},
    {"part", "553bb0cc2ddeef80165b051239900a78"},
    {"partsupp", "e35bfa358f773403fbe1ac590909520d"},
    {"region", "d1c494f597244c77001246888185e3e3"},
    {"supplier", "72eebf9fba6a78782891802ff47065d4"},
    {NULL, NULL},
};

static int md5_file(char out[33], const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	EVP_DigestInit_ex(c, EVP_md5(), NULL);
	static char buf[1 << 20];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		EVP_DigestUpdate(c, buf, n);
	unsigned char d[EVP_MAX_MD_SIZE];
	unsigned dn = 0;
	EVP_DigestFinal_ex(c, d, &dn);
	EVP_MD_CTX_free(c);
	fclose(f);
	for (unsigned i = 0; i < 16; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
	out[32] = '\0';
	return 0;
}

static void check_sf1(const char *extra, const struct ref_md5 *ref)
{
	char *dir = th_tempdir("gensf1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	char cmd[9000];
	snprintf(cmd, sizeof(cmd), "'%s' gen -s 1 -j 2 -q %s -o '%s'", DBT3_BINARY, extra, dir);
	int st = system(cmd);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	for (const struct ref_md5 *r = ref; r->file; r++) {
		char path[4200], hex[33];
		snprintf(path, sizeof(path), "%s/%s.tbl", dir, r->file);
		CU_ASSERT_EQUAL_FATAL(md5_file(hex, path), 0);
		if (strcmp(hex, r->md5) != 0)
			fprintf(stderr, "%s: md5 %s, dbgen %s\n", r->file, hex, r->md5);
		CU_ASSERT_STRING_EQUAL(hex, r->md5);
	}
	th_rmtree(dir);
	free(dir);
}

TH_TEST(gen_slow, sf1_matches_dbgen_md5)
{
	check_sf1("", ref_sf1);
}

TH_TEST(gen_slow, sf1_no_trailing_delimiter_matches_dbt3_md5)
{
	check_sf1("--no-trailing-delimiter", ref_sf1_notrail);
}

TH_MAIN(gen_slow)
