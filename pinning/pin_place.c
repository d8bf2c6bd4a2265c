/* SPDX-License-Identifier: MIT */
/* Placement rules: the server on one PU (not PU 0, its core not shared with the client), the
 * client on another core of the same package (without packages: of the same NUMA node), memory
 * on the server's local NUMA node. */
#include "pinning/pin_int.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pu_info {
	unsigned os; /* OS index of the PU */
	int core;    /* logical index of its core (PUs without a core: -1 - PU logical) */
	int unit;    /* logical index of its locality unit (enum unit_kind), 0 for the machine */
	int core_has_pu0; /* its core holds PU 0 (allowed or not) */
};

/* Weights of the rules, most important first: a pair scoring more is a better placement. */
enum {
	W_SERVER_NOT_PU0 = 32,
	W_OTHER_CORE = 16,
	W_SAME_PACKAGE = 8,
	W_SERVER_CORE_NOT_PU0 = 4,
	W_CLIENT_CORE_NOT_PU0 = 2,
	W_CLIENT_NOT_PU0 = 1
};

/* What "the same place" means for the client: the package; on a topology without packages the
 * NUMA node (hwloc always has one), else the whole machine. */
enum unit_kind { UNIT_PACKAGE, UNIT_NUMA, UNIT_MACHINE };

static enum unit_kind unit_kind_of(const struct pin_topo *t)
{
	if (hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_PACKAGE) > 0)
		return UNIT_PACKAGE;
	if (hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_NUMANODE) > 0)
		return UNIT_NUMA;
	return UNIT_MACHINE;
}

static const char *unit_word(enum unit_kind k)
{
	return k == UNIT_PACKAGE ? "package" : k == UNIT_NUMA ? "NUMA node" : "machine";
}

/* The NUMA node closest to PU os (smallest cpuset containing it), allowed or not; NULL if none. */
static hwloc_obj_t node_of_pu(const struct pin_topo *t, unsigned os)
{
	hwloc_obj_t best = NULL, node = NULL;
	while ((node = hwloc_get_next_obj_by_type(t->topo, HWLOC_OBJ_NUMANODE, node)) != NULL) {
		if (!node->cpuset || !hwloc_bitmap_isset(node->cpuset, os))
			continue;
		if (!best || hwloc_bitmap_weight(node->cpuset) < hwloc_bitmap_weight(best->cpuset))
			best = node;
	}
	return best;
}

static int pus_collect(struct pu_info **out, const struct pin_topo *t)
{
	enum unit_kind kind = unit_kind_of(t);
	int n = 0, max = hwloc_bitmap_weight(t->allowed_cpus);
	*out = NULL;
	if (max <= 0)
		return 0;
	struct pu_info *a = calloc((size_t)max, sizeof(*a));
	if (!a)
		return -1;
	hwloc_obj_t pu = NULL;
	while ((pu = hwloc_get_next_obj_by_type(t->topo, HWLOC_OBJ_PU, pu)) != NULL) {
		if (!hwloc_bitmap_isset(t->allowed_cpus, pu->os_index) || n >= max)
			continue;
		hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(t->topo, HWLOC_OBJ_CORE, pu);
		hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(t->topo, HWLOC_OBJ_PACKAGE, pu);
		a[n].os = pu->os_index;
		a[n].core = core ? (int)core->logical_index : -1 - (int)pu->logical_index;
		hwloc_obj_t node = kind == UNIT_NUMA ? node_of_pu(t, pu->os_index) : NULL;
		a[n].unit = kind == UNIT_PACKAGE ? (pkg ? (int)pkg->logical_index : 0)
			    : node		 ? (int)node->logical_index
						 : 0;
		a[n].core_has_pu0 = core ? hwloc_bitmap_isset(core->cpuset, 0) : pu->os_index == 0;
		n++;
	}
	*out = a;
	return n;
}

static const struct pu_info *pu_find(const struct pu_info *a, int n, unsigned os)
{
	for (int i = 0; i < n; i++)
		if (a[i].os == os)
			return &a[i];
	return NULL;
}

/* Nonzero when PU p shares a core with any PU of set. */
static int core_in_set(const struct pu_info *a, int n, const struct pu_info *p,
		       hwloc_const_bitmap_t set)
{
	for (int i = 0; i < n; i++)
		if (a[i].core == p->core && hwloc_bitmap_isset(set, a[i].os))
			return 1;
	return 0;
}

static int score_server(const struct pu_info *s)
{
	return (s->os != 0 ? W_SERVER_NOT_PU0 : 0) + (!s->core_has_pu0 ? W_SERVER_CORE_NOT_PU0 : 0);
}

