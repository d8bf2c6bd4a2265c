#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A synthetic pair of `run --budget` result files (22 queries, two variants of one interleaved
run) for the sequential and budget sections of the HTML report, and the reference figures the
tests compare the page with, computed here with numpy/scipy (independently of stats/st_seq.c).

The "run" is simulated as run --budget records it: pairs of restarts in ABBA order; after each
pair every undecided query gets a look of the group-sequential t-test (paired log ratios,
Lan-DeMets O'Brien-Fleming spending of 0.05 / 22 per query, two-sided, horizon K = 10, first look
after pair 2, margin plan.detect = 3%); a decided query is not measured in later pairs
(keep_all false); the run stops after 8 pairs (stop_reason "budget"). Warm-up counts (4 to 8,
warmup_steady false at 8) and measured runs (3 to 6) vary per restart.

The critical t values are those of tests/data/seq_tbounds.py for (obf, alpha 0.05, m 22, K 10,
first look 2, two-sided, paired), exact for the t statistics (seq_tbounds_ref.inc).

Run: /usr/bin/python3 tests/data/seq_html_gen.py (numpy, scipy; a second). Writes
seq_html_old.json, seq_html_new.json and seq_html_ref.inc next to itself."""
import hashlib
import json
import math
import os

import numpy as np

# seq_tbounds_ref.inc: {ST_SPEND_OBF, 0.05, 22, 10, 2, ST_TWO_SIDED, ST_SEQ_PAIRED, {...}},
# critical t for looks 2..10
TB = {k: t for k, t in zip(range(2, 11), [9.3282e+11, 13313.5, 161.296, 29.5238, 13.0975,
                                          8.33108, 6.26067, 5.14281, 4.44715])}
K, FIRST, DETECT, ALPHA, PAIRS = 10, 2, 0.03, 0.05, 8
WARMUP_MIN, WARMUP_MAX, RUNS_MIN, RUNS_MAX = 4, 8, 3, 6
# designed effects (new / old): two regressions, an improvement, a small change left undecided
EFFECT = {"Q3": 1.10, "Q8": 0.88, "Q14": 1.30, "Q18": 1.025}
# the between-restart sd that both variants of a pair share (drift), and each restart's own
SD_SHARED, SD_OWN = 0.03, 0.004


def sha(s):
    return hashlib.sha256(s.encode()).hexdigest()


def look(a, b):
    """The look after k = len(a) pairs: ratio and repeated CI (None where undefined)."""
    d = np.log(np.array(b)) - np.log(np.array(a))
    k = len(d)
    diff = d.mean()
    out = {"k": k, "ratio": math.exp(diff), "lo": None, "hi": None, "decision": "undecided"}
    if k < FIRST or k > K:
        return out
    se = d.std(ddof=1) / math.sqrt(k)
    tb = TB[k]
    with np.errstate(over="ignore", under="ignore"):  # as C: exp overflows to inf, underflows to 0
        lo, hi = float(np.exp(diff - tb * se)), float(np.exp(diff + tb * se))
    if not (math.isfinite(lo) and math.isfinite(hi) and lo > 0):
        return out
    out["lo"], out["hi"] = lo, hi
    up = 1 + DETECT
    if lo > 1 and out["ratio"] >= up:
        out["decision"] = "regression"
    elif hi < 1 and out["ratio"] <= 1 / up:
        out["decision"] = "improvement"
    elif hi < up and lo > 1 / up:
        out["decision"] = "unchanged"
    # a decision this close to its boundary could go either way in st_seq.c's own boundaries
    edges = [lo, hi, lo * up, hi / up, out["ratio"] / up, out["ratio"] * up]
    if any(abs(math.log(e)) < 5e-4 for e in edges):
        raise SystemExit("look %d is too close to a boundary: change the seed" % k)
    return out


def restart(rng, mean_ms, index, start):
    warm = int(rng.integers(WARMUP_MIN, WARMUP_MAX + 1))
    runs = int(rng.integers(RUNS_MIN, RUNS_MAX + 1))
    wu = [round(mean_ms * (1 + 2.0 * math.exp(-j)) * math.exp(rng.normal(0, 0.01)), 6)
          for j in range(warm)]
    ms = [round(mean_ms * math.exp(rng.normal(0, 0.002)), 6) for _ in range(runs)]
    return {"index": index, "status": "ok", "warmup_ms": wu, "measured_ms": ms,
            "server_cpu_ms": [], "rows": 1, "result_sha256": sha("answer"),
            "plan_sha256": sha("plan"), "not_steady": False, "error": None,
            "server_start": start, "warmup_steady": warm < WARMUP_MAX, "warmup_tol": 0.02}


def document(variant):
    plan = {"restarts": PAIRS, "warmup": WARMUP_MAX, "runs": RUNS_MAX, "query_order": "fixed",
            "seed": 7, "variant": variant, "variant_spec": None, "variant_order": "abba",
            "budget_s": 600.0, "detect": DETECT, "alpha": ALPHA, "warmup_min": WARMUP_MIN,
            "warmup_max": WARMUP_MAX, "runs_min": RUNS_MIN, "runs_max": RUNS_MAX,
            "keep_all": False, "warmup_rule": "window-means",
            "decision_rule": "group-sequential-obf", "max_pairs": K,
            "generator": "tests/data/seq_html_gen.py"}
    return {"format": "dbt3stab-result", "format_version": 1, "tool_version": "0.1.0",
            "label": "synthetic budget run", "started_at": "2026-12-01T05:00:00Z",
            "finished_at": "2026-12-01T05:09:45Z", "host": {"name": "synthetic"},
            "server": {"version": "10.11.6-MariaDB"},
            "dataset": {"scale_factor": 0.1, "generator_version": "dbgen-2.18.0",
                        "fingerprint": sha("sf0.1")},
            "plan": plan, "pinning": {}, "queries": [],
            "budget": {"pairs": PAIRS, "elapsed_s": 585.25, "budget_s": 600.0,
                       "next_pair_estimate_s": 41.5, "server_start_stop_s": 6.5,
                       "stop_reason": "budget"}}


def mean(xs):
    return sum(xs) / len(xs)


def simulate():
    rng = np.random.default_rng(20261222)
    docs = [document("old"), document("new")]
    ref = []
    for qi in range(1, 23):
        q = "Q%d" % qi
        base = 20 * math.exp(4 * rng.uniform())
        rs, a, b, looks = ([], []), [], [], []
        decided = None
        for i in range(PAIRS):
            shared = rng.normal(0, SD_SHARED)
            first = i % 2  # ABBA: old first in even pairs
            for side in (0, 1):
                start = 2 * i + (side if first == 0 else 1 - side)
                m = base * math.exp(shared + rng.normal(0, SD_OWN))
                if side:
                    m *= EFFECT.get(q, 1.0)
                rs[side].append(restart(rng, m, i, start))
            a.append(mean(rs[0][-1]["measured_ms"]))
            b.append(mean(rs[1][-1]["measured_ms"]))
            lk = look(a, b)
            looks.append(lk)
            if lk["decision"] != "undecided":
                decided = lk
                break  # decided: not measured in later pairs
        last = decided or looks[-1]
        rec = {"decision": last["decision"],
               "decided_after_pairs": decided["k"] if decided else None,
               "ratio": last["ratio"], "ci_lo": last["lo"], "ci_hi": last["hi"]}
        for side in (0, 1):
            docs[side]["queries"].append({"id": q, "sql_sha256": sha("select " + q),
                                          "restarts": rs[side], "budget": rec})
        ref.append((q, last["decision"], decided["k"] if decided else 0, looks,
                    [[len(r["warmup_ms"]) for r in rs[s]] for s in (0, 1)],
                    [[len(r["measured_ms"]) for r in rs[s]] for s in (0, 1)],
                    [sum(not r["warmup_steady"] for r in rs[s]) for s in (0, 1)]))
    return docs, ref


def c_num(x):
    return "NAN" if x is None else "%.10g" % x


def write_ref(path, ref):
    with open(path, "w") as out:
        out.write("/* made by tests/data/seq_html_gen.py: do not edit */\n")
        for q, dec, at, looks, warm, runs, cut in ref:
            lk = ", ".join("{%s, %s, %s}" % (c_num(x["ratio"]), c_num(x["lo"]), c_num(x["hi"]))
                           for x in looks)
            out.write('{"%s", "%s", %d, %d, {%s},\n "%s", "%s", "%s", "%s", %d, %d},\n' % (
                q, dec, at, len(looks), lk,
                " ".join(map(str, warm[0])), " ".join(map(str, warm[1])),
                " ".join(map(str, runs[0])), " ".join(map(str, runs[1])), cut[0], cut[1]))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    docs, ref = simulate()
    for doc, name in zip(docs, ("seq_html_old.json", "seq_html_new.json")):
        with open(os.path.join(here, name), "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
    write_ref(os.path.join(here, "seq_html_ref.inc"), ref)
    for q, dec, at, looks, *_ in ref:
        print(q, dec, at, len(looks))


if __name__ == "__main__":
    main()
