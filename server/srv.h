/* SPDX-License-Identifier: MIT */
/* The private database server: connection options, config template, init/start/stop, record. */
#ifndef DBT3_SRV_H
#define DBT3_SRV_H
#include "base/util.h"
#include <jansson.h>
#include <mysql.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Instance layout: `--datadir DIR` names the instance directory the tool owns:
 *   DIR/data/        the server's own datadir (initialised by `srv_init_datadir`)
 *   DIR/my.cnf       the generated option file, rewritten at every start (the record)
 *   DIR/mysqld.sock  DIR/mysqld.pid  DIR/error.log
 * Default DIR: util_state_dir() + "/server".
 */

/* Failures a caller handles; everything else is -1 with a message. */
enum srv_error {
	SRV_E_EXISTS = -2,  /* srv_init_datadir: already initialised */
	SRV_E_RUNNING = -3, /* srv_start: this instance is already running */
	SRV_E_EXITED =
	    -4, /* the server process exited (crash or failed start); message has the log tail */
	SRV_E_EXTERNAL =
	    -5, /* the operation needs a managed server, these options name an external one */
	SRV_E_REFUSED = -6 /* srv_init_datadir: a directory that is not the tool's to take */
};

enum srv_flavour { SRV_FLAVOUR_UNKNOWN = 0, SRV_FLAVOUR_MARIADB, SRV_FLAVOUR_MYSQL };

/* One server option "name=value" (value NULL for a bare flag such as "skip-name-resolve"). */
struct srv_kv {
	char *name;
	char *value;
};

/* The shared server options, by code for srv_opts_parse (the command layer's table of them:
 * commands/cmd_srv_args.c). */
#define SRV_OPT_BASE 1000
enum srv_opt_code {
	SRV_OPT_DATADIR = SRV_OPT_BASE,
	SRV_OPT_MYSQLD,
	SRV_OPT_BASEDIR,
	SRV_OPT_PORT,
	SRV_OPT_SOCKET,
	SRV_OPT_HOST,
	SRV_OPT_USER,
	SRV_OPT_SERVER_OPTION,
	SRV_OPT_DEFAULTS_EXTRA_FILE,
	SRV_OPT_START_TIMEOUT,
	SRV_OPT_STOP_TIMEOUT,
	SRV_OPT_BUFFER_POOL,
	SRV_OPT_PERFORMANCE_SCHEMA,
	SRV_OPT_END
};

/* The default instance directory when dbt3stab runs as root without DBT3STAB_HOME. */
#define SRV_ROOT_DATADIR "/var/lib/dbt3stab/server"
/* The default buffer pool may take SRV_POOL_RAM_SHARE of physical RAM as long as
 * SRV_POOL_RAM_KEEP is left for the OS, the client and the server's other memory, and may
 * always take SRV_POOL_RAM_FLOOR_SHARE (docs/server.md, "The buffer pool"). */
#define SRV_POOL_RAM_SHARE 0.75
#define SRV_POOL_RAM_KEEP (UINT64_C(4) << 30)
#define SRV_POOL_RAM_FLOOR_SHARE 0.5

/* Connection and lifecycle options shared by `server`, `load`, `query` and `run`. */
struct srv_opts {
	char *datadir; /* instance directory; NULL until srv_opts_finish fills the default */
	char *mysqld;  /* server binary; NULL: from basedir, else mariadbd/mysqld on PATH */
	char *basedir; /* installation directory, for the binary and the initializer */
	long port; /* managed: 0 = socket only (skip_networking), else TCP on 127.0.0.1; external:
		      0 = 3306 */
	char *socket;  /* external server's socket (a managed one uses DIR/mysqld.sock) */
	char *host;    /* external server's host */
	char *user;    /* external server's user (managed: root) */
	char *defaults_extra_file; /* user option file: !include'd by my.cnf, read by the client
				      when external */
	double start_timeout;	   /* seconds to wait for the first ping (default 120) */
	double stop_timeout; /* seconds to wait for a clean shutdown before SIGKILL (default 120) */
	uint64_t buffer_pool; /* bytes; 0: from the data, capped by RAM (srv_pool_plan) */
	double
	    scale; /* scale factor the pool is sized for; callers that know it set it (default 1) */
	int performance_schema; /* --performance-schema: leave it on */
	int external; /* set by srv_opts_finish: host/port/socket/user without --datadir */
	int valgrind; /* managed: start the server under Valgrind callgrind (run --instructions) */
	struct srv_kv *server_options; /* --server-option, in order given */
	size_t n_server_options;
	/* LD_PRELOAD of the managed server only (run --preload, a profile's preload): set in its
	 * child after the switch of user, never in this process; not owned, NULL: none */
	const char *preload;
};

