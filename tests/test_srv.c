/* SPDX-License-Identifier: MIT */
/* Unit tests of server/srv*.c: option parsing, sizes, the config template, argument errors. */
#include "server/srv.h"
#include "tests/harness.h"
#include "tests/th_spawn.h"
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MIB (UINT64_C(1) << 20)
#define GIB (UINT64_C(1) << 30)

static const char *kv_get(const struct srv_kv *kv, size_t n, const char *name, int *found)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(kv[i].name, name) == 0) {
			*found = 1;
			return kv[i].value;
		}
	*found = 0;
	return NULL;
}

static int parse(struct srv_opts *o, int code, const char *arg)
{
	struct errbuf err;
	err.msg[0] = '\0';
	int rc = srv_opts_parse(o, code, arg, &err);
	if (rc < 0) {
		CU_ASSERT(strlen(err.msg) > 0);
	}
	return rc;
}

TH_TEST(srv, opts_parse_accepts_and_rejects)
{
	static const struct {
		int code;
		const char *arg;
		int want;
	} cases[] = {
	    {SRV_OPT_PORT, "3307", 1},
	    {SRV_OPT_PORT, "0", -1},
	    {SRV_OPT_PORT, "65536", -1},
	    {SRV_OPT_PORT, "33o6", -1},
	    {SRV_OPT_DATADIR, "", -1},
	    {SRV_OPT_DATADIR, "/tmp/x", 1},
	    {SRV_OPT_START_TIMEOUT, "30", 1},
	    {SRV_OPT_START_TIMEOUT, "0", -1},
	    {SRV_OPT_START_TIMEOUT, "ten", -1},
	    {SRV_OPT_STOP_TIMEOUT, "2.5", 1},
	    {SRV_OPT_BUFFER_POOL, "512M", 1},
	    {SRV_OPT_BUFFER_POOL, "4k", -1},
	    {SRV_OPT_BUFFER_POOL, "lots", -1},
	    {SRV_OPT_SERVER_OPTION, "innodb_io_capacity=2000", 1},
	    {SRV_OPT_SERVER_OPTION, "skip-name-resolve", 1},
	    {SRV_OPT_SERVER_OPTION, "--innodb-flush-method=fsync", 1},
	    {SRV_OPT_SERVER_OPTION, "=1", -1},
	    {SRV_OPT_SERVER_OPTION, "bad name=1", -1},
	    {SRV_OPT_SERVER_OPTION, "x=a\nport=1", -1},
	    {SRV_OPT_PERFORMANCE_SCHEMA, NULL, 1},
	    {'q', NULL, 0},
	    {1, "x", 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct srv_opts o;
		srv_opts_init(&o);
		int rc = parse(&o, cases[i].code, cases[i].arg);
		if (rc != cases[i].want)
			fprintf(stderr, "case %zu (%d '%s'): got %d, want %d\n", i, cases[i].code,
				cases[i].arg ? cases[i].arg : "", rc, cases[i].want);
		CU_ASSERT_EQUAL(rc, cases[i].want);
		srv_opts_release(&o);
	}
}

TH_TEST(srv, opts_values_land_in_fields)
{
	struct srv_opts o;
	srv_opts_init(&o);
	CU_ASSERT_EQUAL(o.start_timeout, 120);
	CU_ASSERT_EQUAL(o.scale, 1);
	CU_ASSERT_EQUAL(parse(&o, SRV_OPT_PORT, "3307"), 1);
	CU_ASSERT_EQUAL(o.port, 3307);
	CU_ASSERT_EQUAL(parse(&o, SRV_OPT_BUFFER_POOL, "2G"), 1);
	CU_ASSERT_EQUAL(o.buffer_pool, 2 * GIB);
	CU_ASSERT_EQUAL(parse(&o, SRV_OPT_SERVER_OPTION, "innodb-io-capacity=100"), 1);
	CU_ASSERT_EQUAL(parse(&o, SRV_OPT_SERVER_OPTION, "skip-name-resolve"), 1);
	/* the same option spelt with '_' replaces the first value in place */
	CU_ASSERT_EQUAL(parse(&o, SRV_OPT_SERVER_OPTION, "innodb_io_capacity=200"), 1);
	CU_ASSERT_EQUAL(o.n_server_options, 2);
	CU_ASSERT_STRING_EQUAL(o.server_options[0].name, "innodb-io-capacity");
	CU_ASSERT_STRING_EQUAL(o.server_options[0].value, "200");
	CU_ASSERT_PTR_NULL(o.server_options[1].value);
	CU_ASSERT_EQUAL(parse(&o, SRV_OPT_SERVER_OPTION, "--log-warnings=2"), 1);
	CU_ASSERT_STRING_EQUAL(o.server_options[2].name, "log-warnings");
	srv_opts_release(&o);
}

TH_TEST(srv, opts_finish_managed_and_external)
{
	struct srv_opts o;
	struct errbuf err;
	char *home = th_tempdir("srvhome");
	setenv("DBT3STAB_HOME", home, 1);

	srv_opts_init(&o);
	CU_ASSERT_EQUAL(srv_opts_finish(&o, &err), 0);
	CU_ASSERT_FALSE(o.external);
	char want[4200];
	snprintf(want, sizeof(want), "%s/server", home);
	CU_ASSERT_STRING_EQUAL(o.datadir, want);
	srv_opts_release(&o);

	srv_opts_init(&o);
	parse(&o, SRV_OPT_DATADIR, "/tmp/inst///");
	CU_ASSERT_EQUAL(srv_opts_finish(&o, &err), 0);
	CU_ASSERT_STRING_EQUAL(o.datadir, "/tmp/inst");
	srv_opts_release(&o);

	srv_opts_init(&o);
	parse(&o, SRV_OPT_HOST, "db.example");
	parse(&o, SRV_OPT_PORT, "3306");
	CU_ASSERT_EQUAL(srv_opts_finish(&o, &err), 0);
	CU_ASSERT_TRUE(o.external);
	CU_ASSERT_PTR_NULL(o.datadir);
	srv_opts_release(&o);

	srv_opts_init(&o);
	parse(&o, SRV_OPT_SOCKET, "/run/mysqld/mysqld.sock");
	parse(&o, SRV_OPT_DATADIR, "/tmp/inst");
	CU_ASSERT_EQUAL(srv_opts_finish(&o, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "--datadir"));
	srv_opts_release(&o);

	srv_opts_init(&o);
	parse(&o, SRV_OPT_USER, "bench");
	parse(&o, SRV_OPT_SERVER_OPTION, "innodb_io_capacity=1");
	CU_ASSERT_EQUAL(srv_opts_finish(&o, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "--server-option"));
	srv_opts_release(&o);

	unsetenv("DBT3STAB_HOME");
	th_rmtree(home);
	free(home);
}

TH_TEST(srv, parse_size_suffixes)
{
	static const struct {
		const char *s;
		int rc;
		uint64_t want;
	} cases[] = {
	    {"1048576", 0, MIB},
	    {"512M", 0, 512 * MIB},
	    {"512m", 0, 512 * MIB},
	    {"2G", 0, 2 * GIB},
	    {"2GB", 0, 2 * GIB},
	    {"2GiB", 0, 2 * GIB},
	    {"1T", 0, 1024 * GIB},
	    {"64K", 0, 64 * 1024},
	    {"", -1, 0},
	    {"-1G", -1, 0},
	    {"1.5G", -1, 0},
	    {"1X", -1, 0},
	    {"G", -1, 0},
	    {"99999999999999999999T", -1, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 0;
		int rc = srv_parse_size(cases[i].s, &v);
		CU_ASSERT_EQUAL(rc, cases[i].rc);
		if (rc == 0) {
			CU_ASSERT_EQUAL(v, cases[i].want);
		}
	}
}

/* The rule by hand (docs/server.md): need = data + data/4 + 128 MiB, rounded up to 128 MiB;
 * pool = need, at most the cap max(RAM/2, min(RAM x 3/4, RAM - 4 GiB)) in 128 MiB chunks (at
 * least 128 MiB); estimate 2.6 GiB per SF without data. */
TH_TEST(srv, pool_from_data_and_caps)
{
	static const struct {
		uint64_t data;
		double sf;
		uint64_t ram, option, need, pool;
		int fits, measured;
	} cases[] = {
	    /* SF 0.1 measured here: 256 MiB of .ibd -> 320 + 128 = 448 -> 512 MiB */
	    {256 * MIB, 0.1, 24 * GIB, 0, 512 * MIB, 512 * MIB, 1, 1},
	    /* 1024 + 256 + 128 = 1408 MiB, a multiple of 128 already */
	    {1 * GIB, 1, 24 * GIB, 0, 1408 * MIB, 1408 * MIB, 1, 1},
	    /* not loaded, SF 1: 2.6 GiB -> 2662.4 + 665.6 + 128 = 3456 MiB */
	    {0, 1, 64 * GIB, 0, 3456 * MIB, 3456 * MIB, 1, 0},
	    /* SF 0.01 estimated: 26.6 + 6.7 + 128 MiB -> 256 MiB */
	    {0, 0.01, 64 * GIB, 0, 256 * MIB, 256 * MIB, 1, 0},
	    /* SF 10 on 24 GiB: 26 GiB of data needs 33408 MiB; the cap is min(18, 24 - 4) */
	    {0, 10, 24 * GIB, 0, 33408 * MIB, 18 * GIB, 0, 0},
	    /* SF 10 measured here: 21820063744 bytes = 20809.2 MiB; x 1.25 + 128 = 26139.5 MiB,
	     * rounded up to 26240; on 64 GiB the cap is min(48, 60) GiB: it fits */
	    {21820063744ULL, 10, 64 * GIB, 0, 26240 * MIB, 26240 * MIB, 1, 1},
	    /* 8 GiB of RAM: 3/4 would leave 2 GiB, so RAM - 4 GiB = 4 GiB, which is half */
	    {4 * GIB, 1, 8 * GIB, 0, 5248 * MIB, 4 * GIB, 0, 1},
	    /* 6 GiB of RAM: RAM - 4 GiB = 2 GiB is under half, so half: 3 GiB */
	    {4 * GIB, 1, 6 * GIB, 0, 5248 * MIB, 3 * GIB, 0, 1},
	    /* 14 GiB of RAM: min(10.5, 10) = 10 GiB */
	    {12 * GIB, 1, 14 * GIB, 0, 15488 * MIB, 10 * GIB, 0, 1},
	    /* --buffer-pool 1G wins, and is too small for 1 GiB of data */
	    {1 * GIB, 1, 24 * GIB, 1 * GIB, 1408 * MIB, 1 * GIB, 0, 1},
	    /* 100 MiB of RAM: the pool is the 128 MiB minimum */
	    {1 * GIB, 1, 100 * MIB, 0, 1408 * MIB, 128 * MIB, 0, 1},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct srv_pool p;
		srv_pool_plan(&p, cases[i].data, cases[i].sf, cases[i].ram, cases[i].option);
		CU_ASSERT_EQUAL(p.need_bytes, cases[i].need);
		CU_ASSERT_EQUAL(p.pool_bytes, cases[i].pool);
		CU_ASSERT_EQUAL(p.fits, cases[i].fits);
		CU_ASSERT_EQUAL(p.data_measured, cases[i].measured);
		CU_ASSERT_EQUAL(p.from_option, cases[i].option > 0);
	}
}

static void put_file(const char *dir, const char *name, size_t bytes)
{
	char path[4400];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (size_t i = 0; i < bytes; i++)
		fputc('x', f);
	fclose(f);
}

/* Only the .ibd files of user schemas count: not mysql/sys/performance_schema, not .frm. */
TH_TEST(srv, data_bytes_sums_user_tablespaces)
{
	char *dir = th_tempdir("pool");
	char sub[4096];
	struct errbuf err;
	uint64_t got = 1;
	static const char *const dirs[] = {"dbt3", "other", "mysql", "sys", "performance_schema"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, dirs[i]);
		CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0700), 0);
		put_file(sub, "t.ibd", 100); /* counted in dbt3 and other only */
	}
	snprintf(sub, sizeof(sub), "%s/dbt3", dir);
	put_file(sub, "lineitem.ibd", 1000);
	put_file(sub, "lineitem.frm", 500);
	put_file(dir, "ibdata1", 4000);
	CU_ASSERT_EQUAL(srv_data_bytes(&got, dir, &err), 0);
	CU_ASSERT_EQUAL(got, 1200);
	snprintf(sub, sizeof(sub), "%s/absent", dir);
	CU_ASSERT_EQUAL(srv_data_bytes(&got, sub, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "cannot open"));
	th_rmtree(dir);
	free(dir);
}

