/* SPDX-License-Identifier: MIT */
/* Bounds on what the result reader loads (docs/result-format.md, "Bounds"): a regular file of at
 * most RES_MAX_FILE_BYTES, scanned for its token count, nesting and longest array before any JSON
 * tree is built, so a hostile file costs little memory. */
#include "result/res.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a plain file";
}

static int too_big(struct errbuf *err, const char *path)
{
	return errbuf_set(err, "'%s': larger than a result file may be (%u MiB)", path,
			  (unsigned)(RES_MAX_FILE_BYTES >> 20));
}

/* Reads the open regular file fd whole; it may have grown since fstat. */
static int read_all(int fd, const char *path, size_t hint, char **out, size_t *len,
		    struct errbuf *err)
{
	size_t cap = hint + 2, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		ssize_t r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int saved = errno;
			free(buf);
			return errbuf_errno(err, saved, "cannot read '%s'", path);
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > RES_MAX_FILE_BYTES) {
			free(buf);
			return too_big(err, path);
		}
		if (n == cap - 1) {
			char *bigger = realloc(buf, cap * 2);
			if (!bigger)
				free(buf);
			buf = bigger;
			cap *= 2;
		}
	}
	if (!buf)
		return errbuf_set(err, "cannot read '%s': out of memory", path);
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

int res_text_load(const char *path, char **out, size_t *len, struct errbuf *err)
{
	struct stat st;
	*out = NULL;
	*len = 0;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return errbuf_errno(err, errno, "cannot open '%s'", path);
	int rc;
	if (fstat(fd, &st) < 0)
		rc = errbuf_errno(err, errno, "cannot read '%s'", path);
	else if (!S_ISREG(st.st_mode))
		rc = errbuf_set(err, "'%s': not a result file (%s, not a regular file)", path,
				file_kind(st.st_mode));
	else if ((unsigned long long)st.st_size > RES_MAX_FILE_BYTES)
		rc = too_big(err, path);
	else
		rc = read_all(fd, path, (size_t)st.st_size, out, len, err);
	close(fd);
	return rc;
}

/* One pass over the text as a JSON tokenizer would see it: strings are skipped (with their
 * escapes), every key or value that starts is counted, and each array or object counts its
 * commas. Malformed text passes when it stays within the bounds: jansson judges it next. */
struct scan {
	size_t tokens;
	int depth;
	size_t commas[RES_MAX_DEPTH + 1];
	int expect; /* a key or value may start here */
};

static int scan_char(struct scan *s, char c, const char *name, struct errbuf *err)
{
	switch (c) {
	case ' ':
	case '\t':
	case '\n':
	case '\r':
		return 0;
	case '[':
	case '{':
		if (s->depth == RES_MAX_DEPTH)
			return errbuf_set(err, "'%s': nested deeper than %d levels", name,
					  RES_MAX_DEPTH);
		s->commas[++s->depth] = 0;
		break;
	case ']':
	case '}':
		if (s->depth > 0)
			s->depth--;
		s->expect = 0;
		return 0;
	case ',':
		if (s->depth > 0 && ++s->commas[s->depth] >= RES_MAX_ENTRIES)
			return errbuf_set(err,
					  "'%s': an array or object with more than %d entries",
					  name, RES_MAX_ENTRIES);
		s->expect = 1;
		return 0;
	case ':':
		s->expect = 1;
		return 0;
	default:
		break;
	}
	if (s->expect && ++s->tokens > RES_MAX_TOKENS)
		return errbuf_set(err, "'%s': more than %d JSON keys and values", name,
				  RES_MAX_TOKENS);
	s->expect = c == '[' || c == '{';
	return 0;
}

int res_text_check(const char *text, size_t len, const char *name, struct errbuf *err)
{
	struct scan s;
	s.tokens = 0;
	s.depth = 0;
	s.expect = 1;
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '"') { /* a string, counted as it starts */
			if (scan_char(&s, 'x', name, err) < 0)
				return -1;
			for (i++; i < len && text[i] != '"'; i++)
				if (text[i] == '\\')
					i++;
			continue;
		}
		if (scan_char(&s, text[i], name, err) < 0)
			return -1;
	}
	return 0;
}

size_t res_plan_tokens(long restarts, long n_queries, long warmup, long runs)
{
	/* Per restart of a query: its 13 members and their keys, the times (warm-up, measured,
	 * server CPU), the work counters (19 names and counts, and an array of runs counts for
	 * each of the few that vary: 3 allowed for), the instruction counts (2 names and a count
	 * per run each), the ANALYZE record (180: the largest of the 22 queries has 171); per file
	 * a margin for the sections (host, server, plan, pinning). */
	double per_restart = 264.0 + (double)warmup + 7.0 * (double)runs;
	double n = (double)restarts * (double)n_queries * per_restart + 20000.0;
	return n > 1e15 ? (size_t)1e15 : (size_t)n;
}
