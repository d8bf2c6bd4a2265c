# run --optimizer-trace counts the trace summaries in the result file's size bound: a plan that
# fits without them is refused with them, before any server is touched (exit 2).
tmp=$(mktemp -d)
run() { echo "\$ dbt3stab $*" | sed "s|$tmp|TMP|g"; "$DBT3STAB" "$@" 2>&1 | sed "s|$tmp|TMP|g"; echo "exit=${PIPESTATUS[0]}"; }
run run -s 0.01 -o "$tmp/r.json" --restarts 100 --optimizer-trace --datadir "$tmp/none"
run run -s 0.01 -o "$tmp/r.json" --restarts 100 --datadir "$tmp/none"
rm -rf "$tmp"
