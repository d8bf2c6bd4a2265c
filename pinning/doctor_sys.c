/* SPDX-License-Identifier: MIT */
/* Reading /proc and /sys under a root: what the doctor's checks and --tune both use. */
#include "pinning/doctor_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void doctor_path(char *out, size_t len, const char *root, const char *path)
{
	snprintf(out, len, "%s%s", root ? root : "", path);
}

int doctor_stat_ticks(const char *root, int cpu, unsigned long long v[8])
{
	char path[1024], line[512], key[32];
	doctor_path(path, sizeof(path), root, "/proc/stat");
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	if (cpu < 0)
		snprintf(key, sizeof(key), "cpu ");
	else
		snprintf(key, sizeof(key), "cpu%d ", cpu);
	int n = -1;
	while (n < 0 && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, strlen(key)) != 0)
			continue;
		memset(v, 0, 8 * sizeof(v[0]));
		n = sscanf(line + strlen(key), "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
			   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
		n = n < 0 ? 0 : n;
	}
	fclose(f);
	return n;
}

int doctor_read_line(const char *root, const char *path, char *out, size_t len)
{
	char full[1024];
	doctor_path(full, sizeof(full), root, path);
	FILE *f = fopen(full, "re");
	if (!f)
		return -1;
	int ok = fgets(out, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	return 0;
}

int doctor_cpu_model(const char *root, char *out, size_t len)
{
	char path[1024], line[512];
	doctor_path(path, sizeof(path), root, "/proc/cpuinfo");
	out[0] = '\0';
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) != 0)
			continue;
		const char *v = strchr(line, ':');
		if (v) {
			v += strspn(v + 1, " \t") + 1;
			snprintf(out, len, "%.*s", (int)strcspn(v, "\n"), v);
		}
		break;
	}
	fclose(f);
	return 0;
}

int doctor_list_has(const char *list, unsigned id)
{
	const char *p = list;
	while (p && *p) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;
		if (end == p)
			return 0;
		if (*end == '-') {
			p = end + 1;
			b = strtoul(p, &end, 10);
			if (end == p)
				return 0;
		}
		if (id >= a && id <= b)
			return 1;
		p = *end == ',' ? end + 1 : NULL;
	}
	return 0;
}