static struct srv_template_in mariadb_in(void)
{
	struct srv_template_in in = {
	    .flavour = SRV_FLAVOUR_MARIADB,
	    .version = {10, 11, 6},
	    .ram_bytes = 64 * GIB,
	    .instdir = "/srv/dbt3",
	};
	return in;
}

/* The configuration srv_config_build makes (a failure is fatal), for the checks. */
struct cfg {
	struct srv_kv *kv;
	size_t n;
};

static void cfg_build(struct cfg *c, const struct srv_opts *o, const struct srv_template_in *in,
		      const struct srv_kv *overlay, size_t n_overlay)
{
	struct errbuf err;
	*c = (struct cfg){NULL, 0};
	CU_ASSERT_EQUAL_FATAL(srv_config_build(&c->kv, &c->n, o, in, overlay, n_overlay, &err), 0);
}

/* The value of name (NULL when it has none or is absent). */
static const char *cfg_get(const struct cfg *c, const char *name)
{
	int found;
	return kv_get(c->kv, c->n, name, &found);
}

static int cfg_has(const struct cfg *c, const char *name)
{
	int found;
	kv_get(c->kv, c->n, name, &found);
	return found;
}

static void cfg_free(struct cfg *c)
{
	srv_kv_free(c->kv, c->n);
}

