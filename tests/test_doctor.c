/* SPDX-License-Identifier: MIT */
/* dbt3stab doctor: the real machine's report, and checks/tune/reset on a mirrored /proc+/sys. */
#include "pinning/doctor.h"
#include "tests/harness.h"
#include <ctype.h>
#include <dirent.h>
#include <jansson.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const check_names[DOCTOR_N_CHECKS] = {
    "cpu_governor",   "turbo_boost", "smt",
    "isolated_cpus",  "aslr",	     "transparent_hugepages",
    "numa_balancing", "swap",	     "load_average",
    "busy_cpus",      "irqbalance",  "hypervisor",
    "perf_counters",  "host_noise"};

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

/* ---- each check's state on this machine, derived here from /proc and /sys by the rules of
 * docs/pinning.md ("dbt3stab doctor"), without the doctor's code ---- */

#define SYS_CPU "/sys/devices/system/cpu"

/* Nonzero when cpu is in the kernel's list syntax, e.g. "0-3,8". */
static int cpu_list_has(const char *list, long cpu)
{
	const char *p = list;
	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		if (end == p)
			return 0;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p)
				return 0;
		}
		if (cpu >= lo && cpu <= hi)
			return 1;
		if (*end != ',')
			return 0;
		p = end + 1;
	}
	return 0;
}

/* ok when every cpuN/cpufreq/scaling_governor says performance; unknown when there is none. */
static const char *want_governor(json_t *cpus)
{
	(void)cpus;
	DIR *d = opendir(SYS_CPU);
	int n = 0, perf = 0;
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		char path[512], v[64];
		if (strncmp(e->d_name, "cpu", 3) != 0 || !isdigit((unsigned char)e->d_name[3]))
			continue;
		snprintf(path, sizeof(path), SYS_CPU "/%s/cpufreq/scaling_governor", e->d_name);
		if (th_read_line(path, v, sizeof(v)) < 0)
			continue;
		n++;
		perf += strcmp(v, "performance") == 0;
	}
	if (d)
		closedir(d);
	return n == 0 ? "unknown" : perf == n ? "ok" : "warn";
}

/* intel_pstate's no_turbo = 1, else cpufreq's boost = 0; unknown without either file. */
static const char *want_turbo(json_t *cpus)
{
	(void)cpus;
	char v[64];
	if (th_read_line(SYS_CPU "/intel_pstate/no_turbo", v, sizeof(v)) == 0)
		return strcmp(v, "1") == 0 ? "ok" : "warn";
	if (th_read_line(SYS_CPU "/cpufreq/boost", v, sizeof(v)) == 0)
		return strcmp(v, "0") == 0 ? "ok" : "warn";
	return "unknown";
}

static const char *want_smt(json_t *cpus)
{
	(void)cpus;
	char v[64];
	if (th_read_line(SYS_CPU "/smt/active", v, sizeof(v)) < 0)
		return "unknown";
	return strcmp(v, "0") == 0 ? "ok" : "warn";
}

/* Every benchmark PU the doctor named is isolated; with none named, any isolated PU is ok. */
static const char *want_isolated(json_t *cpus)
{
	char iso[1024];
	size_t i;
	json_t *c;
	if (th_read_line(SYS_CPU "/isolated", iso, sizeof(iso)) < 0)
		return "unknown";
	if (json_array_size(cpus) == 0)
		return iso[0] ? "ok" : "warn";
	json_array_foreach(cpus, i, c)
	{
		if (!cpu_list_has(iso, (long)json_integer_value(c)))
			return "warn";
	}
	return "ok";
}

static const char *want_aslr(json_t *cpus)
{
	(void)cpus;
	char v[32];
	if (th_read_line("/proc/sys/kernel/randomize_va_space", v, sizeof(v)) < 0)
		return "unknown";
	return strcmp(v, "0") == 0 ? "ok" : "warn";
}

