/* SPDX-License-Identifier: MIT */
/* Small helpers of the server module: programs found and run, log excerpts, versions. */
#include "server/srv_int.h"
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>

/* ---- small helpers ---- */

int srv_is_exec(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int srv_find_in_path(char out[PATHLEN], const char *name)
{
	const char *path = getenv("PATH");
	char buf[PATHLEN * 2];
	snprintf(buf, sizeof(buf), "%s:/usr/sbin:/usr/local/sbin:/usr/bin:/usr/local/bin:/sbin",
		 path ? path : "");
	for (char *save = NULL, *dir = strtok_r(buf, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		if (!*dir)
			continue;
		if (snprintf(out, PATHLEN, "%s/%s", dir, name) < PATHLEN && srv_is_exec(out))
			return 0;
	}
	return -1;
}

int srv_find_binary(const char *name)
{
	char path[PATHLEN];
	return srv_find_in_path(path, name);
}

int srv_absolute(char *out, size_t len, const char *path)
{
	if (path[0] == '/')
		return snprintf(out, len, "%s", path) < (int)len ? 0 : -1;
	char cwd[PATHLEN];
	if (!getcwd(cwd, sizeof(cwd)))
		return -1;
	return snprintf(out, len, "%s/%s", cwd, path) < (int)len ? 0 : -1;
}

int srv_canonical(char *out, size_t len, const char *path)
{
	char abs[PATHLEN], parent[PATHLEN], real[PATH_MAX];
	if (srv_absolute(abs, sizeof(abs), path) < 0)
		return -1;
	if (realpath(abs, real)) /* an existing DIR, or a link to one: where it really is */
		return snprintf(out, len, "%s", real) < (int)len ? 0 : -1;
	if (errno != ENOENT)
		return snprintf(out, len, "%s", abs) < (int)len ? 0 : -1;
	size_t n = strlen(abs); /* a DIR to make: its parent resolved, its name kept */
	while (n > 1 && abs[n - 1] == '/')
		abs[--n] = '\0';
	char *slash = strrchr(abs, '/');
	snprintf(parent, sizeof(parent), "%.*s", slash && slash > abs ? (int)(slash - abs) : 1, abs);
	if (!slash || !realpath(parent, real))
		return snprintf(out, len, "%s", abs) < (int)len ? 0 : -1;
	return snprintf(out, len, "%s%s%s", real, strcmp(real, "/") ? "/" : "", slash + 1) <
		       (int)len
		   ? 0
		   : -1;
}

uint64_t srv_ram_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

double srv_now_s(void)
{
	return (double)util_now_ns() / 1e9;
}

int srv_fork_piped(int fds[2], pid_t *out_pid, struct errbuf *err)
{
	if (pipe2(fds, O_CLOEXEC) < 0)
		return errbuf_errno(err, errno, "cannot create a pipe");
	*out_pid = fork();
	if (*out_pid < 0) {
		int e = errno;
		close(fds[0]);
		close(fds[1]);
		return errbuf_errno(err, e, "cannot fork");
	}
	return 0;
}

int srv_run_capture(char *const argv[], const struct srv_ident *id, const char *const *env,
		    size_t cap, char **out, struct errbuf *err)
{
	int fds[2];
	struct srv_ident server;
	*out = NULL;
	if (!id) { /* a binary a user or a file named: never run as root */
		if (srv_ident_get(&server, SRV_SERVER_USER, err) < 0)
			return -1;
		id = &server;
	}
	pid_t pid;
	if (srv_fork_piped(fds, &pid, err) < 0)
		return -1;
	if (pid == 0) {
		setpgid(0, 0); /* Ctrl-C reaches dbt3stab, whose handler stops the whole group */
		int devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		if (srv_ident_become(id) < 0) {
			dprintf(2, "cannot become user '%s': %s\n", id->name, strerror(errno));
			_exit(127);
		}
		if (env)
			execve(argv[0], argv, (char *const *)env);
		else
			execv(argv[0], argv);
		dprintf(2, "cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	srv_reg_add(pid);
	close(fds[1]);
	size_t len = 0;
	char *buf = malloc(cap + 1), chunk[8192];
	for (;;) {
		ssize_t r = read(fds[0], chunk, sizeof(chunk));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (buf && len + (size_t)r <= cap) {
			memcpy(buf + len, chunk, (size_t)r);
			len += (size_t)r;
		}
	}
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			int e = errno;
			srv_reg_remove(pid);
			free(buf);
			return errbuf_errno(err, e, "cannot wait for '%s'", argv[0]);
		}
	}
	srv_reg_remove(pid);
	if (!buf)
		return errbuf_set(err, "out of memory");
	buf[len] = '\0';
	*out = buf;
	return status;
}

/* The last nlines of text (pointer into it). */
static const char *tail_lines(const char *text, size_t len, int nlines)
{
	const char *p = text + len;
	while (p > text && (p[-1] == '\n' || p[-1] == ' '))
		p--;
	int seen = 0;
	while (p > text) {
		if (p[-1] == '\n' && ++seen >= nlines)
			break;
		p--;
	}
	return p;
}

/* The most telling lines of a server log or initializer output, fitted into out[budget]: only
 * what follows the last start marker; the [ERROR] lines when there are any, else the last
 * lines; the newest lines are kept when space runs out. */
void srv_excerpt(const char *text, char *out, size_t budget)
{
	out[0] = '\0';
	if (!text || budget < 2)
		return;
	const char *from = text, *m;
	while ((m = strstr(from, START_MARKER)) != NULL) {
		const char *nl = strchr(m, '\n');
		from = nl ? nl + 1 : m + strlen(m);
		text = from;
	}
	int errors_only = strstr(text, "[ERROR]") != NULL || strstr(text, "ERROR:") != NULL;
	const char *end = text + strlen(text);
	size_t used = 0;
	/* walk lines backwards, prepending the ones that qualify and fit */
	while (end > text) {
		const char *line_end = end;
		while (line_end > text && (line_end[-1] == '\n' || line_end[-1] == '\r'))
			line_end--;
		const char *line = line_end;
		while (line > text && line[-1] != '\n')
			line--;
		end = line;
		size_t len = (size_t)(line_end - line);
		if (len == 0)
			continue;
		if (errors_only && !memmem(line, len, "[ERROR]", 7) &&
		    !memmem(line, len, "ERROR:", 6))
			continue;
		if (used + len + 2 > budget)
			break;
		memmove(out + len + (used ? 1 : 0), out, used + 1);
		memcpy(out, line, len);
		if (used)
			out[len] = '\n';
		used += len + (used ? 1 : 0);
	}
}

void srv_log_excerpt(const struct srv *s, char *out, size_t budget)
{
	char *text = NULL;
	out[0] = '\0';
	if (srv_log_read(s, &text, NULL) == 0) {
		srv_excerpt(text, out, budget);
		free(text);
	}
	if (!out[0])
		snprintf(out, budget, "(error log empty)");
}

void srv_describe_status(char *out, size_t len, int status)
{
	if (WIFEXITED(status))
		snprintf(out, len, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(out, len, "was killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(out, len, "stopped (status 0x%x)", status);
}

int srv_parse_version(const char *line, enum srv_flavour *out_flavour, int out_version[3],
		      char *out_string, size_t string_len)
{
	const char *ver = line ? strstr(line, "Ver ") : NULL;
	if (!ver)
		return -1;
	ver += 4;
	int v[3] = {0, 0, 0};
	if (sscanf(ver, "%d.%d.%d", &v[0], &v[1], &v[2]) < 2)
		return -1;
	size_t n = strcspn(ver, " \t\n");
	if (out_string && string_len) {
		if (n >= string_len)
			n = string_len - 1;
		memcpy(out_string, ver, n);
		out_string[n] = '\0';
	}
	memcpy(out_version, v, sizeof(v));
	*out_flavour = strstr(line, "MariaDB") ? SRV_FLAVOUR_MARIADB : SRV_FLAVOUR_MYSQL;
	return 0;
}

/* Reads at most n - 1 bytes of a small file (a /proc entry) into buf, always NUL-terminated;
 * the byte count, or -1. */
ssize_t srv_read_small(const char *path, char *buf, size_t n)
{
	buf[0] = '\0';
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t r = read(fd, buf, n - 1);
	close(fd);
	buf[r > 0 ? r : 0] = '\0';
	return r;
}

int srv_server_ident(const struct srv *s, struct srv_ident *out)
{
	struct errbuf ignored;
	if (s->have_ident) {
		*out = s->ident;
		return 0;
	}
	return srv_ident_get(out, SRV_SERVER_USER, &ignored);
}

char *srv_error_log_tail(const struct srv *s, int nlines)
{
	char *text = NULL;
	size_t len = 0;
	if (s->external || srv_log_read(s, &text, &len) < 0)
		return strdup("");
	const char *t = tail_lines(text, len, nlines);
	size_t n = strlen(t);
	while (n && (t[n - 1] == '\n' || t[n - 1] == ' '))
		n--;
	char *out = strndup(t, n);
	free(text);
	return out;
}

int srv_free_port(struct errbuf *err)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errbuf_errno(err, errno, "cannot create a socket");
	struct sockaddr_in a;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = 0;
	socklen_t len = sizeof(a);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) < 0) {
		int e = errno;
		close(fd);
		return errbuf_errno(err, e, "cannot bind a port on 127.0.0.1");
	}
	close(fd);
	return ntohs(a.sin_port);
}
