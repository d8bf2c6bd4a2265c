#!/usr/bin/env bash
# The real-server half of bench/protocol.sh (issue 13): the fixed protocol against `run --budget`
# in the same wall time, on a private MariaDB server, for
#   A/A: two variants with identical settings (every flag is a false alarm), and
#   A/B: the new variant sets an optimizer switch that changes plans (default
#        optimizer_switch=semijoin=off: at SF 0.1 it made Q21 23% slower with another plan and Q18
#        twice as fast, issue 13).
# Per repetition and scenario the fixed protocol runs first (5 restarts a side of 8 warm-up + 10
# runs unless -f says otherwise; compared with `dbt3stab compare`), then the budget run with
# the fixed run's wall time (or -t), decided by its own sequential rule; the next repetition
# swaps which protocol goes first. Prints one line per run and a summary: wall time, queries
# decided, regressions / improvements / unchanged, time per decision, the load average before
# and after. A/A false alarms are any regression or improvement.
# Run it on an idle machine: figures taken while anything else runs are meaningless.
#
# usage: bench/protocol-server.sh [-b BUILD_DIR] [-s SF] [-n REPS] [-t DURATION] [-x OPTION]
#                                 [-m MYSQLD] [-q QUERIES] [-f "FIXED ARGS"] [-o OUTDIR] [-k]
#                                 [-- server/pin options, e.g. --datadir DIR --port N]
#   -s SF          scale factor (default 0.1)
#   -n REPS        repetitions of the A/A and A/B pair (default 1)
#   -t DURATION    budget of the budget runs (default: the wall time of the fixed run before it)
#   -x OPTION      the A/B variant's server option (default optimizer_switch=semijoin=off)
#   -m MYSQLD      the server binary of both variants (default /usr/sbin/mariadbd)
#   -q QUERIES     query list (default 1-22)
#   -f ARGS        the fixed protocol's options (default "--restarts 5 --warmup 8 --runs 10")
#   -o OUTDIR      where the result files go (default a temp dir, removed unless -k)
#   -k             keep the temp dir (result files, logs, the instance)
# Without --datadir a private instance is made in the work dir (server init + load -s SF).
# Smoke test on tiny inputs (not a measurement):
#   bench/protocol-server.sh -s 0.01 -q 6,14 -f "--restarts 2 --warmup 1 --runs 2"
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build= sf=0.1 reps=1 budget= option=optimizer_switch=semijoin=off queries=1-22
fixed="--restarts 5 --warmup 8 --runs 10" out= keep=0 mysqld=/usr/sbin/mariadbd
bench_opts "b=build s=sf n=reps t=budget x=option q=queries f=fixed o=out m=mysqld k!=keep" "$@"
shift "$bench_shift"
srv=("$@")
bench_build commands/dbt3stab
bench_count -n "$reps"
bench_work dbt3-protocol
out=${out:-$work/results}
mkdir -p "$out"
bench_instance "$sf"

declare -A variant=([aa]="new:mysqld=$mysqld" [ab]="new:mysqld=$mysqld,$option")

