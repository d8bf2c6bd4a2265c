/* SPDX-License-Identifier: MIT */
/* The doctor's host-quietness check (pinning/doctor_quiet.h). */
#include "pinning/doctor_quiet.h"
#include "base/text.h"
#include "base/util.h"
#include "pinning/doctor_int.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Steal and all ticks of cpu's line of root/proc/stat ("cpu " when cpu < 0): user nice system
 * idle iowait irq softirq steal (guest time is inside user). 0, or -1 when absent. */
static int stat_ticks(const char *root, int cpu, unsigned long long *steal,
		      unsigned long long *total)
{
	unsigned long long v[8];
	if (doctor_stat_ticks(root, cpu, v) != 8)
		return -1;
	*steal = v[7];
	*total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
	return 0;
}

/* Steal and all ticks summed over the benchmark PUs (the aggregate line without any). */
static int pus_ticks(const struct doctor_env *env, unsigned long long *steal,
		     unsigned long long *total)
{
	*steal = *total = 0;
	if (env->n_cpus == 0)
		return stat_ticks(env->root, -1, steal, total);
	for (int i = 0; i < env->n_cpus; i++) {
		unsigned long long s, t;
		if (stat_ticks(env->root, (int)env->cpus[i], &s, &t) < 0)
			return -1;
		*steal += s;
		*total += t;
	}
	return 0;
}

int doctor_quiet_sample(struct doctor_quiet_sample *out, const struct doctor_env *env)
{
	const struct doctor_probe *p = env->probe;
	size_t max =
	    env->quiet_max_probes > 0 ? (size_t)env->quiet_max_probes : DOCTOR_QUIET_MAX_PROBES;
	uint64_t ms = env->quiet_ms > 0 ? (uint64_t)env->quiet_ms : DOCTOR_QUIET_MS;
	unsigned long long s0, t0, s1, t1;
	memset(out, 0, sizeof(*out));
	out->steal_share = NAN;
	if (max > DOCTOR_QUIET_MAX_PROBES)
		max = DOCTOR_QUIET_MAX_PROBES;
	int have0 = pus_ticks(env, &s0, &t0) == 0;
	uint64_t start = util_now_ns();
	for (size_t i = 0; out->n_near < max; i++) {
		if (i % DOCTOR_QUIET_FAR_EVERY == 0 && p->far) {
			double f = p->far(p->ctx);
			if (f > 0)
				out->far[out->n_far++] = f;
		}
		double v = p->near(p->ctx);
		if (!(v > 0))
			break;
		out->near[out->n_near++] = v;
		uint64_t took = util_now_ns() - start;
		if (took >= DOCTOR_QUIET_MS_CAP * ms * 1000000u ||
		    (took >= ms * 1000000u && out->n_near >= DOCTOR_QUIET_MIN_PROBES))
			break;
	}
	if (have0 && pus_ticks(env, &s1, &t1) == 0 && t1 > t0 && s1 >= s0)
		out->steal_share = (double)(s1 - s0) / (double)(t1 - t0);
	return out->n_near ? 0 : -1;
}

/* The median of v[0..n) (the mean of the middle two when n is even); NaN when n is 0. */
static double median_of(const double *v, size_t n)
{
	double *c = doctor_sorted_copy(v, n);
	if (!c)
		return NAN;
	double m = util_median_sorted(c, n);
	free(c);
	return m;
}

