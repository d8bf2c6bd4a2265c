/* SPDX-License-Identifier: MIT */
/* The work counters (runner/run_work.c): the name table per server, the statement, the parser,
 * the reading's own cost and the deltas, on five real readings of MariaDB 10.11.19
 * (tests/data/work_status.tsv; expected counts from tests/data/work_status.py). */
#include "harness.h"
#include "runner/run_work.h"
#include "tests/data/work_status_ref.inc"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Which server has which counter: MySQL 8 lacks MariaDB's Handler_tmp_* and Rows_* (its
 * documentation's server status variables; no MySQL 8 binary here to read them from). */
static const struct {
	const char *name;
	int mariadb, mysql;
} expected_names[] = {
    {"Handler_read_first", 1, 1},      {"Handler_read_key", 1, 1},
    {"Handler_read_next", 1, 1},       {"Handler_read_prev", 1, 1},
    {"Handler_read_rnd", 1, 1},	       {"Handler_read_rnd_next", 1, 1},
    {"Handler_write", 1, 1},	       {"Handler_tmp_write", 1, 0},
    {"Handler_tmp_update", 1, 0},      {"Rows_read", 1, 0},
    {"Rows_tmp_read", 1, 0},	       {"Sort_rows", 1, 1},
    {"Sort_merge_passes", 1, 1},       {"Created_tmp_tables", 1, 1},
    {"Created_tmp_disk_tables", 1, 1}, {"Select_scan", 1, 1},
    {"Select_full_join", 1, 1},	       {"Select_range", 1, 1},
    {"Select_range_check", 1, 1},
};

static int index_of(const char *name, enum run_work_flavour f)
{
	for (int i = 0; i < RUN_WORK_MAX; i++)
		if (run_work_name(i, f) && strcmp(run_work_name(i, f), name) == 0)
			return i;
	return -1;
}

TH_TEST(run_work, names_per_server)
{
	size_t n = sizeof(expected_names) / sizeof(expected_names[0]);
	CU_ASSERT_EQUAL(n, RUN_WORK_MAX);
	for (size_t k = 0; k < n; k++) {
		const char *name = expected_names[k].name;
		char quoted[80];
		snprintf(quoted, sizeof(quoted), "'%s'", name);
		CU_ASSERT_EQUAL(index_of(name, RUN_WORK_MARIADB) >= 0, expected_names[k].mariadb);
		CU_ASSERT_EQUAL(index_of(name, RUN_WORK_MYSQL) >= 0, expected_names[k].mysql);
		CU_ASSERT_EQUAL(strstr(run_work_sql(RUN_WORK_MARIADB), quoted) != NULL,
				expected_names[k].mariadb);
		CU_ASSERT_EQUAL(strstr(run_work_sql(RUN_WORK_MYSQL), quoted) != NULL,
				expected_names[k].mysql);
	}
	CU_ASSERT_PTR_NULL(run_work_name(RUN_WORK_MAX, RUN_WORK_MARIADB));
	CU_ASSERT_PTR_NULL(run_work_name(-1, RUN_WORK_MYSQL));
}

TH_TEST(run_work, rows_taken_by_name)
{
	static const struct {
		enum run_work_flavour f;
		const char *name, *value;
		int rc;
		long long v;
	} cases[] = {
	    {RUN_WORK_MARIADB, "Handler_read_key", "2560", 0, 2560},
	    {RUN_WORK_MYSQL, "HANDLER_READ_KEY", "7", 0, 7}, /* performance_schema spells it so */
	    {RUN_WORK_MYSQL, "Rows_read", "5", 1, 0},	      /* not a MySQL counter */
	    {RUN_WORK_MARIADB, "Com_select", "5", 1, 0},	      /* not a work counter */
	    {RUN_WORK_MARIADB, "Sort_rows", "-1", -1, 0},
	    {RUN_WORK_MARIADB, "Sort_rows", "12x", -1, 0},
	    {RUN_WORK_MARIADB, "Sort_rows", "", -1, 0},
	    {RUN_WORK_MARIADB, "Sort_rows", NULL, -1, 0},
	    {RUN_WORK_MARIADB, "Sort_rows", "9007199254740993", -1, 0},
	    {RUN_WORK_MARIADB, "Sort_rows", "9007199254740992", 0, 9007199254740992LL},
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct run_work_snap s;
		memset(&s, 0, sizeof(s));
		int rc = run_work_take(&s, cases[k].f, cases[k].name, cases[k].value);
		CU_ASSERT_EQUAL(rc, cases[k].rc);
		if (rc == 0) {
			int i;
			for (i = 0; i < RUN_WORK_MAX; i++)
				if (s.have & (1ul << i))
					break;
			CU_ASSERT_FATAL(i < RUN_WORK_MAX);
			CU_ASSERT_EQUAL(s.v[i], cases[k].v);
			CU_ASSERT_EQUAL(s.have, 1ul << i);
		} else {
			CU_ASSERT_EQUAL(s.have, 0);
		}
	}
}

