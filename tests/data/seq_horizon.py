#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Reference spending and boundaries for designs whose horizon K changes between looks
(stats/st_seq.c, st_seq_design_init_horizon), computed independently of its recursive
integration: Lan-DeMets spending with t_k = min(1, k / K_k), cumulative alpha
c_k = max(c_{k-1}, a(t_k)) (0 before the first look, everything left at a look with k >= K_k),
and each look's crossing probability under H0 as a multivariate normal rectangle probability
(Genz's algorithm, scipy.stats.multivariate_normal.cdf) of the scores Z_j = S_j / sqrt(j),
corr(Z_i, Z_j) = sqrt(i / j); looks that spend nothing have no boundary and are left out of the
rectangle (their margin is the whole line). Boundaries solved with brentq.
Run: /usr/bin/python3 tests/data/seq_horizon.py   (SciPy >= 1.10; several minutes). It writes
tests/data/seq_horizon_ref.inc, included by tests/test_stats_seq.c, and prints the same figures."""
import os

import numpy as np
from scipy.optimize import brentq
from scipy.stats import multivariate_normal, norm

ALPHA, M, FIRST = 0.05, 22, 2

# (name, K_k after pair k = 1..n): the budget's estimate of the most pairs at each look
SCHEDULES = [
    ("grows_8_to_12", [8, 8, 9, 10, 11, 12, 12, 12, 12, 12, 12, 12]),
    ("jumps_4_to_12", [4, 4, 12, 12, 12, 12, 12, 12]),
    ("shrinks_12_to_6", [12, 12, 12, 10, 8, 6]),
]


def spend_obf(alpha, t):
    """Lan & DeMets (1983) O'Brien-Fleming-type spending of a one-sided alpha."""
    if t >= 1:
        return alpha
    return 2 * norm.sf(norm.isf(alpha / 2) / np.sqrt(t))


def cumulative(side_alpha, horizon):
    cum, prev, last = [], 0.0, len(horizon)
    for k, K in enumerate(horizon, start=1):
        c = prev
        if k >= FIRST:
            final = k >= K
            c = max(prev, spend_obf(side_alpha, 1.0 if final else k / K))
            if final and last == len(horizon):
                last = k
        cum.append(c)
        prev = c
    return cum, last


def upper_cross(looks, bounds, k, c):
    """P(|Z_j| < b_j at the earlier looks j with a boundary, Z_k > c) under H0."""
    idx = [j for j in looks if j < k and np.isfinite(bounds[j])] + [k]
    info = np.array(idx, dtype=float)
    cov = np.sqrt(np.minimum.outer(info, info) / np.maximum.outer(info, info))
    lo = [-bounds[j] for j in idx[:-1]] + [c]
    hi = [bounds[j] for j in idx[:-1]] + [np.inf]
    if len(idx) == 1:
        return norm.sf(c)
    return multivariate_normal.cdf(np.array(hi), mean=np.zeros(len(idx)), cov=cov,
                                   maxpts=300_000 * len(idx), abseps=1e-12, releps=1e-5,
                                   lower_limit=np.array(lo))


def boundaries(horizon):
    side = ALPHA / M / 2  # two-sided: alpha / m split over the two sides
    cum, last = cumulative(side, horizon)
    bounds, looks = {}, []
    prev = 0.0
    for k in range(FIRST, last + 1):
        delta = cum[k - 1] - prev
        if delta <= 0:
            bounds[k] = np.inf
        elif not looks or all(not np.isfinite(bounds[j]) for j in looks):
            bounds[k] = norm.isf(delta)
        else:
            bounds[k] = brentq(lambda c: upper_cross(looks, bounds, k, c) - delta, 0.5, 14,
                               xtol=1e-6)
        looks.append(k)
        prev = cum[k - 1]
    return cum, last, bounds


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    lines = ["/* made by tests/data/seq_horizon.py: do not edit */"]
    for name, horizon in SCHEDULES:
        cum, last, bounds = boundaries(horizon)
        z = ["INFINITY" if not np.isfinite(bounds.get(k, np.inf)) else "%.5f" % bounds[k]
             for k in range(1, last + 1)]
        lines.append('{"%s", %d, {%s}, %d, {%s}, {%s}},' % (
            name, len(horizon), ", ".join(str(k) for k in horizon), last,
            ", ".join("%.10e" % c for c in cum), ", ".join(z)))
        print(name, "looks", last, "cum", ["%.4g" % c for c in cum], "z", z)
    with open(os.path.join(here, "seq_horizon_ref.inc"), "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
