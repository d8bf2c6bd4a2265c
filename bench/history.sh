#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Statistical benchmark of `dbt3stab history check` against the naive nightly rule on synthetic
# series (bench/hist_sim.c; docs/history.md has the table and how to read it). Not a timing
# benchmark: the figures do not depend on the machine's load. Run it nice'd.
# usage: bench/history.sh [-b BUILD_DIR] [-r REPLICATES] [-s SEED] [-p MAX_P]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

here=$bench_root
build=""
reps=200
seed=20261201
maxp=0.001
bench_opts "b=build r=reps s=seed p=maxp" "$@"
bench_build history/libdbt3_history.a
bench_work dbt3hist
# shellcheck disable=SC2046
cc -O2 -std=c11 -D_GNU_SOURCE -DDBT3STAB_VERSION='"bench"' -I"$here" -o "$work/hist_sim" \
	"$here/bench/hist_sim.c" "$build/history/libdbt3_history.a" "$build/stats/libdbt3_stats.a" \
	"$build/result/libdbt3_result.a" "$build/base/libdbt3_base.a" \
	$(pkg-config --cflags --libs gsl sqlite3 libmariadb jansson libcrypto) -lm
echo "host: $(nproc) CPUs, load average $(bench_loadavg), $(date -u +%FT%TZ), commit $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?')"
nice -n 19 "$work/hist_sim" "$reps" "$seed" "$maxp"