/* The five readings of the fixture. */
static void load_readings(struct run_work_snap r[5])
{
	char path[1024], line[256];
	snprintf(path, sizeof(path), "%s/tests/data/work_status.tsv", DBT3_SOURCE_DIR);
	FILE *f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	memset(r, 0, 5 * sizeof(*r));
	while (fgets(line, sizeof(line), f)) {
		int k;
		char name[64], value[32];
		CU_ASSERT_EQUAL_FATAL(sscanf(line, "%d\t%63s\t%31s", &k, name, value), 3);
		CU_ASSERT_FATAL(k >= 0 && k < 5);
		CU_ASSERT_EQUAL(run_work_take(&r[k], RUN_WORK_MARIADB, name, value), 0);
	}
	fclose(f);
}

TH_TEST(run_work, offset_and_deltas_of_real_readings)
{
	struct run_work_snap r[5];
	struct run_work w = {.flavour = RUN_WORK_MARIADB};
	struct errbuf err = {""};
	load_readings(r);
	CU_ASSERT_EQUAL_FATAL(run_work_offset(&w.offset, r), 0);
	struct res_counts c;
	res_counts_init(&c, 2);
	/* executions between readings 2-3 and 3-4 */
	CU_ASSERT_EQUAL_FATAL(run_work_counts(&c, &w, &r[2], 2, &err), 0);
	CU_ASSERT_EQUAL(c.n, RUN_WORK_MAX);
	for (size_t k = 0; k < sizeof(work_ref) / sizeof(work_ref[0]); k++) {
		int i = index_of(work_ref[k].name, RUN_WORK_MARIADB), j;
		CU_ASSERT_FATAL(i >= 0);
		CU_ASSERT_EQUAL(w.offset.v[i], work_ref[k].offset);
		CU_ASSERT_FATAL((j = res_counts_find(&c, work_ref[k].name)) >= 0);
		CU_ASSERT_EQUAL(c.v[j * 2], work_ref[k].q3_first);
		CU_ASSERT_EQUAL(c.v[j * 2 + 1], work_ref[k].q3_second);
	}
	res_counts_release(&c);
}

TH_TEST(run_work, unsteady_reading_or_missing_counter)
{
	struct run_work_snap r[5], off;
	load_readings(r);
	int k = index_of("Rows_tmp_read", RUN_WORK_MARIADB);
	r[2].v[k] += 1; /* the second reading cost one more row than the first */
	CU_ASSERT_EQUAL(run_work_offset(&off, r), -1);
	load_readings(r);
	struct run_work w = {.flavour = RUN_WORK_MARIADB};
	CU_ASSERT_EQUAL_FATAL(run_work_offset(&w.offset, r), 0);
	int s = index_of("Sort_rows", RUN_WORK_MARIADB);
	r[3].have &= ~(1ul << s); /* one reading lacks Sort_rows: left out of the record */
	struct res_counts c;
	struct errbuf err = {""};
	res_counts_init(&c, 2);
	CU_ASSERT_EQUAL(run_work_counts(&c, &w, &r[2], 2, &err), 0);
	CU_ASSERT_EQUAL(c.n, RUN_WORK_MAX - 1);
	CU_ASSERT_EQUAL(res_counts_find(&c, "Sort_rows"), -1);
	res_counts_release(&c);
	load_readings(r);
	int h = index_of("Handler_read_key", RUN_WORK_MARIADB);
	r[4].v[h] = r[3].v[h] - 1; /* another session's reading: a count went down */
	res_counts_init(&c, 2);
	CU_ASSERT_EQUAL(run_work_counts(&c, &w, &r[2], 2, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.msg, "Handler_read_key went down between two readings");
	res_counts_release(&c);
}

TH_MAIN(run_work)
