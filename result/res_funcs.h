/* SPDX-License-Identifier: MIT */
/* A restart entry's profile by function (run --instructions; docs/work.md, "Which functions"):
 * "functions": {"total", "named", "resolved", "unnamed", "list": [[name, self, inclusive]]}. */
#ifndef DBT3_RES_FUNCS_H
#define DBT3_RES_FUNCS_H
#include "result/res.h"
#include <jansson.h>
#include <stddef.h>

#define RES_FUNCS_MAX 200      /* functions in a list at most */
#define RES_FUNCS_NAME_MAX 384 /* bytes of a function's name, its NUL included */

struct res_fn {
	const char *name; /* points into the file's JSON */
	long long self, incl;
};

struct res_funcs {
	long long total, named, resolved, unnamed;
	size_t n;
	struct res_fn fn[RES_FUNCS_MAX];
};

/* 0 when o is a well-formed "functions" record; -1 with msg naming what is wrong. */
int res_funcs_check(const json_t *o, char *msg, size_t msg_len);

/* The record of restart r into out: 1, 0 when r has none (or a malformed one). */
int res_funcs_get(struct res_funcs *out, const struct res_restart *r);

/* The JSON values such records add to a file of restarts x n_queries entries (the bounds). */
size_t res_funcs_tokens(long restarts, long n_queries);

#endif
