/* SPDX-License-Identifier: MIT */
/* A query's profile by function (docs/work.md, "Which functions"): callgrind's dump of one
 * execution read into each function's self and inclusive instruction counts, of which the
 * functions holding at least RUN_CG_SHARE of the execution's count are kept. Pure. */
#ifndef DBT3_RUN_CALLGRIND_H
#define DBT3_RUN_CALLGRIND_H
#include "base/util.h"
#include <stddef.h>

#define RUN_CG_SHARE 0.005 /* kept: self or inclusive >= 0.5 % of the execution's count */
#define RUN_CG_MAX 200	   /* functions kept at most (the largest self counts first) */
#define RUN_CG_NAME 384	   /* bytes of a name kept, with its NUL (longer ones are cut) */

struct run_cg_fn {
	char name[RUN_CG_NAME];
	long long self, incl;
};

/* The summary that comes back from the child that read the dump: plain bytes, no pointers. */
struct run_cg_profile {
	long long total;    /* the dump's total instructions (its "totals:" or "summary:") */
	long long unnamed;  /* self instructions left on addresses ("0x...") */
	long long named;    /* self instructions of all the others */
	long long resolved; /* of named: those named from the symbol list (run_cg_syms) */
	int n;		    /* functions kept in fn[] */
	struct run_cg_fn fn[RUN_CG_MAX];
};

/* A server binary's full symbol list (Debian ships mariadbd's as
 * share/doc/mariadb-server/mariadbd.sym.gz, `nm -n` lines "ADDRESS TYPE NAME"): the functions'
 * start addresses and demangled names, for the addresses callgrind cannot name. */
struct run_cg_syms;

/* The symbol list beside binary: PREFIX/share/doc/mariadb-server/NAME.sym.gz for the binary
 * PREFIX/sbin/NAME or PREFIX/bin/NAME; 0 with *out NULL when there is none, -1 (err) when it
 * cannot be read. Caller frees with run_cg_syms_free. */
int run_cg_syms_load(struct run_cg_syms **out, const char *binary, struct errbuf *err);

/* Reads `nm -n` lines (text, len bytes) into *out; the function symbols (types t T w W i) only. */
int run_cg_syms_parse(struct run_cg_syms **out, const char *text, size_t len, struct errbuf *err);

/* The demangled name of the function starting at addr, or NULL. */
const char *run_cg_syms_at(const struct run_cg_syms *sy, unsigned long long addr);

/* NULL is fine. */
void run_cg_syms_free(struct run_cg_syms *sy);

/* Reads callgrind's output text (len bytes; format of callgrind_format(5): name compression
 * "(id) name", fl=/fi=/fe=/fn=, cfn=/calls= lines, subposition compression) into out. A
 * function (an object's name) has as self count the sum of its cost lines and as inclusive
 * count that plus the costs of its calls to other functions; kept by name, a name's self counts
 * are added over its objects and the largest inclusive count is its own. Recursion levels callgrind
 * names "f'2" count as f (their self added, f's own inclusive kept). A function callgrind names by
 * its address "0x..." that starts a function of syms (NULL: none) takes that function's name. -1
 * (err) on text that is not a callgrind profile of Ir. */
int run_cg_parse(const char *text, size_t len, const struct run_cg_syms *syms,
		 struct run_cg_profile *out, struct errbuf *err);

#endif
