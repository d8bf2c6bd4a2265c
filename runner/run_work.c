/* SPDX-License-Identifier: MIT */
/* The work counters around each execution (runner/run_work.h, docs/work.md). */
#include "runner/run_work.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The counters and the servers that have them. MySQL 8 has the same names for all it has; it
 * lacks MariaDB's Handler_tmp_* (writes to internal temporary tables are in Handler_write there)
 * and Rows_read / Rows_tmp_read. */
static const struct {
	const char *name;
	unsigned flavours;
} counters[RUN_WORK_MAX] = {
    {"Handler_read_first", RUN_WORK_MARIADB | RUN_WORK_MYSQL},
    {"Handler_read_key", RUN_WORK_MARIADB | RUN_WORK_MYSQL},
    {"Handler_read_next", RUN_WORK_MARIADB | RUN_WORK_MYSQL},
    {"Handler_read_prev", RUN_WORK_MARIADB | RUN_WORK_MYSQL},
    {"Handler_read_rnd", RUN_WORK_MARIADB | RUN_WORK_MYSQL},
    {"Handler_read_rnd_next", RUN_WORK_MARIADB | RUN_WORK_MYSQL},
    {"Handler_write", RUN_WORK_MARIADB | RUN_WORK_MYSQL},
    {"Handler_tmp_write", RUN_WORK_MARIADB},
    {"Handler_tmp_update", RUN_WORK_MARIADB},
    {"Rows_read", RUN_WORK_MARIADB},
    {"Rows_tmp_read", RUN_WORK_MARIADB},
    {"Sort_rows", RUN_WORK_MARIADB | RUN_WORK_MYSQL},
    {"Sort_merge_passes", RUN_WORK_MARIADB | RUN_WORK_MYSQL},
    {"Created_tmp_tables", RUN_WORK_MARIADB | RUN_WORK_MYSQL},
    {"Created_tmp_disk_tables", RUN_WORK_MARIADB | RUN_WORK_MYSQL},
    {"Select_scan", RUN_WORK_MARIADB | RUN_WORK_MYSQL},
    {"Select_full_join", RUN_WORK_MARIADB | RUN_WORK_MYSQL},
    {"Select_range", RUN_WORK_MARIADB | RUN_WORK_MYSQL},
    {"Select_range_check", RUN_WORK_MARIADB | RUN_WORK_MYSQL},
};

const char *run_work_name(int i, enum run_work_flavour f)
{
	if (i < 0 || i >= RUN_WORK_MAX || !(counters[i].flavours & (unsigned)f))
		return NULL;
	return counters[i].name;
}

/* SHOW SESSION STATUS with a WHERE: on MariaDB 10.11 a reading adds only its own rows to
 * Rows_tmp_read (an information_schema SELECT creates temporary tables and scans); the
 * offset measured per session takes whatever it adds on any server. */
#define SQL_HEAD "SHOW SESSION STATUS WHERE Variable_name IN ("
#define SQL_COMMON                                                                                 \
	"'Handler_read_first','Handler_read_key','Handler_read_next','Handler_read_prev',"        \
	"'Handler_read_rnd','Handler_read_rnd_next','Handler_write','Sort_rows',"                 \
	"'Sort_merge_passes','Created_tmp_tables','Created_tmp_disk_tables','Select_scan',"       \
	"'Select_full_join','Select_range','Select_range_check'"

const char *run_work_sql(enum run_work_flavour f)
{
	if (f == RUN_WORK_MYSQL)
		return SQL_HEAD SQL_COMMON ")";
	return SQL_HEAD SQL_COMMON
	    ",'Handler_tmp_write','Handler_tmp_update','Rows_read','Rows_tmp_read')";
}

int run_work_take(struct run_work_snap *s, enum run_work_flavour f, const char *name,
		  const char *value)
{
	for (int i = 0; i < RUN_WORK_MAX; i++) {
		if (!(counters[i].flavours & (unsigned)f) || strcasecmp(name, counters[i].name))
			continue;
		char *end;
		if (!value || !*value || *value == '-')
			return -1;
		unsigned long long v = strtoull(value, &end, 10);
		if (*end || v > (unsigned long long)RES_COUNT_MAX)
			return -1;
		s->v[i] = (long long)v;
		s->have |= 1ul << i;
		return 0;
	}
	return 1;
}

int run_work_read(struct run_work *w, MYSQL *m, struct run_work_snap *out, struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	w->statements++;
	if (mysql_query(m, run_work_sql(w->flavour)))
		return errbuf_set(err, "cannot read the session status: %s", mysql_error(m));
	MYSQL_RES *res = mysql_store_result(m);
	if (!res)
		return errbuf_set(err, "cannot read the session status: %s", mysql_error(m));
	MYSQL_ROW row;
	int rc = 0;
	while ((row = mysql_fetch_row(res)) != NULL)
		if (mysql_num_fields(res) >= 2 && row[0] &&
		    run_work_take(out, w->flavour, row[0], row[1]) < 0)
			rc = errbuf_set(err, "the session status has a value that is not a count");
	mysql_free_result(res);
	return rc;
}

int run_work_offset(struct run_work_snap *out, const struct run_work_snap s[3])
{
	memset(out, 0, sizeof(*out));
	out->have = s[0].have & s[1].have & s[2].have;
	for (int i = 0; i < RUN_WORK_MAX; i++) {
		if (!(out->have & (1ul << i)))
			continue;
		long long d1 = s[1].v[i] - s[0].v[i], d2 = s[2].v[i] - s[1].v[i];
		if (d1 != d2 || d1 < 0)
			return -1;
		out->v[i] = d1;
	}
	return 0;
}

int run_work_open(struct run_work *w, MYSQL *m, enum run_work_flavour f, struct errbuf *err)
{
	struct run_work_snap s[3];
	memset(w, 0, sizeof(*w));
	w->flavour = f;
	for (int k = 0; k < 3; k++)
		if (run_work_read(w, m, &s[k], err) < 0)
			return -1;
	if (run_work_offset(&w->offset, s) < 0)
		return errbuf_set(err, "reading the session status twice in a row added different "
				       "counts: no work counters");
	return 0;
}

long long run_work_delta(const struct run_work *w, const struct run_work_snap *before,
			 const struct run_work_snap *after, int i)
{
	unsigned long bit = 1ul << i;
	if (!(before->have & bit) || !(after->have & bit) || !(w->offset.have & bit))
		return -1;
	long long d = after->v[i] - before->v[i] - w->offset.v[i];
	return d < 0 ? -1 : d;
}

int run_work_counts(struct res_counts *out, const struct run_work *w,
		    const struct run_work_snap *snaps, size_t n, struct errbuf *err)
{
	long long *x = malloc((n + 1) * sizeof(*x));
	if (!x)
		return errbuf_set(err, "out of memory");
	for (int i = 0; i < RUN_WORK_MAX; i++) {
		unsigned long bit = 1ul << i;
		size_t e = 0;
		while (e <= n && (snaps[e].have & bit))
			e++;
		if (e <= n || !(w->offset.have & bit))
			continue; /* not read every time: left out */
		for (e = 0; e < n; e++)
			if ((x[e] = run_work_delta(w, &snaps[e], &snaps[e + 1], i)) < 0) {
				free(x);
				return errbuf_set(err, "%s went down between two readings",
						  counters[i].name);
			}
		if (res_counts_add(out, counters[i].name, x) < 0) {
			free(x);
			return errbuf_set(err, "out of memory");
		}
	}
	free(x);
	return 0;
}
