/* SPDX-License-Identifier: MIT */
/* The result file (docs/result-format.md): an in-memory model, builders, an atomic writer and a
 * strict reader. Times are milliseconds. */
#ifndef DBT3_RES_H
#define DBT3_RES_H
#include "base/util.h"
#include <jansson.h>
#include <stddef.h>

#define RES_FORMAT "dbt3stab-result"
#define RES_FORMAT_VERSION 1
/* The other measured files dbt3stab writes (docs/stability.md): a stabilize experiment's
 * analysis (DIR/stabilize.json) and its profile (DIR/profile.json). */
#define RES_FORMAT_STABILIZE "dbt3stab-stabilize"
#define RES_FORMAT_PROFILE "dbt3stab-profile"

/* Bounds of what the reader accepts (docs/result-format.md, "Bounds"). The file and structure
 * bounds keep a hostile file's memory near 250 MB; the plan bounds are those of `run`. */
#define RES_MAX_FILE_BYTES (256u << 20) /* bytes in a result file */
#define RES_MAX_TOKENS (1 << 20)	/* JSON keys and values in a file */
#define RES_MAX_ENTRIES 100000		/* entries of one array or object */
#define RES_MAX_DEPTH 64		/* nesting of arrays and objects */
#define RES_MAX_TIME_MS 1e9		/* a time (11.6 days) */
#define RES_MIN_MEASURED_MS 1e-6	/* a measured time: the writer rounds to the nanosecond */
#define RES_MAX_RESTARTS 100000		/* plan.restarts; restart indexes are below it */
#define RES_MAX_RUNS 100000		/* plan.warmup and plan.runs */
#define RES_MAX_SCALE 1e5		/* dataset.scale_factor */
#define RES_MAX_BYTES (1LL << 60)	/* a size in bytes (server.buffer_pool) */
#define RES_MAX_TIMEOUT_S 1e6		/* plan.query_timeout_s (RES_MAX_TIME_MS) */
#define RES_MAX_CRASHES 100000		/* plan.max_crashes */
#define RES_MAX_ORDER 8192		/* a side-by-side entry's order string */
#define RES_MAX_NAME 64			/* a query id, a variant name */

/* What happened to a query in one restart. */
enum res_status {
	RES_STATUS_OK = 0,  /* every execution finished */
	RES_STATUS_TIMEOUT, /* an execution was killed by --query-timeout */
	RES_STATUS_CRASH,   /* the server died during the query */
	RES_STATUS_ERROR,   /* the server returned an error */
};

/* "ok", "timeout", "crash", "error". */
const char *res_status_name(enum res_status s);

/* Parses a status name; 0 on success, -1 when unknown. */
int res_status_parse(const char *s, enum res_status *out);

/* One query in one server start. The model owns every pointer; NULL strings are JSON null. */
struct res_restart {
	int index; /* restart number, 0-based */
	enum res_status status;
	double *warmup_ms; /* warm-up execution times */
	size_t n_warmup;
	double *measured_ms; /* measured execution times; non-empty when status is ok */
	size_t n_measured;
	double *server_cpu_ms; /* server CPU per measured execution; n_measured or 0 entries */
	size_t n_server_cpu;
	long long rows;	     /* rows returned by one execution; -1 when none finished (null) */
	char *result_sha256; /* 64 hex digits, or NULL */
	char *plan_sha256;   /* fingerprint of the normalised plan shape, or NULL */
	char *plan;	     /* EXPLAIN FORMAT=JSON text, or NULL */
	int not_steady;	     /* the measured runs still trend (warm-up check) */
	char *error;	     /* error text (crash: tail of the server's error log), or NULL */
	json_t *extra;	     /* further members the producer adds (an object), or NULL */
};

/* One query of the plan and its restarts in order. */
struct res_query {
	char *id;	  /* "Q1" ... "Q22" */
	char *sql_sha256; /* SHA-256 of the query text with its parameters substituted */
	struct res_restart *restarts;
	size_t n_restarts;
	size_t cap_restarts;
	json_t *extra; /* further members (an object), or NULL */
};

/* A whole result file. The free-form sections are JSON objects the producer fills and the model
 * owns (a reference each); the reader checks only the members named in docs/result-format.md. */