static int score_client(const struct pu_info *c)
{
	return (!c->core_has_pu0 ? W_CLIENT_CORE_NOT_PU0 : 0) + (c->os != 0 ? W_CLIENT_NOT_PU0 : 0);
}

static void core_words(char *out, size_t len, const struct pin_topo *t, unsigned os)
{
	hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->topo, os);
	hwloc_obj_t core = pu ? hwloc_get_ancestor_obj_by_type(t->topo, HWLOC_OBJ_CORE, pu) : NULL;
	hwloc_obj_t pkg =
	    pu ? hwloc_get_ancestor_obj_by_type(t->topo, HWLOC_OBJ_PACKAGE, pu) : NULL;
	hwloc_obj_t node = pu && !pkg ? node_of_pu(t, os) : NULL;
	if (core && pkg)
		snprintf(out, len, "core L#%u, package L#%u", core->logical_index,
			 pkg->logical_index);
	else if (core && node)
		snprintf(out, len, "core L#%u, NUMA node %u", core->logical_index, node->os_index);
	else if (core)
		snprintf(out, len, "core L#%u", core->logical_index);
	else
		snprintf(out, len, "PU L#%u", pu ? pu->logical_index : 0);
}

/* The NUMA nodes closest to each server PU (smallest cpuset containing it), allowed ones only. */
static void nodes_local(hwloc_bitmap_t nodes, const struct pin_topo *t, hwloc_const_bitmap_t cpus)
{
	unsigned cpu;
	hwloc_bitmap_zero(nodes);
	hwloc_bitmap_foreach_begin(cpu, cpus)
	{
		hwloc_obj_t best = NULL, node = NULL;
		while ((node = hwloc_get_next_obj_by_type(t->topo, HWLOC_OBJ_NUMANODE, node)) !=
		       NULL) {
			if (!hwloc_bitmap_isset(t->allowed_nodes, node->os_index) ||
			    !node->cpuset || !hwloc_bitmap_isset(node->cpuset, cpu))
				continue;
			if (!best ||
			    hwloc_bitmap_weight(node->cpuset) < hwloc_bitmap_weight(best->cpuset))
				best = node;
		}
		if (best)
			hwloc_bitmap_set(nodes, best->os_index);
	}
	hwloc_bitmap_foreach_end();
}

static int parse_override(hwloc_bitmap_t set, const char *list, hwloc_const_bitmap_t allowed,
			  const char *what, const char *unit, struct errbuf *err)
{
	if (pin_list_parse(set, list) < 0)
		return errbuf_set(err, "invalid %s list '%s' (expected e.g. '2' or '2-3,6')", what,
				  list);
	if (!hwloc_bitmap_isincluded(set, allowed)) {
		char a[256];
		pin_bitmap_format(a, sizeof(a), allowed);
		return errbuf_set(err, "%s '%s' not allowed here (allowed %s: %s)", what, list,
				  unit, a);
	}
	return 0;
}

static void placement_store(struct pin_placement *p, hwloc_const_bitmap_t server,
			    hwloc_const_bitmap_t client, hwloc_const_bitmap_t nodes)
{
	p->n_server = pin_bitmap_to_ids(p->server_cpus, PIN_MAX_IDS, server);
	p->n_client = pin_bitmap_to_ids(p->client_cpus, PIN_MAX_IDS, client);
	p->n_membind = pin_bitmap_to_ids(p->membind_nodes, PIN_MAX_IDS, nodes);
}

