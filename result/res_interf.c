/* SPDX-License-Identifier: MIT */
/* Interference per restart: sums of the query entries' records, the disturbed rule. */
#include "base/util.h"
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

static void add_record(struct res_interf_restart *r, json_t *rec)
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
	if (json_is_number(json_object_get(rec, "server_pu_other_cpu_ms"))) {
		r->n_spu++;
		r->server_pu_other_ms += num(rec, "server_pu_other_cpu_ms");
	}
	if (json_is_number(json_object_get(rec, "read_bytes"))) {
		r->n_io++;
		r->read_bytes += num(rec, "read_bytes");
		r->write_bytes += num(rec, "write_bytes");
	}
}

/* The probe after a query (0: none) and the pressure count against floor. */
static void add_probe(struct res_interf_restart *r, json_t *rec, double floor)
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

/* The calibration probes of res (host.memory_probe.calibration_ns) against floor. */
static void calib_of(struct res_interf_calib *out, const struct res_file *res, double floor)
{
	json_t *a = json_object_get(json_object_get(res->host, "memory_probe"), "calibration_ns");
	size_t i;
	json_t *v;
	out->n = out->pressured = 0;
	if (!(floor > 0))
		return;
	json_array_foreach(a, i, v)
	{
		if (!json_is_number(v) || !(json_number_value(v) > 0))
			continue;
		out->n++;
		out->pressured += json_number_value(v) > RES_MEM_PRESSURE_FACTOR * floor;
	}
}

static int memory_pressed(const struct res_interf_restart *r)
{
	return r->n_mem >= RES_MEM_MIN_PROBES &&
	       (double)r->n_mem_pressured > RES_MEM_SHARE * (double)r->n_mem;
}

static double allowance_ms(const struct res_interf_restart *r)
{
	double floor = RES_INTERF_FLOOR_MS_PER_QUERY * (double)r->n_queries;
	return floor > RES_INTERF_FLOOR_MS ? floor : RES_INTERF_FLOOR_MS;
}

static int above(double ms, const struct res_interf_restart *r)
{
	return ms >= allowance_ms(r) && ms > RES_INTERF_SHARE * r->window_ms;
}

/* Others' CPU time taken from the server: on its own PUs when every record of the restart says
 * (a pinned server), else (files before it, an unpinned server) on all the benchmark PUs. */
static double server_pu_ms(const struct res_interf_restart *r)
{
	return r->n_spu && r->n_spu == r->n_queries ? r->server_pu_other_ms : r->other_cpu_ms;
}

/* The causes at the level that are disturbances whatever the other restarts had: CPU time
 * taken from the server, by others on its PUs or by the hypervisor (result/res.h). */
static unsigned absolute_causes(const struct res_interf_restart *r)
{
	return (above(server_pu_ms(r), r) ? RES_INTERF_OTHER_CPU : 0u) |
	       (above(r->steal_ms, r) ? RES_INTERF_STEAL : 0u);
}

/* The reference of one restart: the median of the n values v (sorted in place) and 1.4826
 * times their median absolute deviation, which estimates the sd of normal data (Rousseeuw &
 * Croux 1993); scratch holds n doubles. */
static void median_mad(double *out_med, double *out_sd, double *v, size_t n, double *scratch)
{
	util_sort_doubles(v, n);
	double m = util_median_sorted(v, n);
	for (size_t i = 0; i < n; i++)
		scratch[i] = fabs(v[i] - m);
	util_sort_doubles(scratch, n);
	*out_med = m;
	*out_sd = 1.4826 * util_median_sorted(scratch, n);
}

/* The three figures the rule compares: other processes' and steal time as shares of the
 * window, the share of the probes under pressure (NaN when fewer than RES_MEM_MIN_PROBES). */
static double share_of(const struct res_interf_restart *r, int cause)
{
	if (cause == RES_INTERF_MEMORY)
		return r->n_mem >= RES_MEM_MIN_PROBES
			   ? (double)r->n_mem_pressured / (double)r->n_mem
			   : NAN;
	if (!(r->window_ms > 0))
		return 0;
	return (cause == RES_INTERF_OTHER_CPU ? r->other_cpu_ms : r->steal_ms) / r->window_ms;
}

/* Whether restart r stands out from a reference of median m and scaled MAD sd by the rule in
 * result/res.h (the Hampel identifier, median + 3 scaled MADs: Hampel 1974; Leys et al. 2013,
 * J. Exp. Soc. Psychol. 49:764-766), with a margin and the counting error. */
