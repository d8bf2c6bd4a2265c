/* SPDX-License-Identifier: MIT */
/* Column types as in the DBT-3 kit's MySQL scripts; CHAR/VARCHAR widths follow dbgen's fields. */
#include "dbt3/schema.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STR_(x) #x
#define STR(x) STR_(x)
#define TABLE_OPTS                                                                                 \
	" ENGINE=InnoDB DEFAULT CHARSET=latin1 STATS_PERSISTENT=1 STATS_AUTO_RECALC=0"             \
	" STATS_SAMPLE_PAGES=" STR(SCHEMA_STATS_SAMPLE_PAGES)

struct table_def {
	const char *create;
	const char *columns;
	const char *indexes;
	int nindexes;
};

/* Indexed by enum gen_table. */
static const struct table_def tables[GEN_NTABLES] = {
    [GEN_CUSTOMER] = {"CREATE TABLE customer ("
		      "c_custkey INTEGER NOT NULL, "
		      "c_name VARCHAR(25) NOT NULL, "
		      "c_address VARCHAR(40) NOT NULL, "
		      "c_nationkey INTEGER NOT NULL, "
		      "c_phone CHAR(15) NOT NULL, "
		      "c_acctbal DECIMAL(10,2) NOT NULL, "
		      "c_mktsegment CHAR(10) NOT NULL, "
		      "c_comment VARCHAR(117) NOT NULL, "
		      "PRIMARY KEY (c_custkey))" TABLE_OPTS,
		      "c_custkey, c_name, c_address, c_nationkey, c_phone, c_acctbal, "
		      "c_mktsegment, c_comment",
		      "ALTER TABLE customer ADD INDEX i_c_nationkey (c_nationkey)", 1},
    [GEN_LINEITEM] = {"CREATE TABLE lineitem ("
		      "l_orderkey INTEGER NOT NULL, "
		      "l_partkey INTEGER NOT NULL, "
		      "l_suppkey INTEGER NOT NULL, "
		      "l_linenumber INTEGER NOT NULL, "
		      "l_quantity DECIMAL(10,2) NOT NULL, "
		      "l_extendedprice DECIMAL(10,2) NOT NULL, "
		      "l_discount DECIMAL(10,2) NOT NULL, "
		      "l_tax DECIMAL(10,2) NOT NULL, "
		      "l_returnflag CHAR(1) NOT NULL, "
		      "l_linestatus CHAR(1) NOT NULL, "
		      "l_shipdate DATE NOT NULL, "
		      "l_commitdate DATE NOT NULL, "
		      "l_receiptdate DATE NOT NULL, "
		      "l_shipinstruct CHAR(25) NOT NULL, "
		      "l_shipmode CHAR(10) NOT NULL, "
		      "l_comment VARCHAR(44) NOT NULL, "
		      "PRIMARY KEY (l_orderkey, l_linenumber))" TABLE_OPTS,
		      "l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, "
		      "l_extendedprice, l_discount, l_tax, l_returnflag, l_linestatus, "
		      "l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, "
		      "l_comment",
		      "ALTER TABLE lineitem "
		      "ADD INDEX i_l_shipdate (l_shipdate), "
		      "ADD INDEX i_l_suppkey_partkey (l_partkey, l_suppkey), "
		      "ADD INDEX i_l_partkey (l_partkey), "
		      "ADD INDEX i_l_suppkey (l_suppkey), "
		      "ADD INDEX i_l_receiptdate (l_receiptdate), "
		      "ADD INDEX i_l_orderkey (l_orderkey), "
		      "ADD INDEX i_l_orderkey_quantity (l_orderkey, l_quantity), "
		      "ADD INDEX i_l_commitdate (l_commitdate)",
		      8},
    [GEN_NATION] = {"CREATE TABLE nation ("
		    "n_nationkey INTEGER NOT NULL, "
		    "n_name CHAR(25) NOT NULL, "
		    "n_regionkey INTEGER NOT NULL, "
		    "n_comment VARCHAR(152) NOT NULL, "
		    "PRIMARY KEY (n_nationkey))" TABLE_OPTS,
		    "n_nationkey, n_name, n_regionkey, n_comment",
		    "ALTER TABLE nation ADD INDEX i_n_regionkey (n_regionkey)", 1},
    [GEN_ORDERS] = {"CREATE TABLE orders ("
		    "o_orderkey INTEGER NOT NULL, "
		    "o_custkey INTEGER NOT NULL, "
		    "o_orderstatus CHAR(1) NOT NULL, "
		    "o_totalprice DECIMAL(10,2) NOT NULL, "
		    "o_orderdate DATE NOT NULL, "
		    "o_orderpriority CHAR(15) NOT NULL, "
		    "o_clerk CHAR(15) NOT NULL, "
		    "o_shippriority INTEGER NOT NULL, "
		    "o_comment VARCHAR(79) NOT NULL, "
		    "PRIMARY KEY (o_orderkey))" TABLE_OPTS,
		    "o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate, "
		    "o_orderpriority, o_clerk, o_shippriority, o_comment",
		    "ALTER TABLE orders "
		    "ADD INDEX i_o_orderdate (o_orderdate), "
		    "ADD INDEX i_o_custkey (o_custkey)",
		    2},
    [GEN_PART] = {"CREATE TABLE part ("
		  "p_partkey INTEGER NOT NULL, "
		  "p_name VARCHAR(55) NOT NULL, "
		  "p_mfgr CHAR(25) NOT NULL, "
		  "p_brand CHAR(10) NOT NULL, "
		  "p_type VARCHAR(25) NOT NULL, "
		  "p_size INTEGER NOT NULL, "
		  "p_container CHAR(10) NOT NULL, "
		  "p_retailprice DECIMAL(10,2) NOT NULL, "
		  "p_comment VARCHAR(23) NOT NULL, "
		  "PRIMARY KEY (p_partkey))" TABLE_OPTS,
		  "p_partkey, p_name, p_mfgr, p_brand, p_type, p_size, p_container, "
		  "p_retailprice, p_comment",
		  NULL, 0},
    [GEN_PARTSUPP] = {"CREATE TABLE partsupp ("
		      "ps_partkey INTEGER NOT NULL, "
		      "ps_suppkey INTEGER NOT NULL, "
		      "ps_availqty INTEGER NOT NULL, "
		      "ps_supplycost DECIMAL(10,2) NOT NULL, "
		      "ps_comment VARCHAR(199) NOT NULL, "
		      "PRIMARY KEY (ps_partkey, ps_suppkey))" TABLE_OPTS,
		      "ps_partkey, ps_suppkey, ps_availqty, ps_supplycost, ps_comment",
		      "ALTER TABLE partsupp "
		      "ADD INDEX i_ps_partkey (ps_partkey), "
		      "ADD INDEX i_ps_suppkey (ps_suppkey)",
		      2},
    [GEN_REGION] = {"CREATE TABLE region ("
		    "r_regionkey INTEGER NOT NULL, "
		    "r_name CHAR(25) NOT NULL, "
		    "r_comment VARCHAR(152) NOT NULL, "
		    "PRIMARY KEY (r_regionkey))" TABLE_OPTS,
		    "r_regionkey, r_name, r_comment", NULL, 0},
    [GEN_SUPPLIER] = {"CREATE TABLE supplier ("
		      "s_suppkey INTEGER NOT NULL, "
		      "s_name CHAR(25) NOT NULL, "
		      "s_address VARCHAR(40) NOT NULL, "
		      "s_nationkey INTEGER NOT NULL, "
		      "s_phone CHAR(15) NOT NULL, "
		      "s_acctbal DECIMAL(10,2) NOT NULL, "
		      "s_comment VARCHAR(101) NOT NULL, "
		      "PRIMARY KEY (s_suppkey))" TABLE_OPTS,
		      "s_suppkey, s_name, s_address, s_nationkey, s_phone, s_acctbal, s_comment",
		      "ALTER TABLE supplier ADD INDEX i_s_nationkey (s_nationkey)", 1},
};

