/* SPDX-License-Identifier: MIT */
/* dbt3stab doctor: the real machine's report, and checks/tune/reset on a mirrored /proc+/sys. */
#include "pinning/doctor.h"
#include "tests/harness.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const check_names[DOCTOR_N_CHECKS] = {
    "cpu_governor",   "turbo_boost", "smt",
    "isolated_cpus",  "aslr",	     "transparent_hugepages",
    "numa_balancing", "swap",	     "load_average",
    "busy_cpus",      "irqbalance",  "hypervisor",
    "perf_counters"};

/* Runs a shell command line, returns its stdout (caller frees) and exit status. */
static char *run_capture(const char *cmdline, int *status)
{
	FILE *p = popen(cmdline, "r");
	if (!p)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	size_t r;
	while (buf && (r = fread(buf + n, 1, cap - n - 1, p)) > 0) {
		n += r;
		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	int st = pclose(p);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	if (buf)
		buf[n] = '\0';
	return buf;
}

/* The aslr check on this machine as /proc says it must be: randomize_va_space 0 is ok, 1 or 2
 * (partial or full randomisation) a warning, no file unknown. */
static void check_aslr_against_proc(const char *status, const char *value)
{
	char v[32] = "", want_value[64];
	FILE *f = fopen("/proc/sys/kernel/randomize_va_space", "r");
	if (!f) {
		CU_ASSERT_STRING_EQUAL(status, "unknown");
		return;
	}
	if (!fgets(v, sizeof(v), f))
		v[0] = '\0';
	fclose(f);
	v[strcspn(v, "\n")] = '\0';
	CU_ASSERT_STRING_EQUAL(status, strcmp(v, "0") == 0 ? "ok" : "warn");
	snprintf(want_value, sizeof(want_value), "(randomize_va_space=%s)", v);
	CU_ASSERT_PTR_NOT_NULL(value ? strstr(value, want_value) : NULL);
}

static void test_doctor__json_on_this_machine_has_every_check(void)
{
	char cmd[2048];
	int status = -1;
	snprintf(cmd, sizeof(cmd), "'%s' doctor --json", DBT3_BINARY);
	char *out = run_capture(cmd, &status);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	json_error_t je;
	json_t *j = json_loads(out, 0, &je);
	if (!j)
		fprintf(stderr, "\nnot JSON: %s\n%s\n", je.text, out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	json_t *checks = json_object_get(j, "checks");
	CU_ASSERT_EQUAL(json_array_size(checks), DOCTOR_N_CHECKS);
	int warns = 0;
	for (int k = 0; k < DOCTOR_N_CHECKS; k++) {
		int found = 0;
		size_t i;
		json_t *c;
		json_array_foreach(checks, i, c)
		{
			if (strcmp(json_string_value(json_object_get(c, "name")), check_names[k]) !=
			    0)
				continue;
			found++;
			const char *st = json_string_value(json_object_get(c, "status"));
			CU_ASSERT_PTR_NOT_NULL_FATAL(st);
			CU_ASSERT(strcmp(st, "ok") == 0 || strcmp(st, "warn") == 0 ||
				  strcmp(st, "unknown") == 0);
			CU_ASSERT(json_is_string(json_object_get(c, "value")));
			CU_ASSERT(strlen(json_string_value(json_object_get(c, "value"))) > 0);
			if (strcmp(check_names[k], "aslr") == 0)
				check_aslr_against_proc(
				    st, json_string_value(json_object_get(c, "value")));
			/* A warn names its fix; ok and unknown have none. */
			json_t *fix = json_object_get(c, "fix");
			if (strcmp(st, "warn") == 0) {
				warns++;
				CU_ASSERT(json_is_string(fix));
			} else {
				CU_ASSERT(json_is_null(fix));
			}
		}
		CU_ASSERT_EQUAL(found, 1);
	}
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "warn")), warns);
	CU_ASSERT_EQUAL(status, warns ? 1 : 0);
	json_decref(j);
	free(out);
}

