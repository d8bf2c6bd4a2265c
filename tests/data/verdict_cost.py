#!/usr/bin/python3
# What a verdict costs (docs/statistics.md, "What a verdict costs here"), computed again with
# SciPy, independently of stats/st_cost.c and stats/st_power.c: writes a result file
# (cost_fixture.json: 5 queries over 4 restarts at SF 0.01, two with work counters) and what
# the cost of a 5 % and a 10 % verdict is for it (cost_expected.json), which
# tests/test_st_cost.c compares with st_cost_compute.
#   /usr/bin/python3 tests/data/verdict_cost.py      (Debian's python3-scipy)
#
# The figures, from the text of docs/statistics.md:
# - noise: per query the sd (n - 1) of the logs of the arithmetic restart means; the median
#   over the queries; its 95 % CI sd sqrt(df / chi2_{0.975, df}) .. sd sqrt(df / chi2_{0.025, df})
#   with df = k - 1, k the median restart count;
# - power of compare's default test for one query among m (Holm: its first step is alpha / m),
#   one-sided (regressions), pooled t on 2n - 2 df, and the estimate at least the min-effect
#   2 %: D ~ N(delta, 2 s^2 / n), se^2 = (2 s^2 / n) V / df with V ~ chi2_df;
#   P = E_V Q(max(c sqrt(V / df), log(1.02) / sd_D) - delta / sd_D), c = t_{1 - alpha/m, df},
#   integrated here with scipy.integrate.quad over the chi-square density (the C code uses a
#   256-point Gauss-Legendre rule over its quantiles); without the min-effect it is the
#   noncentral t, scipy.stats.nct.sf, which is checked too;
# - restarts a side: the smallest n in 2..100 with P >= 0.8, at the noise and its CI ends, and
#   at 0.41 x the noise (side by side); the wall time 2 n x a restart, a restart = the file's
#   wall time / its restarts (one server, no budget: executions plus the rest);
# - decided now: the smallest change with P >= 0.8 at k a side (brentq).
import json, math, os
from scipy import integrate, optimize, stats

here = os.path.dirname(os.path.abspath(__file__))
ALPHA, POWER, MIN_EFFECT, MAX_N = 0.05, 0.8, 0.02, 100
SBS_RATIO = 0.41
K = 4  # restarts
WALL_S = 720.0  # started_at .. finished_at
# per query: the restart factors (their log sd sets the noise) and the base time in ms
QUERIES = [
    ("Q1", 100.0, [1.00, 1.03, 0.98, 1.01]),
    ("Q3", 40.0, [1.00, 1.10, 0.93, 1.04]),
    ("Q6", 20.0, [1.00, 1.06, 0.97, 1.02]),
    ("Q9", 250.0, [1.00, 1.18, 0.88, 1.07]),
    ("Q18", 60.0, [1.00, 1.08, 0.95, 0.99]),
]
RUN_SHAPE = [1.004, 0.997, 0.999]  # the measured runs of a restart around its mean


def fixture():
    qs = []
    for qi, (qid, base, factors) in enumerate(QUERIES):
        restarts = []
        for r, f in enumerate(factors):
            m = base * f
            e = {"index": r, "status": "ok", "warmup_ms": [round(1.3 * m, 6)],
                 "measured_ms": [round(m * s, 6) for s in RUN_SHAPE], "server_cpu_ms": [],
                 "rows": 4, "result_sha256": "ab" * 32, "plan_sha256": "cd" * 32,
                 "not_steady": False, "error": None}
            if qi == 0:  # the same work in every restart
                e["work"] = {"Rows_read": 60175}
            if qi == 1:  # one restart read more
                e["work"] = {"Rows_read": 1500 + (r == 2)}
            restarts.append(e)
        qs.append({"id": qid, "sql_sha256": "%064x" % (qi + 1), "restarts": restarts})
    return {
        "format": "dbt3stab-result", "format_version": 1, "tool_version": "0.1.0",
        "label": None, "started_at": "2026-12-03T10:00:00Z",
        "finished_at": "2026-12-03T10:12:00Z", "host": {"name": "testhost"},
        "server": {"version": "10.11.6-MariaDB"},
        "dataset": {"scale_factor": 0.01, "generator_version": "dbgen-2.18.0",
                    "fingerprint": "9f" * 32},
        "plan": {"restarts": K, "warmup": 1, "runs": 3, "query_order": "fixed", "seed": None,
                 "variant": None},
        "pinning": {}, "queries": qs}


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def noise(d):
    sds, ks = [], []
    for q in d["queries"]:
        logs = [math.log(sum(e["measured_ms"]) / len(e["measured_ms"])) for e in q["restarts"]]
        n = len(logs)
        mu = sum(logs) / n
        sds.append(math.sqrt(sum((x - mu) ** 2 for x in logs) / (n - 1)))
        ks.append(n)
    sd = median(sds)
    k = int(math.floor(median(ks)))
    df = k - 1
    lo = sd * math.sqrt(df / stats.chi2.ppf(0.975, df))
    hi = sd * math.sqrt(df / stats.chi2.ppf(0.025, df))
    return sd, lo, hi, k, len(sds)


def power(effect, sd, n, m, min_effect=MIN_EFFECT):
    df = 2 * n - 2
    c = stats.t.ppf(1 - ALPHA / m, df)
    sd_d = sd * math.sqrt(2.0 / n)
    ncp = math.log1p(effect) / sd_d
    mu = math.log1p(min_effect) / sd_d

    def f(v):
        return stats.norm.sf(max(c * math.sqrt(v / df), mu) - ncp) * stats.chi2.pdf(v, df)

    p, _ = integrate.quad(f, 0, math.inf, limit=400, epsabs=1e-12, epsrel=1e-10)
    if min_effect == 0:  # the noncentral t, as a check of the integral
        assert abs(p - stats.nct.sf(c, df, ncp)) < 1e-7, (p, stats.nct.sf(c, df, ncp))
    return p


def needed(effect, sd, m):
    for n in range(2, MAX_N + 1):
        p = power(effect, sd, n, m)
        if p >= POWER:
            margin = min(abs(p - POWER), abs(power(effect, sd, n - 1, m) - POWER)) if n > 2 else 1
            assert margin > 1e-4, "too near the boundary: %g" % margin
            return n
    return None


def main():
    d = fixture()
    with open(os.path.join(here, "cost_fixture.json"), "w") as f:
        json.dump(d, f, indent=1)
        f.write("\n")
    sd, lo, hi, k, nq = noise(d)
    m = len(d["queries"])
    restart_s = WALL_S / K
    power(0.05, sd, 4, m, 0)  # the integral against the noncentral t
    changes = []
    for effect in (0.05, 0.10):
        n, nlo, nhi = needed(effect, sd, m), needed(effect, lo, m), needed(effect, hi, m)
        sbs = needed(effect, SBS_RATIO * sd, m)
        wall = [2 * x * restart_s if x else None for x in (n, nlo, nhi)]
        changes.append({"effect": effect, "restarts": n, "restarts_ci": [nlo, nhi],
                        "wall_s": wall[0], "wall_ci_s": wall[1:], "side_by_side_restarts": sbs})
    g = lambda e: power(math.expm1(e), sd, k, m) - POWER
    detect = math.expm1(optimize.brentq(g, math.log(1.001), math.log(10.0), xtol=1e-9))
    out = {"noise": {"sd": sd, "ci": [lo, hi], "restarts": k, "queries": nq}, "queries": m,
           "restart_s": restart_s, "changes": changes, "detect_now": detect,
           "work_queries": 2, "work_steady": 1}
    with open(os.path.join(here, "cost_expected.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
