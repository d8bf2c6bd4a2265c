/* SPDX-License-Identifier: MIT */
/* doctor's host-noise check (pinning/doctor_noise.c): the verdict on synthetic samples against
 * tests/data/host_noise_cases.py, the sampling with scripted probes and a mirrored /proc/stat,
 * and the text. Nothing here is timed: the sampling ends by its probe count. */
#include "harness.h"
#include "pinning/doctor_noise.h"
#include "result/res.h"
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static const char *memory_name(enum doctor_noise_memory m)
{
	static const char *const names[] = {"none", "quiet", "pressed", "uncached"};
	return names[m];
}

/* Each sample of host_noise_cases.json judged as the script judged it. */
TH_TEST(doctor_noise, judge_matches_the_reference)
{
	json_t *cases = json_load_file(DATA "host_noise_cases.json", 0, NULL);
	CU_ASSERT_FATAL(json_array_size(cases) >= 10);
	size_t i;
	json_t *c;
	json_array_foreach(cases, i, c)
	{
		struct doctor_noise_sample *s = calloc(1, sizeof(*s));
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		json_t *near = json_object_get(c, "near"), *far = json_object_get(c, "far"), *v;
		size_t k;
		json_array_foreach(near, k, v) s->near[s->n_near++] = json_number_value(v);
		json_array_foreach(far, k, v) s->far[s->n_far++] = json_number_value(v);
		json_t *st = json_object_get(c, "steal_share");
		s->steal_share = json_is_number(st) ? json_number_value(st) : NAN;
		struct doctor_noise n;
		doctor_noise_judge(&n, s);
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
		same(n.floor_ns, json_object_get(w, "floor_ns"));
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

/* The check's levels are run's: a probe under pressure and a steal that disturbs a restart. */
TH_TEST(doctor_noise, levels_are_runs)
{
	CU_ASSERT_DOUBLE_EQUAL(DOCTOR_NOISE_PRESSURE_FACTOR, RES_MEM_PRESSURE_FACTOR, 0);
	CU_ASSERT_DOUBLE_EQUAL(DOCTOR_NOISE_STEAL, RES_NOISE_SHARE, 0);
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

TH_TEST(doctor_noise, sampling_takes_probes_and_steal)
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
				 .noise_ms = 600000,
				 .noise_max_probes = 20};
	struct doctor_noise_sample *out = calloc(1, sizeof(*out));
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_EQUAL(doctor_noise_sample(out, &env), 0);
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
	CU_ASSERT_EQUAL(doctor_noise_sample(out, &env), 0);
	CU_ASSERT_EQUAL(out->n_near, 5);
	CU_ASSERT_DOUBLE_EQUAL(out->steal_share, 10.0 / 40.0, 1e-12);

	/* a PU without a line: steal unknown, the probes still taken */
	struct script m = {.root = root, .near = near, .n = 40};
	write_stat(&m);
	p.ctx = &m;
	unsigned gone[] = {7};
	env.cpus = gone;
	env.n_cpus = 1;
	CU_ASSERT_EQUAL(doctor_noise_sample(out, &env), 0);
	CU_ASSERT_EQUAL(out->n_near, 20);
	CU_ASSERT(isnan(out->steal_share));

	/* the first probe fails: no sample */
	struct script z = {.root = root, .near = near, .n = 0};
	p.ctx = &z;
	CU_ASSERT_EQUAL(doctor_noise_sample(out, &env), -1);
	free(out);
	th_rmtree(root);
	free(root);
}

/* 40 restarts for a 5 % change below 15 % noise, more than 100 above; 12 for 10 %. */
static size_t fake_restarts(double sd, double effect)
{
	return effect < 0.07 ? (sd < 0.15 ? 40 : 0) : 12;
}

TH_TEST(doctor_noise, text_says_the_evidence)
{
	struct doctor_noise_sample *s = calloc(1, sizeof(*s));
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (int i = 0; i < 20; i++)
		s->near[s->n_near++] = i < 5 ? 60.0 : 12.0; /* 5 of 20 above twice 12 */
	s->far[s->n_far++] = 100.0;
	s->steal_share = 0.0;
	struct doctor_probe p = {.near_bytes = 4u << 20, .far_bytes = 64u << 20};
	struct doctor_env env = {.probe = &p, .restarts = fake_restarts};
	struct doctor_noise n;
	struct doctor_check c = {.name = "host_noise"};
	doctor_noise_judge(&n, s);
	doctor_noise_describe(&c, &n, &env);
	fprintf(stderr, "\n%s\n%s\n", c.value, c.fix);
	CU_ASSERT_EQUAL(c.status, DOCTOR_WARN);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "under pressure in 5 of 20 probes (25%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "steal 0.0%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "expect restart noise about 13-21%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "needs 40 to more than 100 restarts a side"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "a 10% one 12 (one query of 22"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.fix, "work test"));

	/* quiet: ok, the quiet runs' band, no fix */
	for (int i = 0; i < 5; i++)
		s->near[i] = 13.0;
	doctor_noise_judge(&n, s);
	doctor_noise_describe(&c, &n, &env);
	CU_ASSERT_EQUAL(c.status, DOCTOR_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "quiet now; expect restart noise about 8-13%"));
	CU_ASSERT_STRING_EQUAL(c.fix, "");

	/* never in cache: unknown, no noise promised, the rings' sizes said */
	for (size_t i = 0; i < s->n_near; i++)
		s->near[i] = 80.0 + (double)i;
	doctor_noise_judge(&n, s);
	doctor_noise_describe(&c, &n, &env);
	CU_ASSERT_EQUAL(c.status, DOCTOR_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "memory probe (4 MiB) never in a fast cache"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "the reference chase over 64 MiB 100 ns"));
	CU_ASSERT_PTR_NULL(strstr(c.value, "restarts a side"));

	/* steal: warn with the steal's fix */
	s->steal_share = 0.2;
	doctor_noise_judge(&n, s);
	doctor_noise_describe(&c, &n, &env);
	CU_ASSERT_EQUAL(c.status, DOCTOR_WARN);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "steal 20.0%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.fix, "bare metal"));
	free(s);

	/* no probes: not sampled */
	struct doctor_env none = {.root = ""};
	doctor_noise_check(&c, &none);
	CU_ASSERT_EQUAL(c.status, DOCTOR_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.value, "not sampled"));
}

TH_MAIN(doctor_noise)
