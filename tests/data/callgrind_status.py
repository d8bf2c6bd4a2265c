#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Expected totals of the callgrind "status internal" answers in tests/data, derived without
dbt3stab's code, as callgrind_control -e reads them: after the "events: Ir ..." line, each thread's
total is a line "events-TID: N ..." (lines "events-TID-FRAME: ..." are its stack frames); the total
of an answer is the sum of the threads' first event (Ir).

The answers were taken with `vgdb --vgdb-prefix=DIR/tmp/vgdb --pid=PID status internal` (2>&1, as
dbt3stab reads it) from MariaDB 10.11.19 under Valgrind 3.19.0 callgrind (--toggle-collect=
'dispatch_command*'), SF 0.01, 2026-12-03: `callgrind_status_idle.txt` right after the server
started, `callgrind_status_q6.txt` after `vgdb zero` and one execution of Q6.

usage: callgrind_status.py tests/data/callgrind_status_*.txt > tests/data/callgrind_status_ref.inc
"""
import os
import re
import sys

print("/* made by tests/data/callgrind_status.py */")
print("static const struct { const char *file; long long total; int threads; } callgrind_ref[] = {")
for path in sys.argv[1:]:
    total = threads = 0
    seen_header = False
    for line in open(path):
        if line.startswith("events:"):
            assert line.split()[1] == "Ir"
            seen_header = True
        m = re.match(r"events-(\d+): (\d+)", line)
        if seen_header and m:
            total += int(m.group(2))
            threads += 1
    print(f'    {{"{os.path.basename(path)}", {total}LL, {threads}}},')
print("};")