/* The mode in brackets: always warns, never and madvise are ok. */
static const char *want_thp(json_t *cpus)
{
	(void)cpus;
	char v[256];
	if (th_read_line("/sys/kernel/mm/transparent_hugepage/enabled", v, sizeof(v)) < 0)
		return "unknown";
	const char *lb = strchr(v, '[');
	if (!lb || !strchr(lb, ']'))
		return "unknown";
	return strncmp(lb, "[always]", 8) == 0 ? "warn" : "ok";
}

/* ok when 0 or when the kernel has no such setting. */
static const char *want_numa_balancing(json_t *cpus)
{
	(void)cpus;
	char v[32];
	if (th_read_line("/proc/sys/kernel/numa_balancing", v, sizeof(v)) < 0)
		return "ok";
	return strcmp(v, "0") == 0 ? "ok" : "warn";
}

/* SwapTotal - SwapFree of /proc/meminfo: anything swapped out warns. */
static const char *want_swap(json_t *cpus)
{
	(void)cpus;
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long total = -1, free_kb = -1, v;
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "SwapTotal: %ld", &v) == 1)
			total = v;
		else if (sscanf(line, "SwapFree: %ld", &v) == 1)
			free_kb = v;
	}
	if (f)
		fclose(f);
	if (total < 0 || free_kb < 0)
		return "unknown";
	return total - free_kb > 0 ? "warn" : "ok";
}

/* The 1-minute load above max(1, online CPUs - 2) warns. */
static const char *want_load(json_t *cpus)
{
	(void)cpus;
	char v[128];
	double l1;
	if (th_read_line("/proc/loadavg", v, sizeof(v)) < 0 || sscanf(v, "%lf", &l1) != 1)
		return "unknown";
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	double limit = n - 2 > 1 ? (double)(n - 2) : 1.0;
	return l1 > limit ? "warn" : "ok";
}

/* Not derivable: the busy share of the benchmark PUs over the doctor's own 300 ms, which this
 * test cannot watch at the same time (busy_cpus_warns_on_a_hogged_pu makes it known). Without
 * benchmark PUs it is unknown. */
static const char *want_busy(json_t *cpus)
{
	return json_array_size(cpus) == 0 ? "unknown" : NULL;
}

/* A process named irqbalance in /proc warns. */
static const char *want_irqbalance(json_t *cpus)
{
	(void)cpus;
	DIR *d = opendir("/proc");
	struct dirent *e;
	int found = 0;
	while (d && !found && (e = readdir(d)) != NULL) {
		char path[300], comm[64];
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		found =
		    th_read_line(path, comm, sizeof(comm)) == 0 && strcmp(comm, "irqbalance") == 0;
	}
	if (d)
		closedir(d);
	return d ? (found ? "warn" : "ok") : "unknown";
}

/* The hypervisor CPU flag (first flags line of /proc/cpuinfo) or a /sys/hypervisor/type warns;
 * no flags line at all is unknown. */
static const char *want_hypervisor(json_t *cpus)
{
	(void)cpus;
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[8192], type[64];
	int have_flags = 0, flag = 0;
	while (f && !have_flags && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		have_flags = 1;
		char *save = NULL;
		for (char *w = strtok_r(line, " \t\n:", &save); w;
		     w = strtok_r(NULL, " \t\n:", &save))
			flag |= strcmp(w, "hypervisor") == 0;
	}
	if (f)
		fclose(f);
	int typed = th_read_line("/sys/hypervisor/type", type, sizeof(type)) == 0 && type[0];
	return flag || typed ? "warn" : have_flags ? "ok" : "unknown";
}

/* The check is whether this user may count its own instructions: asked of the kernel the one
 * way there is, perf_event_open (the doctor runs as the same user). */
static const char *want_perf(json_t *cpus)
{
	(void)cpus;
	struct perf_event_attr attr = {.type = PERF_TYPE_HARDWARE,
				       .size = sizeof(struct perf_event_attr),
				       .config = PERF_COUNT_HW_INSTRUCTIONS,
				       .disabled = 1,
				       .exclude_kernel = 1,
				       .exclude_hv = 1};
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
	return fd >= 0 ? "ok" : "warn";
}

