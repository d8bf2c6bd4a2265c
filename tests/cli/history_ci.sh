# history check for a CI comment and a CI test report: on the night a regression starts (Q3 20%
# slower from night 13) --format markdown lists Q3 with the builds to bisect (night 12's and
# night 13's: build id, date, server version, binary) and one line for the rest, --format junit
# has one test case per series x query with Q3 failing; three nights later the change point is
# listed with the same range, and a second series with one result says once that it has too few.
data=$(cd "$(dirname "$0")/../data" && pwd) || exit 1
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
mkdir nights && /usr/bin/python3 "$data/gen_history.py" nights 16 13 builds || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@"; echo "exit=$?"; }
db="--db h.sqlite"
for n in 01 02 03 04 05 06 07 08 09 10 11 12 13; do
  "$DBT3STAB" history add $db -q "nights/night$n.json" --build-id "build-$n" || echo "add failed"
done
run history check $db --format markdown
run history check $db --format junit
for n in 14 15 16; do
  "$DBT3STAB" history add $db -q "nights/night$n.json" --build-id "build-$n" || echo "add failed"
done
# another host, one night: a series too short for a change point
sed 's/"testhost"/"otherhost"/' nights/night16.json > other.json
"$DBT3STAB" history add $db -q other.json --build-id "other|*1*" || echo "add failed"
run history check $db --format markdown
run history check $db --format junit
# the page: the short series says so once and has no charts; the other has its four
"$DBT3STAB" history report $db -o trends.html; echo "report exit=$?"
echo "too-few notes: $(grep -c 'class="too-few"' trends.html), charts: $(grep -c '<figure class="small' trends.html)"
grep -o '<p class="too-few">[^<]*' trends.html
