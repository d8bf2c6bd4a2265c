#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Derives, with its own code, what dbt3stab must make of the optimizer traces in this folder.

The traces: MariaDB 10.11, SF 0.1, `EXPLAIN` of Q4, Q18, Q20, Q21 (the SQL in qN.sql; Q15 too,
after its CREATE VIEW, on the default server only) with
optimizer_trace on, read from information_schema.OPTIMIZER_TRACE; on-QN.json.gz on a server with
the default optimizer_switch, off-QN.json.gz on one started with optimizer_switch=semijoin=off
(take.sh takes them). From them this script writes:
  expected.json   per query and side the decision summary (docs/explain.md, "Why the optimizer
                  chose it"), and per query the chosen order of each side with its cost, the
                  other side's order found in each trace, and where the decisions first part
  trace-on.json, trace-off.json   ../explain/dec-on.json and dec-off.json (a real semijoin A/B
                  result pair) with each restart of Q4, Q20, Q21 given that summary
                  (tests/cli/compare_trace.sh)
The rules, from the docs: a step is an entry of considered_execution_plans or rest_of_plan that
names a table, in document order, its depth the nesting of rest_of_plan; its outcome is extended
(it has rest_of_plan), pruned by cost or heuristic, chosen or not (MySQL's "chosen"), else a
complete plan. Entries under execution_plan_for_potential_materialization are not steps. The
chosen order is best_join_order; its cost that of the last complete step whose path is it.
Run from anywhere: python3 tests/data/trace/gen_trace.py
"""
import gzip
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
QUERIES = ["Q4", "Q18", "Q20", "Q21"]
IN_RESULTS = ["Q4", "Q20", "Q21"]
ONE_SIDE = ["Q15"]  # on-Q15.json.gz: its view's derived tables, the default optimizer_switch


def round7(v):
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        return None
    d = float("%.7g" % v)
    return int(d) if d == int(d) else d


def alias(name):
    parts = [p for p in name.split("`") if p.strip()]
    return parts[-1] if "`" in name else name


def outcome(e):
    if isinstance(e.get("rest_of_plan"), list):
        return ""
    if e.get("pruned_by_cost") is True:
        return "cost"
    if e.get("pruned_by_heuristic") is True:
        return "heuristic"
    if isinstance(e.get("chosen"), bool):
        return "chosen" if e["chosen"] else "not_chosen"
    return "full"


def steps(entries, depth, out):
    for e in entries:
        if "table" not in e:
            continue
        row = [depth, alias(e["table"]), round7(e.get("rows_for_plan")),
               round7(e.get("cost_for_plan")), outcome(e)]
        for c in e.get("semijoin_strategy_choice", []):
            if "chosen_strategy" in c:
                row.append(c["chosen_strategy"])
                break
        out.append(row)
        steps(e.get("rest_of_plan", []), depth + 1, out)


def blocks_of(node, cur, out):
    if isinstance(node, list):
        for x in node:
            blocks_of(x, cur, out)
        return
    if not isinstance(node, dict):
        return
    for k, v in node.items():
        if k == "join_optimization":
            b = {"select_id": v["select_id"], "plans": [], "best_join_order": [],
                 "chosen_step": None, "cost": None, "semijoin": []}
            out.append(b)
            blocks_of(v["steps"], b, out)
        elif k == "execution_plan_for_potential_materialization":
            pass
        elif k == "considered_execution_plans" and cur is not None:
            steps(v, 0, cur["plans"])
        elif k == "best_join_order" and cur is not None:
            # a block's first is its own; a later one (MariaDB writes a materialized derived
            # table's among its parent's steps) goes to the first block after it without one
            for b in out[out.index(cur):]:
                if not b["best_join_order"]:
                    b["best_join_order"] = [alias(t) for t in v]
                    break
        elif k == "fix_semijoin_strategies_for_picked_join_order" and cur is not None:
            cur["semijoin"] = ["%s(%s)" % (s["semi_join_strategy"],
                                           ",".join(t["table"] for t in s["join_order"]))
                               for s in v]
        else:
            blocks_of(v, cur, out)


def paths(block):
    stack = []
    for s in block["plans"]:
        del stack[s[0]:]
        stack.append(s[1])
        yield list(stack), s


def find(block, order):
    """(step index, matched length) of order in block: exact (a complete step preferred), else
    the longest prefix; (-1, 0) when none."""
    exact, longest, best = -1, -1, 0
    for i, (p, s) in enumerate(paths(block)):
        if p != order[:len(p)]:
            continue
        if len(p) == len(order):
            if exact < 0 or s[4] in ("full", "chosen") or \
                    block["plans"][exact][4] not in ("full", "chosen"):
                exact = i
        elif len(p) > best:
            best, longest = len(p), i
    return (exact, len(order)) if exact >= 0 else (longest, best)


def summarize(text):
    blocks = []
    blocks_of(json.loads(text), None, blocks)
    for b in blocks:
        i, n = find(b, b["best_join_order"]) if b["best_join_order"] else (-1, 0)
        if i < 0 or n != len(b["best_join_order"]):
            # the order is not a path (a materialized semi-join nest, "<subqueryN>"): the last
            # complete step, the cheapest plan the search completed
            done = [k for k, s in enumerate(b["plans"]) if s[4] in ("full", "chosen")]
            i = done[-1] if done else -1
        if i >= 0:
            b["chosen_step"] = i
            b["cost"] = b["plans"][i][3]
    return {"trace_bytes": len(text.encode()), "missing_bytes": 0, "plans_dropped": 0,
            "blocks": blocks}


def part(old, new):
    ob, nb = old["blocks"], new["blocks"]
    for i in range(max(len(ob), len(nb))):
        a = ob[i] if i < len(ob) else None
        b = nb[i] if i < len(nb) else None
        if a is None or b is None or a["select_id"] != b["select_id"]:
            return {"select_id": (a or b)["select_id"], "what": "block", "step": None}
        for k in range(max(len(a["plans"]), len(b["plans"]))):
            sa = a["plans"][k] if k < len(a["plans"]) else None
            sb = b["plans"][k] if k < len(b["plans"]) else None
            if sa is None or sb is None or sa[:2] + sa[4:] != sb[:2] + sb[4:]:
                return {"select_id": a["select_id"], "what": "step", "step": k}
        if a["best_join_order"] != b["best_join_order"]:
            return {"select_id": a["select_id"], "what": "order", "step": None}
        if a["semijoin"] != b["semijoin"]:
            return {"select_id": a["select_id"], "what": "semijoin", "step": None}
    return None


def chosen_path(block):
    if block["chosen_step"] is None:
        return block["best_join_order"]
    return list(paths(block))[block["chosen_step"]][0]


def other(block, of):
    order = chosen_path(of) if of is not None else None
    if block is None or not order:
        return None
    i, n = find(block, order)
    if i < 0:
        return None
    s = block["plans"][i]
    return {"tables": n, "cost": s[3], "outcome": s[4]}


def expected_of(old, new):
    out = {"part": part(old, new), "blocks": []}
    ids = [b["select_id"] for b in old["blocks"]]
    ids += [b["select_id"] for b in new["blocks"] if b["select_id"] not in ids]
    for sid in ids:
        a = next((b for b in old["blocks"] if b["select_id"] == sid), None)
        b = next((b for b in new["blocks"] if b["select_id"] == sid), None)
        out["blocks"].append({
            "select_id": sid,
            "old_order": a["best_join_order"] if a else None, "old_cost": a["cost"] if a else None,
            "new_order": b["best_join_order"] if b else None, "new_cost": b["cost"] if b else None,
            "new_order_in_old": other(a, b),
            "old_order_in_new": other(b, a)})
    return out


def main():
    expected = {}
    for q in QUERIES:
        sums = {}
        for side in ("on", "off"):
            with gzip.open(os.path.join(HERE, "%s-%s.json.gz" % (side, q)), "rt") as f:
                sums[side] = summarize(f.read().rstrip("\n"))
        expected[q] = {"old": sums["on"], "new": sums["off"],
                       "compare": expected_of(sums["on"], sums["off"])}
    for q in ONE_SIDE:
        with gzip.open(os.path.join(HERE, "on-%s.json.gz" % q), "rt") as f:
            expected[q] = {"old": summarize(f.read().rstrip("\n"))}
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
        f.write("\n")
    for side, name in (("old", "on"), ("new", "off")):
        with open(os.path.join(HERE, "..", "explain", "dec-%s.json" % name)) as f:
            doc = json.load(f)
        doc["plan"]["optimizer_trace"] = True
        for q in doc["queries"]:
            if q["id"] in IN_RESULTS:
                for r in q["restarts"]:
                    r["optimizer_trace"] = expected[q["id"]][side]
        with open(os.path.join(HERE, "trace-%s.json" % name), "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
