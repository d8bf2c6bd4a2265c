/* SPDX-License-Identifier: MIT */
/* Private to server/: the handle and the helpers server/srv*.c share. */
#ifndef DBT3_SRV_INT_H
#define DBT3_SRV_INT_H
#include "server/srv.h"
#include "server/srv_secure.h"
#include "base/safe_write.h"
#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATHLEN 4096

struct srv {
	const struct srv_opts *o;
	int external;
	char instdir[PATHLEN - 64], datadir[PATHLEN], cnf[PATHLEN], sock[PATHLEN], pidfile[PATHLEN],
	    log[PATHLEN], extra[PATHLEN], clientcnf[PATHLEN], pending[PATHLEN];
	long port;
	/* who the server runs as, looked up on first need (init, start) */
	int have_ident;
	struct srv_ident ident;
	/* the credentials the tool connects with: DIR/client.cnf, read on first need */
	int creds_state; /* 0 not read yet, 1 read, -1 absent (an instance of an older version) */
	struct srv_creds creds;
	/* securing a fresh or older instance: connect as root, with this password or none */
	int securing;
	const char *root_password;
	/* the binary, resolved on first need */
	int resolved;
	char binary[PATHLEN];
	char version_str[128];
	enum srv_flavour flavour;
	int version[3];
	/* the process: child of this handle, or found through the pid file */
	pid_t pid;
	int is_child, detached, reaped, wstatus;
	int locked;	    /* holds the instance lock (one reference) */
	int snap_restored;  /* a start restored a snapshot an interrupted run left */
	struct srv_kv *cfg; /* the option set written at the last start */
	size_t n_cfg;
};

/* The line a start writes into the error log; excerpts show what follows the last one. */
#define START_MARKER "---- dbt3stab: starting"

/* srv_registry.c */
void srv_reg_add(pid_t pid);
void srv_reg_remove(pid_t pid);
void srv_sleep_ms(long ms);

/* srv_helpers.c */
int srv_is_exec(const char *path);
int srv_find_in_path(char out[PATHLEN], const char *name);
int srv_absolute(char *out, size_t len, const char *path);
/* path made absolute with its symbolic links resolved (realpath; for a DIR not made yet, its
 * parent's): the instance's identity, so that a link to a running instance is that instance. */
int srv_canonical(char *out, size_t len, const char *path);
uint64_t srv_ram_bytes(void);
double srv_now_s(void);
/* A pipe (both ends close-on-exec) into fds and a fork: *out_pid is the child's pid in the
 * parent and 0 in the child. 0, or -1 with err set and both ends closed when either failed. */
int srv_fork_piped(int fds[2], pid_t *out_pid, struct errbuf *err);
/* What an initializer or `--version` prints that is kept. */
#define SRV_CAPTURE_MAX 65535

/* Runs argv as id (NULL: as the server's user SRV_SERVER_USER when this process is root, else as
 * this process) with env (NULL: this process's), stdout and stderr captured into *out (the first
 * cap bytes kept; the caller frees it); the wait status, or -1. */
int srv_run_capture(char *const argv[], const struct srv_ident *id, const char *const *env,
		    size_t cap, char **out, struct errbuf *err);
void srv_excerpt(const char *text, char *out, size_t budget);
void srv_log_excerpt(const struct srv *s, char *out, size_t budget);
void srv_describe_status(char *out, size_t len, int status);
ssize_t srv_read_small(const char *path, char *buf, size_t n);
/* Who the server runs as: s->ident when looked up, else srv_ident_get (no reach check); 0 or -1. */
int srv_server_ident(const struct srv *s, struct srv_ident *out);

/* srv_lock.c */
int srv_instance_lock(struct srv *s, int create, struct errbuf *err);
void srv_instance_unlock(struct srv *s);

/* srv_conn.c */
MYSQL *srv_connect_timeout(struct srv *s, const char *db, unsigned timeout, unsigned *out_errno,
			   struct errbuf *err);

/* srv_process.c */
int srv_pid_running(pid_t pid);
int srv_child_reap(struct srv *s);
int srv_exited_error(struct srv *s, const char *what, struct errbuf *err);
void srv_kill_and_reap(struct srv *s);

/* srv_launch.c */
int srv_write_cnf(struct srv *s, const struct srv_kv *overlay, size_t n_overlay,
		  struct errbuf *err);
int srv_launch_server(struct srv *s, const struct srv_launch *launch, struct errbuf *err);
int srv_stop_locked(struct srv *s, struct errbuf *err);
/* A start or stop timeout of this server: times SRV_VG_TIMEOUT_SCALE under Valgrind. */
double srv_timeout(const struct srv *s, double seconds);

/* srv_reach.c */
int srv_need_ident(struct srv *s, struct errbuf *err);
int srv_prepare_instance(struct srv *s, struct errbuf *err);
int srv_secure_instance(struct srv *s, struct errbuf *err);
/* The end of the error log (its last SRV_LOG_TAIL bytes), which the server's user writes, read
 * by a child that has become that user (a link or FIFO planted at the name is refused): a
 * NUL-terminated malloc'd copy in *out (the caller frees it), its length in *len (may be NULL);
 * 0, or -1 when it cannot be read. */
#define SRV_LOG_TAIL 65536
int srv_log_read(const struct srv *s, char **out, size_t *len);

/* srv_vg.c: the server under Valgrind (docs/work.md, "Instructions") */
struct srv_vg_cmd {
	char valgrind[PATHLEN], prefix[PATHLEN + 32], out[PATHLEN + 32];
	char *argv[16]; /* valgrind, its options, the server binary, defaults_arg, NULL */
};
int srv_vg_cmd_build(struct srv_vg_cmd *c, struct srv *s, char *defaults_arg,
		     struct errbuf *err);
const char *const *srv_vg_env(void);

/* srv.c */
int srv_resolve_binary(struct srv *s, struct errbuf *err);

#endif
