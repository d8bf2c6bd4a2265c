/* SPDX-License-Identifier: MIT */
#include "tests/th_pin.h"
#include "tests/harness.h"
#include <stdio.h>

struct pin_ctx *th_pin_ctx_pinned(const struct pin_opts *o)
{
	static const struct pin_opts defaults = {0};
	struct pin_ctx *ctx = NULL;
	struct errbuf err = {{0}};
	int rc = pin_ctx_init(&ctx, o ? o : &defaults, &err);
	if (rc != 0)
		fprintf(stderr, "\npin_ctx_init: %s\n", err.msg);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc != 0)
		return NULL;
	const struct pin_placement *p = pin_ctx_placement(ctx);
	if (!p->pinned) {
		char why[600];
		snprintf(why, sizeof(why), "this machine allows no pinned placement (%s)",
			 p->warning);
		th_skip(why);
		pin_ctx_free(ctx);
		return NULL;
	}
	return ctx;
}

uint64_t th_pin_ids_mask(const json_t *a)
{
	uint64_t m = 0;
	for (size_t i = 0; i < json_array_size(a); i++) {
		json_int_t v = json_integer_value(json_array_get(a, i));
		if (v >= 0 && v < 64)
			m |= UINT64_C(1) << v;
	}
	return m;
}
