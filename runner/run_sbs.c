/* SPDX-License-Identifier: MIT */
/* Side by side: the order within a pair (strict alternation), the two buffer pools
 * (runner/run_sbs.h). */
#include "runner/run_sbs.h"
#include "base/text.h"
#include "runner/run.h"
#include "server/srv.h"
#include "server/srv_clone.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* splitmix64 (Steele, Lea, Flood 2014), the generator of run_opt.c's shuffles. */
static uint64_t splitmix64(uint64_t x)
{
	uint64_t z = x + 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

const char *run_sbs_order_name(int seed_given)
{
	return seed_given ? "alternate-coin" : "alternate";
}

int run_sbs_order_current(const char *name)
{
	return name && (strcmp(name, run_sbs_order_name(0)) == 0 ||
			strcmp(name, run_sbs_order_name(1)) == 0);
}

int run_sbs_first(uint64_t seed, int seed_given, int pair)
{
	if (!seed_given)
		return pair % 2;
	return (int)(splitmix64(seed ^ (3 * 0xd1b54a32d192ed03ull) ^ ((uint64_t)pair << 32)) >> 63);
}

int run_sbs_query_first(int pair_first, int last)
{
	return last < 0 ? pair_first : 1 - last;
}

size_t run_sbs_pair_order(char *out, size_t len, int pair_first, const int *slots, int n)
{
	size_t execs = 0;
	int last = -1;
	if (len)
		out[0] = '\0';
	for (int i = 0; i < n; i++) {
		int f = run_sbs_query_first(pair_first, last);
		for (int k = 0; k < slots[i]; k++, execs += 2) {
			run_sbs_order_add(out, len, f);
			run_sbs_order_add(out, len, 1 - f);
			last = 1 - f;
		}
	}
	return execs;
}

int run_sbs_pools_plan(struct run_sbs_pools *out, uint64_t data_bytes, double scale,
		       uint64_t ram_bytes, uint64_t option_bytes, const uint64_t own[2],
		       struct errbuf *err)
{
	struct srv_pool p;
	srv_pool_plan(&p, data_bytes, scale, ram_bytes, 0);
	memset(out, 0, sizeof(*out));
	out->need = p.need_bytes;
	out->cap = p.cap_bytes;
	out->data = p.data_bytes;
	for (int k = 0; k < 2; k++)
		out->pool[k] = own && own[k] ? own[k] : option_bytes ? option_bytes : p.need_bytes;
	uint64_t sum = out->pool[0] + out->pool[1];
	out->fits = !out->cap || sum <= out->cap;
	if (out->fits)
		return 0;
	char h[5][32];
	errbuf_set(err,
		   "side by side needs two buffer pools (%s + %s for %s of data) and this host's "
		   "%s of RAM gives the pools at most %s",
		   util_size_human(h[0], 32, out->pool[0]), util_size_human(h[1], 32, out->pool[1]),
		   util_size_human(h[2], 32, out->data), util_size_human(h[3], 32, ram_bytes),
		   util_size_human(h[4], 32, out->cap));
	return RUN_SBS_NO_ROOM;
}

void run_sbs_order_add(char *s, size_t len, int variant)
{
	size_t n = strlen(s);
	if (len < 2 || (n > 0 && s[n - 1] == '+'))
		return;
	if (n + 2 >= len) {
		s[n] = '+';
		s[n + 1] = '\0';
		return;
	}
	s[n] = variant ? 'B' : 'A';
	s[n + 1] = '\0';
}

int run_sbs_order_valid(const char *s, int first)
{
	size_t n = strlen(s), i = 0;
	if (n > 0 && s[n - 1] == '+')
		n--; /* cut: what is there is checked */
	for (char want = first ? 'B' : 'A'; i < n && s[i] == want; i++)
		want = want == 'A' ? 'B' : 'A';
	/* a side that failed at its turn: the rest is the other side's alone */
	char survivor = i ? s[i - 1] : first ? 'A' : 'B';
	for (size_t j = i; j < n; j++)
		if (s[j] != survivor)
			return 0;
	return 1;
}

const char *run_sbs_clone_name(int reflink)
{
	return reflink ? "reflink" : "copy";
}

/* A variant's own innodb_buffer_pool_size ('-' or '_'), 0 when it sets none. */
static uint64_t own_pool(const struct srv_opts *o)
{
	for (size_t i = 0; i < o->n_server_options; i++) {
		const struct srv_kv *kv = &o->server_options[i];
		char name[64];
		size_t n = 0;
		for (; kv->name[n] && n < sizeof(name) - 1; n++)
			name[n] = kv->name[n] == '-' ? '_' : kv->name[n];
		name[n] = '\0';
		uint64_t v;
		if (strcmp(name, "innodb_buffer_pool_size") == 0 && kv->value &&
		    srv_parse_size(kv->value, &v) == 0)
			return v;
	}
	return 0;
}

static uint64_t phys_ram(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
	return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

int run_sbs_check(struct run_sbs_setup *out, const struct run_target *targets, int n,
		  double scale, struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	if (n != 2)
		return errbuf_set(err, "side by side measures two variants, not %d", n);
	const struct srv_opts *const opts[2] = {targets[0].opts, targets[1].opts};
	const char *dir = opts[0]->datadir;
	struct srv_clone_survey sv;
	if (!dir)
		return errbuf_set(err, "side by side needs the instance directory (--datadir)");
	if (srv_clone_survey(&sv, dir, err) < 0)
		return -1;
	out->tree_bytes = sv.tree_bytes;
	out->data_bytes = sv.data_bytes;
	out->reflink = sv.reflink;
	out->free_bytes = sv.free_bytes;
	out->need_bytes = srv_clone_need(out->tree_bytes, 2, out->reflink);
	if (out->free_bytes < out->need_bytes) {
		char need[32], data[32], have[32];
		errbuf_set(err,
			   "side by side needs %s free in '%s' for two %s clones of its data (%s) "
			   "and has %s",
			   util_size_human(need, sizeof(need), out->need_bytes), dir,
			   run_sbs_clone_name(out->reflink),
			   util_size_human(data, sizeof(data), out->tree_bytes),
			   util_size_human(have, sizeof(have), out->free_bytes));
		return RUN_SBS_NO_ROOM;
	}
	const uint64_t own[2] = {own_pool(opts[0]), own_pool(opts[1])};
	return run_sbs_pools_plan(&out->pools, out->data_bytes, scale, phys_ram(),
				  opts[0]->buffer_pool, own, err);
}

void run_sbs_describe(char *buf, size_t len, const struct run_sbs_setup *su, const char *dir)
{
	snprintf(
	    buf, len,
	    "side by side: two %s clones of '%s/data' (%.0f MiB), buffer pools %.0f + %.0f MiB",
	    run_sbs_clone_name(su->reflink), dir, (double)su->tree_bytes / 1048576.0,
	    (double)su->pools.pool[0] / 1048576.0, (double)su->pools.pool[1] / 1048576.0);
}
