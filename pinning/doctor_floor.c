/* SPDX-License-Identifier: MIT */
/* The stored floor of the memory probe (pinning/doctor_floor.h). */
#include "pinning/doctor_floor.h"
#include "base/safe_write.h"
#include "base/text.h"
#include "base/util.h"
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A floor file is small: anything larger is not one. */
#define FLOOR_MAX_BYTES 65536

double *doctor_sorted_copy(const double *v, size_t n)
{
	double *c = n ? malloc(n * sizeof(*c)) : NULL;
	if (!c)
		return NULL;
	memcpy(c, v, n * sizeof(*c));
	util_sort_doubles(c, n);
	return c;
}

double doctor_floor_of(const double *v, size_t n)
{
	double *c = doctor_sorted_copy(v, n);
	if (!c)
		return NAN;
	double f = c[(size_t)(DOCTOR_FLOOR_QUANTILE * (double)n)];
	free(c);
	return f;
}

/* Who may have written a file the tool trusts: the caller, or root. */
static int trusted_owner(uid_t uid)
{
	return uid == geteuid() || uid == 0;
}

/* The members of a floor file into out; -1 when one is missing or out of range. */
static int floor_from_json(struct doctor_floor *out, json_t *j)
{
	json_t *ns = json_object_get(j, "floor_ns"), *md = json_object_get(j, "median_ns");
	json_t *pr = json_object_get(j, "probes"), *pb = json_object_get(j, "probe_bytes");
	const char *date = json_string_value(json_object_get(j, "date"));
	const char *source = json_string_value(json_object_get(j, "source"));
	const char *model = json_string_value(json_object_get(j, "cpu_model"));
	if (json_integer_value(json_object_get(j, "version")) != 1 || !json_is_number(ns) ||
	    !(json_number_value(ns) > 0) || !json_is_integer(pr) || json_integer_value(pr) < 1 ||
	    !json_is_integer(pb) || json_integer_value(pb) < 1 || !date || !source || !model)
		return -1;
	memset(out, 0, sizeof(*out));
	out->ns = json_number_value(ns);
	out->median_ns = json_is_number(md) ? json_number_value(md) : NAN;
	out->probes = (size_t)json_integer_value(pr);
	out->probe_bytes = (size_t)json_integer_value(pb);
	snprintf(out->date, sizeof(out->date), "%s", date);
	snprintf(out->source, sizeof(out->source), "%s", source);
	snprintf(out->cpu_model, sizeof(out->cpu_model), "%s", model);
	return 0;
}

int doctor_floor_load(struct doctor_floor *out, const char *path, struct errbuf *err)
{
	struct stat st;
	int fd = util_openat_regular(AT_FDCWD, path, O_RDONLY, 0);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return errbuf_set(err, "'%s' not read: %s", path,
				  errno == ELOOP    ? "it is a symbolic link"
				  : errno == EINVAL ? "it is not a regular file"
						    : strerror(errno));
	int rc = -1;
	char *buf = NULL;
	if (fstat(fd, &st) < 0) {
		errbuf_errno(err, errno, "'%s' not read", path);
	} else if (!trusted_owner(st.st_uid)) {
		errbuf_set(err, "'%s' not read: it belongs to uid %u, neither you nor root", path,
			   (unsigned)st.st_uid);
	} else if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		errbuf_set(err, "'%s' not read: others may write it", path);
	} else if (st.st_size > FLOOR_MAX_BYTES || !(buf = malloc((size_t)st.st_size + 1))) {
		errbuf_set(err, "'%s' not read: too large", path);
	} else {
		ssize_t n = read(fd, buf, (size_t)st.st_size);
		json_t *j = n >= 0 ? json_loadb(buf, (size_t)n, 0, NULL) : NULL;
		if (floor_from_json(out, j) == 0)
			rc = 1;
		else
			errbuf_set(err, "'%s' not read: not a floor file", path);
		json_decref(j);
	}
	free(buf);
	close(fd);
	return rc;
}

int doctor_floor_save(const struct doctor_floor *f, const char *path, struct errbuf *err)
{
	struct stat st;
	char *dir = strdup(path), *slash = dir ? strrchr(dir, '/') : NULL;
	if (!dir)
		return errbuf_set(err, "out of memory");
	if (slash && slash != dir) {
		*slash = '\0';
		int dfd = util_outdir_open(dir, UTIL_OUTDIR_STABLE, NULL, err);
		if (dfd < 0) { /* a link planted at a component, another user's directory */
			free(dir);
			return -1;
		}
		close(dfd);
	}
	free(dir);
	/* the rename would replace a link, never follow it; still, what another user put there
	 * is theirs to remove */
	int there = lstat(path, &st) == 0;
	if (there && !S_ISREG(st.st_mode))
		return errbuf_set(err, "'%s' left as it is: it is %s, not a regular file", path,
				  S_ISLNK(st.st_mode) ? "a symbolic link" : "something else");
	if (there && !trusted_owner(st.st_uid))
		return errbuf_set(err, "'%s' left as it is: it belongs to uid %u", path,
				  (unsigned)st.st_uid);
	json_t *j =
	    json_pack("{s:i, s:f, s:o, s:I, s:I, s:s, s:s, s:s}", "version", 1, "floor_ns", f->ns,
		      "median_ns", isnan(f->median_ns) ? json_null() : json_real(f->median_ns),
		      "probes", (json_int_t)f->probes, "probe_bytes", (json_int_t)f->probe_bytes,
		      "date", f->date, "source", f->source, "cpu_model", f->cpu_model);
	char *text = j ? json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS) : NULL;
	json_decref(j);
	if (!text)
		return errbuf_set(err, "out of memory");
	size_t len = strlen(text);
	text[len] = '\n'; /* json_dumps leaves no newline: the NUL becomes one, len + 1 written */
	int rc = util_write_file(path, text, len + 1, 0644, err);
	free(text);
	return rc;
}

int doctor_floor_fits(const struct doctor_floor *f, const char *cpu_model, size_t probe_bytes,
		      char *why, size_t len)
{
	char a[300], b[300];
	why[0] = '\0';
	if (strcmp(f->cpu_model, cpu_model) != 0) {
		snprintf(why, len, "taken on another CPU ('%s', this is '%s')",
			 util_term(a, sizeof(a), f->cpu_model), util_term(b, sizeof(b), cpu_model));
		return 0;
	}
	if (f->probe_bytes != probe_bytes) {
		snprintf(why, len, "taken with another probe (%zu KiB, this is %zu KiB)",
			 f->probe_bytes >> 10, probe_bytes >> 10);
		return 0;
	}
	return 1;
}
