# What summary, compare and report read: regular files within the bounds of
# docs/result-format.md, every member in range and agreeing with the plan; one line, exit 2.
data=$(cd "$(dirname "$0")/../data" && pwd)
tmp=$(mktemp -d) && cd "$tmp" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@" >out.txt 2>&1; rc=$?; cat out.txt; echo "exit=$rc"; }
edit() { sed "$1" "$data/cmp_old.json" > "$2"; }
cp "$data/cmp_old.json" old.json && mkfifo fifo.json && mkdir dir.json
run summary /dev/zero
run summary fifo.json
run compare old.json dir.json
run report fifo.json
run history add fifo.json --db h.sqlite
truncate -s 300M big.json && run summary big.json
python3 -c 'print("[" + ",".join(["0"] * 1000000) + "]")' > wide.json && run summary wide.json
edit '0,/"measured_ms": \[/s//"measured_ms": [1e308,/' huge.json && run compare old.json huge.json
edit 's/"restarts": 5,/"restarts": -1e9,/' neg.json && run summary neg.json
edit 's/"restarts": 5,/"restarts": true,/' bool.json && run report bool.json
edit 's/"runs": 3,/"runs": null,/' null.json && run summary null.json
edit 's/"runs": 3,/"runs": 3, "queries": ["Q1", "Q3", "Q6"],/' plan.json && run summary plan.json
cd / && rm -rf "$tmp"
