/* SPDX-License-Identifier: MIT */
/* The run protocol (docs/run.md). */
#include "runner/run.h"
#include "dbt3/load.h"
#include "dbt3/qry.h"
#include "runner/run_budget_plan.h"
#include "runner/run_exec.h"
#include "runner/run_explain.h"
#include "runner/run_interf.h"
#include "runner/run_memprobe.h"
#include "runner/run_steady.h"
#include "stats/st.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RUN_DB "dbt3"
#define RUN_LOG_TAIL_LINES 30

/* Per target state during a run. */
struct tstate {
	struct run_target *t;
	struct srv *srv;
	int crashes;
	int starts;    /* server starts in this run */
	int described; /* server and dataset sections filled */
	int start_seq; /* runctx.start_seq of the running server */
	double startstop_s; /* --budget: longest server start + stop of a restart so far */
};

/* Everything one call of run_execute shares. */
struct runctx {
	const struct run_plan *plan;
	struct tstate *ts;
	int n_targets;
	struct pin_ctx *pin;
	const struct run_hooks *hooks;
	struct qry queries[RUN_MAX_QUERIES + 1]; /* by query number */
	/* During one restart. */
	MYSQL *conn;
	struct run_cpu *cpu;
	struct run_watch *watch;
	struct run_interf *noise;   /* interference around each query, NULL when /proc fails */
	struct run_memprobe *probe; /* the memory-contention probe, NULL when unavailable */
	struct run_memprobe_worker *probe_worker; /* its thread on the server's PUs */
	double probe_last_ns;	    /* the last probe of this server start, < 0: none yet */
	/* Progress and ETA. */
	struct run_progress prog;
	uint64_t t0;
	uint64_t rem_execs[RUN_MAX_QUERIES + 1]; /* executions still to do, per query */
	uint64_t seen_ns[RUN_MAX_QUERIES + 1], seen_n[RUN_MAX_QUERIES + 1];
	uint64_t rem_starts, start_ns, start_n;
	int execs_done; /* executions of the current query */
	int start_seq;	/* server starts so far in this call, over all targets */
	/* --budget: the plan of the current pair by plan position, NULL in the fixed protocol. */
	struct run_qnext *next;
	int qpos[RUN_MAX_QUERIES + 1]; /* plan position of a query number */
	uint64_t startstop_ns;	       /* start + stop of the current restart */
	/* --budget, a restart owed by --min-restarts or of the paced last pair: its share of the
	 * budget left, paced over its queries (pace_ns 0: no pacing): the pace_i-th query measured
	 * must end by pace_t0 + pace_ns pace_cum[pace_i]; pair_pos is the restart's place within
	 * its pair. */
	uint64_t pace_t0, pace_ns;
	double pace_cum[RUN_MAX_QUERIES];
	int pace_i, pair_pos;
	int paced_pair; /* the current pair is the paced last pair (run_budget_stop) */
	int owed_warned; /* the restarts still owed were said not to fit (once) */
};

