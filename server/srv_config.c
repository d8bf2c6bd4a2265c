/* SPDX-License-Identifier: MIT */
/* The generated option file: documented template (docs/server.md), overlays, rendering. */
#include "server/srv.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB (UINT64_C(1) << 20)

static int version_at_least(const int v[3], int a, int b, int c)
{
	if (v[0] != a)
		return v[0] > a;
	if (v[1] != b)
		return v[1] > b;
	return v[2] >= c;
}

static int put(struct srv_kv **kv, size_t *n, const char *name, const char *value)
{
	return srv_kv_set(kv, n, name, value);
}

static int put_size(struct srv_kv **kv, size_t *n, const char *name, uint64_t bytes)
{
	char buf[32];
	if (bytes % MIB == 0)
		snprintf(buf, sizeof(buf), "%lluM", (unsigned long long)(bytes / MIB));
	else
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)bytes);
	return put(kv, n, name, buf);
}

/* Under Valgrind (run --instructions): no Linux native AIO, which Valgrind does not run for the
 * server; the pool's largest size bounded to the pool (MariaDB 10.11.12 and later reserve
 * address space for it, by default more than Valgrind can map; loose_: a server without the
 * option only warns); a crash is Valgrind's to report, not the server's stack-trace handler. */
static int put_valgrind(struct srv_kv **kv, size_t *n, uint64_t pool)
{
	char size[32];
	snprintf(size, sizeof(size), "%llu", (unsigned long long)pool);
	return put(kv, n, "innodb_use_native_aio", "0") |
	       put(kv, n, "loose_innodb_buffer_pool_size_max", size) |
	       put(kv, n, "skip_stack_trace", NULL);
}

int srv_config_build(struct srv_kv **out, size_t *n_out, const struct srv_opts *o,
		     const struct srv_template_in *in, const struct srv_kv *overlay,
		     size_t n_overlay, struct errbuf *err)
{
	struct srv_kv *kv = NULL;
	size_t n = 0;
	char path[4200], port[16];
	int rc = 0;
	const char *dir = in->instdir;
	struct srv_pool bp;
	srv_pool_plan(&bp, in->data_bytes, o->scale, in->ram_bytes, o->buffer_pool);
	uint64_t pool = bp.pool_bytes;
	/* Redo log about 25% of the pool (MySQL manual, "Optimizing InnoDB redo logging"). */
	uint64_t redo = pool / 4 / MIB * MIB;
	if (redo < 48 * MIB)
		redo = 48 * MIB;

	snprintf(path, sizeof(path), "%s/data", dir);
	rc |= put(&kv, &n, "datadir", path);
	snprintf(path, sizeof(path), "%s/mysqld.sock", dir);
	rc |= put(&kv, &n, "socket", path);
	snprintf(path, sizeof(path), "%s/mysqld.pid", dir);
	rc |= put(&kv, &n, "pid_file", path);
	snprintf(path, sizeof(path), "%s/error.log", dir);
	rc |= put(&kv, &n, "log_error", path);
	/* a private tmpdir: nothing else on the host can remove the server's temporary files */
	snprintf(path, sizeof(path), "%s/tmp", dir);
	rc |= put(&kv, &n, "tmpdir", path);
	/* who can reach it (docs/server.md): the socket in the 0700 instance directory; TCP on
	 * 127.0.0.1 only when asked for with --port; server-side files only in DIR/files */
	if (o->port) {
		snprintf(port, sizeof(port), "%ld", o->port);
		rc |= put(&kv, &n, "port", port);
		rc |= put(&kv, &n, "bind_address", "127.0.0.1");
	} else {
		rc |= put(&kv, &n, "skip_networking", NULL);
	}
	snprintf(path, sizeof(path), "%s/files", dir);
	rc |= put(&kv, &n, "secure_file_priv", path);
	rc |= put(&kv, &n, "skip_name_resolve", NULL);
	rc |= put(&kv, &n, "skip_log_bin", NULL);
	rc |= put(&kv, &n, "local_infile", "1");
	rc |= put(&kv, &n, "character_set_server", "utf8mb4");
	rc |= put(&kv, &n, "performance_schema", o->performance_schema ? "ON" : "OFF");
	rc |= put_size(&kv, &n, "innodb_buffer_pool_size", pool);
	if (in->flavour == SRV_FLAVOUR_MYSQL && version_at_least(in->version, 8, 0, 30))
		rc |= put_size(&kv, &n, "innodb_redo_log_capacity", redo);
	else
		rc |= put_size(&kv, &n, "innodb_log_file_size", redo);
	rc |= put(&kv, &n, "innodb_adaptive_hash_index", "ON");
	rc |= put(&kv, &n, "innodb_file_per_table", "ON");
	/* pinned, not left to the server: MariaDB 10.11 defaults to O_DIRECT, MySQL 8.0 to fsync */
	rc |= put(&kv, &n, "innodb_flush_method", "O_DIRECT");
	/* A restart must be cold: no buffer pool dump/reload across restarts. */
	rc |= put(&kv, &n, "innodb_buffer_pool_dump_at_shutdown", "OFF");
	rc |= put(&kv, &n, "innodb_buffer_pool_load_at_startup", "OFF");
	rc |= put(&kv, &n, "max_allowed_packet", "64M");
	if (in->flavour == SRV_FLAVOUR_MYSQL) {
		rc |= put(&kv, &n, "mysqlx", "OFF"); /* no second listener on 33060 */
	} else {
		rc |= put(&kv, &n, "query_cache_type", "0");
		rc |= put(&kv, &n, "query_cache_size", "0");
	}
	if (o->valgrind)
		rc |= put_valgrind(&kv, &n, pool);
	for (size_t i = 0; i < n_overlay; i++)
		rc |= put(&kv, &n, overlay[i].name, overlay[i].value);
	for (size_t i = 0; i < o->n_server_options; i++)
		rc |= put(&kv, &n, o->server_options[i].name, o->server_options[i].value);
	if (rc) {
		srv_kv_free(kv, n);
		return errbuf_set(err, "out of memory");
	}
	*out = kv;
	*n_out = n;
	return 0;
}

