#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Independent reference for st_var_perm_test (stats/st_var.c) and for stabilize's
recommendation (runner/run_stabilize_an.c): the permutation p-value counted exactly over every split
(the Python standard library only; the C code is never called).

The test, as docs/stability.md states it: each setting's k restarts become their k - 1
Helmert contrasts; a contrast's weight is its squared length over the queries; the statistic is
A's mean weight over B's; p = the share of the C(ka + kb - 2, ka - 1) splits of the weights into
ka - 1 and kb - 1 whose A-sum is at most the observed A-sum. The splits are counted by meeting in
the middle (every subset sum of each half of the weights, sorted, joined by bisection), not by
the C code's recursion or its random draws.

Writes tests/st_perm_ref.h. Run from the repository root (a few seconds):
    python3 tests/st_perm_ref.py > tests/st_perm_ref.h
"""
import bisect
import math
import random
import statistics


def log_weights(logs):
    """The k - 1 Helmert contrasts of k restarts (logs: k rows of nq), each contrast's squares
    summed over the queries: contrast j = (x_0 + ... + x_(j-1) - j x_j) / sqrt(j (j + 1))."""
    k, nq = len(logs), len(logs[0])
    return [sum(((sum(logs[i][q] for i in range(j)) - j * logs[j][q]) / math.sqrt(j * (j + 1))) ** 2
                for q in range(nq)) for j in range(1, k)]


def subset_sums(w):
    """{size: sorted list of the sums of every subset of w of that size}"""
    out = {}
    for mask in range(1 << len(w)):
        chosen = [w[i] for i in range(len(w)) if mask >> i & 1]
        out.setdefault(len(chosen), []).append(sum(chosen))
    return {n: sorted(v) for n, v in out.items()}


def count_splits(w, m, at_most=None, at_least=None):
    """How many of the C(len(w), m) subsets of size m sum to at most / at least a bound, counted
    exactly by meeting in the middle: the subset sums of each half, sorted, joined by bisection."""
    half = len(w) // 2
    left, right = subset_sums(w[:half]), subset_sums(w[half:])
    n = 0
    for size, sums in left.items():
        other = right.get(m - size, [])
        for x in sums:
            if at_most is not None:
                n += bisect.bisect_right(other, at_most - x)
            else:
                n += len(other) - bisect.bisect_left(other, at_least - x)
    return n


def split_p(wa, wb):
    """The pooled ratio and the shares of splits whose A-sum is at most / at least A's."""
    w, obs = wa + wb, sum(wa)
    eps = 1e-12 * sum(w)
    total = math.comb(len(w), len(wa))
    lower = count_splits(w, len(wa), at_most=obs + eps)
    higher = count_splits(w, len(wa), at_least=obs - eps)
    return (obs / len(wa)) / (sum(wb) / len(wb)), lower / total, higher / total


def logs(rows):
    return [[math.log(v) for v in r] for r in rows]


def perm(a, b):
    ratio, p, _ = split_p(log_weights(logs(a)), log_weights(logs(b)))
    return ratio, p


def lognormal_rows(rng, k, nq, sd_query, sd_common):
    base = [rng.uniform(10, 1000) for _ in range(nq)]
    rows = []
    for _ in range(k):
        f = rng.gauss(0, sd_common)
        rows.append([base[q] * math.exp(f + rng.gauss(0, sd_query)) for q in range(nq)])
    return rows


def c_rows(name, rows):
    body = ",\n".join("    {" + ", ".join("%.17g" % v for v in r) + "}" for r in rows)
    return "static const double %s[%d][%d] = {\n%s};\n" % (name, len(rows), len(rows[0]), body)


def time_ratio(a, b):
    """exp of the mean over the queries of the difference of the mean log restart means"""
    nq = len(a[0])
    d = [sum(math.log(r[q]) for r in a) / len(a) - sum(math.log(r[q]) for r in b) / len(b)
         for q in range(nq)]
    return math.exp(sum(d) / nq)


def median_cov(rows):
    return statistics.median(statistics.stdev([math.log(r[q]) for r in rows])
                             for q in range(len(rows[0])))


# stabilize's analysis (tests/test_run_stab.c, recommends_by_permutation): 6 rounds of Q1 and
# Q6; ahi-off's restart means are no-aslr's times 1.2 (the same scatter, 20 % slower)
STAB_DEFAULT = [[100, 20], [110, 21], [105, 19.5], [95, 20.5], [108, 19], [99, 21.5]]
STAB_STEADY = [[100, 20], [101, 20.2], [102, 19.9], [100.5, 20.1], [101.5, 20.05], [100.8, 19.95]]
STAB_SLOWER = [[1.2 * v for v in r] for r in STAB_STEADY]


def cases():
    rng = random.Random(20261202)
    return {
        # 4 + 5 restarts, 3 queries: A scatters less, B has a common restart factor
        "small": (
            [[100, 20, 5.0], [103, 20.5, 5.1], [99, 19.8, 4.95], [101, 20.3, 5.05]],
            [[100, 20, 5.0], [110, 21.5, 5.3], [95, 19.0, 4.8], [106, 20.9, 5.2], [98, 19.5, 4.9]],
        ),
        # 3 + 3: 2 + 2 contrasts, the smallest p a split can give is 1/6
        "tiny": ([[100, 20], [101, 20.2], [102, 19.9]], [[100, 20], [110, 21], [105, 19.5]]),
        # 14 + 14 restarts (C(26, 13) = 10 400 600 splits: above the exact limit, so the C code
        # draws random splits): A with half B's scatter, then A like B
        "big_lower": (lognormal_rows(rng, 14, 4, 0.01, 0.01),
                      lognormal_rows(rng, 14, 4, 0.02, 0.02)),
        "big_alike": (lognormal_rows(rng, 14, 4, 0.02, 0.02),
                      lognormal_rows(rng, 14, 4, 0.02, 0.02)),
        "stab6": (STAB_STEADY, STAB_DEFAULT),
        "stab6_slower": (STAB_SLOWER, STAB_DEFAULT),
    }


def main():
    print("/* Generated by tests/st_perm_ref.py: do not edit. */")
    for name, (a, b) in cases().items():
        ratio, p = perm(a, b)
        print(c_rows("perm_%s_a" % name, a), end="")
        print(c_rows("perm_%s_b" % name, b), end="")
        print("static const double perm_%s_ratio = %.17g, perm_%s_p = %.17g;" % (
            name, ratio, name, p))
    for name, rows in (("default", STAB_DEFAULT), ("steady", STAB_STEADY)):
        print("static const double stab6_%s[6][2] = {%s};" % (
            name, ", ".join("{%g, %g}" % tuple(r) for r in rows)))
    print("static const double stab6_time_steady = %.17g, stab6_time_slower = %.17g;" % (
        time_ratio(STAB_STEADY, STAB_DEFAULT), time_ratio(STAB_SLOWER, STAB_DEFAULT)))
    print("static const double stab6_median_default = %.17g, stab6_median_steady = %.17g;" % (
        median_cov(STAB_DEFAULT), median_cov(STAB_STEADY)))


if __name__ == "__main__":
    main()
