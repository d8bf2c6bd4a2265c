#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Reference critical values for stats/st_seq_tbounds.c (exact group-sequential t boundaries) and the
decisions of stats/st_seq.c, computed independently of the C code in two ways:

1. the same Markov chain of the angle of the data vector (Jennison & Turnbull 1991's exact
   calculation for sequential t tests; derivation in stats/st_seq_tbounds.c), written again with
   numpy/scipy on a 2.5x finer grid with exact scipy Student-t tails (no table, no interpolation);
2. a direct simulation of the t statistics themselves (normal data, t at every look), which shares
   nothing with either recursion: the probability that any |T_k| crosses its boundary must be the
   alpha the design spends (two-sided: both sides), within Monte Carlo error. The same simulation
   shows what the significance-level approach (normal boundaries converted to t by nominal level,
   the rule before issue 13's fix) spends instead.

Run: nice /usr/bin/python3 tests/data/seq_tbounds.py > tests/data/seq_tbounds.out
(SciPy >= 1.10, numpy; a few minutes; SEQ_TBOUNDS_REPS sets the simulated sequences)
Writes tests/data/seq_tbounds_ref.inc and seq_decisions_ref.inc (included by
tests/test_stats_seq.c) and prints the simulation table kept in tests/data/seq_tbounds.out."""
import os
import sys

import numpy as np
from scipy.stats import norm
from scipy.stats import t as tdist

from seq_spend import spend

CELLS = 800
BISECT = 64
MARGINAL = 1e-7  # a look spending less takes the marginal quantile of its t (as st_seq_tbounds.c)


def increments(kind, alpha_query, K, first, two_sided):
    side = alpha_query / 2 if two_sided else alpha_query
    d, prev = {}, 0.0
    for k in range(first, K + 1):
        a = spend(kind, side, k / K)
        d[k] = a - prev
        prev = a
    return d


def df_of(pooled, k):
    return 2 * k - 2 if pooled else k - 1


def angle_sf(y, dim):
    """P(phi > y), sqrt(dim) tan(phi) ~ t(dim), phi in (-pi/2, pi/2)."""
    y = np.asarray(y, dtype=float)
    out = np.where(y <= -np.pi / 2, 1.0, 0.0)
    inside = (y > -np.pi / 2) & (y < np.pi / 2)
    out[inside] = tdist.sf(np.sqrt(dim) * np.tan(y[inside]), dim)
    return out


def step_sf(x, th, a, b, dim):
    """P(theta' > x | theta) for arrays x, th (broadcast): numerator step (b > 0) or error step."""
    x, th = np.broadcast_arrays(np.asarray(x, float), np.asarray(th, float))
    neg = x < 0
    xs = np.where(neg, -x, x)
    ts = np.where(neg, -th, th)
    if b == 0:
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.clip(np.sin(xs) / np.sin(ts), 0, 1)
        p = np.where(ts > xs, 1 - 2 * angle_sf(np.arccos(ratio), dim), 0.0)
    else:
        pp = a * np.sin(ts)
        r = np.hypot(pp, b)
        g = np.arctan2(pp, b)
        q = np.sin(xs) / r
        asq = np.arcsin(np.clip(q, -1, 1))
        p = np.where(q >= 1, 0.0, angle_sf(asq - g, dim) - angle_sf(np.pi - asq - g, dim))
    return np.where(neg, 1 - p, p)


def solve(fn, delta):
    if delta <= 0:
        return np.pi / 2
    lo, hi = 0.0, np.pi / 2
    for _ in range(BISECT):
        mid = (lo + hi) / 2
        if fn(mid) > delta:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def cells(lim):
    """Edges L sin(pi/2 (2j/n - 1)): fine near the ends of the region, and the centres."""
    edges = lim * np.sin(np.pi / 2 * (2 * np.arange(CELLS + 1) / CELLS - 1))
    return edges, (edges[:-1] + edges[1:]) / 2


def push(th, m, a, b, dim, lim):
    """Masses of the next cells on (-L, L) from point masses (th, m)."""
    top = np.max(np.abs(th))
    reach = top if b == 0 else np.arcsin(min(1.0, np.hypot(a * np.sin(top), b)))
    L = min(lim, reach)
    edges, mids = cells(L)
    sf = step_sf(edges[None, :], th[:, None], a, b, dim)  # sources x edges
    masses = (m[:, None] * (sf[:, :-1] - sf[:, 1:])).sum(axis=0)
    return mids, masses


def t_bounds(delta, first, K, pooled):
    """Exact critical t per look k = first..K (dict)."""
    out = {}
    df = df_of(pooled, first)
    out[first] = tdist.isf(delta[first], df) if delta[first] > 0 else np.inf
    x = np.arctan(out[first] / np.sqrt(df))
    edges, th = cells(x)
    sf = angle_sf(edges, df)
    m = sf[:-1] - sf[1:]
    for k in range(first + 1, K + 1):
        dim = df_of(pooled, k - 1) + 1
        a, b = np.sqrt((k - 1) / k), np.sqrt(1 / k)
        step = (a, b, dim)
        if pooled:
            th, m = push(th, m, a, b, dim, np.pi / 2)
            step = (1.0, 0.0, dim + 1)
        df = df_of(pooled, k)
        if 0 < delta[k] < MARGINAL:  # too little to resolve: the marginal quantile
            out[k] = tdist.isf(delta[k], df)
            x = np.arctan(out[k] / np.sqrt(df))
        else:
            x = solve(lambda y: float((m * step_sf(y, th, *step)).sum()), delta[k])
            out[k] = np.sqrt(df) * np.tan(x) if delta[k] > 0 else np.inf
        if k < K:
            th, m = push(th, m, *step, x)
    return out


def z_bounds(delta, first, K):
    """Normal-score boundaries of the same spending (known variance): the score S_k = sqrt(k) Z_k
    on a grid, recursive integration (Armitage, McPherson & Rowe 1969), bisection per look."""
    h = 0.01
    z = [norm.isf(delta[first])]
    c = z[0] * np.sqrt(first)
    s = np.arange(-c, c + h / 2, h)
    w = norm.pdf(s / np.sqrt(first)) / np.sqrt(first) * h
    for k in range(first + 1, K + 1):
        def cross(zz):
            return float((w * norm.sf(zz * np.sqrt(k) - s)).sum())
        lo, hi = 0.0, 40.0
        for _ in range(BISECT):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if cross(mid) > delta[k] else (lo, mid)
        z.append((lo + hi) / 2)
        c = z[-1] * np.sqrt(k)
        s2 = np.arange(-c, c + h / 2, h)
        w = (w[None, :] * norm.pdf(s2[:, None] - s[None, :])).sum(axis=1) * h
        s = s2
    return z


def z_bounds_as_t(z, first, K, pooled):
    """The significance-level approach: the normal boundary's nominal level, converted to t."""
    return {k: tdist.isf(norm.sf(z[k - first]), df_of(pooled, k)) for k in range(first, K + 1)}


def simulate(bounds, first, K, pooled, reps, seed):
    """Share of reps in which any |T_k| >= its boundary (k = first..K), normal data under H0."""
    rng = np.random.default_rng(seed)
    hits, chunk = 0, 200_000
    tb = np.array([bounds[k] for k in range(first, K + 1)])
    ks = np.arange(1, K + 1, dtype=float)
    done = 0
    while done < reps:
        n = min(chunk, reps - done)
        if pooled:
            a = rng.standard_normal((n, K))
            b = rng.standard_normal((n, K))
            ma, mb = np.cumsum(a, 1) / ks, np.cumsum(b, 1) / ks
            ssa = np.cumsum(a * a, 1) - ks * ma * ma
            ssb = np.cumsum(b * b, 1) - ks * mb * mb
            with np.errstate(divide="ignore", invalid="ignore"):
                t = (mb - ma) / np.sqrt((ssa + ssb) / (2 * ks - 2) * 2 / ks)
        else:
            d = rng.standard_normal((n, K))
            md = np.cumsum(d, 1) / ks
            ss = np.cumsum(d * d, 1) - ks * md * md
            with np.errstate(divide="ignore", invalid="ignore"):
                t = md / np.sqrt(ss / (ks - 1) / ks)
        hits += int((np.abs(t[:, first - 1:]) >= tb).any(axis=1).sum())
        done += n
    return hits / reps


# (spending, alpha, m, K, first, two-sided, pooled): the designs of the Monte Carlo in
# tests/test_stats_mc_seq.c and run --budget, and two at alpha 0.05 for a sharper simulation.
CASES = [
    ("obf", 0.05, 22, 10, 2, True, False),
    ("obf", 0.05, 22, 10, 2, True, True),
    ("pocock", 0.05, 22, 10, 2, True, False),
    ("pocock", 0.05, 22, 10, 2, True, True),
    ("obf", 0.05, 22, 8, 2, False, False),
    ("pocock", 0.05, 1, 5, 2, True, False),
    ("obf", 0.05, 1, 5, 2, True, True),
]

OLD = [100, 102, 99, 101, 100.5, 98.8, 100.2, 101.1, 99.5, 100.3]
SEQS = {
    "regression": [1.05, 1.06, 1.045, 1.055, 1.05, 1.052, 1.048, 1.051, 1.049, 1.05],
    "improvement": [0.93, 0.95, 0.94, 0.945, 0.935, 0.94, 0.95, 0.93, 0.94, 0.942],
    "unchanged": [1.001, 0.999, 1.002, 0.998, 1.0, 1.001, 0.999, 1.0005, 0.9995, 1.0],
    "noisy": [1.03, 0.98, 1.06, 1.01, 0.97, 1.05, 1.0, 1.04, 0.99, 1.02],
}


def decide(old, factor, tb, first, paired, min_effect=0.02):
    """The rule of st_seq.c: repeated CI diff +- t_k se against 0 and +-log(1 + min_effect)."""
    a = np.log(np.array(old, dtype=float))
    b = a + np.log(np.array(factor, dtype=float))
    up = np.log1p(min_effect)
    for k in range(first, len(old) + 1):
        if paired:
            d = b[:k] - a[:k]
            diff, se = d.mean(), d.std(ddof=1) / np.sqrt(k)
        else:
            sp2 = (a[:k].var(ddof=1) + b[:k].var(ddof=1)) / 2
            diff, se = b[:k].mean() - a[:k].mean(), np.sqrt(sp2 * 2 / k)
        lo, hi = diff - tb[k] * se, diff + tb[k] * se
        if lo > 0 and diff >= up:
            return "ST_SEQ_REGRESSION", k, diff / se, tb[k]
        if hi < 0 and diff <= -up:
            return "ST_SEQ_IMPROVEMENT", k, diff / se, tb[k]
        if -up < lo and hi < up:
            return "ST_SEQ_UNCHANGED", k, diff / se, tb[k]
    return "ST_SEQ_UNDECIDED", 0, diff / se, tb[len(old)]


def fmt(x):
    return "INFINITY" if not np.isfinite(x) else "%.6g" % x


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    reps = int(os.environ.get("SEQ_TBOUNDS_REPS", "1000000"))
    exact = {}
    with open(os.path.join(here, "seq_tbounds_ref.inc"), "w") as out:
        out.write("/* made by tests/data/seq_tbounds.py: do not edit */\n")
        for c in CASES:
            kind, alpha, m, K, first, two, pooled = c
            d = increments(kind, alpha / m, K, first, two)
            tb = t_bounds(d, first, K, pooled)
            exact[c] = tb
            out.write("{%s, %g, %d, %d, %d, %s, %s, {%s}},\n" % (
                "ST_SPEND_OBF" if kind == "obf" else "ST_SPEND_POCOCK", alpha, m, K, first,
                "ST_TWO_SIDED" if two else "ST_GREATER",
                "ST_SEQ_UNPAIRED" if pooled else "ST_SEQ_PAIRED",
                ", ".join(fmt(tb[k]) for k in range(first, K + 1))))
            out.flush()
    with open(os.path.join(here, "seq_decisions_ref.inc"), "w") as out:
        out.write("/* made by tests/data/seq_tbounds.py: do not edit */\n")
        for name, f in SEQS.items():
            for paired in (1, 0):
                tb = exact[("obf", 0.05, 22, 10, 2, True, not paired)]
                dec, k, t, b = decide(OLD, f, tb, 2, paired)
                out.write('{"%s", %d, %s, %d, %.8g, %.8g},\n' % (name, paired, dec, k, t, b))
    print("simulation of the t statistics under H0, %d sequences per design, seed 13" % reps)
    print("design | alpha spent (both sides) | exact t: share crossing (s.e.) | "
          "significance-level approach: share crossing")
    for c in CASES:
        kind, alpha, m, K, first, two, pooled = c
        nominal = 2 * sum(increments(kind, alpha / m, K, first, two).values())
        z = z_bounds(increments(kind, alpha / m, K, first, two), first, K)
        old = z_bounds_as_t(z, first, K, pooled)
        p_new = simulate(exact[c], first, K, pooled, reps, 13)
        p_old = simulate(old, first, K, pooled, reps, 13)
        se = np.sqrt(nominal * (1 - nominal) / reps)
        print("%s a=%g/%d K=%d first=%d %s %s | %.6f | %.6f (%.6f) | %.6f" % (
            kind, alpha, m, K, first, "two-sided" if two else "per side",
            "pooled" if pooled else "paired", nominal, p_new, se, p_old))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
