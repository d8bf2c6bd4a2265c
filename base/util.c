/* SPDX-License-Identifier: MIT */
/* The functions of base/util.h: error buffers, files, hashing, clocks, the state directory. */
#include "base/util.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int errbuf_set(struct errbuf *e, const char *fmt, ...)
{
	if (!e)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int errbuf_errno(struct errbuf *e, int errnum, const char *fmt, ...)
{
	if (!e)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(e->msg))
		snprintf(e->msg + n, sizeof(e->msg) - (size_t)n, ": %s", strerror(errnum));
	return -1;
}

int util_mkdir_p(const char *path)
{
	char buf[4096];
	size_t n = strlen(path);
	if (n == 0 || n >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0) {
		struct stat st;
		if (errno != EEXIST)
			return -1;
		if (stat(buf, &st) < 0)
			return -1;
		if (!S_ISDIR(st.st_mode)) { /* an existing file of that name is no directory */
			errno = ENOTDIR;
			return -1;
		}
	}
	return 0;
}

int util_read_file(const char *path, char **out, size_t *len, struct errbuf *err)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return errbuf_errno(err, errno, "cannot open '%s'", path);
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n - 1, f);
		if (n < cap - 1)
			break;
		char *bigger = realloc(buf, cap * 2);
		if (!bigger) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = bigger;
		cap *= 2;
	}
	int failed = ferror(f) || !buf;
	int saved = errno;
	fclose(f);
	if (failed) {
		free(buf);
		return errbuf_errno(err, saved ? saved : ENOMEM, "cannot read '%s'", path);
	}
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return 0;
}

void util_hex(char *out, const unsigned char *bytes, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[bytes[i] >> 4];
		out[2 * i + 1] = digits[bytes[i] & 15];
	}
	out[2 * n] = '\0';
}

void util_sha256_hex(char out[65], const void *data, size_t len)
{
	unsigned char md[32];
	unsigned int mdlen = 0;
	EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL);
	util_hex(out, md, 32);
}

int util_sha256_file(char out[65], const char *path, struct errbuf *err)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return errbuf_errno(err, errno, "cannot open '%s'", path);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned char buf[65536], md[32];
	unsigned int mdlen = 0;
	size_t n;
	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		EVP_DigestUpdate(ctx, buf, n);
	int failed = ferror(f);
	fclose(f);
	EVP_DigestFinal_ex(ctx, md, &mdlen);
	EVP_MD_CTX_free(ctx);
	if (failed)
		return errbuf_set(err, "cannot read '%s'", path);
	util_hex(out, md, 32);
	return 0;
}

const char *util_enum_name(const char *const *names, size_t n, int v, const char *fallback)
{
	return v >= 0 && (size_t)v < n && names[v] ? names[v] : fallback;
}

uint64_t util_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void util_utc_iso8601(char out[32])
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

double util_iso8601_seconds(const char *t)
{
	struct tm tm = {0};
	if (!t || !strptime(t, "%Y-%m-%dT%H:%M:%S", &tm))
		return NAN;
	return (double)timegm(&tm);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void util_sort_doubles(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_double);
}

double util_median_sorted(const double *v, size_t n)
{
	if (!n)
		return NAN;
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

char *util_state_dir(void)
{
	const char *env = getenv("DBT3STAB_HOME");
	const char *home = getenv("HOME");
	char *out = NULL;
	if (env && *env)
		return strdup(env);
	if (asprintf(&out, "%s/.dbt3stab", home && *home ? home : "/tmp") < 0)
		return NULL;
	return out;
}
