# Nothing measured is overwritten: an -o that names an existing dbt3stab result file (not an
# input), or a stabilize experiment's analysis (DIR/stabilize.json) or profile (DIR/profile.json),
# is refused (exit 2) by compare, summary, report and history report, the file unchanged, and by
# run even with --force (which replaces result files only); an older report, JSON included, is
# still replaced.
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
cp "$data/stab_analysis.json" stabilize.json && cp "$data/stab_profile.json" profile.json
stab_before=$(cat stabilize.json profile.json | md5sum)
run compare old.json new.json -o stabilize.json
run summary old.json -o profile.json
run report old.json -o stabilize.json
run history report --db h.sqlite -o profile.json
run run -s 0.01 --datadir inst -o profile.json --force
run run -s 0.01 --datadir inst -o stabilize.json
[ "$(cat stabilize.json profile.json | md5sum)" = "$stab_before" ] && echo "stabilize.json, profile.json unchanged"
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
