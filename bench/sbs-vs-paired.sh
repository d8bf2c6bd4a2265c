#!/usr/bin/env bash
# Side by side against restart-paired (issue 32), with dbt3stab itself, interleaved in one
# session on a private MariaDB server:
#   A/A: -n runs of each mode alternated (restart-paired: --restarts 2, side by side: 2 pairs;
#        -w warm-up and -r runs a query), the same binary and settings on both sides. Prints per
#        query the sd of the per-pair log ratio in each mode (side by side: the pair's mean log
#        ratio of its alternated executions; restart-paired: the log ratio of the restart means,
#        as compare pairs each), the median over queries of each, their ratio (issue 32's target:
#        at most 0.6), and what compare flags on each mode's A/A (every flag a false alarm).
#   A/B: the new variant sets -x (default optimizer_switch=semijoin=off: at SF 0.1 Q21 about 1.2x
#        slower, Q18 about 0.5x), one --budget run (-t) of each mode, alternated: the time each
#        took to decide Q21 (budget.pair_elapsed_s at its decided_after_pairs) and its decision,
#        with the design each run recorded (side by side: Pocock-type spending from pair 3).
#   -A N: then N A/As side by side with --budget (-t), alternated with nothing: the queries the
#        run's own sequential rule flagged (every one a false alarm of the design it uses).
#   Last, the slot order of each side-by-side A/A (bench/sbs_slots.py): per measured slot the
#        median log ratio, positive when the query's opener was faster, and the back-to-back
#        executions of each pair (0 in strict alternation; docs/side-by-side.md, "Why strict alternation").
# With the load averages before and after each run. Run it on an idle machine: figures taken
# while anything else runs are meaningless (the coordinator runs it).
#
# usage: bench/sbs-vs-paired.sh [-b BUILD_DIR] [-s SF] [-n RUNS] [-w WARMUP] [-r RUNS]
#                               [-t DURATION] [-x OPTION] [-m MYSQLD] [-q QUERIES] [-o OUTDIR]
#                               [-A N] [-k] [-- server/pin options, e.g. --datadir DIR --port N]
#   -s SF        scale factor (default 0.1)
#   -n RUNS      A/A runs of each mode, alternated (default 3: 6 pairs a mode)
#   -w, -r       warm-up and measured executions per query and restart (default 3, 5)
#   -t DURATION  the A/B budget runs' budget (default 10m; 0 skips the A/B)
#   -x OPTION    the A/B variant's server option (default optimizer_switch=semijoin=off)
#   -m MYSQLD    the server binary of both variants (default /usr/sbin/mariadbd)
#   -q QUERIES   query list (default 1-22)
#   -o OUTDIR    where the result files go (default a temp dir, removed unless -k)
#   -A N         side-by-side A/As with --budget DURATION after the A/B (default 0)
#   -k           keep the temp dir
# Without --datadir a private instance is made in the work dir (server init + load -s SF).
# Smoke test on tiny inputs (not a measurement):
#   bench/sbs-vs-paired.sh -s 0.01 -n 1 -w 1 -r 2 -q 1,6 -t 0
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build= sf=0.1 n=3 warm=3 runs=5 budget=10m option=optimizer_switch=semijoin=off
queries=1-22 out= keep=0 mysqld=/usr/sbin/mariadbd baa=0
bench_opts "b=build s=sf n=n w=warm r=runs t=budget x=option m=mysqld q=queries o=out A=baa k!=keep" "$@"
shift "$bench_shift"
srv=("$@")
bench_build commands/dbt3stab
bench_count -n "$n"
[[ $baa =~ ^[0-9]+$ ]] || bench_die "-A needs a count, not '$baa'"
bench_work dbt3-sbs
out=${out:-$work/results}
mkdir -p "$out"
bench_instance "$sf"

# One run: mode (paired|sbs), scenario (aa|ab), index; the result directory gets a.json, b.json
# and run.log; prints "mode scenario index wall_s load_before load_after".
one_run() {
  local mode=$1 scen=$2 i=$3 dir="$out/$1-$2-$3" t0 t1 l0 l1
  local b="b:mysqld=$mysqld" flags
  [ "$scen" = ab ] && b="b:mysqld=$mysqld,$option"
  if [ "$scen" = aa ]; then
    flags=(--restarts 2 --warmup "$warm" --runs "$runs")
  elif [ "$scen" = baa ]; then
    flags=(--budget "$budget")
  else
    flags=(--budget "$budget")
  fi
  [ "$mode" = sbs ] && flags+=(--side-by-side) || flags+=(--restart-paired)
  l0=$(bench_load1) t0=$(bench_now)
  "$bin" run -s "$sf" -o "$dir" --queries "$queries" "${flags[@]}" \
    --variant "a:mysqld=$mysqld" --variant "$b" --no-table -q "${srv[@]}" >"$out/$1-$2-$3.log" 2>&1 ||
    { echo "sbs-vs-paired: $mode $scen $i failed (exit $?), see $out/$1-$2-$3.log" >&2; return 1; }
  t1=$(bench_now) l1=$(bench_load1)
  printf '%-6s %s %d %8.1f s  load %s -> %s\n' "$mode" "$scen" "$i" "$(echo "$t1 - $t0" | bc)" "$l0" "$l1"
}

echo "# A/A, alternated: $n runs a mode of 2 pairs ($warm warm-up + $runs runs a query), SF $sf"
for i in $(seq 1 "$n"); do
  if [ $((i % 2)) = 1 ]; then one_run paired aa "$i"; one_run sbs aa "$i"
  else one_run sbs aa "$i"; one_run paired aa "$i"; fi
