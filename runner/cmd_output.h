/* SPDX-License-Identifier: MIT */
/* The report file of -o, for the commands that write one (compare, summary, report). */
#ifndef DBT3_CMD_OUTPUT_H
#define DBT3_CMD_OUTPUT_H
#include <stddef.h>

/* Checks -o FILE before anything is read: not empty and none of the n inputs
 * (cli_output_check), creatable and not a result file (rpt_output_check). CLI_OK (also for
 * output NULL: standard output), or CLI_USAGE after one line. */
int cmd_output_check(const char *output, const char *const *inputs, size_t n);

#endif
