/* SPDX-License-Identifier: MIT */
/* doctor's host-noise check (pinning/doctor_quiet.c): the verdict on synthetic samples against
 * tests/data/host_noise_cases.py, the sampling with scripted probes and a mirrored /proc/stat,
 * and the text. Nothing here is timed: the sampling ends by its probe count. */
#include "harness.h"
#include "pinning/doctor_quiet.h"
#include "result/res.h"
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DATA DBT3_SOURCE_DIR "/tests/data/"

static void same(double got, json_t *want)
{
	if (json_is_null(want) || !want) {
		CU_ASSERT(isnan(got));
		return;
	}
	double w = json_number_value(want);
	if (!(fabs(got - w) <= 1e-12 * fabs(w)))
		fprintf(stderr, "got %.15g, want %.15g\n", got, w);
	CU_ASSERT(fabs(got - w) <= 1e-12 * fabs(w));
}

static const char *memory_name(enum doctor_quiet_memory m)
{
	static const char *const names[] = {"none", "quiet", "pressed"};
	return names[m];
}

/* Each sample of host_noise_cases.json judged as the script judged it. */
TH_TEST(doctor_quiet, judge_matches_the_reference)
{
	json_t *cases = json_load_file(DATA "host_noise_cases.json", 0, NULL);
	CU_ASSERT_FATAL(json_array_size(cases) >= 10);
	size_t i;
	json_t *c;
	json_array_foreach(cases, i, c)
	{
		struct doctor_quiet_sample *s = calloc(1, sizeof(*s));
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		json_t *near = json_object_get(c, "near"), *far = json_object_get(c, "far"), *v;
		size_t k;
		json_array_foreach(near, k, v) s->near[s->n_near++] = json_number_value(v);
		json_array_foreach(far, k, v) s->far[s->n_far++] = json_number_value(v);
		json_t *st = json_object_get(c, "steal_share");
		s->steal_share = json_is_number(st) ? json_number_value(st) : NAN;
		json_t *fl = json_object_get(c, "floor");
		struct doctor_floor floor = {.ns = json_number_value(fl)};
		struct doctor_quiet n;
		doctor_quiet_judge(&n, s, json_is_number(fl) ? &floor : NULL);
		json_t *w = json_object_get(c, "want");
		const char *name = json_string_value(json_object_get(c, "name"));
		if (strcmp(memory_name(n.memory),
			   json_string_value(json_object_get(w, "memory"))) != 0 ||
		    strcmp(doctor_status_name(n.status),
			   json_string_value(json_object_get(w, "status"))) != 0)
			fprintf(stderr, "\n%s: %s %s\n", name, memory_name(n.memory),
				doctor_status_name(n.status));
		CU_ASSERT_STRING_EQUAL(memory_name(n.memory),
				       json_string_value(json_object_get(w, "memory")));
		CU_ASSERT_STRING_EQUAL(doctor_status_name(n.status),
				       json_string_value(json_object_get(w, "status")));
		CU_ASSERT_EQUAL(n.n, (size_t)json_integer_value(json_object_get(w, "n")));
		CU_ASSERT_EQUAL(n.pressured,
				(size_t)json_integer_value(json_object_get(w, "pressured")));
		same(n.share, json_object_get(w, "share"));
		same(n.fastest_ns, json_object_get(w, "fastest_ns"));
		same(n.sample_floor_ns, json_object_get(w, "sample_floor_ns"));
		same(n.pressure, json_object_get(w, "pressure"));
		same(n.median_ns, json_object_get(w, "median_ns"));
		same(n.far_ns, json_object_get(w, "far_ns"));
		CU_ASSERT_EQUAL(n.steal_high, json_is_true(json_object_get(w, "steal_high")));
		json_t *band = json_object_get(w, "noise");
		same(n.noise_lo, json_array_get(band, 0));
		same(n.noise_hi, json_array_get(band, 1));
		free(s);
	}
	json_decref(cases);
}

