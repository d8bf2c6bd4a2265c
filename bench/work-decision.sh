#!/usr/bin/env bash
# The time to a decision of the semijoin A/B (issue 29), three ways, one after the other in one
# session on one instance, with dbt3stab itself; variant "on" is the server as it is, "off" adds
# -x (default optimizer_switch=semijoin=off: at SF 0.1 the plans of Q4, Q18, Q20 and Q21 change):
#   (a) work counters: 1 restart a side (-w warm-ups, default 1, and 1 measured run a query),
#       then compare: the wall time from the start of the run to compare's verdict, and the
#       queries whose work changed;
#   (b) instructions: run --instructions with the fewest restarts that decide (-r, default 1 a
#       side: compare's rule decides from one restart a side on its tolerance), then compare:
#       the wall time to the verdict, and the queries whose instructions changed;
#   (c) time: run --budget -t (default 10m) on wall time: the time until Q21 was decided
#       (budget.pair_elapsed_s at its decided_after_pairs, as bench/sbs-vs-paired.sh reads it),
#       its decision, and the run's pairs and stop reason.
# All three --restart-paired (one server at a time). The load average (1 min) before and after
# each. A timing benchmark: run it on an idle machine (the coordinator does); under load only
# (a)'s and (b)'s verdicts mean anything, not the times.
#
# usage: bench/work-decision.sh [-b BUILD_DIR] [-s SF] [-q QUERIES] [-t BUDGET] [-r RESTARTS]
#                               [-w WARMUP] [-x OPTION] [-m MYSQLD] [-o OUTDIR] [-k]
#                               [-- server options]
#   -s SF        scale factor (default 0.1)
#   -w WARMUP    (a)'s warm-up executions a query (default 1; 0: the cold execution alone, whose
#                counts are as deterministic as the warm one's, docs/work.md)
#   -q QUERIES   query list (default 1-22; (b) at SF 0.1 over 22 queries takes of the order of
#                an hour: Valgrind's slowdown)
#   -t BUDGET    (c)'s --budget (default 10m; 0 skips (c))
#   -r RESTARTS  (b)'s restarts a side (default 1; 0 skips (b))
#   -x OPTION    the "off" variant's server option (default optimizer_switch=semijoin=off)
#   -m MYSQLD    the server binary of both variants (default /usr/sbin/mariadbd)
#   -o OUTDIR    where the result files and logs go (default a temp dir, removed unless -k)
#   -k           keep the temp dir
#   -- ...       server options, e.g. --datadir DIR [--port N]: an instance loaded at SF, stopped
# Without --datadir a private instance is made in the work dir (server init + load -s SF).
# Smoke test on tiny inputs (not a measurement):
#   bench/work-decision.sh -s 0.01 -q 4,21 -t 2m
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build= sf=0.1 queries=1-22 budget=10m restarts=1 warm=1 option=optimizer_switch=semijoin=off
mysqld=/usr/sbin/mariadbd out= keep=0
bench_opts "b=build s=sf q=queries t=budget r=restarts w=warm x=option m=mysqld o=out k!=keep" "$@"
shift "$bench_shift"
srv=("$@")
bench_build commands/dbt3stab
[[ $restarts =~ ^[0-9]+$ ]] || bench_die "-r needs a count, not '$restarts'"
[[ $warm =~ ^[0-9]+$ ]] || bench_die "-w needs a count, not '$warm'"
bench_work dbt3-decision
out=${out:-$work/results}
mkdir -p "$out"
bench_instance "$sf"
variants=(--variant "on:mysqld=$mysqld" --variant "off:mysqld=$mysqld,$option")

