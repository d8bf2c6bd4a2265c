/* SPDX-License-Identifier: MIT */
/* The DBT-3 schema for InnoDB: the eight tables with DBT-3's MySQL column types, their primary
 * keys, and the named secondary indexes optimizer developers benchmark with. */
#ifndef DBT3_SCHEMA_H
#define DBT3_SCHEMA_H
#include "dbt3/gen.h"
#include <stddef.h>

/* Which indexes exist besides the tables' primary keys. */
enum schema_indexes {
	SCHEMA_INDEXES_DBT3,	 /* the DBT-3 MySQL secondary indexes (default) */
	SCHEMA_INDEXES_KEYS_ONLY /* primary keys alone */
};

/* InnoDB persistent statistics, fixed per table: computed once by ANALYZE TABLE after the load,
 * never recalculated automatically, sampling this many leaf pages per index. */
#define SCHEMA_STATS_SAMPLE_PAGES 1000

/* "dbt3" / "keys-only"; parse returns 0, or -1 when unknown. */
const char *schema_indexes_name(enum schema_indexes ix);
int schema_indexes_parse(const char *s, enum schema_indexes *out);

/* CREATE TABLE statement of table t (primary key only, no secondary index). Static text. */
const char *schema_table_create(enum gen_table t);

/* The column list of t in .tbl field order, comma-separated ("c_custkey, c_name, ..."). */
const char *schema_table_columns(enum gen_table t);

/* "ALTER TABLE t ADD INDEX ..., ADD INDEX ..." adding every DBT-3 secondary index of t, or NULL
 * when t has none (region). Static text. One ALTER reads the table once for all its indexes:
 * lineitem's 8 at SF 1 on MariaDB 10.11 took 38.8-44.8 s against 43.8-44.3 s for 8 single
 * ALTERs in the same runs (docs/load.md). */
const char *schema_table_indexes(enum gen_table t);

/* Number of DBT-3 secondary indexes in total (15) and of table t. */
int schema_index_count(void);
int schema_table_index_count(enum gen_table t);

/* The whole schema as one SQL script (tables then, unless keys-only, the indexes); caller frees. */
char *schema_script(enum schema_indexes ix);

#endif
