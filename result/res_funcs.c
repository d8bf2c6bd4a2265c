/* SPDX-License-Identifier: MIT */
/* The "functions" record of a restart entry (result/res_funcs.h). */
#include "result/res_funcs.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define FUNCS_MAX_COUNT (INT64_C(1) << 62)

static int count_ok(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) >= 0 &&
	       json_integer_value(v) <= FUNCS_MAX_COUNT;
}

/* One list entry [name, self, inclusive]. */
static int entry_check(const json_t *e, size_t i, char *msg, size_t msg_len)
{
	const json_t *name = json_array_get(e, 0);
	if (!json_is_array(e) || json_array_size(e) != 3 || !json_is_string(name) ||
	    !count_ok(json_array_get(e, 1)) || !count_ok(json_array_get(e, 2))) {
		snprintf(msg, msg_len, "list[%zu]: expected [name, self, inclusive] with counts",
			 i);
		return -1;
	}
	size_t len = json_string_length(name);
	if (len == 0 || len >= RES_FUNCS_NAME_MAX || memchr(json_string_value(name), 0, len)) {
		snprintf(msg, msg_len, "list[%zu]: a name of %zu bytes (1 to %d)", i, len,
			 RES_FUNCS_NAME_MAX - 1);
		return -1;
	}
	return 0;
}

int res_funcs_check(const json_t *o, char *msg, size_t msg_len)
{
	static const char *const counts[] = {"total", "named", "resolved", "unnamed"};
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (!count_ok(json_object_get(o, counts[i]))) {
			snprintf(msg, msg_len, "%s: expected a count", counts[i]);
			return -1;
		}
	const json_t *list = json_object_get(o, "list");
	if (!json_is_array(list) || json_array_size(list) > RES_FUNCS_MAX) {
		snprintf(msg, msg_len, "list: expected an array of at most %d functions",
			 RES_FUNCS_MAX);
		return -1;
	}
	size_t i;
	const json_t *e;
	json_array_foreach(list, i, e) if (entry_check(e, i, msg, msg_len) < 0) return -1;
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)o, key, v)
	{
		int known = strcmp(key, "list") == 0;
		for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++)
			known |= strcmp(key, counts[k]) == 0;
		if (!known) {
			snprintf(msg, msg_len, "unknown member \"%.40s\"", key);
			return -1;
		}
	}
	return 0;
}

int res_funcs_get(struct res_funcs *out, const struct res_restart *r)
{
	const json_t *o = r->extra ? json_object_get(r->extra, "functions") : NULL;
	char msg[160];
	out->n = 0;
	if (!o || res_funcs_check(o, msg, sizeof(msg)) < 0)
		return 0;
	out->total = (long long)json_integer_value(json_object_get(o, "total"));
	out->named = (long long)json_integer_value(json_object_get(o, "named"));
	out->resolved = (long long)json_integer_value(json_object_get(o, "resolved"));
	out->unnamed = (long long)json_integer_value(json_object_get(o, "unnamed"));
	size_t i;
	const json_t *e;
	json_array_foreach(json_object_get(o, "list"), i, e)
	{
		out->fn[i].name = json_string_value(json_array_get(e, 0));
		out->fn[i].self = (long long)json_integer_value(json_array_get(e, 1));
		out->fn[i].incl = (long long)json_integer_value(json_array_get(e, 2));
		out->n++;
	}
	return 1;
}

size_t res_funcs_tokens(long restarts, long n_queries)
{
	/* per entry: the record's key, 5 members and their keys, each function an array of 3 */
	double n = (double)restarts * (double)n_queries * (12.0 + 4.0 * RES_FUNCS_MAX);
	return n > 1e15 ? (size_t)1e15 : (size_t)n;
}
