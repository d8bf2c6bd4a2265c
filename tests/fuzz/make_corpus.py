#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Makes the seed corpus of tests/fuzz/corpus from real result files (gzipped, format_version 1):
a few queries of each, kept as the writer wrote them (members, order, plan text), so the fuzzer
starts from what `run` really produces. The corpus is committed; this records how it was made.

usage: make_corpus.py MEASUREMENTS_DIR OUT_DIR   (e.g. /work/shared/measurements tests/fuzz/corpus)
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
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
