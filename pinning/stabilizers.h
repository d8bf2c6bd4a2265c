/* SPDX-License-Identifier: MIT */
/* Server stabilizers, each optional and independent: ASLR off, nice, SCHED_FIFO, dropping
 * the page cache before a start, InnoDB large pages. Each is recorded in the result file. */
#ifndef DBT3_STABILIZERS_H
#define DBT3_STABILIZERS_H
#include "base/util.h"
#include <jansson.h>

struct stab_opts {
	int no_aslr;	 /* --no-aslr: personality(ADDR_NO_RANDOMIZE) in the child */
	int nice_set;	 /* --nice N given */
	int nice;	 /* -20..19 */
	int sched_fifo;	 /* --sched-fifo PRIO: 1..99, 0 = off */
	int drop_caches; /* --drop-caches: before each start, root only */
	int large_pages; /* --large-pages: add --large-pages to the server when the host has them */
};

/* Checks what can be checked before the first start: root for --drop-caches, RLIMIT_NICE /
 * CAP_SYS_NICE for a negative --nice, RLIMIT_RTPRIO for --sched-fifo. */
int stab_opts_check(const struct stab_opts *s, struct errbuf *err);

/* In the forked child before exec: personality, nice, SCHED_FIFO as asked. Returns 0, or -1
 * with errno set and a static description of the failed step in *what. */
int stab_child_apply(const struct stab_opts *s, const char **what);

/* sync(2), then "3" into /proc/sys/vm/drop_caches. */
int stab_drop_caches(struct errbuf *err);

/* Huge pages the host has configured (HugePages_Total in /proc/meminfo); 0 when none. */
long stab_hugepages_total(void);

/* {"no_aslr": bool, "nice": int|null, "sched_fifo": int|null, "drop_caches": bool,
 *  "large_pages": "off"|"on"|"unavailable"}; the caller owns the reference. */
json_t *stab_opts_to_json(const struct stab_opts *s);

#endif
