#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Reference figures for the sequential design of run --side-by-side --budget (Pocock-type
spending, first look after pair 3; runner/run_budget_plan.h), independent of the C code:

1. The noise: per query the sd of the per-pair log ratio side by side, measured in the two A/A
   sessions of issue 32 at SF 0.1 (bench/data/sbs-20261203/summary.txt and
   bench/data/sbs-20261203-aa2/summary.txt, 6 pairs each) -> tests/data/sbs_calib.inc
   {"Qn", sd session 1, sd session 2}; the Monte Carlo pools them: sqrt((s1^2 + s2^2) / 2).
2. The critical t of each look of the designs compared, by the exact chain of
   tests/data/seq_tbounds.py (Jennison & Turnbull 1991; numpy/SciPy, Student-t tails)
   -> tests/data/sbs_seq_bounds.inc.
3. A simulation written here with numpy (its own generator, its own decision rule: the repeated
   CI of stats/st_seq.c read from docs/side-by-side.md) of the family-wise A/A false alarms over
   the 22 queries and of the pair at which Q21 (x1.2, the semijoin=off A/B) is decided, each
   pair's log ratio d ~ N(effect, sd_q^2) -> tests/data/sbs_seq_sim.inc, which
   tests/test_stats_mc_sbs.c must reproduce within Monte Carlo error.
Run: nice /usr/bin/python3 tests/data/sbs_seq.py   (SciPy >= 1.10, numpy; about a minute)."""
import math
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import seq_tbounds as tb  # noqa: E402  (the exact chain, shared with test_stats_seq)

ALPHA, M, DETECT = 0.05, 22, 0.03  # run --budget's defaults (plan.alpha, --detect 3%)
SESSIONS = ["bench/data/sbs-20261203/summary.txt", "bench/data/sbs-20261203-aa2/summary.txt"]
# (spending, first look, K): today's (restart-paired's, and side by side's before), the new
# design, and the neighbours it was chosen from
DESIGNS = [("obf", 2, 8), ("pocock", 3, 8), ("pocock", 2, 8), ("pocock", 4, 8),
           ("obf", 2, 12), ("pocock", 3, 12)]
# (name, spending, first, K, effect on Q21, replicates, seed)
SIMS = [("aa_new_k8", "pocock", 3, 8, 0.0, 20000, 321),
        ("aa_today_k8", "obf", 2, 8, 0.0, 20000, 322),
        ("q21_new_k8", "pocock", 3, 8, 0.2, 20000, 323),
        ("q21_today_k8", "obf", 2, 8, 0.2, 20000, 324),
        ("q21_new_k12", "pocock", 3, 12, 0.2, 20000, 325)]
Q21 = 20


def calibration():
    """{query: [sd session 1, sd session 2]} from the side-by-side column of both summaries."""
    root = os.path.dirname(os.path.dirname(HERE))
    out = {}
    row = re.compile(r"^(Q\d+)\s+\d+\s+([\d.]+)%\s+([\d.]+)%\s+[\d.]+$")
    for path in SESSIONS:
        with open(os.path.join(root, path)) as f:
            for line in f:
                m = row.match(line.strip())
                if m:
                    out.setdefault(m.group(1), []).append(float(m.group(3)) / 100)
    assert len(out) == 22 and all(len(v) == 2 for v in out.values()), out
    return out


def bounds(kind, first, K):
    d = tb.increments(kind, ALPHA / M, K, first, True)
    t = tb.t_bounds(d, first, K, False)
    return [t[k] for k in range(first, K + 1)]


def simulate(sd, kind, first, K, effect, reps, seed, tcrit):
    """Shares: any query flagged (regression or improvement); Q21 a regression by pair 3, 4, 5,
    K; mean pairs until Q21 is decided (K when it is not)."""
    rng = np.random.default_rng(seed)
    up = math.log1p(DETECT)
    ks = np.arange(1, K + 1, dtype=float)
    flagged = np.zeros(reps, dtype=bool)
    q21_at = np.zeros(reps, dtype=int)      # pair of Q21's regression, 0: none
    q21_pairs = np.full(reps, float(K))
    for q, s in enumerate(sd):
        mu = math.log1p(effect) if q == Q21 else 0.0
        d = mu + s * rng.standard_normal((reps, K))
        mean = np.cumsum(d, 1) / ks
        ss = np.cumsum(d * d, 1) - ks * mean * mean
        with np.errstate(divide="ignore", invalid="ignore"):
            se = np.sqrt(np.maximum(ss, 0) / (ks - 1) / ks)
        decided = np.zeros(reps, dtype=bool)
        for k in range(first, K + 1):
            c = tcrit[k - first]
            mk, sk = mean[:, k - 1], se[:, k - 1]
            lo, hi = mk - c * sk, mk + c * sk
            reg = ~decided & (lo > 0) & (mk >= up)
            imp = ~decided & (hi < 0) & (mk <= -up)
            unc = ~decided & (lo > -up) & (hi < up)
            flagged |= reg | imp
            if q == Q21:
                q21_at[reg] = k
                q21_pairs[reg | imp | unc] = k
            decided |= reg | imp | unc
    by = [float(((q21_at > 0) & (q21_at <= j)).mean()) for j in (3, 4, 5, K)]
    return float(flagged.mean()), by, float(q21_pairs.mean())


def fmt(x):
    return "INFINITY" if not np.isfinite(x) else "%.6g" % x


def main():
    cal = calibration()
    ids = sorted(cal, key=lambda q: int(q[1:]))
    with open(os.path.join(HERE, "sbs_calib.inc"), "w") as out:
        out.write("/* made by tests/data/sbs_seq.py from bench/data/sbs-*: do not edit */\n")
        for q in ids:
            out.write('{"%s", %.4f, %.4f},\n' % (q, cal[q][0], cal[q][1]))
    sd = [math.sqrt((cal[q][0] ** 2 + cal[q][1] ** 2) / 2) for q in ids]
    print("pooled sd: median %.4f, Q21 %.4f" % (float(np.median(sd)), sd[Q21]))
    crit = {}
    with open(os.path.join(HERE, "sbs_seq_bounds.inc"), "w") as out:
        out.write("/* made by tests/data/sbs_seq.py: do not edit */\n")
        for kind, first, K in DESIGNS:
            crit[(kind, first, K)] = t = bounds(kind, first, K)
            out.write("{%s, %d, %d, {%s}},\n" % (
                "ST_SPEND_OBF" if kind == "obf" else "ST_SPEND_POCOCK", first, K,
                ", ".join(fmt(x) for x in t)))
            print(kind, first, K, " ".join(fmt(x) for x in t))
            out.flush()
    with open(os.path.join(HERE, "sbs_seq_sim.inc"), "w") as out:
        out.write("/* made by tests/data/sbs_seq.py: do not edit */\n")
        for name, kind, first, K, effect, reps, seed in SIMS:
            any_, by, pairs = simulate(sd, kind, first, K, effect, reps, seed,
                                       crit[(kind, first, K)])
            out.write('{"%s", %s, %d, %d, %g, %d, %.5f, {%.5f, %.5f, %.5f, %.5f}, %.4f},\n' % (
                name, "ST_SPEND_OBF" if kind == "obf" else "ST_SPEND_POCOCK", first, K, effect,
                reps, any_, by[0], by[1], by[2], by[3], pairs))
            print(name, "any %.4f" % any_, "Q21 by 3/4/5/K", " ".join("%.4f" % b for b in by),
                  "mean pairs %.3f" % pairs)


if __name__ == "__main__":
    main()
