/* SPDX-License-Identifier: MIT */
/* Interference per restart: sums of the query entries' records, the disturbed rule. */
#include "result/res.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_number(v) && json_number_value(v) > 0 ? json_number_value(v) : 0;
}

static void add_record(struct res_noise_restart *r, json_t *rec)
{
	r->n_queries++;
	r->window_ms += num(rec, "window_ms");
	r->other_cpu_ms += num(rec, "other_cpu_ms");
	r->steal_ms += num(rec, "steal_ms");
	r->server_cpu_ms += num(rec, "server_cpu_ms");
	r->query_thread_cpu_ms += num(rec, "query_thread_cpu_ms");
	r->server_rest_cpu_ms += num(rec, "server_rest_cpu_ms");
	r->vcsw += num(rec, "voluntary_ctxt_switches");
	r->ivcsw += num(rec, "involuntary_ctxt_switches");
	r->majflt += num(rec, "major_faults");
	if (json_is_number(json_object_get(rec, "read_bytes"))) {
		r->n_io++;
		r->read_bytes += num(rec, "read_bytes");
		r->write_bytes += num(rec, "write_bytes");
	}
}

/* The probe after a query (0: none) and the pressure count against floor. */
static void add_probe(struct res_noise_restart *r, json_t *rec, double floor)
{
	double after = num(rec, "memory_probe_after_ns");
	if (after <= 0 || floor <= 0)
		return;
	r->n_mem++;
	r->n_mem_pressured += after > RES_MEM_PRESSURE_FACTOR * floor;
	if (after > r->mem_max_ns)
		r->mem_max_ns = after;
	r->mem_floor_ns = floor;
}

/* The fastest probe in res: host.memory_probe.floor_ns and every record's before and after
 * (0 when there is none). */
static double probe_floor(const struct res_file *res)
{
	static const char *const keys[] = {"memory_probe_before_ns", "memory_probe_after_ns"};
	double floor = num(json_object_get(res->host, "memory_probe"), "floor_ns");
	for (size_t i = 0; i < res->n_queries; i++)
		for (size_t j = 0; j < res->queries[i].n_restarts; j++) {
			json_t *rec =
			    json_object_get(res->queries[i].restarts[j].extra, "interference");
			for (int k = 0; k < 2; k++) {
				double v = num(rec, keys[k]);
				if (v > 0 && (floor <= 0 || v < floor))
					floor = v;
			}
		}
	return floor;
}

static int memory_pressed(const struct res_noise_restart *r)
{
	return r->n_mem >= RES_MEM_MIN_PROBES &&
	       (double)r->n_mem_pressured > RES_MEM_SHARE * (double)r->n_mem;
}

static int above(double ms, const struct res_noise_restart *r)
{
	double floor = RES_NOISE_TICKS_MS * (double)r->n_queries;
	return ms >= (floor > RES_NOISE_FLOOR_MS ? floor : RES_NOISE_FLOOR_MS) &&
	       ms > RES_NOISE_SHARE * r->window_ms;
}

static int by_index(const void *a, const void *b)
{
	const struct res_noise_restart *x = a, *y = b;
	return (x->index > y->index) - (x->index < y->index);
}

static struct res_noise_restart *find_or_add(struct res_noise_restart **v, size_t *n, size_t *cap,
					     int index)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].index == index)
			return &(*v)[i];
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		struct res_noise_restart *p = realloc(*v, c * sizeof(*p));
		if (!p)
			return NULL;
		*v = p;
		*cap = c;
	}
	struct res_noise_restart *r = &(*v)[(*n)++];
	memset(r, 0, sizeof(*r));
	r->index = index;
	return r;
}

