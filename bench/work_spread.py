#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Per query of a result file: are the work counters constant within each restart (every
measured execution the same) and identical across restarts, and the largest relative spread of
a counter's restart means; then how many queries have all counters identical. Reads the JSON
itself (not dbt3stab's code). usage: work_spread.py RESULT.json"""
import json, sys

d = json.load(open(sys.argv[1]))
print(f"# {sys.argv[1]}: scale factor {d['dataset']['scale_factor']}, server "
      f"{d['server'].get('version')}, plan {d['plan'].get('restarts')} restarts x "
      f"{d['plan'].get('warmup')} warm-up + {d['plan'].get('runs')} measured; "
      f"reading cost {d['plan'].get('work_reading_cost')}")
print("query  restarts  within-restart  across-restarts  varying counters (max spread of restart means)")
ident = 0
for q in d["queries"]:
    rs = [r for r in q["restarts"] if r["status"] == "ok" and "work" in r]
    names = sorted(rs[0]["work"]) if rs else []
    within = all(not isinstance(v, list) for r in rs for v in r["work"].values())
    vary = []
    for n in names:
        means = []
        for r in rs:
            v = r["work"][n]
            means.append(sum(v) / len(v) if isinstance(v, list) else v)
        if max(means) != min(means) or any(isinstance(r["work"][n], list) for r in rs):
            spread = (max(means) - min(means)) / max(1, max(means))
            vary.append(f"{n} {100 * spread:.3f}%")
    across = not vary
    ident += across and within
    print(f"{q['id']:5}  {len(rs):8}  {'constant' if within else 'varies':>14}  "
          f"{'identical' if across else 'differ':>15}  {', '.join(vary)}")
print(f"queries with every counter identical in every measured execution of every restart: "
      f"{ident} of {len(d['queries'])}")
