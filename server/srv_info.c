/* SPDX-License-Identifier: MIT */
/* The record of a server: version, binary, options, buffer pool, variables. */
#include "server/srv_int.h"

static json_t *kv_json(const struct srv_kv *kv, size_t n)
{
	json_t *o = json_object();
	for (size_t i = 0; o && i < n; i++)
		json_object_set_new(o, kv[i].name,
				    kv[i].value ? json_string(kv[i].value) : json_true());
	return o;
}

/* The [mysqld] options of a generated option file (a server an earlier command started):
 * "name = value", "name" (true), quoted values unescaped; later lines win. */
static json_t *cnf_json(const char *text)
{
	json_t *o = json_object();
	int in_mysqld = 0;
	while (o && text && *text) {
		const char *eol = text + strcspn(text, "\n");
		char line[4096];
		snprintf(line, sizeof(line), "%.*s", (int)(eol - text), text);
		text = *eol ? eol + 1 : eol;
		char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '[') {
			in_mysqld = strncmp(p, "[mysqld]", 8) == 0;
			continue;
		}
		if (!in_mysqld || !*p || *p == '#' || *p == ';' || *p == '!')
			continue;
		char *eq = strchr(p, '=');
		char *name_end = eq ? eq : p + strlen(p);
		while (name_end > p && (name_end[-1] == ' ' || name_end[-1] == '\t'))
			name_end--;
		*name_end = '\0';
		if (!eq) {
			json_object_set_new(o, p, json_true());
			continue;
		}
		char *v = eq + 1, *w;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v == '"') { /* "..." with \" and \\ (srv_config_render) */
			w = ++v;
			for (char *r = v; *r && *r != '"'; r++) {
				if (*r == '\\' && r[1])
					r++;
				*w++ = *r;
			}
		} else {
			w = v + strlen(v);
			while (w > v && (w[-1] == ' ' || w[-1] == '\t' || w[-1] == '\r'))
				w--;
		}
		*w = '\0';
		json_object_set_new(o, p, json_string(v));
	}
	return o;
}

/* The loaded data as the server counts it (external servers: no files to read). */
static int data_bytes_sql(MYSQL *m, uint64_t *out, struct errbuf *err)
{
	*out = 0;
	if (mysql_query(m, "SELECT COALESCE(SUM(data_length + index_length), 0) FROM "
			   "information_schema.TABLES WHERE engine = 'InnoDB' AND table_schema NOT "
			   "IN ('mysql', 'sys', 'performance_schema', 'information_schema')"))
		return errbuf_set(err, "cannot measure the data: %s", mysql_error(m));
	MYSQL_RES *res = mysql_store_result(m);
	MYSQL_ROW row = res ? mysql_fetch_row(res) : NULL;
	int rc = row && row[0] && srv_parse_size(row[0], out) == 0 ? 0 : -1;
	mysql_free_result(res);
	return rc < 0 ? errbuf_set(err, "cannot measure the data: no sum") : 0;
}

int srv_pool_get(struct srv *s, struct srv_pool *out, struct errbuf *err)
{
	uint64_t data = 0;
	if (!s->external) {
		if (srv_data_bytes(&data, s->datadir, err) < 0)
			return -1;
	} else {
		MYSQL *m = srv_connect(s, NULL, err);
		if (!m)
			return -1;
		int rc = data_bytes_sql(m, &data, err);
		mysql_close(m);
		if (rc < 0)
			return -1;
	}
	srv_pool_plan(out, data, s->o->scale, srv_ram_bytes(), s->o->buffer_pool);
	return 0;
}