int res_noise_restarts(const struct res_file *res, struct res_noise_restart **out, size_t *n_out)
{
	struct res_noise_restart *v = NULL;
	size_t n = 0, cap = 0;
	double floor = probe_floor(res);
	*out = NULL;
	*n_out = 0;
	for (size_t i = 0; i < res->n_queries; i++)
		for (size_t j = 0; j < res->queries[i].n_restarts; j++) {
			const struct res_restart *rr = &res->queries[i].restarts[j];
			json_t *rec = json_object_get(rr->extra, "interference");
			if (!json_is_object(rec))
				continue;
			struct res_noise_restart *r = find_or_add(&v, &n, &cap, rr->index);
			if (!r) {
				free(v);
				return -1;
			}
			add_record(r, rec);
			add_probe(r, rec, floor);
		}
	for (size_t i = 0; i < n; i++)
		v[i].causes = (above(v[i].other_cpu_ms, &v[i]) ? RES_NOISE_OTHER_CPU : 0) |
			      (above(v[i].steal_ms, &v[i]) ? RES_NOISE_STEAL : 0) |
			      (memory_pressed(&v[i]) ? RES_NOISE_MEMORY : 0);
	if (n)
		qsort(v, n, sizeof(*v), by_index);
	*out = v;
	*n_out = n;
	return 0;
}

static double share(double ms, double window_ms)
{
	return window_ms > 0 ? 100.0 * ms / window_ms : 0;
}

void res_noise_cause_text(char *out, size_t len, const struct res_noise_restart *r)
{
	size_t at = 0;
	int k = 0;
	out[0] = '\0';
	if (r->causes & RES_NOISE_OTHER_CPU)
		k = snprintf(out, len, "other processes %.0f%% of a PU",
			     share(r->other_cpu_ms, r->window_ms));
	at = k > 0 && (size_t)k < len ? (size_t)k : 0;
	if (r->causes & RES_NOISE_STEAL) {
		k = snprintf(out + at, len - at, "%ssteal %.0f%% of a PU", at ? ", " : "",
			     share(r->steal_ms, r->window_ms));
		at += k > 0 && (size_t)k < len - at ? (size_t)k : 0;
	}
	if (r->causes & RES_NOISE_MEMORY)
		snprintf(out + at, len - at, "%smemory contention after %zu of %zu queries",
			 at ? ", " : "", r->n_mem_pressured, r->n_mem);
}

size_t res_noise_disturbed_list(const struct res_noise_restart *r, size_t n, char *list, size_t len)
{
	size_t count = 0, at = 0;
	if (len)
		list[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (!r[i].causes)
			continue;
		count++;
		int k = snprintf(list + at, len - at, "%s%d", at ? ", " : "", r[i].index + 1);
		if (k > 0 && (size_t)k < len - at)
			at += (size_t)k;
	}
	return count;
}

json_t *res_noise_json(const struct res_noise_restart *r, size_t n)
{
	json_t *list = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *causes = json_array();
		if (r[i].causes & RES_NOISE_OTHER_CPU)
			json_array_append_new(causes, json_string("other_cpu"));
		if (r[i].causes & RES_NOISE_STEAL)
			json_array_append_new(causes, json_string("steal"));
		if (r[i].causes & RES_NOISE_MEMORY)
			json_array_append_new(causes, json_string("memory"));
		json_t *e = json_pack(
		    "{s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:b, s:o}", "index",
		    r[i].index, "window_ms", r[i].window_ms, "other_cpu_ms", r[i].other_cpu_ms,
		    "steal_ms", r[i].steal_ms, "server_cpu_ms", r[i].server_cpu_ms,
		    "query_thread_cpu_ms", r[i].query_thread_cpu_ms, "server_rest_cpu_ms",
		    r[i].server_rest_cpu_ms, "voluntary_ctxt_switches", r[i].vcsw,
		    "involuntary_ctxt_switches", r[i].ivcsw, "major_faults", r[i].majflt,
		    "disturbed", r[i].causes != 0, "causes", causes);
		if (e && r[i].n_io) {
			json_object_set_new(e, "read_bytes", json_real(r[i].read_bytes));
			json_object_set_new(e, "write_bytes", json_real(r[i].write_bytes));
		}
		if (e && r[i].n_mem) {
			json_object_set_new(e, "memory_probes",
					    json_integer((json_int_t)r[i].n_mem));
			json_object_set_new(e, "memory_pressured",
					    json_integer((json_int_t)r[i].n_mem_pressured));
			json_object_set_new(e, "memory_probe_max_ns", json_real(r[i].mem_max_ns));
		}
		json_array_append_new(list, e);
	}
	json_t *top =
	    json_pack("{s:f, s:f, s:f, s:o}", "disturbed_share", RES_NOISE_SHARE,
		      "disturbed_floor_ms", RES_NOISE_FLOOR_MS, "disturbed_ticks_ms_per_query",
		      RES_NOISE_TICKS_MS, "restarts", list);
	double floor = 0;
	for (size_t i = 0; i < n; i++)
		floor = r[i].n_mem ? r[i].mem_floor_ns : floor;
	if (top && floor > 0) {
		json_object_set_new(top, "memory_floor_ns", json_real(floor));
		json_object_set_new(top, "memory_pressure_factor",
				    json_real(RES_MEM_PRESSURE_FACTOR));
		json_object_set_new(top, "memory_share", json_real(RES_MEM_SHARE));
	}
	return top;
}

