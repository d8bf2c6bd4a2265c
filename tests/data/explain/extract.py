#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Extracts the EXPLAIN FORMAT=JSON fixtures of this folder from the stored benchmark results.

Each file NAME.json is the `plan` text of a restart exactly as the result file stores it (what
the server printed), and sha256.tsv lists each file with the `plan_sha256` the run stored for it.
Sources (SF 0.1, MariaDB 10.11; old = the default optimizer_switch, new = semijoin=off):
  ab-Q*-{old,new}.json   bench/data/sbs-20261203/sbs-ab-1.tar.xz (a.json, b.json), restart 0
  aa-Q*-{old,new}.json   bench/data/sbs-20261203/sbs-aa-1.tar.xz (a.json, b.json: same build)
  dec-Q*-{old,new}.json  bench/data/work-decision-20261203/results.tar.xz
                         (decision/work/on.json, off.json)
  dec-on.json, dec-off.json  those two result files whole (tests/cli/compare_plan.sh)
Run from anywhere: python3 tests/data/explain/extract.py
"""
import json
import os
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
QUERIES = ["Q4", "Q18", "Q20", "Q21"]
SOURCES = [
    ("ab", "bench/data/sbs-20261203/sbs-ab-1.tar.xz", "sbs-ab-1/a.json", "sbs-ab-1/b.json",
     QUERIES),
    ("aa", "bench/data/sbs-20261203/sbs-aa-1.tar.xz", "sbs-aa-1/a.json", "sbs-aa-1/b.json",
     QUERIES),
    ("dec", "bench/data/work-decision-20261203/results.tar.xz", "decision/work/on.json",
     "decision/work/off.json", ["Q4", "Q20", "Q21"]),
]


def member(tar, name):
    return json.load(tar.extractfile(name))


def main():
    rows = []
    for prefix, archive, old, new, queries in SOURCES:
        with tarfile.open(os.path.join(ROOT, archive)) as tar:
            files = {"old": member(tar, old), "new": member(tar, new)}
            if prefix == "dec":
                for name, side in (("dec-on.json", old), ("dec-off.json", new)):
                    with open(os.path.join(HERE, name), "wb") as f:
                        f.write(tar.extractfile(side).read())
        for side, doc in files.items():
            by_id = {q["id"]: q for q in doc["queries"]}
            for qid in queries:
                r = by_id[qid]["restarts"][0]
                name = "%s-%s-%s.json" % (prefix, qid, side)
                with open(os.path.join(HERE, name), "w") as f:
                    f.write(r["plan"])
                rows.append((name, r["plan_sha256"]))
    with open(os.path.join(HERE, "sha256.tsv"), "w") as f:
        for name, sha in sorted(rows):
            f.write("%s\t%s\n" % (name, sha))


if __name__ == "__main__":
    main()
