/* SPDX-License-Identifier: MIT */
/* Bulk loader: schema, rows streamed from the in-process generator (or .tbl files) through
 * LOAD DATA LOCAL INFILE in parallel connections, indexes, statistics, checks, fingerprint. */
#ifndef DBT3_LOAD_H
#define DBT3_LOAD_H
#include <jansson.h>
#include <mysql.h>
#include <stdint.h>

#include "dbt3/gen.h"
#include "dbt3/schema.h"
#include "server/srv.h"
#include "base/util.h"

/* Failures a caller handles. */
enum load_error {
	LOAD_E_NONE = -2,  /* load_fingerprint_read: the database holds no complete load */
	LOAD_E_SERVER = -3 /* the server failed or went away (exit code "server failure") */
};

/* The table holding the fingerprint, written last by a load. */
#define LOAD_FINGERPRINT_TABLE "dbt3stab_fingerprint"

/* The content check's text: "orders=N keysum=K crc=X" (load_content_read). */
#define LOAD_CONTENT_LEN 96

/* What data a database holds: written last by load_finish, so its presence means complete. */
struct load_fingerprint {
	double sf;
	char generator[96];	   /* "dbt3stab 0.1.0 gen (TPC-H dbgen 2.18 rows)" or "files" */
	char indexes[16];	   /* schema_indexes_name() */
	char options[256];	   /* how it was loaded, "source=generator jobs=2 ..." */
	int64_t rows[GEN_NTABLES]; /* verified row counts, by enum gen_table */
	char loaded_at[32];	   /* UTC ISO 8601 */
	double load_seconds;
	char content[LOAD_CONTENT_LEN]; /* load_content_read at the load; "" for an older load */
};

/* Reads the fingerprint of database db on m: 0 when found, LOAD_E_NONE when the database or
 * its fingerprint is missing (never loaded, or a load that did not finish), -1 on errors. */
int load_fingerprint_read(MYSQL *m, const char *db, struct load_fingerprint *out,
			  struct errbuf *err);

/* The content check of database db on m, the table every refresh function changes in each of
 * its transactions: orders' row count, the sum of its keys and the XOR of a CRC-32 of each
 * row's fields (one scan of orders; the same text on every server flavour), into out. 0, -1
 * or LOAD_E_SERVER with err. */
int load_content_read(MYSQL *m, const char *db, char out[LOAD_CONTENT_LEN], struct errbuf *err);

/* {"scale_factor","generator","indexes","options","rows":{table:n},"loaded_at",
 *  "load_seconds"} and "content_check" when the load has one, for result files; NULL when out
 * of memory. Caller decrefs. */
json_t *load_fingerprint_json(const struct load_fingerprint *fp);

/* The phases of a load, in order. */
enum load_phase {
	LOAD_PHASE_SCHEMA,
	LOAD_PHASE_TABLES, /* each table's rows, then its indexes; tables on parallel connections */
	LOAD_PHASE_ANALYZE,
	LOAD_PHASE_VERIFY,
	LOAD_PHASE_RESTORE, /* restart without the bulk-load profile (by run_load, not the loader) */
	LOAD_PHASE_FINGERPRINT,
	LOAD_NPHASES
};

/* "schema", "tables", ... */
const char *load_phase_name(enum load_phase p);

/* Where a table is in the tables phase. */
enum load_stage { LOAD_STAGE_WAITING, LOAD_STAGE_ROWS, LOAD_STAGE_INDEXES, LOAD_STAGE_DONE };

/* A progress snapshot passed to the progress callback (called from the calling thread). */
struct load_progress {
	enum load_phase phase;
	enum load_stage stage[GEN_NTABLES]; /* all WAITING outside the tables phase */
	int64_t done[GEN_NTABLES];	    /* units (gen_rows) or bytes (--from) sent per table */
	int64_t total[GEN_NTABLES];
	int indexes_total[GEN_NTABLES]; /* 0 with --indexes keys-only */
	double elapsed;			/* seconds since the phase started */
};

struct load_opts {
	double sf;
	const char *database; /* default "dbt3" */
	enum schema_indexes indexes;
	const char *from_dir; /* NULL: generate in-process; else DIR/<table>.tbl */
	int force;	      /* reload even when the fingerprint matches */
	int jobs;	      /* parallel connections (default 2) */
	int bulk_profile;     /* run_load: a managed server loads with the bulk profile (default 1) */
	void (*progress)(void *arg, const struct load_progress *p);
	void *progress_arg;
};

/* What a load did (load_begin clears it; the steps fill it). */
struct load_report {
	int noop;		    /* the fingerprint matched: nothing loaded */
	int changed;		    /* ... but not the content check: reloaded */
	struct load_fingerprint fp; /* the database's fingerprint afterwards */
	double phase_seconds[LOAD_NPHASES];
	double rows_seconds[GEN_NTABLES];  /* per table, within the tables phase */
	double index_seconds[GEN_NTABLES]; /* 0 for a table without secondary indexes */
	double total_seconds;
};

/* Defaults: sf 1, database "dbt3", DBT-3 indexes, generator, 2 jobs, bulk profile. */
void load_opts_init(struct load_opts *o);

/* The server options of the bulk-load profile (innodb_flush_log_at_trx_commit=0, doublewrite
 * off, large redo log), for srv_launch.overlay; static, *out_n entries. */
const struct srv_kv *load_bulk_profile(size_t *out_n);

/* Checks what needs no server: jobs 1 to 16, sf > 0, the database name (1 to 64 of
 * [A-Za-z0-9_$]) and, with o->from_dir, that the directory holds the eight readable
 * <table>.tbl files. 0 when valid, -1 with a one-line err. load_begin checks the same. */
int load_check_opts(const struct load_opts *o, struct errbuf *err);

/* A load in three steps on the running server s; the loader connects but never starts, stops
 * or restarts it (runner/run_load.h does, around the steps). Each returns 0 on success,
 * LOAD_E_SERVER or -1 with err filled. */

/* Step 1: reads o->database's fingerprint into out; when it matches o, its content check
 * matches the data and !o->force, sets out->noop and the load ends here. Otherwise creates the
 * database (out->changed: the data changed since it was loaded). */
int load_begin(struct srv *s, const struct load_opts *o, struct load_report *out,
	       struct errbuf *err);

/* Step 2: the fingerprint table dropped, schema, each table's rows and indexes, ANALYZE, row
 * counts checked. */
int load_data(struct srv *s, const struct load_opts *o, struct load_report *out, struct errbuf *err);

/* Step 3: writes the fingerprint, last, and reads it back into out->fp. */
int load_finish(struct srv *s, const struct load_opts *o, struct load_report *out,
		struct errbuf *err);

#endif
