#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The three orders of bench/schedule_proto.c on a loaded instance, rotated restart by restart
# (b r s, r s b, s b r, ...), the server pinned to PU 1 and the client to PU 0; then the
# analysis (bench/schedule_an.py). Nothing else should run meanwhile.
# usage: bench/schedule-proto.sh -d DATADIR [-n ROUNDS] [-m "b r s"] [-o OUT] [-b BUILD]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
here=$bench_root
datadir="" rounds=8 modes="b r s" out="" build="$here/build"
bench_opts "d=datadir n=rounds m=modes o=out b=build" "$@"
[ -n "$datadir" ] || bench_die "-d DATADIR (a loaded SF instance) is required"
bin=$build/commands/dbt3stab
bench_work dbt3sched
srv=(--datadir "$datadir")
bench_own=1 # stopped on exit
# shellcheck disable=SC2046
cc -O2 -o "$work/schedule_proto" "$here/bench/schedule_proto.c" $(mariadb_config --cflags --libs)
"$bin" queries -o "$work/q" >/dev/null
[ -n "$out" ] || out=$work/schedule.txt
: > "$out"
read -r -a rot <<< "$modes"
k=${#rot[@]}
for ((i = 0; i < rounds; i++)); do
	for ((j = 0; j < k; j++)); do
		m=${rot[$(( (i + j) % k ))]}
		"$bin" server start --datadir "$datadir" -q >/dev/null
		taskset -a -p -c 1 "$(cat "$datadir/mysqld.pid")" >/dev/null
		echo "# restart $i $m $(date +%T) load $(bench_loadavg)" >> "$out"
		taskset -c 0 "$work/schedule_proto" "$datadir/client.cnf" "$work/q" "$m" 8 10 "$i" >> "$out"
		"$bin" server stop --datadir "$datadir" -q >/dev/null
	done
done
echo "# end $(date +%T) load $(bench_loadavg)" >> "$out"
python3 "$here/bench/schedule_an.py" "$out"
