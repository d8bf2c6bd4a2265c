/* SPDX-License-Identifier: MIT */
/* dbt3stab server init|start|stop|status: the private database server. */
#include "base/cli.h"
#include "commands/cmd.h"
#include "commands/cmd_srv_args.h"
#include "server/srv.h"
#include "server/srv_clone_live.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the command line says. */
struct server_args {
	struct srv_opts srv;
	int json, quiet, help;
};

static const struct cli_opt options[] = {
    CLI_ROW_NUM(CLI_OPT_DOUBLE, "scale", "SF", struct server_args, srv.scale, 0.0001, 100000,
		"bad value '%s' for --scale (a scale factor like 1 or 0.1)",
		"size the default buffer pool for scale factor SF (default 1)"),
    CLI_ROW_FLAG("json", 0, struct server_args, json, "status: print the server record as JSON"),
    CLI_ROW_QUIET(struct server_args, quiet, "no progress messages"),
    CLI_ROW_HELP(struct server_args, help),
    CMD_SRV_GROUP(struct server_args, srv),
    {.kind = CLI_OPT_END},
};

static void usage(FILE *f)
{
	fputs("usage: dbt3stab server <init|start|stop|status> [options]\n"
	      "\n"
	      "  init     create the instance and its datadir with the server's own initializer\n"
	      "           (mariadb-install-db, or mysqld --initialize-insecure), set random\n"
	      "           passwords (kept in DIR/client.cnf, mode 0600); a no-op when done\n"
	      "  start    write DIR/my.cnf from the template, start the server, wait until it\n"
	      "           answers; it keeps running after dbt3stab exits. An instance made by an\n"
	      "           older dbt3stab gets its passwords and file modes first. A server\n"
	      "           already running is left as it is (exit 0, with a note)\n"
	      "  stop     SHUTDOWN, wait, SIGKILL after --stop-timeout; also the servers a\n"
	      "           killed side-by-side run left on the clones (DIR/sbs/K)\n"
	      "  status   print whether it runs (exit 0) or not (exit 1), and the clones'\n"
	      "           servers that run; --json: version, binary, SHA-256 and option\n"
	      "           record of a running server, \"clones\" the clones' directories\n"
	      "\n"
	      "options:\n",
	      f);
	cli_opts_usage(f, options);
	fputs("\nexit: 0 ok (start: also when it was already running), 1 not running (status),\n"
	      "      2 usage, 4 the server failed (cannot start, runs but does not answer, or the\n"
	      "      instance is in use by another dbt3stab)\n",
	      f);
}

static int do_init(struct srv *s, const struct srv_opts *o, int quiet, int json)
{
	(void)o;
	(void)json;
	struct errbuf err;
	cli_info(quiet, "initialising '%s'", srv_instdir(s));
	int rc = srv_init_datadir(s, &err);
	if (rc == SRV_E_EXISTS) {
		cli_info(quiet, "'%s' is already initialised", srv_instdir(s));
		return CLI_OK;
	}
	if (rc < 0) {
		cli_error("%s", err.msg);
		return rc == SRV_E_REFUSED ? CLI_USAGE : CLI_SERVER;
	}
	cli_info(quiet, "initialised '%s' (%s %s)", srv_instdir(s), srv_binary(s), srv_version(s));
	return CLI_OK;
}

/* A server already running is what start asks for (as 'systemctl start'): exit 0 with a note,
 * when it answers; one that runs but does not answer is a server failure. */
static int already_running(struct srv *s, int quiet)
{
	struct errbuf err;
	pid_t pid = srv_pid(s);
	int answer = srv_probe(s, &err);
	if (answer == 1) { /* the server's own error, e.g. Access denied */
		cli_error("%s", err.msg);
		return CLI_SERVER;
	}
	if (answer == 0) {
		cli_error("the server in '%s' runs (pid %d) but does not answer on '%s': %s",
			  srv_instdir(s), (int)pid, srv_socket_path(s), err.msg);
		return CLI_SERVER;
	}
	cli_info(quiet,
		 "the server in '%s' is already running: pid %d, socket '%s' (not restarted: "
		 "'server stop' first to start it with other options)",
		 srv_instdir(s), (int)pid, srv_socket_path(s));
	return CLI_OK;
}