/* Not derivable: a few seconds of the memory probe while the doctor runs (test_doctor_quiet.c
 * judges synthetic samples; command_samples_host_noise checks the command samples). Any of ok,
 * warn and unknown (a probe at memory latency throughout cannot tell). */
static const char *want_host_noise(json_t *cpus)
{
	(void)cpus;
	return NULL;
}

/* In check_names order. varies: a state that may change while the doctor runs (read before and
 * after it: either reading is right when they differ). */
static const struct {
	const char *(*want)(json_t *cpus);
	int varies;
} derived[DOCTOR_N_CHECKS] = {
    {want_governor, 0},	      {want_turbo, 0},	    {want_smt, 0},
    {want_isolated, 0},	      {want_aslr, 0},	    {want_thp, 0},
    {want_numa_balancing, 0}, {want_swap, 1},	    {want_load, 1},
    {want_busy, 0},	      {want_irqbalance, 1}, {want_hypervisor, 0},
    {want_perf, 0},	      {want_host_noise, 0},
};

/* Runs doctor --json (and args) on this machine: its parsed output or NULL, the exit code in
 * *status. */
static json_t *doctor_json(int *status, const char *args)
{
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "'%s' doctor --json %s", DBT3_BINARY, args);
	char *out = run_capture(cmd, status);
	if (!out)
		return NULL;
	json_error_t je;
	json_t *j = json_loads(out, 0, &je);
	if (!j)
		fprintf(stderr, "\nnot JSON: %s\n%s\n", je.text, out);
	free(out);
	return j;
}

/* The check called name in the doctor's report (the first one); *count: how many there are. */
static json_t *check_named(json_t *doc, const char *name, int *count)
{
	size_t i;
	json_t *c, *first = NULL;
	int n = 0;
	json_array_foreach(json_object_get(doc, "checks"), i, c)
	{
		const char *cn = json_string_value(json_object_get(c, "name"));
		if (cn && strcmp(cn, name) == 0 && n++ == 0)
			first = c;
	}
	if (count)
		*count = n;
	return first;
}

/* One check of the doctor's report: its status is the one derived (before: the reading taken
 * before the doctor ran), a warn names its fix. Returns 1 when it is a warn. */
static int assert_check(json_t *c, int k, const char *before, json_t *cpus)
{
	const char *st = json_string_value(json_object_get(c, "status"));
	const char *value = json_string_value(json_object_get(c, "value"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(st);
	CU_ASSERT(value && strlen(value) > 0);
	const char *want = derived[k].want(cpus);
	if (want) {
		int ok = strcmp(st, want) == 0 || (before && strcmp(st, before) == 0);
		if (!ok)
			fprintf(stderr, "\n%s: doctor says %s (%s), /proc and /sys say %s\n",
				check_names[k], st, value ? value : "", want);
		CU_ASSERT(ok);
	} else {
		CU_ASSERT(
		    strcmp(st, "ok") == 0 || strcmp(st, "warn") == 0 ||
		    (strcmp(check_names[k], "host_noise") == 0 && strcmp(st, "unknown") == 0));
	}
	/* A warn names its fix; ok and unknown have none. */
	json_t *fix = json_object_get(c, "fix");
	if (strcmp(st, "warn") == 0) {
		CU_ASSERT(json_is_string(fix));
		return 1;
	}
	CU_ASSERT(json_is_null(fix));
	return 0;
}

TH_TEST(doctor, json_on_this_machine_has_every_check)
{
	const char *before[DOCTOR_N_CHECKS] = {NULL};
	for (int k = 0; k < DOCTOR_N_CHECKS; k++)
		if (derived[k].varies)
			before[k] = derived[k].want(NULL);
	int status = -1;
	json_t *j = doctor_json(&status, "");
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	json_t *cpus = json_object_get(j, "benchmark_cpus");
	CU_ASSERT_FATAL(json_is_array(cpus));
	CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "checks")), DOCTOR_N_CHECKS);
	int warns = 0;
	for (int k = 0; k < DOCTOR_N_CHECKS; k++) {
		int found = 0;
		json_t *c = check_named(j, check_names[k], &found);
		CU_ASSERT_EQUAL(found, 1);
		if (c)
			warns += assert_check(c, k, before[k], cpus);
	}
	/* the value names what was read: randomize_va_space's number */
	char v[32], want_value[64];
	if (th_read_line("/proc/sys/kernel/randomize_va_space", v, sizeof(v)) == 0) {
		const char *value =
		    json_string_value(json_object_get(check_named(j, "aslr", NULL), "value"));
		snprintf(want_value, sizeof(want_value), "(randomize_va_space=%s)", v);
		CU_ASSERT_PTR_NOT_NULL(value ? strstr(value, want_value) : NULL);
	}
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "warn")), warns);
	CU_ASSERT_EQUAL(status, warns ? 1 : 0);
	json_decref(j);
}

