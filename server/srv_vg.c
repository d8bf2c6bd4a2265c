/* SPDX-License-Identifier: MIT */
/* The managed server under Valgrind callgrind (docs/work.md, "Instructions"): its command line,
 * the fixed environment, the options it needs, and monitor commands sent through vgdb as the
 * server's user. */
#include "server/srv_int.h"
#include "server/srv_priv.h"
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>

/* Callgrind counts instructions inside the server's command dispatch only (background threads
 * and connection handling stay out); no cache or branch simulation (counts only). */
static const char *const vg_tool_options[] = {
    "--tool=callgrind",	    "--cache-sim=no", "--branch-sim=no", "--collect-atstart=no",
    "--toggle-collect=" SRV_VG_COLLECT, "--vgdb=yes",
};

/* The whole environment of the server and of vgdb: nothing of the caller's (its size moves the
 * stack, its locale the server's), and glibc's choice of string functions pinned to the x86-64
 * baseline with fixed cache sizes, so the counts do not follow the CPU (docs/work.md). */
/* What a vgdb or valgrind --version prints that is kept (srv_run_capture). */
#define VG_CAPTURE_MAX (1u << 20)

static const char *const vg_env[] = {
    "PATH=/usr/sbin:/usr/bin:/sbin:/bin",
    "LANG=C",
    "LC_ALL=C",
    "GLIBC_TUNABLES=" SRV_VG_TUNABLES,
    NULL,
};

const char *const *srv_vg_env(void)
{
	return vg_env;
}

/* DIR/tmp/vgdb: the FIFOs in the instance's private tmp dir, which the server's user owns. */
static void vg_prefix(const struct srv *s, char *out, size_t len)
{
	snprintf(out, len, "--vgdb-prefix=%s/tmp/vgdb", s->instdir);
}

static int vg_find(struct srv *s, char out[PATHLEN], const char *name, struct errbuf *err)
{
	(void)s;
	if (srv_find_in_path(out, name) < 0)
		return errbuf_set(err,
				  "run --instructions needs Valgrind: '%s' not found (apt-get install "
				  "valgrind; scripts/install-deps installs it)",
				  name);
	return 0;
}

int srv_vg_cmd_build(struct srv_vg_cmd *c, struct srv *s, char *defaults_arg, struct errbuf *err)
{
	size_t n = 0, k = sizeof(vg_tool_options) / sizeof(vg_tool_options[0]);
	if (sizeof(c->argv) / sizeof(c->argv[0]) < k + 6)
		return errbuf_set(err, "internal error: valgrind's argv is too small");
	if (vg_find(s, c->valgrind, "valgrind", err) < 0)
		return -1;
	vg_prefix(s, c->prefix, sizeof(c->prefix));
	snprintf(c->out, sizeof(c->out), "--callgrind-out-file=%s/tmp/callgrind.out", s->instdir);
	c->argv[n++] = c->valgrind;
	for (size_t i = 0; i < k; i++)
		c->argv[n++] = (char *)vg_tool_options[i];
	c->argv[n++] = c->prefix;
	c->argv[n++] = c->out;
	c->argv[n++] = s->binary;
	c->argv[n++] = defaults_arg;
	c->argv[n] = NULL;
	return 0;
}

int srv_vg_monitor(struct srv *s, const char *const *cmds, size_t n, char **out,
		   struct errbuf *err)
{
	char vgdb[PATHLEN], prefix[PATHLEN + 32], pid[40];
	char *argv[40];
	size_t k = 0;
	*out = NULL;
	if (!s->o->valgrind || !s->pid || n == 0 || n > 16)
		return errbuf_set(err, "the server was not started under Valgrind");
	if (vg_find(s, vgdb, "vgdb", err) < 0)
		return -1;
	vg_prefix(s, prefix, sizeof(prefix));
	snprintf(pid, sizeof(pid), "--pid=%d", (int)s->pid);
	argv[k++] = vgdb;
	argv[k++] = prefix;
	argv[k++] = pid;
	/* an idle server blocks in system calls: vgdb wakes it after 10 ms (ptrace) and gives up
	 * when it does not answer within a minute */
	argv[k++] = "--max-invoke-ms=10";
	argv[k++] = "--cmd-time-out=60";
	for (size_t i = 0; i < n; i++) {
		if (i)
			argv[k++] = "-c";
		argv[k++] = (char *)cmds[i];
	}
	argv[k] = NULL;
	char *text = NULL;
	int st = srv_run_capture(argv, &s->ident, vg_env, VG_CAPTURE_MAX, &text, err);
	if (st < 0)
		return -1;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		char why[64], excerpt[400];
		srv_describe_status(why, sizeof(why), st);
		srv_excerpt(text, excerpt, sizeof(excerpt));
		free(text);
		return errbuf_set(err,
				  "cannot reach the server's Valgrind (pid %d) through vgdb as user "
				  "'%s' (%s): %s",
				  (int)s->pid, s->ident.name, why, excerpt);
	}
	*out = text;
	return 0;
}

/* What the child that reads a dump works on. */
struct vg_dump_job {
	const char *instdir;
	srv_vg_dump_fn fn;
	void *arg;
};

#define VG_DUMP_MAX ((size_t)1 << 30) /* a dump larger than this is refused */
#define VG_DUMP_PREFIX "callgrind.out."

