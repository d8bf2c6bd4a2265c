/* SPDX-License-Identifier: MIT */
/* `stabilize`: candidates, the interleaved experiment, its analysis (runner/run_stabilize.h). */
#include "runner/run_stabilize.h"
#include "base/safe_write.h"
#include "pinning/stabilizers.h"
#include "result/res.h"
#include "server/srv.h"
#include "stats/st_var.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define THP_PATH "/sys/kernel/mm/transparent_hugepage/enabled"
#define JEMALLOC "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"

/* ---- candidates ---- */

/* The PUs of the core of cpu1 (thread_siblings_list) when it has two or more; else "". */
static void smt_pair(char *out, size_t len)
{
	char buf[64] = "";
	FILE *f = fopen("/sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "re");
	out[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f) && strpbrk(buf, ",-")) {
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(out, len, "%s", buf);
	}
	fclose(f);
}

static int thp_read(char *out, size_t len)
{
	char buf[128];
	FILE *f = fopen(THP_PATH, "re");
	if (!f)
		return -1;
	int ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	char *lb = ok ? strchr(buf, '[') : NULL, *rb = lb ? strchr(lb, ']') : NULL;
	if (!lb || !rb)
		return -1;
	snprintf(out, len, "%.*s", (int)(rb - lb - 1), lb + 1);
	return 0;
}

static int thp_write(const char *value)
{
	int fd = open(THP_PATH, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t w = write(fd, value, strlen(value));
	close(fd);
	return w == (ssize_t)strlen(value) ? 0 : -1;
}

static void cand(struct run_stab_cand *c, const char *name, const char *what, const char *a0,
		 const char *a1)
{
	memset(c, 0, sizeof(*c));
	c->name = name;
	c->what = what;
	c->args[0] = a0;
	c->args[1] = a1;
	c->available = 1;
}

static void unavailable(struct run_stab_cand *c, const char *why)
{
	c->available = 0;
	snprintf(c->why, sizeof(c->why), "%s", why);
}

void run_stab_candidates(struct run_stab_cand out[RUN_STAB_MAX_CANDS], int *n)
{
	int k = 0, root = geteuid() == 0;
	char thp[32];
	cand(&out[k++], "default", "the default placement and template", NULL, NULL);
	cand(&out[k], "server-2pu", "server on both PUs of one core", "--server-cpus", NULL);
	smt_pair(out[k].arg_buf, sizeof(out[k].arg_buf));
	out[k].args[1] = out[k].arg_buf;
	if (!out[k].arg_buf[0])
		unavailable(&out[k], "no core with two PUs");
	k++;
	cand(&out[k++], "unpinned", "server and client not pinned", "--no-pin", NULL);
	cand(&out[k++], "no-aslr", "address space randomisation off for the server", "--no-aslr",
	     NULL);
	cand(&out[k], "nice-20", "server at nice -20", "--nice", "-20");
	if (!root)
		unavailable(&out[k], "needs root (or CAP_SYS_NICE)");
	k++;
	cand(&out[k], "sched-fifo", "server threads SCHED_FIFO priority 1", "--sched-fifo", "1");
	if (!root)
		unavailable(&out[k], "needs root (or RLIMIT_RTPRIO)");
	k++;
	cand(&out[k], "large-pages", "InnoDB large pages", "--large-pages", NULL);
	if (stab_hugepages_total() <= 0)
		unavailable(&out[k], "the host has no huge pages (vm.nr_hugepages is 0)");
	k++;
	cand(&out[k], "thp-never", "transparent huge pages never (host; restored after)", NULL,
	     NULL);
	out[k].thp_never = 1;
	if (thp_read(thp, sizeof(thp)) < 0 || access(THP_PATH, W_OK) != 0)
		unavailable(&out[k], "cannot change " THP_PATH " (root needed)");
	else if (strcmp(thp, "never") == 0)
		unavailable(&out[k], "transparent huge pages are already never (the default here)");
	k++;
	cand(&out[k++], "flush-fsync", "innodb_flush_method fsync (template: O_DIRECT)",
	     "--server-option", "innodb_flush_method=fsync");
	cand(&out[k++], "perf-schema-on", "performance schema on (template: off)",
	     "--performance-schema", NULL);
	/* The adaptive hash index is built from what each restart's warm-up happens to touch, so
	 * its contents differ between restarts; turning it off removes that source (and its
	 * speed-up). */
	cand(&out[k++], "ahi-off", "adaptive hash index off (template: on)", "--server-option",
	     "innodb_adaptive_hash_index=OFF");
	cand(&out[k], "pool-load",
	     "buffer pool dumped at shutdown, loaded at start (template: neither)",
	     "--server-option", "innodb_buffer_pool_load_at_startup=ON");
	out[k].args[2] = "--server-option";
	out[k++].args[3] = "innodb_buffer_pool_dump_at_shutdown=ON";
	cand(&out[k], "jemalloc", "the server with jemalloc (LD_PRELOAD)", NULL, NULL);
	out[k].preload = JEMALLOC;
	if (access(JEMALLOC, R_OK) != 0)
		unavailable(&out[k], "libjemalloc2 is not installed");
	k++;
	cand(&out[k], "drop-caches", "page cache dropped before each start", "--drop-caches", NULL);
	if (!root)
		unavailable(&out[k], "needs root");
	k++;
	*n = k;
}

int run_stab_select(struct run_stab_cand *c, int *n, const char *list, struct errbuf *err)
{
	char buf[512], *save = NULL;
	int keep[RUN_STAB_MAX_CANDS] = {1};
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int found = 0;
		for (int i = 0; i < *n; i++)
			if (strcmp(c[i].name, t) == 0)
				keep[i] = found = 1;
		if (!found)
			return errbuf_set(err, "unknown candidate '%s'", t);
	}
	int k = 0;
	for (int i = 0; i < *n; i++)
		if (keep[i])
			c[k++] = c[i];
	for (int i = 0; i < k; i++) /* server-2pu's argument points into its own struct */
		if (c[i].args[1] && c[i].arg_buf[0] && c[i].args[0] &&
		    strcmp(c[i].args[0], "--server-cpus") == 0)
			c[i].args[1] = c[i].arg_buf;
	*n = k;
	return 0;
}

