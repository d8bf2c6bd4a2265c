/* SPDX-License-Identifier: MIT */
/* The scale factor from the loaded data (commands/cmd_scale.h). */
#include "commands/cmd_scale.h"
#include "base/cli.h"
#include "dbt3/load.h"

int cmd_scale_loaded(double *out, struct srv_opts *o, const char *db, int quiet, const char *cmd)
{
	struct errbuf err = {{0}};
	struct srv *s = NULL;
	MYSQL *m = NULL;
	struct load_fingerprint fp;
	int started = 0, rc = CLI_SERVER, r = -1;
	if (srv_opts_finish(o, &err) < 0)
		return cli_usage_error(cmd, "%s", err.msg);
	/* an instance never initialised holds no load: nothing is made there */
	if (srv_instance_check(o, &err) < 0 || srv_open(&s, o, &err) < 0 ||
	    srv_ensure_started(s, NULL, &started, &err) < 0 || !(m = srv_connect(s, NULL, &err)) ||
	    (r = load_fingerprint_read(m, db, &fp, &err)) == -1 || r < LOAD_E_NONE) {
		cli_error("%s", err.msg);
	} else if (r == LOAD_E_NONE) {
		rc = cli_usage_error(cmd,
				     "the scale factor (-s SF) is required: database '%s' holds no "
				     "complete load to take it from",
				     db);
	} else {
		*out = fp.sf;
		cli_info(quiet, "scale factor %g, from the loaded data", fp.sf);
		rc = CLI_OK;
	}
	if (m)
		mysql_close(m);
	srv_free(s); /* stops the server when this started it */
	return rc;
}
