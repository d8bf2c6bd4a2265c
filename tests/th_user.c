/* SPDX-License-Identifier: MIT */
/* The second OS user of the security tests (tests/th_user.h). */
#include "tests/th_user.h"
#include "tests/harness.h"
#include "tests/th_db.h"
#include "tests/th_spawn.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char made[32]; /* the user made, "" when none */

void th_user_remove(void)
{
	char ignored[512];
	if (!made[0])
		return;
	th_sh(ignored, sizeof(ignored), "userdel '%s'", made);
	made[0] = '\0';
}

static void on_signal(int sig)
{
	th_user_remove();
	signal(sig, SIG_DFL);
	raise(sig);
}

int th_user_make(char *out, size_t len, const char *prefix)
{
	char said[1 << 12];
	static int hooked;
	if (len)
		out[0] = '\0';
	if (len < sizeof(made))
		return -1;
	snprintf(made, sizeof(made), "%s%d", prefix, (int)getpid() % 1000000);
	if (th_sh(said, sizeof(said), "useradd -M -N -r -s /usr/sbin/nologin '%s'", made) != 0) {
		fprintf(stderr, "useradd %s: %s\n", made, said);
		made[0] = '\0';
		return -1;
	}
	if (!hooked) {
		atexit(th_user_remove);
		hooked = 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	snprintf(out, len, "%s", made);
	return 0;
}

int th_user_db_main(struct th_db *db, char *user, size_t len, const char *prefix, const char *tag,
		    const char *suite, const struct th_case *cases, int argc, char **argv)
{
	char out[1 << 14];
	if (th_db_begin(db, tag) < 0)
		return 2;
	if (geteuid() == 0 && th_user_make(user, len, prefix) == 0 &&
	    th_sh(out, sizeof(out), "'%s' server init -q --datadir '%s'", DBT3_BINARY, db->inst) !=
		0) {
		fprintf(stderr, "server init: %s\n", out);
		th_db_end(db);
		th_user_remove();
		return 1;
	}
	int rc = th_run(suite, cases, argc, argv);
	th_db_end(db);
	th_user_remove();
	return rc;
}