TH_TEST(srv, template_mariadb_defaults)
{
	struct srv_opts o;
	struct cfg c;
	srv_opts_init(&o);
	o.port = 4406;
	struct srv_template_in in = mariadb_in();
	cfg_build(&c, &o, &in, NULL, 0);
	static const struct {
		const char *name, *value;
	} want[] = {
	    {"datadir", "/srv/dbt3/data"},
	    {"socket", "/srv/dbt3/mysqld.sock"},
	    {"pid_file", "/srv/dbt3/mysqld.pid"},
	    {"log_error", "/srv/dbt3/error.log"},
	    {"port", "4406"},
	    {"bind_address", "127.0.0.1"},
	    {"secure_file_priv", "/srv/dbt3/files"},
	    {"local_infile", "1"},
	    {"performance_schema", "OFF"},
	    {"innodb_buffer_pool_size", "3456M"},
	    {"innodb_log_file_size", "864M"},
	    {"innodb_flush_method", "O_DIRECT"},
	    {"innodb_adaptive_hash_index", "ON"},
	    {"innodb_buffer_pool_load_at_startup", "OFF"},
	    {"innodb_buffer_pool_dump_at_shutdown", "OFF"},
	    {"query_cache_type", "0"},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *v = cfg_get(&c, want[i].name);
		CU_ASSERT_TRUE(cfg_has(&c, want[i].name));
		if (v) {
			CU_ASSERT_STRING_EQUAL(v, want[i].value);
		} else {
			fprintf(stderr, "missing %s\n", want[i].name);
		}
	}
	CU_ASSERT_TRUE(cfg_has(&c, "skip_log_bin"));
	/* --port asks for TCP; the server never gets user= (dbt3stab drops to 'mysql' itself) */
	CU_ASSERT_FALSE(cfg_has(&c, "skip_networking"));
	CU_ASSERT_FALSE(cfg_has(&c, "user"));
	CU_ASSERT_FALSE(cfg_has(&c, "mysqlx"));
	CU_ASSERT_FALSE(cfg_has(&c, "innodb_redo_log_capacity"));
	cfg_free(&c);

	/* no --port: socket only (issue 12: no TCP listener unless asked); --performance-schema */
	o.port = 0;
	o.performance_schema = 1;
	cfg_build(&c, &o, &in, NULL, 0);
	CU_ASSERT_STRING_EQUAL(cfg_get(&c, "performance_schema"), "ON");
	CU_ASSERT_TRUE(cfg_has(&c, "skip_networking"));
	CU_ASSERT_FALSE(cfg_has(&c, "port"));
	CU_ASSERT_FALSE(cfg_has(&c, "bind_address"));
	CU_ASSERT_STRING_EQUAL(cfg_get(&c, "secure_file_priv"), "/srv/dbt3/files");
	cfg_free(&c);
}

