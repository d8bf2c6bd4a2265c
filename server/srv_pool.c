/* SPDX-License-Identifier: MIT */
/* The buffer pool sized from the loaded data (docs/server.md, "The buffer pool"). */
#include "server/srv.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define MIB (UINT64_C(1) << 20)
#define GIB (UINT64_C(1) << 30)
#define POOL_UNIT (128 * MIB) /* InnoDB's default buffer pool chunk */

static uint64_t round_up(uint64_t x, uint64_t unit)
{
	return (x + unit - 1) / unit * unit;
}

/* The most of ram_bytes the pool may take, in whole chunks: a share of RAM that leaves
 * SRV_POOL_RAM_KEEP, never less than the floor share (nor than one chunk); 0 when RAM is
 * unknown. On 24 GiB: min(18, 20) = 18 GiB; on 8 GiB: max(4, min(6, 4)) = 4 GiB. */
static uint64_t pool_cap(uint64_t ram_bytes)
{
	if (!ram_bytes)
		return 0;
	double ram = (double)ram_bytes, keep = (double)SRV_POOL_RAM_KEEP;
	double cap = ram * SRV_POOL_RAM_SHARE;
	if (ram - keep < cap)
		cap = ram - keep;
	if (cap < ram * SRV_POOL_RAM_FLOOR_SHARE)
		cap = ram * SRV_POOL_RAM_FLOOR_SHARE;
	uint64_t bytes = (uint64_t)cap / POOL_UNIT * POOL_UNIT;
	return bytes < POOL_UNIT ? POOL_UNIT : bytes;
}

void srv_pool_plan(struct srv_pool *out, uint64_t data_bytes, double scale, uint64_t ram_bytes,
		   uint64_t option_bytes)
{
	memset(out, 0, sizeof(*out));
	out->data_measured = data_bytes > 0;
	if (!data_bytes) {
		if (!(scale > 0))
			scale = 1;
		double est = scale * SRV_DATA_BYTES_PER_SF;
		data_bytes = est > 1e18 ? UINT64_C(1) << 60 : (uint64_t)est;
	}
	out->data_bytes = data_bytes;
	uint64_t need = data_bytes > (UINT64_MAX / 8) ? UINT64_MAX / 8 : data_bytes;
	need = need + need / 4 + SRV_POOL_MARGIN;
	out->need_bytes = round_up(need, POOL_UNIT);
	out->ram_bytes = ram_bytes;
	out->cap_bytes = pool_cap(ram_bytes);
	uint64_t pool = out->need_bytes;
	if (out->cap_bytes && pool > out->cap_bytes)
		pool = out->cap_bytes;
	if (pool < POOL_UNIT)
		pool = POOL_UNIT;
	out->from_option = option_bytes > 0;
	out->pool_bytes = option_bytes ? option_bytes : pool;
	out->fits = out->pool_bytes >= out->need_bytes;
}

static int skip_schema(const char *name)
{
	static const char *const system[] = {"mysql", "performance_schema", "sys", "#innodb_temp",
					     "#innodb_redo"};
	if (name[0] == '.')
		return 1;
	for (size_t i = 0; i < sizeof(system) / sizeof(system[0]); i++)
		if (strcmp(name, system[i]) == 0)
			return 1;
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Sums the .ibd files of one schema directory. */
static int schema_bytes(const char *dir, uint64_t *sum, struct errbuf *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4400];
	struct stat st;
	if (!d)
		return errbuf_errno(err, errno, "cannot open '%s'", dir);
	while ((e = readdir(d))) {
		if (!ends_with(e->d_name, ".ibd"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			*sum += (uint64_t)st.st_size;
	}
	closedir(d);
	return 0;
}

int srv_data_bytes(uint64_t *out, const char *datadir, struct errbuf *err)
{
	DIR *d = opendir(datadir);
	struct dirent *e;
	char path[4200];
	struct stat st;
	int rc = 0;
	*out = 0;
	if (!d)
		return errbuf_errno(err, errno, "cannot open '%s'", datadir);
	while (rc == 0 && (e = readdir(d))) {
		if (skip_schema(e->d_name))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", datadir, e->d_name) >= (int)sizeof(path))
			continue;
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			rc = schema_bytes(path, out, err);
	}
	closedir(d);
	return rc;
}

json_t *srv_pool_json(const struct srv_pool *p)
{
	json_t *j = json_object();
	if (!j)
		return NULL;
	json_object_set_new(j, "rule", json_string(SRV_POOL_RULE));
	json_object_set_new(j, "data_bytes", json_integer((json_int_t)p->data_bytes));
	json_object_set_new(j, "data_source",
			    json_string(p->data_measured ? "tablespace_files" : "scale_estimate"));
	json_object_set_new(j, "need_bytes", json_integer((json_int_t)p->need_bytes));
	json_object_set_new(j, "cap_bytes", json_integer((json_int_t)p->cap_bytes));
	json_object_set_new(j, "ram_bytes", json_integer((json_int_t)p->ram_bytes));
	json_object_set_new(j, "pool_bytes", json_integer((json_int_t)p->pool_bytes));
	json_object_set_new(j, "pool_source", json_string(p->from_option ? "option" : "rule"));
	json_object_set_new(j, "fits", json_boolean(p->fits));
	return j;
}
