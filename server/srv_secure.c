/* SPDX-License-Identifier: MIT */
/* Who can reach a managed server: server OS user, passwords, client.cnf, account securing. */
#include "server/srv_secure.h"
#include "base/safe_write.h"
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <openssl/rand.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the server's OS user ---- */

int srv_ident_get(struct srv_ident *out, const char *name, struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	if (geteuid() != 0) {
		out->uid = geteuid();
		out->gid = getegid();
		struct passwd *pw = getpwuid(out->uid);
		snprintf(out->name, sizeof(out->name), "%s", pw ? pw->pw_name : "");
		return 0;
	}
	struct passwd *pw = getpwnam(name);
	if (!pw)
		return errbuf_set(err,
				  "running as root, dbt3stab runs the server as the system user "
				  "'%s', which does not exist: install mariadb-server (it creates "
				  "it), create it (useradd --system %s), or run dbt3stab as an "
				  "ordinary user",
				  name, name);
	if (pw->pw_uid == 0)
		return errbuf_set(err, "the server user '%s' has uid 0: dbt3stab never runs the "
				       "server as root",
				  name);
	out->drop = 1;
	out->uid = pw->pw_uid;
	out->gid = pw->pw_gid;
	snprintf(out->name, sizeof(out->name), "%s", name);
	return 0;
}

int srv_ident_become(const struct srv_ident *id)
{
	if (!id || !id->drop)
		return 0;
	gid_t g = id->gid;
	if (setgroups(1, &g) < 0 || setgid(id->gid) < 0 || setuid(id->uid) < 0)
		return -1;
	if (setuid(0) == 0) { /* the drop must be irreversible */
		errno = EPERM;
		return -1;
	}
	return 0;
}

/* In the probe child: the index of the first prefix of path (components "/a", "/a/b", ...) that
 * exists and id cannot search, or 0. Only existing prefixes: the rest is made later. */
static int first_blocked(const char *path)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", path);
	size_t n = strlen(buf), i = 0;
	int k = 0;
	while (i <= n) {
		if (i == n || (buf[i] == '/' && i > 0)) {
			char c = buf[i];
			buf[i] = '\0';
			k++;
			struct stat st;
			if (stat(buf, &st) == 0) {
				if (S_ISDIR(st.st_mode) && access(buf, X_OK) < 0)
					return k;
			} else if (errno == EACCES) {
				return k;
			}
			buf[i] = c;
		}
		i++;
	}
	return 0;
}

int srv_ident_can_reach(const struct srv_ident *id, const char *path, struct errbuf *err)
{
	if (!id->drop)
		return 0;
	pid_t pid = fork();
	if (pid < 0)
		return errbuf_errno(err, errno, "cannot fork");
	if (pid == 0)
		_exit(srv_ident_become(id) < 0 ? 255 : first_blocked(path));
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return errbuf_errno(err, errno, "cannot wait for a child");
	if (!WIFEXITED(st) || WEXITSTATUS(st) == 255)
		return errbuf_set(err, "cannot switch to the server user '%s'", id->name);
	int k = WEXITSTATUS(st);
	if (k == 0)
		return 0;
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	char *p = dir;
	for (int seen = 0; *p; p++)
		if (*p == '/' && p != dir && ++seen == k)
			break;
	*p = '\0';
	return errbuf_set(err,
			  "the server runs as user '%s', which cannot reach '%s' (no search "
			  "permission on '%s'): choose a --datadir it can reach (e.g. under "
			  "/var/lib/dbt3stab) or allow it (chmod o+x '%s')",
			  id->name, path, dir, dir);
}

/* ---- passwords and client.cnf ---- */

int srv_password_new(char *out, size_t n, struct errbuf *err)
{
	static const char alphabet[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	size_t have = 0;
	if (n == 0)
		return errbuf_set(err, "empty password buffer");
	while (have + 1 < n) {
		unsigned char bytes[64];
		if (RAND_bytes(bytes, sizeof(bytes)) != 1)
			return errbuf_set(err, "the random generator failed (RAND_bytes)");
		for (size_t i = 0; i < sizeof(bytes) && have + 1 < n; i++)
			if (bytes[i] < 248) /* 248 = 4 * 62: uniform over the alphabet */
				out[have++] = alphabet[bytes[i] % 62];
	}
	out[have] = '\0';
	return 0;
}

int srv_creds_new(struct srv_creds *c, struct errbuf *err)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->user, sizeof(c->user), "%s", SRV_TOOL_ACCOUNT);
	/* 32 characters of 62: about 190 bits */
	if (srv_password_new(c->password, 33, err) < 0 ||
	    srv_password_new(c->root_password, 33, err) < 0)
		return -1;
	return 0;
}

