/* SPDX-License-Identifier: MIT */
/* What the result reader's parts share: the reading state, the member checks (result/res_read.c)
 * and the interference checks (result/res_read_interf.c). Not for use outside result/. */
#ifndef DBT3_RES_READ_INT_H
#define DBT3_RES_READ_INT_H
#include "result/res.h"

struct rd {
	const char *name;
	struct errbuf *err;
	/* The plan the data must agree with; -1 or NULL when the file does not say. */
	long long restarts, warmup, runs;
	json_t *queries;
	size_t next_query; /* index in queries after the last query read */
	long long streams; /* $.plan.streams.count, -1 without: the bound of a T: entry's times */
	int throughput;	   /* the entry being read is run --streams' (id "T:...") */
};

enum want {
	W_STRING = 1 << 0,
	W_NULL = 1 << 1,
	W_OBJECT = 1 << 2,
	W_ARRAY = 1 << 3,
	W_INTEGER = 1 << 4,
	W_NUMBER = 1 << 5,
	W_BOOL = 1 << 6,
	W_OPTIONAL = 1 << 7,
};

/* With rd_num_member: lo itself is allowed. */
#define W_LO_INCL (1u << 8)

/* out = "path.key", cut short when it does not fit (paths are for messages only). */
void rd_path_join(char *out, size_t n, const char *path, const char *key);

/* One line "'name': path: message" into rd->err; returns -1. */
int rd_fail(struct rd *rd, const char *path, const char *fmt, ...) UTIL_PRINTF(3, 4);

/* "an object", "an array", ...: the type of v for a message. */
const char *rd_type_name(const json_t *v);

/* Fetches obj.key of the wanted type (enum want bits) into out (NULL when optional and
 * absent). */
int rd_member(struct rd *rd, json_t *obj, const char *path, const char *key, unsigned w,
	      json_t **out);

/* obj.key: an integer in [min, max] into *out; -1 when absent (W_OPTIONAL) or null (W_NULL). */
int rd_int_member(struct rd *rd, json_t *obj, const char *path, const char *key, long long min,
		  long long max, unsigned w, long long *out);

/* obj.key: a number above lo (at least lo with W_LO_INCL) and at most hi (absent or null as w
 * allows). */
int rd_num_member(struct rd *rd, json_t *obj, const char *path, const char *key, double lo,
		  double hi, unsigned w);

/* A query entry's optional "interference" record at path. */
int rd_check_interf_entry(struct rd *rd, json_t *o, const char *path);

/* $.interference (optional): the rule and each restart's sums and verdict. */
int rd_check_interf_top(struct rd *rd, json_t *root);

/* run --refresh (result/res_read_rf.c): a restart entry's optional "refresh" and "data_check",
 * and the optional $.plan.refresh. */
int rd_check_refresh_entry(struct rd *rd, json_t *o, const char *path);
int rd_check_refresh_plan(struct rd *rd, json_t *plan);
/* run --streams: the optional $.plan.streams. */
int rd_check_streams_plan(struct rd *rd, json_t *plan);

/* $.host.contention (optional). */
int rd_check_host_contention(struct rd *rd, json_t *host);

#endif
