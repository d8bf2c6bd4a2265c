#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Times 'dbt3stab gen' at 1 and 2 threads with /usr/bin/time -v and prints a table.
# usage: bench/gen.sh [-b DBT3STAB] [-s SF] [-j "1 2"] [-o DIR]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

bin=""
sf=1
threads="1 2"
out=""
bench_opts "b=bin s=sf j=threads o=out" "$@"
[ -n "$bin" ] || bench_build commands/dbt3stab
[ -x "$bin" ] || bench_die "no dbt3stab binary (give -b PATH)"
[ -x /usr/bin/time ] || bench_die "/usr/bin/time is missing (apt-get install time)"

work=$(mktemp -d "${out:-${TMPDIR:-/tmp}}/dbt3gen.XXXXXX")
trap 'rm -rf "$work"' EXIT

load=$(bench_loadavg)
rows=()
for j in $threads; do
	rm -rf "$work/data"
	/usr/bin/time -v -o "$work/time" "$bin" gen -s "$sf" -j "$j" -q -o "$work/data"
	bytes=$(stat -c %s "$work"/data/*.tbl | awk '{ s += $1 } END { print s }')
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {
		n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$work/time")
	user=$(awk -F': ' '/User time/ {print $2}' "$work/time")
	sys=$(awk -F': ' '/System time/ {print $2}' "$work/time")
	rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$work/time")
	mbs=$(awk -v b="$bytes" -v w="$wall" 'BEGIN { printf "%.0f", (w > 0 ? b / 1e6 / w : 0) }')
	rows+=("$(printf '| %7s | %7s | %7.2f | %7.2f | %7.2f | %7s | %11s |' "$sf" "$j" "$wall" "$user" "$sys" "$mbs" "$rss")")
done

echo "dbt3stab gen, $(nproc) CPUs, load average before: $load"
echo "| SF      | threads | wall s  | user s  | sys s   | MB/s    | peak RSS MiB |"
echo "|---------|---------|---------|---------|---------|---------|-------------|"
printf '%s\n' "${rows[@]}"
