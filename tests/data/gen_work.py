#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Makes tests/data/work_old.json and work_new.json (result files with work records) and derives,
by its own code, what compare must say of their work (tests/data/work_expected.json): the rule of
docs/work.md "The work verdict" written again from the text, not from reports/rpt_work.c.

Per query: a counter's count per warm execution (a restart's measured executions; without a
warm-up the first is not warm) ; constant in a file = every warm execution of every ok restart
equal; changed = constant in both and different, or (varying somewhere) the restart means of the
two files do not overlap and the medians differ by more than 1 % of the old one.

usage: python3 tests/data/gen_work.py   (writes the three files beside it)
"""
import hashlib, json, os, random, statistics

here = os.path.dirname(os.path.abspath(__file__))
TOL = 0.01


def sha(s):
    return hashlib.sha256(s.encode()).hexdigest()


# query: (old per-restart counts, new per-restart counts) for each counter; a count is an int
# (every measured run) or a list (one per measured run). ms: restart times (old, new factor).
rng = random.Random(29)
RUNS = 3


def jitter(base, rel, n=RUNS):
    return [int(round(base * (1 + rng.uniform(-rel, rel)))) for _ in range(n)]


CASES = {
    # the same counts in both: unchanged
    "Q1": {"Rows_read": (600572, 600572), "Handler_read_key": (591899, 591899)},
    # constant in each, different: changed (and the plan changed)
    "Q2": {"Handler_read_next": (1200000, 3410000), "Rows_read": (1351144, 750607),
           "Sort_rows": (44, 44)},
    # varies within each file (0.2 %), new 5 % higher, no overlap: changed
    "Q3": {"Handler_read_key": ("vary", 21683, 0.002, 21683 * 1.05, 0.002),
           "Sort_rows": (10, 10)},
    # varies, 0.5 % higher, no overlap, within the tolerance: unchanged
    "Q4": {"Handler_read_key": ("vary", 100000, 0.0005, 100500, 0.0005)},
    # varies and overlaps: unchanged
    "Q5": {"Handler_read_key": ("vary", 50000, 0.05, 50000, 0.05)},
    # a count from 0: changed
    "Q6": {"Created_tmp_disk_tables": (0, 1), "Rows_read": (600572, 600572)},
}
PLAN_CHANGED = {"Q2"}
SLOWER = {"Q1": 1.5}  # a time regression whose work did not change


def restart_counts(spec, side, r):
    if isinstance(spec[0], str):  # ("vary", old_base, old_rel, new_base, new_rel)
        base, rel = (spec[1], spec[2]) if side == 0 else (spec[3], spec[4])
        return jitter(base, rel)
    return spec[side]


def make(side, restarts):
    queries = []
    for q, counters in CASES.items():
        rs = []
        for i in range(restarts):
            ms = 100.0 * (SLOWER.get(q, 1.0) if side else 1.0) * (1 + 0.001 * i)
            work = {name: restart_counts(spec, side, i) for name, spec in counters.items()}
            work = {k: (v[0] if isinstance(v, list) and len(set(v)) == 1 else v)
                    for k, v in work.items()}
            p = "plan-" + q + ("-new" if side and q in PLAN_CHANGED else "")
            rs.append({"index": i, "status": "ok", "warmup_ms": [ms * 1.2],
                       "measured_ms": [round(ms * (1 + 0.0005 * k), 6) for k in range(RUNS)],
                       "server_cpu_ms": [], "rows": 4, "result_sha256": sha("answer-" + q),
                       "plan_sha256": sha(p), "not_steady": False, "error": None,
                       "plan": '{"query_block": "%s"}' % p, "work": work})
        queries.append({"id": q, "sql_sha256": sha("select " + q), "restarts": rs})
    # Q7: no warm-up; the first measured run reads 40 keys more (a start's first execution)
    rs = []
    for i in range(restarts):
        rs.append({"index": i, "status": "ok", "warmup_ms": [],
                   "measured_ms": [50.0, 49.9, 50.1], "server_cpu_ms": [], "rows": 1,
                   "result_sha256": sha("answer-Q7"), "plan_sha256": sha("plan-Q7"),
                   "not_steady": False, "error": None,
                   "work": {"Handler_read_key": [2530 if side == 0 else 2527, 2490, 2490]}})
    queries.append({"id": "Q7", "sql_sha256": sha("select Q7"), "restarts": rs})
    return {"format": "dbt3stab-result", "format_version": 1, "tool_version": "0.1.0",
            "label": None, "started_at": "2026-12-03T01:00:00Z",
            "finished_at": "2026-12-03T01:10:00Z", "host": {"name": "testhost"},
            "server": {"version": "10.11.19-MariaDB"},
            "dataset": {"scale_factor": 0.01, "generator_version": "dbgen-2.18.0",
                        "fingerprint": sha("sf0.01")},
            "plan": {"restarts": restarts, "warmup": 1, "runs": RUNS, "query_order": "fixed",
                     "seed": None, "variant": None},
            "pinning": {}, "queries": queries}


def warm(restart, name):
    v = restart["work"][name]
    v = v if isinstance(v, list) else [v] * len(restart["measured_ms"])
    return v[1:] if not restart["warmup_ms"] and len(v) > 1 else v


def side(doc, q, name):
    execs, means = [], []
    for r in next(x for x in doc["queries"] if x["id"] == q)["restarts"]:
        w = warm(r, name)
        execs += w
        means.append(sum(w) / len(w))
    const = len(set(execs)) == 1
    return const, (execs[0] if const else statistics.median(means)), min(means), max(means)


def fmt(v):
    if v < 1e4:
        return "%.0f" % v if v == int(v) else "%.1f" % v
    if v < 1e6:
        return "%.1f k" % (v / 1e3)
    if v < 1e9:
        return "%.2f M" % (v / 1e6)
    return "%.2f G" % (v / 1e9)


def expected(old, new):
    out = {}
    for q in [x["id"] for x in old["queries"]]:
        names = list(next(x for x in old["queries"] if x["id"] == q)["restarts"][0]["work"])
        changed, moved = [], []
        for n in names:
            ca, va, la, ha = side(old, q, n)
            cb, vb, lb, hb = side(new, q, n)
            if ca and cb:
                ch = va != vb
            else:
                ch = (ha < lb or hb < la) and abs(vb - va) > TOL * va
            if ch:
                changed.append(n)
                import math
                key = math.inf if va == 0 or vb == 0 else abs(math.log(vb / va))
                ratio = "from 0" if va == 0 else "x%s" % ("%.2g" % (vb / va))
                moved.append((key, "%s %s -> %s (%s)" % (n, fmt(va), fmt(vb), ratio)))
        moved.sort(key=lambda t: -t[0])
        line = ""
        if changed:
            line = "%s work changed: %s%s" % (q, ", ".join(t[1] for t in moved[:3]),
                                             ", plan changed" if q in PLAN_CHANGED else "")
        out[q] = {"changed": bool(changed), "changed_counters": sorted(changed), "line": line}
    return out


old, new = make(0, 3), make(1, 3)
for name, doc in (("work_old.json", old), ("work_new.json", new),
                  ("work_expected.json", expected(old, new))):
    with open(os.path.join(here, name), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
