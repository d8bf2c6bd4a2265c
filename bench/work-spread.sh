#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The spread of the work counters per query (docs/work.md): `dbt3stab run` with RESTARTS restarts
# of the 22 queries (1 warm-up, RUNS measured) on a loaded instance, then bench/work_spread.py on
# the result. Counts are not disturbed by the host's load, so this may run on a busy machine.
# usage: bench/work-spread.sh DATADIR SF OUT.json [RESTARTS=3] [RUNS=3]
#   e.g. bench/work-spread.sh /work/inst-work/sf01 0.1 bench/data/work-20261203/spread-sf0.1.json
set -eu
dir=$1 sf=$2 out=$3 restarts=${4:-3} runs=${5:-3}
here=$(cd "$(dirname "$0")" && pwd)
bin=${DBT3STAB:-$here/../build/commands/dbt3stab}
"$bin" run --datadir "$dir" -s "$sf" -o "$out" --restarts "$restarts" --warmup 1 --runs "$runs" \
  --no-pin --quiet >/dev/null
python3 "$here/work_spread.py" "$out"
