/* SPDX-License-Identifier: MIT */
#include "tests/th_pin.h"
#include "tests/harness.h"
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

struct pin_ctx *th_pin_ctx_bound(int nice, struct th_pin_want *want)
{
	struct pin_opts o = {0};
	o.stab.no_aslr = 1;
	o.stab.nice_set = 1;
	o.stab.nice = nice;
	struct pin_ctx *ctx = th_pin_ctx_pinned(&o);
	if (!ctx)
		return NULL;
	const struct pin_placement *p = pin_ctx_placement(ctx);
	pin_ids_format(want->cpus, sizeof(want->cpus), p->server_cpus, p->n_server);
	pin_ids_format(want->nodes, sizeof(want->nodes), p->membind_nodes, p->n_membind);
	return ctx;
}

int th_pin_list_includes(const char *have, const char *want)
{
	hwloc_bitmap_t h = hwloc_bitmap_alloc(), w = hwloc_bitmap_alloc();
	int ok = h && w && hwloc_bitmap_list_sscanf(h, have) == 0 &&
		 hwloc_bitmap_list_sscanf(w, want) == 0 && hwloc_bitmap_isincluded(w, h);
	hwloc_bitmap_free(h);
	hwloc_bitmap_free(w);
	return ok;
}

long th_pin_nice(pid_t pid, pid_t tid)
{
	char path[128], line[2048];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	if (th_read_line(path, line, sizeof(line)) < 0)
		return -100;
	int field = 2;
	for (const char *q = strrchr(line, ')'); q && *q; q++)
		if (*q == ' ' && ++field == 19)
			return strtol(q + 1, NULL, 10);
	return -100;
}
