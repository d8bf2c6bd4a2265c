#!/usr/bin/env python3
"""The profile by function expected of small.out, from callgrind_annotate's two tables alone.

self(f): the sum of the --inclusive=no rows of f, over its files (an inlined header's lines are
a row of their own) and its recursion levels (f'2 counts as f). incl(f): the largest
--inclusive=yes row of f itself (the row of the file its callers call it in; annotate's f'2 rows
count a recursion's calls more than once and are left out). Prints "name<TAB>self<TAB>incl",
then "total<TAB>N" (PROGRAM TOTALS)."""
import re
import sys


def rows(path):
    out, on = [], False
    for line in open(path):
        if 'file:function' in line:
            on = True
            continue
        if not on or line.startswith('---'):
            continue
        if not line.strip():
            if out:
                break
            continue
        m = re.match(r'\s*([\d,]+|\.)\s+(?:\([^)]*\)\s+)?(.*?)(?:\s+\[[^\]]*\])?\s*$', line)
        cost = 0 if m.group(1) == '.' else int(m.group(1).replace(',', ''))
        name = m.group(2).split(':', 1)[1] if ':' in m.group(2) else m.group(2)
        out.append((name, cost))
    return out


def total(path):
    for line in open(path):
        m = re.match(r'\s*([\d,]+)\s+\(100.0%\)\s+PROGRAM TOTALS', line)
        if m:
            return int(m.group(1).replace(',', ''))
    raise SystemExit('no PROGRAM TOTALS')


self_rows, incl_rows = rows(sys.argv[1]), rows(sys.argv[2])
self, incl = {}, {}
for name, cost in self_rows:
    base = re.sub(r"'\d+$", '', name)
    self[base] = self.get(base, 0) + cost
for name, cost in incl_rows:
    if not re.search(r"'\d+$", name):
        incl[name] = max(incl.get(name, 0), cost)
for name in sorted(self):
    print(f'{name}\t{self[name]}\t{incl.get(name, self[name])}')
print(f'total\t{total(sys.argv[1])}')