/* The check's levels are run's: a probe under pressure, the share of them that makes a restart
 * contended and the probes it needs, and a steal that disturbs a restart. */
TH_TEST(doctor_quiet, levels_are_runs)
{
	CU_ASSERT_DOUBLE_EQUAL(DOCTOR_QUIET_PRESSURE_FACTOR, RES_MEM_PRESSURE_FACTOR, 0);
	CU_ASSERT_DOUBLE_EQUAL(DOCTOR_QUIET_PRESSED, RES_MEM_SHARE, 0);
	CU_ASSERT_EQUAL(DOCTOR_QUIET_MIN_JUDGED, RES_MEM_MIN_PROBES);
	CU_ASSERT_DOUBLE_EQUAL(DOCTOR_QUIET_STEAL, RES_INTERF_SHARE, 0);
}

/* Scripted probes: near answers script[i] (then -1 past the end) and moves the mirrored
 * /proc/stat on by one step; far answers 100 + its call number. log records the order. */
struct script {
	const char *root;
	const double *near;
	size_t n, calls, far_calls;
	char log[256];
	unsigned long long pu0_user, pu1_user, pu1_steal, all_user, all_steal;
};

static void write_stat(struct script *s)
{
	char path[2048];
	snprintf(path, sizeof(path), "%s/proc/stat", s->root);
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "cpu  %llu 0 0 500 0 0 0 %llu 0 0\n", s->all_user, s->all_steal);
	fprintf(f, "cpu0 %llu 0 0 200 0 0 0 0 0 0\n", s->pu0_user);
	fprintf(f, "cpu1 %llu 0 0 300 0 0 0 %llu 0 0\n", s->pu1_user, s->pu1_steal);
	fprintf(f, "intr 12345\n");
	fclose(f);
}

static double scripted_near(void *ctx)
{
	struct script *s = ctx;
	size_t at = strlen(s->log);
	if (at + 1 < sizeof(s->log))
		s->log[at] = 'n';
	if (s->calls >= s->n)
		return -1;
	/* one step: PU 0 10 ticks of user, PU 1 7 of user and 3 of steal; the aggregate 1 in 4 */
	s->pu0_user += 10;
	s->pu1_user += 7;
	s->pu1_steal += 3;
	s->all_user += 30;
	s->all_steal += 10;
	write_stat(s);
	return s->near[s->calls++];
}

static double scripted_far(void *ctx)
{
	struct script *s = ctx;
	size_t at = strlen(s->log);
	if (at + 1 < sizeof(s->log))
		s->log[at] = 'F';
	return 100.0 + (double)s->far_calls++;
}

