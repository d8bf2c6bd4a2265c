#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How the memory-contention probe relates to the restart noise in result files of one run
(docs/stability.md, "Where the restart noise comes from on this host").

usage: bench/memprobe_an.py RESULT.json [RESULT.json ...]   (e.g. the NAME.json of an A/A run)

Per file: each restart's share of probes under pressure (after-probe > 2 x the file's floor,
the rule of docs/interference.md) and its restart factor (the median over the queries of the deviation
of the log restart mean from the query's mean over the restarts); the correlation of the two;
the median over the queries of the SD of the log restart means with every restart, and
without the restarts the rule calls disturbed by memory contention; per query window the mean
|deviation| of windows with and without a pressured probe on either side. Independent of the
tool's C code: it reads the raw records.
"""
import json
import math
import statistics as st
import sys


def floor_of(d):
    f = (d.get("host", {}).get("memory_probe") or {}).get("floor_ns") or math.inf
    for q in d["queries"]:
        for r in q["restarts"]:
            rec = r.get("interference") or {}
            for k in ("memory_probe_before_ns", "memory_probe_after_ns"):
                if rec.get(k):
                    f = min(f, rec[k])
    return f


def corr(x, y):
    mx, my = st.mean(x), st.mean(y)
    num = sum((a - mx) * (b - my) for a, b in zip(x, y))
    den = math.sqrt(sum((a - mx) ** 2 for a in x) * sum((b - my) ** 2 for b in y))
    return num / den if den else float("nan")


def median_sd(means, restarts):
    sds = []
    for q, m in means.items():
        v = [m[r] for r in restarts if r in m]
        if len(v) >= 2:
            sds.append(st.stdev(v))
    return st.median(sds) if sds else float("nan"), len(sds)


def analyse(path):
    d = json.load(open(path))
    floor = floor_of(d)
    means, press, probes, wins = {}, {}, {}, []
    for q in d["queries"]:
        for r in q["restarts"]:
            if r["status"] != "ok" or not r["measured_ms"]:
                continue
            i = r["index"]
            means.setdefault(q["id"], {})[i] = math.log(st.mean(r["measured_ms"]))
            rec = r.get("interference") or {}
            a, b = rec.get("memory_probe_after_ns"), rec.get("memory_probe_before_ns")
            if a:
                probes[i] = probes.get(i, 0) + 1
                press[i] = press.get(i, 0) + (a > 2 * floor)
            if a and b:
                wins.append((q["id"], i, max(a, b) > 2 * floor, math.log(a) + math.log(b)))
    restarts = sorted({i for m in means.values() for i in m})
    dev = {q: {i: m[i] - st.mean(m.values()) for i in m} for q, m in means.items()}
    factor = {i: st.median(dev[q][i] for q in dev if i in dev[q]) for i in restarts}
    share = {i: press.get(i, 0) / probes[i] for i in restarts if probes.get(i)}
    mem = [i for i in share if probes[i] >= 3 and share[i] > 0.25]
    print("%s: floor %.1f ns, %d restarts" % (path, floor, len(restarts)))
    print("  restart  pressured  factor")
    for i in restarts:
        print("  %7d  %3d of %-3d  %+5.1f%%%s" % (i + 1, press.get(i, 0), probes.get(i, 0),
                                                100 * factor[i], "  memory" if i in mem else ""))
    common = [i for i in restarts if i in share]
    if len(common) >= 3:
        print("  corr(pressured share, restart factor) = %.2f" %
              corr([share[i] for i in common], [factor[i] for i in common]))
    all_sd, nq = median_sd(means, restarts)
    kept = [i for i in restarts if i not in mem]
    kept_sd, _ = median_sd(means, kept)
    print("  median SD of log restart means over %d queries: %.2f%% (all %d restarts), "
          "%.2f%% (the %d without memory contention)" %
          (nq, 100 * all_sd, len(restarts), 100 * kept_sd, len(kept)))
    hit = [abs(dev[q][i]) for q, i, p, _ in wins if p]
    calm = [abs(dev[q][i]) for q, i, p, _ in wins if not p]
    if hit and calm:
        print("  query windows with a pressured probe on either side: %d, mean |deviation| "
              "%.2f%%; without: %d, %.2f%%" % (len(hit), 100 * st.mean(hit), len(calm),
                                               100 * st.mean(calm)))
    cs = []
    for q in dev:
        w = [(x, dev[q][i]) for qq, i, _, x in wins if qq == q]
        if len(w) >= 3:
            cs.append(corr([a for a, _ in w], [b for _, b in w]))
    cs = [c for c in cs if not math.isnan(c)]
    if cs:
        print("  per query, corr(log probes around the window, deviation): median %.2f "
              "(%d queries)" % (st.median(cs), len(cs)))


def restart_means_and_covariate(path):
    """log restart means per query and restart, and each restart's mean log after-probe."""
    d = json.load(open(path))
    y, probes = {}, {}
    for q in d["queries"]:
        for r in q["restarts"]:
            if r["status"] != "ok" or not r["measured_ms"]:
                continue
            y.setdefault(q["id"], {})[r["index"]] = math.log(st.mean(r["measured_ms"]))
            a = (r.get("interference") or {}).get("memory_probe_after_ns")
            if a:
                probes.setdefault(r["index"], []).append(math.log(a))
    return y, {i: st.mean(p) for i, p in probes.items()}


def adjusted_sd(path_a, path_b):
    """Per query the pooled within-side SD of the log restart means, and the residual SD of the
    two-sample analysis of covariance on the restart covariate (n - 3 df); their medians."""
    (ya, xa), (yb, xb) = restart_means_and_covariate(path_a), restart_means_and_covariate(path_b)
    raw, adj = [], []
    for q in ya:
        if q not in yb:
            continue
        syy = sxy = sxx = 0.0
        n = 0
        for y, x in ((ya[q], xa), (yb[q], xb)):
            idx = [i for i in y if i in x]
            my, mx = st.mean(y[i] for i in idx), st.mean(x[i] for i in idx)
            syy += sum((y[i] - my) ** 2 for i in idx)
            sxy += sum((y[i] - my) * (x[i] - mx) for i in idx)
            sxx += sum((x[i] - mx) ** 2 for i in idx)
            n += len(idx)
        raw.append(math.sqrt(syy / (n - 2)))
        adj.append(math.sqrt((syy - sxy * sxy / sxx) / (n - 3)))
    print("two files: median pooled within-side SD of the log restart means %.2f%%, after the "
          "adjustment for the restart's mean log probe %.2f%% (%d queries)" %
          (100 * st.median(raw), 100 * st.median(adj), len(raw)))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        analyse(p)
    if len(sys.argv) == 3:
        adjusted_sd(sys.argv[1], sys.argv[2])