TH_TEST(srv, template_mysql_redo_option_by_version)
{
	struct srv_opts o;
	struct cfg c;
	srv_opts_init(&o);
	o.buffer_pool = 1 * GIB;
	struct srv_template_in in = mariadb_in();
	in.flavour = SRV_FLAVOUR_MYSQL;
	in.version[0] = 8, in.version[1] = 0, in.version[2] = 36;
	cfg_build(&c, &o, &in, NULL, 0);
	CU_ASSERT_STRING_EQUAL(cfg_get(&c, "innodb_buffer_pool_size"), "1024M");
	CU_ASSERT_STRING_EQUAL(cfg_get(&c, "innodb_redo_log_capacity"), "256M");
	CU_ASSERT_STRING_EQUAL(cfg_get(&c, "mysqlx"), "OFF");
	CU_ASSERT_FALSE(cfg_has(&c, "query_cache_type"));
	CU_ASSERT_FALSE(cfg_has(&c, "innodb_log_file_size"));
	cfg_free(&c);

	in.version[2] = 20; /* 8.0.20 predates innodb_redo_log_capacity */
	cfg_build(&c, &o, &in, NULL, 0);
	CU_ASSERT_STRING_EQUAL(cfg_get(&c, "innodb_log_file_size"), "256M");
	cfg_free(&c);

	/* a tiny pool still gets a workable redo log */
	o.buffer_pool = 128 * MIB;
	cfg_build(&c, &o, &in, NULL, 0);
	CU_ASSERT_STRING_EQUAL(cfg_get(&c, "innodb_log_file_size"), "48M");
	cfg_free(&c);
}

