#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Independent reference values (NumPy/SciPy) for history/hist_detect.c.

A second implementation of the documented method (docs/history.md): E-Divisive means Q-hat
(Matteson and James 2014, alpha = 1) computed by brute force with NumPy, hierarchical binary
segmentation, Welch's t-test (scipy.stats.ttest_ind, equal_var=False) on the log restart means of
the two segments, the refinement pass, the newest verdict, the stable segments' levels with their
t intervals. The C code is never called here.
Writes tests/hist_ref.h, which tests/test_hist.c includes. The series are drawn here with a fixed
seed and written into the header, so both sides see the same numbers.
Run from the repository root:  /usr/bin/python3 tests/hist_ref.py > tests/hist_ref.h
"""
import math

import numpy as np
from scipy import stats

MAX_P, MIN_EFFECT, MIN_SIZE, ALPHA = 0.001, 0.02, 3, 0.05
K = 5  # restarts per result


def make(rng, n, cov, shifts):
    """n results of K restart means around 100 ms; shifts: {index: factor from there on}."""
    level, pts = 100.0, []
    for i in range(n):
        level = level * shifts.get(i, 1.0)
        pts.append(level * np.exp(rng.normal(0, cov, K)))
    return pts


def make_outlier(rng, n, cov, at, factor):
    pts = make(rng, n, cov, {})
    pts[at] = pts[at] * factor
    return pts


def qhat(x, tau):
    x = np.asarray(x)
    a, b = x[:tau], x[tau:]
    n, m = len(a), len(b)
    between = np.abs(a[:, None] - b[None, :]).sum()
    wa = np.abs(a[:, None] - a[None, :]).sum() / 2
    wb = np.abs(b[:, None] - b[None, :]).sum() / 2
    e = 2 * between / (n * m) - wa / (n * (n - 1) / 2) - wb / (m * (m - 1) / 2)
    return n * m / (n + m) * e


def welch(pts, a, tau, b):
    before = np.log(np.concatenate(pts[a:tau]))
    after = np.log(np.concatenate(pts[tau:b]))
    t, p = stats.ttest_ind(after, before, equal_var=False)
    va, vb = before.var(ddof=1) / len(before), after.var(ddof=1) / len(after)
    df = (va + vb) ** 2 / (va ** 2 / (len(before) - 1) + vb ** 2 / (len(after) - 1))
    diff = after.mean() - before.mean()
    h = stats.t.ppf(1 - ALPHA / 2, df) * math.sqrt(va + vb)
    return {"diff": diff, "p": p, "lo": math.exp(diff - h), "hi": math.exp(diff + h)}


def significant(w, pts, a, tau, b):
    if not (w["p"] < MAX_P and abs(w["diff"]) >= math.log1p(MIN_EFFECT)):
        return False
    # the edge rule: result tau on the after side of the midpoint of the segment means, tau - 1
    # on the before side (segment means over all restart means of the segment)
    ml = np.log(np.concatenate(pts[a:tau])).mean()
    mr = np.log(np.concatenate(pts[tau:b])).mean()
    mid, sign = (ml + mr) / 2, (1 if mr > ml else -1)
    x = lambda i: np.log(pts[i]).mean()
    return (x(tau) - mid) * sign > 0 and (x(tau - 1) - mid) * sign < 0


def segment(pts, x, a, b, cps):
    if b - a < 2 * MIN_SIZE:
        return
    qs = [(qhat(x[a:b], tau - a), tau) for tau in range(a + MIN_SIZE, b - MIN_SIZE + 1)]
    best_q = max(q for q, _ in qs)
    tau = min(t for q, t in qs if q == best_q)
    if not significant(welch(pts, a, tau, b), pts, a, tau, b):
        return
    cps.append(tau)
    segment(pts, x, a, tau, cps)
    segment(pts, x, tau, b, cps)


def detect(pts):
    x = [np.log(p).mean() for p in pts]
    cps = []
    segment(pts, x, 0, len(pts), cps)
    cps.sort()
    while True:
        tests, ok = [], []
        for i, c in enumerate(cps):
            a = cps[i - 1] if i else 0
            b = cps[i + 1] if i + 1 < len(cps) else len(pts)
            tests.append(welch(pts, a, c, b))
            ok.append(significant(tests[-1], pts, a, c, b))
        failing = [(w["p"], i) for i, w in enumerate(tests) if not ok[i]]
        if not failing:
            return cps, tests
        del cps[max(failing)[1]]


def verdict(pts, cps, alpha):
    start = cps[-1] if cps else 0
    n = len(pts)
    if n < 2 or start >= n - 1:
        return "inconclusive", None
    w = welch(pts, start, n - 1, n)
    big = math.log1p(MIN_EFFECT)
    if w["p"] < alpha and w["diff"] >= big:
        return "regression", w
    if w["p"] < alpha and w["diff"] <= -big:
        return "improvement", w
    # CI of the ratio at level 1 - ALPHA (not the Bonferroni level) inside the min-effect band
    before = np.log(np.concatenate(pts[start:n - 1]))
    after = np.log(pts[n - 1])
    va, vb = before.var(ddof=1) / len(before), after.var(ddof=1) / len(after)
    df = (va + vb) ** 2 / (va ** 2 / (len(before) - 1) + vb ** 2 / (len(after) - 1))
    h = stats.t.ppf(1 - ALPHA / 2, df) * math.sqrt(va + vb)
    if w["diff"] - h >= -big and w["diff"] + h <= big:
        return "unchanged", w
    return "inconclusive", w


def levels(pts, cps):
    """Each stable segment's geometric mean of its restart means with the 1 - ALPHA Student t
    interval on the logs: exp(m -/+ t_{1-ALPHA/2, n-1} s / sqrt(n))."""
    out, bounds = [], [0] + list(cps) + [len(pts)]
    for a, b in zip(bounds, bounds[1:]):
        logs = np.log(np.concatenate(pts[a:b]))
        m, s, n = logs.mean(), logs.std(ddof=1), len(logs)
        h = stats.t.ppf(1 - ALPHA / 2, n - 1) * s / math.sqrt(n)
        out.append((math.exp(m), math.exp(m - h), math.exp(m + h)))
    return out


def num(v):
    """A double as C reads it back exactly (NAN for a NaN)."""
    return "NAN" if math.isnan(v) else "%.17g" % v


def main():
    rng = np.random.default_rng(20261201)
    cases = [
        ("step8", make(rng, 40, 0.02, {20: 1.08})),
        ("null", make(rng, 40, 0.03, {})),
        ("outlier", make_outlier(rng, 40, 0.01, 25, 1.15)),
        ("two_steps", make(rng, 45, 0.015, {15: 1.05, 30: 0.90})),
        ("noisy_step3", make(rng, 30, 0.08, {15: 1.03})),
        ("newest_step", make(rng, 25, 0.01, {24: 1.10})),
        ("quiet", make(rng, 20, 0.005, {})),
        ("newest_faster", make(rng, 20, 0.01, {19: 0.90})),
        ("two_after", make(rng, 20, 0.01, {18: 1.10})),
        ("three_after", make(rng, 20, 0.01, {17: 1.10})),
    ]
    col = {k: [] for k in ("n", "first", "ncps", "first_cp", "first_level", "verdict", "newest_p")}
    means, q_lines, cps_all, tests_all, levels_all = [], [], [], [], []
    for name, pts in cases:
        n = len(pts)
        x = [np.log(p).mean() for p in pts]
        q = [qhat(x, t) if 2 <= t <= n - 2 else float("nan") for t in range(n)]
        cps, tests = detect(pts)
        v, w = verdict(pts, cps, ALPHA / 22)
        col["n"].append(n)
        col["first"].append(len(means))
        col["ncps"].append(len(cps))
        col["first_cp"].append(len(cps_all))
        col["first_level"].append(len(levels_all))
        col["verdict"].append('"%s"' % v)
        col["newest_p"].append(num(w["p"] if w else float("nan")))
        means += pts
        q_lines.append("\t%s," % ", ".join(num(v_) for v_ in q))
        cps_all += cps
        tests_all += tests
        levels_all += levels(pts, cps)
    names = [name for name, _ in cases]
    out = ["/* Generated by tests/hist_ref.py (NumPy %s, SciPy): do not edit. */" % np.__version__,
           "#define HREF_K %d" % K, "#define HREF_NCASES %d" % len(cases),
           "#define HREF_N_MAX %d" % max(col["n"]),
           "enum href_case { %s };" % ", ".join("HREF_" + name.upper() for name in names),
           "/* Per case: its name, results (rows of href_means and href_q from first), change",
           " * points (href_cps and href_cp_* from first_cp), first stable level in href_levels",
           " * (ncps + 1 of them), the newest result's verdict and its p. */",
           "static const char *const href_name[] = {%s};" % ", ".join('"%s"' % m for m in names)]
    for k, vals in col.items():
        ctype = {"verdict": "char *const", "newest_p": "double"}.get(k, "size_t")
        out.append("static const %s href_%s[] = {%s};" % (ctype, k, ", ".join(map(str, vals))))
    out.append("static const size_t href_cps[] = {%s};" % ", ".join(map(str, cps_all)))
    for k, f in (("p", lambda t: t["p"]), ("ratio", lambda t: math.exp(t["diff"])),
                 ("lo", lambda t: t["lo"]), ("hi", lambda t: t["hi"])):
        out.append("static const double href_cp_%s[] = {%s};" % (
            k, ", ".join(num(f(t)) for t in tests_all)))
    out.append("static const double href_levels[][3] = {")
    out += ["\t{%s}," % ", ".join(num(v_) for v_ in lv) for lv in levels_all]
    out.append("};")
    out.append("static const double href_means[][HREF_K] = {")
    out += ["\t{%s}," % ", ".join(num(m) for m in p) for p in means]
    out.append("};")
    out.append("/* Q-hat at every split of each case, one line a case (NAN outside 2 .. n - 2). */")
    out.append("static const double href_q[] = {")
    out += q_lines
    out.append("};")
    print("\n".join(out))


main()
