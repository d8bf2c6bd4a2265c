#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Makes the seed corpus of tests/fuzz/corpus from real result files (gzipped, format_version 1):
a few queries of each, kept as the writer wrote them (members, order, plan text), so the fuzzer
starts from what `run` really produces. The corpus is committed; this records how it was made.
real-work-sf0.01-q3.json (work counters, issue 29) is Q3 of a 2-restart `run` at SF 0.01 of
2026-12-03, cut by hand: the measurement files above predate the work counters.

usage: make_corpus.py MEASUREMENTS_DIR OUT_DIR   (e.g. /work/shared/measurements tests/fuzz/corpus)
       make_corpus.py --hostile OUT_DIR           (only the hostile-*.json seeds, from OUT_DIR's)
"""
import gzip
import json
import os
import sys

# (source file, queries kept, restarts kept or None for all, checkpoint: finished_at null)
SEEDS = [
    ("quickstart-2warmup", ["Q6"], None, False),
    ("bufferpool-1g", ["Q1", "Q14"], 2, False),
    ("aa-idle-a", ["Q3"], 2, True),
]


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    src, out = argv[1], argv[2]
    if src == "--hostile":
        hostile_seeds(out)
        return 0
    os.makedirs(out, exist_ok=True)
    for name, queries, restarts, checkpoint in SEEDS:
        with gzip.open(os.path.join(src, name + ".json.gz"), "rt", encoding="utf-8") as f:
            d = json.load(f)
        d["queries"] = [q for q in d["queries"] if q["id"] in queries]
        for q in d["queries"]:
            if restarts is not None:
                q["restarts"] = q["restarts"][:restarts]
        if checkpoint:
            d["finished_at"] = None
        tag = "-".join(queries).lower() + ("-checkpoint" if checkpoint else "")
        path = os.path.join(out, f"real-{name}-{tag}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(d, f, indent=1, ensure_ascii=False)
            f.write("\n")
        print(path, os.path.getsize(path))
    hostile_seeds(out)
    return 0


# Issue 30 (F9): text a terminal or Markdown would act on, in the strings the reader keeps and
# in a query id, which it refuses.
HOSTILE = "\x1b]0;pwned\x07\rQ1 regression\n<script>x</script>|\x7f\u009b2J"


def hostile_seeds(out):
    with open(os.path.join(out, "real-quickstart-2warmup-q6.json"), encoding="utf-8") as f:
        d = json.load(f)
    d["label"] = HOSTILE
    d["host"]["name"] = "<b>" + HOSTILE
    seeds = {"hostile-label-host.json": d}
    e = json.loads(json.dumps(d))
    e["plan"]["queries"] = ["Q6\x1b[2J"]
    e["queries"][0]["id"] = "Q6\x1b[2J"
    seeds["hostile-query-id.json"] = e
    for name, doc in seeds.items():
        path = os.path.join(out, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1, ensure_ascii=False)
            f.write("\n")
        print(path, os.path.getsize(path))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