/* Under Valgrind (run --instructions): no native AIO, the pool's maximum bounded to the pool (as
 * a loose_ option), no stack-trace handler; --server-option still wins; none of it without. */
TH_TEST(srv, template_under_valgrind)
{
	struct srv_opts o;
	struct cfg c;
	srv_opts_init(&o);
	o.buffer_pool = 1 * GIB;
	struct srv_template_in in = mariadb_in();
	cfg_build(&c, &o, &in, NULL, 0);
	CU_ASSERT_FALSE(cfg_has(&c, "innodb_use_native_aio"));
	CU_ASSERT_FALSE(cfg_has(&c, "loose_innodb_buffer_pool_size_max"));
	cfg_free(&c);
	o.valgrind = 1;
	cfg_build(&c, &o, &in, NULL, 0);
	CU_ASSERT_STRING_EQUAL(cfg_get(&c, "innodb_use_native_aio"), "0");
	CU_ASSERT_STRING_EQUAL(cfg_get(&c, "loose_innodb_buffer_pool_size_max"), "1073741824");
	CU_ASSERT_TRUE(cfg_has(&c, "skip_stack_trace"));
	cfg_free(&c);
	CU_ASSERT_EQUAL(srv_kv_set(&o.server_options, &o.n_server_options, "innodb_use_native_aio",
				   "1"),
			0);
	cfg_build(&c, &o, &in, NULL, 0);
	CU_ASSERT_STRING_EQUAL(cfg_get(&c, "innodb_use_native_aio"), "1");
	cfg_free(&c);
	srv_opts_release(&o);
}