const char *schema_indexes_name(enum schema_indexes ix)
{
	return ix == SCHEMA_INDEXES_KEYS_ONLY ? "keys-only" : "dbt3";
}

int schema_indexes_parse(const char *s, enum schema_indexes *out)
{
	if (strcmp(s, "dbt3") == 0)
		*out = SCHEMA_INDEXES_DBT3;
	else if (strcmp(s, "keys-only") == 0)
		*out = SCHEMA_INDEXES_KEYS_ONLY;
	else
		return -1;
	return 0;
}

const char *schema_table_create(enum gen_table t)
{
	return tables[t].create;
}

const char *schema_table_columns(enum gen_table t)
{
	return tables[t].columns;
}

const char *schema_table_indexes(enum gen_table t)
{
	return tables[t].indexes;
}

int schema_table_index_count(enum gen_table t)
{
	return tables[t].nindexes;
}

int schema_index_count(void)
{
	int n = 0;
	for (int t = 0; t < GEN_NTABLES; t++)
		n += tables[t].nindexes;
	return n;
}

char *schema_script(enum schema_indexes ix)
{
	size_t cap = 1;
	for (int t = 0; t < GEN_NTABLES; t++)
		cap += strlen(tables[t].create) + 3 +
		       (tables[t].indexes ? strlen(tables[t].indexes) + 3 : 0);
	char *s = malloc(cap), *p = s;
	if (!s)
		return NULL;
	for (int t = 0; t < GEN_NTABLES; t++)
		p += sprintf(p, "%s;\n", tables[t].create);
	if (ix == SCHEMA_INDEXES_DBT3)
		for (int t = 0; t < GEN_NTABLES; t++)
			if (tables[t].indexes)
				p += sprintf(p, "%s;\n", tables[t].indexes);
	*p = '\0';
	return s;
}
