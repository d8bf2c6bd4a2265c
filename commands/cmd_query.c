/* SPDX-License-Identifier: MIT */
/* dbt3stab query N: run one query and print its result and time. */
#include "base/cli.h"
#include "dbt3/load.h"
#include "dbt3/qry.h"
#include "commands/cmd.h"
#include "commands/cmd_qry_opts.h"
#include "commands/cmd_srv_args.h"
#include "runner/run_once.h"
#include "server/srv.h"
#include <math.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the command line says. */
struct query_args {
	struct qry_opts qo;
	struct srv_opts srv;
	enum qry_format fmt;
	const char *db;
	int explain, quiet, help;
	long id;
};

static int take_format(void *dst, const struct cli_opt *row, const char *arg, struct errbuf *err)
{
	(void)row;
	(void)err;
	return qry_format_parse(arg, dst);
}

static const struct cli_opt options[] = {
    CMD_ROW_SCALE(struct query_args, qo.sf, 0,
		  "the loaded scale factor (default; another is refused)"),
    CMD_QRY_SEED_GROUP(struct query_args, qo),
    CLI_ROW_ENUM("format", "F", take_format, struct query_args, fmt, "table|tbl|json",
		 "--format takes table, tbl or json, not '%s'", "table (default), tbl or json"),
    CLI_ROW_STRING("database", 0, "NAME", struct query_args, db, "database (default dbt3)"),
    CLI_ROW_FLAG("explain", 0, struct query_args, explain,
		 "print the plan (EXPLAIN) instead of running it"),
    CLI_ROW_QUIET(struct query_args, quiet, "no time line"),
    CLI_ROW_HELP(struct query_args, help),
    CMD_SRV_GROUP(struct query_args, srv),
    {.kind = CLI_OPT_END},
};

static void usage(FILE *f)
{
	fputs("usage: dbt3stab query N [-s SF] [--seed N] [--format table|tbl|json] [options]\n"
	      "\n"
	      "Runs query N (1-22) once on the loaded database and prints its result; the time\n"
	      "of the timed statement (send, execute, fetch every row) goes to stderr.\n"
	      "--format tbl prints the layout of the TPC-H answer files (header of column names,\n"
	      "'|'-separated rows, fractions at 2 decimals) for a diff against the official "
	      "answers.\n"
	      "\n"
	      "options:\n",
	      f);
	cli_opts_usage(f, options);
	fputs("\nexit: 0 ok, 1 failure, 2 usage, 4 the server failed\n", f);
}

/* The options, then the query number. 0 (a->help: usage printed), or a CLI_* code. */
static int parse_args(struct query_args *a, int argc, char **argv)
{
	struct cli_parse p = {.cmd = "query", .base = a};
	struct errbuf err;
	int rc = cmd_parse(&p, options, usage, 1, argc, argv);
	if (rc != CLI_OK || (a->help = p.help))
		return rc;
	int next = p.next;
	if (next >= argc)
		return cli_usage_error(argv[0], "which query? (1 to %d)", QRY_COUNT);
	if (cli_parse_long(argv[next], 1, QRY_COUNT, &a->id) < 0)
		return cli_usage_error(argv[0], "no query '%s': queries are numbered 1 to %d",
				       argv[next], QRY_COUNT);
	if (srv_opts_finish(&a->srv, &err) < 0)
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
	srv_opts_init(&a.srv);
	if ((rc = parse_args(&a, argc, argv)) || a.help)
		goto out;
	const char *db = a.db;
	long id = a.id;
	int started = 0;
	/* a directory never initialised holds no load: nothing is made there */
	if (srv_instance_check(&a.srv, &err) < 0 || srv_open(&s, &a.srv, &err) < 0 ||
	    srv_ensure_started(s, NULL, &started, &err) < 0 || !(m = srv_connect(s, NULL, &err))) {
		cli_error("%s", err.msg);
		rc = CLI_SERVER;
		goto out;
	}
	cmd_srv_say_restored(s);
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
	if (a.qo.sf == 0) {
		a.qo.sf = fp.sf;
		cli_info(a.quiet, "scale factor %g, from the loaded data", fp.sf);
	}
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
	if (!a.quiet && !a.explain && a.fmt != QRY_FORMAT_JSON)
		fprintf(stderr, "Q%ld: %" PRIu64 " rows in %.3f s (scale factor %g)\n", id,
			res.nrows, res.seconds, fp.sf);
out:
	qry_result_release(&res);
	qry_release(&q);
	if (m)
		mysql_close(m);
	srv_free(s);
	srv_opts_release(&a.srv);
	return rc;
}