static int unusual(const struct res_interf_restart *r, int cause, double m, double sd)
{
	double x = share_of(r, cause);
	if (cause == RES_INTERF_MEMORY) {
		double d = RES_UNUSUAL_MADS * sd > RES_UNUSUAL_MEM_SHARE ? RES_UNUSUAL_MADS * sd
									 : RES_UNUSUAL_MEM_SHARE;
		return x > m + d &&
		       (double)r->n_mem_pressured - m * (double)r->n_mem >= RES_UNUSUAL_MEM_PROBES;
	}
	double d = RES_UNUSUAL_MADS * sd > RES_UNUSUAL_CPU_SHARE ? RES_UNUSUAL_MADS * sd
								 : RES_UNUSUAL_CPU_SHARE;
	double ms = cause == RES_INTERF_OTHER_CPU ? r->other_cpu_ms : r->steal_ms;
	double excess = ms - m * r->window_ms, count = 3.0 * sqrt(20.0 * m * r->window_ms);
	return x > m + d && excess >= allowance_ms(r) && excess >= count;
}

/* The restarts at cause's level that are unusual against the others (and cal for memory):
 * their causes bit set. v and scratch hold n + 1 doubles. */
static void classify_cause(struct res_interf_restart *r, size_t n, int cause,
			   const struct res_interf_calib *cal, double *v, double *scratch)
{
	int with_cal = cause == RES_INTERF_MEMORY && cal && cal->n >= RES_MEM_MIN_PROBES;
	int loo = n <= RES_UNUSUAL_LOO_MAX, have = 0;
	double m = 0, sd = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(r[i].level & (unsigned)cause))
			continue;
		if (loo || !have) {
			size_t k = 0;
			for (size_t j = 0; j < n; j++)
				if ((!loo || j != i) && !isnan(share_of(&r[j], cause)))
					v[k++] = share_of(&r[j], cause);
			if (with_cal)
				v[k++] = (double)cal->pressured / (double)cal->n;
			if (!k) {
				r[i].causes |= (unsigned)cause; /* nothing to compare with */
				continue;
			}
			median_mad(&m, &sd, v, k, scratch);
			have = 1;
		}
		if (unusual(&r[i], cause, m, sd))
			r[i].causes |= (unsigned)cause;
	}
}

void res_interf_classify(struct res_interf_restart *r, size_t n, const struct res_interf_calib *cal)
{
	static const int causes[] = {RES_INTERF_OTHER_CPU, RES_INTERF_STEAL, RES_INTERF_MEMORY};
	double *v = malloc((n + 1) * sizeof(double)), *scratch = malloc((n + 1) * sizeof(double));
	for (size_t i = 0; i < n; i++) {
		r[i].level = (above(r[i].other_cpu_ms, &r[i]) ? RES_INTERF_OTHER_CPU : 0) |
			     (memory_pressed(&r[i]) ? RES_INTERF_MEMORY : 0) |
			     absolute_causes(&r[i]);
		/* out of memory: the level alone, as with no reference */
		r[i].causes = v && scratch ? absolute_causes(&r[i]) : r[i].level;
	}
	for (size_t c = 0; v && scratch && c < sizeof(causes) / sizeof(causes[0]); c++)
		classify_cause(r, n, causes[c], cal, v, scratch);
	free(v);
	free(scratch);
}

static int by_index(const void *a, const void *b)
{
	const struct res_interf_restart *x = a, *y = b;
	return (x->index > y->index) - (x->index < y->index);
}

static struct res_interf_restart *find_or_add(struct res_interf_restart **v, size_t *n, size_t *cap,
					      int index)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].index == index)
			return &(*v)[i];
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		struct res_interf_restart *p = realloc(*v, c * sizeof(*p));
		if (!p)
			return NULL;
		*v = p;
		*cap = c;
	}
	struct res_interf_restart *r = &(*v)[(*n)++];
	memset(r, 0, sizeof(*r));
	r->index = index;
	return r;
}

int res_interf_restarts(const struct res_file *res, struct res_interf_restart **out, size_t *n_out)
{
	struct res_interf_restart *v = NULL;
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
			struct res_interf_restart *r = find_or_add(&v, &n, &cap, rr->index);
			if (!r) {
				free(v);
				return -1;
			}
			add_record(r, rec);
			add_probe(r, rec, floor);
		}
	if (n)
		qsort(v, n, sizeof(*v), by_index);
	struct res_interf_calib cal;
	calib_of(&cal, res, floor);
	res_interf_classify(v, n, cal.n ? &cal : NULL);
	*out = v;
	*n_out = n;
	return 0;
}