void doctor_quiet_judge(struct doctor_quiet *out, const struct doctor_quiet_sample *s,
			const struct doctor_floor *floor)
{
	memset(out, 0, sizeof(*out));
	out->sampled = s->n_near > 0;
	out->n = s->n_near;
	out->share = out->fastest_ns = out->pressure = out->noise_lo = out->noise_hi = NAN;
	out->median_ns = median_of(s->near, s->n_near);
	out->far_ns = median_of(s->far, s->n_far);
	out->sample_floor_ns = doctor_floor_of(s->near, s->n_near);
	out->steal_share = s->steal_share;
	out->steal_high = s->steal_share > DOCTOR_QUIET_STEAL;
	for (size_t i = 0; i < s->n_near; i++)
		if (isnan(out->fastest_ns) || s->near[i] < out->fastest_ns)
			out->fastest_ns = s->near[i];
	if (floor) {
		out->have_floor = 1;
		out->floor = *floor;
		out->pressure = out->median_ns / floor->ns;
	}
	if (floor && s->n_near >= DOCTOR_QUIET_MIN_JUDGED) {
		for (size_t i = 0; i < s->n_near; i++)
			out->pressured += s->near[i] > DOCTOR_QUIET_PRESSURE_FACTOR * floor->ns;
		out->share = (double)out->pressured / (double)out->n;
		out->memory = out->share > DOCTOR_QUIET_PRESSED ? DOCTOR_QUIET_MEM_PRESSED
								: DOCTOR_QUIET_MEM_QUIET;
		int p = out->memory == DOCTOR_QUIET_MEM_PRESSED;
		out->noise_lo = p ? DOCTOR_QUIET_NOISE_PRESSED_LO : DOCTOR_QUIET_NOISE_QUIET_LO;
		out->noise_hi = p ? DOCTOR_QUIET_NOISE_PRESSED_HI : DOCTOR_QUIET_NOISE_QUIET_HI;
	}
	if (out->steal_high || out->memory == DOCTOR_QUIET_MEM_PRESSED)
		out->status = DOCTOR_WARN;
	else if (out->memory == DOCTOR_QUIET_MEM_QUIET)
		out->status = DOCTOR_OK;
	else
		out->status = DOCTOR_UNKNOWN;
}

int doctor_quiet_floor(struct doctor_floor *out, char *note, size_t len,
		       const struct doctor_env *env)
{
	struct errbuf err = {{0}};
	char model[256], why[512];
	memset(out, 0, sizeof(*out));
	if (!env->floor_file) {
		snprintf(note, len, "no floor file");
		return 0;
	}
	int rc = doctor_floor_load(out, env->floor_file, &err);
	if (rc == 0)
		snprintf(note, len, "no floor stored for this host");
	if (rc < 0)
		snprintf(note, len, "stored floor ignored: %s",
			 util_term(why, sizeof(why), err.msg));
	if (rc <= 0)
		return 0;
	doctor_cpu_model(env->root, model, sizeof(model));
	size_t bytes = env->probe ? env->probe->near_bytes : out->probe_bytes;
	if (!doctor_floor_fits(out, model, bytes, why, sizeof(why))) {
		snprintf(note, len, "stored floor ignored: %s", why);
		return 0;
	}
	note[0] = '\0';
	return 1;
}

static void add(char *out, size_t len, const char *fmt, ...) UTIL_PRINTF(3, 4);
static void add(char *out, size_t len, const char *fmt, ...)
{
	size_t at = strlen(out);
	if (at + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out + at, len - at, fmt, ap);
	va_end(ap);
}

/* "12-34" restarts a side at the two ends of the noise band (0: more than priced). */
static void add_range(char *out, size_t len, size_t lo, size_t hi)
{
	if (lo == 0)
		add(out, len, "more than 100");
	else if (hi == 0)
		add(out, len, "%zu to more than 100", lo);
	else if (lo == hi)
		add(out, len, "%zu", lo);
	else
		add(out, len, "%zu-%zu", lo, hi);
}

/* The memory part of the value. */
static void describe_memory(char *v, size_t len, const struct doctor_quiet *n,
			    const struct doctor_probe *p)
{
	char src[80], date[48];
	if (!n->have_floor) {
		add(v, len,
		    "%s (doctor --tune on a quiet host stores one): memory probe fastest %.1f ns, "
		    "median %.1f ns (%.0f MiB ring",
		    n->floor_note, n->fastest_ns, n->median_ns,
		    p ? (double)p->near_bytes / (1 << 20) : 0.0);
		if (!isnan(n->far_ns))
			add(v, len, "; memory reference %.0f ns", n->far_ns);
		add(v, len, ")");
		return;
	}
	add(v, len, "memory probe median %.1f ns, %.2fx this host's floor (%.1f ns, %s %s)",
	    n->median_ns, n->pressure, n->floor.ns, util_term(src, sizeof(src), n->floor.source),
	    util_term(date, sizeof(date), n->floor.date));
	if (n->memory == DOCTOR_QUIET_MEM_NONE)
		add(v, len, "; %zu probes, too few for a share", n->n);
	else
		add(v, len, "; %zu of %zu probes above %gx it (%.0f%%)", n->pressured, n->n,
		    DOCTOR_QUIET_PRESSURE_FACTOR, 100 * n->share);
}