# One run: protocol (fixed|budget), scenario (aa|ab), rep; prints
# "protocol scenario rep wall_s decided regressions improvements unchanged load_before load_after
#  regr_at_s", the last the elapsed time when the last regression was decided (the fixed protocol
# decides at its end; a budget run at the end of the pair of the decision, budget.pair_elapsed_s;
# "-" without a regression or the record).
one_run() {
  local proto=$1 scen=$2 rep=$3 dir="$out/$1-$2-$3" t0 t1 l0 l1 rc=0
  local plan=($fixed)
  [ "$proto" = budget ] && plan=(--budget "$4")
  l0=$(bench_load1)
  t0=$(bench_now)
  "$bin" run -s "$sf" -o "$dir" --queries "$queries" "${plan[@]}" --restart-paired \
    --variant "old:mysqld=$mysqld" --variant "${variant[$scen]}" --no-table -q "${srv[@]}" \
    >"$dir.log" 2>&1 || rc=$?
  t1=$(bench_now)
  l1=$(bench_load1)
  if [ "$rc" != 0 ]; then
    echo "protocol-server: $proto $scen $rep: run exited $rc (log: $dir.log)" >&2
    cat "$dir.log" >&2
    exit 1
  fi
  local counts
  if [ "$proto" = fixed ]; then
    rc=0
    "$bin" compare --format json "$dir/old.json" "$dir/new.json" >"$dir.compare.json" 2>"$dir.compare.log" || rc=$?
    [ "$rc" -le 1 ] || { echo "protocol-server: compare exited $rc" >&2; cat "$dir.compare.log" >&2; exit 1; }
    counts=$(python3 - "$dir.compare.json" <<'PY'
import json, sys
qs = json.load(open(sys.argv[1]))["queries"]
v = [q["verdict"] for q in qs]
n = lambda k: sum(1 for x in v if x == k)
print(n("regression") + n("improvement") + n("unchanged"), n("regression"), n("improvement"), n("unchanged"))
PY
)
    at=-
    [[ $counts =~ ^[0-9]+\ 0\  ]] || at=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')
  else
    counts=$(python3 - "$dir/old.json" <<'PY'
import json, sys
qs = json.load(open(sys.argv[1]))["queries"]
v = [q.get("budget", {}).get("decision", "undecided") for q in qs]
n = lambda k: sum(1 for x in v if x == k)
print(n("regression") + n("improvement") + n("unchanged"), n("regression"), n("improvement"), n("unchanged"))
PY
)
    at=$(python3 - "$dir/old.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ends = (d.get("budget") or {}).get("pair_elapsed_s") or []
at = [ends[b["decided_after_pairs"] - 1] for b in (q.get("budget") or {} for q in d["queries"])
      if b.get("decision") == "regression" and 0 < (b.get("decided_after_pairs") or 0) <= len(ends)]
print(f"{max(at):.0f}" if at else "-")
PY
)
  fi
  awk -v p="$proto" -v s="$scen" -v r="$rep" -v a="$t0" -v b="$t1" -v c="$counts" -v l0="$l0" -v l1="$l1" \
    -v at="$at" 'BEGIN { printf "%-6s %-2s %3d %9.1f %s %s %s %s\n", p, s, r, b - a, c, l0, l1, at }'
}

echo "dbt3stab protocol bench: SF $sf, queries $queries, fixed: $fixed, A/B option: $option"
echo "$(nproc) CPUs, load average before: $(bench_loadavg)"
echo "proto  sc rep    wall_s decided regr impr unch load_before load_after regr_at_s"
results=$work/lines
: >"$results"
for rep in $(seq 1 "$reps"); do
  for scen in aa ab; do
    if [ $((rep % 2)) = 1 ]; then
      line=$(one_run fixed "$scen" "$rep")
      echo "$line" | tee -a "$results"
      b=${budget:-$(awk '{ printf "%ds", $4 + 0.5 }' <<<"$line")}
      echo "$(one_run budget "$scen" "$rep" "$b")" | tee -a "$results"
    else
      b=${budget:-$(awk -v s="$scen" '$1 == "fixed" && $2 == s { printf "%ds", $4 + 0.5; exit }' "$results")}
      echo "$(one_run budget "$scen" "$rep" "$b")" | tee -a "$results"
      echo "$(one_run fixed "$scen" "$rep")" | tee -a "$results"
    fi
  done
done
echo
echo "summary (per protocol and scenario, over $reps repetition(s)):"
awk '{ k = $1 " " $2; n[k]++; w[k] += $4; d[k] += $5; r[k] += $6; i[k] += $7; u[k] += $8
       fa[k] += ($2 == "aa" && $6 + $7 > 0) }
     END { printf "%-9s %9s %8s %6s %6s %6s %12s %10s\n", "", "wall_s", "decided", "regr", "impr",
                  "unch", "s/decision", "aa_any_fa"
           for (k in n) printf "%-9s %9.1f %8.1f %6.1f %6.1f %6.1f %12s %10s\n", k, w[k] / n[k],
                  d[k] / n[k], r[k] / n[k], i[k] / n[k], u[k] / n[k],
                  d[k] ? sprintf("%.1f", w[k] / d[k]) : "-",
                  substr(k, length(k) - 1) == "aa" ? sprintf("%d/%d", fa[k], n[k]) : "-" }' "$results" | sort
echo "load average after: $(bench_loadavg)"
echo "result files: $out"
