/* SPDX-License-Identifier: MIT */
/* A real private MariaDB started through srv_start with pin_child_hook runs bound: every
 * thread's /proc status shows the placement's CPUs and memory nodes. */
#include "pinning/pin.h"
#include "tests/harness.h"
#include "tests/th_db.h"
#include "tests/th_pin.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct th_db db; /* the instance (initialised in main) in this test file's temp dir */
static int init_rc;

static void opts_for_test(struct srv_opts *o)
{
	th_db_opts(&db, o, 64u << 20);
}

/* Starts the server with the placement of opts; returns the started handle or NULL. */
static struct srv *start(struct pin_ctx *ctx, struct srv_opts *o)
{
	struct errbuf err;
	struct srv *s = NULL;
	opts_for_test(o);
	if (srv_open(&s, o, &err) != 0) {
		fprintf(stderr, "\nopen: %s\n", err.msg);
		return NULL;
	}
	struct srv_launch launch = {.child_hook = ctx ? pin_child_hook : NULL, .arg = ctx};
	if (ctx && pin_ctx_before_start(ctx, &err) != 0) {
		fprintf(stderr, "\nbefore start: %s\n", err.msg);
		srv_free(s);
		return NULL;
	}
	if (srv_start(s, &launch, &err) != 0) {
		fprintf(stderr, "\nstart: %s\n", err.msg);
		srv_free(s);
		return NULL;
	}
	return s;
}

static void stop(struct srv *s, struct srv_opts *o)
{
	struct errbuf err;
	if (s) {
		CU_ASSERT_EQUAL(srv_stop(s, &err), 0);
		srv_free(s);
	}
	srv_opts_release(o);
}

TH_TEST(pin_db, server_threads_run_bound)
{
	CU_ASSERT_EQUAL_FATAL(init_rc, 0);
	struct errbuf err = {{0}};
	struct th_pin_want want;
	struct pin_ctx *ctx = th_pin_ctx_bound(3, &want);
	if (!ctx)
		return;

	struct srv_opts o;
	struct srv *s = start(ctx, &o);
	CU_ASSERT_PTR_NOT_NULL(s);
	pid_t pid = s ? srv_pid(s) : 0;
	if (pid > 0) {
		int n = pin_ctx_verify(ctx, pid, &err);
		if (n < 0)
			fprintf(stderr, "\nverify: %s\n", err.msg);
		CU_ASSERT(n > 1); /* mariadbd runs many threads; all were checked */
		/* Read every thread ourselves too. */
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
		DIR *d = opendir(path);
		CU_ASSERT_PTR_NOT_NULL(d);
		struct dirent *de;
		int threads = 0;
		while (d && (de = readdir(d)) != NULL) {
			if (de->d_name[0] < '0' || de->d_name[0] > '9')
				continue;
			char cpus[256], mems[256];
			pid_t tid = (pid_t)strtol(de->d_name, NULL, 10);
			if (pin_proc_allowed(pid, tid, cpus, sizeof(cpus), mems, sizeof(mems),
					     &err) != 0)
				continue;
			threads++;
			CU_ASSERT_STRING_EQUAL(cpus, want.cpus);
			CU_ASSERT(th_pin_list_includes(mems, want.nodes));
			CU_ASSERT_EQUAL(th_pin_nice(pid, tid), 3);
		}
		if (d)
			closedir(d);
		CU_ASSERT(threads > 1);
		char line[64];
		snprintf(path, sizeof(path), "/proc/%d/personality", (int)pid);
		CU_ASSERT_EQUAL(th_read_line(path, line, sizeof(line)), 0);
		CU_ASSERT_STRING_EQUAL(line, "00040000");
		/* The server works: it answers a query. */
		MYSQL *m = srv_connect(s, NULL, &err);
		CU_ASSERT_PTR_NOT_NULL(m);
		if (m) {
			CU_ASSERT_EQUAL(mysql_query(m, "SELECT 1"), 0);
			MYSQL_RES *r = mysql_store_result(m);
			mysql_free_result(r);
			mysql_close(m);
		}
		/* Threads created after the start (connections) inherit the binding. */
		CU_ASSERT(pin_ctx_verify(ctx, pid, &err) > 1);
	}
	stop(s, &o);
	pin_ctx_free(ctx);
}

TH_TEST(pin_db, overrides_reach_the_server)
{
	struct errbuf err = {{0}};
	struct pin_ctx *ctx = NULL;
	struct pin_opts po = {0};
	po.server_cpus = "0";
	po.client_cpus = "1";
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		th_skip("one CPU online: no second CPU to place the client on");
		return;
	}
	int rc = pin_ctx_init(&ctx, &po, &err);
	if (rc != 0)
		fprintf(stderr, "\npin_ctx_init: %s\n", err.msg);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	struct srv_opts o;
	struct srv *s = start(ctx, &o);
	CU_ASSERT_PTR_NOT_NULL(s);
	if (s) {
		char cpus[256], mems[256];
		pid_t pid = srv_pid(s);
		CU_ASSERT_EQUAL(
		    pin_proc_allowed(pid, pid, cpus, sizeof(cpus), mems, sizeof(mems), &err), 0);
		CU_ASSERT_STRING_EQUAL(cpus, "0");
		CU_ASSERT(pin_ctx_verify(ctx, pid, &err) > 1);
	}
	stop(s, &o);
	pin_ctx_free(ctx);
}

TH_TEST(pin_db, verify_rejects_an_unpinned_server)
{
	struct pin_ctx *ctx = th_pin_ctx_pinned(NULL);
	if (!ctx)
		return;
	struct errbuf err = {{0}};
	struct srv_opts o;
	struct srv *s = start(NULL, &o);
	CU_ASSERT_PTR_NOT_NULL(s);
	if (s) {
		CU_ASSERT_EQUAL(pin_ctx_verify(ctx, srv_pid(s), &err), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "may run on PUs"));
	}
	stop(s, &o);
	pin_ctx_free(ctx);
}

int main(int argc, char **argv)
{
	if (th_db_begin(&db, "pindb") < 0)
		return 2;
	init_rc = th_db_init(&db, 64u << 20);
	int rc = th_run("pin_db", th_cases(), argc, argv);
	th_db_end(&db); /* whatever a failed case left running */
	return rc;
}
