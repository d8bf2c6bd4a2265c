#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""stabilize's recommendation rule (docs/stability.md; the experiments: bench/data/stabilize-20261201/README.md) applied, independently of
the C code, to a CSV of per-restart query means such as bench/data/stabilize-20261201/stab-sf0.1-20261201.csv (columns
candidate, round, query, mean_ms, disturbed): per candidate against the default, the pooled
variance ratio, the permutation p of a lower variance (and of a higher one) with restarts kept
whole (on Helmert contrasts, every split counted by tests/st_perm_ref.py), the median
between-restart CoV and the geometric-mean time ratio. Disturbed restarts are left out, as
stabilize does. Standard library only.

usage: python3 bench/stab_reanalyze.py bench/data/stabilize-20261201/stab-sf0.1-20261201.csv
"""
import csv
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from st_perm_ref import log_weights, split_p  # noqa: E402  the same enumeration as the tests


def load(path):
    rounds = {}  # candidate -> round -> {query: log mean}
    for r in csv.DictReader(open(path)):
        if r["disturbed"] == "1":
            continue
        rounds.setdefault(r["candidate"], {}).setdefault(r["round"], {})[r["query"]] = math.log(
            float(r["mean_ms"]))
    return rounds


def perm_p(a, b, queries):
    """ratio, p lower, p higher on the queries given (rows: {query: log mean})"""
    def pick(rows):
        return [[r[q] for q in queries] for r in rows]
    return split_p(log_weights(pick(a)), log_weights(pick(b)))


def median_cov(rows, queries):
    return statistics.median(statistics.stdev(r[q] for r in rows) for q in queries)


def main(path):
    data = load(path)
    default = list(data["default"].values())
    cands = [c for c in data if c != "default"]
    level = 0.05 / len(cands)
    dq = set.intersection(*(set(r) for r in default))
    dmed = median_cov(default, sorted(dq))
    print("default: %d restarts, median CoV %.2f%%; level 0.05/%d = %.4f" % (
        len(default), 100 * dmed, len(cands), level))
    print("| setting | restarts | median CoV | variance ratio | p lower | p higher | time | recommended |")
    print("|---|--:|--:|--:|--:|--:|--:|---|")
    for c in cands:
        rows = list(data[c].values())
        qs = sorted(dq.intersection(*(set(r) for r in rows)))
        ratio, p, p_higher = perm_p(rows, default, qs)
        med = median_cov(rows, qs)
        t = math.exp(statistics.mean(
            statistics.mean(r[q] for r in rows) - statistics.mean(r[q] for r in default)
            for q in qs))
        ok = p < level and med < dmed and t <= 1.05
        print("| %s | %d | %.2f%% | %.2f | %.4f | %.4f | x%.3f | %s |" % (
            c, len(rows), 100 * med, ratio, p, p_higher, t, "yes" if ok else "no"))


if __name__ == "__main__":
    main(sys.argv[1])
