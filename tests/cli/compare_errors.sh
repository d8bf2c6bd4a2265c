# compare: malformed input and incomparable files are one-line errors with exit 2.
cd "$(dirname "$0")/../data" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@"; echo "exit=$?"; }
for f in bad_notjson bad_format bad_version bad_missing bad_type bad_negative bad_empty bad_huge bad_zero; do
  run compare cmp_old.json $f.json
done
run compare nosuch.json cmp_old.json
run compare cmp_old.json cmp_sf1.json
run compare cmp_old.json cmp_fp.json
run compare cmp_old.json cmp_sql.json
run compare cmp_old.json cmp_one.json --baseline cmp_sf1.json
run compare cmp_old.json cmp_sql.json --force --quiet
run compare cmp_old.json
run compare --alpha 2 cmp_old.json cmp_same.json
run compare --min-effect x cmp_old.json cmp_same.json
run compare --correction bonferroni cmp_old.json cmp_same.json
run compare --format pdf cmp_old.json cmp_same.json
run compare --alpha
run compare --alternative less cmp_old.json cmp_same.json
run compare --method student cmp_old.json cmp_same.json
run compare --nosuch cmp_old.json cmp_same.json
"$DBT3STAB" compare --help | head -1
