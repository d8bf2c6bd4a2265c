/* SPDX-License-Identifier: MIT */
/* A directory of variant result files (DIR/NAME.json), read in the order the run started them. */
#include "result/res_dir.h"
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int res_path_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void res_dir_release(struct res_dir *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->paths[i]);
		res_file_free(d->files[i]);
	}
	for (size_t i = 0; i < d->n_skipped; i++)
		free(d->skipped[i]);
	free(d->paths);
	free(d->files);
	free(d->skipped);
	memset(d, 0, sizeof(*d));
}

static int name_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The regular files DIR/ *.json, sorted by name, into *out (n_out of them; malloc'd). */
static int list_json(char ***out, size_t *n_out, const char *dir, struct errbuf *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;
	*out = NULL;
	*n_out = 0;
	if (!d)
		return errbuf_errno(err, errno, "cannot open directory '%s'", dir);
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		char *path = NULL, **grown;
		if (e->d_name[0] == '.' || len <= 5 || strcmp(e->d_name + len - 5, ".json") != 0)
			continue;
		if (asprintf(&path, "%s/%s", dir, e->d_name) < 0 ||
		    !(grown = realloc(names, (n + 1) * sizeof(*names)))) {
			free(path);
			for (size_t i = 0; i < n; i++)
				free(names[i]);
			free(names);
			closedir(d);
			return errbuf_set(err, "out of memory");
		}
		names = grown;
		names[n++] = path;
	}
	closedir(d);
	if (n > 1) /* qsort's base may not be NULL */
		qsort(names, n, sizeof(*names), name_cmp);
	*out = names;
	*n_out = n;
	return 0;
}

/* 1 when the text of path is JSON whose "format" member says it is a result file (so a failure to
 * read it is the file's fault), 0 when it is some other file. */
static int claims_result(const char *path)
{
	char *text = NULL;
	size_t len = 0;
	struct errbuf e;
	if (res_text_load(path, &text, &len, &e) < 0)
		return 1; /* unreadable: res_file_read's message says why */
	json_t *root = json_loadb(text, len, 0, NULL);
	json_t *fmt = json_is_object(root) ? json_object_get(root, "format") : NULL;
	int claims = json_is_string(fmt) && strcmp(json_string_value(fmt), RES_FORMAT) == 0;
	json_decref(root);
	free(text);
	return claims;
}

/* The server start of the file's restart 0 (the earliest over its queries), SIZE_MAX when it
 * records none. */
static size_t first_start(const struct res_file *r)
{
	size_t best = SIZE_MAX;
	for (size_t q = 0; q < r->n_queries; q++)
		for (size_t i = 0; i < r->queries[q].n_restarts; i++) {
			const struct res_restart *x = &r->queries[q].restarts[i];
			json_t *v = x->extra ? json_object_get(x->extra, "server_start") : NULL;
			if (x->index == 0 && json_is_integer(v) && json_integer_value(v) >= 0 &&
			    (size_t)json_integer_value(v) < best)
				best = (size_t)json_integer_value(v);
		}
	return best;
}

/* Insertion sort of the results by first server start (stable: name order among equals). */
static void order_by_start(struct res_dir *d)
{
	for (size_t i = 1; i < d->n; i++) {
		struct res_file *f = d->files[i];
		char *p = d->paths[i];
		size_t key = first_start(f), j = i;
		for (; j > 0 && first_start(d->files[j - 1]) > key; j--) {
			d->files[j] = d->files[j - 1];
			d->paths[j] = d->paths[j - 1];
		}
		d->files[j] = f;
		d->paths[j] = p;
	}
}

int res_dir_read(struct res_dir *out, const char *dir, size_t max, struct errbuf *err)
{
	char **names = NULL;
	size_t n = 0, i = 0;
	memset(out, 0, sizeof(*out));
	if (list_json(&names, &n, dir, err) < 0)
		return -1;
	out->paths = calloc(n + 1, sizeof(*out->paths));
	out->files = calloc(n + 1, sizeof(*out->files));
	out->skipped = calloc(n + 1, sizeof(*out->skipped));
	if (!out->paths || !out->files || !out->skipped) {
		errbuf_set(err, "out of memory");
		goto fail;
	}
	for (; i < n; i++) {
		struct res_file *r = NULL;
		if (res_file_read(&r, names[i], err) == 0) {
			out->files[out->n] = r;
			out->paths[out->n++] = names[i];
		} else if (!claims_result(names[i])) {
			out->skipped[out->n_skipped++] = names[i];
		} else {
			goto fail; /* err names the file and what is wrong */
		}
	}
	free(names);
	names = NULL;
	if (out->n == 0)
		return errbuf_set(err, "no result files (*.json) in '%s'", dir);
	if (out->n > max)
		return errbuf_set(err, "'%s' holds %zu result files, at most %zu", dir, out->n,
				  max);
	order_by_start(out);
	return 0;
fail:
	for (; names && i < n; i++)
		free(names[i]);
	free(names);
	return -1;
}
