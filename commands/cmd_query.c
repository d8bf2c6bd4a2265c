/* SPDX-License-Identifier: MIT */
/* dbt3stab query N: run one query and print its result and time. */
#include "base/cli.h"
#include "dbt3/load.h"
#include "dbt3/qry.h"
#include "commands/cmd.h"
#include "commands/cmd_srv_args.h"
#include "runner/run_once.h"
#include "server/srv.h"
#include <math.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_SEED = 1, OPT_FORMAT, OPT_DATABASE, OPT_EXPLAIN, OPT_SCALE = 's' };

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: dbt3stab query N [-s SF] [--seed N] [--format table|tbl|json] [options]\n"
	    "\n"
	    "Runs query N (1-22) once on the loaded database and prints its result; the time\n"
	    "of the timed statement (send, execute, fetch every row) goes to stderr.\n"
	    "--format tbl prints the layout of the TPC-H answer files (header of column names,\n"
	    "'|'-separated rows, fractions at 2 decimals) for a diff against the official "
	    "answers.\n"
	    "\n"
	    "options:\n"
	    "  -s, --scale SF           the loaded scale factor (default; another is refused)\n"
	    "  --seed N                 parameters as TPC-H qgen -r N (default: validation ones)\n"
	    "  --format F               table (default), tbl or json\n"
	    "  --database NAME          database (default dbt3)\n"
	    "  --explain                print the plan (EXPLAIN) instead of running it\n"
	    "  -q, --quiet              no time line\n"
	    "  -h, --help               this help\n"
	    "\n%s"
	    "\nexit: 0 ok, 1 failure, 2 usage, 4 the server failed\n",
	    srv_options_usage);
}

/* What the command line says. */
struct query_args {
	struct qry_opts qo;
	struct cmd_srv_args sa; /* the server options, --help, --quiet */
	enum qry_format fmt;
	const char *db;
	int explain;
	long id;
};

/* One of query's own options: 0 taken, -1 not one of them, or CLI_USAGE after one line. */
static int own_option(void *ctx, int c, const char *arg)
{
	struct query_args *a = ctx;
	switch (c) {
	case OPT_SCALE:
		if (cli_parse_double(arg, 1e-6, 100000, &a->qo.sf) < 0)
			return cli_usage_error("query", "invalid scale factor '%s'", arg);
		return 0;
	case OPT_SEED:
		if (cli_parse_long(arg, 1, 2147483646, &a->qo.seed) < 0)
			return cli_usage_error("query", "--seed takes 1 to 2147483646, not '%s'",
					       arg);
		a->qo.seeded = 1;
		return 0;
	case OPT_FORMAT:
		if (qry_format_parse(arg, &a->fmt) < 0)
			return cli_usage_error("query",
					       "--format takes table, tbl or json, not '%s'", arg);
		return 0;
	case OPT_DATABASE:
		a->db = arg;
		return 0;
	case OPT_EXPLAIN:
		a->explain = 1;
		return 0;
	default:
		return -1;
	}
}

/* The options, then the query number. 0 (a->sa.help: usage printed), or a CLI_* code. */
static int parse_args(struct query_args *a, int argc, char **argv)
{
	static const struct option own[] = {
	    {"scale", required_argument, NULL, OPT_SCALE},
	    {"seed", required_argument, NULL, OPT_SEED},
	    {"format", required_argument, NULL, OPT_FORMAT},
	    {"database", required_argument, NULL, OPT_DATABASE},
	    {"explain", no_argument, NULL, OPT_EXPLAIN},
	    {NULL, 0, NULL, 0},
	};
	struct errbuf err;
	int rc = cmd_srv_args_parse(&a->sa, argc, argv, ":s:qh", own, own_option, a);
	if (rc != CLI_OK)
		return rc;
	if (a->sa.help) {
		usage(stdout);
		return 0;
	}
	if (optind >= argc)
		return cli_usage_error(argv[0], "which query? (1 to %d)", QRY_COUNT);
	if (cli_parse_long(argv[optind], 1, QRY_COUNT, &a->id) < 0)
		return cli_usage_error(argv[0], "no query '%s': queries are numbered 1 to %d",
				       argv[optind], QRY_COUNT);
	if (optind + 1 < argc)
		return cli_usage_error(argv[0], "unexpected argument '%s'", argv[optind + 1]);
	if (srv_opts_finish(&a->sa.srv, &err) < 0)
		return cli_usage_error(argv[0], "%s", err.msg);
	return 0;
}

int cmd_query(int argc, char **argv)
{
	struct query_args a = {.qo = {.sf = 0}, .fmt = QRY_FORMAT_TABLE, .db = "dbt3"};
	struct errbuf err;
	struct srv *s = NULL;
	MYSQL *m = NULL;
	struct qry q = {0};
	struct qry_result res = {0};
	int rc = CLI_OK;
	if ((rc = parse_args(&a, argc, argv)) || a.sa.help)
		goto out;
	const char *db = a.db;
	long id = a.id;
	int started = 0;
	/* a directory never initialised holds no load: nothing is made there */
	if (srv_instance_check(&a.sa.srv, &err) < 0 || srv_open(&s, &a.sa.srv, &err) < 0 ||
	    srv_ensure_started(s, NULL, &started, &err) < 0 || !(m = srv_connect(s, NULL, &err))) {
		cli_error("%s", err.msg);
		rc = CLI_SERVER;
		goto out;
	}
	struct load_fingerprint fp;
	int r = load_fingerprint_read(m, db, &fp, &err);
	if (r == LOAD_E_NONE) {
		cli_error("database '%s' holds no complete load (see 'dbt3stab load --help')", db);
		rc = CLI_FOUND;
		goto out;
	}
	if (r < 0 || mysql_select_db(m, db) != 0) {
		cli_error("%s", r < 0 ? err.msg : mysql_error(m));
		rc = CLI_SERVER;
		goto out;
	}
	if (a.qo.sf == 0)
		a.qo.sf = fp.sf;
	if (fabs(fp.sf - a.qo.sf) > 1e-9 * fmax(1, fp.sf)) { /* as run refuses it */
		cli_error("the loaded data is scale factor %g, not %g", fp.sf, a.qo.sf);
		rc = CLI_USAGE;
		goto out;
	}
	if (qry_build(&q, (int)id, &a.qo, &err) < 0) {
		cli_error("%s", err.msg);
		rc = CLI_FOUND;
		goto out;
	}
	enum run_exec_status st = run_once(&res, m, &q, a.explain ? RUN_ONCE_EXPLAIN : 0, &err);
	if (st != RUN_EXEC_OK) {
		cli_error("%s", err.msg);
		rc = st == RUN_EXEC_LOST ? CLI_SERVER : CLI_FOUND;
		goto out;
	}
	if (qry_result_print(stdout, &res, (int)id, a.fmt) < 0) {
		rc = CLI_IO; /* main says standard output failed */
		goto out;
	}
	if (!a.sa.quiet && !a.explain && a.fmt != QRY_FORMAT_JSON)
		fprintf(stderr, "Q%ld: %" PRIu64 " rows in %.3f s (scale factor %g)\n", id,
			res.nrows, res.seconds, fp.sf);
out:
	qry_result_release(&res);
	qry_release(&q);
	if (m)
		mysql_close(m);
	srv_free(s);
	srv_opts_release(&a.sa.srv);
	return rc;
}
