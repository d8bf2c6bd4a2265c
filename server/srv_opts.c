/* SPDX-License-Identifier: MIT */
/* Server options shared by every command that needs a server; kv lists; sizes. */
#include "base/cli.h"
#include "server/srv.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void srv_opts_init(struct srv_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->start_timeout = 120;
	o->stop_timeout = 120;
	o->scale = 1;
}

static int set_str(char **dst, const char *arg, const char *what, struct errbuf *err)
{
	if (!arg || !*arg)
		return errbuf_set(err, "%s must not be empty", what);
	char *copy = strdup(arg);
	if (!copy)
		return errbuf_set(err, "out of memory");
	free(*dst);
	*dst = copy;
	return 1;
}

/* Names the server accepts: letters, digits, '-', '_', '.' (plugin options); no spaces. */
static int valid_option_name(const char *s, size_t len)
{
	if (len == 0)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return 0;
	return 1;
}

static int parse_server_option(struct srv_opts *o, const char *arg, struct errbuf *err)
{
	if (!arg)
		arg = "";
	const char *eq = strchr(arg, '=');
	const char *name = arg;
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	while (len > 2 && name[0] == '-' && name[1] == '-') { /* tolerate "--name=value" */
		name += 2;
		len -= 2;
	}
	if (!valid_option_name(name, len))
		return errbuf_set(err, "bad server option '%s' (expected NAME=VALUE)", arg);
	if (eq && strpbrk(eq + 1, "\n\r"))
		return errbuf_set(err, "bad server option '%s': value contains a line break", arg);
	char *n = strndup(name, len);
	if (!n)
		return errbuf_set(err, "out of memory");
	int rc = srv_kv_set(&o->server_options, &o->n_server_options, n, eq ? eq + 1 : NULL);
	free(n);
	return rc < 0 ? errbuf_set(err, "out of memory") : 1;
}

static int parse_seconds(const char *arg, const char *opt, double *out, struct errbuf *err)
{
	if (cli_parse_double(arg, 0.1, 86400, out) < 0)
		return errbuf_set(err, "bad value '%s' for --%s (seconds, 0.1 to 86400)",
				  arg ? arg : "", opt);
	return 1;
}

int srv_opts_parse(struct srv_opts *o, int opt, const char *arg, struct errbuf *err)
{
	switch (opt) {
	case SRV_OPT_DATADIR:
		return set_str(&o->datadir, arg, "--datadir", err);
	case SRV_OPT_MYSQLD:
		return set_str(&o->mysqld, arg, "--mysqld", err);
	case SRV_OPT_BASEDIR:
		return set_str(&o->basedir, arg, "--basedir", err);
	case SRV_OPT_SOCKET:
		return set_str(&o->socket, arg, "--socket", err);
	case SRV_OPT_HOST:
		return set_str(&o->host, arg, "--host", err);
	case SRV_OPT_USER:
		return set_str(&o->user, arg, "--user", err);
	case SRV_OPT_DEFAULTS_EXTRA_FILE:
		return set_str(&o->defaults_extra_file, arg, "--defaults-extra-file", err);
	case SRV_OPT_PORT:
		if (cli_parse_long(arg, 1, 65535, &o->port) < 0)
			return errbuf_set(err, "bad value '%s' for --port (1 to 65535)",
					  arg ? arg : "");
		return 1;
	case SRV_OPT_SERVER_OPTION:
		return parse_server_option(o, arg, err);
	case SRV_OPT_START_TIMEOUT:
		return parse_seconds(arg, "start-timeout", &o->start_timeout, err);
	case SRV_OPT_STOP_TIMEOUT:
		return parse_seconds(arg, "stop-timeout", &o->stop_timeout, err);
	case SRV_OPT_BUFFER_POOL:
		if (srv_parse_size(arg, &o->buffer_pool) < 0 || o->buffer_pool < (8u << 20))
			return errbuf_set(err,
					  "bad value '%s' for --buffer-pool (a size like 512M or "
					  "4G, at least 8M)",
					  arg ? arg : "");
		return 1;
	case SRV_OPT_PERFORMANCE_SCHEMA:
		o->performance_schema = 1;
		return 1;
	default:
		return 0;
	}
}