TH_TEST(doctor_quiet, sampling_takes_probes_and_steal)
{
	char *root = th_tempdir("doctor-noise");
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	char dir[2048];
	snprintf(dir, sizeof(dir), "%s/proc", root);
	CU_ASSERT_EQUAL_FATAL(util_mkdir_p(dir), 0);
	double near[40];
	for (int i = 0; i < 40; i++)
		near[i] = 10.0 + i;
	struct script s = {.root = root, .near = near, .n = 40};
	write_stat(&s);
	struct doctor_probe p = {.near = scripted_near, .far = scripted_far, .ctx = &s};
	unsigned cpus[] = {1, 0};
	/* 10 minutes: the sample ends by its count of 20 probes */
	struct doctor_env env = {.root = root,
				 .cpus = cpus,
				 .n_cpus = 2,
				 .probe = &p,
				 .quiet_ms = 600000,
				 .quiet_max_probes = 20};
	struct doctor_quiet_sample *out = calloc(1, sizeof(*out));
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_EQUAL(doctor_quiet_sample(out, &env), 0);
	CU_ASSERT_EQUAL(out->n_near, 20);
	for (size_t i = 0; i < out->n_near; i++)
		CU_ASSERT_DOUBLE_EQUAL(out->near[i], 10.0 + (double)i, 0);
	/* a reference first and after every 8 probes */
	CU_ASSERT_STRING_EQUAL(s.log, "FnnnnnnnnFnnnnnnnnFnnnn");
	CU_ASSERT_EQUAL(out->n_far, 3);
	CU_ASSERT_DOUBLE_EQUAL(out->far[2], 102.0, 0);
	/* PUs 1 and 0: 20 steps of 3 steal in 20 ticks */
	CU_ASSERT_DOUBLE_EQUAL(out->steal_share, 3.0 / 20.0, 1e-12);

	/* unpinned: the aggregate line; the probe fails after 5: the sample is those 5 */
	struct script u = {.root = root, .near = near, .n = 5};
	write_stat(&u);
	p.ctx = &u;
	env.n_cpus = 0;
	env.cpus = NULL;
	CU_ASSERT_EQUAL(doctor_quiet_sample(out, &env), 0);
	CU_ASSERT_EQUAL(out->n_near, 5);
	CU_ASSERT_DOUBLE_EQUAL(out->steal_share, 10.0 / 40.0, 1e-12);

	/* a PU without a line: steal unknown, the probes still taken */
	struct script m = {.root = root, .near = near, .n = 40};
	write_stat(&m);
	p.ctx = &m;
	unsigned gone[] = {7};
	env.cpus = gone;
	env.n_cpus = 1;
	CU_ASSERT_EQUAL(doctor_quiet_sample(out, &env), 0);
	CU_ASSERT_EQUAL(out->n_near, 20);
	CU_ASSERT(isnan(out->steal_share));

	/* the first probe fails: no sample */
	struct script z = {.root = root, .near = near, .n = 0};
	p.ctx = &z;
	CU_ASSERT_EQUAL(doctor_quiet_sample(out, &env), -1);
	free(out);
	th_rmtree(root);
	free(root);
}

/* 40 restarts for a 5 % change below 15 % noise, more than 100 above; 12 for 10 %. */
static size_t fake_restarts(double sd, double effect)
{
	return effect < 0.07 ? (sd < 0.15 ? 40 : 0) : 12;
}

