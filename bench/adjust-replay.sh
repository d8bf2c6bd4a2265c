#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How many restart pairs compare needs, with and without --adjust-memory, on the two result
# files of one interleaved run: both files cut to their first k restarts (k = 3 .. all), each
# cut compared three ways (the paired default, --unpaired, --adjust-memory); one line per k and
# way with the queries flagged (regressions and improvements) and the exit code.
# usage: bench/adjust-replay.sh [-b BUILD] OLD.json NEW.json   (docs/statistics.md)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build=$bench_root/build
bench_opts "b=build" "$@"
shift "$bench_shift"
[ $# -eq 2 ] || { bench_usage >&2; exit 2; }
bin=$build/commands/dbt3stab
bench_work dbt3replay
n=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(max(len(q["restarts"]) for q in d["queries"]))' "$1")
for ((k = 3; k <= n; k++)); do
	for side in old new; do
		src=$1; [ $side = new ] && src=$2
		python3 - "$src" "$k" "$work/$side.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); k = int(sys.argv[2])
for q in d["queries"]:
    q["restarts"] = [r for r in q["restarts"] if r["index"] < k]
d.pop("interference", None)  # per-restart sums of the whole run: recomputed from the entries
json.dump(d, open(sys.argv[3], "w"))
PY
	done
	for mode in paired unpaired adjusted; do
		extra=()
		[ $mode = unpaired ] && extra=(--unpaired)
		[ $mode = adjusted ] && extra=(--adjust-memory)
		rc=0
		"$bin" compare "$work/old.json" "$work/new.json" "${extra[@]}" --format json -q -o "$work/$mode.out" || rc=$?
		python3 - "$work/$mode.out" "$k" "$mode" "$rc" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
flag = ["%s %s x%.3f" % (q["id"], q["verdict"], q["ratio"]) for q in c["queries"]
        if q["verdict"] in ("regression", "improvement")]
print("k=%-2s %-8s exit %s: %s" % (sys.argv[2], sys.argv[3], sys.argv[4], ", ".join(flag) or "nothing flagged"))
PY
	done
done