/* The verdict and its evidence. */
static void describe_verdict(char *v, size_t len, const struct doctor_quiet *n)
{
	if (n->steal_high)
		add(v, len,
		    ": noisy for time verdicts: steal above %.0f%% of the PUs' time (run marks "
		    "such "
		    "a restart disturbed)",
		    100 * DOCTOR_QUIET_STEAL);
	if (n->memory == DOCTOR_QUIET_MEM_PRESSED)
		add(v, len,
		    "%s memory contention as run calls it (more than %.0f%% of the probes above "
		    "%gx the floor); expect restart noise about %.0f-%.0f%% (2 runs with 34-57%% "
		    "of "
		    "their probes under pressure; 6 with 0-20%% had 3-13%%; within a run, a "
		    "restart's share and its noise r = 0.89-0.93)",
		    n->steal_high ? "; and" : ": noisy for time verdicts:",
		    100 * DOCTOR_QUIET_PRESSED, DOCTOR_QUIET_PRESSURE_FACTOR, 100 * n->noise_lo,
		    100 * n->noise_hi);
	else if (n->memory == DOCTOR_QUIET_MEM_QUIET)
		add(v, len,
		    "%s no memory contention as run calls it (at most %.0f%% of the probes above "
		    "%gx the floor); expect restart noise about %.0f-%.0f%% (6 runs on two hosts "
		    "with 0-20%% of their probes under pressure)",
		    n->steal_high ? "; memory:" : ": quiet for time verdicts:",
		    100 * DOCTOR_QUIET_PRESSED, DOCTOR_QUIET_PRESSURE_FACTOR, 100 * n->noise_lo,
		    100 * n->noise_hi);
}

void doctor_quiet_describe(struct doctor_check *c, const struct doctor_quiet *n,
			   const struct doctor_env *env)
{
	char *v = c->value;
	size_t len = sizeof(c->value);
	v[0] = c->fix[0] = '\0';
	c->status = n->status;
	describe_memory(v, len, n, env->probe);
	if (isnan(n->steal_share))
		add(v, len, ", steal unknown");
	else
		add(v, len, ", steal %.1f%%", 100 * n->steal_share);
	describe_verdict(v, len, n);
	if (!isnan(n->noise_lo) && env->restarts) {
		add(v, len, "; a 5%% time verdict needs ");
		add_range(v, len, env->restarts(n->noise_lo, 0.05),
			  env->restarts(n->noise_hi, 0.05));
		add(v, len, " restarts a side here, a 10%% one ");
		add_range(v, len, env->restarts(n->noise_lo, 0.10),
			  env->restarts(n->noise_hi, 0.10));
		add(v, len, " (one query of %d, Holm)", DOCTOR_QUIET_QUERIES);
	}
	if (n->status != DOCTOR_WARN)
		return;
	snprintf(c->fix, sizeof(c->fix), "%s",
		 n->steal_high
		     ? "none inside the guest: a host without neighbours (dedicated or bare metal)"
		     : "doctor again when the neighbours are quieter, or decide by what this noise "
		       "does not touch: compare's work test, run --side-by-side, compare "
		       "--adjust-memory");
}

void doctor_quiet_check(struct doctor_check *c, const struct doctor_env *env)
{
	struct doctor_quiet_sample *s = calloc(1, sizeof(*s));
	struct doctor_quiet n;
	struct doctor_floor fl;
	char note[512];
	int have = doctor_quiet_floor(&fl, note, sizeof(note), env);
	int sampled = s && env->probe && doctor_quiet_sample(s, env) == 0;
	if (s && !sampled) {
		memset(s, 0, sizeof(*s));
		s->steal_share = NAN;
	}
	if (s)
		doctor_quiet_judge(&n, s, have ? &fl : NULL);
	else
		memset(&n, 0, sizeof(n));
	snprintf(n.floor_note, sizeof(n.floor_note), "%s", note);
	const char *why = !env->probe ? "not sampled (--noise-seconds 0, or no memory probe)"
			  : s	      ? "no memory probe (it failed)"
				      : "out of memory";
	free(s);
	if (env->quiet_out)
		*env->quiet_out = n;
	if (sampled) {
		doctor_quiet_describe(c, &n, env);
		return;
	}
	c->status = DOCTOR_UNKNOWN;
	c->fix[0] = '\0';
	snprintf(c->value, sizeof(c->value), "%s", why);
}