static double share(double ms, double window_ms)
{
	return window_ms > 0 ? 100.0 * ms / window_ms : 0;
}

void res_interf_cause_text(char *out, size_t len, const struct res_interf_restart *r)
{
	size_t at = 0;
	int k = 0;
	out[0] = '\0';
	if ((r->causes & RES_INTERF_OTHER_CPU) && r->n_spu == r->n_queries && r->n_spu &&
	    above(r->server_pu_other_ms, r))
		k = snprintf(out, len, "other processes %.0f%% of the server's PU",
			     share(r->server_pu_other_ms, r->window_ms));
	else if (r->causes & RES_INTERF_OTHER_CPU)
		k = snprintf(out, len, "other processes %.0f%% of a PU",
			     share(r->other_cpu_ms, r->window_ms));
	at = k > 0 && (size_t)k < len ? (size_t)k : 0;
	if (r->causes & RES_INTERF_STEAL) {
		k = snprintf(out + at, len - at, "%ssteal %.0f%% of a PU", at ? ", " : "",
			     share(r->steal_ms, r->window_ms));
		at += k > 0 && (size_t)k < len - at ? (size_t)k : 0;
	}
	if (r->causes & RES_INTERF_MEMORY)
		snprintf(out + at, len - at, "%smemory contention after %zu of %zu queries",
			 at ? ", " : "", r->n_mem_pressured, r->n_mem);
}

size_t res_interf_disturbed_list(const struct res_interf_restart *r, size_t n, char *list,
				 size_t len)
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

/* ["other_cpu", "steal", "memory"]: the causes in bits. */
static json_t *causes_json(unsigned bits)
{
	json_t *a = json_array();
	if (bits & RES_INTERF_OTHER_CPU)
		json_array_append_new(a, json_string("other_cpu"));
	if (bits & RES_INTERF_STEAL)
		json_array_append_new(a, json_string("steal"));
	if (bits & RES_INTERF_MEMORY)
		json_array_append_new(a, json_string("memory"));
	return a;
}

json_t *res_interf_json(const struct res_interf_restart *r, size_t n)
{
	json_t *list = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *causes = causes_json(r[i].causes);
		json_t *e = json_pack(
		    "{s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:b, s:o}", "index",
		    r[i].index, "window_ms", r[i].window_ms, "other_cpu_ms", r[i].other_cpu_ms,
		    "steal_ms", r[i].steal_ms, "server_cpu_ms", r[i].server_cpu_ms,
		    "query_thread_cpu_ms", r[i].query_thread_cpu_ms, "server_rest_cpu_ms",
		    r[i].server_rest_cpu_ms, "voluntary_ctxt_switches", r[i].vcsw,
		    "involuntary_ctxt_switches", r[i].ivcsw, "major_faults", r[i].majflt,
		    "disturbed", r[i].causes != 0, "causes", causes);
		if (e && r[i].n_spu)
			json_object_set_new(e, "server_pu_other_cpu_ms",
					    json_real(r[i].server_pu_other_ms));
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
		if (e)
			json_object_set_new(e, "contention", causes_json(r[i].level));
		json_array_append_new(list, e);
	}
	json_t *top = json_pack(
	    "{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:o}", "disturbed_share", RES_INTERF_SHARE,
	    "disturbed_floor_ms", RES_INTERF_FLOOR_MS, "disturbed_floor_ms_per_query",
	    RES_INTERF_FLOOR_MS_PER_QUERY, "unusual_mads", RES_UNUSUAL_MADS, "unusual_cpu_share",
	    RES_UNUSUAL_CPU_SHARE, "unusual_memory_share", RES_UNUSUAL_MEM_SHARE,
	    "unusual_memory_probes", RES_UNUSUAL_MEM_PROBES, "restarts", list);
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
	struct res_interf_restart *r;
	size_t n;
	*out_n = 0;
	if (res_interf_restarts(res, &r, &n) < 0)
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

