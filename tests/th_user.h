/* SPDX-License-Identifier: MIT */
/* Test-only (in dbt3_harness): the second, unprivileged OS user of the security tests, a system
 * user with no home and no login shell, made by useradd and removed by userdel at exit, on
 * SIGINT or SIGTERM, or by th_user_remove. Needs root. */
#ifndef DBT3_TH_USER_H
#define DBT3_TH_USER_H
#include <stddef.h>

/* Makes the user prefix<pid> (at most 31 characters) and copies its name into out (len >= 32).
 * 0, or -1 when useradd failed (its output on stderr, out ""). One such user at a time. */
int th_user_make(char *out, size_t len, const char *prefix);

/* Removes the user th_user_make made, if any (also at exit and on a signal). */
void th_user_remove(void);

struct th_db;
struct th_case;

/* The main of a security db test: th_db_begin (tag in the temp dir's name); as root, the second
 * user (th_user_make with prefix, its name into user) and `dbt3stab server init` of db's
 * instance; th_run of suite's cases; then th_db_end and th_user_remove whatever happened. The
 * exit code: th_run's, 1 when the init failed, 2 when th_db_begin did. */
int th_user_db_main(struct th_db *db, char *user, size_t len, const char *prefix, const char *tag,
		    const char *suite, const struct th_case *cases, int argc, char **argv);

#endif
