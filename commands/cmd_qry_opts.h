/* SPDX-License-Identifier: MIT */
/* The qgen seed queries and query take: a fragment of an option table (base/cli_opt.h) into a
 * struct qry_opts. */
#ifndef DBT3_CMD_QRY_OPTS_H
#define DBT3_CMD_QRY_OPTS_H
#include "base/cli_opt.h"
#include "dbt3/qry.h"
#include <stddef.h>

/* --seed N: the rows, their offsets into a struct qry_opts. */
extern const struct cli_opt cmd_qry_seed_options[];

/* A row holding them, in place, for member m (a struct qry_opts) of type t. */
#define CMD_QRY_SEED_GROUP(t, m) CLI_ROW_GROUP(cmd_qry_seed_options, NULL, t, m)

#endif
