/* SPDX-License-Identifier: MIT */
#include "dbt3/schema.h"
#include "tests/harness.h"
#include <stdlib.h>
#include <string.h>

TH_TEST(schema, has_the_fifteen_dbt3_indexes)
{
	static const char *names[] = {"i_s_nationkey",
				      "i_ps_partkey",
				      "i_ps_suppkey",
				      "i_c_nationkey",
				      "i_o_orderdate",
				      "i_o_custkey",
				      "i_n_regionkey",
				      "i_l_shipdate",
				      "i_l_suppkey_partkey (l_partkey, l_suppkey)",
				      "i_l_partkey",
				      "i_l_suppkey",
				      "i_l_receiptdate",
				      "i_l_orderkey",
				      "i_l_orderkey_quantity (l_orderkey, l_quantity)",
				      "i_l_commitdate"};
	CU_ASSERT_EQUAL(schema_index_count(), 15);
	char *s = schema_script(SCHEMA_INDEXES_DBT3);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		CU_ASSERT_PTR_NOT_NULL(strstr(s, names[i]));
	free(s);
}

static int count_of(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = s; p && (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

TH_TEST(schema, one_alter_per_table)
{
	int n = 0;
	for (int t = 0; t < GEN_NTABLES; t++) {
		const char *ddl = schema_table_indexes((enum gen_table)t);
		int k = schema_table_index_count((enum gen_table)t);
		if (!ddl) {
			CU_ASSERT_EQUAL(k, 0);
			continue;
		}
		CU_ASSERT_EQUAL(count_of(ddl, "ALTER TABLE "), 1);
		CU_ASSERT_EQUAL(count_of(ddl, "ADD INDEX "), k);
		n += k;
	}
	CU_ASSERT_EQUAL(n, 15);
	CU_ASSERT_EQUAL(schema_index_count(), 15);
	CU_ASSERT_PTR_NULL(schema_table_indexes(GEN_REGION));
	CU_ASSERT_STRING_EQUAL(schema_table_indexes(GEN_ORDERS),
			       "ALTER TABLE orders ADD INDEX i_o_orderdate (o_orderdate), "
			       "ADD INDEX i_o_custkey (o_custkey)");
}

TH_TEST(schema, keys_only_has_no_secondary_index)
{
	char *s = schema_script(SCHEMA_INDEXES_KEYS_ONLY);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_PTR_NULL(strstr(s, "ADD INDEX"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "PRIMARY KEY (l_orderkey, l_linenumber)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "PRIMARY KEY (ps_partkey, ps_suppkey)"));
	free(s);
}

TH_TEST(schema, dbt3_types_and_persistent_statistics)
{
	const char *li = schema_table_create(GEN_LINEITEM);
	CU_ASSERT_PTR_NOT_NULL(strstr(li, "l_extendedprice DECIMAL(10,2)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(li, "l_shipdate DATE"));
	CU_ASSERT_PTR_NOT_NULL(strstr(li, "l_comment VARCHAR(44)"));
	for (int t = 0; t < GEN_NTABLES; t++) {
		const char *c = schema_table_create((enum gen_table)t);
		CU_ASSERT_PTR_NOT_NULL(strstr(c, "ENGINE=InnoDB"));
		CU_ASSERT_PTR_NOT_NULL(strstr(c, "STATS_PERSISTENT=1 STATS_AUTO_RECALC=0"));
		CU_ASSERT_PTR_NOT_NULL(strstr(c, "STATS_SAMPLE_PAGES="));
	}
}

TH_TEST(schema, indexes_option_parses)
{
	enum schema_indexes ix;
	CU_ASSERT_EQUAL(schema_indexes_parse("dbt3", &ix), 0);
	CU_ASSERT_EQUAL(ix, SCHEMA_INDEXES_DBT3);
	CU_ASSERT_EQUAL(schema_indexes_parse("keys-only", &ix), 0);
	CU_ASSERT_EQUAL(ix, SCHEMA_INDEXES_KEYS_ONLY);
	CU_ASSERT_EQUAL(schema_indexes_parse("all", &ix), -1);
	CU_ASSERT_STRING_EQUAL(schema_indexes_name(SCHEMA_INDEXES_KEYS_ONLY), "keys-only");
}

TH_MAIN(schema)
