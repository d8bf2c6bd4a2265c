/* SPDX-License-Identifier: MIT */
/* The scale factor a command takes from the loaded data when no -s is given: the instance's
 * fingerprint table (dbt3/load.h) records it. */
#ifndef DBT3_CMD_SCALE_H
#define DBT3_CMD_SCALE_H
#include "server/srv.h"

/* Reads the scale factor of database db on the server o names (o finished by srv_opts_finish
 * here; a managed server not running is started and stopped again) into *out and says "scale factor
 * SF, from the loaded data" on stderr unless quiet. CLI_OK, or a CLI_* code after one line:
 * CLI_USAGE when the database holds no complete load (then -s is required and the line says
 * so), CLI_SERVER when the server cannot be reached. cmd names the command in messages. */
int cmd_scale_loaded(double *out, struct srv_opts *o, const char *db, int quiet, const char *cmd);

#endif
