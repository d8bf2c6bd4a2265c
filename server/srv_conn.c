/* SPDX-License-Identifier: MIT */
/* Connections to the server: the managed account or the external options. */
#include "server/srv_int.h"
#include <pthread.h>

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;
static void lib_init(void)
{
	mysql_library_init(0, NULL, NULL);
}

/* The account a managed instance is reached with: the tool's from DIR/client.cnf; root (with
 * the new password, then none) while securing; root without a password for an instance an
 * older version made (no client.cnf: only to stop it or to secure it). */
static int managed_account(struct srv *s, int attempt, const char **user, const char **pass,
			   struct errbuf *err)
{
	if (s->securing) {
		*user = "root";
		*pass = attempt == 0 ? s->root_password : NULL;
		return attempt < 2 ? 0 : 1;
	}
	if (attempt > 0)
		return 1;
	if (s->creds_state != 1) {
		int r = srv_creds_read(&s->creds, s->clientcnf, err);
		if (r < 0)
			return -1;
		s->creds_state = r ? 1 : -1;
	}
	*user = s->creds_state == 1 ? s->creds.user : "root";
	*pass = s->creds_state == 1 ? s->creds.password : NULL;
	return 0;
}

/* A connection, or NULL with the server's or the client library's message in err and its error
 * number in *out_errno (0 when no attempt was made). */
MYSQL *srv_connect_timeout(struct srv *s, const char *db, unsigned timeout, unsigned *out_errno,
			   struct errbuf *err)
{
	pthread_once(&lib_once, lib_init);
	if (out_errno)
		*out_errno = 0;
	for (int attempt = 0;; attempt++) {
		const char *host, *user, *pass = NULL, *sock;
		unsigned port = 0;
		if (s->external) {
			if (attempt > 0)
				return NULL;
			host = s->o->host;
			user = s->o->user;
			pass = getenv("MYSQL_PWD");
			sock = s->o->socket;
			port = s->o->port ? (unsigned)s->o->port : 0;
		} else {
			int r = managed_account(s, attempt, &user, &pass, err);
			if (r != 0)
				return NULL;
			host = "localhost";
			sock = s->sock;
		}
		MYSQL *m = mysql_init(NULL);
		if (!m)
			return errbuf_set(err, "out of memory"), NULL;
		unsigned one = 1;
		mysql_options(m, MYSQL_OPT_LOCAL_INFILE, &one);
		mysql_options(m, MYSQL_SET_CHARSET_NAME, "utf8mb4");
		mysql_options(m, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
		if (s->external) {
			if (s->o->defaults_extra_file)
				mysql_options(m, MYSQL_READ_DEFAULT_FILE,
					      s->o->defaults_extra_file);
			mysql_options(m, MYSQL_READ_DEFAULT_GROUP, "client");
		}
		if (mysql_real_connect(m, host, user, pass, db, port, sock, CLIENT_LOCAL_FILES))
			return m;
		const char *where = s->external ? (sock	  ? sock
						   : host ? host
							  : "localhost")
						: s->sock;
		errbuf_set(err, "cannot connect to the server at '%s': %s", where, mysql_error(m));
		if (out_errno)
			*out_errno = mysql_errno(m);
		mysql_close(m);
	}
}

MYSQL *srv_connect(struct srv *s, const char *db, struct errbuf *err)
{
	return srv_connect_timeout(s, db, 10, NULL, err);
}

/* Client-library errors (CR_*, 2000-2999) mean no server answered; anything else (Access
 * denied, Unknown database, ...) came from a server. */
static int server_answered(unsigned code)
{
	return code != 0 && (code < 2000 || code >= 3000);
}

int srv_probe(struct srv *s, struct errbuf *err)
{
	unsigned code;
	MYSQL *m = srv_connect_timeout(s, NULL, 2, &code, err);
	if (!m)
		return server_answered(code) ? 1 : 0;
	int ok = mysql_ping(m) == 0;
	if (!ok)
		errbuf_set(err, "the server does not answer a ping: %s", mysql_error(m));
	mysql_close(m);
	return ok ? 2 : 0;
}

int srv_ping(struct srv *s)
{
	struct errbuf ignored;
	return srv_probe(s, &ignored) > 0;
}
