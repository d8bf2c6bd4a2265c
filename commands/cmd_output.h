/* SPDX-License-Identifier: MIT */
/* The report file of -o, for the commands that write one (compare, summary, report, history). */
#ifndef DBT3_CMD_OUTPUT_H
#define DBT3_CMD_OUTPUT_H
#include "base/util.h"
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* Checks -o FILE before anything is read (util_out_check, base/safe_write.h): not empty, a
 * regular file or new, none of the n inputs, not a result file, creatable. CLI_OK (also for
 * output NULL: standard output), or CLI_USAGE after one line. */
int cmd_output_check(const char *output, const char *const *inputs, size_t n);

/* Writes a report to f: 0, or < 0 with err's message when it has one. */
typedef int (*cmd_write_fn)(FILE *f, void *ctx, struct errbuf *err);

/* Runs write(f, ctx, err) on standard output, or, with output, on a memory stream written whole
 * to output (util_write_atomic: the file is replaced by a complete report or not at all; a
 * device, FIFO or directory never). CLI_OK, or CLI_IO after one line (err's message, else what
 * failed): the report cannot be written, which must not look like a finding (exit 1). On
 * standard output the line is main's. */
int cmd_output_write(const char *output, cmd_write_fn write, void *ctx);

/* Prints j on standard output, indented, its members in their order, and frees it (j NULL: out
 * of memory). CLI_OK, or CLI_IO after one line. */
int cmd_json_print(json_t *j);

#endif