TH_TEST(doctor_quiet, text_says_the_evidence)
{
	struct doctor_quiet_sample *s = calloc(1, sizeof(*s));
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	/* 5 of 20 at 60 ns, 15 at 12 ns; a floor of 10 ns: 5 of 20 above 20 ns is 25 %, not
	 * above run's quarter: quiet. One more at 60 ns (6 of 20, 30 %): noisy. */
	for (int i = 0; i < 20; i++)
		s->near[s->n_near++] = i < 5 ? 60.0 : 12.0;
	s->far[s->n_far++] = 100.0;
	s->steal_share = 0.0;
	struct doctor_probe p = {.near_bytes = 4u << 20, .far_bytes = 64u << 20};
	struct doctor_env env = {.probe = &p, .restarts = fake_restarts};
	struct doctor_floor floor = {
	    .ns = 10.0, .date = "2026-12-03T19:00:00Z", .source = "doctor --tune"};
	struct doctor_quiet n;
	struct doctor_check c = {.name = "host_noise"};
	doctor_quiet_judge(&n, s, &floor);
	doctor_quiet_describe(&c, &n, &env);
	fprintf(stderr, "\n%s\n", c.value);
	CU_ASSERT_EQUAL(c.status, DOCTOR_OK);
	/* the median of 15 at 12 and 5 at 60 is 12: 1.20x the floor */
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value,
				      "memory probe median 12.0 ns, 1.20x this host's "
				      "floor (10.0 ns, doctor --tune 2026-12-03T19:00:00Z)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "5 of 20 probes above 2x it (25%)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "steal 0.0%: quiet for time verdicts"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "expect restart noise about 3-13%"));
	/* fake_restarts: 40 for 5 % below 15 % noise, more than 100 above; 12 for 10 % */
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "a 5% time verdict needs 40 restarts a side"));
	CU_ASSERT_STRING_EQUAL(c.fix, "");

	s->near[5] = 60.0;
	doctor_quiet_judge(&n, s, &floor);
	doctor_quiet_describe(&c, &n, &env);
	fprintf(stderr, "%s\n%s\n", c.value, c.fix);
	CU_ASSERT_EQUAL(c.status, DOCTOR_WARN);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "6 of 20 probes above 2x it (30%)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, ": noisy for time verdicts: memory contention as "
					       "run calls it (more than 25% of the probes"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "expect restart noise about 17-21%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "r = 0.89-0.93"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "needs more than 100 restarts a side"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "a 10% one 12 (one query of 22"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.fix, "work test"));

	/* steal: warn with the steal's fix, the memory's verdict after it */
	s->near[5] = 12.0;
	s->steal_share = 0.2;
	doctor_quiet_judge(&n, s, &floor);
	doctor_quiet_describe(&c, &n, &env);
	CU_ASSERT_EQUAL(c.status, DOCTOR_WARN);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "steal 20.0%: noisy for time verdicts: steal above "
					       "5%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "; memory: no memory contention"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.fix, "bare metal"));

	/* no floor: unknown, the raw figures and how to get a floor */
	s->steal_share = 0.0;
	doctor_quiet_judge(&n, s, NULL);
	snprintf(n.floor_note, sizeof(n.floor_note), "no floor stored for this host");
	doctor_quiet_describe(&c, &n, &env);
	CU_ASSERT_EQUAL(c.status, DOCTOR_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "no floor stored for this host (doctor --tune on a "
					       "quiet host stores one): memory probe fastest 12.0 "
					       "ns, median 12.0 ns (4 MiB ring; memory reference "
					       "100 ns), steal 0.0%"));
	CU_ASSERT_PTR_NULL(strstr(c.value, "restarts a side"));
	free(s);

	/* no probes: not sampled */
	struct doctor_env none = {.root = ""};
	doctor_quiet_check(&c, &none);
	CU_ASSERT_EQUAL(c.status, DOCTOR_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "not sampled"));
}

/* The floor of a sample: its floor(0.05 n)-th fastest from 0, the fastest below 20 probes. */
TH_TEST(doctor_quiet, floor_is_a_low_order_statistic)
{
	double v[40];
	for (int i = 0; i < 40; i++)
		v[i] = 40.0 - i; /* 40, 39, ..., 1: sorted, v[k] is k + 1 */
	CU_ASSERT(isnan(doctor_floor_of(v, 0)));
	CU_ASSERT_DOUBLE_EQUAL(doctor_floor_of(v + 21, 19), 1.0, 0); /* 19, ..., 1: index 0 */
	CU_ASSERT_DOUBLE_EQUAL(doctor_floor_of(v + 20, 20), 2.0, 0); /* 20, ..., 1: index 1 */
	CU_ASSERT_DOUBLE_EQUAL(doctor_floor_of(v, 40), 3.0, 0);	     /* index 2 */
}

/* ---- the whole check on a mirrored /proc, a floor file and injected probes ---- */

#define MODEL "Test CPU A @ 2.00GHz"

/* A host: DIR/proc/cpuinfo naming MODEL (no /proc/stat: steal unknown), the state directory
 * DIR/home. */
static char *make_host(void)
{
	char *root = th_tempdir("doctor-floor");
	char path[2048];
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	snprintf(path, sizeof(path), "%s/proc", root);
	CU_ASSERT_EQUAL_FATAL(util_mkdir_p(path), 0);
	snprintf(path, sizeof(path), "%s/home", root);
	CU_ASSERT_EQUAL_FATAL(util_mkdir_p(path), 0);
	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "processor\t: 0\nvendor_id\t: Test\nmodel name\t: " MODEL "\nflags\t\t: fpu\n");
	fclose(f);
	return root;
}