/* Defaults; no allocation. */
void srv_opts_init(struct srv_opts *o);

/* Takes option opt with its value arg: 1 consumed, 0 not a server option, -1 bad value
 * (message in err). */
int srv_opts_parse(struct srv_opts *o, int opt, const char *arg, struct errbuf *err);

/* After parsing: fills the default datadir and decides managed vs external; -1 on conflicts. */
int srv_opts_finish(struct srv_opts *o, struct errbuf *err);

/* Refuses an instance directory path the server's installer cannot take (spaces, control
 * characters, quotes, '\\', '$', '`'): -1 with one line. */
int srv_datadir_check(const char *path, struct errbuf *err);

/* Frees what srv_opts_parse/finish allocated. */
void srv_opts_release(struct srv_opts *o);

/* Appends (or replaces, '-' and '_' equal) name=value in a kv list; 0 or -1 on allocation failure.
 */
int srv_kv_set(struct srv_kv **list, size_t *n, const char *name, const char *value);
/* Frees a kv list; NULL is fine. */
void srv_kv_free(struct srv_kv *list, size_t n);

/* Parses "512M", "2G", "1073741824" (K/M/G/T, powers of 1024); 0 on success. */
int srv_parse_size(const char *s, uint64_t *out);

/* Inputs of the option-file template that do not come from srv_opts. */
struct srv_template_in {
	enum srv_flavour flavour;
	int version[3];	     /* e.g. {10, 11, 6} */
	uint64_t ram_bytes;  /* physical RAM, for the pool cap */
	uint64_t data_bytes; /* loaded data (srv_data_bytes), 0 before a load */
	const char *instdir; /* instance directory (absolute) */
};

/*
 * Builds the full ordered option set of [mysqld]: the documented template (docs/server.md),
 * then overlay (per-start profile), then the user's --server-option values, later ones
 * replacing earlier ones. The caller frees *out with srv_kv_free.
 */
int srv_config_build(struct srv_kv **out, size_t *n_out, const struct srv_opts *o,
		     const struct srv_template_in *in, const struct srv_kv *overlay,
		     size_t n_overlay, struct errbuf *err);

/* Renders an option set as my.cnf text ([mysqld] group, !include of the extra file before the
 * user's --server-option values); caller frees. */
char *srv_config_render(const struct srv_kv *kv, size_t n, const char *defaults_extra_file,
			const struct srv_kv *user_opts, size_t n_user);

/*
 * The buffer pool holds the data (docs/server.md, "The buffer pool"): need = data x 5/4 +
 * SRV_POOL_MARGIN, rounded up to 128 MiB; the pool is need, at most the cap:
 * max(RAM x SRV_POOL_RAM_FLOOR_SHARE, min(RAM x SRV_POOL_RAM_SHARE, RAM - SRV_POOL_RAM_KEEP)).
 * data is the loaded data's tablespace files; before a load, SRV_DATA_BYTES_PER_SF x SF.
 */
#define SRV_POOL_RULE                                                                              \
	"pool = data x 1.25 (adaptive hash index, change buffer) + 128 MiB, rounded up to 128 "   \
	"MiB, at most 75% of RAM leaving 4 GiB (at least 50% of RAM)"
