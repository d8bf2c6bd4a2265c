/* SPDX-License-Identifier: MIT */
/* The result reader's checks of run --refresh's and --streams' members: plan.refresh,
 * plan.streams, and an entry's "refresh", "data_check", "refresh_sets", "stream_positions" and
 * "elapsed_ms" (docs/result-format.md, "Refresh functions", "Throughput test"). */
#include "result/res_read_int.h"
#include <stdio.h>
#include <string.h>

#define RF_MAX_SET 999		    /* gen_refresh.h's GEN_REFRESH_SET_MAX */
#define RF_MAX_ROWS (1LL << 50)	    /* a row count of orders or lineitem */
#define RF_CHECKSUM_DIGITS 20	    /* an unsigned 64-bit CHECKSUM TABLE value in decimal */
#define RF_MAX_STREAMS 40	    /* runner/run.h's RUN_STREAMS_MAX */

/* obj.key (optional): an array of at most max integers in [lo, hi]. */
static int int_list(struct rd *rd, json_t *obj, const char *path, const char *key, size_t max,
		    long long lo, long long hi)
{
	char p[400];
	json_t *a, *v;
	size_t i;
	if (rd_member(rd, obj, path, key, W_ARRAY | W_OPTIONAL, &a) < 0)
		return -1;
	rd_path_join(p, sizeof(p), path, key);
	if (a && json_array_size(a) > max)
		return rd_fail(rd, p, "more than %zu entries", max);
	json_array_foreach(a, i, v)
	{
		if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
			return rd_fail(rd, p, "entry %zu: expected an integer %lld to %lld", i, lo,
				       hi);
	}
	return 0;
}

/* obj.key: a string of 1 to RF_CHECKSUM_DIGITS decimal digits. */
static int checksum_member(struct rd *rd, json_t *obj, const char *path, const char *key)
{
	char p[400];
	json_t *v;
	if (rd_member(rd, obj, path, key, W_STRING, &v) < 0)
		return -1;
	const char *s = json_string_value(v);
	size_t n = json_string_length(v);
	rd_path_join(p, sizeof(p), path, key);
	if (n == 0 || n > RF_CHECKSUM_DIGITS || strspn(s, "0123456789") != n)
		return rd_fail(rd, p, "not a checksum (1 to %d decimal digits): \"%.40s\"",
			       RF_CHECKSUM_DIGITS, s);
	return 0;
}

/* A database check {"orders", "lineitems", "orders_checksum", "lineitem_checksum"}. */
static int check_rows(struct rd *rd, json_t *dc, const char *path, const char *key, unsigned w)
{
	char p[400];
	json_t *o;
	long long x;
	if (rd_member(rd, dc, path, key, W_OBJECT | w, &o) < 0)
		return -1;
	if (!o)
		return 0;
	rd_path_join(p, sizeof(p), path, key);
	if (rd_int_member(rd, o, p, "orders", 0, RF_MAX_ROWS, 0, &x) < 0 ||
	    rd_int_member(rd, o, p, "lineitems", 0, RF_MAX_ROWS, 0, &x) < 0 ||
	    checksum_member(rd, o, p, "orders_checksum") < 0 ||
	    checksum_member(rd, o, p, "lineitem_checksum") < 0)
		return -1;
	return 0;
}

