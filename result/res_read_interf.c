/* SPDX-License-Identifier: MIT */
/* The result reader's checks of the interference records, the rule and the host's contention
 * (docs/result-format.md, "Interference"). */
#include "result/res_read_int.h"
#include <stdio.h>
#include <string.h>

/* An "interference" record (a query entry's, or a restart's in $.interference.restarts):
 * times in [0, RES_MAX_TIME_MS] (the query thread's split may be null), counts >= 0 (the query
 * thread's, the I/O bytes and the memory probe's figures optional and may be null). */
static int check_interf_members(struct rd *rd, json_t *rec, const char *path)
{
	static const char *const times[] = {
	    "window_ms",     "other_cpu_ms",	    "steal_ms",
	    "server_cpu_ms", "query_thread_cpu_ms", "server_rest_cpu_ms"};
	static const char *const counts[] = {"voluntary_ctxt_switches", "involuntary_ctxt_switches",
					     "major_faults"};
	/* optional (later additions) and null when unknown */
	static const char *const qcounts[] = {"query_thread_voluntary_ctxt_switches",
					      "query_thread_involuntary_ctxt_switches",
					      "read_bytes",
					      "write_bytes",
					      "memory_probe_before_ns",
					      "memory_probe_after_ns",
					      "memory_probes",
					      "memory_pressured",
					      "memory_probe_max_ns",
					      "partner_server_cpu_ms",
					      "server_pu_other_cpu_ms"};
	char p[256];
	json_t *v;
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		if (rd_member(rd, rec, path, times[i], W_NUMBER | W_NULL, &v) < 0)
			return -1;
		rd_path_join(p, sizeof(p), path, times[i]);
		if (json_is_number(v) &&
		    !(json_number_value(v) >= 0 && json_number_value(v) <= RES_MAX_TIME_MS))
			return rd_fail(rd, p, "%g out of range (0 to %g)", json_number_value(v),
				       RES_MAX_TIME_MS);
	}
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		if (rd_member(rd, rec, path, counts[i], W_NUMBER, &v) < 0)
			return -1;
		rd_path_join(p, sizeof(p), path, counts[i]);
		if (!(json_number_value(v) >= 0 && json_number_value(v) <= 1e15))
			return rd_fail(rd, p, "%g out of range (0 to 1e15)", json_number_value(v));
	}
	for (size_t i = 0; i < sizeof(qcounts) / sizeof(qcounts[0]); i++) {
		if (rd_member(rd, rec, path, qcounts[i], W_NUMBER | W_NULL | W_OPTIONAL, &v) < 0)
			return -1;
		rd_path_join(p, sizeof(p), path, qcounts[i]);
		if (json_is_number(v) &&
		    !(json_number_value(v) >= 0 && json_number_value(v) <= 1e15))
			return rd_fail(rd, p, "%g out of range (0 to 1e15)", json_number_value(v));
	}
	return 0;
}

/* A query entry's optional "interference" record. */
int rd_check_interf_entry(struct rd *rd, json_t *o, const char *path)
{
	char p[256];
	json_t *rec;
	if (rd_member(rd, o, path, "interference", W_OBJECT | W_OPTIONAL, &rec) < 0)
		return -1;
	rd_path_join(p, sizeof(p), path, "interference");
	return rec ? check_interf_members(rd, rec, p) : 0;
}

/* The causes of the interference rule. */
static const char *const interf_causes[] = {"other_cpu", "steal", "memory", NULL};

static int interf_cause_known(const char *s)
{
	for (int m = 0; interf_causes[m]; m++)
		if (strcmp(s, interf_causes[m]) == 0)
			return 1;
	return 0;
}

/* An array of cause names, e.g. $.interference.restarts[i].causes. */
static int check_causes(struct rd *rd, json_t *e, const char *path, const char *key, unsigned w)
{
	json_t *v, *c;
	size_t k;
	char pc[160];
	if (rd_member(rd, e, path, key, W_ARRAY | w, &v) < 0)
		return -1;
	json_array_foreach(v, k, c)
	{
		snprintf(pc, sizeof(pc), "%s.%s[%zu]", path, key, k);
		if (!json_is_string(c) || !interf_cause_known(json_string_value(c)))
			return rd_fail(rd, pc, "not one of other_cpu, steal or memory");
	}
	return 0;
}

/* $.host.contention (optional): per cause the restarts at its level, of how many, the median
 * share and, for memory, the probes' median and floor. */
