# compare output formats: Markdown, JSON (both plans when a plan changed), JUnit, -o FILE.
cd "$(dirname "$0")/../data" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@"; echo "exit=$?"; }
run compare cmp_old.json cmp_regress.json --format markdown
run compare cmp_old.json cmp_wrong.json --format junit
run compare cmp_old.json cmp_regress.json --format json
tmp=$(mktemp -d)
run compare cmp_old.json cmp_wrong.json --format junit -o "$tmp/report.xml" | sed "s|$tmp|TMP|"
grep -c '<failure' "$tmp/report.xml"
run compare cmp_old.json cmp_same.json -o "$tmp/nodir/report.txt" 2>&1 | sed "s|$tmp|TMP|"
# HTML (rendered by reports/rpt_html*): same exit codes, one self-contained page
run compare cmp_old.json cmp_regress.json --format html -o "$tmp/report.html" | sed "s|$tmp|TMP|"
head -c 15 "$tmp/report.html"; echo
grep -c '<script src=' "$tmp/report.html"
rm -rf "$tmp"
