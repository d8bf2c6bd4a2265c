#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Analysis of bench/schedule-proto.sh's output (docs/stability.md): per order, the median over
the 22 queries of the SD of the log restart means, the same after dividing out each restart's
factor (its median deviation over the queries), the median within-restart SD of the log
runs, each restart's factor, mean query time and median probe, and (blocked) the per-query
correlation of a query's restart deviation with the log probes before and after its block.

usage: bench/schedule_an.py OUTPUT.txt
"""
import math
import statistics as st
import sys
from collections import defaultdict


def corr(x, y):
    mx, my = st.mean(x), st.mean(y)
    num = sum((a - mx) * (b - my) for a, b in zip(x, y))
    den = math.sqrt(sum((a - mx) ** 2 for a in x) * sum((b - my) ** 2 for b in y))
    return num / den if den else 0.0


def main(path):
    runs, probes = defaultdict(list), defaultdict(dict)
    for line in open(path):
        if line.startswith("#"):
            continue
        tag, mode, q, kind, i, _, v = line.split()
        if kind == "m":
            runs[(mode, int(tag), int(q))].append(float(v))
        elif kind == "p":
            probes[(mode, int(tag))][(int(q), int(i))] = float(v)
    names = {"b": "blocked", "r": "rounds", "s": "rewarm"}
    for mode in sorted({k[0] for k in runs}, key="brs".index):
        rs = sorted({r for (m, r, q) in runs if m == mode})
        qs = sorted({q for (m, r, q) in runs if m == mode})
        dev, sds, within = {}, [], []
        for q in qs:
            lm = [math.log(st.mean(runs[(mode, r, q)])) for r in rs]
            mu = st.mean(lm)
            dev[q] = [x - mu for x in lm]
            sds.append(st.stdev(lm))
            within.append(st.median(st.stdev([math.log(x) for x in runs[(mode, r, q)]])
                                    for r in rs))
        fac = [st.median(dev[q][k] for q in qs) for k in range(len(rs))]
        res = [st.stdev([dev[q][k] - fac[k] for k in range(len(rs))]) for q in qs]
        print("%s (%d restarts): median between-restart SD %.2f%%, after the restart factor "
              "%.2f%%, median within-restart SD %.2f%%" %
              (names[mode], len(rs), 100 * st.median(sds), 100 * st.median(res),
               100 * st.median(within)))
        print("  per query %:", " ".join("Q%d:%.1f" % (q, 100 * s) for q, s in zip(qs, sds)))
        print("  restart factors %:", " ".join("%+.1f" % (100 * f) for f in fac))
        print("  mean query ms:", " ".join("%.1f" % st.mean(st.mean(runs[(mode, r, q)])
                                                           for q in qs) for r in rs))
        print("  median probe ns:", " ".join("%.1f" % st.median(probes[(mode, r)].values())
                                             for r in rs))
        if mode == "b":
            cs = []
            for q in qs:
                x = [math.log(probes[("b", r)][(q, 0)]) + math.log(probes[("b", r)][(q + 1, 0)])
                     for r in rs]
                cs.append(corr(x, dev[q]))
            print("  corr(deviation, probes around the block): median %.2f" % st.median(cs))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