struct res_file {
	int format_version; /* RES_FORMAT_VERSION */
	char *tool_version; /* dbt3stab version that wrote the file */
	char *label;	    /* --label, or NULL */
	char *started_at;   /* UTC ISO 8601 */
	char *finished_at;  /* UTC ISO 8601; NULL while the run is in progress (a checkpoint) */
	json_t *host;	    /* name, cpu_model, kernel, topology, governor, turbo, aslr, ... */
	json_t *server;	    /* version, binary, binary_sha256, options, ... */
	json_t *dataset;    /* scale_factor (number, required), generator_version, fingerprint */
	json_t *plan;	    /* restarts, warmup, runs, query_order, seed, variant, ... */
	json_t *pinning;    /* server_cpus, client_cpus, memory_nodes, stabilizers, ... */
	struct res_query *queries;
	size_t n_queries;
	size_t cap_queries;
	json_t *extra; /* further top-level members (an object), or NULL */
};

/* A new empty result: format_version 1, this tool's version, started_at now, empty objects for the
 * sections (dataset gets no scale factor: set it). NULL on out of memory. Free with res_file_free.
 */
struct res_file *res_file_new(void);

/* Frees the result and everything it owns; NULL is fine. */
void res_file_free(struct res_file *res);

/* Replaces a string member (started_at, finished_at, label, ...) with a copy of s (NULL allowed).
 */
int res_set_string(char **member, const char *s);

/* Sets finished_at to the current UTC time. */
int res_file_finish(struct res_file *res);

/* Replaces a section (res->host, res->server, ...) with obj, taking over the caller's reference. */
void res_set_section(json_t **member, json_t *obj);

/* Adds a query with no restarts; the returned pointer is valid until the next res_file_add_query.
 * NULL on out of memory or when id already exists. */
struct res_query *res_file_add_query(struct res_file *res, const char *id, const char *sql_sha256);

/* Finds a query by id; NULL when absent. */
struct res_query *res_file_find_query(const struct res_file *res, const char *id);

/* Finds query number num ("Q<num>"); NULL when absent. */
struct res_query *res_file_find_query_num(const struct res_file *res, int num);

/* Appends a deep copy of r (arrays, strings and a new reference to extra) to q; the caller keeps
 * r. Returns the stored copy, valid until the next res_query_add_restart on q; NULL on OOM. */
struct res_restart *res_query_add_restart(struct res_query *q, const struct res_restart *r);

/* Frees q's restart entry i and closes the gap (later entries move down). */
void res_query_remove_restart(struct res_query *q, size_t i);

/* Frees what r holds (arrays, strings, its reference to extra) and zeroes it. */
void res_restart_release(struct res_restart *r);

/* JSON for a figure or a text that may be missing, as the result file and the reports write
 * them: a finite number (a string), else null. A new reference. */
json_t *res_json_num(double v);
json_t *res_json_str(const char *s);

/* The JSON form of the result (a new reference). Times are rounded to the nanosecond. */
json_t *res_file_to_json(const struct res_file *res);

/* Serialises the result to path atomically (temp file, fsync, rename): safe for checkpoints. */
int res_file_write(const struct res_file *res, const char *path, struct errbuf *err);

/* The result as a JSON text (malloc'd, the caller frees), as res_file_write writes it. */
char *res_file_dumps(const struct res_file *res);

/* What a file holds, for the guards of -o (nothing measured is replaced). */
enum res_kind {
	RES_KIND_NONE = 0, /* no such file, not a regular file, unreadable, or something else */
	RES_KIND_RESULT,   /* RES_FORMAT */
	RES_KIND_STABILIZE,
	RES_KIND_PROFILE
};

/* The kind of the regular file at path: the first "format" member within its first 4 KiB that
 * names one of the formats above (the writers put it first; bounded, so a huge file costs one
 * read). */
enum res_kind res_file_kind(const char *path);

/* "a result file", "a stabilize analysis", "a stabilize profile"; "" for RES_KIND_NONE. */
const char *res_kind_name(enum res_kind k);

/* Strict reader. On error fills err with one line naming the file and the JSON path, e.g.
 * "'new.json': $.queries[3].restarts[1].measured_ms[2]: negative time -1.5", returns -1.
 * name is the file name used in messages. */
int res_file_read(struct res_file **out, const char *path, struct errbuf *err);
int res_file_parse(struct res_file **out, const char *text, size_t len, const char *name,
		   struct errbuf *err);

/* Reads a result file's text: a regular file (not a FIFO, device or directory: opening does not
 * block) of at most RES_MAX_FILE_BYTES. *out is malloc'd and NUL-terminated; the caller frees. */
int res_text_load(const char *path, char **out, size_t *len, struct errbuf *err);

/* Checks the text against the structure bounds (RES_MAX_TOKENS, RES_MAX_ENTRIES, RES_MAX_DEPTH)
 * before it is parsed; name is used in the message. */
int res_text_check(const char *text, size_t len, const char *name, struct errbuf *err);

/* About how many JSON keys and values a run of this plan writes (compare with RES_MAX_TOKENS). */
size_t res_plan_tokens(long restarts, long n_queries, long warmup, long runs);