/* A floor file as --tune writes it, by hand: floor ns, taken on model with a ring of bytes. */
static void write_floor(const char *path, double ns, const char *model, size_t bytes)
{
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f,
		"{\"version\": 1, \"floor_ns\": %.1f, \"median_ns\": 120.0, \"probes\": 22, "
		"\"probe_bytes\": %zu, \"date\": \"2026-12-03T19:00:00Z\", \"source\": \"doctor "
		"--tune\", \"cpu_model\": \"%s\"}\n",
		ns, bytes, model);
	fclose(f);
	CU_ASSERT_EQUAL(chmod(path, 0644), 0); /* whatever the umask: only its owner writes it */
}

/* Probes that answer v[0..n) over and over; the reference 250 ns. */
struct fixed {
	const double *v;
	size_t n, at;
};

static double fixed_near(void *ctx)
{
	struct fixed *f = ctx;
	return f->v[f->at++ % f->n];
}

static double fixed_far(void *ctx)
{
	(void)ctx;
	return 250.0;
}

/* This VM's idle probes, in the shape doctor saw (fastest 101 ns) and, under a streamer on the
 * server's PU, twice each. */
static const double quiet10[10] = {101, 104, 110, 115, 118, 122, 130, 140, 150, 210};
static const double twice10[10] = {202, 208, 220, 230, 236, 244, 260, 280, 300, 420};

/* The check with probes v (10 of them: the sample ends by its count) on host root. */
static void check_with(struct doctor_check *c, struct doctor_quiet *n, const char *root,
		       const char *floor_file, const double *v)
{
	struct fixed fx = {.v = v, .n = 10};
	struct doctor_probe p = {.near = fixed_near,
				 .far = fixed_far,
				 .ctx = &fx,
				 .near_bytes = 16u << 20,
				 .far_bytes = 256u << 20};
	struct doctor_env env = {.root = root,
				 .probe = &p,
				 .quiet_ms = 600000,
				 .quiet_max_probes = 10,
				 .floor_file = floor_file,
				 .quiet_out = n};
	memset(c, 0, sizeof(*c));
	c->name = "host_noise";
	doctor_quiet_check(c, &env);
	fprintf(stderr, "\n%s: %s\n", doctor_status_name(c->status), c->value);
}

TH_TEST(doctor_quiet, no_floor_is_unknown_with_the_hint)
{
	char *root = make_host(), ff[2048];
	snprintf(ff, sizeof(ff), "%s/home/" DOCTOR_FLOOR_FILE, root);
	struct doctor_check c;
	struct doctor_quiet n;
	check_with(&c, &n, root, ff, quiet10);
	CU_ASSERT_EQUAL(c.status, DOCTOR_UNKNOWN);
	/* the raw figures: fastest 101, median (118 + 122) / 2 = 120 */
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "no floor stored for this host (doctor --tune on a "
					       "quiet host stores one): memory probe fastest 101.0 "
					       "ns, median 120.0 ns (16 MiB ring; memory reference "
					       "250 ns)"));
	CU_ASSERT_FALSE(n.have_floor);
	CU_ASSERT(isnan(n.pressure));
	json_t *j = doctor_quiet_json(&n);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "verdict")), "unknown");
	CU_ASSERT(json_is_null(json_object_get(j, "floor")));
	CU_ASSERT(json_is_null(json_object_get(j, "pressure")));
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "floor_note")),
			       "no floor stored for this host");
	CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(j, "median_ns")), 120.0, 1e-12);
	json_decref(j);
	th_rmtree(root);
	free(root);
}