static int do_start(struct srv *s, const struct srv_opts *o, int quiet, int json)
{
	(void)o;
	(void)json;
	struct errbuf err;
	if (srv_access_check(s, &err) < 0) {
		cli_error("%s", err.msg);
		return CLI_IO;
	}
	struct srv_launch launch = {.outlive = 1}; /* it keeps running after dbt3stab exits */
	int rc = srv_start(s, &launch, &err);
	cmd_srv_say_restored(s);
	if (rc == SRV_E_RUNNING)
		return already_running(s, quiet);
	if (rc < 0) {
		cli_error("%s", err.msg);
		return CLI_SERVER;
	}
	srv_detach(s);
	char tcp[48] = "";
	if (srv_port(s))
		snprintf(tcp, sizeof(tcp), "127.0.0.1:%ld, ", srv_port(s));
	cli_info(quiet, "server running: pid %d, %ssocket '%s', %s %s", (int)srv_pid(s), tcp,
		 srv_socket_path(s), srv_binary(s), srv_version(s));
	return CLI_OK;
}

/* Stops the servers left running on the instance's clones (a killed side-by-side run). */
static int stop_clones(const struct srv_opts *o, int quiet)
{
	struct srv_clone_live stopped[SRV_CLONES_MAX];
	struct errbuf err;
	int n = 0, rc = srv_clones_stop(stopped, &n, o, &err);
	for (int i = 0; i < n; i++)
		cli_info(quiet, "clone server stopped (pid %ld, '%s')", stopped[i].pid,
			 stopped[i].dir);
	if (rc < 0) {
		cli_error("%s", err.msg);
		return CLI_SERVER;
	}
	return CLI_OK;
}

static int do_stop(struct srv *s, const struct srv_opts *o, int quiet, int json)
{
	(void)json;
	struct errbuf err;
	if (srv_access_check(s, &err) < 0) { /* F13: not "not running" */
		cli_error("%s", err.msg);
		return CLI_IO;
	}
	pid_t pid = srv_pid(s);
	if (!pid) {
		cli_info(quiet, "the server in '%s' is not running", srv_instdir(s));
	} else if (srv_stop(s, &err) < 0) {
		cli_error("%s", err.msg);
		return CLI_SERVER;
	} else {
		cli_info(quiet, "server stopped (pid %d)", (int)pid);
	}
	return stop_clones(o, quiet);
}

/* The clones' live servers as lines after the instance's own (status). */
static void print_clones(const struct srv_clone_live *c, int n)
{
	for (int i = 0; i < n; i++)
		if (c[i].pid)
			printf("clone running: pid %ld, datadir '%s', socket '%s/mysqld.sock'\n",
			       c[i].pid, c[i].dir, c[i].dir);
}

/* status --json's "clones": every clone directory, whether its server runs and its pid. */
static json_t *clones_json(const struct srv_clone_live *c, int n)
{
	json_t *a = json_array();
	for (int i = 0; i < n && a; i++) {
		json_t *e = json_pack("{s:i, s:s, s:b}", "clone", c[i].k, "datadir", c[i].dir,
				      "running", c[i].pid != 0);
		if (e && c[i].pid)
			json_object_set_new(e, "pid", json_integer(c[i].pid));
		json_array_append_new(a, e);
	}
	return a;
}

