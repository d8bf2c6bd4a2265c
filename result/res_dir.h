/* SPDX-License-Identifier: MIT */
/* A directory of result files as `run --variant NAME:...` writes them (DIR/NAME.json, one per
 * variant of one interleaved run), read whole and put in the order the run started them. */
#ifndef DBT3_RES_DIR_H
#define DBT3_RES_DIR_H
#include "result/res.h"
#include <stddef.h>

struct res_dir {
	char **paths;		 /* "DIR/NAME.json" of each result, in run order (owned) */
	struct res_file **files; /* the results, read by res_file_read (owned) */
	size_t n;
	char **skipped; /* paths of *.json files that are not dbt3stab results (owned) */
	size_t n_skipped;
};

/* Reads every regular file DIR/ *.json (not recursive) that is a dbt3stab result; a JSON file
 * whose "format" member is not "dbt3stab-result" (e.g. a compare report) is listed in skipped.
 * Order: by the first server start of each file (its restart 0, member server_start: the
 * --variant order, or with --seed the first pair's), then by name. -1 with one line in err when
 * DIR cannot be read, holds no result file or more than max, or a result file is malformed (as
 * res_file_read says, naming it). Release with res_dir_release, also after a failure. */
int res_dir_read(struct res_dir *out, const char *dir, size_t max, struct errbuf *err);
void res_dir_release(struct res_dir *d);

/* 1 when path names a directory (links followed), else 0. */
int res_path_is_dir(const char *path);

#endif
