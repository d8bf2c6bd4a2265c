/* SPDX-License-Identifier: MIT */
/* A side-by-side entry's record of its pair, checked as the reader checks it (result/res_counts.h).
 */
#include "result/res.h"
#include "result/res_counts.h"
#include <stdio.h>
#include <string.h>

int res_sbs_check(const json_t *o, char *key, size_t key_len, char *msg, size_t msg_len)
{
	static const char *const pairs[] = {"started_unix_ms", "pids"};
	const json_t *first = json_object_get(o, "first"), *order = json_object_get(o, "order");
	*key = '\0';
	if (!json_is_object(o))
		return snprintf(msg, msg_len, "not an object"), -1;
	if (!json_is_string(first))
		return snprintf(key, key_len, "first"), snprintf(msg, msg_len, "not a string"), -1;
	const char *s = json_string_value(order);
	size_t n = s ? strlen(s) : 0, ok = s ? strspn(s, "AB") : 0;
	if (!s || n > RES_MAX_ORDER || (ok != n && !(ok == n - 1 && s[ok] == '+'))) {
		snprintf(key, key_len, "order");
		snprintf(msg, msg_len, "not a string of A and B (at most %d)", RES_MAX_ORDER);
		return -1;
	}
	for (int k = 0; k < 2; k++) {
		const json_t *v = json_object_get(o, pairs[k]);
		snprintf(key, key_len, "%s", pairs[k]);
		if (json_array_size(v) != 2)
			return snprintf(msg, msg_len, "not an array of 2"), -1;
		for (size_t i = 0; i < 2; i++) {
			const json_t *e = json_array_get(v, i);
			if (!json_is_number(e) || json_number_value(e) < 0 ||
			    json_number_value(e) > 1e15 || (k == 1 && !json_is_integer(e)))
				return snprintf(msg, msg_len, "[%zu] is not %s", i,
						k ? "a pid" : "a time"),
				       -1;
		}
	}
	*key = '\0';
	return 0;
}
