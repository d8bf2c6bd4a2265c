#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The runner's own cost per execution on a trivial query (SELECT 1) against the bare
# mysql_real_query loop in C, on a private server in a temp dir (started and stopped here), and
# the cost of one memory-contention probe (bench/memprobe_cost.c).
# usage: bench/runner-overhead.sh [-b BUILD_DIR] [-n EXECUTIONS] [-r ROUNDS] [-q SQL]
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build=""
n=20000
rounds=5
sql="SELECT 1"
while getopts "b:n:r:q:h" opt; do
	case $opt in
	b) build=$OPTARG ;;
	n) n=$OPTARG ;;
	r) rounds=$OPTARG ;;
	q) sql=$OPTARG ;;
	*) sed -n '3,6p' "$0" | sed 's/^# //'; exit 2 ;;
	esac
done
if [ -z "$build" ]; then
	for c in "$here/build" "$here"/build-*; do
		if [ -x "$c/commands/dbt3stab" ] && [ -f "$c/runner/libdbt3_protocol.a" ]; then build=$c; break; fi
	done
fi
[ -n "$build" ] && [ -x "$build/commands/dbt3stab" ] || {
	echo "runner-overhead.sh: no build directory with dbt3stab (build first, or give -b DIR)" >&2
	exit 2
}
bin=$build/commands/dbt3stab

work=$(mktemp -d "${TMPDIR:-/tmp}/dbt3overhead.XXXXXX")
chmod 711 "$work" # as root, the server runs as 'mysql' and must reach the instance in here
inst=$work/inst
cleanup() {
	"$bin" server stop --datadir "$inst" -q >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

# shellcheck disable=SC2046
cc -O2 -std=c11 -D_GNU_SOURCE -I"$here" -o "$work/bare_loop" "$here/bench/bare_loop.c" \
	"$build/runner/libdbt3_protocol.a" "$build/pinning/libdbt3_pin.a" \
	"$build/server/libdbt3_server.a" \
	"$build/result/libdbt3_result.a" "$build/base/libdbt3_base.a" \
	$(pkg-config --cflags --libs libmariadb jansson libcrypto hwloc) -lpthread -lm

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null || echo 23999)
"$bin" server init --datadir "$inst" --port "$port" -q
"$bin" server start --datadir "$inst" --port "$port" --scale 0.01 -q

echo "host: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
"$work/bare_loop" "$inst/client.cnf" "$n" "$rounds" "$sql"

# The memory-contention probe `run` takes between two queries (outside every timed window):
# its whole cost per probe, on the server's PU (the PU `run` moves the client to for it).
cc -O2 -std=c11 -D_GNU_SOURCE -I"$here" -o "$work/memprobe_cost" "$here/bench/memprobe_cost.c" \
	"$build/runner/libdbt3_protocol.a" "$build/base/libdbt3_base.a" \
	$(pkg-config --cflags --libs libcrypto) -lm
taskset -c "$(($(nproc) > 1 ? 1 : 0))" "$work/memprobe_cost" 200
