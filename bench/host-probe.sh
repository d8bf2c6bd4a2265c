#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The host's memory latency and clock over time, with nothing else running: bench/host_probe.c
# pinned to one PU, then per 30 s the median and the 10th/90th percentiles of each.
# usage: bench/host-probe.sh [-c PU] [-t SECONDS] [-b RING_BYTES] [-o FILE]   (docs/stability.md)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
here=$bench_root/bench
pu=1 secs=600 bytes=8388608 out=""
bench_opts "c=pu t=secs b=bytes o=out" "$@"
bench_work dbt3probe
cc -O2 -o "$work/host_probe" "$here/host_probe.c"
[ -n "$out" ] || out=$work/series.txt
echo "load average before: $(bench_loadavg)"
taskset -c "$pu" "$work/host_probe" "$secs" "$bytes" > "$out"
echo "load average after:  $(bench_loadavg)"
python3 - "$out" <<'PY'
import statistics as st, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if not l.startswith('#')]
b = {}
for t, c, a in rows:
    b.setdefault(int(t // 30), []).append((c, a))
print("   from   chase ms: median p10 p90       alu ms: median p10 p90")
for k in sorted(b):
    c = [x[0] for x in b[k]]; a = [x[1] for x in b[k]]
    if len(c) < 10:
        continue
    qc, qa = st.quantiles(c, n=10), st.quantiles(a, n=10)
    print("%5d s   %7.1f %6.1f %6.1f        %7.2f %6.2f %6.2f" %
          (30 * k, st.median(c), qc[0], qc[-1], st.median(a), qa[0], qa[-1]))
PY
