#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Writes adj_old.json and adj_new.json: the real A/B of 2026-12-02 (bench/data/noise-20261202
has its A/A; this run: dbt3stab run -s 0.1 --variant old:mysqld=/usr/sbin/mariadbd --variant
new:...,optimizer_switch=semijoin=off --restarts 8, 15:21:45-15:34:40 UTC) cut to four queries
(Q18, Q20 and Q21 change plan, Q22 does not), every restart with its interference record and
memory probes; server.variables dropped to keep the files small. The covariate compare
--adjust-memory takes is computed over the four queries kept.
    python3 tests/data/adj_fixture.py OLD.json NEW.json   (from tests/data)
"""
import json
import sys

KEEP = ("Q18", "Q20", "Q21", "Q22")
for src, dst in zip(sys.argv[1:3], ("adj_old.json", "adj_new.json")):
    d = json.load(open(src))
    d["queries"] = [q for q in d["queries"] if q["id"] in KEEP]
    d["plan"]["queries"] = [q for q in d["plan"]["queries"] if q in KEEP]
    d["server"].pop("variables", None)
    d.pop("interference", None)
    for q in d["queries"]:
        for r in q["restarts"]:
            r["plan"] = r["plan"][:200] if r.get("plan") else r.get("plan")
    json.dump(d, open(dst, "w"), indent=1)