/* ---- the experiment ---- */

static void say(const struct run_stab_opts *o, const char *fmt, ...) UTIL_PRINTF(2, 3);
static void say(const struct run_stab_opts *o, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	if (!o->event)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o->event(o->arg, msg);
}

/* One restart of candidate c: `dbt3stab run --restarts 1 ...` into DIR/<name>/rNNN.json; its
 * output in rNNN.log; the run uses the instance lock this process holds (lock, NULL: none).
 * The run's exit code, or -1 when it could not be started. */
static int one_restart(const struct run_stab_cand *c, const struct run_stab_opts *o, int round,
		       struct srv *lock)
{
	char out[4200], log[4200], warm[16], runs[16], scale[32];
	const char *argv[48];
	int n = 0;
	run_stab_result_path(out, sizeof(out), o, c, round, "json");
	run_stab_result_path(log, sizeof(log), o, c, round, "log");
	snprintf(warm, sizeof(warm), "%d", o->warmup);
	snprintf(runs, sizeof(runs), "%d", o->runs);
	snprintf(scale, sizeof(scale), "%.17g", o->scale);
	const char *base[] = {o->binary,    "run",     "-s",	   scale, "-o",	    out,
			      "--restarts", "1",       "--warmup", warm,  "--runs", runs,
			      "--no-table", "--label", c->name,	   NULL};
	for (int i = 0; base[i]; i++)
		argv[n++] = base[i];
	if (o->queries) {
		argv[n++] = "--queries";
		argv[n++] = o->queries;
	}
	if (o->datadir) {
		argv[n++] = "--datadir";
		argv[n++] = o->datadir;
	}
	if (o->port) {
		argv[n++] = "--port";
		argv[n++] = o->port;
	}
	for (int i = 0; c->args[i]; i++)
		argv[n++] = c->args[i];
	if (c->preload) { /* the run sets it in its server's environment only */
		argv[n++] = "--preload";
		argv[n++] = c->preload;
	}
	argv[n] = NULL;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = util_openat_regular(AT_FDCWD, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (lock)
			srv_lock_pass(lock);
		execv(o->binary, (char *const *)argv);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* One restart with its host change made and undone around it. */
static int one_restart_host(const struct run_stab_cand *c, const struct run_stab_opts *o, int round,
			    struct srv *lock, struct errbuf *err)
{
	char old[32] = "";
	if (c->thp_never) {
		if (thp_read(old, sizeof(old)) < 0 || thp_write("never") < 0)
			return errbuf_set(err, "cannot set " THP_PATH " to never");
	}
	int rc = one_restart(c, o, round, lock);
	if (c->thp_never && thp_write(old) < 0)
		return errbuf_set(err, "cannot restore " THP_PATH " to '%s': do it by hand", old);
	if (rc != 0) {
		char log[4200];
		run_stab_result_path(log, sizeof(log), o, c, round, "log");
		return errbuf_set(err, "%s: restart %d failed (exit %d): see '%s'", c->name,
				  round + 1, rc, log);
	}
	return 0;
}

static int make_dirs(const struct run_stab_cand *c, int n, const struct run_stab_opts *o,
		     struct errbuf *err)
{
	char path[4200];
	/* each restart's run writes below it by path: no other user may swap a directory */
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", o->dir, c[i].name);
		int dfd = util_outdir_open(path, UTIL_OUTDIR_STABLE, NULL, err);
		if (dfd < 0)
			return -1;
		close(dfd);
	}
	return 0;
}

int run_stab_dir_unused(const struct run_stab_cand *c, const struct run_stab_opts *o,
			struct errbuf *err)
{
	char first[4200];
	run_stab_result_path(first, sizeof(first), o, &c[0], 0, "json");
	if (access(first, F_OK) == 0)
		return errbuf_set(
		    err,
		    "'%s' already holds an experiment: give another -o DIR, or --analyze "
		    "it",
		    o->dir);
	return 0;
}

/* The instance the restarts measure, locked for the whole experiment (docs/server.md): no other
 * run or load gets in between two restarts; each restart's `run` uses this lock. */
struct stab_lock {
	struct srv_opts so;
	struct srv *srv;
};

static int stab_lock_take(struct stab_lock *l, const struct run_stab_opts *o, struct errbuf *err)
{
	srv_opts_init(&l->so);
	l->srv = NULL;
	if (o->datadir && srv_opts_parse(&l->so, SRV_OPT_DATADIR, o->datadir, err) < 0)
		return -1;
	if (srv_opts_finish(&l->so, err) < 0 || srv_open(&l->srv, &l->so, err) < 0)
		return -1;
	return srv_lock(l->srv, err);
}

static void stab_lock_release(struct stab_lock *l)
{
	srv_free(l->srv); /* releases the lock; it started no server */
	srv_opts_release(&l->so);
}

/* The rounds: every live candidate's restart per round, in an order rotated every round. */
static int rounds(struct run_stab_cand *const *live, int m, const struct run_stab_opts *o,
		  struct srv *lock, struct errbuf *err)
{
	uint64_t t0 = util_now_ns();
	int max_rounds = o->rounds	   ? o->rounds
			 : o->budget_s > 0 ? RUN_STAB_MAX_ROUNDS
					   : RUN_STAB_DEFAULT_ROUNDS;
	double round_s = 0;
	for (int r = 0; r < max_rounds && !*o->stop; r++) {
		double elapsed = (double)(util_now_ns() - t0) / 1e9;
		if (!o->rounds && o->budget_s > 0 && r >= 3 && elapsed + round_s > o->budget_s)
			break;
		uint64_t r0 = util_now_ns();
		for (int k = 0; k < m && !*o->stop; k++) {
			/* rotated every round: each candidate takes every place in turn */
			const struct run_stab_cand *x = live[(k + r) % m];
			say(o, "round %d: %s", r + 1, x->name);
			if (one_restart_host(x, o, r, lock, err) < 0) {
				if (*o->stop)
					errbuf_set(err,
						   "interrupted (the host settings are restored)");
				return -1;
			}
		}
		double this_s = (double)(util_now_ns() - r0) / 1e9;
		round_s = this_s > round_s ? this_s : round_s;
	}
	if (*o->stop)
		return errbuf_set(err, "interrupted (the host settings are restored)");
	return 0;
}

json_t *run_stab_experiment(struct run_stab_cand *c, int n, const struct run_stab_opts *o,
			    struct errbuf *err)
{
	struct run_stab_cand *live[RUN_STAB_MAX_CANDS];
	struct stab_lock lock;
	int m = 0;
	for (int i = 0; i < n; i++)
		if (c[i].available)
			live[m++] = &c[i];
	if (run_stab_dir_unused(c, o, err) < 0)
		return NULL;
	if (stab_lock_take(&lock, o, err) < 0) {
		stab_lock_release(&lock);
		return NULL;
	}
	int rc = make_dirs(c, n, o, err) < 0 ? -1 : rounds(live, m, o, lock.srv, err);
	stab_lock_release(&lock);
	return rc < 0 ? NULL : run_stab_analyze(c, n, o, err);
}

/* ---- the profile ---- */

json_t *run_stab_profile(const struct run_stab_cand *c, int n, json_t *analysis)
{
	json_t *settings = json_array(), *args = json_array(), *name;
	const char *preload = NULL;
	int thp = 0;
	size_t i;
	json_array_foreach(json_object_get(analysis, "recommended"), i, name)
	{
		for (int k = 0; k < n; k++) {
			if (strcmp(c[k].name, json_string_value(name)) != 0)
				continue;
			json_array_append_new(settings, json_string(c[k].name));
			for (int a = 0; c[k].args[a]; a++)
				json_array_append_new(args, json_string(c[k].args[a]));
			preload = c[k].preload ? c[k].preload : preload;
			thp |= c[k].thp_never;
		}
	}
	return json_pack("{s:s, s:i, s:o, s:o, s:s?, s:s?, s:O}", "format", RES_FORMAT_PROFILE,
			 "format_version", 1, "settings", settings, "run_args", args, "preload",
			 preload, "thp", thp ? "never" : NULL, "measured", analysis);
}

int run_stab_profile_read(const char *path, json_t **out, struct errbuf *err)
{
	json_error_t je;
	json_t *p = json_load_file(path, JSON_REJECT_DUPLICATES, &je), *v;
	size_t i;
	*out = NULL;
	if (!p)
		return errbuf_set(err, "cannot read profile '%s': %s", path, je.text);
	if (!json_is_object(p) ||
	    strcmp(json_string_value(json_object_get(p, "format"))
		       ? json_string_value(json_object_get(p, "format"))
		       : "",
		   RES_FORMAT_PROFILE) != 0 ||
	    !json_is_array(json_object_get(p, "run_args")) ||
	    !json_is_array(json_object_get(p, "settings"))) {
		json_decref(p);
		return errbuf_set(err,
				  "'%s' is not a dbt3stab profile (made by 'dbt3stab "
				  "stabilize')",
				  path);
	}
	json_array_foreach(json_object_get(p, "run_args"), i, v)
	{
		if (!json_is_string(v) || json_array_size(json_object_get(p, "run_args")) > 32) {
			json_decref(p);
			return errbuf_set(err, "'%s': run_args must be at most 32 strings", path);
		}
	}
	v = json_object_get(p, "preload");
	if (v && !json_is_null(v) && !json_is_string(v)) {
		json_decref(p);
		return errbuf_set(err, "'%s': preload must be a string or null", path);
	}
	*out = p;
	return 0;
}

int run_stab_profile_argv(int argc, char **argv, int *out_argc, char ***out_argv,
			  json_t **out_profile, struct errbuf *err)
{
	const char *path = NULL;
	int at = -1;
	*out_argv = NULL;
	*out_profile = NULL;
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--profile") == 0 && i + 1 < argc) {
			path = argv[i + 1];
			at = i;
			break;
		}
		if (strncmp(argv[i], "--profile=", 10) == 0) {
			path = argv[i] + 10;
			at = i;
			break;
		}
	}
	if (!path)
		return 0;
	json_t *p, *v;
	if (run_stab_profile_read(path, &p, err) < 0)
		return -1;
	json_t *args = json_object_get(p, "run_args");
	size_t na = json_array_size(args), i;
	char **nv = calloc((size_t)argc + na + 1, sizeof(char *));
	if (!nv) {
		json_decref(p);
		return errbuf_set(err, "out of memory");
	}
	int k = 0, skip = strcmp(argv[at], "--profile") == 0 ? 2 : 1;
	nv[k++] = argv[0];
	json_array_foreach(args, i, v) /* first: the command line's own options win */
	    nv[k++] = (char *)json_string_value(v);
	for (int j = 1; j < argc; j++)
		if (j < at || j >= at + skip)
			nv[k++] = argv[j];
	nv[k] = NULL;
	v = json_object_get(p,
			    "preload"); /* the caller gives it to the server (srv_opts.preload) */
	*out_profile = json_pack(
	    "{s:s, s:O, s:O, s:O, s:O}", "path", path, "settings", json_object_get(p, "settings"),
	    "run_args", args, "preload", v ? v : json_null(), "thp",
	    json_object_get(p, "thp") ? json_object_get(p, "thp") : json_null());
	json_decref(p); /* the strings in nv point into *out_profile's run_args (a reference) */
	*out_argv = nv;
	*out_argc = k;
	return 0;
}

