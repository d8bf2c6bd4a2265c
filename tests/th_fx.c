/* SPDX-License-Identifier: MIT */
/* Hand-made result files for the HTML report tests (tests/th_fx.h): 22 queries, log-normal
 * restart means, warm-up curves and the designed cases listed there, built with the result model
 * and written with res_file_write, so they go through the same strict reader as real ones. */
#include "tests/th_fx.h"
#include "base/util.h"
#include "result/res.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A label that must never reach the page unescaped. */
#define EVIL_LABEL "old <script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=2\">"

struct fx_rng {
	uint64_t s;
};

static double fx_uniform(struct fx_rng *r)
{
	/* xorshift64* (Vigna 2016), 53-bit mantissa */
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return (double)((r->s * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static double fx_gauss(struct fx_rng *r)
{
	double u = fx_uniform(r), v = fx_uniform(r);
	return sqrt(-2 * log(u + 1e-300)) * cos(6.283185307179586 * v);
}

enum fx_side { FX_OLD = 0, FX_NEW = 1 };

/* The sections of one side's file: host, server (its binary by side), data set, plan, pinning. */
static void fx_sections(struct res_file *res, enum fx_side side, size_t restarts)
{
	char sha[65];
	res_set_string(&res->started_at, "2026-11-30T01:00:00Z");
	res_set_string(&res->finished_at, "2026-11-30T02:10:00Z");
	res_set_section(&res->host,
			json_pack("{s:s,s:s,s:s,s:s,s:b,s:b}", "name", "bench-1", "cpu_model",
				  "AMD EPYC 7302P 16-Core Processor", "kernel", "6.1.0-28-amd64",
				  "governor", "performance", "turbo", 0, "aslr", 0));
	util_sha256_hex(sha, side == FX_OLD ? "old-binary" : "new-binary", 10);
	res_set_section(&res->server,
			json_pack("{s:s,s:s,s:s,s:{}}", "version",
				  side == FX_OLD ? "10.11.6-MariaDB" : "10.11.7-MariaDB", "binary",
				  side == FX_OLD ? "/opt/old/mariadbd" : "/opt/new/mariadbd",
				  "binary_sha256", sha, "options"));
	res_set_section(
	    &res->dataset,
	    json_pack("{s:f,s:s,s:s}", "scale_factor", 1.0, "generator_version", "dbt3stab-gen 1",
		      "fingerprint",
		      "5f1c0aa3d7e2b6f2a3c5e4d1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1"));
	res_set_section(&res->plan,
			json_pack("{s:I,s:i,s:i,s:s,s:i}", "restarts", (json_int_t)restarts,
				  "warmup", 8, "runs", 10, "query_order", "fixed", "seed", 42));
	res_set_section(&res->pinning, json_pack("{s:[i],s:[i],s:[i],s:[s,s,s]}", "server_cpus", 2,
						 "client_cpus", 3, "memory_nodes", 0, "stabilizers",
						 "governor", "aslr", "turbo"));
}

/* Restart r of query qi (restart mean about ms, noise cov) on one side, drawn from rng. */
static void fx_restart(struct res_query *q, enum fx_side side, int qi, size_t r, double ms,
		       double cov, struct fx_rng *rng)
{
	double warm[8], meas[10], cpu[10];
	double m = ms * exp(cov * fx_gauss(rng));
	for (int k = 0; k < 8; k++)
		warm[k] = m * (1 + 3.0 * exp(-k / 1.3)) * exp(0.01 * fx_gauss(rng));
	for (int k = 0; k < 10; k++) {
		/* Q3, restart 1: still warming up in the measured runs */
		double trend = qi == 3 && r == 1 ? 1 + 0.03 * (9 - k) : 1;
		meas[k] = m * trend * exp(0.002 * fx_gauss(rng));
		cpu[k] = meas[k] * 0.97;
	}
	char rsha[65], psha[65];
	const char *res_text = side == FX_NEW && qi == 18 ? "wrong" : "right";
	util_sha256_hex(rsha, res_text, strlen(res_text));
	int changed = side == FX_NEW && qi == 9;
	util_sha256_hex(psha, changed ? "plan-b" : "plan-a", 6);
	char plan[512];
	snprintf(plan, sizeof(plan),
		 "{\"query_block\": {\"select_id\": 1, \"nested_loop\": [{\"table\": "
		 "{\"table_name\": \"%s\", \"access_type\": \"%s\", \"key\": %s, "
		 "\"attached_condition\": \"lineitem.l_shipdate <= '1998-09-02' and "
		 "l_qty > 3\"}}, {\"table\": {\"table_name\": \"%s\", \"access_type\": "
		 "\"eq_ref\"}}]}}",
		 changed ? "orders" : "lineitem", changed ? "ALL" : "range",
		 changed ? "null" : "\"i_l_shipdate\"", changed ? "lineitem" : "orders");
	struct res_restart rr = {
	    .index = (int)r,
	    .status = RES_STATUS_OK,
	    .warmup_ms = warm,
	    .n_warmup = 8,
	    .measured_ms = meas,
	    .n_measured = 10,
	    .server_cpu_ms = cpu,
	    .n_server_cpu = 10,
	    .rows = 4 + qi,
	    .result_sha256 = rsha,
	    .plan_sha256 = psha,
	    .plan = plan,
	    .not_steady = qi == 3 && r == 1,
	};
	/* Q21: the old server crashed in restart 1 after three warm-up runs; Q22: the new side
	 * timed out in restart 0 on its first measured run */
	if (side == FX_OLD && qi == 21 && r == 1) {
		rr.status = RES_STATUS_CRASH;
		rr.n_warmup = 3;
		rr.n_measured = rr.n_server_cpu = 0;
		rr.rows = -1;
		rr.result_sha256 = rr.plan_sha256 = NULL;
		rr.error = "mysqld got signal 11 <in Item_func::val_int> & aborted";
	}
	if (side == FX_NEW && qi == 22 && r == 0) {
		rr.status = RES_STATUS_TIMEOUT;
		rr.n_measured = rr.n_server_cpu = 0;
		rr.rows = -1;
		rr.result_sha256 = NULL;
		rr.error = "killed after 30 s (--query-timeout)";
	}
	res_query_add_restart(q, &rr);
}

/* Builds one side; seed varies the restart noise, the query base times are the same for all. */
static struct res_file *fx_result(enum fx_side side, const char *label, uint64_t seed,
				  size_t restarts)
{
	struct res_file *res = res_file_new();
	struct fx_rng base = {0x9e3779b97f4a7c15ULL}, rng = {seed * 0x2545f4914f6cdd1dULL + 1};
	char sql[65];
	if (!res)
		return NULL;
	res_set_string(&res->label, label);
	fx_sections(res, side, restarts);
	for (int qi = 1; qi <= 22; qi++) {
		char id[8];
		snprintf(id, sizeof(id), "Q%d", qi);
		util_sha256_hex(sql, id, strlen(id));
		struct res_query *q = res_file_add_query(res, id, sql);
		double ms = 15 * exp(4.5 * fx_uniform(&base)); /* 15 ms .. 1.3 s */
		double cov = 0.005 + 0.025 * fx_uniform(&base);
		if (side == FX_NEW && qi == 5)
			ms *= 1.15;
		if (side == FX_NEW && qi == 9)
			ms /= 1.15;
		size_t nr = side == FX_NEW && qi == 20 ? 1 : restarts;
		for (size_t r = 0; r < nr; r++)
			fx_restart(q, side, qi, r, ms, cov, &rng);
	}
	return res;
}

int th_fx_write_pair(const char *dir, size_t restarts)
{
	char path[4096];
	struct errbuf err;
	int rc = 0;
	struct res_file *old = fx_result(FX_OLD, EVIL_LABEL, 1, restarts);
	struct res_file *new = fx_result(FX_NEW, "new build", 2, restarts);
	snprintf(path, sizeof(path), "%s/old.json", dir);
	if (!old || res_file_write(old, path, &err) < 0)
		rc = -1;
	snprintf(path, sizeof(path), "%s/new.json", dir);
	if (!new || res_file_write(new, path, &err) < 0)
		rc = -1;
	res_file_free(old);
	res_file_free(new);
	return rc;
}