size_t res_interf_line(const struct res_file *res, char *out, size_t len)
{
	struct res_interf_restart *r;
	size_t n, count = 0, at = 0;
	char why[160];
	out[0] = '\0';
	if (res_interf_restarts(res, &r, &n) < 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		count += r[i].causes != 0;
	if (count) {
		int k = snprintf(out, len, "%zu of %zu restarts disturbed (", count, n);
		at = k > 0 && (size_t)k < len ? (size_t)k : len - 1;
		for (size_t i = 0, seen = 0; i < n && at < len - 1; i++) {
			if (!r[i].causes)
				continue;
			res_interf_cause_text(why, sizeof(why), &r[i]);
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

int res_interf_probe_covariate(const struct res_file *res, double **out, size_t *out_n)
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

/* The median of the probes after the queries of res, 0 when none (malloc fails: -1). */
static double probe_median(const struct res_file *res)
{
	size_t n = 0, k = 0;
	for (size_t i = 0; i < res->n_queries; i++)
		n += res->queries[i].n_restarts;
	double *v = malloc((n ? n : 1) * sizeof(double)), m = 0;
	if (!v)
		return -1;
	for (size_t i = 0; i < res->n_queries; i++)
		for (size_t j = 0; j < res->queries[i].n_restarts; j++) {
			double a =
			    num(json_object_get(res->queries[i].restarts[j].extra, "interference"),
				"memory_probe_after_ns");
			if (a > 0)
				v[k++] = a;
		}
	if (k) {
		util_sort_doubles(v, k);
		m = util_median_sorted(v, k);
	}
	free(v);
	return m;
}

static const int host_causes[3] = {RES_INTERF_OTHER_CPU, RES_INTERF_STEAL, RES_INTERF_MEMORY};

int res_interf_host(struct res_interf_host *out, const struct res_file *res)
{
	struct res_interf_restart *r;
	size_t n;
	memset(out, 0, sizeof(*out));
	if (res_interf_restarts(res, &r, &n) < 0)
		return -1;
	double *v = malloc((n ? n : 1) * sizeof(double));
	out->probe_median_ns = probe_median(res);
	if (!v || out->probe_median_ns < 0) {
		free(v);
		free(r);
		return -1;
	}
	out->n = n;
	for (int c = 0; c < 3; c++) {
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			out->at_level[c] += (r[i].level & (unsigned)host_causes[c]) != 0;
			if (!isnan(share_of(&r[i], host_causes[c])))
				v[k++] = share_of(&r[i], host_causes[c]);
		}
		if (k) {
			util_sort_doubles(v, k);
			out->median_share[c] = util_median_sorted(v, k);
		}
		if (out->at_level[c] >= 2 && 2 * out->at_level[c] >= n)
			out->causes |= (unsigned)host_causes[c];
	}
	for (size_t i = 0; i < n; i++)
		out->floor_ns = r[i].n_mem ? r[i].mem_floor_ns : out->floor_ns;
	free(v);
	free(r);
	return 0;
}

int res_interf_host_text(char *out, size_t len, const struct res_interf_host *h)
{
	static const char *const what[3] = {"other processes", "steal", "memory contention"};
	size_t at = 0;
	int count = 0;
	if (len)
		out[0] = '\0';
	for (int c = 0; c < 3 && at < len; c++) {
		if (!(h->causes & (unsigned)host_causes[c]))
			continue;
		char when[64], fig[96];
		if (h->at_level[c] == h->n)
			snprintf(when, sizeof(when), "throughout");
		else
			snprintf(when, sizeof(when), "in %zu of %zu restarts", h->at_level[c],
				 h->n);
		if (host_causes[c] == RES_INTERF_MEMORY)
			snprintf(fig, sizeof(fig), " %s (probe median %.1f\u00d7 its floor)", when,
				 h->floor_ns > 0 ? h->probe_median_ns / h->floor_ns : 0);
		else
			snprintf(fig, sizeof(fig), " %.0f%% of a PU %s", 100 * h->median_share[c],
				 when);
		int k = snprintf(out + at, len - at, "%s%s%s", count ? "; " : "", what[c], fig);
		at += k > 0 && (size_t)k < len - at ? (size_t)k : len - at - 1;
		count++;
	}
	return count;
}

json_t *res_interf_host_json(const struct res_interf_host *h)
{
	static const char *const keys[3] = {"other_cpu", "steal", "memory"};
	json_t *o = json_object();
	for (int c = 0; o && c < 3; c++) {
		if (!(h->causes & (unsigned)host_causes[c]))
			continue;
		json_t *e = json_pack("{s:I, s:I, s:f}", "restarts", (json_int_t)h->at_level[c],
				      "of", (json_int_t)h->n, "median_share", h->median_share[c]);
		if (e && host_causes[c] == RES_INTERF_MEMORY) {
			json_object_set_new(e, "probe_median_ns", json_real(h->probe_median_ns));
			json_object_set_new(e, "floor_ns", json_real(h->floor_ns));
		}
		json_object_set_new(o, keys[c], e);
	}
	return o;
}
