/* SPDX-License-Identifier: MIT */
/* dbgen's random stream, shared by the data generator (dbt3/gen.c) and the query parameters
 * (dbt3/qry.c, qgen): Park and Miller, "Random number generators: good ones are hard to find",
 * CACM 31(10), 1988: x' = 16807 x mod (2^31 - 1), dbgen's NextRand(), and its UnifInt(). */
#ifndef DBT3_GEN_RNG_H
#define DBT3_GEN_RNG_H

#include <stdint.h>

#define GEN_RNG_MULT 16807
#define GEN_RNG_MOD 2147483647

/* One dbgen stream: seed, draws used in the current row, draws reserved per row. */
struct gen_rng {
	int64_t seed;
	int32_t usage;
	int32_t per_row;
};

static inline int64_t gen_rng_mod(uint64_t x)
{
	/* x mod (2^31 - 1) for x < 2^62, exact. */
	x = (x & GEN_RNG_MOD) + (x >> 31);
	x = (x & GEN_RNG_MOD) + (x >> 31);
	return x == GEN_RNG_MOD ? 0 : (int64_t)x;
}

static inline int64_t gen_rng_next(struct gen_rng *r)
{
	r->seed = gen_rng_mod((uint64_t)r->seed * GEN_RNG_MULT);
	r->usage++;
	return r->seed;
}

/* dbgen UnifInt's (long)((double)s / M * range) for 0 < range < 2^32, computed exactly in
 * integers: floor(s * range / M). The two double roundings move the product by less than
 * range * 2^-51, so the truncations agree unless s * range / M lies within that distance of an
 * integer; those rare cases are computed in double, as dbgen does. */
static inline int64_t gen_rng_scale(int64_t s, uint64_t range)
{
	uint64_t t = (uint64_t)s * range;
	uint64_t q = t / GEN_RNG_MOD, rem = t % GEN_RNG_MOD;
	uint64_t margin = (range >> 19) + 2;
	if (rem > margin && GEN_RNG_MOD - rem > margin)
		return (int64_t)q;
	return (int64_t)(((double)s / (double)GEN_RNG_MOD) * (double)range);
}

/* dbgen UnifInt: lo + (long)((double)seed / M * (hi - lo + 1)). */
static inline int32_t gen_rng_int(struct gen_rng *r, int32_t lo, int32_t hi)
{
	int64_t s = gen_rng_next(r);
	return lo + (int32_t)gen_rng_scale(s, (uint64_t)((int64_t)hi - lo + 1));
}

#endif