int rd_check_host_contention(struct rd *rd, json_t *host)
{
	json_t *o, *e;
	const char *key;
	char p[96];
	long long n;
	if (rd_member(rd, host, "$.host", "contention", W_OBJECT | W_OPTIONAL, &o) < 0)
		return -1;
	json_object_foreach(o, key, e)
	{
		if (!interf_cause_known(key))
			return rd_fail(rd, "$.host.contention",
				       "'%.32s' is not one of other_cpu, steal "
				       "or memory",
				       key);
		snprintf(p, sizeof(p), "$.host.contention.%s", key);
		if (!json_is_object(e))
			return rd_fail(rd, p, "expected an object, found %s", rd_type_name(e));
		if (rd_int_member(rd, e, p, "restarts", 0, RES_MAX_RESTARTS, 0, &n) < 0 ||
		    rd_int_member(rd, e, p, "of", 0, RES_MAX_RESTARTS, 0, &n) < 0 ||
		    rd_num_member(rd, e, p, "median_share", 0, 1e15, W_LO_INCL) < 0 ||
		    rd_num_member(rd, e, p, "probe_median_ns", 0, 1e15, W_OPTIONAL | W_LO_INCL) <
			0 ||
		    rd_num_member(rd, e, p, "floor_ns", 0, 1e15, W_OPTIONAL | W_LO_INCL) < 0)
			return -1;
	}
	return 0;
}

/* $.interference (optional): the rule and each restart's sums and verdict. */
int rd_check_interf_top(struct rd *rd, json_t *root)
{
	json_t *top, *list, *e, *v;
	size_t i;
	char p[96];
	if (rd_member(rd, root, "$", "interference", W_OBJECT | W_OPTIONAL, &top) < 0)
		return -1;
	if (!top)
		return 0;
	if (rd_num_member(rd, top, "$.interference", "disturbed_share", 0, 1, 0) < 0 ||
	    rd_num_member(rd, top, "$.interference", "disturbed_floor_ms", 0, RES_MAX_TIME_MS, 0) <
		0 ||
	    rd_num_member(rd, top, "$.interference", "disturbed_floor_ms_per_query", 0,
			  RES_MAX_TIME_MS, W_OPTIONAL | W_LO_INCL) < 0 ||
	    /* its older name, which files of earlier versions carry */
	    rd_num_member(rd, top, "$.interference", "disturbed_ticks_ms_per_query", 0,
			  RES_MAX_TIME_MS, W_OPTIONAL | W_LO_INCL) < 0 ||
	    rd_num_member(rd, top, "$.interference", "memory_floor_ns", 0, 1e15, W_OPTIONAL) < 0 ||
	    rd_num_member(rd, top, "$.interference", "memory_pressure_factor", 0, 1e15,
			  W_OPTIONAL) < 0 ||
	    rd_num_member(rd, top, "$.interference", "memory_share", 0, 1, W_OPTIONAL) < 0 ||
	    rd_num_member(rd, top, "$.interference", "unusual_mads", 0, 1e15, W_OPTIONAL) < 0 ||
	    rd_num_member(rd, top, "$.interference", "unusual_cpu_share", 0, 1, W_OPTIONAL) < 0 ||
	    rd_num_member(rd, top, "$.interference", "unusual_memory_share", 0, 1, W_OPTIONAL) <
		0 ||
	    rd_num_member(rd, top, "$.interference", "unusual_memory_probes", 0, 1e15, W_OPTIONAL) <
		0 ||
	    rd_member(rd, top, "$.interference", "restarts", W_ARRAY, &list) < 0)
		return -1;
	json_array_foreach(list, i, e)
	{
		long long idx;
		snprintf(p, sizeof(p), "$.interference.restarts[%zu]", i);
		if (!json_is_object(e))
			return rd_fail(rd, p, "expected an object, found %s", rd_type_name(e));
		if (rd_int_member(rd, e, p, "index", 0, RES_MAX_RESTARTS - 1, 0, &idx) < 0 ||
		    check_interf_members(rd, e, p) < 0 ||
		    rd_member(rd, e, p, "disturbed", W_BOOL, &v) < 0 ||
		    check_causes(rd, e, p, "causes", 0) < 0 ||
		    check_causes(rd, e, p, "contention", W_OPTIONAL) < 0)
			return -1;
	}
	return 0;
}
