/* SPDX-License-Identifier: MIT */
/* Side by side: the order within a pair, the two buffer pools (runner/run_sbs.h). */
#include "runner/run_sbs.h"
#include "server/srv.h"
#include <string.h>

/* splitmix64 (Steele, Lea, Flood 2014), the generator of run_opt.c's shuffles. */
static uint64_t splitmix64(uint64_t x)
{
	uint64_t z = x + 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int run_sbs_first(uint64_t seed, int seed_given, int pair)
{
	if (!seed_given)
		return pair % 2;
	return (int)(splitmix64(seed ^ (3 * 0xd1b54a32d192ed03ull) ^ ((uint64_t)pair << 32)) >> 63);
}

int run_sbs_slot_first(int first, int k)
{
	return k % 2 ? 1 - first : first;
}

#define GIB(x) ((double)(x) / 1073741824.0)

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
	return errbuf_set(
	    err,
	    "side by side needs two buffer pools (%.3g + %.3g GiB for %.3g GiB of data) "
	    "and this host's %.3g GiB of RAM gives the pools at most %.3g GiB: measure "
	    "restart-paired (drop --side-by-side)",
	    GIB(out->pool[0]), GIB(out->pool[1]), GIB(out->data), GIB(ram_bytes), GIB(out->cap));
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

int run_sbs_order_valid(const char *s, int first, int nw)
{
	size_t n = strlen(s), i = 0;
	int k = 0;
	for (; i + 1 < n; i += 2, k++) {
		int phase_k = k < nw ? k : k - nw;
		char want = run_sbs_slot_first(first, phase_k) ? 'B' : 'A';
		char other = want == 'A' ? 'B' : 'A';
		if (s[i] != want || s[i + 1] != other)
			break;
	}
	/* a side that failed: the rest is the other side's alone */
	for (size_t j = i; j < n; j++)
		if (s[j] != s[i] || (s[j] != 'A' && s[j] != 'B'))
			return s[j] == '+' && j == n - 1;
	return 1;
}