int rd_check_refresh_entry(struct rd *rd, json_t *o, const char *path)
{
	char p[400];
	json_t *rf, *dc, *v;
	long long x;
	if (int_list(rd, o, path, "refresh_sets", RF_MAX_STREAMS, 1, RF_MAX_SET) < 0 ||
	    int_list(rd, o, path, "stream_positions", RF_MAX_STREAMS, 0, 63) < 0 ||
	    rd_num_member(rd, o, path, "elapsed_ms", 0, RES_MAX_TIME_MS, W_OPTIONAL | W_LO_INCL) <
		0 ||
	    rd_member(rd, o, path, "refresh", W_OBJECT | W_OPTIONAL, &rf) < 0 ||
	    rd_member(rd, o, path, "data_check", W_OBJECT | W_OPTIONAL, &dc) < 0)
		return -1;
	if (rf) {
		rd_path_join(p, sizeof(p), path, "refresh");
		if (rd_int_member(rd, rf, p, "set", 1, RF_MAX_SET, 0, &x) < 0 ||
		    rd_int_member(rd, rf, p, "orders", 0, RF_MAX_ROWS, 0, &x) < 0 ||
		    rd_int_member(rd, rf, p, "lineitems", 0, RF_MAX_ROWS, 0, &x) < 0)
			return -1;
	}
	if (!dc)
		return 0;
	rd_path_join(p, sizeof(p), path, "data_check");
	if (check_rows(rd, dc, p, "before", 0) < 0 || check_rows(rd, dc, p, "after", W_OPTIONAL) < 0 ||
	    rd_member(rd, dc, p, "same", W_BOOL | W_OPTIONAL, &v) < 0 ||
	    rd_member(rd, dc, p, "purge_waited", W_BOOL | W_OPTIONAL, &v) < 0)
		return -1;
	return 0;
}

int rd_check_refresh_plan(struct rd *rd, json_t *plan)
{
	json_t *rf, *v;
	long long x;
	static const char *const texts[] = {"source", "check", "purge_wait"};
	if (rd_member(rd, plan, "$.plan", "refresh", W_OBJECT | W_OPTIONAL, &rf) < 0)
		return -1;
	if (!rf)
		return 0;
	if (rd_int_member(rd, rf, "$.plan.refresh", "set", 1, RF_MAX_SET, 0, &x) < 0 ||
	    rd_int_member(rd, rf, "$.plan.refresh", "orders_per_set", 1, RF_MAX_ROWS, 0, &x) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		char p[64];
		if (rd_member(rd, rf, "$.plan.refresh", texts[i], W_STRING | W_OPTIONAL, &v) < 0)
			return -1;
		snprintf(p, sizeof(p), "$.plan.refresh.%s", texts[i]);
		if (v && json_string_length(v) > 256)
			return rd_fail(rd, p, "longer than 256 characters");
	}
	return 0;
}

int rd_check_streams_plan(struct rd *rd, json_t *plan)
{
	json_t *st, *v, *orders;
	size_t i;
	const char *path = "$.plan.streams";
	if (rd_member(rd, plan, "$.plan", "streams", W_OBJECT | W_OPTIONAL, &st) < 0)
		return -1;
	if (!st)
		return 0;
	if (rd_int_member(rd, st, path, "count", 1, RF_MAX_STREAMS, 0, &rd->streams) < 0 ||
	    rd_member(rd, st, path, "refresh_stream", W_BOOL | W_OPTIONAL, &v) < 0 ||
	    rd_member(rd, st, path, "order", W_STRING | W_OPTIONAL, &v) < 0 ||
	    rd_member(rd, st, path, "parameters", W_STRING | W_OPTIONAL, &v) < 0 ||
	    rd_member(rd, st, path, "query_orders", W_ARRAY | W_OPTIONAL, &orders) < 0)
		return -1;
	if (orders && json_array_size(orders) > RF_MAX_STREAMS)
		return rd_fail(rd, "$.plan.streams.query_orders", "more than %d entries",
			       RF_MAX_STREAMS);
	json_array_foreach(orders, i, v)
	{
		char p[64];
		size_t k;
		json_t *q;
		snprintf(p, sizeof(p), "%s.query_orders[%zu]", path, i);
		if (!json_is_array(v) || json_array_size(v) > 22)
			return rd_fail(rd, p, "expected an array of at most 22 query numbers");
		json_array_foreach(v, k, q)
		{
			if (!json_is_integer(q) || json_integer_value(q) < 1 ||
			    json_integer_value(q) > 22)
				return rd_fail(rd, p, "entry %zu: expected an integer 1 to 22", k);
		}
	}
	return 0;
}