/* The dataset's scale factor (0 when absent) and fingerprint (NULL when absent or null). */
double res_file_scale_factor(const struct res_file *res);
const char *res_file_dataset_fingerprint(const struct res_file *res);
/* The dataset's content check (dataset.content_check: what the run found when it started), NULL
 * when absent or null (a file of an older version). */
const char *res_file_content_check(const struct res_file *res);

/* What every table says when $.server.buffer_pool.fits is false (docs/server.md). */
#define RES_POOL_NOT_FIT "the data does not fit in the buffer pool: times include disk reads"

/* $.server.buffer_pool.fits: 1 the data fits, 0 it does not, -1 not recorded (older files). */
int res_file_pool_fits(const struct res_file *res);

/* The sum of every execution of a restart entry (ms), warm-up and measured. */
double res_entry_exec_ms(const struct res_restart *e);

/* A restart's cost besides its executions (s): run --budget's measured server start and stop,
 * else, for a file of one server (no variant), the wall time the executions leave divided
 * over the restarts; 0 when unknown (a variant's file shares its wall time with the others). */
double res_restart_fixed_s(const struct res_file *res);

/* One restart of res (s): the mean over its restarts of the executions plus the fixed part;
 * NaN when nothing was executed. */
double res_restart_cost_s(const struct res_file *res);

/* ---- interference (docs/result-format.md, "Interference") ---- */

/* The level of interference (an idle host stays below it): summed over a restart's query
 * windows, other processes' CPU time on the benchmark PUs or the steal time above
 * RES_INTERF_SHARE of the window and at least RES_INTERF_FLOOR_MS and RES_INTERF_FLOOR_MS_PER_QUERY
 * per query window (/proc/stat counts in 10 ms ticks, so each window may be off by a tick at
 * each end: seen, 30 ms of "others" in an idle restart of three short queries). In the file:
 * interference.disturbed_share, disturbed_floor_ms, disturbed_floor_ms_per_query. */
#define RES_INTERF_SHARE 0.05
#define RES_INTERF_FLOOR_MS 30.0
#define RES_INTERF_FLOOR_MS_PER_QUERY 20.0
/* Memory contention (the probe of runner/run_memprobe.h): a probe is under pressure when its
 * timed pass is slower than RES_MEM_PRESSURE_FACTOR times the file's floor (the fastest probe
 * it holds, host.memory_probe.floor_ns included); a restart is at the level when more than
 * RES_MEM_SHARE of the probes after its queries were, and it has at least RES_MEM_MIN_PROBES. */
#define RES_MEM_PRESSURE_FACTOR 2.0
#define RES_MEM_SHARE 0.25
#define RES_MEM_MIN_PROBES 3
/* A restart is disturbed by a cause when it is at the level and unusual for the run, or, for
 * CPU time taken from the server (other processes on the server's own PUs, steal), when it is
 * at the level alone: the level is an absolute floor there, since a task sharing the server's
 * PU takes time from the measured query however many restarts it is in. Others' time on the
 * client's PU, and memory contention, count only when unusual (docs/run.md, "Interference").
 * Unusual: its share (of the window, or of its probes under pressure)
 * exceeds the median m of the reference -- the run's other restarts, and for memory the
 * calibration probes taken before the first start -- by more than RES_UNUSUAL_MADS scaled
 * MADs (1.4826 MAD) and by RES_UNUSUAL_CPU_SHARE (CPU, steal) or RES_UNUSUAL_MEM_SHARE
 * (memory), and by more than the counting error: the excess over m times the window at least
 * the level's tick allowance and 3 sd of the difference of two tick counts at m
 * (sqrt(2 m window / 10 ms) ticks); for memory at least RES_UNUSUAL_MEM_PROBES probes more
 * than m times its probes. With no reference (one restart) the level alone decides. */
#define RES_UNUSUAL_MADS 3.0
#define RES_UNUSUAL_CPU_SHARE 0.05
#define RES_UNUSUAL_MEM_SHARE 0.25
#define RES_UNUSUAL_MEM_PROBES 3.0
/* Above this many restarts a restart stays in its own reference (it moves the median of a
 * thousand by at most half a place), so the rule is O(n log n) on a hostile file. */
#define RES_UNUSUAL_LOO_MAX 1000
enum res_interf_cause {
	RES_INTERF_OTHER_CPU = 1 << 0,
	RES_INTERF_STEAL = 1 << 1,
	RES_INTERF_MEMORY = 1 << 2
};

