/* SPDX-License-Identifier: MIT */
/* A load with the server restarts around it: the bulk-load profile on for the data, off again
 * before the fingerprint. The loader (dbt3/load.h) loads; this decides when the server restarts. */
#ifndef DBT3_RUN_LOAD_H
#define DBT3_RUN_LOAD_H
#include "base/util.h"
#include "dbt3/load.h"
#include "server/srv.h"

/* Loads o->sf into o->database on server s (started if managed and down; left as found:
 * stopped again, or running without the bulk profile). A matching fingerprint makes this a
 * no-op unless o->force. 0 on success; LOAD_E_SERVER or -1 with err filled. */
int run_load(struct srv *s, const struct load_opts *o, struct load_report *out, struct errbuf *err);

#endif
