/* SPDX-License-Identifier: MIT */
/* doctor --tune / --reset: write the quiet values, keep the previous ones in a state file. */
#include "base/safe_write.h"
#include "pinning/doctor.h"
#include "pinning/doctor_int.h"
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_value(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -1;
	char buf[256];
	int n = snprintf(buf, sizeof(buf), "%s\n", value);
	ssize_t w = write(fd, buf, (size_t)n);
	int saved = errno;
	if (close(fd) < 0 && w == n)
		return -1;
	errno = saved;
	return w == n ? 0 : -1;
}

/* The current value as --reset must write it back: THP's "[madvise]" becomes "madvise". */
static int current_value(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	int ok = fgets(out, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	out[strcspn(out, "\n")] = '\0';
	char *lb = strchr(out, '['), *rb = lb ? strchr(lb, ']') : NULL;
	if (lb && rb) {
		memmove(out, lb + 1, (size_t)(rb - lb - 1));
		out[rb - lb - 1] = '\0';
	}
	return 0;
}

static json_t *state_load(const char *state_file)
{
	json_error_t je;
	json_t *st = json_load_file(state_file, 0, &je);
	if (!json_is_object(json_object_get(st, "files"))) {
		json_decref(st);
		return NULL;
	}
	return st;
}

static int state_save(const char *state_file, json_t *st, struct errbuf *err)
{
	char *text = json_dumps(st, JSON_INDENT(2) | JSON_SORT_KEYS);
	if (!text)
		return errbuf_set(err, "out of memory");
	char *dir = strdup(state_file), *slash = dir ? strrchr(dir, '/') : NULL;
	int rc = 0;
	if (slash && slash != dir) { /* made as gen -o makes its directory, rewritten by path */
		*slash = '\0';
		int dfd = util_outdir_open(dir, UTIL_OUTDIR_STABLE, NULL, err);
		rc = dfd < 0 ? -1 : close(dfd);
	}
	free(dir);
	if (rc == 0)
		rc = util_write_atomic(state_file, text, strlen(text), err);
	free(text);
	return rc;
}

struct knob {
	char path[1024];
	const char *target;
};

/* The files --tune writes, where they exist and differ from the quiet value. */
static int knobs_collect(struct knob *k, int max, const char *root)
{
	int n = 0;
	char pattern[1024], cur[256];
	doctor_path(pattern, sizeof(pattern), root,
		    "/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor");
	glob_t g;
	if (glob(pattern, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc && n < max; i++) {
			snprintf(k[n].path, sizeof(k[n].path), "%s", g.gl_pathv[i]);
			k[n++].target = "performance";
		}
		globfree(&g);
	}
	static const struct {
		const char *path, *target;
	} fixed[] = {
	    {"/sys/devices/system/cpu/intel_pstate/no_turbo", "1"},
	    {"/sys/devices/system/cpu/cpufreq/boost", "0"},
	    {"/proc/sys/kernel/randomize_va_space", "0"},
	    {"/sys/kernel/mm/transparent_hugepage/enabled", "madvise"},
	    {"/proc/sys/kernel/numa_balancing", "0"},
	    {"/proc/sys/kernel/perf_event_paranoid", "1"},
	};
	int have_no_turbo = 0;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]) && n < max; i++) {
		doctor_path(k[n].path, sizeof(k[n].path), root, fixed[i].path);
		if (current_value(k[n].path, cur, sizeof(cur)) < 0)
			continue;
		if (i == 0)
			have_no_turbo = 1;
		if (i == 1 && have_no_turbo)
			continue; /* intel_pstate's switch is the one that counts */
		if (i == 3 && strcmp(cur, "always") != 0)
			continue; /* never and madvise are both fine */
		if (i == 5 && strtol(cur, NULL, 10) <= 1)
			continue; /* already permissive enough */
		k[n++].target = fixed[i].target;
	}
	return n;
}

int doctor_tune(const char *root, const char *state_file, FILE *log, struct errbuf *err)
{
	struct knob *k = calloc(256, sizeof(*k));
	if (!k)
		return errbuf_set(err, "out of memory");
	int n = knobs_collect(k, 256, root), failed = 0, rc = -1;
	json_t *st = state_load(state_file);
	if (!st)
		st = json_pack("{s:i, s:{}}", "version", 1, "files");
	json_t *files = json_object_get(st, "files");
	char cur[256];
	/* Save every previous value before changing anything. */
	for (int i = 0; i < n; i++)
		if (current_value(k[i].path, cur, sizeof(cur)) == 0 &&
		    strcmp(cur, k[i].target) != 0 && !json_object_get(files, k[i].path))
			json_object_set_new(files, k[i].path, json_string(cur));
	if (state_save(state_file, st, err) < 0)
		goto out;
	for (int i = 0; i < n; i++) {
		if (current_value(k[i].path, cur, sizeof(cur)) < 0 || strcmp(cur, k[i].target) == 0)
			continue;
		if (write_value(k[i].path, k[i].target) < 0) {
			failed++;
			if (log)
				fprintf(log, "cannot write '%s': %s\n", k[i].path, strerror(errno));
		} else if (log) {
			fprintf(log, "%s: %s -> %s\n", k[i].path, cur, k[i].target);
		}
	}
	rc = failed;
out:
	json_decref(st);
	free(k);
	return rc;
}

int doctor_reset(const char *state_file, FILE *log, struct errbuf *err)
{
	if (access(state_file, F_OK) < 0)
		return errbuf_errno(err, errno, "nothing to reset: cannot open '%s'", state_file);
	json_t *st = state_load(state_file);
	if (!st)
		return errbuf_set(err, "invalid state file '%s'", state_file);
	json_t *files = json_object_get(st, "files"), *left = json_object();
	const char *path;
	json_t *v;
	int failed = 0;
	json_object_foreach(files, path, v)
	{
		const char *value = json_string_value(v);
		if (!value)
			continue;
		if (write_value(path, value) < 0) {
			failed++;
			json_object_set(left, path, v);
			if (log)
				fprintf(log, "cannot write '%s': %s\n", path, strerror(errno));
		} else if (log) {
			fprintf(log, "%s: restored %s\n", path, value);
		}
	}
	int rc = failed;
	if (failed) {
		/* Keep what could not be restored for another --reset. */
		json_object_set_new(st, "files", left);
		left = NULL;
		if (state_save(state_file, st, err) < 0)
			rc = -1;
	} else if (unlink(state_file) < 0) {
		rc = errbuf_errno(err, errno, "cannot remove '%s'", state_file);
	}
	json_decref(left);
	json_decref(st);
	return rc;
}
