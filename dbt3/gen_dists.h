/* SPDX-License-Identifier: MIT */
/* The TPC-H dbgen distributions used by the generator (dbt3/gen_dists.c, from dists.dss). */
#ifndef DBT3_GEN_DISTS_H
#define DBT3_GEN_DISTS_H

/* One value and its (non-cumulative) weight, as written in dists.dss. */
struct gen_dist_entry {
	const char *text;
	int weight;
};

struct gen_dist {
	const char *name;
	const struct gen_dist_entry *list;
	int count;
};

enum gen_dist_id {
	GEN_DIST_P_CNTR,
	GEN_DIST_INSTRUCT,
	GEN_DIST_MSEGMNT,
	GEN_DIST_NATIONS,
	GEN_DIST_REGIONS,
	GEN_DIST_O_OPRIO,
	GEN_DIST_RFLAG,
	GEN_DIST_SMODE,
	GEN_DIST_P_TYPES,
	GEN_DIST_COLORS,
	GEN_DIST_NOUNS,
	GEN_DIST_VERBS,
	GEN_DIST_ADVERBS,
	GEN_DIST_ARTICLES,
	GEN_DIST_PREPOSITIONS,
	GEN_DIST_AUXILLARIES,
	GEN_DIST_TERMINATORS,
	GEN_DIST_ADJECTIVES,
	GEN_DIST_GRAMMAR,
	GEN_DIST_NP,
	GEN_DIST_VP,
	GEN_DIST_COUNT
};

extern const struct gen_dist gen_dists[GEN_DIST_COUNT];

#endif