int doctor_quiet_calibrate(struct doctor_floor *out, int *out_kept, const struct doctor_env *env,
			   struct errbuf *err)
{
	struct doctor_env e = *env;
	struct doctor_floor old;
	char note[512];
	*out_kept = 0;
	if (!env->probe || !env->floor_file)
		return errbuf_set(err, "no floor taken: no memory probe");
	e.quiet_ms = DOCTOR_FLOOR_TIMES * (env->quiet_ms > 0 ? env->quiet_ms : DOCTOR_QUIET_MS);
	struct doctor_quiet_sample *s = calloc(1, sizeof(*s));
	if (!s)
		return errbuf_set(err, "out of memory");
	if (doctor_quiet_sample(s, &e) < 0) {
		free(s);
		return errbuf_set(err, "no floor taken: the memory probe failed");
	}
	memset(out, 0, sizeof(*out));
	out->ns = doctor_floor_of(s->near, s->n_near);
	out->median_ns = median_of(s->near, s->n_near);
	out->probes = s->n_near;
	out->probe_bytes = env->probe->near_bytes;
	free(s);
	util_utc_iso8601(out->date);
	snprintf(out->source, sizeof(out->source), "doctor --tune");
	doctor_cpu_model(env->root, out->cpu_model, sizeof(out->cpu_model));
	if (doctor_quiet_floor(&old, note, sizeof(note), env) == 1 && old.ns <= out->ns) {
		*out = old; /* a floor only goes down */
		*out_kept = 1;
		return 0;
	}
	return doctor_floor_save(out, env->floor_file, err);
}

static json_t *num(double x)
{
	return isnan(x) ? json_null() : json_real(x);
}

json_t *doctor_quiet_json(const struct doctor_quiet *n)
{
	const struct doctor_floor *f = &n->floor;
	json_t *floor = n->have_floor ? json_pack("{s:f, s:o, s:I, s:I, s:s, s:s, s:s}", "ns",
						  f->ns, "median_ns", num(f->median_ns), "probes",
						  (json_int_t)f->probes, "probe_bytes",
						  (json_int_t)f->probe_bytes, "date", f->date,
						  "source", f->source, "cpu_model", f->cpu_model)
				      : json_null();
	int judged = n->memory != DOCTOR_QUIET_MEM_NONE;
	json_t *band =
	    isnan(n->noise_lo) ? json_null() : json_pack("[f, f]", n->noise_lo, n->noise_hi);
	json_t *rule =
	    json_pack("{s:f, s:f, s:i, s:f}", "pressure_factor", DOCTOR_QUIET_PRESSURE_FACTOR,
		      "share", DOCTOR_QUIET_PRESSED, "min_probes", DOCTOR_QUIET_MIN_JUDGED,
		      "steal_share", DOCTOR_QUIET_STEAL);
	return json_pack(
	    "{s:s, s:o, s:o, s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "verdict",
	    n->status == DOCTOR_WARN ? "noisy"
	    : n->status == DOCTOR_OK ? "quiet"
				     : "unknown",
	    "floor", floor, "floor_note",
	    n->floor_note[0] ? json_string(n->floor_note) : json_null(), "pressure",
	    num(n->pressure), "probes", (json_int_t)n->n, "pressured",
	    judged ? json_integer((json_int_t)n->pressured) : json_null(), "share", num(n->share),
	    "median_ns", num(n->median_ns), "fastest_ns", num(n->fastest_ns), "sample_floor_ns",
	    num(n->sample_floor_ns), "reference_ns", num(n->far_ns), "steal_share",
	    num(n->steal_share), "rule", rule, "restart_noise", band);
}
