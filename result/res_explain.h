/* SPDX-License-Identifier: MIT */
/* EXPLAIN FORMAT=JSON plans (MariaDB, MySQL 8): the shape their fingerprint (plan_sha256) hashes,
 * and a structural diff of two plans that calls a plan changed exactly when the shapes differ
 * (docs/explain.md). Pure: nothing here prints. */
#ifndef DBT3_RES_EXPLAIN_H
#define DBT3_RES_EXPLAIN_H
#include "base/util.h"
#include <jansson.h>
#include <stddef.h>

/* The shape of a parsed plan: tables, join order, access types, keys, operations; no costs,
 * estimates or conditions. A new reference the caller releases. */
json_t *res_explain_shape_tree(json_t *plan);

/* The shape of an EXPLAIN FORMAT=JSON text as compact JSON with the members in the server's
 * order (what plan_sha256 hashes); *out is malloc'd, the caller frees. */
int res_explain_shape(const char *explain_json, char **out, struct errbuf *err);

/* A JSON number, or a string that is one (MySQL 8 writes "filtered": "4.00"); NaN otherwise. */
double res_json_number(const json_t *v);

/* One table of a plan, found by its alias (MariaDB and MySQL: table_name). */
struct res_xtable {
	char *alias;
	int occurrence;	 /* 0 for the alias's first table in document order, 1 for the next */
	long select_id;	 /* of the query block that joins it; -1 when none is said */
	int position;	 /* 1-based, among that block's tables in join order */
	char *access;	 /* access_type, or NULL */
	char *key;	 /* NULL when none */
	char *key_parts; /* used_key_parts joined with ",", or NULL */
	char *ref;	 /* ref joined with ",", or NULL */
	json_t *members; /* the table's other shape members (not nested blocks), an object */
	double rows;	 /* estimate (MariaDB rows, MySQL rows_examined_per_scan); NaN: none */
	double filtered; /* percent; NaN when not said */
	int condition;	 /* an attached_condition is present */
};

/* A block-level strategy: semi-join (FirstMatch, LooseScan, DuplicateWeedout, materialization),
 * subquery materialization, temporary table, filesort, join buffer, expression cache. */
struct res_xstrategy {
	char *name;	/* e.g. "FirstMatch(supplier)", "join buffer(BNL)" */
	long select_id; /* the block it belongs to; -1 when none is said */
};

struct res_xplan {
	json_t *shape;
	struct res_xtable *tables;
	size_t n_tables;
	struct res_xstrategy *strategies;
	size_t n_strategies;
};

/* Reads an EXPLAIN FORMAT=JSON text into *out (released with res_xplan_release). */
int res_xplan_parse(struct res_xplan *out, const char *explain_json, struct errbuf *err);
void res_xplan_release(struct res_xplan *p);

/* What changed for one table (bits): the plan's (from the shape) and the estimates'. */
enum res_xchange {
	RES_X_ADDED = 1 << 0,
	RES_X_REMOVED = 1 << 1,
	RES_X_POSITION = 1 << 2, /* block or position in its join order */
	RES_X_ACCESS = 1 << 3,
	RES_X_KEY = 1 << 4,
	RES_X_KEY_PARTS = 1 << 5,
	RES_X_REF = 1 << 6,
	RES_X_MEMBERS = 1 << 7, /* another shape member (using_index, first_match, ...) */
	RES_X_PLAN = (1 << 8) - 1,
	RES_X_ROWS = 1 << 8, /* estimates: never a plan change alone */
	RES_X_FILTERED = 1 << 9,
	RES_X_CONDITION = 1 << 10,
};

struct res_xtable_diff {
	const struct res_xtable *old, *new; /* NULL for an added / removed table */
	unsigned what;			    /* enum res_xchange */
};

struct res_xstrategy_diff {
	const struct res_xstrategy *s;
	int added; /* 1: only the new plan has it; 0: only the old one */
};

/* The diff of two plans. Its plan changes (tables with a RES_X_PLAN bit, strategies, other) are
 * empty exactly when the two shapes are equal as JSON (members in any order). */
struct res_xdiff {
	struct res_xtable_diff *tables; /* plan changes first in the new plan's order */
	size_t n_tables;
	struct res_xstrategy_diff *strategies; /* old-only first, then new-only */
	size_t n_strategies;
	int other; /* the shapes differ in nothing named above */
	char other_path[128];
};

/* Diffs old and new into *out; the diff points into both plans, which must outlive it.
 * Release with res_xdiff_release. -1 only when out of memory. */
int res_xdiff_build(struct res_xdiff *out, const struct res_xplan *old,
		    const struct res_xplan *new);
void res_xdiff_release(struct res_xdiff *d);

/* The number of plan changes of d (0: the plan did not change). */
size_t res_xdiff_plan_changes(const struct res_xdiff *d);

#endif
