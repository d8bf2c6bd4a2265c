/* SPDX-License-Identifier: MIT */
#include "tests/th_gen.h"
#include "base/util.h"
#include "dbt3/gen.h"
#include <stdio.h>
#include <stdlib.h>

static struct gen_ctx *ctx_001;

static void free_sf001(void)
{
	gen_ctx_free(ctx_001);
	ctx_001 = NULL;
}

struct gen_ctx *th_gen_sf001(void)
{
	struct errbuf err;
	if (ctx_001)
		return ctx_001;
	if (gen_ctx_new(&ctx_001, 0.01, &err) < 0) {
		fprintf(stderr, "gen_ctx_new: %s\n", err.msg);
		return NULL;
	}
	atexit(free_sf001);
	return ctx_001;
}