#define SRV_POOL_MARGIN (UINT64_C(128) << 20)
#define SRV_DATA_BYTES_PER_SF (2.6 * 1073741824.0) /* measured: SF 0.1 loads 256 MiB of .ibd */

struct srv_pool {
	uint64_t data_bytes; /* the loaded data, or the estimate from the scale factor */
	int data_measured;   /* data_bytes from the tablespace files (else estimated) */
	uint64_t need_bytes; /* what the rule asks for */
	uint64_t ram_bytes;  /* physical RAM (0: unknown) */
	uint64_t cap_bytes;  /* the most RAM allows (0: unknown) */
	uint64_t pool_bytes; /* the pool the server gets */
	int from_option;     /* pool_bytes from --buffer-pool (or the server's own setting) */
	int fits;	     /* pool_bytes >= need_bytes */
};

/* Applies the rule: data_bytes 0 means not loaded yet (estimated from scale); option_bytes
 * nonzero is the user's --buffer-pool, which wins. */
void srv_pool_plan(struct srv_pool *out, uint64_t data_bytes, double scale, uint64_t ram_bytes,
		   uint64_t option_bytes);

/* Sums the InnoDB tablespace files (*.ibd) of the user schemas in a datadir (not mysql, sys,
 * performance_schema). */
int srv_data_bytes(uint64_t *out, const char *datadir, struct errbuf *err);

/* {"rule","data_bytes","data_source","need_bytes","cap_bytes","ram_bytes","pool_bytes",
 *  "pool_source","fits"}; NULL on out of memory. */
json_t *srv_pool_json(const struct srv_pool *p);

/* A handle on one server: managed (the instance in --datadir) or external. */
struct srv;

/* A handle on the server o describes (o must outlive it). Checks paths; the binary and its
 * flavour are resolved on first need. Starts nothing. Free with srv_free. */
int srv_open(struct srv **out, const struct srv_opts *o, struct errbuf *err);

/* Stops the server if this handle started it and it still runs (unless detached), then frees. */
void srv_free(struct srv *s);

/* Creates DIR/data with the server's own initializer, run as the server's user, then secures
 * it (passwords in DIR/client.cnf, no other account; docs/server.md); SRV_E_EXISTS if already
 * there. */
int srv_init_datadir(struct srv *s, struct errbuf *err);

/* The initializer's argv (at most max entries with the NULL): MariaDB's mariadb-install-db or
 * MySQL 8's mysqld --initialize-insecure; basedir_arg may be NULL. The count, -1 if max is too
 * small. */
int srv_init_argv(char **argv, size_t max, enum srv_flavour f, char *program, char *defaults_arg,
		  char *datadir_arg, char *basedir_arg);

/* Takes the instance lock now (docs/server.md) when DIR exists: before a command says anything
 * about a running server. 0, or -1 when another process holds it. */
int srv_lock(struct srv *s, struct errbuf *err);

/* A lock held across child processes: a command that runs other dbt3stab commands on its
 * instance (`stabilize` runs one `run` per restart) holds the lock for the whole time and, in
 * each forked child before exec, calls srv_lock_pass: the lock's descriptor stays open across
 * exec and SRV_LOCK_ENV names it. A dbt3stab that finds it open on the lock file of the
 * instance it locks uses it instead of taking the lock again (it is the parent's: nobody else
 * gets in between two children), and closes it on exec. 0, or -1 when s holds no lock. */
#define SRV_LOCK_ENV "DBT3STAB_INSTANCE_LOCK_FD"
int srv_lock_pass(struct srv *s);

/* 0 when NAME (no '/') is an executable where a server start looks for it: PATH, then /usr/sbin,
 * /usr/local/sbin, /usr/bin, /usr/local/bin, /sbin; else -1. */
int srv_find_binary(const char *name);

/* Nonzero when DIR/data holds an initialised datadir. */
int srv_is_initialised(const struct srv *s);

/* 0 when this user may read the instance's state (or there is none); -1 with "permission denied"
 * in err when its pid file cannot be reached for want of permission (another user's instance,
 * DIR 0700): status and stop must not take that for "not running" (F13). */
