/* SPDX-License-Identifier: MIT */
/* Small utilities shared by every module: error buffers, files, SHA-256, clocks. */
#ifndef DBT3_UTIL_H
#define DBT3_UTIL_H
#include <stddef.h>
#include <stdint.h>

#define UTIL_PRINTF(n, m) __attribute__((format(printf, n, m)))

/* An error message owned by whoever holds the context; modules fill it, commands print it. */
struct errbuf {
	char msg[1024];
};

/* Sets the message; returns -1 so callers can "return errbuf_set(...)". */
int errbuf_set(struct errbuf *e, const char *fmt, ...) UTIL_PRINTF(2, 3);

/* Like errbuf_set, appending ": strerror(errnum)". */
int errbuf_errno(struct errbuf *e, int errnum, const char *fmt, ...) UTIL_PRINTF(3, 4);

/* mkdir -p with mode 0755; 0 on success, -1 with errno set (ENOTDIR when path is an existing
 * file that is not a directory). */
int util_mkdir_p(const char *path);

/* Writes len bytes to path atomically with mode 0644: util_write_file (base/safe_write.h), which
 * refuses a target that is not a regular file and writes a private temp file first. */
int util_write_atomic(const char *path, const void *data, size_t len, struct errbuf *err);

/* Reads a whole file into a NUL-terminated malloc'd buffer the caller frees. */
int util_read_file(const char *path, char **out, size_t *len, struct errbuf *err);

/* n bytes as 2n lowercase hex digits and a NUL into out (2n + 1 bytes). */
void util_hex(char *out, const unsigned char *bytes, size_t n);

/* SHA-256 of a buffer / file as 64 lowercase hex digits plus NUL in out[65]. */
void util_sha256_hex(char out[65], const void *data, size_t len);
int util_sha256_file(char out[65], const char *path, struct errbuf *err);

/* Monotonic clock in nanoseconds. */
uint64_t util_now_ns(void);

/* Current UTC time as ISO 8601 "YYYY-MM-DDThh:mm:ssZ" into out[32]. */
void util_utc_iso8601(char out[32]);

/* Seconds since the epoch of a UTC time written as util_utc_iso8601 writes it (whole seconds;
 * what follows them is ignored); NAN for NULL or text that is not such a time. */
double util_iso8601_seconds(const char *t);

/* An enum's name from its table: names[v] when v indexes one of the n names, else fallback. */
const char *util_enum_name(const char *const *names, size_t n, int v, const char *fallback);
#define UTIL_ENUM_NAME(names, v, fallback)                                                         \
	util_enum_name(names, sizeof(names) / sizeof((names)[0]), (int)(v), fallback)

/* Sorts the n values v ascending (no NaN among them). */
void util_sort_doubles(double *v, size_t n);

/* The median of the n values v sorted ascending (the mean of the middle two when n is even);
 * NaN when n is 0. */
double util_median_sorted(const double *v, size_t n);

/* Default state directory: $DBT3STAB_HOME, else $HOME/.dbt3stab; caller frees. */
char *util_state_dir(void);

#endif