static void append(char *buf, size_t len, const char *fmt, ...) UTIL_PRINTF(3, 4);
static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	if (used + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/* Picks the best (server, client) pair by the weights above; with fixed set only the other side
 * is searched. Returns 0 with *s / *c set, -1 when no pair exists. */
static int choose(const struct pu_info *a, int n, hwloc_const_bitmap_t fixed_server,
		  hwloc_const_bitmap_t fixed_client, int *s_out, int *c_out)
{
	int best = -1;
	*s_out = *c_out = -1;
	if (fixed_server) {
		const struct pu_info *s0 =
		    pu_find(a, n, (unsigned)hwloc_bitmap_first(fixed_server));
		for (int c = 0; c < n; c++) {
			if (hwloc_bitmap_isset(fixed_server, a[c].os))
				continue;
			int sc = score_client(&a[c]) +
				 (!core_in_set(a, n, &a[c], fixed_server) ? W_OTHER_CORE : 0) +
				 (s0 && s0->unit == a[c].unit ? W_SAME_PACKAGE : 0);
			if (sc > best) {
				best = sc;
				*c_out = c;
			}
		}
		return best < 0 ? -1 : 0;
	}
	if (fixed_client) {
		const struct pu_info *c0 =
		    pu_find(a, n, (unsigned)hwloc_bitmap_first(fixed_client));
		for (int s = 0; s < n; s++) {
			if (hwloc_bitmap_isset(fixed_client, a[s].os))
				continue;
			int sc = score_server(&a[s]) +
				 (!core_in_set(a, n, &a[s], fixed_client) ? W_OTHER_CORE : 0) +
				 (c0 && c0->unit == a[s].unit ? W_SAME_PACKAGE : 0);
			if (sc > best) {
				best = sc;
				*s_out = s;
			}
		}
		return best < 0 ? -1 : 0;
	}
	for (int s = 0; s < n; s++) {
		for (int c = 0; c < n; c++) {
			if (s == c)
				continue;
			int sc = score_server(&a[s]) + score_client(&a[c]) +
				 (a[s].core != a[c].core ? W_OTHER_CORE : 0) +
				 (a[s].unit == a[c].unit ? W_SAME_PACKAGE : 0);
			if (sc > best) {
				best = sc;
				*s_out = s;
				*c_out = c;
			}
		}
	}
	return best < 0 ? -1 : 0;
}

struct sets {
	hwloc_bitmap_t server, client, nodes, tmp;
};

/* The server's part of the reason: from --server-cpus, or which PU was chosen (a[s]) and why. */
static void explain_server(struct pin_placement *p, const struct pin_topo *t,
			   const struct pin_opts *o, struct sets *b, const struct pu_info *a, int s)
{
	char list[256], where[128];
	pin_bitmap_format(list, sizeof(list), b->server);
	if (o->server_cpus) {
		snprintf(p->reason, sizeof(p->reason), "server on PU%s %s from --server-cpus",
			 hwloc_bitmap_weight(b->server) > 1 ? "s" : "", list);
	} else if (s >= 0) {
		core_words(where, sizeof(where), t, a[s].os);
		snprintf(p->reason, sizeof(p->reason), "server on PU %s (%s)", list, where);
		if (a[s].os == 0)
			append(p->reason, sizeof(p->reason), ", PU 0 since no other PU is free");
		else if (a[s].core_has_pu0)
			append(p->reason, sizeof(p->reason), ", not PU 0 but on PU 0's core");
		else
			append(p->reason, sizeof(p->reason), ", not PU 0 nor its core");
	} else {
		snprintf(p->reason, sizeof(p->reason), "server unbound");
	}
}

/* The client's part of the reason (a[c] chosen, or --client-cpus), and a warning when it shares
 * the server's core or unit. */
static void explain_client(struct pin_placement *p, const struct pin_topo *t,
			   const struct pin_opts *o, struct sets *b, const struct pu_info *a, int n,
			   int c)
{
	char list[256], where[128];
	enum unit_kind kind = unit_kind_of(t);
	pin_bitmap_format(list, sizeof(list), b->client);
	if (o->client_cpus) {
		append(p->reason, sizeof(p->reason), "; client on PU%s %s from --client-cpus",
		       hwloc_bitmap_weight(b->client) > 1 ? "s" : "", list);
	} else if (c >= 0) {
		core_words(where, sizeof(where), t, a[c].os);
		append(p->reason, sizeof(p->reason), "; client on PU %s (%s)", list, where);
		const struct pu_info *s0 = pu_find(a, n, (unsigned)hwloc_bitmap_first(b->server));
		int other_core = !core_in_set(a, n, &a[c], b->server);
		if (!other_core) {
			append(p->reason, sizeof(p->reason),
			       ", the server's SMT sibling: one core only");
			snprintf(p->warning, sizeof(p->warning),
				 "the client shares the server's core (SMT sibling PU %u)",
				 a[c].os);
		} else if (s0 && s0->unit != a[c].unit) {
			append(p->reason, sizeof(p->reason),
			       ", another %s: no second core free in the server's",
			       unit_word(kind));
			snprintf(p->warning, sizeof(p->warning),
				 "the client runs on another %s than the server", unit_word(kind));
		} else if (kind == UNIT_MACHINE) {
			append(p->reason, sizeof(p->reason), ", another core");
		} else {
			append(p->reason, sizeof(p->reason), ", another core of the same %s",
			       unit_word(kind));
		}
	} else {
		append(p->reason, sizeof(p->reason), "; client unbound");
	}
}

/* The memory's part of the reason: --membind, or the NUMA nodes local to the server. */
static void explain_memory(struct pin_placement *p, const struct pin_topo *t,
			   const struct pin_opts *o, struct sets *b)
{
	char list[256];
	if (o->membind) {
		pin_bitmap_format(list, sizeof(list), b->nodes);
		append(p->reason, sizeof(p->reason), "; memory on NUMA node%s %s from --membind",
		       hwloc_bitmap_weight(b->nodes) > 1 ? "s" : "", list);
	} else if (!hwloc_bitmap_iszero(b->server)) {
		nodes_local(b->nodes, t, b->server);
		pin_bitmap_format(list, sizeof(list), b->nodes);
		if (hwloc_bitmap_iszero(b->nodes))
			append(p->reason, sizeof(p->reason),
			       "; memory not bound: no allowed local NUMA node");
		else
			append(p->reason, sizeof(p->reason),
			       "; memory on NUMA node %s, local to the server", list);
	}
}

static int compute(struct pin_placement *p, const struct pin_topo *t, const struct pin_opts *o,
		   struct sets *b, struct errbuf *err)
{
	struct pu_info *a = NULL;
	int rc = -1, n = pus_collect(&a, t);
	if (n < 0)
		return errbuf_set(err, "out of memory");
	char list[256];
	if (o->server_cpus && parse_override(b->server, o->server_cpus, t->allowed_cpus,
					     "server CPUs", "PUs", err) < 0)
		goto out;
	if (o->client_cpus && parse_override(b->client, o->client_cpus, t->allowed_cpus,
					     "client CPUs", "PUs", err) < 0)
		goto out;
	if (o->membind &&
	    parse_override(b->nodes, o->membind, t->allowed_nodes, "NUMA nodes", "nodes", err) < 0)
		goto out;

	if (!o->server_cpus && !o->client_cpus && n < 2) {
		p->pinned = 0;
		pin_bitmap_format(list, sizeof(list), t->allowed_cpus);
		snprintf(p->reason, sizeof(p->reason),
			 "only one PU (%.64s) is allowed: server and client share it", list);
		snprintf(p->warning, sizeof(p->warning),
			 "single PU %.64s: server and client run unpinned", list);
		rc = 0;
		goto out;
	}
	p->pinned = 1;
	int s = -1, c = -1;
	if (!o->server_cpus || !o->client_cpus) {
		if (choose(a, n, o->server_cpus ? b->server : NULL,
			   o->client_cpus ? b->client : NULL, &s, &c) < 0) {
			/* Only possible with an override that takes every allowed PU. */
			snprintf(p->warning, sizeof(p->warning),
				 "no PU left for the %s: it runs unbound",
				 o->server_cpus ? "client" : "server");
		}
		if (s >= 0)
			hwloc_bitmap_only(b->server, a[s].os);
		if (c >= 0)
			hwloc_bitmap_only(b->client, a[c].os);
	}

	/* Reason: the server, then the client, then memory. */
	explain_server(p, t, o, b, a, s);
	explain_client(p, t, o, b, a, n, c);
	if (o->server_cpus && o->client_cpus && hwloc_bitmap_intersects(b->server, b->client))
		snprintf(p->warning, sizeof(p->warning), "server and client CPUs overlap");

	explain_memory(p, t, o, b);
	placement_store(p, b->server, b->client, b->nodes);
	rc = 0;
out:
	free(a);
	return rc;
}

int pin_placement_compute(struct pin_placement *out, struct pin_topo *t, const struct pin_opts *o,
			  struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	if (o->no_pin) {
		if (o->server_cpus || o->client_cpus || o->membind)
			return errbuf_set(err, "--no-pin cannot be combined with --server-cpus, "
					       "--client-cpus or --membind");
		snprintf(out->reason, sizeof(out->reason),
			 "--no-pin: server and client run where the scheduler puts them");
		return 0;
	}
	struct sets b = {hwloc_bitmap_alloc(), hwloc_bitmap_alloc(), hwloc_bitmap_alloc(),
			 hwloc_bitmap_alloc()};
	int rc;
	if (!b.server || !b.client || !b.nodes || !b.tmp)
		rc = errbuf_set(err, "out of memory");
	else
		rc = compute(out, t, o, &b, err);
	hwloc_bitmap_free(b.server);
	hwloc_bitmap_free(b.client);
	hwloc_bitmap_free(b.nodes);
	hwloc_bitmap_free(b.tmp);
	return rc;
}

static json_t *ids_json(const unsigned *ids, int n)
{
	json_t *a = json_array();
	for (int i = 0; a && i < n; i++)
		json_array_append_new(a, json_integer(ids[i]));
	return a;
}

json_t *pin_placement_to_json(const struct pin_placement *p)
{
	return json_pack("{s:b, s:o, s:o, s:o, s:s, s:o}", "pinned", p->pinned, "server_cpus",
			 ids_json(p->server_cpus, p->n_server), "client_cpus",
			 ids_json(p->client_cpus, p->n_client), "membind_nodes",
			 ids_json(p->membind_nodes, p->n_membind), "reason", p->reason, "warning",
			 p->warning[0] ? json_string(p->warning) : json_null());
}
