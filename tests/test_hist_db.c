/* SPDX-License-Identifier: MIT */
/* The history store in a real private MariaDB (started here, on its socket): the cases of
 * tests/hist_store_cases.h through mysql://, and a store that cannot be reached. */
#include "tests/hist_store_cases.h"
#include "tests/th_db.h"
#include <sys/stat.h>

static struct th_db db; /* the instance, started in main */
static char url[9000];
static int server_rc = -1;
static struct errbuf server_err;

TH_TEST(hist_db, server_started)
{
	if (server_rc != 0)
		fprintf(stderr, "private server: %s\n", server_err.msg);
	CU_ASSERT_EQUAL_FATAL(server_rc, 0);
}

TH_TEST(hist_db, unreachable_store_is_one_line_error)
{
	struct errbuf err = {""};
	struct hist_store *st = NULL;
	char bad[200];
	int port = srv_free_port(&err);
	CU_ASSERT_TRUE_FATAL(port > 0);
	snprintf(bad, sizeof(bad), "mysql://root@127.0.0.1:%d/nowhere", port);
	CU_ASSERT_EQUAL(hist_store_open(&st, bad, &err), -1);
	CU_ASSERT_PTR_NULL(st);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "cannot connect to history store"));
	CU_ASSERT_PTR_NULL(strchr(err.msg, '\n'));
	CU_ASSERT_EQUAL(hist_store_open(&st, "mysql://root:secret@localhost/x", &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "no password in the URL"));
}

int main(int argc, char **argv)
{
	struct srv_opts o;
	struct srv *s = NULL;
	struct errbuf err;
	if (th_db_begin(&db, "hist_db") < 0)
		return 2;
	th_db_opts(&db, &o, 128u << 20);
	if (srv_open(&s, &o, &server_err) == 0 && srv_init_datadir(s, &server_err) == 0)
		server_rc = srv_start(s, NULL, &server_err);
	/* a managed server keeps the credentials of its account in DIR/client.cnf (docs/server.md)
	 */
	char cnf[4300];
	struct stat sb;
	snprintf(cnf, sizeof(cnf), "%s/client.cnf", db.inst);
	/* with it, the tool's account and its password (root's is in [client_root]) */
	int have_cnf = stat(cnf, &sb) == 0;
	snprintf(url, sizeof(url), "mysql://%s@localhost/dbt3hist?socket=%s%s%s",
		 have_cnf ? "dbt3stab" : "root", s ? srv_socket_path(s) : "",
		 have_cnf ? "&option-file=" : "", have_cnf ? cnf : "");
	hsc_location = url;
	hsc_dir = db.tmp;
	int rc = th_run("hist_db", th_cases(), argc, argv);
	if (s) {
		srv_stop(s, &err);
		srv_free(s);
	}
	srv_opts_release(&o);
	th_db_end(&db);
	return rc;
}
