/* SPDX-License-Identifier: MIT */
/* What a file on disk is, by its "format" member: for the guards of -o (result/res.h). */
#include "result/res.h"
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
	enum res_kind kind;
	const char *format; /* quoted, as it appears in the JSON text */
	const char *name;
} kinds[] = {
    {RES_KIND_RESULT, "\"" RES_FORMAT "\"", "a result file"},
    {RES_KIND_STABILIZE, "\"" RES_FORMAT_STABILIZE "\"", "a stabilize analysis"},
    {RES_KIND_PROFILE, "\"" RES_FORMAT_PROFILE "\"", "a stabilize profile"},
};

#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))

const char *res_kind_name(enum res_kind k)
{
	for (size_t i = 0; i < N_KINDS; i++)
		if (kinds[i].kind == k)
			return kinds[i].name;
	return "";
}

/* The kind named by the JSON value at v, or RES_KIND_NONE. */
static enum res_kind kind_of_value(const char *v)
{
	for (size_t i = 0; i < N_KINDS; i++)
		if (strncmp(v, kinds[i].format, strlen(kinds[i].format)) == 0)
			return kinds[i].kind;
	return RES_KIND_NONE;
}

enum res_kind res_file_kind(const char *path)
{
	char buf[4097];
	const char *p = buf;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return RES_KIND_NONE;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return RES_KIND_NONE;
	}
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return RES_KIND_NONE;
	buf[n] = '\0';
	/* the first "format" member naming a known format: the top-level one (a profile's
	 * nested analysis comes after its own) */
	while ((p = strstr(p, "\"format\"")) != NULL) {
		p += strlen("\"format\"");
		const char *v = p + strspn(p, " \t\r\n");
		if (*v != ':')
			continue;
		v += 1 + strspn(v + 1, " \t\r\n");
		enum res_kind k = kind_of_value(v);
		if (k != RES_KIND_NONE)
			return k;
	}
	return RES_KIND_NONE;
}
