#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The ANALYZE FORMAT=JSON fixtures of this folder, what compare must say of them, and result
files that carry them.

analyze-{on,on2,off}-Q{4,18,20,21}.json were run by hand at SF 0.1 on MariaDB 10.11 (the text
the server printed, `mariadb -N -B -r -e "ANALYZE FORMAT=JSON <query>"`, the queries of
`dbt3stab queries -s 0.1`): on = the default optimizer_switch, on2 = the same server after a
restart (an A/A), off = optimizer_switch='semijoin=off'. This script reads them with its own
code, written from the rule of docs/explain.md ("Where the rows went"):
  rows examined of a table = r_loops x r_rows (0 when r_loops is 0 or r_rows null; not counted
  for an index_subquery or unique_subquery table with r_loops 0: MariaDB's subquery engine reads
  it uncounted); it changed when the two, rounded to whole rows, differ, or only one side counted
  them; an estimate error is a table read (r_loops > 0)
  whose rows (estimate per loop) and r_rows differ by 10x or more, each taken as at least 1.
Tables are matched by alias and occurrence (0 for the alias's first table in document order).
It writes
  analyze_expected.json   per pair (ab: on/off, aa: on/on2) and query: the changed tables with
                          both counts, and each side's estimate errors;
  analyze-ab-{on,off}.json, analyze-aa-{on,on2}.json  result files: the restart 0 of Q4, Q18,
                          Q20 and Q21 of bench/data/sbs-20261203's sbs-ab-1 (a = default, b =
                          semijoin=off) and sbs-aa-1, each restart given the "analyze" record of
                          the fixture of its side (tests/cli/compare_analyze.sh).
Run from anywhere: python3 tests/data/explain/analyze_expected.py
"""
import json
import math
import os
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
QUERIES = ["Q4", "Q18", "Q20", "Q21"]
PAIRS = {"ab": ("on", "off"), "aa": ("on", "on2")}
SOURCES = {
    "ab": ("bench/data/sbs-20261203/sbs-ab-1.tar.xz", "sbs-ab-1/a.json", "sbs-ab-1/b.json"),
    "aa": ("bench/data/sbs-20261203/sbs-aa-1.tar.xz", "sbs-aa-1/a.json", "sbs-aa-1/b.json"),
}


def tables(doc):
    """[(alias, select, node)] in document order."""
    out = []

    def visit(v, sel):
        if isinstance(v, list):
            for e in v:
                visit(e, sel)
        elif isinstance(v, dict):
            if isinstance(v.get("select_id"), int):
                sel = v["select_id"]
            for k, m in v.items():
                if k == "table" and isinstance(m, dict):
                    out.append((m.get("table_name", "?"), sel, m))
                visit(m, sel)

    visit(doc, -1)
    return out


def ops(doc):
    out = []

    def visit(v, sel):
        if isinstance(v, list):
            for e in v:
                visit(e, sel)
        elif isinstance(v, dict):
            if isinstance(v.get("select_id"), int):
                sel = v["select_id"]
            for k, m in v.items():
                if isinstance(m, dict) and k in ("filesort", "temporary_table", "expression_cache",
                                                 "materialization"):
                    name = {"filesort": "filesort", "temporary_table": "temporary table"}.get(k)
                    if not name:
                        inner = m.get("query_block", {}).get("select_id", 0)
                        name = "%s(#%d)" % ("expression cache" if k == "expression_cache"
                                            else "subquery materialization", inner)
                    r = {n: x for n, x in m.items() if n.startswith("r_") and "time" not in n
                         and isinstance(x, (int, float)) and not isinstance(x, bool)}
                    out.append({"op": name, "select": sel, "r": r})
                visit(m, sel)

    visit(doc, -1)
    return out


def counted(t):
    # MariaDB's subquery engine reads an index_subquery / unique_subquery table uncounted
    return not ("_subquery" in t.get("access_type", "") and t.get("r_loops") == 0)


def examined(t):
    if not counted(t):
        return None
    loops = t.get("r_loops")
    if loops == 0:
        return 0
    if loops is None:
        return None
    return loops * (t.get("r_rows") or 0)


def rnd(v):
    return None if v is None else round(v)


def estimate_off(t):
    if not t.get("r_loops") or t.get("rows") is None or t.get("r_rows") is None:
        return False
    e, r = max(t["rows"], 1), max(t["r_rows"], 1)
    return e / r >= 10 or r / e >= 10


def keyed(doc):
    seen, out = {}, []
    for alias, sel, t in tables(doc):
        occ = seen.get(alias, 0)
        seen[alias] = occ + 1
        out.append(((alias, occ), sel, t))
    return out


def load(side, q):
    with open(os.path.join(HERE, "analyze-%s-%s.json" % (side, q))) as f:
        return json.load(f)


def record(doc):
    """The restart entry's "analyze" record (docs/result-format.md)."""
    rows = []
    for alias, sel, t in tables(doc):
        r = {"table": alias, "select": sel}
        for k in ("r_loops", "r_rows", "r_filtered", "rows", "filtered"):
            if k.startswith("r_") and not counted(t):
                continue
            v = t.get(k)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                r[k] = int(v) if v == math.floor(v) else v
        rows.append(r)
    return {"tables": rows, "ops": ops(doc)}


def expected():
    out = {}
    for pair, (a, b) in PAIRS.items():
        out[pair] = {}
        for q in QUERIES:
            old, new = keyed(load(a, q)), keyed(load(b, q))
            new_by = {k: t for k, _, t in new}
            changed = []
            for k, _, t in old:
                n = new_by.get(k)
                eo, en = examined(t), examined(n) if n else 0
                if (eo is None) != (en is None) or (eo is not None and round(eo) != round(en)):
                    changed.append([k[0], k[1], rnd(eo), rnd(en)])
            old_keys = {k for k, _, _ in old}
            for k, _, t in new:
                if k not in old_keys:
                    changed.append([k[0], k[1], 0, rnd(examined(t))])
            errors = {side: [[k[0], k[1], t["rows"], t["r_rows"]] for k, _, t in doc
                             if estimate_off(t)] for side, doc in (("old", old), ("new", new))}
            out[pair][q] = {"changed": changed, "estimate_errors": errors}
    return out


def result_files():
    for pair, (archive, a, b) in SOURCES.items():
        with tarfile.open(os.path.join(ROOT, archive)) as tar:
            for member, side in ((a, PAIRS[pair][0]), (b, PAIRS[pair][1])):
                doc = json.load(tar.extractfile(member))
                doc["queries"] = [q for q in doc["queries"] if q["id"] in QUERIES]
                doc["plan"]["queries"] = QUERIES
                doc["plan"]["restarts"] = 1
                for q in doc["queries"]:
                    q["restarts"] = [r for r in q["restarts"] if r["index"] == 0]
                    for r in q["restarts"]:
                        r["analyze"] = record(load(side, q["id"]))
                        r.pop("side_by_side", None)
                doc.pop("interference", None)
                doc.pop("budget", None)
                with open(os.path.join(HERE, "analyze-%s-%s.json" % (pair, side)), "w") as f:
                    json.dump(doc, f, indent=1)
                    f.write("\n")


def main():
    with open(os.path.join(HERE, "analyze_expected.json"), "w") as f:
        json.dump(expected(), f, indent=1)
        f.write("\n")
    result_files()


if __name__ == "__main__":
    main()