TH_TEST(srv, overlay_then_user_options_win)
{
	struct srv_opts o;
	struct cfg c;
	srv_opts_init(&o);
	struct srv_template_in in = mariadb_in();
	cfg_build(&c, &o, &in, NULL, 0);
	size_t n_template = c.n;
	cfg_free(&c);

	struct srv_kv overlay[] = {
	    {"innodb_flush_log_at_trx_commit", "0"},
	    {"innodb_doublewrite", "0"},
	    {"innodb-adaptive-hash-index", "OFF"},
	};
	parse(&o, SRV_OPT_SERVER_OPTION, "innodb_doublewrite=1");
	parse(&o, SRV_OPT_SERVER_OPTION, "port=5555");
	parse(&o, SRV_OPT_SERVER_OPTION, "innodb_io_capacity=900");
	cfg_build(&c, &o, &in, overlay, 3);
	CU_ASSERT_STRING_EQUAL(cfg_get(&c, "innodb_flush_log_at_trx_commit"), "0");
	CU_ASSERT_STRING_EQUAL(cfg_get(&c, "innodb_doublewrite"), "1");
	CU_ASSERT_STRING_EQUAL(cfg_get(&c, "port"), "5555");
	CU_ASSERT_STRING_EQUAL(cfg_get(&c, "innodb_io_capacity"), "900");
	/* '-' and '_' name the same option: replaced in place, not repeated */
	CU_ASSERT_STRING_EQUAL(cfg_get(&c, "innodb_adaptive_hash_index"), "OFF");
	CU_ASSERT_FALSE(cfg_has(&c, "innodb-adaptive-hash-index"));
	/* new: flush_log_at_trx_commit, doublewrite, port (the template has none without --port),
	 * io_capacity */
	CU_ASSERT_EQUAL(c.n, n_template + 4);
	cfg_free(&c);
	srv_opts_release(&o);
}