done
if [ "$budget" != 0 ]; then
  echo "# A/B ($option), --budget $budget, alternated"
  one_run paired ab 1
  one_run sbs ab 1
  [ "$baa" -gt 0 ] && echo "# A/A side by side, --budget $budget, $baa runs"
  for i in $(seq 1 "$baa"); do one_run sbs baa "$i"; done
fi

python3 - "$out" "$n" "$budget" "$bin" "$baa" <<'PY'
import glob, json, math, os, statistics, subprocess, sys
out, n, budget, binary, baa = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])

def pairs(a, b, sbs):
    """Per query, the per-pair log ratios as compare takes them."""
    d = {}
    qb = {q["id"]: q for q in b["queries"]}
    for qa in a["queries"]:
        rb = {r["index"]: r for r in qb.get(qa["id"], {}).get("restarts", []) if r["status"] == "ok"}
        for ra in qa["restarts"]:
            r2 = rb.get(ra["index"])
            if ra["status"] != "ok" or not r2:
                continue
            x, y = ra["measured_ms"], r2["measured_ms"]
            if sbs:
                m = min(len(x), len(y))
                v = sum(math.log(y[k] / x[k]) for k in range(m)) / m
            else:
                v = math.log(statistics.mean(y) / statistics.mean(x))
            d.setdefault(qa["id"], []).append(v)
    return d

def load(p):
    with open(p) as f:
        return json.load(f)

sd = {}
for mode in ("paired", "sbs"):
    d = {}
    for i in range(1, n + 1):
        base = os.path.join(out, f"{mode}-aa-{i}")
        for q, v in pairs(load(base + "/a.json"), load(base + "/b.json"), mode == "sbs").items():
            d.setdefault(q, []).extend(v)
    sd[mode] = {q: statistics.stdev(v) for q, v in d.items() if len(v) >= 2}
qs = sorted(set(sd["paired"]) & set(sd["sbs"]), key=lambda q: int(q[1:]))
print("\nquery   pairs  sd restart-paired  sd side-by-side   ratio")
for q in qs:
    print(f"{q:<6} {2 * n:>6} {sd['paired'][q]:>17.2%} {sd['sbs'][q]:>16.2%} {sd['sbs'][q] / sd['paired'][q]:>7.2f}")
mp = statistics.median(sd["paired"][q] for q in qs)
ms = statistics.median(sd["sbs"][q] for q in qs)
print(f"median over {len(qs)} queries: restart-paired {mp:.2%}, side by side {ms:.2%}, ratio {ms / mp:.2f} (target <= 0.6)")

for mode in ("paired", "sbs"):
    flagged = []
    for i in range(1, n + 1):
        base = os.path.join(out, f"{mode}-aa-{i}")
        r = subprocess.run([binary, "compare", base + "/a.json", base + "/b.json", "--format", "json", "--quiet"],
                           capture_output=True, text=True)
        rep = json.loads(r.stdout) if r.stdout.strip() else {}
        flagged += [f"{i}:{q['id']}" for q in rep.get("queries", [])
                    if q.get("verdict") in ("regression", "improvement")]
    print(f"A/A {mode}: {len(flagged)} false alarm(s) over {n} runs {' '.join(flagged)}")

if budget != "0":
    when = {}
    for mode in ("paired", "sbs"):
        b = load(os.path.join(out, f"{mode}-ab-1", "b.json"))
        q21 = next((q for q in b["queries"] if q["id"] == "Q21"), None)
        bud = b.get("budget", {})
        plan = b.get("plan", {})
        ends = bud.get("pair_elapsed_s") or []
        dec = (q21 or {}).get("budget", {})
        k = dec.get("decided_after_pairs")
        at = f"{ends[k - 1]:.0f} s" if k and k <= len(ends) else "undecided"
        if k and k <= len(ends):
            when[mode] = ends[k - 1]
        runs = [len(r["measured_ms"]) for r in (q21 or {}).get("restarts", [])]
        print(f"A/B {mode}: Q21 {dec.get('decision', '-')} (ratio {dec.get('ratio') or float('nan'):.3f}) after {k or '-'} pairs, at {at}; "
              f"{bud.get('pairs', '-')} pairs in {bud.get('elapsed_s', float('nan')):.0f} s ({bud.get('stop_reason', '-')})")
        print(f"  rule {plan.get('decision_rule', '-')}, first look after pair {plan.get('first_look', 2)}, "
              f"horizon {plan.get('horizon', '-')}; pairs ended at {' '.join(f'{e:.0f}' for e in ends)} s; "
              f"Q21's measured runs a pair {runs}")
    if "sbs" in when:
        print(f"Q21 decided side by side at {when['sbs']:.0f} s: {when['sbs'] / 240:.2f} of 4.0 min, "
              f"{when['sbs'] / 408:.2f} of 6.8 min (issue 32's target: at most 0.5)"
              + (f", {when['sbs'] / when['paired']:.2f} of restart-paired's {when['paired']:.0f} s" if "paired" in when else ""))
    flagged, pairs = [], []
    for i in range(1, baa + 1):
        b = load(os.path.join(out, f"sbs-baa-{i}", "b.json"))
        pairs.append(b.get("budget", {}).get("pairs", 0))
        flagged += [f"{i}:{q['id']}" for q in b["queries"]
                    if q.get("budget", {}).get("decision") in ("regression", "improvement")]
    if baa:
        print(f"A/A sbs --budget {budget}: {len(flagged)} false alarm(s) of the run's own rule over {baa} runs "
              f"({' '.join(str(p) for p in pairs)} pairs) {' '.join(flagged)}")
PY

echo "# slot order of the side-by-side A/As"
dirs=()
for i in $(seq 1 "$n"); do dirs+=("$out/sbs-aa-$i"); done
python3 "$(dirname "$0")/sbs_slots.py" "${dirs[@]}"
