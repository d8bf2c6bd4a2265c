# history check as a nightly job: exit 1 on the night a regression starts (Q3 20% slower from
# night 13), 0 the nights after; the change point at night 13 once three results show it; every
# format; the JSON validates against docs/history.schema.json; the report page is written.
data=$(cd "$(dirname "$0")/../data" && pwd) || exit 1
docs=$(cd "$(dirname "$0")/../../docs" && pwd) || exit 1
py=
for p in python3 /usr/bin/python3; do
  if "$p" -c 'import jsonschema' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "no python3 with jsonschema: apt-get install python3-jsonschema"; exit 1; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
mkdir nights && "$py" "$data/gen_history.py" nights 16 13 || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@"; echo "exit=$?"; }
db="--db h.sqlite"
for n in 01 02 03 04 05 06 07 08 09 10 11 12; do
  "$DBT3STAB" history add $db -q "nights/night$n.json" --build-id "build-$n" || echo "add failed"
done
run history check $db
for n in 13 14 15 16; do
  "$DBT3STAB" history add $db -q "nights/night$n.json" --build-id "build-$n" || echo "add failed"
  run history check $db --series fcb3
done
run history check $db --format markdown
run history check $db --format junit
"$DBT3STAB" history check $db --format json -o check.json; echo "json exit=$?"
"$py" "$data/validate_result.py" "$docs/history.schema.json" check.json; echo "exit=$?"
run history report $db -o trends.html
grep -c 'class="chart" data-key=' trends.html
grep -o '<figcaption><b>Q[0-9]*' trends.html | head -1
run history export $db --format json -o export.json
"$py" -c 'import json; r = json.load(open("export.json")); print(len(r), sorted(r[0]))'
run history remove $db 16
run history check $db --since 2026-11-10
