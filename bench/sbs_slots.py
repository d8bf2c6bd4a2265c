#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The slot-order check of side-by-side A/As (issue 32; docs/side-by-side.md, "Why strict alternation"):
# per measured slot k, the median over queries and pairs of log(B_k / A_k) signed so that
# positive means "the server that opened the query's executions was faster" (the entry's
# side_by_side.first); the back-to-back executions in each pair's order strings joined in the
# order the queries ran (0 in strict alternation unless a side failed); the file's order rule.
# usage: bench/sbs_slots.py DIR...   (each DIR holds a.json and b.json of one run --side-by-side)
import json, math, os, statistics, sys


def slots(d):
    a = json.load(open(os.path.join(d, "a.json")))
    b = json.load(open(os.path.join(d, "b.json")))
    names = a["plan"]["side_by_side"]["variants"]
    qb = {q["id"]: q for q in b["queries"]}
    per, joined = {}, {}
    for qa in a["queries"]:
        rb = {r["index"]: r for r in qb.get(qa["id"], {}).get("restarts", [])}
        for ra in qa["restarts"]:
            r2 = rb.get(ra["index"])
            sbs = ra.get("side_by_side")
            if not sbs:
                continue
            joined.setdefault(ra["index"], []).append((ra.get("position", 0), sbs["order"]))
            if ra["status"] != "ok" or not r2 or r2["status"] != "ok":
                continue
            sign = 1 if sbs["first"] == names[0] else -1
            x, y = ra["measured_ms"], r2["measured_ms"]
            for k in range(min(len(x), len(y))):
                per.setdefault(k, []).append(sign * math.log(y[k] / x[k]))
    b2b = []
    for r in sorted(joined):
        s = "".join(o.rstrip("+") for _, o in sorted(joined[r]))
        b2b.append(sum(s[i] == s[i - 1] for i in range(1, len(s))))
    return a["plan"]["side_by_side"].get("order", "-"), per, b2b


for d in sys.argv[1:]:
    order, per, b2b = slots(d)
    cells = " ".join(f"{k}: {statistics.median(v):+.2%}" for k, v in sorted(per.items()))
    print(f"{os.path.basename(d)}: order {order}; per slot, opener faster if > 0: {cells}; "
          f"back-to-back executions per pair {b2b}")