/* One restart's interference: the sums of its query entries' "interference" members. */
struct res_interf_restart {
	int index;
	size_t n_queries; /* query entries with a record */
	double window_ms, other_cpu_ms, steal_ms, server_cpu_ms, query_thread_cpu_ms,
	    server_rest_cpu_ms;
	double vcsw, ivcsw, majflt;
	double read_bytes, write_bytes; /* the server's storage I/O, over n_io records */
	size_t n_io;			/* records with I/O counters (files before them: 0) */
	size_t n_mem, n_mem_pressured;	/* probes after its queries; of them under pressure */
	double mem_max_ns;		/* the slowest of them */
	double mem_floor_ns;		/* the file's floor (0: no probe in the file) */
	double server_pu_other_ms;	/* others' busy time on the server's own PUs, over n_spu */
	size_t n_spu;			/* records with it (a pinned server; files before it: 0) */
	unsigned level;			/* enum res_interf_cause bits: at the level (contended) */
	unsigned causes; /* ... at the level and unusual for the run; nonzero: disturbed */
};

/* The calibration probes before the first server start (host.memory_probe.calibration_ns):
 * how many, and how many of them were under pressure against the file's floor. */
struct res_interf_calib {
	size_t n, pressured;
};

/* Sets r[i].level and r[i].causes of the n restarts of one file by the rule above; cal (NULL:
 * none recorded) joins the memory reference when it has at least RES_MEM_MIN_PROBES probes. */
void res_interf_classify(struct res_interf_restart *r, size_t n,
			 const struct res_interf_calib *cal);

/* The restarts of res that have interference records, by index ascending (*out malloc'd, the
 * caller frees; *n_out 0 for files without records). -1 on out of memory. */
int res_interf_restarts(const struct res_file *res, struct res_interf_restart **out, size_t *n_out);

/* "other processes 48% of a PU" / "steal 7% of a PU" / "memory contention after 9 of 22
 * queries" (all that apply): the time over the restart's windows (above 100% when others kept
 * several PUs busy), the probes under pressure. */
void res_interf_cause_text(char *out, size_t len, const struct res_interf_restart *r);

/* Counts the disturbed restarts; restart indexes (1-based) listed as "2, 5" in list. */
size_t res_interf_disturbed_list(const struct res_interf_restart *r, size_t n, char *list,
				 size_t len);

/* One line naming the disturbed restarts and by how much, e.g. "1 of 3 restarts disturbed
 * (restart 2: other processes 48% of a PU)"; returns how many (0: out is ""). */
size_t res_interf_line(const struct res_file *res, char *out, size_t len);

/* The top-level "interference" member: the rule and each restart's sums and verdict. */
json_t *res_interf_json(const struct res_interf_restart *r, size_t n);

/* Contention of the host rather than of one restart: a cause at its level in at least half of
 * the restarts with records, and in at least 2, is the host's (docs/run.md, "Interference"). */
struct res_interf_host {
	size_t n;		/* restarts with records */
	size_t at_level[3];	/* restarts at the level of other CPU, steal, memory */
	double median_share[3]; /* the median over those restarts of their share of the window
				 * (other CPU, steal) or of their probes under pressure (memory) */
	double probe_median_ns; /* the median probe after a query in the file (0: none) */
	double floor_ns;	/* the file's floor (0: no probe) */
	unsigned causes;	/* enum res_interf_cause bits: the host's */
};

/* Fills out from the restarts of res (res_interf_restarts); -1 on out of memory. */
int res_interf_host(struct res_interf_host *out, const struct res_file *res);

/* "memory contention throughout (probe median 3.1x its floor)", "other processes 12% of a PU
 * in 5 of 8 restarts", the host's causes joined by "; "; returns their number (0: out ""). */
int res_interf_host_text(char *out, size_t len, const struct res_interf_host *h);

/* {"memory": {"restarts", "of", "median_share", "probe_median_ns", "floor_ns"},
 *  "other_cpu": {"restarts", "of", "median_share"}, "steal": ...}: the host's causes only
 * (an empty object when none). */
json_t *res_interf_host_json(const struct res_interf_host *h);

/* The memory-contention covariate of every restart of res (compare --adjust-memory): the mean
 * of the natural logs of the probes after its queries (interference.memory_probe_after_ns of
 * every query entry of the restart), in (*out)[index], NaN for an index without probes; *out_n
 * the highest index + 1 (*out malloc'd, the caller frees). Returns the restarts with a value
 * (0: the file has no probes), -1 on out of memory. */
int res_interf_probe_covariate(const struct res_file *res, double **out, size_t *out_n);

/* Removes the entries of disturbed restarts from every query; *out_n the restarts removed. */
int res_file_drop_disturbed(struct res_file *res, size_t *out_n);

#endif
