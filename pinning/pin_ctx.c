/* SPDX-License-Identifier: MIT */
/* Applying a placement: the child hook, the client thread, verification through /proc. */
#include "pinning/pin_int.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pin_ctx_init(struct pin_ctx **out, const struct pin_opts *opts, struct errbuf *err)
{
	*out = NULL;
	if (pin_opts_check(opts, err) < 0)
		return -1;
	struct pin_ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return errbuf_set(err, "out of memory");
	c->server_set = hwloc_bitmap_alloc();
	c->client_set = hwloc_bitmap_alloc();
	c->node_set = hwloc_bitmap_alloc();
	if (!c->server_set || !c->client_set || !c->node_set) {
		errbuf_set(err, "out of memory");
		goto fail;
	}
	c->stab = opts->stab;
	c->large_pages_on = opts->stab.large_pages && stab_hugepages_total() > 0;
	if (pin_topo_load(&c->topo, opts->topology, err) < 0)
		goto fail;
	pin_topo_describe(c->topo, c->topo_desc, sizeof(c->topo_desc));
	if (pin_placement_compute(&c->place, c->topo, opts, err) < 0)
		goto fail;
	if (c->place.pinned && !c->topo->machine) {
		errbuf_set(err, "cannot bind with topology '%s': it is not this machine's",
			   c->topo->source);
		goto fail;
	}
	pin_ids_to_bitmap(c->server_set, c->place.server_cpus, c->place.n_server);
	pin_ids_to_bitmap(c->client_set, c->place.client_cpus, c->place.n_client);
	pin_ids_to_bitmap(c->node_set, c->place.membind_nodes, c->place.n_membind);
	pin_bitmap_format(c->server_list, sizeof(c->server_list), c->server_set);
	pin_bitmap_format(c->node_list, sizeof(c->node_list), c->node_set);
	*out = c;
	return 0;
fail:
	pin_ctx_free(c);
	return -1;
}

const struct pin_placement *pin_ctx_placement(const struct pin_ctx *c)
{
	return &c->place;
}

void pin_ctx_free(struct pin_ctx *c)
{
	if (!c)
		return;
	pin_topo_free(c->topo);
	hwloc_bitmap_free(c->server_set);
	hwloc_bitmap_free(c->client_set);
	hwloc_bitmap_free(c->node_set);
	free(c);
}

static void child_fail(const char *what, const char *list, int errnum)
{
	char msg[512];
	int n = snprintf(msg, sizeof(msg), "dbt3stab: %s%s: %s\n", what, list, strerror(errnum));
	if (n > 0)
		(void)!write(STDERR_FILENO, msg,
			     (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1);
}

int pin_child_hook(void *arg)
{
	struct pin_ctx *c = arg;
	/* The child has one thread: binding it binds the process, and exec keeps both the
	 * affinity and the memory policy, which every thread the server creates inherits.
	 * STRICT gives MPOL_BIND (numactl --membind); without it hwloc >= 2.8 asks for
	 * MPOL_PREFERRED_MANY, which lets the kernel spill to remote nodes. */
	if (c->place.pinned && !hwloc_bitmap_iszero(c->server_set) &&
	    hwloc_set_cpubind(c->topo->topo, c->server_set, HWLOC_CPUBIND_THREAD) < 0) {
		child_fail("cannot bind the server to PUs ", c->server_list, errno);
		return -1;
	}
	if (c->place.pinned && !hwloc_bitmap_iszero(c->node_set) &&
	    hwloc_set_membind(c->topo->topo, c->node_set, HWLOC_MEMBIND_BIND,
			      HWLOC_MEMBIND_THREAD | HWLOC_MEMBIND_STRICT |
				  HWLOC_MEMBIND_BYNODESET) < 0) {
		child_fail("cannot bind the server's memory to NUMA nodes ", c->node_list, errno);
		return -1;
	}
	const char *what = NULL;
	if (stab_child_apply(&c->stab, &what) < 0) {
		child_fail(what, "", errno);
		return -1;
	}
	return 0;
}

int pin_ctx_before_start(struct pin_ctx *c, struct errbuf *err)
{
	if (c->stab.drop_caches)
		return stab_drop_caches(err);
	return 0;
}

int pin_ctx_server_args(const struct pin_ctx *c, const char **out, int max)
{
	int n = 0;
	if (c->large_pages_on && n < max)
		out[n++] = "large-pages";
	return n;
}

int pin_ctx_bind_client(const struct pin_ctx *c, struct errbuf *err)
{
	if (!c->place.pinned || hwloc_bitmap_iszero(c->client_set))
		return 0;
	char list[256];
	pin_bitmap_format(list, sizeof(list), c->client_set);
	if (hwloc_set_cpubind(c->topo->topo, c->client_set, HWLOC_CPUBIND_THREAD) < 0)
		return errbuf_errno(err, errno, "cannot bind the client thread to PUs %s", list);
	return 0;
}

size_t pin_ctx_llc_bytes(const struct pin_ctx *c)
{
	int pu = -1;
	if (c->place.pinned && !hwloc_bitmap_iszero(c->server_set))
		pu = hwloc_bitmap_first(c->server_set);
	return pin_topo_llc_bytes(c->topo, pu);
}

/* Value of "Key:\t..." in a status file, trimmed, into out. */
static int status_field(const char *text, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, klen) != 0 || p[klen] != ':')
			continue;
		p += klen + 1;
		while (*p == ' ' || *p == '\t')
			p++;
		size_t n = strcspn(p, "\n");
		if (n >= len)
			n = len - 1;
		memcpy(out, p, n);
		out[n] = '\0';
		return 0;
	}
	return -1;
}

