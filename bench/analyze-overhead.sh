#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Timing: what the per-table actuals (one ANALYZE FORMAT=JSON per query and restart, docs/explain.md,
# "Where the rows went") add to a run's wall time: `run` with and without `--no-analyze`, in turn
# (A B A B ...), on one loaded instance; each run's wall time, the medians and the ratio of each
# pair, with the load average before and after.
# usage: bench/analyze-overhead.sh -d DATADIR -s SF [-n PAIRS] [-b BUILD_DIR] [-- run options]
#   -d DATADIR  an instance already loaded at SF (`dbt3stab load -s SF --datadir DATADIR`)
#   -s SF       its scale factor
#   -n PAIRS    pairs of runs (default 3)
#   run options default to `--restarts 1 --warmup 2 --runs 3` (the short end of a budgeted run's
#   executions per query, where the extra execution weighs most)
# Needs: a build (scripts/build), mariadbd. Run it on an idle machine.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_opts "d=datadir s=sf n=pairs b=build k!=keep" "$@"
shift "$bench_shift"
[[ -n ${datadir-} && -n ${sf-} ]] || { bench_usage >&2; exit 2; }
pairs=${pairs:-3}
bench_count -n "$pairs"
opts=("$@")
[[ ${#opts[@]} -gt 0 ]] || opts=(--restarts 1 --warmup 2 --runs 3)
bench_build commands/dbt3stab
bench_work analyze

one() { # label, extra options: prints the wall seconds
	local t0 t1
	t0=$(bench_now)
	"$bin" run -s "$sf" --datadir "$datadir" -o "$work/$1.json" "${opts[@]}" "${@:2}" -q \
		>"$work/$1.log" 2>&1 || bench_die "run $1 failed: $(tail -1 "$work/$1.log")"
	t1=$(bench_now)
	[[ -n ${keep-} ]] && mv "$work/$1.json" "$work/$1.$(bench_now).json" || rm -f "$work/$1.json"
	echo "$t0 $t1" | awk '{printf "%.2f", $2 - $1}'
}

echo "host: $(nproc) CPUs, load average $(bench_loadavg), $(date -u +%FT%TZ)"
echo "run options: ${opts[*]}"
echo "pair  with_s  without_s  ratio"
with=() without=()
for ((i = 1; i <= pairs; i++)); do
	a=$(one with)
	b=$(one without --no-analyze)
	with+=("$a") without+=("$b")
	echo "$i  $a  $b  $(echo "$a $b" | awk '{printf "%.4f", $1 / $2}')"
done
med() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print v[int((NR + 1) / 2)]}'; }
mw=$(med "${with[@]}") mo=$(med "${without[@]}")
echo "median: with $mw s, without $mo s, ratio $(echo "$mw $mo" | awk '{printf "%.4f", $1 / $2}')"
echo "load average after: $(bench_loadavg)"
