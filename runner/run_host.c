/* SPDX-License-Identifier: MIT */
/* The host section of a result file: what can make two runs on the same machine differ. */
#include "runner/run.h"
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* First line of a small file, without the newline; "" when unreadable. */
static void read_line(const char *path, char *out, size_t len)
{
	out[0] = '\0';
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(out, (int)len, f))
		out[strcspn(out, "\n")] = '\0';
	fclose(f);
}

static void cpu_model(char *out, size_t len)
{
	char line[512];
	out[0] = '\0';
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) != 0)
			continue;
		char *colon = strchr(line, ':');
		if (colon) {
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(out, len, "%s", colon);
		}
		break;
	}
	fclose(f);
}

/* "on", "off" or null: intel_pstate/no_turbo, else cpufreq/boost. */
static json_t *turbo_state(void)
{
	char v[32];
	read_line("/sys/devices/system/cpu/intel_pstate/no_turbo", v, sizeof(v));
	if (*v)
		return json_string(strcmp(v, "1") == 0 ? "off" : "on");
	read_line("/sys/devices/system/cpu/cpufreq/boost", v, sizeof(v));
	if (*v)
		return json_string(strcmp(v, "1") == 0 ? "on" : "off");
	return json_null();
}

json_t *run_host_json(const char *topology)
{
	char buf[512];
	struct utsname u;
	json_t *h = json_object();
	if (gethostname(buf, sizeof(buf)) == 0) {
		buf[sizeof(buf) - 1] = '\0';
		json_object_set_new(h, "name", json_string(buf));
	}
	cpu_model(buf, sizeof(buf));
	if (*buf)
		json_object_set_new(h, "cpu_model", json_string(buf));
	if (uname(&u) == 0) {
		snprintf(buf, sizeof(buf), "%s %s", u.sysname, u.release);
		json_object_set_new(h, "kernel", json_string(buf));
		json_object_set_new(h, "machine", json_string(u.machine));
	}
	json_object_set_new(h, "cpus_online", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_set_new(h, "topology", res_json_str(topology));
	read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", buf, sizeof(buf));
	json_object_set_new(h, "governor", res_json_str(buf));
	json_object_set_new(h, "turbo", turbo_state());
	read_line("/proc/sys/kernel/randomize_va_space", buf, sizeof(buf));
	json_object_set_new(h, "aslr", res_json_str(buf));
	return h;
}