TH_TEST(srv, render_quotes_and_includes)
{
	struct srv_kv kv[] = {
	    {"port", "4406"},
	    {"skip_log_bin", NULL},
	    {"init_connect", "SET @a = '#x'"},
	};
	struct srv_kv user[] = {{"port", "4406"}};
	char *text = srv_config_render(kv, 3, NULL, user, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "[mysqld]\nport = 4406\nskip_log_bin\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "init_connect = \"SET @a = '#x'\"\n"));
	CU_ASSERT_PTR_NULL(strstr(text, "!include"));
	free(text);

	text = srv_config_render(kv, 3, "/etc/extra.cnf", user, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	const char *inc = strstr(text, "!include /etc/extra.cnf\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(inc);
	/* the user's options follow the include so they win over it */
	CU_ASSERT_PTR_NOT_NULL(strstr(inc, "[mysqld]\nport = 4406\n"));
	free(text);
}

TH_TEST(srv, parse_version_lines)
{
	enum srv_flavour f;
	int v[3];
	char s[64];
	CU_ASSERT_EQUAL(srv_parse_version("/usr/sbin/mariadbd  Ver 10.11.6-MariaDB-0+deb12u1 for "
					  "debian-linux-gnu on x86_64 (Debian 12)",
					  &f, v, s, sizeof(s)),
			0);
	CU_ASSERT_EQUAL(f, SRV_FLAVOUR_MARIADB);
	CU_ASSERT_EQUAL(v[0], 10);
	CU_ASSERT_EQUAL(v[1], 11);
	CU_ASSERT_EQUAL(v[2], 6);
	CU_ASSERT_STRING_EQUAL(s, "10.11.6-MariaDB-0+deb12u1");
	CU_ASSERT_EQUAL(srv_parse_version("/usr/sbin/mysqld  Ver 8.0.36 for Linux on x86_64 (MySQL "
					  "Community Server - GPL)",
					  &f, v, s, sizeof(s)),
			0);
	CU_ASSERT_EQUAL(f, SRV_FLAVOUR_MYSQL);
	CU_ASSERT_EQUAL(v[2], 36);
	CU_ASSERT_STRING_EQUAL(s, "8.0.36");
	CU_ASSERT_EQUAL(srv_parse_version("bash: mysqld: command not found", &f, v, s, sizeof(s)),
			-1);
	CU_ASSERT_EQUAL(srv_parse_version("Ver x", &f, v, s, sizeof(s)), -1);
}

/* A listening TCP socket on 127.0.0.1:port (what the server opens there), or -1. */
static int listen_on(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	struct sockaddr_in a;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((uint16_t)port);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(fd, 1) < 0) {
		perror("bind/listen");
		close(fd);
		return -1;
	}
	return fd;
}

TH_TEST(srv, free_port_takes_a_listener_and_is_not_in_use)
{
	struct errbuf err;
	int a = srv_free_port(&err);
	CU_ASSERT_FATAL(a > 0 && a < 65536);
	int fd = listen_on(a); /* the port really is free: a listener gets it */
	CU_ASSERT_FATAL(fd >= 0);
	/* while it is held, the next free port is another one */
	for (int i = 0; i < 20; i++) {
		int b = srv_free_port(&err);
		CU_ASSERT(b > 0 && b < 65536);
		CU_ASSERT_NOT_EQUAL(b, a);
	}
	close(fd);
}

/* Runs dbt3stab with args (a shell fragment) and returns its exit code; stderr into out. */
static int run_cli(const char *args, char *out, size_t len)
{
	return th_sh(out, len, "DBT3STAB_HOME=/nonexistent/dbt3 '%s' %s", DBT3_BINARY, args);
}