int srv_access_check(const struct srv *s, struct errbuf *err);

/* Before anything is created: 0 when the options name an external server or an initialised
 * instance, else -1 with "'DIR' is not initialised: run 'dbt3stab server init ...'" (the
 * message of srv_start). Creates nothing. */
int srv_instance_check(const struct srv_opts *o, struct errbuf *err);

/* child_hook runs in the child between fork and exec (CPU/memory binding, ASLR, nice), after
 * stdout/stderr point at the error log: a nonzero return fails the start and what the hook
 * wrote on stderr appears in the error message. Only async-signal-safe work is strictly safe. */
struct srv_launch {
	int (*child_hook)(void *arg); /* e.g. pin_child_hook */
	void *arg;
	const struct srv_kv *overlay; /* options for this start only (e.g. a bulk-load profile) */
	size_t n_overlay;
	/* the server keeps running when this process ends (`server start`); otherwise it gets
	 * SIGTERM when the process ends, killed or not (docs/server.md, "No stray servers") */
	int outlive;
};

/* Writes my.cnf, fork/execs the server (its own session, stdout/stderr to the error log), waits
 * until it answers a ping. SRV_E_EXITED if it died first (reason from its error log),
 * SRV_E_RUNNING if already up, -1 on timeout (the server is killed). launch may be NULL. */
int srv_start(struct srv *s, const struct srv_launch *launch, struct errbuf *err);

/* Starts the server unless it already answers, initialising the datadir first if needed;
 * *out_started says whether this call started it (then stop it when done). */
int srv_ensure_started(struct srv *s, const struct srv_launch *launch, int *out_started,
		       struct errbuf *err);

/* Clean SHUTDOWN, wait stop_timeout, then SIGKILL. Works on a server another dbt3stab process
 * started (pid file). 0 also when it was not running. */
int srv_stop(struct srv *s, struct errbuf *err);

/* Leaves a server this handle started running after srv_free/exit (`server start`). */
void srv_detach(struct srv *s);

/* Nonzero when the managed server's process exists (pid file or child) / a server answers
 * (also with an error such as Access denied). */
int srv_is_alive(struct srv *s);
int srv_ping(struct srv *s);

/* 2: connected with the configured account; 1: a server answered with an error (its message in
 * err, e.g. Access denied); 0: no server answered (the client library's message in err). */
int srv_probe(struct srv *s, struct errbuf *err);

/* The server's pid, or 0 when not running (or external). */
pid_t srv_pid(struct srv *s);

/* Crash detection for the run protocol: 0 while the process runs, SRV_E_EXITED once it has
 * exited (exit status or signal and the error log tail in err). */
int srv_check(struct srv *s, struct errbuf *err);

/* The last nlines of the error log, malloc'd (caller frees); "" when there is none. */
char *srv_error_log_tail(const struct srv *s, int nlines);

/* A connection (utf8mb4, local infile enabled) to db (NULL for none); caller mysql_close()s.
 * Managed: the tool's account from DIR/client.cnf over the socket. */
MYSQL *srv_connect(struct srv *s, const char *db, struct errbuf *err);

/* {"flavour","version","binary","binary_sha256","external","options":{my.cnf set},
 *  "variables":{SHOW GLOBAL VARIABLES}} for the result file; NULL on failure. Caller decrefs. */
json_t *srv_info_json(struct srv *s, struct errbuf *err);

/* The buffer pool of this instance now: the loaded data measured (managed: its tablespace
 * files; external: information_schema, connecting), the rule, and the pool the options give. */
int srv_pool_get(struct srv *s, struct srv_pool *out, struct errbuf *err);

/* Accessors for display. */
enum srv_flavour srv_flavour(const struct srv *s);
const char *srv_version(const struct srv *s); /* "10.11.6-MariaDB-0+deb12u1", "" when unknown */
const char *srv_binary(const struct srv *s);
const char *srv_instdir(const struct srv *s);
const char *srv_socket_path(const struct srv *s);
long srv_port(const struct srv *s);
int srv_is_external(const struct srv *s);