int pin_proc_allowed(pid_t pid, pid_t tid, char *cpus, size_t cpus_len, char *mems, size_t mems_len,
		     struct errbuf *err)
{
	char path[64], *text = NULL;
	size_t len;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, (int)tid);
	if (util_read_file(path, &text, &len, err) < 0)
		return -1;
	int rc = 0;
	if (status_field(text, "Cpus_allowed_list", cpus, cpus_len) < 0 ||
	    status_field(text, "Mems_allowed_list", mems, mems_len) < 0)
		rc = errbuf_set(err, "no Cpus_allowed_list or Mems_allowed_list in '%s'", path);
	free(text);
	return rc;
}

/* The memory policy of a thread from the first line of its numa_maps ("bind:0", "default");
 * 1 and the policy in out, 0 when the kernel has no numa_maps, -1 on other errors. */
static int thread_policy(pid_t pid, pid_t tid, char *out, size_t len)
{
	char path[64], line[512];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/numa_maps", (int)pid, (int)tid);
	FILE *f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -1;
	int rc = -1;
	if (fgets(line, sizeof(line), f)) {
		char addr[64], pol[256];
		if (sscanf(line, "%63s %255s", addr, pol) == 2) {
			snprintf(out, len, "%s", pol);
			rc = 1;
		}
	}
	fclose(f);
	return rc;
}

/* Checks one thread; 0 when it matches, -1 with the mismatch in err, 1 when it is gone. */
static int verify_thread(const struct pin_ctx *c, pid_t pid, pid_t tid, hwloc_bitmap_t tmp,
			 struct errbuf *err)
{
	char cpus[1024], mems[1024], pol[256];
	struct errbuf e2;
	if (pin_proc_allowed(pid, tid, cpus, sizeof(cpus), mems, sizeof(mems), &e2) < 0)
		return 1; /* the thread exited meanwhile */
	if (hwloc_bitmap_list_sscanf(tmp, cpus) < 0 || !hwloc_bitmap_isequal(tmp, c->server_set))
		return errbuf_set(err, "thread %d of server %d may run on PUs %s, expected %s",
				  (int)tid, (int)pid, cpus, c->server_list);
	if (hwloc_bitmap_iszero(c->node_set))
		return 0;
	if (hwloc_bitmap_list_sscanf(tmp, mems) < 0 || !hwloc_bitmap_isincluded(c->node_set, tmp))
		return errbuf_set(err, "thread %d of server %d may use NUMA nodes %s, expected %s",
				  (int)tid, (int)pid, mems, c->node_list);
	int r = thread_policy(pid, tid, pol, sizeof(pol));
	if (r <= 0)
		return r == 0 ? 0 : 1;
	/* mpol_to_str(): "bind:0-1", with "=static" or "=relative" flags before the colon. */
	const char *colon = strchr(pol, ':');
	if (strncmp(pol, "bind", 4) != 0 || !colon ||
	    hwloc_bitmap_list_sscanf(tmp, colon + 1) < 0 || !hwloc_bitmap_isequal(tmp, c->node_set))
		return errbuf_set(err,
				  "thread %d of server %d has memory policy '%s', expected bind:%s",
				  (int)tid, (int)pid, pol, c->node_list);
	return 0;
}

int pin_ctx_verify(const struct pin_ctx *c, pid_t pid, struct errbuf *err)
{
	if (!c->place.pinned)
		return 0;
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return errbuf_errno(err, errno, "cannot open '%s'", path);
	hwloc_bitmap_t tmp = hwloc_bitmap_alloc();
	int rc = 0, checked = 0;
	struct dirent *de;
	while (tmp && (de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		int r = verify_thread(c, pid, (pid_t)strtol(de->d_name, NULL, 10), tmp, err);
		if (r < 0) {
			rc = -1;
			break;
		}
		checked += r == 0;
	}
	closedir(d);
	hwloc_bitmap_free(tmp);
	if (!tmp)
		return errbuf_set(err, "out of memory");
	if (rc == 0 && checked == 0)
		return errbuf_set(err, "server %d has no threads left to verify", (int)pid);
	return rc < 0 ? rc : checked;
}

json_t *pin_ctx_to_json(const struct pin_ctx *c)
{
	return json_pack("{s:s, s:o, s:o}", "topology", c->topo_desc, "placement",
			 pin_placement_to_json(&c->place), "stabilizers",
			 stab_opts_to_json(&c->stab));
}
