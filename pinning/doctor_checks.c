/* SPDX-License-Identifier: MIT */
/* The doctor's checks: each reads /proc or /sys (under env->root) and never fails. */
#include "base/util_perf.h"
#include "pinning/doctor.h"
#include "pinning/doctor_int.h"
#include "pinning/doctor_quiet.h"
#include "pinning/pin.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

static void set(struct doctor_check *c, enum doctor_status st, const char *fix, const char *fmt,
		...) UTIL_PRINTF(4, 5);
static void set(struct doctor_check *c, enum doctor_status st, const char *fix, const char *fmt,
		...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->value, sizeof(c->value), fmt, ap);
	va_end(ap);
	c->status = st;
	snprintf(c->fix, sizeof(c->fix), "%s", st == DOCTOR_WARN && fix ? fix : "");
}

static void check_governor(struct doctor_check *c, const char *root)
{
	char pattern[1024], line[128], govs[256] = "";
	doctor_path(pattern, sizeof(pattern), root,
		    "/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor");
	glob_t g;
	int n = 0, perf = 0;
	if (glob(pattern, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			FILE *f = fopen(g.gl_pathv[i], "re");
			if (!f)
				continue;
			if (fgets(line, sizeof(line), f)) {
				line[strcspn(line, "\n")] = '\0';
				n++;
				perf += strcmp(line, "performance") == 0;
				if (!strstr(govs, line) &&
				    strlen(govs) + strlen(line) + 2 < sizeof(govs))
					snprintf(govs + strlen(govs), sizeof(govs) - strlen(govs),
						 "%s%s", govs[0] ? "," : "", line);
			}
			fclose(f);
		}
		globfree(&g);
	}
	if (n == 0)
		set(c, DOCTOR_UNKNOWN, NULL, "no cpufreq in /sys (a VM or no driver)");
	else if (perf == n)
		set(c, DOCTOR_OK, NULL, "performance on %d CPUs", n);
	else
		set(c, DOCTOR_WARN,
		    "dbt3stab doctor --tune (or: cpupower frequency-set -g performance)",
		    "%s (%d of %d CPUs not performance)", govs, n - perf, n);
}

/* One of the turbo switches under /sys/devices/system/cpu (file, named name in the value): off
 * when it holds off. 0, or -1 when this machine has no such file. */
static int check_turbo_file(struct doctor_check *c, const char *root, const char *file,
			    const char *name, const char *off)
{
	char path[128], v[64], fix[256];
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/%s", file);
	if (doctor_read_line(root, path, v, sizeof(v)) != 0)
		return -1;
	snprintf(fix, sizeof(fix), "dbt3stab doctor --tune (or: echo %s > %s)", off, path);
	if (strcmp(v, off) == 0)
		set(c, DOCTOR_OK, NULL, "off (%s=%s)", name, v);
	else
		set(c, DOCTOR_WARN, fix, "on (%s=%s)", name, v);
	return 0;
}

static void check_turbo(struct doctor_check *c, const char *root)
{
	if (check_turbo_file(c, root, "intel_pstate/no_turbo", "intel_pstate no_turbo", "1") < 0 &&
	    check_turbo_file(c, root, "cpufreq/boost", "cpufreq boost", "0") < 0)
		set(c, DOCTOR_UNKNOWN, NULL, "no intel_pstate/no_turbo nor cpufreq/boost");
}

static void check_smt(struct doctor_check *c, const char *root)
{
	char active[32], control[64] = "?";
	if (doctor_read_line(root, "/sys/devices/system/cpu/smt/active", active, sizeof(active)) <
	    0) {
		set(c, DOCTOR_UNKNOWN, NULL, "no /sys/devices/system/cpu/smt");
		return;
	}
	doctor_read_line(root, "/sys/devices/system/cpu/smt/control", control, sizeof(control));
	if (strcmp(active, "0") == 0)
		set(c, DOCTOR_OK, NULL, "off (control: %s)", control);
	else
		set(c, DOCTOR_WARN,
		    "echo off > /sys/devices/system/cpu/smt/control (or nosmt on the kernel "
		    "command line)",
		    "on (control: %s); another task on the server's sibling PU slows it", control);
}

