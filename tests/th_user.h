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

#endif