int srv_creds_write(const struct srv_creds *c, const char *path, const char *socket,
		    struct errbuf *err)
{
	struct util_out o; /* a private temp file beside path, 0600, renamed (base/safe_write.h) */
	if (util_out_open(&o, path, 0600, err) < 0)
		return -1;
	int fd = dup(o.fd);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		util_out_abort(&o);
		return errbuf_errno(err, e, "cannot write '%s'", path);
	}
	fprintf(f,
		"# dbt3stab: the credentials of this instance, made at init. Keep it private.\n"
		"# mariadb --defaults-file=THIS              the tool's account\n"
		"# mariadb --defaults-file=THIS --defaults-group-suffix=_root   root\n"
		"[client]\nuser = %s\npassword = %s\nsocket = \"%s\"\n"
		"\n[client_root]\nuser = root\npassword = %s\n",
		c->user, c->password, socket, c->root_password);
	int bad = fflush(f) != 0;
	if (fclose(f) != 0 || bad) {
		int e = errno;
		util_out_abort(&o);
		return errbuf_errno(err, e, "cannot write '%s'", path);
	}
	return util_out_commit(&o, err);
}

/* "name = value" in the current group; value unquoted. */
static void creds_line(struct srv_creds *c, const char *group, char *line)
{
	char *eq = strchr(line, '=');
	if (!eq)
		return;
	char *name = line, *value = eq + 1, *e = eq;
	while (e > name && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	*e = '\0';
	while (*value == ' ' || *value == '\t')
		value++;
	size_t vl = strcspn(value, "\r\n");
	while (vl && (value[vl - 1] == ' ' || value[vl - 1] == '\t'))
		vl--;
	value[vl] = '\0';
	if (vl >= 2 && value[0] == '"' && value[vl - 1] == '"') {
		value[vl - 1] = '\0';
		value++;
	}
	int is_client = strcmp(group, "client") == 0, is_root = strcmp(group, "client_root") == 0;
	if (is_client && strcmp(name, "user") == 0)
		snprintf(c->user, sizeof(c->user), "%s", value);
	else if (is_client && strcmp(name, "password") == 0)
		snprintf(c->password, sizeof(c->password), "%s", value);
	else if (is_root && strcmp(name, "password") == 0)
		snprintf(c->root_password, sizeof(c->root_password), "%s", value);
}

int srv_creds_read(struct srv_creds *out, const char *path, struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		return errbuf_errno(err, errno, "cannot open '%s'", path);
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077) || st.st_size > 65536) {
		close(fd);
		return errbuf_set(err,
				  "refusing '%s': it must be a regular file owned by uid %d with "
				  "mode 0600",
				  path, (int)geteuid());
	}
	FILE *f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return errbuf_errno(err, errno, "cannot read '%s'", path);
	}
	char line[512], group[64] = "";
	while (fgets(line, sizeof(line), f)) {
		char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '[') {
			size_t gl = strcspn(p + 1, "]");
			snprintf(group, sizeof(group), "%.*s", (int)gl, p + 1);
		} else if (*p && *p != '#' && *p != ';') {
			creds_line(out, group, p);
		}
	}
	fclose(f);
	if (!out->user[0] || !out->password[0])
		return errbuf_set(err, "'%s' has no [client] user and password", path);
	return 1;
}

/* ---- securing the accounts ---- */

const char *srv_secure_list_sql(enum srv_flavour f)
{
	/* MariaDB keeps roles in mysql.user (is_role); MySQL 8 has no such column */
	return f == SRV_FLAVOUR_MARIADB ? "SELECT User, Host FROM mysql.user WHERE is_role = 'N'"
					: "SELECT User, Host FROM mysql.user";
}