int res_file_drop_disturbed(struct res_file *res, size_t *out_n)
{
	struct res_noise_restart *r;
	size_t n;
	*out_n = 0;
	if (res_noise_restarts(res, &r, &n) < 0)
		return -1;
	for (size_t k = 0; k < n; k++) {
		if (!r[k].causes)
			continue;
		(*out_n)++;
		for (size_t i = 0; i < res->n_queries; i++) {
			struct res_query *q = &res->queries[i];
			for (size_t j = q->n_restarts; j-- > 0;)
				if (q->restarts[j].index == r[k].index)
					res_query_remove_restart(q, j);
		}
	}
	free(r);
	return 0;
}

size_t res_noise_line(const struct res_file *res, char *out, size_t len)
{
	struct res_noise_restart *r;
	size_t n, count = 0, at = 0;
	char why[160];
	out[0] = '\0';
	if (res_noise_restarts(res, &r, &n) < 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		count += r[i].causes != 0;
	if (count) {
		int k = snprintf(out, len, "%zu of %zu restarts disturbed (", count, n);
		at = k > 0 && (size_t)k < len ? (size_t)k : len - 1;
		for (size_t i = 0, seen = 0; i < n && at < len - 1; i++) {
			if (!r[i].causes)
				continue;
			res_noise_cause_text(why, sizeof(why), &r[i]);
			const char *sep = seen ? "; " : "";
			seen++;
			k = snprintf(out + at, len - at, "%srestart %d: %s%s", sep, r[i].index + 1,
				     why, seen == count ? ")" : "");
			at += k > 0 && (size_t)k < len - at ? (size_t)k : len - at - 1;
		}
	}
	free(r);
	return count;
}

int res_noise_probe_covariate(const struct res_file *res, double **out, size_t *out_n)
{
	size_t n = 0, with = 0;
	*out = NULL;
	*out_n = 0;
	for (size_t i = 0; i < res->n_queries; i++)
		for (size_t j = 0; j < res->queries[i].n_restarts; j++) {
			int idx = res->queries[i].restarts[j].index;
			if (idx >= 0 && (size_t)idx + 1 > n)
				n = (size_t)idx + 1;
		}
	double *sum = calloc(n ? n : 1, sizeof(double)), *cnt = calloc(n ? n : 1, sizeof(double));
	if (!sum || !cnt) {
		free(sum);
		free(cnt);
		return -1;
	}
	for (size_t i = 0; i < res->n_queries; i++)
		for (size_t j = 0; j < res->queries[i].n_restarts; j++) {
			const struct res_restart *rr = &res->queries[i].restarts[j];
			double a = num(json_object_get(rr->extra, "interference"),
				       "memory_probe_after_ns");
			if (rr->index >= 0 && a > 0) {
				sum[rr->index] += log(a);
				cnt[rr->index]++;
			}
		}
	for (size_t k = 0; k < n; k++) {
		with += cnt[k] > 0;
		sum[k] = cnt[k] > 0 ? sum[k] / cnt[k] : NAN;
	}
	free(cnt);
	*out = sum;
	*out_n = n;
	return (int)with;
}