static void check_isolated(struct doctor_check *c, const struct doctor_env *env)
{
	char iso[256], nohz[256] = "", want[256], fix[512];
	pin_ids_format(want, sizeof(want), env->cpus, env->n_cpus);
	if (doctor_read_line(env->root, "/sys/devices/system/cpu/isolated", iso, sizeof(iso)) < 0) {
		set(c, DOCTOR_UNKNOWN, NULL, "no /sys/devices/system/cpu/isolated");
		return;
	}
	doctor_read_line(env->root, "/sys/devices/system/cpu/nohz_full", nohz, sizeof(nohz));
	if (strcmp(nohz, "(null)") == 0)
		nohz[0] = '\0';
	snprintf(fix, sizeof(fix),
		 "add isolcpus=%.64s nohz_full=%.64s rcu_nocbs=%.64s to the kernel command line, "
		 "reboot, "
		 "then run with --server-cpus/--client-cpus in that list",
		 env->n_cpus ? want : "N", env->n_cpus ? want : "N", env->n_cpus ? want : "N");
	if (env->n_cpus == 0) {
		set(c, iso[0] ? DOCTOR_OK : DOCTOR_WARN, fix,
		    "isolated: %.128s; nohz_full: %.128s; no PUs chosen", iso[0] ? iso : "none",
		    nohz[0] ? nohz : "none");
		return;
	}
	int all = 1;
	for (int i = 0; i < env->n_cpus; i++)
		all &= doctor_list_has(iso, env->cpus[i]);
	set(c, all ? DOCTOR_OK : DOCTOR_WARN, fix,
	    "isolated: %.128s; nohz_full: %.128s; benchmark PUs %.128s", iso[0] ? iso : "none",
	    nohz[0] ? nohz : "none", want);
}

static void check_aslr(struct doctor_check *c, const char *root)
{
	char v[32];
	if (doctor_read_line(root, "/proc/sys/kernel/randomize_va_space", v, sizeof(v)) < 0) {
		set(c, DOCTOR_UNKNOWN, NULL, "no /proc/sys/kernel/randomize_va_space");
		return;
	}
	const char *what = strcmp(v, "0") == 0 ? "off" : strcmp(v, "1") == 0 ? "partial" : "full";
	set(c, strcmp(v, "0") == 0 ? DOCTOR_OK : DOCTOR_WARN,
	    "run with --no-aslr (per server), or: sysctl -w kernel.randomize_va_space=0",
	    "%s (randomize_va_space=%s)", what, v);
}

static void check_thp(struct doctor_check *c, const char *root)
{
	char v[128];
	if (doctor_read_line(root, "/sys/kernel/mm/transparent_hugepage/enabled", v, sizeof(v)) <
	    0) {
		set(c, DOCTOR_UNKNOWN, NULL, "no /sys/kernel/mm/transparent_hugepage");
		return;
	}
	char mode[32] = "?";
	const char *lb = strchr(v, '['), *rb = lb ? strchr(lb, ']') : NULL;
	if (lb && rb && rb - lb - 1 < (long)sizeof(mode)) {
		memcpy(mode, lb + 1, (size_t)(rb - lb - 1));
		mode[rb - lb - 1] = '\0';
	} else if (!lb && v[0] && !strchr(v, ' ')) {
		snprintf(mode, sizeof(mode), "%.31s",
			 v); /* a plain copy of the file, no brackets */
	}
	set(c,
	    strcmp(mode, "always") == 0 ? DOCTOR_WARN
	    : strcmp(mode, "?") == 0	? DOCTOR_UNKNOWN
					: DOCTOR_OK,
	    "dbt3stab doctor --tune (or: echo madvise > "
	    "/sys/kernel/mm/transparent_hugepage/enabled)",
	    "%s%s", mode,
	    strcmp(mode, "always") == 0 ? " (khugepaged collapses pages while the server runs)"
					: "");
}

static void check_numa_balancing(struct doctor_check *c, const char *root)
{
	char v[32];
	if (doctor_read_line(root, "/proc/sys/kernel/numa_balancing", v, sizeof(v)) < 0) {
		set(c, DOCTOR_OK, NULL, "not in this kernel");
		return;
	}
	set(c, strcmp(v, "0") == 0 ? DOCTOR_OK : DOCTOR_WARN,
	    "dbt3stab doctor --tune (or: sysctl -w kernel.numa_balancing=0)",
	    "%s (numa_balancing=%s)", strcmp(v, "0") == 0 ? "off" : "on", v);
}

