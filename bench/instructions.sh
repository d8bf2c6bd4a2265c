#!/usr/bin/env bash
# The spread of `run --instructions` counts (issue 29): one run of R restarts over the queries at
# scale factor SF, the server under Valgrind callgrind; bench/instr_spread.py then prints per
# query the counts' spread between restarts (same run position) and between the measured runs of
# one restart, and the figures docs/work.md quotes. Instruction counts do not depend on the load,
# so this may run on a busy machine; its wall times do (bench/instr-slowdown.sh measures those).
#
# usage: bench/instructions.sh [-b BUILD_DIR] [-s SF] [-r RESTARTS] [-w WARMUP] [-n RUNS]
#                              [-q QUERIES] -o OUT.json [-- server options, e.g. --datadir DIR]
#   defaults: -s 0.01 -r 3 -w 10 -n 2 -q 1-22; without --datadir a private instance is made in a
#   temp dir (server init + load -s SF) and removed at the end.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build= sf=0.01 restarts=3 warmup=10 runs=2 queries=1-22 out=
bench_opts "b=build s=sf r=restarts w=warmup n=runs q=queries o=out" "$@"
shift "$bench_shift"
[ -n "$out" ] || bench_die "-o OUT.json is required"
bench_build commands/dbt3stab
srv=("$@")
bench_work dbt3-instructions
bench_instance "$sf"
echo "load before: $(bench_loadavg)  valgrind: $(valgrind --version)"
start=$(date +%s)
"$bin" run -s "$sf" --instructions --restarts "$restarts" --warmup "$warmup" --runs "$runs" \
	--queries "$queries" -o "$out" --force --no-table --quiet "${srv[@]}"
echo "load after: $(bench_loadavg)  wall: $(( $(date +%s) - start )) s"
python3 "$bench_root/bench/instr_spread.py" "$out"
