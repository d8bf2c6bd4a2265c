/* SPDX-License-Identifier: MIT */
/* Unit tests of server/srv_priv.c: work done in a child that became the server's user. */
#include "server/srv_priv.h"
#include "tests/harness.h"
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What the child saw: its real and effective ids, and whether it could go back to root. */
struct ids_seen {
	uid_t uid, euid;
	gid_t gid;
	int regained_root;
};

static int report_ids(void *arg, void *out, struct errbuf *err)
{
	(void)arg;
	(void)err;
	struct ids_seen *s = out;
	s->uid = getuid();
	s->euid = geteuid();
	s->gid = getgid();
	s->regained_root = setuid(0) == 0;
	return 0;
}

static int fail_with_arg(void *arg, void *out, struct errbuf *err)
{
	(void)out;
	return errbuf_set(err, "refused: %s", (const char *)arg);
}

static int die(void *arg, void *out, struct errbuf *err)
{
	(void)arg;
	(void)out;
	(void)err;
	raise(SIGKILL);
	return 0;
}

/* Writes to the caller's memory: the change must stay in the child. */
static int touch_parent_memory(void *arg, void *out, struct errbuf *err)
{
	(void)out;
	(void)err;
	*(int *)arg = 42;
	return 0;
}

TH_TEST(srv_priv, runs_as_the_caller_without_a_drop)
{
	struct srv_ident self = {0};
	struct ids_seen s;
	struct errbuf err;
	memset(&s, 0xff, sizeof(s));
	self.uid = geteuid();
	CU_ASSERT_EQUAL_FATAL(srv_priv_run(&self, report_ids, NULL, &s, sizeof(s), &err), 0);
	CU_ASSERT_EQUAL(s.uid, getuid());
	CU_ASSERT_EQUAL(s.euid, geteuid());
	int mine = 7;
	CU_ASSERT_EQUAL(srv_priv_run(&self, touch_parent_memory, &mine, NULL, 0, &err), 0);
	CU_ASSERT_EQUAL(mine, 7);
}

TH_TEST(srv_priv, the_childs_message_and_death_come_back)
{
	struct srv_ident self = {0};
	struct errbuf err;
	char arg[] = "planted link at 'x'";
	CU_ASSERT_EQUAL(srv_priv_run(&self, fail_with_arg, arg, NULL, 0, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.msg, "refused: planted link at 'x'");
	CU_ASSERT_EQUAL(srv_priv_run(&self, die, NULL, NULL, 0, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "died of signal 9"));
}

TH_TEST(srv_priv, as_root_the_child_is_the_server_user_for_good)
{
	if (geteuid() != 0) {
		th_skip("needs root: the switch to the server's user");
		return;
	}
	struct passwd *pw = getpwnam(SRV_SERVER_USER);
	if (!pw) {
		th_skip("no 'mysql' user on this machine");
		return;
	}
	struct srv_ident id;
	struct errbuf err;
	CU_ASSERT_EQUAL_FATAL(srv_ident_get(&id, SRV_SERVER_USER, &err), 0);
	struct ids_seen s;
	memset(&s, 0, sizeof(s));
	CU_ASSERT_EQUAL_FATAL(srv_priv_run(&id, report_ids, NULL, &s, sizeof(s), &err), 0);
	CU_ASSERT_EQUAL(s.uid, pw->pw_uid);
	CU_ASSERT_EQUAL(s.euid, pw->pw_uid);
	CU_ASSERT_EQUAL(s.gid, pw->pw_gid);
	CU_ASSERT_EQUAL(s.regained_root, 0);
	CU_ASSERT_EQUAL(geteuid(), 0); /* the parent stays root */
}

TH_MAIN(srv_priv)
