#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Reference boundaries for stats/st_seq.c, computed independently of its recursive integration:
each look's crossing probability under H0 is a multivariate normal rectangle probability (Genz's
algorithm, scipy.stats.multivariate_normal.cdf) of the scores Z_k = S_k / sqrt(I_k), with
corr(Z_i, Z_j) = sqrt(I_i / I_j), and the boundary is found with brentq.
Run: /usr/bin/python3 tests/data/seq_bounds.py   (SciPy >= 1.10; a few minutes). It writes the
C initialiser tests/data/seq_bounds_ref.inc that tests/test_stats_seq.c includes (the critical t
values and the decisions: tests/data/seq_tbounds.py)."""
import numpy as np
from scipy.optimize import brentq
from scipy.stats import multivariate_normal, norm

from seq_spend import spend


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

def write_bounds(path):
    with open(path, "w") as out:
        out.write("/* made by tests/data/seq_bounds.py: do not edit */\n")
        for kind, alpha, m, K, first, two in CASES:
            b = design(kind, alpha / m, K, first, two)
            out.write("{%s, %g, %d, %d, %d, %s, {%s}},\n" % (
                "ST_SPEND_OBF" if kind == "obf" else "ST_SPEND_POCOCK", alpha, m, K, first,
                "ST_TWO_SIDED" if two else "ST_GREATER", ", ".join("%.5f" % x for x in b)))


if __name__ == "__main__":
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    write_bounds(os.path.join(here, "seq_bounds_ref.inc"))
