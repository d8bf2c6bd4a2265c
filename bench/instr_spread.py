#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Per query of a `run --instructions` result: the measured counts of each restart, the spread
between restarts at the same run position ((max - min) / min over the restarts), the spread of the
restart means, and the largest change between the measured runs of one restart.

usage: instr_spread.py RESULT.json[.gz] [...]   (the last lines summarise all files together,
over the queries with at least 2 restarts)
"""
import gzip
import json
import statistics
import sys


def main(paths):
    worst_pos, worst_mean, rows = [], [], 0
    for path in paths:
        with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
            d = json.load(f)
        print(f"{path}: {d['server'].get('valgrind', {}).get('version', '?')}, "
              f"SF {d['dataset']['scale_factor']}")
        print(f"{'query':6} {'restarts':>8} {'mean count':>14} {'pos spread %':>12} "
              f"{'mean spread %':>13} {'within %':>9} {'warm-up':>8} steady")
        for q in d["queries"]:
            counts, warm, steady = [], [], []
            for r in q["restarts"]:
                ins = r.get("instructions", {}).get("callgrind_ir")
                if ins is None:
                    continue
                n = len(r["measured_ms"])
                counts.append(ins if isinstance(ins, list) else [ins] * n)
                warm.append(len(r["warmup_ms"]))
                steady.append(r.get("instructions_steady"))
            if not counts:
                continue
            npos = min(len(c) for c in counts)
            pos = max((max(c[i] for c in counts) - min(c[i] for c in counts)) / min(c[i] for c in counts)
                      for i in range(npos))
            means = [statistics.mean(c) for c in counts]
            mean_spread = (max(means) - min(means)) / min(means)
            within = max((max(c) - min(c)) / min(c) for c in counts)
            same_warm = len(set(warm)) == 1
            print(f"{q['id']:6} {len(counts):>8} {statistics.mean(means):>14.0f} {100 * pos:>12.4f} "
                  f"{100 * mean_spread:>13.4f} {100 * within:>9.4f} "
                  f"{','.join(map(str, warm)):>8} {''.join('y' if s else 'n' for s in steady)}")
            rows += 1
            if len(counts) < 2:  # one restart has no spread between restarts
                continue
            if same_warm:
                worst_pos.append(pos)
            worst_mean.append(mean_spread)
    if worst_mean:
        print(f"queries: {rows}, with at least 2 restarts {len(worst_mean)}; restart means within 0.5%: "
              f"{sum(1 for x in worst_mean if x <= 0.005)} of {len(worst_mean)}; "
              f"median spread of the restart means {100 * statistics.median(worst_mean):.4f}%, "
              f"max {100 * max(worst_mean):.4f}%")
        if worst_pos:
            print(f"same warm-up in every restart: {len(worst_pos)} queries; same run position "
                  f"spread median {100 * statistics.median(worst_pos):.4f}%, "
                  f"max {100 * max(worst_pos):.4f}%")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1:])