/* The number of a dump file "callgrind.out.N", or -1 for another name. */
static long dump_number(const char *name)
{
	size_t k = sizeof(VG_DUMP_PREFIX) - 1;
	if (strncmp(name, VG_DUMP_PREFIX, k) != 0 || !name[k])
		return -1;
	long v = 0;
	for (const char *p = name + k; *p; p++) {
		if (*p < '0' || *p > '9' || v > 100000000)
			return -1;
		v = v * 10 + (*p - '0');
	}
	return v;
}

/* Reads the regular file name in directory fd whole (at most VG_DUMP_MAX bytes). */
static int dump_read(int dfd, const char *name, char **out, size_t *out_len, struct errbuf *err)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (size_t)st.st_size > VG_DUMP_MAX) {
		int e = fd < 0 ? errno : EINVAL;
		if (fd >= 0)
			close(fd);
		return errbuf_errno(err, e, "cannot read callgrind's dump '%s'", name);
	}
	size_t cap = (size_t)st.st_size, n = 0;
	char *buf = malloc(cap + 1);
	ssize_t r = 1;
	while (buf && n < cap && (r = read(fd, buf + n, cap - n)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		n += (size_t)r;
	}
	int e = errno;
	close(fd);
	if (!buf || r < 0) {
		free(buf);
		return errbuf_errno(err, buf ? e : ENOMEM, "cannot read callgrind's dump '%s'",
				    name);
	}
	buf[n] = '\0';
	*out = buf;
	*out_len = n;
	return 0;
}

/* In the child, as the server's user: the newest dump of DIR/tmp read, every dump removed, and
 * the reader's summary into out. */
static int dump_child(void *arg, void *out, struct errbuf *err)
{
	const struct vg_dump_job *j = arg;
	char dir[PATHLEN + 8], best[NAME_MAX + 1] = "";
	long bn = -1;
	snprintf(dir, sizeof(dir), "%s/tmp", j->instdir);
	DIR *d = opendir(dir);
	if (!d)
		return errbuf_errno(err, errno, "cannot open '%s'", dir);
	for (struct dirent *e; (e = readdir(d));) {
		long v = dump_number(e->d_name);
		if (v > bn) {
			bn = v;
			snprintf(best, sizeof(best), "%s", e->d_name);
		}
	}
	char *text = NULL;
	size_t len = 0;
	int rc = bn < 0 ? errbuf_set(err, "callgrind wrote no dump into '%s'", dir)
			: dump_read(dirfd(d), best, &text, &len, err);
	rewinddir(d);
	for (struct dirent *e; (e = readdir(d));)
		if (dump_number(e->d_name) >= 0 && unlinkat(dirfd(d), e->d_name, 0) < 0 && rc == 0)
			rc = errbuf_errno(err, errno, "cannot remove '%s/%s'", dir, e->d_name);
	closedir(d);
	if (rc == 0)
		rc = j->fn(j->arg, text, len, out, err);
	free(text);
	return rc;
}

int srv_vg_dump(struct srv *s, srv_vg_dump_fn fn, void *arg, void *out, size_t out_len,
		struct errbuf *err)
{
	static const char *const dump[] = {"dump"};
	char *text = NULL;
	if (srv_vg_monitor(s, dump, 1, &text, err) < 0)
		return -1;
	free(text);
	struct vg_dump_job j = {s->instdir, fn, arg};
	return srv_priv_run(&s->ident, dump_child, &j, out, out_len, err);
}

/* The first line of `valgrind --version` ("valgrind-3.19.0"), or "" */
static void vg_version(const char *valgrind, char *out, size_t len)
{
	struct srv_ident self = {0};
	char *argv[] = {(char *)valgrind, "--version", NULL}, *text = NULL;
	struct errbuf ignored;
	*out = '\0';
	int st = srv_run_capture(argv, &self, vg_env, VG_CAPTURE_MAX, &text, &ignored);
	if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && text) {
		text[strcspn(text, "\r\n")] = '\0';
		snprintf(out, len, "%s", text);
	}
	free(text);
}

json_t *srv_vg_json(struct srv *s, struct errbuf *err)
{
	char valgrind[PATHLEN], version[128], prefix[PATHLEN + 32];
	if (vg_find(s, valgrind, "valgrind", err) < 0)
		return NULL;
	vg_version(valgrind, version, sizeof(version));
	vg_prefix(s, prefix, sizeof(prefix));
	json_t *opts = json_array(), *env = json_array();
	for (size_t i = 0; i < sizeof(vg_tool_options) / sizeof(vg_tool_options[0]); i++)
		json_array_append_new(opts, json_string(vg_tool_options[i]));
	json_array_append_new(opts, json_string(prefix));
	for (size_t i = 0; vg_env[i]; i++)
		json_array_append_new(env, json_string(vg_env[i]));
	json_t *j = json_pack("{s:s, s:s, s:s, s:o, s:o, s:s, s:f}", "tool", "callgrind", "binary",
			      valgrind, "version", version, "options", opts, "environment", env,
			      "aslr", "off", "timeout_scale", (double)SRV_VG_TIMEOUT_SCALE);
	if (!j)
		errbuf_set(err, "out of memory");
	return j;
}