int srv_opts_finish(struct srv_opts *o, struct errbuf *err)
{
	int remote = o->host || o->socket || o->user;
	if (remote && o->datadir)
		return errbuf_set(
		    err, "--datadir names a managed server; --host, --socket and --user an "
			 "external one: give one or the other");
	/* --port alone still means the managed instance (on that port). */
	o->external = remote;
	if (o->external) {
		if (o->n_server_options || o->buffer_pool || o->mysqld || o->basedir)
			return errbuf_set(
			    err, "--server-option, --buffer-pool, --mysqld and --basedir need a "
				 "managed server, not --host/--socket/--user");
		return 0;
	}
	if (!o->datadir && geteuid() == 0 && !getenv("DBT3STAB_HOME")) {
		/* root's home is usually mode 0700, out of reach of the server's user (docs/server.md)
		 */
		o->datadir = strdup(SRV_ROOT_DATADIR);
		if (!o->datadir)
			return errbuf_set(err, "out of memory");
	}
	if (!o->datadir) {
		char *state = util_state_dir();
		if (!state)
			return errbuf_set(err, "cannot find a home directory: set HOME or "
					       "DBT3STAB_HOME, or give --datadir");
		size_t len = strlen(state) + sizeof("/server");
		o->datadir = malloc(len);
		if (!o->datadir) {
			free(state);
			return errbuf_set(err, "out of memory");
		}
		snprintf(o->datadir, len, "%s/server", state);
		free(state);
	}
	size_t n = strlen(o->datadir);
	while (n > 1 && o->datadir[n - 1] == '/')
		o->datadir[--n] = '\0';
	struct stat st;
	if (stat(o->datadir, &st) == 0 && !S_ISDIR(st.st_mode)) /* a typo naming a file */
		return errbuf_set(err, "instance directory '%s' is not a directory", o->datadir);
	return srv_datadir_check(o->datadir, err);
}

int srv_datadir_check(const char *path, struct errbuf *err)
{
	for (const char *p = path; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c <= ' ' || c == 0x7f || strchr("\"'\\$`", c))
			return errbuf_set(err,
					  "instance directory '%s' contains %s: the server's "
					  "installer splits or expands such paths; choose a --datadir "
					  "without spaces, control characters, quotes, '\\', '$' or '`'",
					  path,
					  c == ' '    ? "a space"
					  : c < ' '   ? "a control character"
					  : c == 0x7f ? "a control character"
						      : "a quote, backslash, '$' or '`'");
	}
	return 0;
}

void srv_opts_release(struct srv_opts *o)
{
	if (!o)
		return;
	free(o->datadir);
	free(o->mysqld);
	free(o->basedir);
	free(o->socket);
	free(o->host);
	free(o->user);
	free(o->defaults_extra_file);
	srv_kv_free(o->server_options, o->n_server_options);
	srv_opts_init(o);
}

static int same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;
		if (tolower((unsigned char)x) != tolower((unsigned char)y))
			return 0;
	}
	return *a == *b;
}

int srv_kv_set(struct srv_kv **list, size_t *n, const char *name, const char *value)
{
	char *v = NULL;
	if (value && !(v = strdup(value)))
		return -1;
	for (size_t i = 0; i < *n; i++) {
		if (same_name((*list)[i].name, name)) {
			free((*list)[i].value);
			(*list)[i].value = v;
			return 0;
		}
	}
	struct srv_kv *bigger = realloc(*list, (*n + 1) * sizeof(**list));
	char *nm = strdup(name);
	if (!bigger || !nm) {
		if (bigger)
			*list = bigger;
		free(nm);
		free(v);
		return -1;
	}
	*list = bigger;
	bigger[*n].name = nm;
	bigger[*n].value = v;
	(*n)++;
	return 0;
}

void srv_kv_free(struct srv_kv *list, size_t n)
{
	if (!list)
		return;
	for (size_t i = 0; i < n; i++) {
		free(list[i].name);
		free(list[i].value);
	}
	free(list);
}

int srv_parse_size(const char *s, uint64_t *out)
{
	if (!s || !isdigit((unsigned char)*s))
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	unsigned shift = 0;
	switch (toupper((unsigned char)*end)) {
	case '\0':
		break;
	case 'K':
		shift = 10;
		break;
	case 'M':
		shift = 20;
		break;
	case 'G':
		shift = 30;
		break;
	case 'T':
		shift = 40;
		break;
	default:
		return -1;
	}
	if (*end) {
		end++;
		if (toupper((unsigned char)*end) == 'B' || toupper((unsigned char)*end) == 'I') {
			if (toupper((unsigned char)*end) == 'I' &&
			    toupper((unsigned char)end[1]) == 'B')
				end++;
			end++;
		}
	}
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}