# One way: name, then run's own options. Runs the A/B into $out/NAME (on.json, off.json), then
# (except for the budget run) compare into $out/NAME.compare.json; prints the wall time from the
# run's start to compare's end and the load averages, and records them in $out/NAME.time.
one_way() {
  local name=$1 dir="$out/$1" t0 t1 l0 l1 rc=0
  shift
  l0=$(bench_load1) t0=$(bench_now)
  "$bin" run -s "$sf" -o "$dir" --queries "$queries" --restart-paired "$@" "${variants[@]}" \
    --no-table -q "${srv[@]}" >"$out/$name.log" 2>&1 ||
    { echo "work-decision: $name: run failed (exit $?), see $out/$name.log" >&2; return 1; }
  if [ "$name" != budget ]; then
    # exit 1 is compare's "found something": the A/B's point
    "$bin" compare "$dir/on.json" "$dir/off.json" --force --format json --quiet \
      >"$out/$name.compare.json" 2>>"$out/$name.log" || rc=$?
    [ "$rc" -le 1 ] || { echo "work-decision: $name: compare failed (exit $rc)" >&2; return 1; }
  fi
  t1=$(bench_now) l1=$(bench_load1)
  printf '%s %s %s\n' "$(echo "$t1 - $t0" | bc)" "$l0" "$l1" >"$out/$name.time"
  printf '%-13s %8.1f s  load %s -> %s\n' "$name" "$(echo "$t1 - $t0" | bc)" "$l0" "$l1"
}

echo "# semijoin A/B ($option), SF $sf, queries $queries; $(uptime)"
one_way work --restarts 1 --warmup "$warm" --runs 1
[ "$restarts" = 0 ] || one_way instructions --instructions --restarts "$restarts"
[ "$budget" = 0 ] || one_way budget --budget "$budget"
echo "# done; $(uptime)"

python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]

def load(p):
    with open(p) as f:
        return json.load(f)

def timing(name):
    with open(os.path.join(out, name + ".time")) as f:
        wall, l0, l1 = f.read().split()
    return float(wall), l0, l1

print()
if os.path.exists(os.path.join(out, "work.time")):
    wall, l0, l1 = timing("work")
    c = load(os.path.join(out, "work.compare.json"))
    changed = [q["id"] for q in c["queries"] if (q.get("work") or {}).get("changed")]
    w = c.get("work") or {}
    print(f"(a) work counters, 1 restart a side: verdict after {wall:.0f} s (load {l0} -> {l1}): "
          f"work changed in {w.get('changed', 0)} of {w.get('compared', 0)} queries: {' '.join(changed) or '-'}")
if os.path.exists(os.path.join(out, "instructions.time")):
    wall, l0, l1 = timing("instructions")
    c = load(os.path.join(out, "instructions.compare.json"))
    rs = load(os.path.join(out, "instructions", "on.json"))["plan"]["restarts"]
    changed = [f"{q['id']} x{q['instructions']['ratio']:.3f}" for q in c["queries"]
               if (q.get("instructions") or {}).get("changed")]
    i = c.get("instructions") or {}
    print(f"(b) instructions, {rs} restart(s) a side: verdict after {wall:.0f} s (load {l0} -> {l1}): "
          f"changed in {i.get('changed', 0)} of {i.get('compared', 0)} queries: {', '.join(changed) or '-'}")
if os.path.exists(os.path.join(out, "budget.time")):
    wall, l0, l1 = timing("budget")
    b = load(os.path.join(out, "budget", "off.json"))
    bud = b.get("budget", {})
    ends = bud.get("pair_elapsed_s") or []
    q21 = next((q for q in b["queries"] if q["id"] == "Q21"), None)
    if q21 is None:
        print(f"(c) --budget {bud.get('budget_s', 0):.0f} s on time: Q21 not in the run")
    else:
        dec = q21.get("budget", {})
        k = dec.get("decided_after_pairs")
        at = f"{ends[k - 1]:.0f} s" if k and k <= len(ends) else "undecided"
        print(f"(c) --budget {bud.get('budget_s', 0):.0f} s on time: Q21 {dec.get('decision', '-')} "
              f"(ratio {dec.get('ratio') or float('nan'):.3f}) after {k or '-'} pairs, at {at}")
    decided = [q for q in b["queries"] if (q.get("budget") or {}).get("decision", "undecided") != "undecided"]
    print(f"    {bud.get('pairs', '-')} pairs in {bud.get('elapsed_s', float('nan')):.0f} s "
          f"({bud.get('stop_reason', '-')}), {len(decided)} of {len(b['queries'])} queries decided; "
          f"wall {wall:.0f} s (load {l0} -> {l1})")
PY