static int meminfo_kb(const char *root, const char *key, long *out)
{
	char path[1024], line[256];
	doctor_path(path, sizeof(path), root, "/proc/meminfo");
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	size_t klen = strlen(key);
	int rc = -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, klen) == 0 && line[klen] == ':' &&
		    sscanf(line + klen + 1, "%ld", out) == 1) {
			rc = 0;
			break;
		}
	fclose(f);
	return rc;
}

static void check_swap(struct doctor_check *c, const char *root)
{
	long total, freekb;
	if (meminfo_kb(root, "SwapTotal", &total) < 0 ||
	    meminfo_kb(root, "SwapFree", &freekb) < 0) {
		set(c, DOCTOR_UNKNOWN, NULL, "no SwapTotal/SwapFree in /proc/meminfo");
		return;
	}
	if (total == 0)
		set(c, DOCTOR_OK, NULL, "no swap configured");
	else if (total - freekb > 0)
		set(c, DOCTOR_WARN,
		    "swapoff -a && swapon -a (needs free RAM for what is swapped out)",
		    "%ld MiB in use of %ld MiB", (total - freekb) / 1024, total / 1024);
	else
		set(c, DOCTOR_OK, NULL, "none in use (%ld MiB configured)", total / 1024);
}

static void check_load(struct doctor_check *c, const char *root)
{
	char v[128];
	double l1, l5, l15;
	if (doctor_read_line(root, "/proc/loadavg", v, sizeof(v)) < 0 ||
	    sscanf(v, "%lf %lf %lf", &l1, &l5, &l15) != 3) {
		set(c, DOCTOR_UNKNOWN, NULL, "cannot read /proc/loadavg");
		return;
	}
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1)
		ncpu = 1;
	/* Server and client need two PUs to themselves: more load than the rest can carry warns. */
	double limit = ncpu > 3 ? (double)ncpu - 2 : 1.0;
	set(c, l1 > limit ? DOCTOR_WARN : DOCTOR_OK,
	    "wait for the host to go idle, or stop what runs (see busy_cpus, top)",
	    "%.2f %.2f %.2f on %ld CPUs (warn above %.1f)", l1, l5, l15, ncpu, limit);
}

/* Per-CPU busy and idle jiffies from /proc/stat for cpu; -1 when absent. */
static int cpu_jiffies(const char *root, unsigned cpu, unsigned long long *busy,
		       unsigned long long *total)
{
	unsigned long long v[8];
	if (doctor_stat_ticks(root, (int)cpu, v) < 4)
		return -1;
	*total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
	*busy = *total - v[3] - v[4]; /* idle, iowait */
	return 0;
}

struct proc_sample {
	int pid;
	char comm[32];
	unsigned long long ticks;
	int cpu;
};

/* utime+stime and last CPU of every process under root/proc; returns the count (malloc'd). */
static int proc_scan(const char *root, struct proc_sample **out)
{
	char path[1024];
	doctor_path(path, sizeof(path), root, "/proc");
	*out = NULL;
	DIR *d = opendir(path);
	if (!d)
		return 0;
	int n = 0, cap = 0;
	struct proc_sample *a = NULL;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		char stat[1024], sp[1024];
		snprintf(sp, sizeof(sp), "/proc/%s/stat", de->d_name);
		if (doctor_read_line(root, sp, stat, sizeof(stat)) < 0)
			continue;
		const char *lp = strchr(stat, '('), *rp = strrchr(stat, ')');
		if (!lp || !rp)
			continue;
		struct proc_sample s = {.pid = (int)strtol(de->d_name, NULL, 10), .cpu = -1};
		size_t cl = (size_t)(rp - lp - 1) < sizeof(s.comm) - 1 ? (size_t)(rp - lp - 1)
								       : sizeof(s.comm) - 1;
		memcpy(s.comm, lp + 1, cl);
		s.comm[cl] = '\0';
		/* Fields after the comm: 3 state ... 14 utime 15 stime ... 39 processor. */
		int field = 2;
		unsigned long long ut = 0, st = 0;
		for (const char *p = rp + 1; *p; p++) {
			if (*p != ' ')
				continue;
			field++;
			if (field == 14)
				ut = strtoull(p + 1, NULL, 10);
			else if (field == 15)
				st = strtoull(p + 1, NULL, 10);
			else if (field == 39)
				s.cpu = (int)strtol(p + 1, NULL, 10);
		}
		s.ticks = ut + st;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			struct proc_sample *na = realloc(a, (size_t)cap * sizeof(*a));
			if (!na)
				break;
			a = na;
		}
		a[n++] = s;
	}
	closedir(d);
	*out = a;
	return n;
}

