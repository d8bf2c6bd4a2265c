/* SPDX-License-Identifier: MIT */
/* Test-only (in dbt3_harness, not in the product): a JSON Schema (2020-12) validator for
 * the keywords docs/result.schema.json uses: type, const, enum, required, properties,
 * additionalProperties (boolean), items, $ref to "#/...", allOf, anyOf, oneOf, not,
 * if/then/else, minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength,
 * minItems, maxItems, pattern (POSIX extended). Others are ignored. */
#ifndef DBT3_TH_SCHEMA_H
#define DBT3_TH_SCHEMA_H
#include "base/util.h"
#include <jansson.h>

/* 0 when doc is valid against schema; -1 with the first violation and its JSON path in err,
 * e.g. "$.queries[2].restarts[0].status: not one of the enum values". */
int th_schema_validate(json_t *schema, json_t *doc, struct errbuf *err);

/* Loads both files and validates. */
int th_schema_validate_files(const char *schema_path, const char *doc_path, struct errbuf *err);

struct res_file;

/* Asserts that the result file path is valid against docs/result.schema.json (the first
 * violation on stderr when it is not). */
void th_result_assert_valid(const char *path);

/* The result file path as the reader takes it (free it with res_file_free); a file it refuses
 * is a fatal failure, its reason on stderr. */
struct res_file *th_result_read(const char *path);

/* th_result_assert_valid, then th_result_read. */
struct res_file *th_result_read_valid(const char *path);

#endif