int run_preload_check(char *out, size_t len, const char *path, struct errbuf *err)
{
	char real[PATH_MAX], walk[PATH_MAX];
	struct stat st;
	if (path[0] != '/')
		return errbuf_set(err, "preload '%s' is not an absolute path", path);
	if (!realpath(path, real) || stat(real, &st) < 0)
		return errbuf_errno(err, errno, "preload '%s'", path);
	if (!S_ISREG(st.st_mode))
		return errbuf_set(err, "preload '%s' is not a regular file", path);
	if (snprintf(out, len, "%s", real) >= (int)len)
		return errbuf_set(err, "preload '%s': the path is too long", path);
	snprintf(walk, sizeof(walk), "%s", real);
	for (;;) { /* the file, then every directory above it */
		if (stat(walk, &st) < 0)
			return errbuf_errno(err, errno, "preload '%s': '%s'", path, walk);
		int sticky = S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX);
		if ((st.st_uid != 0 && st.st_uid != geteuid()) ||
		    ((st.st_mode & (S_IWGRP | S_IWOTH)) && !sticky))
			return errbuf_set(err,
					  "preload '%s': '%s' can be changed by another user (the "
					  "server loads it: give a file that only root%s can "
					  "change, in directories only root can change)",
					  path, walk, geteuid() ? " or you" : "");
		char *slash = strrchr(walk, '/');
		if (slash == walk && !walk[1])
			break;
		slash[slash == walk] = '\0';
	}
	return 0;
}
