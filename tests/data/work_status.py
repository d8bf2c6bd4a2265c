#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Expected work counts of tests/data/work_status.tsv, derived without dbt3stab's code.

The TSV is five readings of SHOW SESSION STATUS WHERE Variable_name IN (the 19 counters) on one
session of MariaDB 10.11.19 at SF 0.01 (2026-12-03): readings 0, 1, 2 back to back, then Q3,
reading 3, Q3 again, reading 4 (columns: reading, name, value). A reading's own cost is the
difference of two consecutive readings with nothing between (1-0, equal to 2-1); an execution's
work is the difference around it minus that cost.

usage: work_status.py tests/data/work_status.tsv > tests/data/work_status_ref.inc
"""
import collections
import sys

r = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    k, name, v = line.rstrip("\n").split("\t")
    r[int(k)][name] = int(v)
names = sorted(r[0])
off = {n: r[1][n] - r[0][n] for n in names}
assert all(r[2][n] - r[1][n] == off[n] for n in names)
print("/* made by tests/data/work_status.py from tests/data/work_status.tsv */")
print("static const struct { const char *name; long long offset, q3_first, q3_second; } work_ref[] = {")
for n in names:
    print(f'    {{"{n}", {off[n]}, {r[3][n] - r[2][n] - off[n]}, {r[4][n] - r[3][n] - off[n]}}},')
print("};")
