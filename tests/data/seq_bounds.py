#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Reference boundaries for stats/st_seq.c, computed independently of its recursive integration:
each look's crossing probability under H0 is a multivariate normal rectangle probability (Genz's
algorithm, scipy.stats.multivariate_normal.cdf) of the scores Z_k = S_k / sqrt(I_k), with
corr(Z_i, Z_j) = sqrt(I_i / I_j), and the boundary is found with brentq.
Run: /usr/bin/python3 tests/data/seq_bounds.py   (SciPy >= 1.10; a few minutes). It writes the
C initialisers tests/data/seq_bounds_ref.inc and seq_decisions_ref.inc that tests/test_stats_seq.c
includes."""
import numpy as np
from scipy.optimize import brentq
from scipy.stats import multivariate_normal, norm


def spend(kind, alpha, t):
    if t >= 1:
        return alpha
    if kind == "obf":
        return 2 * norm.sf(norm.isf(alpha / 2) / np.sqrt(t))
    return alpha * np.log(1 + (np.e - 1) * t)


def cross(bounds, c, info):
    """P(no crossing of the symmetric boundaries at looks < k, crossing the upper one at look
    k) under H0; k = len(bounds) + 1."""
    k = len(bounds) + 1
    i = np.array(info[:k], dtype=float)
    cov = np.sqrt(np.minimum.outer(i, i) / np.maximum.outer(i, i))
    lo = [-b for b in bounds] + [c]
    hi = list(bounds) + [np.inf]
    if k == 1:
        p = norm.sf(c)
    else:
        p = multivariate_normal.cdf(np.array(hi), mean=np.zeros(k), cov=cov,
                                    maxpts=300_000 * k, abseps=1e-12, releps=1e-5,
                                    lower_limit=np.array(lo))
    return p


def design(kind, alpha, K, first, two_sided):
    info = list(range(first, K + 1))
    bounds, prev = [], 0.0
    for k in info:
        # symmetric boundaries; two-sided: each side spends the one-sided function at alpha / 2,
        # as gsDesign (test.type = 2) and ldbounds do; "greater" (regressions and improvements
        # two families): alpha on each side
        a = spend(kind, alpha / 2 if two_sided else alpha, k / K)
        delta = a - prev
        if len(bounds) == 0:
            c = norm.isf(delta)
        else:
            c = brentq(lambda c: cross(bounds, c, info) - delta, 0.5, 12, xtol=1e-6)
        bounds.append(c)
        prev = a
    return bounds


CASES = [
    ("obf", 0.05, 1, 5, 1, True),
    ("pocock", 0.05, 1, 5, 1, True),
    ("obf", 0.05, 22, 10, 2, True),
    ("obf", 0.05, 22, 8, 2, False),
    ("pocock", 0.05, 22, 6, 2, True),
]

# Decisions of the sequential rule on fixed sequences of pairs, computed here with numpy/scipy
# from the boundaries above (an independent implementation of the rule in st_seq.c).
OLD = [100, 102, 99, 101, 100.5, 98.8, 100.2, 101.1, 99.5, 100.3]
SEQS = {
    "regression": [1.05, 1.06, 1.045, 1.055, 1.05, 1.052, 1.048, 1.051, 1.049, 1.05],
    "improvement": [0.93, 0.95, 0.94, 0.945, 0.935, 0.94, 0.95, 0.93, 0.94, 0.942],
    "unchanged": [1.001, 0.999, 1.002, 0.998, 1.0, 1.001, 0.999, 1.0005, 0.9995, 1.0],
    "noisy": [1.03, 0.98, 1.06, 1.01, 0.97, 1.05, 1.0, 1.04, 0.99, 1.02],
}


def decide(old, factor, bounds, first, paired, min_effect=0.02):
    from scipy.stats import t as tdist
    a = np.log(np.array(old, dtype=float))
    b = a + np.log(np.array(factor, dtype=float))
    up = np.log1p(min_effect)
    for k in range(first, len(old) + 1):
        if paired:
            d = b[:k] - a[:k]
            diff, se, df = d.mean(), d.std(ddof=1) / np.sqrt(k), k - 1
        else:
            sp2 = (a[:k].var(ddof=1) + b[:k].var(ddof=1)) / 2
            diff, se, df = b[:k].mean() - a[:k].mean(), np.sqrt(sp2 * 2 / k), 2 * k - 2
        tb = tdist.isf(norm.sf(bounds[k - first]), df)
        lo, hi = diff - tb * se, diff + tb * se
        if lo > 0 and diff >= up:
            return "ST_SEQ_REGRESSION", k, diff / se, tb
        if hi < 0 and diff <= -up:
            return "ST_SEQ_IMPROVEMENT", k, diff / se, tb
        if -up < lo and hi < up:
            return "ST_SEQ_UNCHANGED", k, diff / se, tb
    return "ST_SEQ_UNDECIDED", 0, diff / se, tb


def write_bounds(path):
    with open(path, "w") as out:
        out.write("/* made by tests/data/seq_bounds.py: do not edit */\n")
        for kind, alpha, m, K, first, two in CASES:
            b = design(kind, alpha / m, K, first, two)
            out.write("{%s, %g, %d, %d, %d, %s, {%s}},\n" % (
                "ST_SPEND_OBF" if kind == "obf" else "ST_SPEND_POCOCK", alpha, m, K, first,
                "ST_TWO_SIDED" if two else "ST_GREATER", ", ".join("%.5f" % x for x in b)))


def write_decisions(path):
    bounds = design("obf", 0.05 / 22, 10, 2, True)
    with open(path, "w") as out:
        out.write("/* made by tests/data/seq_bounds.py: do not edit */\n")
        for name, f in SEQS.items():
            for paired in (1, 0):
                dec, k, t, tb = decide(OLD, f, bounds, 2, paired)
                out.write('{"%s", %d, %s, %d, %.8g, %.8g},\n' % (name, paired, dec, k, t, tb))


if __name__ == "__main__":
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    write_decisions(os.path.join(here, "seq_decisions_ref.inc"))
    write_bounds(os.path.join(here, "seq_bounds_ref.inc"))
