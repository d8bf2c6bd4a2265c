/* SPDX-License-Identifier: MIT */
/* Topology loading (machine, XML, synthetic) and the allowed cpuset. */
#include "pinning/pin_int.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int topo_open(struct pin_topo *t, const char *spec, struct errbuf *err)
{
	if (hwloc_topology_init(&t->topo) < 0)
		return errbuf_errno(err, errno, "cannot initialise hwloc");
	t->has_topo = 1;
	if (!spec || strcmp(spec, "machine") == 0) {
		t->machine = 1;
		snprintf(t->source, sizeof(t->source), "machine");
	} else if (strncmp(spec, "synthetic:", 10) == 0) {
		if (hwloc_topology_set_synthetic(t->topo, spec + 10) < 0)
			return errbuf_set(err, "invalid synthetic topology '%s'", spec + 10);
		snprintf(t->source, sizeof(t->source), "%s", spec);
	} else {
		if (access(spec, R_OK) < 0)
			return errbuf_errno(err, errno, "cannot open '%s'", spec);
		if (hwloc_topology_set_xml(t->topo, spec) < 0)
			return errbuf_errno(err, errno, "cannot read topology '%s'", spec);
		snprintf(t->source, sizeof(t->source), "xml:%s", spec);
	}
	if (hwloc_topology_load(t->topo) < 0)
		return errbuf_errno(err, errno, "cannot load topology '%s'", t->source);
	return 0;
}

int pin_topo_load(struct pin_topo **out, const char *spec, struct errbuf *err)
{
	*out = NULL;
	struct pin_topo *t = calloc(1, sizeof(*t));
	if (!t)
		return errbuf_set(err, "out of memory");
	t->allowed_cpus = hwloc_bitmap_alloc();
	t->allowed_nodes = hwloc_bitmap_alloc();
	if (!t->allowed_cpus || !t->allowed_nodes) {
		errbuf_set(err, "out of memory");
		goto fail;
	}
	if (topo_open(t, spec, err) < 0)
		goto fail;
	hwloc_bitmap_copy(t->allowed_cpus, hwloc_topology_get_allowed_cpuset(t->topo));
	hwloc_bitmap_copy(t->allowed_nodes, hwloc_topology_get_allowed_nodeset(t->topo));
	if (t->machine) {
		/* hwloc already honours the cgroup cpuset; taskset shows in our own affinity. */
		hwloc_bitmap_t self = hwloc_bitmap_alloc();
		if (self && hwloc_get_cpubind(t->topo, self, HWLOC_CPUBIND_PROCESS) == 0 &&
		    !hwloc_bitmap_iszero(self))
			hwloc_bitmap_and(t->allowed_cpus, t->allowed_cpus, self);
		hwloc_bitmap_free(self);
	}
	*out = t;
	return 0;
fail:
	pin_topo_free(t);
	return -1;
}

int pin_topo_restrict(struct pin_topo *t, const char *cpulist, struct errbuf *err)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	if (!set)
		return errbuf_set(err, "out of memory");
	int rc = 0;
	if (pin_list_parse(set, cpulist) < 0)
		rc = errbuf_set(err, "invalid CPU list '%s'", cpulist);
	else if (!hwloc_bitmap_isincluded(set, t->allowed_cpus)) {
		char a[256];
		pin_bitmap_format(a, sizeof(a), t->allowed_cpus);
		rc = errbuf_set(err, "CPUs '%s' are not all allowed (allowed PUs: %s)", cpulist, a);
	} else
		hwloc_bitmap_copy(t->allowed_cpus, set);
	hwloc_bitmap_free(set);
	return rc;
}

static int count_type(const struct pin_topo *t, hwloc_obj_type_t type)
{
	int n = hwloc_get_nbobjs_by_type(t->topo, type);
	return n < 0 ? 0 : n;
}

void pin_topo_describe(const struct pin_topo *t, char *out, size_t len)
{
	int pk = count_type(t, HWLOC_OBJ_PACKAGE), co = count_type(t, HWLOC_OBJ_CORE);
	int pu = count_type(t, HWLOC_OBJ_PU), nn = count_type(t, HWLOC_OBJ_NUMANODE);
	char allowed[256];
	pin_bitmap_format(allowed, sizeof(allowed), t->allowed_cpus);
	snprintf(out, len, "%s: %d package%s, %d core%s, %d PU%s, %d NUMA node%s; allowed PUs %s",
		 t->source, pk, pk == 1 ? "" : "s", co, co == 1 ? "" : "s", pu, pu == 1 ? "" : "s",
		 nn, nn == 1 ? "" : "s", allowed);
}

size_t pin_topo_llc_bytes(const struct pin_topo *t, int pu)
{
	hwloc_obj_t o = pu >= 0 ? hwloc_get_pu_obj_by_os_index(t->topo, (unsigned)pu) : NULL;
	if (!o)
		o = hwloc_get_obj_by_type(t->topo, HWLOC_OBJ_PU, 0);
	size_t best = 0;
	for (; o; o = o->parent)
		if (hwloc_obj_type_is_dcache(o->type) && o->attr && o->attr->cache.size > best)
			best = (size_t)o->attr->cache.size;
	return best;
}

void pin_topo_free(struct pin_topo *t)
{
	if (!t)
		return;
	if (t->has_topo)
		hwloc_topology_destroy(t->topo);
	hwloc_bitmap_free(t->allowed_cpus);
	hwloc_bitmap_free(t->allowed_nodes);
	free(t);
}

int pin_list_parse(hwloc_bitmap_t set, const char *list)
{
	if (!list || !*list)
		return -1;
	/* Digits, commas and dashes only: hwloc's parser accepts more than we document. */
	for (const char *p = list; *p; p++)
		if (!(*p >= '0' && *p <= '9') && *p != ',' && *p != '-')
			return -1;
	if (hwloc_bitmap_list_sscanf(set, list) < 0 || hwloc_bitmap_iszero(set) ||
	    hwloc_bitmap_weight(set) < 0)
		return -1;
	return 0;
}

void pin_bitmap_format(char *out, size_t len, hwloc_const_bitmap_t set)
{
	if (hwloc_bitmap_iszero(set)) {
		snprintf(out, len, "none");
		return;
	}
	if (hwloc_bitmap_list_snprintf(out, len, set) < 0 && len)
		out[0] = '\0';
}

int pin_bitmap_to_ids(unsigned *ids, int max, hwloc_const_bitmap_t set)
{
	int n = 0;
	unsigned i;
	hwloc_bitmap_foreach_begin(i, set)
	{
		if (n < max)
			ids[n++] = i;
	}
	hwloc_bitmap_foreach_end();
	return n;
}

void pin_ids_to_bitmap(hwloc_bitmap_t set, const unsigned *ids, int n)
{
	hwloc_bitmap_zero(set);
	for (int i = 0; i < n; i++)
		hwloc_bitmap_set(set, ids[i]);
}

void pin_ids_format(char *out, size_t len, const unsigned *ids, int n)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	if (!set) {
		snprintf(out, len, "?");
		return;
	}
	pin_ids_to_bitmap(set, ids, n);
	pin_bitmap_format(out, len, set);
	hwloc_bitmap_free(set);
}
