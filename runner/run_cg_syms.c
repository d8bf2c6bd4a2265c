/* SPDX-License-Identifier: MIT */
/* A server binary's symbol list (run_callgrind.h, run_cg_syms_*): Debian's mariadbd.sym.gz read
 * with zlib, names demangled by the C++ runtime's __cxa_demangle (the demangler callgrind's own
 * names come from). */
#include "runner/run_callgrind.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* libstdc++'s demangler (the Itanium C++ ABI's abi::__cxa_demangle), called from C. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

struct cg_sym {
	unsigned long long addr;
	char *name; /* demangled when it is a C++ name */
};

struct run_cg_syms {
	struct cg_sym *s;
	size_t n;
};

#define SYMS_MAX ((size_t)64 << 20) /* bytes of an unpacked symbol list at most */

static int by_addr(const void *a, const void *b)
{
	const struct cg_sym *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* One line "ADDRESS TYPE NAME": 1 with the symbol when it is a function's, 0 to skip. */
static int sym_line(const char *p, const char *end, struct cg_sym *out)
{
	char *e;
	errno = 0;
	unsigned long long a = strtoull(p, &e, 16);
	if (e == p || errno || e + 3 > end || *e != ' ' || e[2] != ' ')
		return 0;
	if (!strchr("tTwWi", e[1]))
		return 0;
	const char *name = e + 3;
	size_t len = (size_t)(end - name);
	while (len && (name[len - 1] == '\r' || name[len - 1] == ' '))
		len--;
	if (!len)
		return 0;
	char *raw = malloc(len + 1);
	if (!raw)
		return -1;
	memcpy(raw, name, len);
	raw[len] = '\0';
	int st = -1;
	char *dm = strncmp(raw, "_Z", 2) == 0 ? __cxa_demangle(raw, NULL, NULL, &st) : NULL;
	if (dm && st == 0) {
		free(raw);
		raw = dm;
	} else {
		free(dm);
	}
	out->addr = a;
	out->name = raw;
	return 1;
}

int run_cg_syms_parse(struct run_cg_syms **out, const char *text, size_t len, struct errbuf *err)
{
	struct run_cg_syms *sy = calloc(1, sizeof(*sy));
	size_t cap = 0;
	*out = NULL;
	if (!sy)
		return errbuf_set(err, "out of memory");
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		struct cg_sym one;
		if (sy->n == cap) {
			size_t nc = cap ? cap * 2 : 4096;
			struct cg_sym *ns = realloc(sy->s, nc * sizeof(*ns));
			if (!ns)
				goto oom;
			sy->s = ns;
			cap = nc;
		}
		int r = sym_line(p, le, &one);
		if (r < 0)
			goto oom;
		if (r > 0)
			sy->s[sy->n++] = one;
		p = nl ? nl + 1 : end;
	}
	qsort(sy->s, sy->n, sizeof(*sy->s), by_addr);
	*out = sy;
	return 0;
oom:
	run_cg_syms_free(sy);
	return errbuf_set(err, "out of memory");
}

const char *run_cg_syms_at(const struct run_cg_syms *sy, unsigned long long addr)
{
	size_t lo = 0, hi = sy ? sy->n : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sy->s[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < (sy ? sy->n : 0) && sy->s[lo].addr == addr ? sy->s[lo].name : NULL;
}

void run_cg_syms_free(struct run_cg_syms *sy)
{
	if (!sy)
		return;
	for (size_t i = 0; i < sy->n; i++)
		free(sy->s[i].name);
	free(sy->s);
	free(sy);
}

/* PREFIX/share/doc/mariadb-server/NAME.sym.gz for PREFIX/sbin/NAME or PREFIX/bin/NAME. */
static int syms_path(char *out, size_t len, const char *binary)
{
	char real[PATH_MAX];
	if (!realpath(binary, real))
		return -1;
	char *name = strrchr(real, '/');
	if (!name || name == real)
		return -1;
	*name++ = '\0';
	char *dir = strrchr(real, '/');
	if (!dir || (strcmp(dir, "/sbin") != 0 && strcmp(dir, "/bin") != 0))
		return -1;
	*dir = '\0';
	int n = snprintf(out, len, "%s/share/doc/mariadb-server/%s.sym.gz", real, name);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int run_cg_syms_load(struct run_cg_syms **out, const char *binary, struct errbuf *err)
{
	char path[PATH_MAX + 64];
	*out = NULL;
	if (syms_path(path, sizeof(path), binary) < 0)
		return 0;
	gzFile gz = gzopen(path, "rb");
	if (!gz)
		return errno == ENOENT ? 0 : errbuf_errno(err, errno, "cannot open '%s'", path);
	size_t cap = (size_t)1 << 20, n = 0;
	char *buf = malloc(cap);
	int r = 0;
	while (buf && (r = gzread(gz, buf + n, (unsigned)(cap - n))) > 0) {
		n += (size_t)r;
		if (n == cap) {
			char *nb = cap < SYMS_MAX ? realloc(buf, cap * 2) : NULL;
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	gzclose(gz);
	if (!buf || r < 0) {
		int big = !buf;
		free(buf);
		return errbuf_set(err, "cannot read '%s'%s", path, big ? ": too large" : "");
	}
	int rc = run_cg_syms_parse(out, buf, n, err);
	free(buf);
	return rc;
}