TH_TEST(doctor_quiet, floor_and_quiet_probes_are_quiet)
{
	char *root = make_host(), ff[2048];
	snprintf(ff, sizeof(ff), "%s/home/" DOCTOR_FLOOR_FILE, root);
	write_floor(ff, 100.0, MODEL, 16u << 20);
	struct doctor_check c;
	struct doctor_quiet n;
	check_with(&c, &n, root, ff, quiet10);
	/* above 2 x 100 = 200 ns: only 210, 1 of 10 (10 %, not above 25 %): quiet; the median
	 * 120 is 1.20x the floor */
	CU_ASSERT_EQUAL(c.status, DOCTOR_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "memory probe median 120.0 ns, 1.20x this host's "
					       "floor (100.0 ns, doctor --tune "
					       "2026-12-03T19:00:00Z); 1 of 10 probes above 2x it "
					       "(10%)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, ": quiet for time verdicts"));
	CU_ASSERT_EQUAL(n.pressured, 1);
	json_t *j = doctor_quiet_json(&n);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "verdict")), "quiet");
	json_t *fl = json_object_get(j, "floor");
	CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(fl, "ns")), 100.0, 0);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(fl, "date")),
			       "2026-12-03T19:00:00Z");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(fl, "source")), "doctor --tune");
	CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(j, "pressure")), 1.2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(j, "share")), 0.1, 1e-12);
	CU_ASSERT(json_is_null(json_object_get(j, "floor_note")));
	json_decref(j);
	th_rmtree(root);
	free(root);
}

TH_TEST(doctor_quiet, floor_and_twice_the_probes_are_noisy)
{
	char *root = make_host(), ff[2048];
	snprintf(ff, sizeof(ff), "%s/home/" DOCTOR_FLOOR_FILE, root);
	write_floor(ff, 100.0, MODEL, 16u << 20);
	struct doctor_check c;
	struct doctor_quiet n;
	check_with(&c, &n, root, ff, twice10);
	/* all 10 above 200 ns (the fastest is 202): 100 % > 25 %: noisy; the median
	 * (236 + 244) / 2 = 240 is 2.40x the floor */
	CU_ASSERT_EQUAL(c.status, DOCTOR_WARN);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "memory probe median 240.0 ns, 2.40x this host's "
					       "floor (100.0 ns"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "10 of 10 probes above 2x it (100%)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, ": noisy for time verdicts: memory contention"));
	json_t *j = doctor_quiet_json(&n);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "verdict")), "noisy");
	CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(j, "pressure")), 2.4, 1e-12);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "pressured")), 10);
	json_decref(j);
	th_rmtree(root);
	free(root);
}

/* A floor of another CPU model or probe size, or one others may write, is not used. */
TH_TEST(doctor_quiet, stale_floor_is_ignored_with_a_note)
{
	char *root = make_host(), ff[2048];
	snprintf(ff, sizeof(ff), "%s/home/" DOCTOR_FLOOR_FILE, root);
	struct doctor_check c;
	struct doctor_quiet n;
	/* a floor of 50 ns would make the quiet probes noisy (all above 100): unknown shows it
	 * was not used */
	write_floor(ff, 50.0, "Other CPU B", 16u << 20);
	check_with(&c, &n, root, ff, quiet10);
	CU_ASSERT_EQUAL(c.status, DOCTOR_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "stored floor ignored: taken on another CPU ('Other "
					       "CPU B', this is '" MODEL "') (doctor --tune"));
	CU_ASSERT_FALSE(n.have_floor);

	write_floor(ff, 50.0, MODEL, 4u << 20);
	check_with(&c, &n, root, ff, quiet10);
	CU_ASSERT_EQUAL(c.status, DOCTOR_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "stored floor ignored: taken with another probe "
					       "(4096 KiB, this is 16384 KiB)"));

	write_floor(ff, 50.0, MODEL, 16u << 20);
	CU_ASSERT_EQUAL(chmod(ff, 0664), 0);
	check_with(&c, &n, root, ff, quiet10);
	CU_ASSERT_EQUAL(c.status, DOCTOR_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "not read: others may write it"));

	/* the control: the same file, private again, is used (and 50 ns makes it noisy) */
	CU_ASSERT_EQUAL(chmod(ff, 0644), 0);
	check_with(&c, &n, root, ff, quiet10);
	CU_ASSERT_EQUAL(c.status, DOCTOR_WARN);

	write_floor(ff, 50.0, MODEL, 16u << 20);
	FILE *f = fopen(ff, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("{\"version\": 1, \"floor_ns\": -3}\n", f);
	fclose(f);
	check_with(&c, &n, root, ff, quiet10);
	CU_ASSERT_EQUAL(c.status, DOCTOR_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "not read: not a floor file"));
	th_rmtree(root);
	free(root);
}

