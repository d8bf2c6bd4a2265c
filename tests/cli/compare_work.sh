# compare and summary on work counters: the work lines (text, Markdown), exit 1 for a work change
# alone, and summary's constant/varies lines (fixtures from tests/data/gen_work.py).
cd "$(dirname "$0")/../data" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@"; echo "exit=$?"; }
run compare work_old.json work_new.json
run compare work_old.json work_new.json --format markdown | tail -8
run compare work_new.json work_new.json
run summary work_old.json
# HTML: the work lines are in the page's notes, escaped
tmp=$(mktemp -d)
run compare work_old.json work_new.json --format html -o "$tmp/w.html" | sed "s|$tmp|TMP|"
grep -o "<li>Q2 work changed[^<]*</li>" "$tmp/w.html"
rm -rf "$tmp"
