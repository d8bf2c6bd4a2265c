#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The fixed protocol against the budgeted sequential one in the same wall time.
#
# Part 1 (synthetic, this script): result files drawn by bench/protocol_gen.py from the variance
# components and warm-up shapes measured on this machine (tests/data/mc_calib.inc), analysed by
# the real `dbt3stab compare`:
#   fixed:      5 restarts a side, 8 warm-up + 10 measured executions, `compare` (defaults)
#   sequential: K pairs of shorter restarts (4 warm-up + 3 measured: the transient's tail stays in
#               the measured runs), `compare --sequential --max-pairs K`, paired (one
#               interleaved run, ABBA order)
# K (default 10) is what fits in the fixed protocol's wall time: a restart of the fixed protocol
# costs C0 + 18 passes of the 22 queries, a budgeted one C0 + 7 passes (+ the adaptive warm-up's
# extra passes); with C0 about 2 passes (server start, stop, cold caches at SF 0.1-1) that is
# 20 / 9.5, a factor of 2.1: 5 x 2.1 = 10 pairs. Set K to your own ratio.
# Reported per scenario: share of replicates with a false regression among the 22 queries (A/A),
# power for one query slowed by X at restart sd Y (the other 21 unchanged), the mean pairs until
# that query was decided, and the share of queries decided.
#
# Part 2 (the real private server at SF 0.1, an A/A and an A/B with an optimizer setting) is
# bench/protocol-server.sh.
#
# usage: bench/protocol.sh [REPS] [K]     (REPS replicates per scenario, default 200; writes
#        nothing outside a temp dir; prints a Markdown table). Env DBT3STAB: the binary
#        (default build/commands/dbt3stab). Not a timing benchmark: no figure depends on the load.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${DBT3STAB:-$here/../build/commands/dbt3stab}
reps=${1:-200}
k=${2:-10}
py=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# verdicts: prints "<regressions> <improvements> <decided> <q0 verdict> <q0 decided after>"
verdicts() {
	"$py" - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
qs = d["queries"]
reg = sum(q["verdict"] == "regression" for q in qs)
imp = sum(q["verdict"] == "improvement" for q in qs)
dec = sum(q["verdict"] in ("regression", "improvement", "unchanged") for q in qs)
q0 = next(q for q in qs if q["id"] == "Q1")
seq = q0.get("sequential") or {}
print(reg, imp, dec, q0["verdict"], seq.get("decided_after_pairs") or "-")
EOF
}

# one scenario: name, effect on Q1 (factor), sd of Q1 (empty: measured), drift
scenario() {
	local name=$1 effect=$2 sd=$3 drift=$4
	local fa=0 sa=0 fp=0 sp=0 pairs=0 ndec=0 fdec=0
	local args=(--queries "$(seq -s, 1 22 | sed 's/\([0-9]*\)/Q\1/g')" --drift "$drift")
	[ -n "$sd" ] && args+=(--sd "Q1=$sd")
	for ((r = 1; r <= reps; r++)); do
		"$py" "$here/protocol_gen.py" "$tmp/fo.json" "$tmp/fn.json" --pairs 5 --warmup 8 \
			--runs 10 --seed "$r" --noise-seed $((r + 100000)) --effect "Q1=$effect" \
			"${args[@]}"
		"$py" "$here/protocol_gen.py" "$tmp/so.json" "$tmp/sn.json" --pairs "$k" --warmup 4 \
			--runs 3 --seed "$r" --noise-seed $((r + 200000)) --effect "Q1=$effect" \
			--max-pairs "$k" "${args[@]}"
		"$bin" compare "$tmp/fo.json" "$tmp/fn.json" --format json --quiet >"$tmp/f.out" || true
		"$bin" compare "$tmp/so.json" "$tmp/sn.json" --sequential --max-pairs "$k" \
			--format json --quiet >"$tmp/s.out" || true
		read -r freg _ fd fq0 _ < <(verdicts "$tmp/f.out")
		read -r sreg _ sd_ sq0 sat < <(verdicts "$tmp/s.out")
		if [ "$effect" = 1 ]; then
			fa=$((fa + (freg > 0))) sa=$((sa + (sreg > 0)))
		else
			[ "$fq0" = regression ] && fp=$((fp + 1))
			[ "$sq0" = regression ] && sp=$((sp + 1))
		fi
		[ "$sat" = - ] && sat=$k
		pairs=$((pairs + sat)) ndec=$((ndec + sd_)) fdec=$((fdec + fd))
	done
	awk -v n="$name" -v r="$reps" -v fa="$fa" -v sa="$sa" -v fp="$fp" -v sp="$sp" \
		-v p="$pairs" -v nd="$ndec" -v fd="$fdec" -v k="$k" 'BEGIN {
		printf "| %s | %d | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f | %.2f |\n",
		n, r, fa / r, sa / r, fp / r, sp / r, p / r, fd / r / 22, nd / r / 22 }'
}

echo "synthetic, calibrated from tests/data/mc_calib.inc; K = $k pairs; $reps replicates"
echo
echo "| scenario | reps | false regr. fixed | false regr. seq | power fixed | power seq | mean pairs to decide Q1 (seq) | queries decided fixed | queries decided seq |"
echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|"
scenario "A/A, drift 1%" 1 "" 0.01
scenario "3% at 1% sd, drift 1%" 1.03 0.00999975 0.01
scenario "5% at 3% sd, drift 1%" 1.05 0.0299933 0.01
scenario "3% at 1% sd, drift 5%" 1.03 0.00999975 0.05