/* --tune's floor: stored with the model, the size and the date; a higher one later keeps it
 * (a floor only goes down), a lower one replaces it. */
TH_TEST(doctor_quiet, calibration_stores_a_floor_that_only_goes_down)
{
	char *root = make_host(), ff[2048];
	snprintf(ff, sizeof(ff), "%s/home/sub/" DOCTOR_FLOOR_FILE, root);
	double v[20];
	struct fixed fx = {.v = v, .n = 20};
	struct doctor_probe p = {
	    .near = fixed_near, .far = fixed_far, .ctx = &fx, .near_bytes = 16u << 20};
	struct doctor_env env = {.root = root,
				 .probe = &p,
				 .quiet_ms = 600000,
				 .quiet_max_probes = 20,
				 .floor_file = ff};
	struct doctor_floor got;
	struct errbuf err = {{0}};
	int kept = -1;
	for (int i = 0; i < 20; i++)
		v[i] = 119.0 - i; /* 119 ... 100: floor(0.05 x 20) = 1, the second fastest, 101 */
	CU_ASSERT_EQUAL_FATAL(doctor_quiet_calibrate(&got, &kept, &env, &err), 0);
	CU_ASSERT_EQUAL(kept, 0);
	CU_ASSERT_DOUBLE_EQUAL(got.ns, 101.0, 0);
	json_t *j = json_load_file(ff, 0, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(j, "floor_ns")), 101.0, 0);
	/* the median of 100 ... 119: (109 + 110) / 2 */
	CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(j, "median_ns")), 109.5, 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "probes")), 20);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "probe_bytes")), 16 << 20);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "cpu_model")), MODEL);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "source")), "doctor --tune");
	CU_ASSERT(!isnan(util_iso8601_seconds(json_string_value(json_object_get(j, "date")))));
	json_decref(j);

	for (int i = 0; i < 20; i++)
		v[i] = 120.0 + i; /* floor 121: above 101, kept */
	CU_ASSERT_EQUAL(doctor_quiet_calibrate(&got, &kept, &env, &err), 0);
	CU_ASSERT_EQUAL(kept, 1);
	CU_ASSERT_DOUBLE_EQUAL(got.ns, 101.0, 0);
	j = json_load_file(ff, 0, NULL);
	CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(j, "floor_ns")), 101.0, 0);
	json_decref(j);

	for (int i = 0; i < 20; i++)
		v[i] = 90.0 + i; /* floor 91: below, replaces it */
	CU_ASSERT_EQUAL(doctor_quiet_calibrate(&got, &kept, &env, &err), 0);
	CU_ASSERT_EQUAL(kept, 0);
	j = json_load_file(ff, 0, NULL);
	CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(j, "floor_ns")), 91.0, 0);
	json_decref(j);

	/* the floor judges: quiet10 against 91 ns, above 182 only 210: 1 of 10, quiet */
	struct doctor_check c;
	struct doctor_quiet n;
	check_with(&c, &n, root, ff, quiet10);
	CU_ASSERT_EQUAL(c.status, DOCTOR_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "floor (91.0 ns, doctor --tune"));
	th_rmtree(root);
	free(root);
}

/* A symbolic link another user planted at the floor's name (aiming at a floor file of theirs,
 * or at a file of root's) is neither read through nor replaced, and its aim is left as it was. */
