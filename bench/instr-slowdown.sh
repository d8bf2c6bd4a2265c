#!/usr/bin/env bash
# Callgrind's slowdown (issue 29), for a quiet machine: the same queries with and without
# `run --instructions` on one instance, one restart each (the same warm-up and runs), and per
# query the ratio of the mean measured execution times (instructions / plain). Timings: run it on
# an idle machine only; the load average before and after is printed.
#
# usage: bench/instr-slowdown.sh [-b BUILD_DIR] [-s SF] [-q QUERIES] [-w WARMUP] [-n RUNS]
#                                -o OUTDIR [-- server options, e.g. --datadir DIR]
#   defaults: -s 0.01 -q 1-22 -w 3 -n 3; without --datadir a private instance is made in a temp
#   dir (server init + load -s SF) and removed at the end.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build= sf=0.01 queries=1-22 warmup=3 runs=3 out=
bench_opts "b=build s=sf q=queries w=warmup n=runs o=out" "$@"
shift "$bench_shift"
[ -n "$out" ] || bench_die "-o OUTDIR is required"
mkdir -p "$out"
bench_build commands/dbt3stab
srv=("$@")
bench_work dbt3-slowdown
bench_instance "$sf"
common=(-s "$sf" --restarts 1 --warmup "$warmup" --runs "$runs" --queries "$queries" --force
	--no-table --quiet)
echo "load before: $(bench_loadavg)"
t0=$(date +%s)
"$bin" run "${common[@]}" -o "$out/plain.json" "${srv[@]}"
t1=$(date +%s)
# --warmup is a maximum with --instructions (it ends once the count is steady)
"$bin" run "${common[@]}" --instructions -o "$out/callgrind.json" "${srv[@]}"
t2=$(date +%s)
echo "load after: $(bench_loadavg); plain $((t1 - t0)) s, callgrind $((t2 - t1)) s"
python3 - "$out/plain.json" "$out/callgrind.json" <<'PY'
import json, statistics, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
mean = lambda q: statistics.mean(q["restarts"][0]["measured_ms"])
bq = {q["id"]: q for q in b["queries"]}
ratios = []
print(f"{'query':6} {'plain ms':>10} {'callgrind ms':>13} {'slowdown':>9}")
for q in a["queries"]:
    if q["id"] in bq and q["restarts"] and bq[q["id"]]["restarts"]:
        x, y = mean(q), mean(bq[q["id"]])
        ratios.append(y / x)
        print(f"{q['id']:6} {x:10.1f} {y:13.1f} {y / x:9.1f}")
print(f"median slowdown {statistics.median(ratios):.1f}x (min {min(ratios):.1f}, max {max(ratios):.1f})")
PY
