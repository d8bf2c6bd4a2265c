/* SPDX-License-Identifier: MIT */
/* The report file of -o: checked before anything is computed. */
#include "reports/rpt.h"
#include "result/res.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	enum res_kind kind = res_file_kind(path);
	if (kind != RES_KIND_NONE)
		return errbuf_set(err,
				  "cannot write '%s': it is %s and would be replaced (give another "
				  "-o)",
				  path, res_kind_name(kind));
	int existed = access(tmp, F_OK) == 0;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return errbuf_errno(err, errno, "cannot create '%s'", path);
	close(fd);
	if (!existed)
		unlink(tmp);
	return 0;
}