/* The pool record of a running server: the rule's figures with the pool the server reports. */
static json_t *pool_json(struct srv *s, json_t *vars)
{
	struct srv_pool p;
	struct errbuf ignored;
	uint64_t actual = 0;
	if (srv_pool_get(s, &p, &ignored) < 0)
		return json_null();
	json_t *v = json_object_get(vars, "innodb_buffer_pool_size");
	if (json_is_string(v) && srv_parse_size(json_string_value(v), &actual) == 0 && actual &&
	    actual != p.pool_bytes) {
		p.pool_bytes = actual; /* a --server-option or included file set it */
		p.from_option = 1;
		p.fits = actual >= p.need_bytes;
	}
	json_t *j = srv_pool_json(&p);
	return j ? j : json_null();
}

static const char *flavour_name(enum srv_flavour f)
{
	return f == SRV_FLAVOUR_MARIADB ? "mariadb" : f == SRV_FLAVOUR_MYSQL ? "mysql" : "unknown";
}

json_t *srv_info_json(struct srv *s, struct errbuf *err)
{
	json_t *j = json_object();
	if (!j)
		return errbuf_set(err, "out of memory"), NULL;
	MYSQL *m = srv_connect(s, NULL, err);
	if (!m) {
		json_decref(j);
		return NULL;
	}
	json_t *vars = json_object();
	char version[256] = "";
	if (mysql_query(m, "SHOW GLOBAL VARIABLES") == 0) {
		MYSQL_RES *res = mysql_store_result(m);
		MYSQL_ROW row;
		while (res && (row = mysql_fetch_row(res)))
			if (row[0])
				json_object_set_new(vars, row[0],
						    row[1] ? json_string(row[1]) : json_null());
		mysql_free_result(res);
	}
	if (mysql_query(m, "SELECT VERSION()") == 0) {
		MYSQL_RES *res = mysql_store_result(m);
		MYSQL_ROW row = res ? mysql_fetch_row(res) : NULL;
		if (row && row[0])
			snprintf(version, sizeof(version), "%s", row[0]);
		mysql_free_result(res);
	} else {
		errbuf_set(err, "SELECT VERSION() failed: %s", mysql_error(m));
		mysql_close(m);
		json_decref(vars);
		json_decref(j);
		return NULL;
	}
	mysql_close(m);
	json_object_set_new(j, "version", json_string(version));
	json_object_set_new(j, "external", json_boolean(s->external));
	if (s->external) {
		json_object_set_new(j, "flavour",
				    json_string(strstr(version, "MariaDB") ? "mariadb" : "mysql"));
		json_object_set_new(j, "binary", json_null());
		json_object_set_new(j, "binary_sha256", json_null());
		json_object_set_new(j, "options", json_null());
	} else {
		char sha[65];
		if (srv_resolve_binary(s, err) < 0 || util_sha256_file(sha, s->binary, err) < 0) {
			json_decref(vars);
			json_decref(j);
			return NULL;
		}
		json_object_set_new(j, "flavour", json_string(flavour_name(s->flavour)));
		json_object_set_new(j, "binary", json_string(s->binary));
		json_object_set_new(j, "binary_sha256", json_string(sha));
		json_object_set_new(j, "datadir", json_string(s->instdir));
		char *cnf = NULL;
		struct errbuf ignored;
		if (util_read_file(s->cnf, &cnf, NULL, &ignored) < 0)
			cnf = NULL;
		/* started by this handle: its option set; else the one in the option file */
		json_object_set_new(j, "options",
				    s->cfg ? kv_json(s->cfg, s->n_cfg)
				    : cnf  ? cnf_json(cnf)
					   : json_null());
		if (cnf) {
			json_object_set_new(j, "option_file", json_string(cnf));
			free(cnf);
		}
		json_object_set_new(j, "defaults_extra_file",
				    s->extra[0] ? json_string(s->extra) : json_null());
		if (s->o->valgrind) {
			json_t *vg = srv_vg_json(s, err);
			if (!vg) {
				json_decref(vars);
				json_decref(j);
				return NULL;
			}
			json_object_set_new(j, "valgrind", vg);
		}
	}
	json_object_set_new(j, "buffer_pool", pool_json(s, vars));
	json_object_set_new(j, "variables", vars);
	return j;
}
