#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Statistical benchmark of `dbt3stab history check` against the naive nightly rule on synthetic
# series (bench/hist_sim.c; docs/history.md has the table and how to read it). Not a timing
# benchmark: the figures do not depend on the machine's load. Run it nice'd.
# usage: bench/history.sh [-b BUILD_DIR] [-r REPLICATES] [-s SEED] [-p MAX_P]
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build=""
reps=200
seed=20261201
maxp=0.001
while getopts "b:r:s:p:h" opt; do
	case $opt in
	b) build=$OPTARG ;;
	r) reps=$OPTARG ;;
	s) seed=$OPTARG ;;
	p) maxp=$OPTARG ;;
	*) sed -n '3,6p' "$0" | sed 's/^# //'; exit 2 ;;
	esac
done
if [ -z "$build" ]; then
	for c in "$here/build" "$here"/build-*; do
		if [ -f "$c/history/libdbt3_history.a" ]; then build=$c; break; fi
	done
fi
[ -n "$build" ] && [ -f "$build/history/libdbt3_history.a" ] || {
	echo "history.sh: no build directory with history/libdbt3_history.a (build first, or give -b DIR)" >&2
	exit 2
}
work=$(mktemp -d "${TMPDIR:-/tmp}/dbt3hist.XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2046
cc -O2 -std=c11 -D_GNU_SOURCE -DDBT3STAB_VERSION='"bench"' -I"$here" -o "$work/hist_sim" \
	"$here/bench/hist_sim.c" "$build/history/libdbt3_history.a" "$build/stats/libdbt3_stats.a" \
	"$build/result/libdbt3_result.a" "$build/base/libdbt3_base.a" \
	$(pkg-config --cflags --libs gsl sqlite3 libmariadb jansson libcrypto) -lm
echo "host: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ), commit $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?')"
nice -n 19 "$work/hist_sim" "$reps" "$seed" "$maxp"
