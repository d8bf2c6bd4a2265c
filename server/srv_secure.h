/* SPDX-License-Identifier: MIT */
/* Who can reach a managed server (docs/server.md): the OS user the server runs as, the
 * instance's accounts and passwords (DIR/client.cnf), the SQL that secures a fresh datadir. */
#ifndef DBT3_SRV_SECURE_H
#define DBT3_SRV_SECURE_H
#include "server/srv.h"
#include <mysql.h>
#include <sys/types.h>

/* The unprivileged system user a root-invoked dbt3stab runs the server as (the one Debian's
 * mariadb-server and MySQL's packages create). */
#define SRV_SERVER_USER "mysql"
/* The account the tool itself uses; root's password is kept for the human only. */
#define SRV_TOOL_ACCOUNT "dbt3stab"

/* The OS identity of the server and its initializer. drop = 0: the tool's own (not root). */
struct srv_ident {
	int drop;
	uid_t uid;
	gid_t gid;
	char name[64];
};

/* As root: the system user `name` (SRV_SERVER_USER), or -1 with a clear line when it does not
 * exist; otherwise the caller's own identity (drop = 0). */
int srv_ident_get(struct srv_ident *out, const char *name, struct errbuf *err);

/* In a forked child: setgroups/setgid/setuid to id when id->drop; 0 or -1 (errno set). */
int srv_ident_become(const struct srv_ident *id);

/* Checks that id can traverse every existing directory on the way to path (a forked probe that
 * becomes id and calls access(X_OK)); -1 with a line naming the blocking directory. */
int srv_ident_can_reach(const struct srv_ident *id, const char *path, struct errbuf *err);

/* Passwords and the account names, as kept in DIR/client.cnf. */
struct srv_creds {
	char user[64];
	char password[64];
	char root_password[64];
};

/* n - 1 random characters [A-Za-z0-9] from OpenSSL's RAND_bytes (rejection sampling, no modulo
 * bias) and a NUL; 0, or -1 when the generator fails. */
int srv_password_new(char *out, size_t n, struct errbuf *err);

/* Fills c with SRV_TOOL_ACCOUNT and two new passwords. */
int srv_creds_new(struct srv_creds *c, struct errbuf *err);

/* Writes path (mode 0600, atomically; owner: the caller) as a client option file: [client]
 * user, password, socket; [client_root] user=root and its password. */
int srv_creds_write(const struct srv_creds *c, const char *path, const char *socket,
		    struct errbuf *err);

/* Reads path: 1 read, 0 absent, -1 refused (not a regular file owned by the caller with mode
 * 0600 or stricter, or without [client] user/password). */
int srv_creds_read(struct srv_creds *out, const char *path, struct errbuf *err);

/* The statement that lists the accounts to review (user, host), per flavour (MariaDB has roles
 * in mysql.user). */
const char *srv_secure_list_sql(enum srv_flavour f);

/* Nonzero for an account the securing keeps: root@localhost, the tool account on localhost,
 * 127.0.0.1 and ::1, and the servers' own system accounts. */
int srv_secure_keeps(const char *user, const char *host);

/* On a connection as root: drops every other account (anonymous, host-name, 127.0.0.1 root),
 * sets root's password, creates or resets the tool account (all privileges but FILE and GRANT
 * OPTION). Idempotent. */
int srv_secure_accounts(MYSQL *m, enum srv_flavour f, const struct srv_creds *c,
			struct errbuf *err);

#endif