/* A busy loop on one PU: busy_cpus over that PU must warn (it is busy all the time). */
TH_TEST(doctor, busy_cpus_warns_on_a_hogged_pu)
{
	int status = -1;
	json_t *j = doctor_json(&status, "--noise-seconds 0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	json_t *cpus = json_object_get(j, "benchmark_cpus");
	if (json_array_size(cpus) == 0) {
		th_skip("no benchmark PUs on this machine (one usable PU): busy_cpus is unknown");
		json_decref(j);
		return;
	}
	long pu = (long)json_integer_value(json_array_get(cpus, 0));
	json_decref(j);
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET((int)pu, &set);
	pid_t hog = fork();
	CU_ASSERT_FATAL(hog >= 0);
	if (hog == 0) {
		if (sched_setaffinity(0, sizeof(set), &set) != 0)
			_exit(1);
		for (volatile unsigned long x = 0;; x++)
			;
	}
	j = doctor_json(&status, "--noise-seconds 0");
	kill(hog, SIGKILL);
	int st = 0;
	CU_ASSERT_EQUAL(waitpid(hog, &st, 0), hog);
	CU_ASSERT_TRUE(WIFSIGNALED(st)); /* it ran until killed: it was pinned */
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	json_t *c = check_named(j, "busy_cpus", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	const char *st_name = json_string_value(json_object_get(c, "status"));
	if (!st_name || strcmp(st_name, "warn") != 0)
		fprintf(stderr, "\nbusy_cpus with PU %ld hogged: %s (%s)\n", pu,
			st_name ? st_name : "(none)",
			json_string_value(json_object_get(c, "value")));
	CU_ASSERT_STRING_EQUAL(st_name ? st_name : "", "warn");
	json_decref(j);
}

/* host_noise: sampled by default (the value names the probe and the steal), not with
 * --noise-seconds 0 (unknown); a bad value is a usage error. */
TH_TEST(doctor, command_samples_host_noise)
{
	int status = -1;
	json_t *j = doctor_json(&status, "--noise-seconds 0.3");
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	json_t *c = check_named(j, "host_noise", NULL);
	const char *v = json_string_value(json_object_get(c, "value"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	fprintf(stderr, "\nhost_noise: %s\n", v);
	CU_ASSERT_PTR_NOT_NULL(strstr(v, "memory probe"));
	CU_ASSERT_PTR_NOT_NULL(strstr(v, "steal"));
	json_decref(j);
	j = doctor_json(&status, "--noise-seconds 0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	c = check_named(j, "host_noise", NULL);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(c, "status")), "unknown");
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(json_string_value(json_object_get(c, "value")), "not sampled"));
	json_decref(j);
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "'%s' doctor --noise-seconds 61 2>/dev/null", DBT3_BINARY);
	free(run_capture(cmd, &status));
	CU_ASSERT_EQUAL(status, 2);
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
	th_read_line(full, out, len); /* "" when missing */
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

TH_TEST(doctor, noisy_root_warns_each_knob)
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

TH_TEST(doctor, empty_root_is_unknown_not_an_error)
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

TH_TEST(doctor, tune_then_reset_restores_every_value)
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

TH_TEST(doctor, command_tunes_and_resets_a_sysroot)
{
	char *root = th_tempdir("doctor-cmd");
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	make_noisy_root(root);
	char cmd[4096], v[256];
	int status = -1;
	snprintf(cmd, sizeof(cmd),
		 "DBT3STAB_SYSROOT='%s' DBT3STAB_HOME='%s/home' '%s' doctor --tune --quiet "
		 "--noise-seconds 0.3 --server-cpus 1 --client-cpus 0 >/dev/null",
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

/* --tune stores the memory probe's floor in the state directory, with the mirrored host's CPU
 * model; the next doctor judges by it (a verdict when it has probes enough) and its JSON says
 * so. */
TH_TEST(doctor, command_tune_stores_the_floor)
{
	char *root = th_tempdir("doctor-floor");
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	make_noisy_root(root);
	put(root, "/proc/cpuinfo",
	    "processor\t: 0\nmodel name\t: Mirrored CPU\nflags\t\t: fpu hypervisor\n");
	char cmd[4096], path[2048];
	int status = -1;
	snprintf(cmd, sizeof(cmd),
		 "DBT3STAB_SYSROOT='%s' DBT3STAB_HOME='%s/home' '%s' doctor --tune --quiet "
		 "--noise-seconds 0.5 --server-cpus 1 --client-cpus 0 >/dev/null",
		 root, root, DBT3_BINARY);
	free(run_capture(cmd, &status));
	CU_ASSERT_EQUAL(status, 1); /* smt, swap, irqbalance, hypervisor still warn */
	snprintf(path, sizeof(path), "%s/home/host-floor.json", root);
	json_t *f = json_load_file(path, 0, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	double ns = json_number_value(json_object_get(f, "floor_ns"));
	CU_ASSERT(ns > 0);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(f, "cpu_model")), "Mirrored CPU");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(f, "source")), "doctor --tune");
	CU_ASSERT(json_integer_value(json_object_get(f, "probes")) >= 1);
	json_decref(f);

	snprintf(cmd, sizeof(cmd),
		 "DBT3STAB_SYSROOT='%s' DBT3STAB_HOME='%s/home' '%s' doctor --json "
		 "--noise-seconds 1 --server-cpus 1 --client-cpus 0",
		 root, root, DBT3_BINARY);
	char *out = run_capture(cmd, &status);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	json_t *j = json_loads(out, 0, NULL);
	free(out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	json_t *fig = json_object_get(check_named(j, "host_noise", NULL), "figures");
	const char *verdict = json_string_value(json_object_get(fig, "verdict"));
	fprintf(stderr, "\nhost_noise after --tune: %s, pressure %g\n", verdict ? verdict : "-",
		json_number_value(json_object_get(fig, "pressure")));
	/* a verdict from 3 probes on (run's RES_MEM_MIN_PROBES); a loaded machine may take fewer
	 * in the sample's 4 s cap */
	int judged = json_integer_value(json_object_get(fig, "probes")) >= 3;
	CU_ASSERT(verdict &&
		  (judged ? strcmp(verdict, "quiet") == 0 || strcmp(verdict, "noisy") == 0
			  : strcmp(verdict, "unknown") == 0));
	json_t *fl = json_object_get(fig, "floor");
	CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(fl, "ns")), ns, 0);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(fl, "source")), "doctor --tune");
	CU_ASSERT(json_is_number(json_object_get(fig, "pressure")));
	CU_ASSERT(json_is_null(json_object_get(fig, "floor_note")));
	json_decref(j);
	th_rmtree(root);
	free(root);
}

TH_MAIN(doctor)