/* Flavour and version from a `--version` line; 0 on success. */
int srv_parse_version(const char *line, enum srv_flavour *out_flavour, int out_version[3],
		      char *out_string, size_t string_len);

/* A TCP port on 127.0.0.1 free right now (bind to port 0), for tests; -1 on failure. */
int srv_free_port(struct errbuf *err);

/*
 * Instruction counts (docs/work.md, "Instructions"): with o->valgrind a managed server starts
 * as `valgrind --tool=callgrind ... mariadbd --defaults-file=DIR/my.cnf`, run as the server's
 * user (so its vgdb FIFOs, DIR/tmp/vgdb-*, are the user's), with ASLR off, the environment
 * fixed (SRV_VG_TUNABLES among it), the options Valgrind needs in my.cnf, and the start and
 * stop timeouts times SRV_VG_TIMEOUT_SCALE. Do not give it a server built WITH_VALGRIND: that
 * build swaps its allocators and changes the counts.
 */
#define SRV_VG_COLLECT "dispatch_command*"
#define SRV_VG_TIMEOUT_SCALE 10
/* glibc picks memcpy, strlen, ... by CPU features and cache sizes: pinned to the x86-64
 * baseline (SSE2) and fixed sizes; other architectures ignore the x86 names. */
#define SRV_VG_TUNABLES                                                                           \
	"glibc.cpu.hwcaps=-AVX,-AVX2,-AVX512F,-AVX512BW,-AVX512CD,-AVX512DQ,-AVX512VL,-ERMS,"     \
	"-FSRM,-SSSE3,-SSE4_1,-SSE4_2,-BMI1,-BMI2,-LZCNT,-MOVBE,-POPCNT,-RTM,-EVEX,"              \
	"-AVX_Fast_Unaligned_Load,-Fast_Unaligned_Copy,-Fast_Copy_Backward,"                       \
	"-Prefer_No_VZEROUPPER,-Prefer_ERMS,-Prefer_FSRM:"                                         \
	"glibc.cpu.x86_data_cache_size=32768:glibc.cpu.x86_shared_cache_size=1048576:"            \
	"glibc.cpu.x86_non_temporal_threshold=786432:glibc.cpu.x86_rep_movsb_threshold=2048:"     \
	"glibc.cpu.x86_rep_stosb_threshold=2048"

/* Sends n Valgrind monitor commands (e.g. "status internal", "zero") to the running server
 * through vgdb, as the server's user; *out gets vgdb's output (caller frees). -1 with one line
 * when the server was not started under Valgrind or vgdb fails. */
int srv_vg_monitor(struct srv *s, const char *const *cmds, size_t n, char **out,
		   struct errbuf *err);

/* Has callgrind dump what it counted since the last "zero" (monitor command "dump", into the
 * instance's DIR/tmp/callgrind.out.N) and reads the dump in a child that has become the server's
 * user (root never opens it): fn(arg, text, len, out, err) there, whose out_len bytes of out come
 * back; the child removes the dump files. -1 (err) when vgdb, the dump or fn fails. */
typedef int (*srv_vg_dump_fn)(void *arg, const char *text, size_t len, void *out,
			      struct errbuf *err);
int srv_vg_dump(struct srv *s, srv_vg_dump_fn fn, void *arg, void *out, size_t out_len,
		struct errbuf *err);

/* The server record's "valgrind": {"tool","binary","version","options","environment","aslr",
 * "timeout_scale"}; NULL (err) when Valgrind is not installed. Caller decrefs. */
json_t *srv_vg_json(struct srv *s, struct errbuf *err);

/*
 * No stray servers: srv_start records each child pid in one small process-wide registry, adds
 * srv_stop_registered (SIGTERM every registered server, wait up to 30 s, SIGKILL the rest) to
 * the cleanups of base/sigchain.h's exit handler and at exit, and pushes that handler (exit
 * 130) on SIGINT and SIGTERM where nobody handles them yet. Async-signal-safe.
 */
void srv_stop_registered(void);

#endif
