#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the always-on work counters cost a restart (issue 29, docs/work.md): the time of one
# reading of the session's status (bench/work_read_cost.c, interleaved with SELECT 1 round trips
# on a private server started and stopped here), times the readings a restart of a result file
# takes, against that restart's wall time (the file's verdict_cost.restart_s). The readings lie
# outside every timed window (runner/run_work.h); this is their share of the wall time.
# A timing benchmark: run it on an idle machine.
# usage: bench/work-overhead.sh [-b BUILD_DIR] [-n READINGS] [-r ROUNDS] [-f RESULT.json[.xz]]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
here=$bench_root
build= n=2000 rounds=11
file=$here/bench/data/quickstart-20261203-quiet/result.json.xz
bench_opts "b=build n=n r=rounds f=file" "$@"
bench_build runner/libdbt3_protocol.a
[ -r "$file" ] || bench_die "cannot read $file"
bench_work dbt3-workcost
srv=(--datadir "$work/inst")
bench_own=1 # stopped on exit
inst=$work/inst
# shellcheck disable=SC2046
cc -O2 -std=c11 -D_GNU_SOURCE -I"$here" -o "$work/work_read_cost" "$here/bench/work_read_cost.c" \
	"$build/runner/libdbt3_protocol.a" "$build/result/libdbt3_result.a" \
	"$build/base/libdbt3_base.a" $(pkg-config --cflags --libs libmariadb jansson libcrypto) -lm
"$bin" server init --datadir "$inst" -q
"$bin" server start --datadir "$inst" --scale 0.01 -q
echo "host: $(nproc) CPUs, load average $(bench_loadavg), $(date -u +%FT%TZ)"
# client on one PU, server wherever it is: the reading's cost is a round trip
"$work/work_read_cost" "$inst/client.cnf" "$n" "$rounds" | tee "$work/cost.txt"
echo "load average after: $(bench_loadavg)"
us=$(sed -n 's/^reading_us //p' "$work/cost.txt")
python3 - "$file" "$us" <<'PY'
import json, lzma, sys
path, us = sys.argv[1], float(sys.argv[2])
opener = lzma.open if path.endswith(".xz") else open
with opener(path, "rt") as f:
    d = json.load(f)
restart_s = (d.get("verdict_cost") or {}).get("restart_s")
if not restart_s:
    sys.exit("work-overhead: the file has no verdict_cost.restart_s")
# per restart: for each query, one reading before its first execution and one after each
# execution, plus the three readings that open a session (run_work_open; at most one session per
# query): an upper bound on the readings a restart sends
per = {}
for q in d["queries"]:
    for e in q["restarts"]:
        if e.get("status") != "ok":
            continue
        execs = len(e.get("warmup_ms") or []) + len(e.get("measured_ms") or [])
        per[e["index"]] = per.get(e["index"], 0) + execs + 1 + 3
readings = max(per.values())
cost_s = readings * us / 1e6
print(f"result file: {path}: SF {d['dataset']['scale_factor']}, one restart {restart_s:.1f} s,"
      f" at most {readings} readings a restart")
print(f"work counters: {readings} x {us:.1f} us = {cost_s * 1e3:.1f} ms a restart,"
      f" {100 * cost_s / restart_s:.3f} % of its wall time (target: below 1 %)")
PY
