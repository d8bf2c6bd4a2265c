#!/bin/bash
# SPDX-License-Identifier: MIT
# Takes the optimizer traces of this folder by hand: EXPLAIN of each qN.sql with optimizer_trace
# on, the trace read from information_schema.OPTIMIZER_TRACE, written gzip'd as SIDE-QN.json.gz.
# usage: take.sh CLIENT_CNF SIDE   (a running dbt3stab instance's client.cnf; SIDE "on" for a
#        server with the default optimizer_switch, "off" for one started with
#        --server-option optimizer_switch=semijoin=off), then python3 gen_trace.py
set -eu
cnf=$1 side=$2
here=$(cd "$(dirname "$0")" && pwd)
for q in 4 18 20 21; do
	out=$(mktemp)
	{ echo "SET optimizer_trace='enabled=on', optimizer_trace_max_mem_size=16777216;"
	  echo "EXPLAIN $(cat "$here/q$q.sql");"
	  echo "SELECT TRACE FROM information_schema.OPTIMIZER_TRACE;"
	  echo "SELECT MISSING_BYTES_BEYOND_MAX_MEM_SIZE FROM information_schema.OPTIMIZER_TRACE;"
	} | mariadb --defaults-file="$cnf" dbt3 -N -B -r > "$out"
	python3 - "$out" "$here/$side-Q$q.json.gz" <<'PY'
import gzip, json, sys
lines = open(sys.argv[1]).read().split("\n")
start = next(i for i, l in enumerate(lines) if l.startswith("{"))
body = [l for l in lines[start:] if l != ""]
missing = int(body[-1])
text = "\n".join(body[:-1])
assert missing == 0, "the trace is cut: %d bytes missing" % missing
json.loads(text)
with gzip.GzipFile(sys.argv[2], "wb", mtime=0) as f:
    f.write((text + "\n").encode())
print(sys.argv[2], len(text), "bytes")
PY
	rm -f "$out"
done