static void check_busy(struct doctor_check *c, const struct doctor_env *env)
{
	if (env->n_cpus == 0) {
		set(c, DOCTOR_UNKNOWN, NULL, "no PUs chosen (unpinned)");
		return;
	}
	enum { MAXC = 8 };
	int n = env->n_cpus < MAXC ? env->n_cpus : MAXC;
	unsigned long long b0[MAXC], t0[MAXC], b1[MAXC], t1[MAXC];
	for (int i = 0; i < n; i++)
		if (cpu_jiffies(env->root, env->cpus[i], &b0[i], &t0[i]) < 0) {
			set(c, DOCTOR_UNKNOWN, NULL, "no cpu%u line in /proc/stat", env->cpus[i]);
			return;
		}
	struct proc_sample *p0 = NULL, *p1 = NULL;
	int n0 = proc_scan(env->root, &p0);
	int ms = env->sample_ms > 0 ? env->sample_ms : 300;
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
	int n1 = proc_scan(env->root, &p1);
	char buf[512] = "";
	int warn = 0;
	for (int i = 0; i < n; i++) {
		if (cpu_jiffies(env->root, env->cpus[i], &b1[i], &t1[i]) < 0)
			continue;
		unsigned long long dt = t1[i] - t0[i], db = b1[i] - b0[i];
		double pct = dt ? 100.0 * (double)db / (double)dt : 0;
		warn |= pct > 10.0;
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%sPU %u %.0f%% busy",
			 i ? ", " : "", env->cpus[i], pct);
	}
	/* The busiest process last seen on a chosen PU over the interval. */
	long hz = sysconf(_SC_CLK_TCK);
	const struct proc_sample *top = NULL;
	unsigned long long top_d = 0;
	for (int j = 0; j < n1; j++) {
		int on = 0;
		for (int i = 0; i < n; i++)
			on |= p1[j].cpu == (int)env->cpus[i];
		if (!on || p1[j].pid == (int)getpid())
			continue;
		for (int k = 0; k < n0; k++)
			if (p0[k].pid == p1[j].pid && p1[j].ticks - p0[k].ticks > top_d) {
				top_d = p1[j].ticks - p0[k].ticks;
				top = &p1[j];
			}
	}
	if (top && hz > 0)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
			 "; busiest there: %s (pid %d, %.0f%%)", top->comm, top->pid,
			 100.0 * (double)top_d / (double)hz / (ms / 1000.0));
	char fix[256];
	snprintf(fix, sizeof(fix), "stop or move what runs there (taskset -apc OTHER_CPUS %d)",
		 top ? top->pid : 0);
	set(c, warn ? DOCTOR_WARN : DOCTOR_OK, fix, "%s over %d ms", buf, ms);
	free(p0);
	free(p1);
}