struct sbuf {
	char *p;
	size_t len, cap;
	int failed;
};

static void sb_add(struct sbuf *b, const char *s)
{
	size_t l = strlen(s);
	if (b->failed)
		return;
	if (b->len + l + 1 > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 1024) + l;
		char *p = realloc(b->p, cap);
		if (!p) {
			b->failed = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, l + 1);
	b->len += l;
}

/* Values with spaces, '#', quotes or a backslash are double-quoted with escapes (my.cnf rules). */
static void sb_add_value(struct sbuf *b, const char *v)
{
	if (!strpbrk(v, " \t#\"'\\") && *v) {
		sb_add(b, v);
		return;
	}
	sb_add(b, "\"");
	for (const char *c = v; *c; c++) {
		char one[3] = {*c, 0, 0};
		if (*c == '"' || *c == '\\') {
			one[0] = '\\';
			one[1] = *c;
		}
		sb_add(b, one);
	}
	sb_add(b, "\"");
}

static void sb_add_kv(struct sbuf *b, const struct srv_kv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		sb_add(b, kv[i].name);
		if (kv[i].value) {
			sb_add(b, " = ");
			sb_add_value(b, kv[i].value);
		}
		sb_add(b, "\n");
	}
}

char *srv_config_render(const struct srv_kv *kv, size_t n, const char *defaults_extra_file,
			const struct srv_kv *user_opts, size_t n_user)
{
	struct sbuf b = {0};
	sb_add(&b,
	       "# Generated by dbt3stab at every start; edits are overwritten.\n"
	       "# Template: docs/server.md. Later lines win; --server-option values come last.\n"
	       "[mysqld]\n");
	sb_add_kv(&b, kv, n);
	if (defaults_extra_file) {
		sb_add(&b, "\n# --defaults-extra-file\n!include ");
		sb_add(&b, defaults_extra_file);
		sb_add(&b, "\n");
		if (n_user) {
			sb_add(&b, "\n# --server-option (again, to win over the included "
				   "file)\n[mysqld]\n");
			sb_add_kv(&b, user_opts, n_user);
		}
	}
	if (b.failed) {
		free(b.p);
		return NULL;
	}
	return b.p;
}
