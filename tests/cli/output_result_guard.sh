# Nothing measured is overwritten: an -o that names an existing dbt3stab result file (not an
# input) is refused (exit 2) by compare, summary, report and history report, the file unchanged;
# an older report, JSON included, is still replaced.
data=$(cd "$(dirname "$0")/../data" && pwd)
tmp=$(mktemp -d) && cd "$tmp" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@" >out.txt 2>&1; rc=$?; cat out.txt; echo "exit=$rc"; }
cp "$data/cmp_old.json" old.json && cp "$data/cmp_regress.json" new.json
cp "$data/cmp_same.json" victim.json
before=$(md5sum < victim.json)
run compare old.json new.json -o victim.json
run summary old.json -o victim.json
run report old.json new.json -o victim.json
run history report --db h.sqlite -o victim.json
[ "$(md5sum < victim.json)" = "$before" ] && echo "victim.json unchanged"
"$DBT3STAB" compare old.json new.json --format json -o cmp.json >/dev/null 2>&1
echo "first compare json exit=$?"
"$DBT3STAB" compare old.json new.json --format json -o cmp.json >/dev/null 2>&1
echo "second compare json exit=$?"
"$DBT3STAB" summary old.json --format json -o sum.json >/dev/null 2>&1; echo "summary json exit=$?"
"$DBT3STAB" summary old.json --format json -o sum.json >/dev/null 2>&1; echo "again exit=$?"
"$DBT3STAB" report old.json -o page.html >/dev/null 2>&1; echo "report exit=$?"
"$DBT3STAB" report old.json -o page.html >/dev/null 2>&1; echo "again exit=$?"
rm -f out.txt h.sqlite && ls
cd / && rm -rf "$tmp"