static void put(const char *root, const char *path, const char *text)
{
	char full[2048], dir[2048];
	snprintf(full, sizeof(full), "%s%s", root, path);
	snprintf(dir, sizeof(dir), "%s", full);
	*strrchr(dir, '/') = '\0';
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
	FILE *f = fopen(full, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static void get(const char *root, const char *path, char *out, size_t len)
{
	char full[2048];
	snprintf(full, sizeof(full), "%s%s", root, path);
	FILE *f = fopen(full, "r");
	out[0] = '\0';
	if (f) {
		if (!fgets(out, (int)len, f))
			out[0] = '\0';
		fclose(f);
	}
	out[strcspn(out, "\n")] = '\0';
}

/* A noisy host: every tunable knob in its noisy state. */
static void make_noisy_root(const char *root)
{
	put(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
	put(root, "/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n");
	put(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
	put(root, "/sys/devices/system/cpu/smt/active", "1\n");
	put(root, "/sys/devices/system/cpu/smt/control", "on\n");
	put(root, "/sys/devices/system/cpu/isolated", "1-3\n");
	put(root, "/sys/devices/system/cpu/nohz_full", "1-3\n");
	put(root, "/proc/sys/kernel/randomize_va_space", "2\n");
	put(root, "/sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
	put(root, "/proc/sys/kernel/numa_balancing", "1\n");
	put(root, "/proc/sys/kernel/perf_event_paranoid", "3\n");
	put(root, "/proc/meminfo",
	    "MemTotal: 1000 kB\nSwapTotal: 4096000 kB\nSwapFree: 3072000 kB\n");
	put(root, "/proc/loadavg", "0.10 0.20 0.30 1/95 123\n");
	put(root, "/proc/stat", "cpu  10 0 10 100 0 0 0 0\ncpu1 5 0 5 50 0 0 0 0\n");
	put(root, "/proc/4242/comm", "irqbalance\n");
	put(root, "/proc/4242/stat", "4242 (irqbalance) S 1 1 1 0 -1 0 0 0 0 0 1 1 0 0 20 0 1 0\n");
	put(root, "/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme hypervisor avx\n");
}

static enum doctor_status status_of(const struct doctor_check *c, const char *name)
{
	for (int i = 0; i < DOCTOR_N_CHECKS; i++)
		if (strcmp(c[i].name, name) == 0)
			return c[i].status;
	CU_FAIL("check missing");
	return DOCTOR_UNKNOWN;
}

static void test_doctor__noisy_root_warns_each_knob(void)
{
	char *root = th_tempdir("doctor");
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	make_noisy_root(root);
	unsigned cpus[] = {1};
	struct doctor_env env = {.root = root, .cpus = cpus, .n_cpus = 1, .sample_ms = 10};
	struct doctor_check c[DOCTOR_N_CHECKS];
	doctor_run(c, &env);
	static const struct {
		const char *name;
		enum doctor_status want;
		const char *value;
	} want[] = {
	    {"cpu_governor", DOCTOR_WARN, "powersave"},
	    {"turbo_boost", DOCTOR_WARN, "no_turbo=0"},
	    {"smt", DOCTOR_WARN, "control: on"},
	    {"isolated_cpus", DOCTOR_OK, "isolated: 1-3"},
	    {"aslr", DOCTOR_WARN, "randomize_va_space=2"},
	    {"transparent_hugepages", DOCTOR_WARN, "always"},
	    {"numa_balancing", DOCTOR_WARN, "numa_balancing=1"},
	    {"swap", DOCTOR_WARN, "1000 MiB in use"},
	    {"load_average", DOCTOR_OK, "0.10 0.20 0.30"},
	    {"busy_cpus", DOCTOR_OK, "PU 1 0% busy"},
	    {"irqbalance", DOCTOR_WARN, "pid 4242"},
	    {"hypervisor", DOCTOR_WARN, "yes"},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int k = 0;
		while (k < DOCTOR_N_CHECKS && strcmp(c[k].name, want[i].name) != 0)
			k++;
		CU_ASSERT_FATAL(k < DOCTOR_N_CHECKS);
		if (c[k].status != want[i].want || !strstr(c[k].value, want[i].value))
			fprintf(stderr, "\n%s: %s '%s'\n", c[k].name,
				doctor_status_name(c[k].status), c[k].value);
		CU_ASSERT_EQUAL(c[k].status, want[i].want);
		CU_ASSERT_PTR_NOT_NULL(strstr(c[k].value, want[i].value));
		CU_ASSERT_EQUAL(c[k].fix[0] != '\0', want[i].want == DOCTOR_WARN);
	}
	/* Server PU 0 is not isolated. */
	unsigned cpus0[] = {0, 1};
	env.cpus = cpus0;
	env.n_cpus = 2;
	doctor_run(c, &env);
	CU_ASSERT_EQUAL(status_of(c, "isolated_cpus"), DOCTOR_WARN);
	th_rmtree(root);
	free(root);
}

static void test_doctor__empty_root_is_unknown_not_an_error(void)
{
	char *root = th_tempdir("doctor-empty");
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	struct doctor_env env = {.root = root, .cpus = NULL, .n_cpus = 0, .sample_ms = 10};
	struct doctor_check c[DOCTOR_N_CHECKS];
	doctor_run(c, &env);
	for (int i = 0; i < DOCTOR_N_CHECKS; i++) {
		CU_ASSERT_STRING_EQUAL(c[i].name, check_names[i]);
		CU_ASSERT(c[i].value[0] != '\0');
	}
	CU_ASSERT_EQUAL(status_of(c, "cpu_governor"), DOCTOR_UNKNOWN);
	CU_ASSERT_EQUAL(status_of(c, "turbo_boost"), DOCTOR_UNKNOWN);
	CU_ASSERT_EQUAL(status_of(c, "swap"), DOCTOR_UNKNOWN);
	CU_ASSERT_EQUAL(status_of(c, "busy_cpus"), DOCTOR_UNKNOWN);
	th_rmtree(root);
	free(root);
}

static void test_doctor__tune_then_reset_restores_every_value(void)
{
	char *root = th_tempdir("doctor-tune");
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	make_noisy_root(root);
	char state[2048], v[256];
	snprintf(state, sizeof(state), "%s/state/doctor-saved.json", root);
	struct errbuf err = {{0}};
	CU_ASSERT_EQUAL(doctor_tune(root, state, NULL, &err), 0);
	/* Tuning twice keeps the first saved values. */
	CU_ASSERT_EQUAL(doctor_tune(root, state, NULL, &err), 0);

	static const struct {
		const char *path, *noisy, *tuned;
	} knobs[] = {
	    {"/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave", "performance"},
	    {"/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance", "performance"},
	    {"/sys/devices/system/cpu/intel_pstate/no_turbo", "0", "1"},
	    {"/proc/sys/kernel/randomize_va_space", "2", "0"},
	    {"/sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never", "madvise"},
	    {"/proc/sys/kernel/numa_balancing", "1", "0"},
	    {"/proc/sys/kernel/perf_event_paranoid", "3", "1"},
	    {"/sys/devices/system/cpu/smt/control", "on", "on"}, /* SMT is left alone */
	};
	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		get(root, knobs[i].path, v, sizeof(v));
		CU_ASSERT_STRING_EQUAL(v, knobs[i].tuned);
	}
	unsigned cpus[] = {1};
	struct doctor_env env = {.root = root, .cpus = cpus, .n_cpus = 1, .sample_ms = 10};
	struct doctor_check c[DOCTOR_N_CHECKS];
	doctor_run(c, &env);
	CU_ASSERT_EQUAL(status_of(c, "cpu_governor"), DOCTOR_OK);
	CU_ASSERT_EQUAL(status_of(c, "turbo_boost"), DOCTOR_OK);
	CU_ASSERT_EQUAL(status_of(c, "aslr"), DOCTOR_OK);
	CU_ASSERT_EQUAL(status_of(c, "transparent_hugepages"), DOCTOR_OK);
	CU_ASSERT_EQUAL(status_of(c, "numa_balancing"), DOCTOR_OK);

	CU_ASSERT_EQUAL(doctor_reset(state, NULL, &err), 0);
	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		get(root, knobs[i].path, v, sizeof(v));
		/* THP is written back as the mode; the kernel shows it bracketed again. */
		const char *want = strcmp(knobs[i].noisy, "[always] madvise never") == 0
				       ? "always"
				       : knobs[i].noisy;
		CU_ASSERT_STRING_EQUAL(v, want);
	}
	CU_ASSERT_EQUAL(access(state, F_OK), -1);
	CU_ASSERT_EQUAL(doctor_reset(state, NULL, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "nothing to reset"));
	th_rmtree(root);
	free(root);
}

static void test_doctor__command_tunes_and_resets_a_sysroot(void)
{
	char *root = th_tempdir("doctor-cmd");
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	make_noisy_root(root);
	char cmd[4096], v[256];
	int status = -1;
	snprintf(cmd, sizeof(cmd),
		 "DBT3STAB_SYSROOT='%s' DBT3STAB_HOME='%s/home' '%s' doctor --tune --quiet "
		 "--server-cpus 1 --client-cpus 0 >/dev/null",
		 root, root, DBT3_BINARY);
	free(run_capture(cmd, &status));
	CU_ASSERT_EQUAL(status, 1); /* smt, swap, irqbalance, hypervisor still warn */
	get(root, "/proc/sys/kernel/numa_balancing", v, sizeof(v));
	CU_ASSERT_STRING_EQUAL(v, "0");
	snprintf(cmd, sizeof(cmd), "test -s '%s/home/doctor-saved.json'", root);
	CU_ASSERT_EQUAL(system(cmd), 0);
	snprintf(cmd, sizeof(cmd),
		 "DBT3STAB_SYSROOT='%s' DBT3STAB_HOME='%s/home' '%s' doctor --reset --quiet", root,
		 root, DBT3_BINARY);
	free(run_capture(cmd, &status));
	CU_ASSERT_EQUAL(status, 0);
	get(root, "/proc/sys/kernel/numa_balancing", v, sizeof(v));
	CU_ASSERT_STRING_EQUAL(v, "1");
	th_rmtree(root);
	free(root);
}

int main(int argc, char **argv)
{
	static const struct th_case cases[] = {
	    {"json_on_this_machine_has_every_check",
	     test_doctor__json_on_this_machine_has_every_check},
	    {"noisy_root_warns_each_knob", test_doctor__noisy_root_warns_each_knob},
	    {"empty_root_is_unknown_not_an_error", test_doctor__empty_root_is_unknown_not_an_error},
	    {"tune_then_reset_restores_every_value",
	     test_doctor__tune_then_reset_restores_every_value},
	    {"command_tunes_and_resets_a_sysroot", test_doctor__command_tunes_and_resets_a_sysroot},
	    {NULL, NULL},
	};
	return th_run("doctor", cases, argc, argv);
}
