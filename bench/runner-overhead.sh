#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The runner's own cost per execution on a trivial query (SELECT 1) against the bare
# mysql_real_query loop in C, on a private server in a temp dir (started and stopped here), and
# the cost of one memory-contention probe (bench/memprobe_cost.c).
# usage: bench/runner-overhead.sh [-b BUILD_DIR] [-n EXECUTIONS] [-r ROUNDS] [-q SQL]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

here=$bench_root
build=""
n=20000
rounds=5
sql="SELECT 1"
bench_opts "b=build n=n r=rounds q=sql" "$@"
bench_build runner/libdbt3_protocol.a
bench_work dbt3overhead
srv=(--datadir "$work/inst")
bench_own=1 # stopped on exit
inst=$work/inst

# shellcheck disable=SC2046
cc -O2 -std=c11 -D_GNU_SOURCE -I"$here" -o "$work/bare_loop" "$here/bench/bare_loop.c" \
	"$build/runner/libdbt3_protocol.a" "$build/pinning/libdbt3_pin.a" \
	"$build/server/libdbt3_server.a" \
	"$build/result/libdbt3_result.a" "$build/base/libdbt3_base.a" \
	$(pkg-config --cflags --libs libmariadb jansson libcrypto hwloc) -lpthread -lm

port=$(bench_free_port 2>/dev/null || echo 23999)
"$bin" server init --datadir "$inst" --port "$port" -q
"$bin" server start --datadir "$inst" --port "$port" --scale 0.01 -q

echo "host: $(nproc) CPUs, load average $(bench_loadavg), $(date -u +%FT%TZ)"
"$work/bare_loop" "$inst/client.cnf" "$n" "$rounds" "$sql"

# The memory-contention probe `run` takes between two queries (outside every timed window):
# its whole cost per probe, on the server's PU (the PU `run` moves the client to for it).
cc -O2 -std=c11 -D_GNU_SOURCE -I"$here" -o "$work/memprobe_cost" "$here/bench/memprobe_cost.c" \
	"$build/runner/libdbt3_protocol.a" "$build/base/libdbt3_base.a" \
	$(pkg-config --cflags --libs libcrypto) -lm
taskset -c "$(($(nproc) > 1 ? 1 : 0))" "$work/memprobe_cost" 200