int srv_secure_keeps(const char *user, const char *host)
{
	static const char *const system[] = {"mariadb.sys", "mysql.sys", "mysql.session",
					     "mysql.infoschema", NULL};
	for (int i = 0; system[i]; i++)
		if (strcmp(user, system[i]) == 0)
			return 1;
	if (strcmp(user, "root") == 0)
		return strcmp(host, "localhost") == 0;
	if (strcmp(user, SRV_TOOL_ACCOUNT) == 0)
		return strcmp(host, "localhost") == 0 || strcmp(host, "127.0.0.1") == 0 ||
		       strcmp(host, "::1") == 0;
	return 0;
}

static int sql(MYSQL *m, const char *stmt, const char *what, struct errbuf *err)
{
	if (mysql_query(m, stmt) != 0)
		return errbuf_set(err, "cannot secure the instance (%s): %s", what, mysql_error(m));
	return 0;
}

/* Drops every account srv_secure_keeps() does not keep. */
static int drop_others(MYSQL *m, enum srv_flavour f, struct errbuf *err)
{
	if (sql(m, srv_secure_list_sql(f), "list the accounts", err) < 0)
		return -1;
	MYSQL_RES *res = mysql_store_result(m);
	if (!res)
		return errbuf_set(err, "cannot list the accounts: %s", mysql_error(m));
	MYSQL_ROW row;
	int rc = 0;
	while (rc == 0 && (row = mysql_fetch_row(res))) {
		const char *u = row[0] ? row[0] : "", *h = row[1] ? row[1] : "";
		if (srv_secure_keeps(u, h))
			continue;
		char eu[160], eh[600], stmt[800];
		if (strlen(u) >= 80 || strlen(h) >= 300)
			continue; /* longer than either server allows */
		mysql_real_escape_string(m, eu, u, (unsigned long)strlen(u));
		mysql_real_escape_string(m, eh, h, (unsigned long)strlen(h));
		snprintf(stmt, sizeof(stmt), "DROP USER '%s'@'%s'", eu, eh);
		rc = sql(m, stmt, "drop an account", err);
	}
	mysql_free_result(res);
	return rc;
}

int srv_secure_accounts(MYSQL *m, enum srv_flavour f, const struct srv_creds *c,
			struct errbuf *err)
{
	static const char *const hosts[] = {"localhost", "127.0.0.1", "::1", NULL};
	char stmt[512];
	if (drop_others(m, f, err) < 0)
		return -1;
	/* grants the anonymous account had on test databases outlive it in mysql.db */
	if (sql(m, "DELETE FROM mysql.db WHERE User = ''", "remove anonymous grants", err) < 0)
		return -1;
	for (int i = 0; hosts[i]; i++) {
		snprintf(stmt, sizeof(stmt), "CREATE USER IF NOT EXISTS '%s'@'%s'", c->user,
			 hosts[i]);
		if (sql(m, stmt, "create the tool's account", err) < 0)
			return -1;
		snprintf(stmt, sizeof(stmt), "ALTER USER '%s'@'%s' IDENTIFIED BY '%s'", c->user,
			 hosts[i], c->password);
		if (sql(m, stmt, "set the tool's password", err) < 0)
			return -1;
		snprintf(stmt, sizeof(stmt), "GRANT ALL PRIVILEGES ON *.* TO '%s'@'%s'", c->user,
			 hosts[i]);
		if (sql(m, stmt, "grant the tool's account", err) < 0)
			return -1;
		/* LOAD DATA LOCAL INFILE needs no FILE privilege; nothing else the tool does
		 * reads or writes server-side files */
		snprintf(stmt, sizeof(stmt), "REVOKE FILE ON *.* FROM '%s'@'%s'", c->user,
			 hosts[i]);
		if (sql(m, stmt, "revoke FILE from the tool's account", err) < 0)
			return -1;
	}
	snprintf(stmt, sizeof(stmt), "ALTER USER 'root'@'localhost' IDENTIFIED BY '%s'",
		 c->root_password);
	if (sql(m, stmt, "set root's password", err) < 0)
		return -1;
	return sql(m, "FLUSH PRIVILEGES", "flush privileges", err);
}