static void check_irqbalance(struct doctor_check *c, const char *root)
{
	char path[1024];
	doctor_path(path, sizeof(path), root, "/proc");
	DIR *d = opendir(path);
	if (!d) {
		set(c, DOCTOR_UNKNOWN, NULL, "cannot list /proc");
		return;
	}
	int found = 0;
	struct dirent *de;
	while (!found && (de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		char comm[64], cp[300];
		snprintf(cp, sizeof(cp), "/proc/%s/comm", de->d_name);
		if (doctor_read_line(root, cp, comm, sizeof(comm)) == 0 &&
		    strcmp(comm, "irqbalance") == 0)
			found = (int)strtol(de->d_name, NULL, 10);
	}
	closedir(d);
	if (found)
		set(c, DOCTOR_WARN,
		    "systemctl stop irqbalance (it moves interrupts onto the benchmark PUs)",
		    "running (pid %d)", found);
	else
		set(c, DOCTOR_OK, NULL, "not running");
}

static void check_hypervisor(struct doctor_check *c, const char *root)
{
	char path[1024], line[4096], vendor[13] = "";
	doctor_path(path, sizeof(path), root, "/proc/cpuinfo");
	FILE *f = fopen(path, "re");
	int have_flags = 0, hv = 0;
	if (f) {
		while (!have_flags && fgets(line, sizeof(line), f))
			if (strncmp(line, "flags", 5) == 0) {
				have_flags = 1;
				hv = strstr(line, " hypervisor") != NULL;
			}
		fclose(f);
	}
	char type[64] = "";
	doctor_read_line(root, "/sys/hypervisor/type", type, sizeof(type));
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, cc, d;
	if (hv && (!root || !*root)) {
		__cpuid(0x40000000, a, b, cc, d);
		memcpy(vendor, &b, 4);
		memcpy(vendor + 4, &cc, 4);
		memcpy(vendor + 8, &d, 4);
		vendor[12] = '\0';
		for (int i = 0; i < 12; i++)
			if (!isprint((unsigned char)vendor[i]))
				vendor[i] = '\0';
		for (int i = (int)strlen(vendor) - 1; i >= 0 && vendor[i] == ' '; i--)
			vendor[i] = '\0';
	}
	(void)a;
#endif
	if (hv || type[0])
		set(c, DOCTOR_WARN,
		    "none: run on bare metal for the smallest variance (steal time, neighbours)",
		    "yes (%s)",
		    vendor[0] ? vendor
		    : type[0] ? type
			      : "cpuinfo flag");
	else if (have_flags)
		set(c, DOCTOR_OK, NULL, "no (bare metal)");
	else
		set(c, DOCTOR_UNKNOWN, NULL, "no flags line in /proc/cpuinfo");
}

static void check_perf(struct doctor_check *c, const char *root)
{
	int fd = util_perf_open(PERF_COUNT_HW_INSTRUCTIONS, 0, -1, 0, 1);
	int e = errno;
	char par[32] = "?";
	doctor_read_line(root, "/proc/sys/kernel/perf_event_paranoid", par, sizeof(par));
	if (fd >= 0) {
		close(fd);
		set(c, DOCTOR_OK, NULL, "available (perf_event_paranoid=%s)", par);
	} else if (e == EACCES || e == EPERM) {
		set(c, DOCTOR_WARN,
		    "dbt3stab doctor --tune (or: sysctl -w kernel.perf_event_paranoid=1)",
		    "blocked: %s (perf_event_paranoid=%s)", strerror(e), par);
	} else {
		set(c, DOCTOR_WARN,
		    "none here: give the VM a virtual PMU (e.g. qemu -cpu host,pmu=on) or use bare "
		    "metal",
		    "not available: %s (no hardware PMU)", strerror(e));
	}
}

void doctor_run(struct doctor_check out[DOCTOR_N_CHECKS], const struct doctor_env *env)
{
	static const char *const names[DOCTOR_N_CHECKS] = {
	    "cpu_governor",   "turbo_boost", "smt",
	    "isolated_cpus",  "aslr",	     "transparent_hugepages",
	    "numa_balancing", "swap",	     "load_average",
	    "busy_cpus",      "irqbalance",  "hypervisor",
	    "perf_counters",  "host_noise"};
	const char *root = env->root ? env->root : "";
	memset(out, 0, sizeof(struct doctor_check) * DOCTOR_N_CHECKS);
	for (int i = 0; i < DOCTOR_N_CHECKS; i++)
		out[i].name = names[i];
	check_governor(&out[0], root);
	check_turbo(&out[1], root);
	check_smt(&out[2], root);
	check_isolated(&out[3], env);
	check_aslr(&out[4], root);
	check_thp(&out[5], root);
	check_numa_balancing(&out[6], root);
	check_swap(&out[7], root);
	check_load(&out[8], root);
	check_busy(&out[9], env);
	check_irqbalance(&out[10], root);
	check_hypervisor(&out[11], root);
	check_perf(&out[12], root);
	doctor_quiet_check(&out[13], env);
}

const char *doctor_status_name(enum doctor_status s)
{
	return s == DOCTOR_OK ? "ok" : s == DOCTOR_WARN ? "warn" : "unknown";
}

json_t *doctor_to_json(const struct doctor_check *checks, int n)
{
	json_t *a = json_array();
	for (int i = 0; a && i < n; i++)
		json_array_append_new(
		    a,
		    json_pack("{s:s, s:s, s:s, s:o}", "name", checks[i].name, "status",
			      doctor_status_name(checks[i].status), "value", checks[i].value, "fix",
			      checks[i].fix[0] ? json_string(checks[i].fix) : json_null()));
	return a;
}