static void event(struct runctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void event(struct runctx *c, const char *fmt, ...)
{
	char msg[1200];
	va_list ap;
	if (!c->hooks || !c->hooks->event)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->hooks->event(c->hooks->arg, msg);
}

/* Query num's mean execution so far (ms; every target, warm-up included); 0 before its first. */
static double mean_exec_ms(const struct runctx *c, int num)
{
	return c->seen_n[num] ? (double)c->seen_ns[num] / (double)c->seen_n[num] / 1e6 : 0;
}

static double eta_seconds(const struct runctx *c)
{
	uint64_t all_ns = 0, all_n = 0;
	for (int q = 1; q <= RUN_MAX_QUERIES; q++) {
		all_ns += c->seen_ns[q];
		all_n += c->seen_n[q];
	}
	if (all_n == 0)
		return NAN;
	double s = 0, global = (double)all_ns / (double)all_n;
	for (int q = 1; q <= RUN_MAX_QUERIES; q++) {
		double per = c->seen_n[q] ? mean_exec_ms(c, q) * 1e6 : global;
		s += per * (double)c->rem_execs[q];
	}
	if (c->start_n)
		s += (double)c->rem_starts * (double)c->start_ns / (double)c->start_n;
	return s / 1e9;
}

static void progress(struct runctx *c)
{
	if (!c->hooks || !c->hooks->progress)
		return;
	c->prog.elapsed_ns = util_now_ns() - c->t0;
	c->prog.eta_s = c->next ? fmax(0, c->plan->budget_s - (double)c->prog.elapsed_ns / 1e9)
				: eta_seconds(c);
	c->hooks->progress(c->hooks->arg, &c->prog);
}

static int has_restart(const struct res_query *q, int r)
{
	for (size_t i = 0; i < q->n_restarts; i++)
		if (q->restarts[i].index == r)
			return 1;
	return 0;
}

/* Queries of the plan that restart r of this target still lacks. */
static int pending(const struct runctx *c, const struct tstate *t, int r)
{
	int n = 0;
	for (int i = 0; i < c->plan->n_queries; i++)
		if (!has_restart(res_file_find_query_num(t->t->res, c->plan->queries[i]), r))
			n++;
	return n;
}

static int checkpoint(struct tstate *t, struct errbuf *err)
{
	if (!t->t->written)
		t->t->written = 1; /* the signal handler's hint: the rename may have happened */
	if (run_interf_update(t->t->res) < 0)
		return errbuf_set(err, "out of memory");
	if (res_file_write(t->t->res, t->t->out_path, err) < 0)
		return -1;
	t->t->written = 2;
	return 0;
}

json_t *run_plan_to_json(const struct run_plan *p, const char *variant_name,
			 const char *variant_spec)
{
	json_t *o = json_object(), *qs = json_array();
	/* With --budget: the pairs so far (raised before each pair) and the upper bounds, so that
	 * the data always agrees with the plan as the reader checks. */
	int budget = p->budget_s > 0;
	json_object_set_new(o, "restarts", json_integer(budget ? 1 : p->restarts));
	json_object_set_new(o, "warmup", json_integer(budget ? p->warmup_max : p->warmup));
	json_object_set_new(o, "runs", json_integer(budget ? p->runs_max : p->runs));
	for (int i = 0; i < p->n_queries; i++) {
		char id[8];
		snprintf(id, sizeof(id), "Q%d", p->queries[i]);
		json_array_append_new(qs, json_string(id));
	}
	json_object_set_new(o, "queries", qs);
	json_object_set_new(o, "query_order", json_string(p->shuffled ? "shuffled" : "fixed"));
	json_object_set_new(o, "seed",
			    p->seed_given ? json_integer((json_int_t)p->seed) : json_null());
	json_object_set_new(o, "variant", variant_name ? json_string(variant_name) : json_null());
	json_object_set_new(o, "variant_spec",
			    variant_spec ? json_string(variant_spec) : json_null());
	json_object_set_new(o, "query_timeout_s",
			    p->query_timeout > 0 ? json_real(p->query_timeout) : json_null());
	json_object_set_new(o, "max_crashes", json_integer(p->max_crashes));
	json_object_set_new(o, "steady_test", json_string("mann-kendall"));
	json_object_set_new(o, "steady_alpha", json_real(p->steady_alpha));
	json_object_set_new(o, "steady_correction", json_string("holm"));
	json_object_set_new(o, "variant_order",
			    json_string(p->seed_given			      ? "shuffled"
					: p->variant_order == RUN_VORDER_ABBA ? "abba"
									      : "fixed"));
	json_object_set_new(o, "parameters", json_string("tpch-validation"));
	if (p->profile)
		json_object_set(o, "profile", p->profile);
	if (p->budget_s > 0) {
		json_object_set_new(o, "budget_s", json_real(p->budget_s));
		json_object_set_new(o, "detect", json_real(p->detect));
		json_object_set_new(o, "alpha", json_real(p->alpha));
		json_object_set_new(o, "warmup_min", json_integer(p->warmup_min));
		json_object_set_new(o, "warmup_max", json_integer(p->warmup_max));
		json_object_set_new(o, "runs_min", json_integer(p->runs_min));
		json_object_set_new(o, "runs_max", json_integer(p->runs_max));
		json_object_set_new(o, "keep_all", json_boolean(p->keep_all));
		json_object_set_new(o, "min_restarts", json_integer(p->min_restarts));
		if (p->costs_from)
			json_object_set_new(o, "costs_from", json_string(p->costs_from));
		json_object_set_new(o, "warmup_rule", json_string("window-means"));
	}
	return o;
}

/* A new result for a target, or the checks of a resumed one. */
static int prepare_result(struct runctx *c, struct tstate *t, const char *variant_spec,
			  struct errbuf *err)
{
	struct res_file *res = t->t->res;
	if (!res) {
		res = res_file_new();
		if (!res)
			return errbuf_set(err, "out of memory");
		t->t->res = res;
		res_set_string(&res->label, c->plan->label);
		res_set_section(&res->plan, run_plan_to_json(c->plan, t->t->name, variant_spec));
		json_t *pin = c->pin ? pin_ctx_to_json(c->pin) : NULL;
		json_t *topo = pin ? json_object_get(pin, "topology") : NULL;
		res_set_section(&res->host, run_host_json(json_string_value(topo)));
		if (!pin) {
			pin = json_object();
			json_object_set_new(pin, "placement", json_null());
		}
		res_set_section(&res->pinning, pin);
		json_object_set_new(res->dataset, "scale_factor", json_real(c->plan->scale));
	} else {
		res_set_string(&res->finished_at, NULL);
	}
	for (int i = 0; i < c->plan->n_queries; i++) {
		int num = c->plan->queries[i];
		char id[8], sha[65];
		snprintf(id, sizeof(id), "Q%d", num);
		qry_sha256(sha, &c->queries[num]);
		struct res_query *q = res_file_find_query(res, id);
		if (q && q->sql_sha256 && strcmp(q->sql_sha256, sha) != 0)
			return errbuf_set(err, "'%s': %s was measured with another statement text",
					  t->t->out_path, id);
		if (!q && !res_file_add_query(res, id, sha))
			return errbuf_set(err, "out of memory");
	}
	return 0;
}

static void close_session(struct runctx *c)
{
	run_watch_free(c->watch);
	c->watch = NULL;
	run_cpu_free(c->cpu);
	c->cpu = NULL;
	run_interf_free(c->noise);
	c->noise = NULL;
	if (c->conn)
		mysql_close(c->conn);
	c->conn = NULL;
}

/* Connections and the CPU sampler for a running server. */
static int open_session(struct runctx *c, struct tstate *t, struct errbuf *err)
{
	c->conn = srv_connect(t->srv, RUN_DB, err);
	if (!c->conn)
		return -1;
	pid_t pid = srv_pid(t->srv);
	if (pid > 0 && run_cpu_new(&c->cpu, pid, RUN_CPU_AUTO, err) < 0)
		goto fail;
	if (c->cpu)
		json_object_set_new(t->t->res->plan, "server_cpu_source",
				    json_string(run_cpu_source_name(c->cpu)));
	struct errbuf nerr;
	if (pid > 0 && run_interf_open(&c->noise, t->srv, c->conn, c->pin, &nerr) < 0)
		event(c, "no interference record: %s", nerr.msg);
	if (c->plan->query_timeout > 0) {
		MYSQL *killer = srv_connect(t->srv, NULL, err);
		if (!killer)
			goto fail;
		uint64_t ns = (uint64_t)(c->plan->query_timeout * 1e9);
		if (run_watch_new(&c->watch, killer, ns, err) < 0) {
			mysql_close(killer);
			goto fail;
		}
	}
	return 0;
fail:
	close_session(c);
	return -1;
}

/* The dataset section from the load's fingerprint; the data must be a complete load of the
 * plan's scale factor, and the same data a resumed file was measured on. */
static int describe_dataset(struct runctx *c, struct tstate *t, struct errbuf *err)
{
	struct load_fingerprint fp;
	int rc = load_fingerprint_read(c->conn, RUN_DB, &fp, err);
	if (rc == LOAD_E_NONE)
		return (errbuf_set(err,
				   "database '%s' in '%s' holds no complete load: run 'dbt3stab "
				   "load -s %g' with the same server options first",
				   RUN_DB, srv_instdir(t->srv), c->plan->scale),
			RUN_E_NODATA);
	if (rc < 0)
		return rc == LOAD_E_SERVER ? RUN_E_SERVER : -1;
	if (fabs(fp.sf - c->plan->scale) > 1e-9 * fmax(1, fp.sf))
		return (errbuf_set(err, "the loaded data is scale factor %g, not %g", fp.sf,
				   c->plan->scale),
			RUN_E_NODATA);
	char ident[1024], sha[65];
	size_t n =
	    (size_t)snprintf(ident, sizeof(ident), "sf=%.17g generator=%s indexes=%s rows=", fp.sf,
			     fp.generator, fp.indexes);
	for (int i = 0; i < GEN_NTABLES && n < sizeof(ident); i++)
		n += (size_t)snprintf(ident + n, sizeof(ident) - n, "%s%lld", i ? "," : "",
				      (long long)fp.rows[i]);
	util_sha256_hex(sha, ident, strlen(ident));
	const char *old = json_string_value(json_object_get(t->t->res->dataset, "fingerprint"));
	if (old && strcmp(old, sha) != 0)
		return (errbuf_set(err,
				   "'%s' was measured on other data (dataset fingerprint %.12s, "
				   "now %.12s): cannot resume on this data",
				   t->t->out_path, old, sha),
			RUN_E_NODATA);
	json_t *ds = load_fingerprint_json(&fp);
	if (!ds)
		return errbuf_set(err, "out of memory");
	json_object_set_new(ds, "generator_version", json_string(fp.generator));
	json_object_set_new(ds, "fingerprint", json_string(sha));
	json_object_set_new(ds, "database", json_string(RUN_DB));
	res_set_section(&t->t->res->dataset, ds);
	return 0;
}

/* Starts the target's server (pinned), verifies the placement, opens the session. */
static int start_server(struct runctx *c, struct tstate *t, struct errbuf *err)
{
	const char *extra[8];
	struct srv_kv overlay[8];
	int n_extra = 0;
	struct srv_launch launch = {0};
	uint64_t t0 = util_now_ns();
	if (c->pin) {
		if (pin_ctx_before_start(c->pin, err) < 0)
			return -1;
		n_extra = pin_ctx_server_args(c->pin, extra, 8);
		for (int i = 0; i < n_extra; i++) {
			overlay[i].name = (char *)extra[i];
			overlay[i].value = NULL;
		}
		launch.child_hook = pin_child_hook;
		launch.arg = c->pin;
		launch.overlay = overlay;
		launch.n_overlay = (size_t)n_extra;
	}
	if (srv_start(t->srv, &launch, err) < 0)
		return RUN_E_SERVER;
	t->starts++;
	t->start_seq = c->start_seq++;
	c->probe_last_ns = -1;
	if (c->pin) {
		struct errbuf verr;
		if (pin_ctx_verify(c->pin, srv_pid(t->srv), &verr) < 0) {
			event(c, "placement check failed: %s", verr.msg);
			json_object_set_new(t->t->res->pinning, "verify_error",
					    json_string(verr.msg));
		} else {
			json_object_set_new(t->t->res->pinning, "verified", json_true());
		}
	}
	if (open_session(c, t, err) < 0)
		return RUN_E_SERVER;
	if (!t->described) {
		struct errbuf ierr;
		int drc = describe_dataset(c, t, err);
		if (drc < 0) {
			close_session(c);
			srv_stop(t->srv, &ierr);
			return drc;
		}
		json_t *info = srv_info_json(t->srv, &ierr);
		if (info)
			res_set_section(&t->t->res->server, info);
		else
			event(c, "cannot describe the server: %s", ierr.msg);
		t->described = 1;
	}
	c->start_ns += util_now_ns() - t0;
	c->start_n++;
	return 0;
}

static int stop_server(struct runctx *c, struct tstate *t, struct errbuf *err)
{
	uint64_t t0 = util_now_ns();
	close_session(c);
	int rc = srv_stop(t->srv, err);
	c->start_ns += util_now_ns() - t0;
	return rc;
}

/* Growing arrays of one restart's measurements. */
struct series {
	double *warm, *meas, *cpu;
	size_t nw, nm, nc;
};

static int exec_counted(struct runctx *c, int num, const char *sql, unsigned flags,
			struct run_exec_result *out, struct errbuf *err)
{
	enum run_exec_status st = run_exec(c->conn, sql, flags, c->cpu, c->watch, NULL, out, err);
	c->execs_done++;
	if (c->rem_execs[num])
		c->rem_execs[num]--;
	if (st == RUN_EXEC_OK) {
		c->seen_ns[num] += out->wall_ns;
		c->seen_n[num]++;
	}
	return (int)st;
}

/* How many executions one query gets in one restart: fixed (--warmup, --runs), or with --budget
 * an adaptive warm-up within [warmup_min, warmup_max] and the pair's runs. */
struct qshape {
	int wmin, wmax, runs;
	int rmin;   /* runs an owed restart's pacing never cuts: --runs-min (the fixed protocol: runs) */
	double tol; /* warm-up rule tolerance; 0 in the fixed protocol */
};

static struct qshape shape_of(const struct runctx *c, int num)
{
	const struct run_plan *p = c->plan;
	struct qshape q = {p->warmup, p->warmup, p->runs, p->runs, 0};
	if (c->next) {
		const struct run_qnext *x = &c->next[c->qpos[num]];
		int rmin = p->runs_min < x->runs ? p->runs_min : x->runs;
		q = (struct qshape){p->warmup_min, p->warmup_max, x->runs, rmin, x->warmup_tol};
	}
	return q;
}

/* Every execution's row count against the first one's: each that differs is listed in
 * r->extra as row_count_changes [{execution (1-based, warm-up included), rows}]. */
static void check_rows(struct res_restart *r, long long first, long long rows, int execution)
{
	if (first < 0 || rows == first)
		return;
	json_t *list = json_object_get(r->extra, "row_count_changes");
	if (!list) {
		list = json_array();
		json_object_set_new(r->extra, "row_count_changes", list);
	}
	json_t *e = json_object();
	json_object_set_new(e, "execution", json_integer(execution));
	json_object_set_new(e, "rows", json_integer(rows));
	json_array_append_new(list, e);
}

/* One execution of q for measure(): progress, run, fingerprint, rows. */
static enum run_exec_status exec_one(struct runctx *c, int num, unsigned flags, int total,
				     struct res_restart *r, long long *rows, char *result_sha,
				     struct run_exec_result *x, struct errbuf *err)
{
	c->prog.run = c->execs_done + 1;
	c->prog.runs = total;
	progress(c);
	enum run_exec_status st = exec_counted(c, num, c->queries[num].sql, flags, x, err);
	if (st != RUN_EXEC_OK)
		return st;
	if (flags & RUN_EXEC_HASH)
		memcpy(result_sha, x->result_sha256, 65);
	check_rows(r, *rows, (long long)x->rows, c->execs_done);
	if (*rows < 0)
		*rows = (long long)x->rows;
	return st;
}

/* --min-restarts pacing: would another execution of the current query (as long as its last one,
 * last_ms) and `runs` more after it end after the query's deadline, pace_t0 +
 * pace_ns pace_cum[pace_i]? */
static int past_pace(const struct runctx *c, double last_ms, int runs)
{
	if (!c->pace_ns)
		return 0;
	double now = (double)(util_now_ns() - c->pace_t0) / 1e9;
	double deadline = (double)c->pace_ns / 1e9 * c->pace_cum[c->pace_i];
	return run_warmup_over_pace(now, last_ms / 1e3, runs, deadline);
}

/* What query num is expected to take in this restart (ms): its mean execution so far times its
 * planned --warmup-min + runs; 0 before its first. */
static double pace_cost(const struct runctx *c, int num)
{
	struct qshape sh = shape_of(c, num);
	return mean_exec_ms(c, num) * (sh.wmin + sh.runs);
}

/* Restarts owed from restart r of the current target on, r included: those --min-restarts
 * still owes, or in the paced last pair the rest of the pair. */
static int restarts_owed(const struct runctx *c, int r)
{
	int owed = (c->plan->min_restarts - r) * c->n_targets - c->pair_pos;
	int pair = c->paced_pair ? c->n_targets - c->pair_pos : 0;
	return owed > pair ? owed : pair;
}

/* When the `left` restarts still owed cannot fit even at their irreducible cost (per restart
 * the longest start + stop, and per query measured its --warmup-min + --runs-min executions at
 * its mean so far, --costs-from's before the first), says once where the run will end: after
 * an owed restart, or before the first when --costs-from gave the costs. */
static void warn_owed_over(struct runctx *c, int left)
{
	const struct run_plan *p = c->plan;
	if (left < 1 || c->owed_warned)
		return;
	double startstop = p->prior_fixed_s, elapsed = (double)(util_now_ns() - c->t0) / 1e9;
	struct run_qcost least[RUN_MAX_QUERIES];
	for (int t = 0; t < c->n_targets; t++)
		startstop = fmax(startstop, c->ts[t].startstop_s);
	for (int i = 0; i < p->n_queries; i++) {
		struct qshape sh = shape_of(c, p->queries[i]);
		least[i] = (struct run_qcost){mean_exec_ms(c, p->queries[i]) / 1e3, sh.wmin, sh.rmin,
					      c->next[i].active};
	}
	double per = run_budget_restart_cost(startstop, least, (size_t)p->n_queries);
	if (run_budget_fits(elapsed, left * per, p->budget_s * 1.05))
		return;
	c->owed_warned = 1;
	event(c,
	      "the %d restart%s --min-restarts still owes need%s at least %.0f s more: the run "
	      "will end near %.0f s of its %.0f s budget (fewer --queries, a lower "
	      "--warmup-min or --runs-min, or a larger --budget would fit)",
	      left, left == 1 ? "" : "s", left == 1 ? "s" : "", left * per, elapsed + left * per,
	      p->budget_s);
}

/* Starts the pacing of restart r when it is owed (docs/run.md, "--min-restarts", "The last
 * pair"): an equal share of the budget left among the restarts still owed, this one included,
 * split among its queries (order: the restart's query order) by their expected cost. */
static void pace_start(struct runctx *c, int r, const int *order)
{
	const struct run_plan *p = c->plan;
	int owed = restarts_owed(c, r), n = 0;
	double cost[RUN_MAX_QUERIES];
	c->pace_ns = 0;
	if (!c->next || owed < 1)
		return;
	for (int i = 0; i < p->n_queries; i++)
		if (c->next[c->qpos[order[i]]].active)
			cost[n++] = pace_cost(c, order[i]);
	if (n < 1)
		return;
	run_pace_shares(cost, n, c->pace_cum);
	double left = p->budget_s - (double)(util_now_ns() - c->t0) / 1e9;
	c->pace_t0 = util_now_ns();
	c->pace_ns = left > 0 ? (uint64_t)(left / owed * 1e9) : 1;
	c->pace_i = 0;
}

/* Measures one query in one restart into r (r->extra an object); returns the run_exec status of
 * the failure that ended it (RUN_EXEC_OK when all went well). */
static enum run_exec_status measure(struct runctx *c, int num, struct res_restart *r,
				    struct series *s, struct errbuf *err)
{
	const struct qry *q = &c->queries[num];
	const struct qshape sh = shape_of(c, num);
	struct run_exec_result x;
	enum run_exec_status st = RUN_EXEC_OK;
	char result_sha[65] = "";
	long long rows = -1;
	int total = sh.wmax + sh.runs + (sh.wmax == 0), steady = 0, capped = 0;

	if (q->pre && (st = run_exec_simple(c->conn, q->pre, err)) != RUN_EXEC_OK)
		return st;
	while ((int)s->nw < sh.wmax) {
		if ((int)s->nw >= sh.wmin && sh.tol > 0 &&
		    (steady = run_warmup_steady(s->warm, s->nw, sh.tol)))
			break;
		if ((int)s->nw >= sh.wmin && s->nw > 0 && past_pace(c, s->warm[s->nw - 1], sh.rmin)) {
			capped = 1;
			break;
		}
		unsigned flags = s->nw == 0 ? RUN_EXEC_HASH : 0;
		if ((st = exec_one(c, num, flags, total, r, &rows, result_sha, &x, err)))
			goto post;
		s->warm[s->nw++] = (double)x.wall_ns / 1e6;
	}
	if (sh.tol > 0) {
		steady = steady || run_warmup_steady(s->warm, s->nw, sh.tol);
		json_object_set_new(r->extra, "warmup_steady", json_boolean(steady));
		json_object_set_new(r->extra, "warmup_tol", json_real(sh.tol));
		if (capped)
			json_object_set_new(r->extra, "warmup_capped", json_true());
	}
	for (int i = 0; i < sh.runs; i++) {
		if (i >= sh.rmin && i > 0 && past_pace(c, s->meas[s->nm - 1], 0)) {
			json_object_set_new(r->extra, "runs_capped", json_true());
			break;
		}
		if ((st = exec_one(c, num, 0, total, r, &rows, result_sha, &x, err)))
			goto post;
		s->meas[s->nm++] = (double)x.wall_ns / 1e6;
		if (c->cpu)
			s->cpu[s->nc++] = (double)x.cpu_ns / 1e6;
	}
	if (s->nw == 0) {
		/* No warm-up to hash the result in: one more, unrecorded execution. */
		if ((st = exec_one(c, num, RUN_EXEC_HASH, total, r, &rows, result_sha, &x, err)))
			goto post;
	}
	char plan_sha[65];
	char *plan_text = NULL;
	struct errbuf perr;
	if (run_explain_fetch(c->conn, q->sql, &plan_text, plan_sha, &perr) == 0) {
		res_set_string(&r->plan, plan_text);
		res_set_string(&r->plan_sha256, plan_sha);
		free(plan_text);
	} else {
		event(c, "Q%d: %s", num, perr.msg);
	}
post:
	r->rows = rows;
	if (*result_sha)
		res_set_string(&r->result_sha256, result_sha);
	if (q->post && st != RUN_EXEC_LOST) {
		struct errbuf perr2;
		enum run_exec_status pst = run_exec_simple(c->conn, q->post, &perr2);
		if (st == RUN_EXEC_OK && pst != RUN_EXEC_OK) {
			*err = perr2;
			st = pst;
		}
	}
	return st;
}

/* After a lost connection: has the server died? A killed process drops its sockets a moment
 * before it can be reaped, so wait up to 10 s for either an exit or an answer to a ping. */
static int server_died(struct srv *s, struct errbuf *err)
{
	for (int i = 0; i < 500; i++) {
		if (srv_check(s, err) == SRV_E_EXITED)
			return 1;
		if (i >= 5 && srv_ping(s))
			return 0;
		struct timespec ts = {0, 20000000L};
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* A lost connection: a crash (status "crash", the error log's first lines kept) when the server
 * died, else an error. Returns 1 for a crash. */
static int record_lost(struct runctx *c, struct tstate *t, struct res_restart *rr, int num, int r,
		       const struct errbuf *xerr)
{
	int crashed = 0;
	struct errbuf cerr;
	if (server_died(t->srv, &cerr)) {
		char *tail = srv_error_log_tail(t->srv, RUN_LOG_TAIL_LINES);
		char *msg = NULL;
		crashed = 1;
		rr->status = RES_STATUS_CRASH;
		/* srv_check's first line says how it ended (without its "; from 'LOG':"
		 * lead-in); the tail comes in full, or "(error log empty)". */
		cerr.msg[strcspn(cerr.msg, "\n")] = '\0';
		char *cut = strstr(cerr.msg, "; last lines");
		if (!cut)
			cut = strstr(cerr.msg, "; from '");
		if (cut)
			*cut = '\0';
		int empty = !tail || tail[strspn(tail, " \t\r\n")] == '\0';
		if (asprintf(&msg, "%s\n%s", cerr.msg,
			     empty ? "(error log empty)" : tail) >= 0) {
			res_set_string(&rr->error, msg);
			free(msg);
		}
		free(tail);
		if (empty)
			event(c, "Q%d restart %d: %s (error log empty)", num, r + 1,
			      cerr.msg);
		else
			event(
			    c,
			    "Q%d restart %d: %s (error log '%s/error.log': its last lines "
			    "are in the result file)",
			    num, r + 1, cerr.msg, srv_instdir(t->srv));
	} else {
		rr->status = RES_STATUS_ERROR;
		res_set_string(&rr->error, xerr->msg);
		event(c, "Q%d restart %d: connection lost: %s", num, r + 1, xerr->msg);
	}
	return crashed;
}

/* Status and error of restart r from how the measurement ended. Returns 1 for a crash. */
static int record_status(struct runctx *c, struct tstate *t, struct res_restart *rr,
			 enum run_exec_status st, int num, int r, const struct errbuf *xerr)
{
	const struct run_plan *p = c->plan;
	switch (st) {
	case RUN_EXEC_OK:
		rr->status = RES_STATUS_OK;
		break;
	case RUN_EXEC_TIMEOUT:
		rr->status = RES_STATUS_TIMEOUT;
		res_set_string(&rr->error, xerr->msg);
		event(c, "Q%d restart %d: timeout after %g s, killed", num, r + 1,
		      p->query_timeout);
		break;
	case RUN_EXEC_ERROR:
		rr->status = RES_STATUS_ERROR;
		res_set_string(&rr->error, xerr->msg);
		event(c, "Q%d restart %d: error: %s", num, r + 1, xerr->msg);
		break;
	case RUN_EXEC_LOST:
		return record_lost(c, t, rr, num, r, xerr);
	}
	return 0;
}

/* After a lost connection: a new session, or after a crash a new server (up to --max-crashes). */
static int recover(struct runctx *c, struct tstate *t, int crashed, struct errbuf *err)
{
	const struct run_plan *p = c->plan;
	if (!crashed) {
		close_session(c);
		return open_session(c, t, err) < 0 ? RUN_E_SERVER : 0;
	}
	t->crashes++;
	close_session(c);
	struct errbuf serr;
	srv_stop(t->srv, &serr); /* cleans up after the dead process */
	if (t->crashes > p->max_crashes) {
		errbuf_set(err, "the server crashed %d times (more than --max-crashes %d): giving up",
			   t->crashes, p->max_crashes);
		return RUN_E_SERVER;
	}
	event(c, "restarting the server (crash %d of at most %d)", t->crashes, p->max_crashes);
	return start_server(c, t, err);
}

/* One memory probe, by the worker on the server's PUs (the server is idle between queries;
 * unpinned: where the scheduler puts it); < 0 without a probe. Its time is a restart's fixed
 * cost, like its start and stop (--budget's plan counts it there), and not the paced queries'. */
static double probe_take(struct runctx *c)
{
	if (!c->probe_worker)
		return -1;
	uint64_t t0 = util_now_ns();
	double ns = run_memprobe_worker_take(c->probe_worker);
	uint64_t took = util_now_ns() - t0;
	c->start_ns += took;
	c->pace_t0 += c->pace_ns ? took : 0;
	return ns;
}

/* The probe before a query's window: the one after the previous query of this server start,
 * or a new one for the first. */
static double probe_last(struct runctx *c)
{
	if (c->probe_last_ns < 0)
		c->probe_last_ns = probe_take(c);
	return c->probe_last_ns;
}

/* Takes the probe after a query's window and adds both to its interference record. */
static void probe_record(struct runctx *c, json_t *rec, double before)
{
	double after = probe_take(c);
	c->probe_last_ns = after;
	if (!rec || before < 0 || after < 0)
		return;
	json_object_set_new(rec, "memory_probe_before_ns", json_real(before));
	json_object_set_new(rec, "memory_probe_after_ns", json_real(after));
}

/* The probe's quiet level on this host, before any server starts: the fastest of
 * RUN_MEMPROBE_CALIBRATION probes, kept in each result's host.memory_probe (the lower of it
 * and a resumed file's). */
#define RUN_MEMPROBE_CALIBRATION 9
static void probe_open(struct runctx *c)
{
	struct errbuf perr;
	int managed = 0;
	for (int i = 0; i < c->n_targets; i++)
		managed |= !srv_is_external(c->ts[i].srv);
	if (!managed)
		return; /* no interference record either */
	size_t llc = c->pin ? pin_ctx_llc_bytes(c->pin) : 0;
	const struct pin_placement *pl = c->pin ? pin_ctx_placement(c->pin) : NULL;
	int pinned = pl && pl->pinned;
	if (run_memprobe_new(&c->probe, run_memprobe_ring_bytes(llc), &perr) < 0 ||
	    run_memprobe_worker_start(&c->probe_worker, c->probe, pinned ? pl->server_cpus : NULL,
				      pinned ? pl->n_server : 0, &perr) < 0) {
		event(c, "no memory probe: %s", perr.msg);
		run_memprobe_free(c->probe);
		c->probe = NULL;
		return;
	}
	double floor = -1;
	for (int i = 0; i < RUN_MEMPROBE_CALIBRATION; i++) {
		double ns = probe_take(c);
		if (ns >= 0 && (floor < 0 || ns < floor))
			floor = ns;
	}
	if (floor < 0)
		return;
	for (int i = 0; i < c->n_targets; i++) {
		struct res_file *res = c->ts[i].t->res;
		if (!res->host && !(res->host = json_object()))
			continue;
		json_t *old = json_object_get(res->host, "memory_probe");
		double was = json_number_value(json_object_get(old, "floor_ns"));
		json_object_set_new(
		    res->host, "memory_probe",
		    json_pack("{s:I, s:f, s:i}", "ring_bytes",
			      (json_int_t)run_memprobe_bytes(c->probe), "floor_ns",
			      was > 0 && was < floor ? was : floor, "calibration_probes",
			      RUN_MEMPROBE_CALIBRATION));
	}
}

/* One query in one restart of target t: measure, record, checkpoint; handles crashes.
 * Returns 0, -1 or RUN_E_SERVER. */
static int run_query(struct runctx *c, struct tstate *t, int r, int num, int pos,
		     struct errbuf *err)
{
	const struct run_plan *p = c->plan;
	struct res_restart rr;
	struct series s = {0};
	struct errbuf xerr = {{0}};
	int rc = 0;
	memset(&rr, 0, sizeof(rr));
	rr.index = r;
	rr.rows = -1;
	const struct qshape sh = shape_of(c, num);
	s.warm = calloc((size_t)sh.wmax + 1, sizeof(double));
	s.meas = calloc((size_t)sh.runs + 1, sizeof(double));
	s.cpu = calloc((size_t)sh.runs + 1, sizeof(double));
	rr.extra = json_object();
	if (!s.warm || !s.meas || !s.cpu || !rr.extra) {
		rc = errbuf_set(err, "out of memory");
		goto out;
	}
	c->execs_done = 0;
	struct errbuf nerr;
	struct run_interf_rec nrec;
	double probe_before = c->noise ? probe_last(c) : -1;
	int noise = c->noise && run_interf_begin(c->noise, &nerr) == 0;
	enum run_exec_status st = measure(c, num, &rr, &s, &xerr);
	if (noise && run_interf_end(c->noise, &nrec, &nerr) == 0) {
		json_t *rec = run_interf_rec_json(&nrec);
		probe_record(c, rec, probe_before);
		json_object_set_new(rr.extra, "interference", rec);
	}
	/* Executions a failure skipped leave the ETA. */
	int planned = sh.wmax + sh.runs + (sh.wmax == 0);
	uint64_t skipped = planned > c->execs_done ? (uint64_t)(planned - c->execs_done) : 0;
	c->rem_execs[num] -= skipped < c->rem_execs[num] ? skipped : c->rem_execs[num];
	int crashed = record_status(c, t, &rr, st, num, r, &xerr);
	rr.warmup_ms = s.warm;
	rr.n_warmup = s.nw;
	rr.measured_ms = s.meas;
	rr.n_measured = s.nm;
	rr.server_cpu_ms = s.cpu;
	rr.n_server_cpu = s.nc;
	json_object_set_new(rr.extra, "position", json_integer(pos));
	json_object_set_new(rr.extra, "server_start", json_integer(t->start_seq));
	struct res_query *q = res_file_find_query_num(t->t->res, num);
	if (!res_query_add_restart(q, &rr) || run_steady_flags(t->t->res, p->steady_alpha) < 0) {
		rc = errbuf_set(err, "out of memory");
		goto out;
	}
	if ((rc = checkpoint(t, err)) < 0)
		goto out;
	if (st == RUN_EXEC_LOST)
		rc = recover(c, t, crashed, err);
out:
	free(rr.plan);
	free(rr.plan_sha256);
	free(rr.result_sha256);
	free(rr.error);
	json_decref(rr.extra);
	free(s.warm);
	free(s.meas);
	free(s.cpu);
	return rc;
}

/* Restart r of target t: start, every pending query, stop. */
static int run_restart(struct runctx *c, struct tstate *t, int r, struct errbuf *err)
{
	int order[RUN_MAX_QUERIES], rc;
	run_plan_order(c->plan, r, order);
	c->prog.variant = t->t->name;
	c->prog.restart = r;
	c->prog.query = NULL;
	progress(c);
	if (c->rem_starts)
		c->rem_starts--;
	uint64_t ss0 = c->start_ns;
	if ((rc = start_server(c, t, err)) < 0)
		return rc;
	pace_start(c, r, order);
	for (int i = 0; i < c->plan->n_queries; i++) {
		int num = order[i];
		if (has_restart(res_file_find_query_num(t->t->res, num), r))
			continue;
		if (c->next && !c->next[c->qpos[num]].active)
			continue; /* --budget: decided, no longer measured */
		char id[8];
		snprintf(id, sizeof(id), "Q%d", num);
		c->prog.query = id;
		c->prog.qpos = i;
		c->prog.nq = c->plan->n_queries;
		rc = run_query(c, t, r, num, i, err);
		c->pace_i++;
		c->prog.query = NULL;
		if (rc < 0) {
			struct errbuf serr;
			close_session(c);
			srv_stop(t->srv, &serr);
			return rc;
		}
	}
	rc = stop_server(c, t, err);
	if (rc < 0)
		return RUN_E_SERVER;
	/* disturbed: said here, its cause once in the end-of-run table (and summary, compare) */
	char why[160];
	const char *dist =
	    run_interf_disturbed(t->t->res, r, why, sizeof(why)) ? ", disturbed" : "";
	double ss = (double)(c->start_ns - ss0) / 1e9;
	if (ss > t->startstop_s)
		t->startstop_s = ss;
	if (c->next)
		event(c, "%s%srestart %d done (elapsed %.0f s of %.0f s%s)",
		      t->t->name ? t->t->name : "", t->t->name ? ": " : "", r + 1,
		      (double)(util_now_ns() - c->t0) / 1e9, c->plan->budget_s, dist);
	else
		event(c, "%s%srestart %d of %d done%s", t->t->name ? t->t->name : "",
		      t->t->name ? ": " : "", r + 1, c->plan->restarts,
		      *dist ? " (disturbed)" : "");
	if (c->pace_ns && !c->paced_pair)
		warn_owed_over(c, restarts_owed(c, r) - 1);
	return 0;
}

/* Where a budget run stands, for its record: the pairs made, the estimate of the next, whether
 * the last was paced, and the elapsed time at the end of each pair (a JSON array, shared by the
 * targets' records). */
struct budget_log {
	int pairs;
	double next_cost_s;
	int last_paced;
	json_t *pair_ends;
};

/* The outcome of --budget in the result: per query its decision (query member "budget"), and the
 * run's (top-level member "budget"). */
static void budget_record(struct runctx *c, const struct run_qnext *next,
			  const struct budget_log *log, const char *stop_reason)
{
	int pairs = log->pairs;
	const struct run_plan *p = c->plan;
	for (int i = 0; i < c->n_targets; i++) {
		struct res_file *res = c->ts[i].t->res;
		for (int k = 0; k < p->n_queries; k++) {
			const struct run_qnext *x = &next[k];
			struct res_query *q = res_file_find_query_num(res, p->queries[k]);
			json_t *o = json_object();
			json_object_set_new(o, "decision", json_string(run_decision_name(x->decision)));
			json_object_set_new(o, "decided_after_pairs",
					    x->decided_after ? json_integer(x->decided_after)
							     : json_null());
			json_object_set_new(o, "ratio",
					    isfinite(x->ratio) ? json_real(x->ratio) : json_null());
			json_object_set_new(o, "ci_lo",
					    isfinite(x->ci_lo) ? json_real(x->ci_lo) : json_null());
			json_object_set_new(o, "ci_hi",
					    isfinite(x->ci_hi) ? json_real(x->ci_hi) : json_null());
			if (!q->extra)
				q->extra = json_object();
			json_object_set_new(q->extra, "budget", o);
		}
		json_t *b = json_object();
		json_object_set_new(b, "pairs", json_integer(pairs));
		json_object_set_new(b, "elapsed_s",
				    json_real((double)(util_now_ns() - c->t0) / 1e9));
		json_object_set_new(b, "budget_s", json_real(p->budget_s));
		json_object_set_new(b, "next_pair_estimate_s",
				    isfinite(log->next_cost_s) ? json_real(log->next_cost_s)
							       : json_null());
		json_object_set_new(b, "server_start_stop_s", json_real(c->ts[i].startstop_s));
		json_object_set_new(b, "stop_reason",
				    stop_reason ? json_string(stop_reason) : json_null());
		if (log->last_paced)
			json_object_set_new(b, "last_pair_paced", json_true());
		if (log->pair_ends)
			json_object_set(b, "pair_elapsed_s", log->pair_ends);
		if (!res->extra)
			res->extra = json_object();
		json_object_set_new(res->extra, "budget", b);
		json_object_set_new(res->plan, "restarts", json_integer(pairs > 0 ? pairs : 1));
	}
}

/* Two variants: the horizon of the sequential test, as it stands after each look (plan.horizon,
 * K_k for pair k; plan.max_pairs the latest). */
static void horizon_record(struct runctx *c, const struct run_budget_seq *seq)
{
	for (int t = 0; t < c->n_targets; t++) {
		json_t *plan = c->ts[t].t->res->plan, *h = json_array();
		for (size_t k = 0; k < seq->n_horizon; k++)
			json_array_append_new(h, json_integer((json_int_t)seq->horizon[k]));
		json_object_set_new(plan, "horizon", h);
		json_object_set_new(plan, "max_pairs",
				    json_integer((json_int_t)seq->horizon[seq->n_horizon - 1]));
	}
}

/* Why the budget loop stops after `pairs` pairs, or NULL to go on (run_budget_stop); sets
 * c->paced_pair and says so when the next pair is the paced last one. */
static const char *budget_stop(struct runctx *c, const struct run_budget_seq *seq, int pairs,
			       int undecided, double elapsed, const struct run_pair_cost *cost)
{
	struct run_budget_state st = {
	    .pairs = pairs,
	    .min_pairs = c->plan->min_restarts,
	    .undecided = undecided,
	    .horizon = seq->n_horizon ? seq->horizon[seq->n_horizon - 1] : 0,
	    .elapsed_s = elapsed,
	    .budget_s = c->plan->budget_s,
	    .full_s = cost->full_s,
	    .least_s = cost->least_s,
	};
	const char *why = run_budget_stop(&st, &c->paced_pair);
	if (c->paced_pair)
		event(c,
		      "budget: a pair as planned (%.0f s) would not fit in the %.0f s left; the last "
		      "pair is paced to fit (at least %.0f s)",
		      cost->full_s, c->plan->budget_s - elapsed, cost->least_s);
	return why;
}

/* --budget: pairs of restarts (one restart per target) while a query is undecided and the next
 * pair, estimated from the pairs so far, ends by the budget. The first --min-restarts pairs
 * always run. */
static int budget_loop(struct runctx *c, int *vorder, struct errbuf *err)
{
	const struct run_plan *p = c->plan;
	struct run_qnext next[RUN_MAX_QUERIES];
	struct res_file *res[64];
	struct run_budget_seq seq;
	struct run_pair_cost cost = {NAN, NAN};
	struct budget_log log = {0, NAN, 0, json_array()};
	double ss[64];
	const char *reason = NULL;
	int pairs = 0, rc = 0;
	const char *rule = c->n_targets == 1   ? "precision"
			   : c->n_targets == 2 ? "group-sequential-obf"
					       : "repeated-ci-bonferroni";
	if (c->n_targets > 64)
		return errbuf_set(err, "at most 64 variants with --budget");
	memset(&seq, 0, sizeof(seq));
	seq.budget_s = p->budget_s;
	seq.min_pairs = p->min_restarts;
	for (int i = 0; i < p->n_queries; i++)
		c->qpos[p->queries[i]] = i;
	for (int t = 0; t < c->n_targets; t++)
		json_object_set_new(c->ts[t].t->res->plan, "decision_rule", json_string(rule));
	run_budget_next_init(next, p);
	c->next = next;
	if (p->costs_from)
		warn_owed_over(c, restarts_owed(c, 0));
	for (;; pairs++) {
		if (pairs > 0) {
			for (int t = 0; t < c->n_targets; t++) {
				res[t] = c->ts[t].t->res;
				ss[t] = c->ts[t].startstop_s;
			}
			double elapsed = (double)(util_now_ns() - c->t0) / 1e9;
			seq.elapsed_s = elapsed;
			int undecided = run_budget_next(next, p, res, c->n_targets, pairs, ss,
							c->n_targets == 2 ? &seq : NULL, &cost, err);
			if (undecided < 0) {
				json_decref(log.pair_ends);
				return -1;
			}
			if (c->n_targets == 2)
				horizon_record(c, &seq);
			log.pairs = pairs;
			log.next_cost_s = cost.full_s;
			budget_record(c, next, &log, NULL);
			if ((reason = budget_stop(c, &seq, pairs, undecided, elapsed, &cost)))
				break;
			log.last_paced = c->paced_pair;
		}
		run_variant_order(p, pairs, c->n_targets, vorder);
		for (int t = 0; t < c->n_targets; t++)
			json_object_set_new(c->ts[t].t->res->plan, "restarts",
					    json_integer(pairs + 1));
		for (int k = 0; k < c->n_targets && rc == 0; k++) {
			c->pair_pos = k;
			rc = run_restart(c, &c->ts[vorder[k]], pairs, err);
		}
		c->pace_ns = 0;
		if (rc < 0) {
			budget_record(c, next, &log, "failed");
			json_decref(log.pair_ends);
			c->next = NULL;
			c->paced_pair = 0;
			return rc;
		}
		if (log.pair_ends)
			json_array_append_new(log.pair_ends,
					      json_real((double)(util_now_ns() - c->t0) / 1e9));
	}
	budget_record(c, next, &log, reason);
	json_decref(log.pair_ends);
	c->paced_pair = 0;
	event(c, "budget: %d %s%s, %s (%.0f s of %.0f s)", pairs,
	      c->n_targets == 1 ? "restart" : "pair", pairs == 1 ? "" : "s",
	      strcmp(reason, "budget") == 0 ? "the next would not fit"
	      : strcmp(reason, "all-decided") == 0 ? "every query decided"
						: "the most pairs",
	      (double)(util_now_ns() - c->t0) / 1e9, p->budget_s);
	c->next = NULL;
	return 0;
}

/* --redo-disturbed N: up to N disturbed restarts (target by target, in order) measured again;
 * their entries move to the top-level "redone" list first (run_interf_set_aside). */
static int redo_disturbed(struct runctx *c, struct errbuf *err)
{
	int left = c->plan->redo_disturbed, rc = 0;
	for (int i = 0; i < c->n_targets && left > 0 && rc == 0; i++) {
		struct tstate *t = &c->ts[i];
		for (int r = 0; r < c->plan->restarts && left > 0 && rc == 0; r++) {
			char why[160];
			if (!run_interf_disturbed(t->t->res, r, why, sizeof(why)))
				continue;
			if (run_interf_set_aside(t->t->res, r) < 0)
				return errbuf_set(err, "out of memory");
			event(c, "%s%smeasuring restart %d again (it was disturbed: %s)",
			      t->t->name ? t->t->name : "", t->t->name ? ": " : "", r + 1, why);
			left--;
			rc = run_restart(c, t, r, err);
		}
	}
	return rc;
}

/* Each target: its result prepared (new, or the checks of a resumed one) and its managed server
 * opened, locked, and stopped when it was running. */
static int open_targets(struct runctx *c, struct run_target *targets, struct errbuf *err)
{
	for (int i = 0; i < c->n_targets; i++) {
		struct tstate *t = &c->ts[i];
		t->t = &targets[i];
		if (prepare_result(c, t, targets[i].spec, err) < 0)
			return -1;
		if (srv_open(&t->srv, targets[i].opts, err) < 0)
			return -1;
		if (srv_is_external(t->srv))
			return errbuf_set(err, "run needs a server it manages (restarts are the "
					       "method): give --datadir, not --host/--socket");
		/* the lock first: a busy instance is refused before anything is said about it */
		if (srv_lock(t->srv, err) < 0)
			return RUN_E_SERVER;
		if (srv_is_alive(t->srv)) {
			event(c, "stopping the server already running in '%s'",
			      srv_instdir(t->srv));
			if (srv_stop(t->srv, err) < 0)
				return RUN_E_SERVER; /* e.g. the instance is in use */
		}
	}
	return 0;
}

/* Server starts continue their numbering over a resumed file. */
static void continue_start_seq(struct runctx *c)
{
	for (int i = 0; i < c->n_targets; i++) {
		const struct res_file *res = c->ts[i].t->res;
		for (size_t q = 0; q < res->n_queries; q++)
			for (size_t k = 0; k < res->queries[q].n_restarts; k++) {
				json_t *x = res->queries[q].restarts[k].extra;
				json_t *v = x ? json_object_get(x, "server_start") : NULL;
				if (json_is_integer(v) && json_integer_value(v) >= c->start_seq)
					c->start_seq = (int)json_integer_value(v) + 1;
			}
	}
}

/* ETA bookkeeping: every pending execution and server start. */
static void count_pending(struct runctx *c)
{
	const struct run_plan *plan = c->plan;
	for (int i = 0; i < c->n_targets; i++)
		for (int r = 0; r < plan->restarts; r++) {
			if (pending(c, &c->ts[i], r))
				c->rem_starts++;
			for (int k = 0; k < plan->n_queries; k++) {
				int num = plan->queries[k];
				if (!has_restart(res_file_find_query_num(c->ts[i].t->res, num), r))
					c->rem_execs[num] += (uint64_t)(plan->warmup + plan->runs +
									(plan->warmup == 0));
			}
		}
}

/* The fixed protocol: restart after restart, the targets of each in the variant order. */
static int fixed_loop(struct runctx *c, int *vorder, struct errbuf *err)
{
	int rc = 0;
	for (int r = 0; r < c->plan->restarts && rc == 0; r++) {
		run_variant_order(c->plan, r, c->n_targets, vorder);
		for (int k = 0; k < c->n_targets && rc == 0; k++) {
			struct tstate *t = &c->ts[vorder[k]];
			if (pending(c, t, r) == 0)
				continue;
			rc = run_restart(c, t, r, err);
		}
	}
	return rc;
}

/* Every restart: --budget's pairs, or the fixed protocol then --redo-disturbed. */
static int measure_all(struct runctx *c, struct errbuf *err)
{
	const struct run_plan *plan = c->plan;
	int *vorder = calloc((size_t)c->n_targets, sizeof(int));
	if (!vorder)
		return errbuf_set(err, "out of memory");
	int rc = plan->budget_s > 0 ? budget_loop(c, vorder, err) : fixed_loop(c, vorder, err);
	free(vorder);
	if (rc == 0 && plan->redo_disturbed > 0 && plan->budget_s <= 0)
		rc = redo_disturbed(c, err);
	return rc;
}

/* --costs-from: each query's mean execution there counts as one execution seen, so the first
 * restart's pacing and the owed-restarts note have a cost from the start. */
static void seed_costs(struct runctx *c)
{
	for (int q = 1; q <= RUN_MAX_QUERIES; q++)
		if (c->plan->prior_ms[q] > 0 && c->seen_n[q] == 0) {
			c->seen_ns[q] = (uint64_t)(c->plan->prior_ms[q] * 1e6);
			c->seen_n[q] = 1;
		}
}

/* Each result finished and written, except one complete before this call (left as it is). */
static int finish_results(struct runctx *c, struct errbuf *err)
{
	for (int i = 0; i < c->n_targets; i++) {
		if (c->ts[i].starts == 0 && c->ts[i].t->res->finished_at)
			continue;
		res_file_finish(c->ts[i].t->res);
		if (checkpoint(&c->ts[i], err) < 0)
			return -1;
	}
	return 0;
}

int run_execute(const struct run_plan *plan, struct run_target *targets, int n_targets,
		struct pin_ctx *pin, const struct run_hooks *hooks, struct errbuf *err)
{
	struct runctx c;
	int rc = -1;
	memset(&c, 0, sizeof(c));
	c.plan = plan;
	c.pin = pin;
	c.hooks = hooks;
	c.n_targets = n_targets;
	c.t0 = util_now_ns();
	c.prog.restarts = plan->budget_s > 0 ? 0 : plan->restarts;
	c.ts = calloc((size_t)n_targets, sizeof(*c.ts));
	if (!c.ts)
		return errbuf_set(err, "out of memory");
	struct qry_opts qo = {.sf = plan->scale, .seeded = 0, .seed = 0};
	for (int i = 0; i < plan->n_queries; i++)
		if (qry_build(&c.queries[plan->queries[i]], plan->queries[i], &qo, err) < 0)
			goto out;
	if ((rc = open_targets(&c, targets, err)) < 0)
		goto out;
	continue_start_seq(&c);
	probe_open(&c);
	count_pending(&c);
	seed_costs(&c);
	rc = measure_all(&c, err);
	if (rc == 0)
		rc = finish_results(&c, err);
out:
	close_session(&c);
	run_memprobe_worker_stop(c.probe_worker);
	run_memprobe_free(c.probe);
	for (int i = 0; i < n_targets; i++)
		srv_free(c.ts[i].srv);
	for (int q = 1; q <= RUN_MAX_QUERIES; q++)
		qry_release(&c.queries[q]);
	free(c.ts);
	return rc;
}