/* The instance's own server, when it runs: its line, or its JSON record into *info. */
static int status_running(struct srv *s, int json, json_t **info)
{
	struct errbuf err;
	if (json) {
		if (!(*info = srv_info_json(s, &err))) {
			cli_error("%s", err.msg);
			return CLI_SERVER;
		}
		json_object_set_new(*info, "running", json_true());
		if (!srv_is_external(s))
			json_object_set_new(*info, "pid", json_integer(srv_pid(s)));
		return CLI_OK;
	}
	int answer = srv_probe(s, &err);
	if (answer == 1) { /* the server's own error, e.g. Access denied */
		cli_error("%s", err.msg);
		return CLI_SERVER;
	}
	if (answer == 0) {
		cli_error("the server (pid %d) runs but does not answer on '%s': %s",
			  (int)srv_pid(s), srv_socket_path(s), err.msg);
		return CLI_SERVER;
	}
	if (srv_is_external(s))
		printf("running (external server)\n");
	else
		printf("running: pid %d, datadir '%s', socket '%s'\n", (int)srv_pid(s),
		       srv_instdir(s), srv_socket_path(s));
	return CLI_OK;
}

static int do_status(struct srv *s, const struct srv_opts *o, int quiet, int json)
{
	(void)quiet;
	struct errbuf err;
	struct srv_clone_live clones[SRV_CLONES_MAX];
	if (srv_access_check(s, &err) < 0) { /* F13: not "not running" */
		cli_error("%s", err.msg);
		return CLI_IO;
	}
	int n = srv_clones_list(clones, o, &err);
	if (n < 0) {
		cli_error("%s", err.msg);
		return CLI_IO;
	}
	int running = srv_is_external(s) ? srv_ping(s) : srv_pid(s) != 0;
	json_t *info = NULL;
	int rc = running ? status_running(s, json, &info) : CLI_FOUND;
	if (rc != CLI_OK && rc != CLI_FOUND)
		return rc;
	if (!running && json)
		info = json_pack("{s:b}", "running", 0);
	else if (!running)
		printf("not running (%s)\n",
		       srv_is_external(s) ? srv_socket_path(s) : srv_instdir(s));
	if (!json) {
		print_clones(clones, n);
		return rc;
	}
	if (!srv_is_external(s))
		json_object_set_new(info, "clones", clones_json(clones, n));
	json_dumpf(info, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
	putchar('\n');
	json_decref(info);
	return rc;
}

static const struct {
	const char *name;
	int (*fn)(struct srv *s, const struct srv_opts *o, int quiet, int json);
} actions[] = {
    {"init", do_init},
    {"start", do_start},
    {"stop", do_stop},
    {"status", do_status},
};

int cmd_server(int argc, char **argv)
{
	struct server_args args = {.json = 0};
	struct srv_opts *o = &args.srv;
	struct cli_parse p = {.cmd = "server", .base = &args};
	struct errbuf err;
	struct srv *s = NULL;
	int quiet, json, rc;
	srv_opts_init(o);
	rc = cmd_parse(&p, options, usage, 1, argc, argv);
	if (rc != CLI_OK || p.help)
		goto out;
	quiet = args.quiet;
	json = args.json;
	if (p.next >= argc) {
		rc = cli_usage_error("server", "missing action: init, start, stop or status");
		goto out;
	}
	const char *action = argv[p.next];
	size_t a = 0;
	while (a < sizeof(actions) / sizeof(actions[0]) && strcmp(actions[a].name, action))
		a++;
	if (a == sizeof(actions) / sizeof(actions[0])) {
		rc = cli_usage_error("server", "unknown action '%s' (init, start, stop or status)",
				     action);
		goto out;
	}
	if (json && strcmp(action, "status")) {
		rc = cli_usage_error("server", "--json goes with 'status' only");
		goto out;
	}
	if (srv_opts_finish(o, &err) < 0) {
		rc = cli_usage_error("server", "%s", err.msg);
		goto out;
	}
	if (o->external && strcmp(action, "status")) {
		rc = cli_usage_error(
		    "server", "'%s' needs a managed server (--datadir), not --host/--socket/--user",
		    action);
		goto out;
	}
	if (srv_open(&s, o, &err) < 0) {
		cli_error("%s", err.msg);
		rc = CLI_USAGE;
		goto out;
	}
	rc = actions[a].fn(s, o, quiet, json);
out:
	srv_free(s);
	srv_opts_release(o);
	return rc;
}
