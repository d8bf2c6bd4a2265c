#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Merges the queries of several `run --instructions` results of one scale factor into one file
for bench/instr_spread.py: each query's restarts, from every file in the order given, renumbered
0, 1, ... (each restart of each file is its own server start, so restarts from different runs of
the same binary and data are restarts all the same). The first file's other sections are kept;
plan.queries becomes the union; plan.merged_from lists the inputs. Nothing is checked beyond the
scale factor and Valgrind's version: merge only runs of one binary, one dataset, one setting.

usage: instr_merge.py OUT.json IN.json[.gz] [...]
"""
import gzip
import json
import sys


def load(path):
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return json.load(f)


def main(out, paths):
    docs = [load(p) for p in paths]
    base = docs[0]
    sf = base["dataset"]["scale_factor"]
    vg = base["server"].get("valgrind", {}).get("version")
    queries = {}
    for path, d in zip(paths, docs):
        if d["dataset"]["scale_factor"] != sf or d["server"].get("valgrind", {}).get("version") != vg:
            sys.exit(f"instr_merge: {path}: another scale factor or Valgrind version")
        for q in d["queries"]:
            m = queries.setdefault(q["id"], dict(q, restarts=[]))
            for r in q["restarts"]:
                m["restarts"].append(dict(r, index=len(m["restarts"])))
    ids = sorted(queries, key=lambda i: int(i[1:]))
    base["queries"] = [queries[i] for i in ids]
    base["plan"]["queries"] = ids
    base["plan"]["merged_from"] = paths
    with open(out, "w") as f:
        json.dump(base, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1], sys.argv[2:])
