#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Timing: the refresh snapshot of a loaded instance (docs/server.md, "Snapshot"): N rounds of
# taking it (a reflink or copy clone of DIR/data) and restoring it (renames, then the removal of
# the replaced data), on the stopped instance, with the load average before and after.
# usage: bench/snapshot.sh -d DATADIR [-n ROUNDS] [-b BUILD_DIR]
#   -d DATADIR  an instance already loaded (`dbt3stab load -s SF --datadir DATADIR`), stopped
#   -n ROUNDS   rounds of take + restore (default 3)
# Needs: a build dir with the static libraries (scripts/build), cc, pkg-config for libmariadb,
# jansson, libcrypto, hwloc. Run it as root on an idle machine.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_opts "d=datadir n=rounds b=build k!=keep" "$@"
[[ -n ${datadir-} ]] || { bench_usage >&2; exit 2; }
bench_count -n "${rounds:-3}"
rounds=${rounds:-3}
bench_build runner/libdbt3_protocol.a
bench_work snapshot
here=$bench_root
libs=()
for l in server/libdbt3_server.a result/libdbt3_result.a base/libdbt3_base.a; do
	libs+=("$build/$l")
done
cc -O2 -std=c11 -D_GNU_SOURCE -I"$here" -o "$work/snapshot_cost" "$here/bench/snapshot_cost.c" \
	"${libs[@]}" $(pkg-config --cflags --libs libmariadb jansson libcrypto hwloc) -lm
"$bin" server stop --datadir "$datadir" -q 2>/dev/null || true
echo "host: $(nproc) CPUs, load average $(bench_loadavg), $(date -u +%FT%TZ)"
du -sh "$datadir/data"
"$work/snapshot_cost" "$datadir" "$rounds"
echo "load average after: $(bench_loadavg)"
