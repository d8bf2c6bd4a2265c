# summary of hand-made result files: figures per query, restarts needed, formats, errors.
cd "$(dirname "$0")/../data" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@"; echo "exit=$?"; }
run summary cmp_old.json
run summary cmp_warn.json --detect 5% --format markdown
run summary cmp_one.json --format json
run summary bad_negative.json
run summary bad_zero.json
run summary cmp_old.json --detect 0
run summary cmp_old.json --format junit
run summary
