/* SPDX-License-Identifier: MIT */
/* Internals shared by the pinning/ sources; not for other folders. */
#ifndef DBT3_PIN_INT_H
#define DBT3_PIN_INT_H
#include "pinning/pin.h"
#include <hwloc.h>
#include <unistd.h>

struct pin_topo {
	hwloc_topology_t topo;
	int has_topo;
	int machine;		     /* this system: binding works */
	char source[512];	     /* "machine", "synthetic:...", "xml:FILE" */
	hwloc_bitmap_t allowed_cpus; /* PU OS indexes we may use */
	hwloc_bitmap_t allowed_nodes;
};

struct pin_ctx {
	struct pin_topo *topo;
	struct pin_placement place;
	struct stab_opts stab;
	int large_pages_on; /* asked and the host has huge pages */
	char topo_desc[1024];
	hwloc_bitmap_t server_set, client_set, node_set; /* prepared before fork */
	char server_list[256], node_list[256];		 /* for the child's messages */
};

/* Parses "0-3,8" (digits, ',' and '-' only, finite, not empty); 0 or -1. */
int pin_list_parse(hwloc_bitmap_t set, const char *list);

/* "0-3,8", or "none" for an empty set. */
void pin_bitmap_format(char *out, size_t len, hwloc_const_bitmap_t set);

/* Set bits as a sorted array (at most max); returns the count. */
int pin_bitmap_to_ids(unsigned *ids, int max, hwloc_const_bitmap_t set);
void pin_ids_to_bitmap(hwloc_bitmap_t set, const unsigned *ids, int n);

#endif
