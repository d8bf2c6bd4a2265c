/* SPDX-License-Identifier: MIT */
/* The report file of -o: checked before anything is computed. */
#include "reports/rpt.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* 1 when the regular file at path holds a dbt3stab result: a "format": "dbt3stab-result" member
 * within its first 4 KiB (the writer puts it first). Bounded, so a huge file costs one read. */
static int is_result_file(const char *path, const struct stat *st)
{
	char buf[4097];
	const char *p = buf;
	if (!S_ISREG(st->st_mode))
		return 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	while ((p = strstr(p, "\"format\"")) != NULL) {
		p += strlen("\"format\"");
		const char *v = p + strspn(p, " \t\r\n");
		if (*v != ':')
			continue;
		v += 1 + strspn(v + 1, " \t\r\n");
		if (strncmp(v, "\"dbt3stab-result\"", strlen("\"dbt3stab-result\"")) == 0)
			return 1;
	}
	return 0;
}

/* Creates and removes the temporary file util_write_atomic writes (path + ".tmp") and checks
 * that path is not a directory: what the final rename needs, short of writing. */
int rpt_output_check(const char *path, struct errbuf *err)
{
	char tmp[4200];
	struct stat st;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return errbuf_set(err, "cannot create '%s': path too long", path);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return errbuf_set(err, "cannot create '%s': Is a directory", path);
	if (stat(path, &st) == 0 && is_result_file(path, &st))
		return errbuf_set(err,
				  "cannot write '%s': it is a result file and would be replaced "
				  "(give another -o)",
				  path);
	int existed = access(tmp, F_OK) == 0;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return errbuf_errno(err, errno, "cannot create '%s'", path);
	close(fd);
	if (!existed)
		unlink(tmp);
	return 0;
}