TH_TEST(doctor_quiet, planted_link_is_not_followed_nor_overwritten)
{
	char *root = make_host(), ff[2048], victim[2048], aim[2048];
	snprintf(ff, sizeof(ff), "%s/home/" DOCTOR_FLOOR_FILE, root);
	snprintf(victim, sizeof(victim), "%s/victim.json", root);
	/* a floor of 50 ns that would make the quiet probes noisy if it were read */
	write_floor(victim, 50.0, MODEL, 16u << 20);
	CU_ASSERT_EQUAL(chmod(victim, 0644), 0);
	char *before = th_slurp(victim);
	CU_ASSERT_PTR_NOT_NULL_FATAL(before);
	CU_ASSERT_EQUAL_FATAL(symlink(victim, ff), 0);
	if (geteuid() == 0) /* planted by nobody, as another user would */
		CU_ASSERT_EQUAL(lchown(ff, 65534, 65534), 0);
	struct doctor_check c;
	struct doctor_quiet n;
	check_with(&c, &n, root, ff, quiet10);
	CU_ASSERT_EQUAL(c.status, DOCTOR_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "not read: it is a symbolic link"));

	double v[10] = {90, 91, 92, 93, 94, 95, 96, 97, 98, 99};
	struct fixed fx = {.v = v, .n = 10};
	struct doctor_probe p = {
	    .near = fixed_near, .far = fixed_far, .ctx = &fx, .near_bytes = 16u << 20};
	struct doctor_env env = {.root = root,
				 .probe = &p,
				 .quiet_ms = 600000,
				 .quiet_max_probes = 10,
				 .floor_file = ff};
	struct doctor_floor got;
	struct errbuf err = {{0}};
	int kept = -1;
	CU_ASSERT_EQUAL(doctor_quiet_calibrate(&got, &kept, &env, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "left as it is: it is a symbolic link"));
	struct stat st;
	CU_ASSERT_TRUE(lstat(ff, &st) == 0 && S_ISLNK(st.st_mode));
	ssize_t k = readlink(ff, aim, sizeof(aim) - 1);
	CU_ASSERT_FATAL(k > 0);
	aim[k] = '\0';
	CU_ASSERT_STRING_EQUAL(aim, victim);
	char *after = th_slurp(victim);
	CU_ASSERT_PTR_NOT_NULL_FATAL(after);
	CU_ASSERT_STRING_EQUAL(after, before);
	CU_ASSERT_TRUE(stat(victim, &st) == 0 && (st.st_mode & 07777) == 0644);
	free(before);
	free(after);
	th_rmtree(root);
	free(root);
}

/* A floor file another user owns is not read (they could make any host look quiet), nor
 * replaced. Needs root, to make a file of another user's. */
TH_TEST(doctor_quiet, floor_of_another_user_is_not_read)
{
	if (geteuid() != 0) {
		th_skip("not root: cannot make a file of another user's");
		return;
	}
	char *root = make_host(), ff[2048];
	snprintf(ff, sizeof(ff), "%s/home/" DOCTOR_FLOOR_FILE, root);
	write_floor(ff, 50.0, MODEL, 16u << 20);
	CU_ASSERT_EQUAL(chmod(ff, 0644), 0);
	CU_ASSERT_EQUAL_FATAL(chown(ff, 65534, 65534), 0);
	struct doctor_check c;
	struct doctor_quiet n;
	check_with(&c, &n, root, ff, quiet10);
	CU_ASSERT_EQUAL(c.status, DOCTOR_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "it belongs to uid 65534, neither you nor root"));
	struct doctor_floor f = {.ns = 90.0,
				 .probes = 10,
				 .probe_bytes = 16u << 20,
				 .date = "2026-12-03T19:00:00Z",
				 .source = "doctor --tune",
				 .cpu_model = MODEL};
	struct errbuf err = {{0}};
	CU_ASSERT_EQUAL(doctor_floor_save(&f, ff, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "left as it is: it belongs to uid 65534"));
	struct stat st;
	CU_ASSERT_TRUE(stat(ff, &st) == 0 && st.st_uid == 65534);
	th_rmtree(root);
	free(root);
}

TH_MAIN(doctor_quiet)
