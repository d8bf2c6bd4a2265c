# F12 (issue 30): a report that cannot be written for want of space is exit 2 (never 1, which
# means "regression"), one line, and leaves neither the file nor a temp file. A full disk is
# simulated by a file size limit of 64 KiB (ulimit -f, SIGXFSZ ignored: write fails with EFBIG);
# each HTML page is larger.
data=$(cd "$(dirname "$0")/../data" && pwd)
tmp=$(mktemp -d) && cd "$tmp" || exit 1
cp "$data/cmp_old.json" old.json && cp "$data/cmp_regress.json" new.json
"$DBT3STAB" history add --db h.sqlite -q old.json || echo "add failed"
full() { echo "\$ dbt3stab $* (full)"; (trap '' XFSZ; ulimit -f 64; "$DBT3STAB" "$@") >out.txt 2>&1; rc=$?; cat out.txt; echo "exit=$rc"; }
full report old.json -o r.html
full report old.json new.json -o r.html
full compare old.json new.json --format html -o c.html
full history report --db h.sqlite -o h.html
rm -f out.txt h.sqlite-shm h.sqlite-wal && ls -A
cd / && rm -rf "$tmp"