TH_TEST(srv, cli_argument_errors)
{
	static const struct {
		const char *args;
		int code;
		const char *says;
	} cases[] = {
	    {"server", 2, "missing action"},
	    {"server frobnicate", 2, "unknown action 'frobnicate'"},
	    {"server start extra", 2, "unexpected argument 'extra'"},
	    {"server start --port 0", 2, "--port"},
	    {"server start --port", 2, "needs a value"},
	    {"server start --bogus", 2, "unknown option '--bogus'"},
	    {"server start --buffer-pool 12Q", 2, "--buffer-pool"},
	    {"server start --server-option '=1'", 2, "bad server option"},
	    {"server stop --datadir /tmp/x --host h", 2, "one or the other"},
	    {"server start --host db.example", 2, "managed server"},
	    {"server init --json", 2, "--json"},
	    {"server --help", 0, "usage: dbt3stab server"},
	    {"help server", 0, "--server-option"},
	    {"server status --datadir /nonexistent/dbt3/inst", 1, "not running"},
	    {"server stop --datadir /nonexistent/dbt3/inst", 0, "not running"},
	    {"server start --datadir /nonexistent/dbt3/inst", 4, "not initialised"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char out[8192];
		int code = run_cli(cases[i].args, out, sizeof(out));
		int ok = code == cases[i].code && strstr(out, cases[i].says);
		if (!ok)
			fprintf(stderr, "'%s': exit %d, output:\n%s\n", cases[i].args, code, out);
		CU_ASSERT_TRUE(ok);
	}
}

/* ---- the instance lock passed to an exec'd child (srv_lock_pass) ---- */

#define LOCK_CHILD_ENV "TEST_SRV_LOCK_CHILD"

/* The exec'd child: this program again, locking the instance DIR as a dbt3stab command does.
 * Exit 0: it holds the lock (and the passed descriptor, if any, is closed on exec again); 1:
 * the instance is in use; 2, 3: something else failed. */
static int lock_child(const char *dir)
{
	struct srv_opts o;
	struct srv *s = NULL;
	struct errbuf err;
	srv_opts_init(&o);
	if (srv_opts_parse(&o, SRV_OPT_DATADIR, dir, &err) < 0 || srv_opts_finish(&o, &err) < 0 ||
	    srv_open(&s, &o, &err) < 0)
		return 3;
	int rc = srv_lock(s, &err) == 0 ? 0 : strstr(err.msg, "is in use by pid") ? 1 : 2;
	const char *fd = getenv(SRV_LOCK_ENV);
	if (rc == 0 && fd && (fcntl(atoi(fd), F_GETFD) & FD_CLOEXEC) == 0)
		rc = 2; /* the server it starts would inherit the lock */
	srv_free(s);
	srv_opts_release(&o);
	return rc;
}

/* Runs lock_child(dir) in a new process: with s, after srv_lock_pass(s) in the fork; with
 * bogus_fd, SRV_LOCK_ENV naming a descriptor open on another file. Its exit code. */
static int spawn_lock_child(const char *dir, struct srv *s, int bogus_fd)
{
	pid_t pid = fork();
	if (pid == 0) {
		char num[16];
		if (s && srv_lock_pass(s) < 0)
			_exit(5);
		if (bogus_fd) {
			int fd = open("/dev/null", O_RDONLY); /* inherited: no O_CLOEXEC */
			snprintf(num, sizeof(num), "%d", fd);
			setenv(SRV_LOCK_ENV, num, 1);
		}
		setenv(LOCK_CHILD_ENV, dir, 1);
		char *argv[] = {"test_srv", NULL};
		execv("/proc/self/exe", argv);
		_exit(6);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

TH_TEST(srv, lock_passes_to_an_exec_child)
{
	char *dir = th_tempdir("lock");
	struct srv_opts o;
	struct srv *s = NULL;
	struct errbuf err;
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	srv_opts_init(&o);
	CU_ASSERT_EQUAL_FATAL(srv_opts_parse(&o, SRV_OPT_DATADIR, dir, &err), 1);
	CU_ASSERT_EQUAL_FATAL(srv_opts_finish(&o, &err), 0);
	CU_ASSERT_EQUAL_FATAL(srv_open(&s, &o, &err), 0);
	CU_ASSERT_EQUAL(srv_lock_pass(s), -1); /* no lock held yet */
	CU_ASSERT_EQUAL_FATAL(srv_lock(s, &err), 0);
	CU_ASSERT_EQUAL(spawn_lock_child(dir, NULL, 0), 1); /* another process: in use */
	CU_ASSERT_EQUAL(spawn_lock_child(dir, s, 0), 0);    /* passed: it holds it through ours */
	CU_ASSERT_EQUAL(spawn_lock_child(dir, s, 0), 0);    /* again: its exit released nothing */
	CU_ASSERT_EQUAL(spawn_lock_child(dir, NULL, 0), 1);
	CU_ASSERT_EQUAL(spawn_lock_child(dir, NULL, 1), 1); /* a descriptor of another file */
	srv_free(s);
	CU_ASSERT_EQUAL(spawn_lock_child(dir, NULL, 0), 0); /* released with the handle */
	srv_opts_release(&o);
	th_rmtree(dir);
	free(dir);
}

int main(int argc, char **argv)
{
	if (getenv(LOCK_CHILD_ENV))
		return lock_child(getenv(LOCK_CHILD_ENV));
	return th_run("srv", th_cases(), argc, argv);
}
