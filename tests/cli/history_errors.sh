# history: bad inputs are one line and exit 2 (unknown series or id, a file that fails validation,
# a corrupt SQLite file, an unreachable or malformed mysql:// store); add twice is a no-op.
data=$(cd "$(dirname "$0")/../data" && pwd) || exit 1
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export DBT3STAB_HOME=$work/home
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@" 2>&1 | sed -E 's/\(1[0-9]{2}\)$/(ERRNO)/'; echo "exit=${PIPESTATUS[0]}"; }
cp "$data/cmp_old.json" night1.json
cp "$data/bad_negative.json" bad.json
run history add night1.json --build-id b1
run history add night1.json
run history add bad.json
run history add nosuch.json
run history add --db new.sqlite nosuch.json
echo "new.sqlite made: $(ls new.sqlite 2>/dev/null | wc -l)"
run history list
run history check --series ffff
run history export --series ffff
run history show 99
run history remove 99
run history show x
printf 'not a database\n%.0s' $(seq 100) > corrupt.sqlite
run history list --db corrupt.sqlite
run history list --db mysql://root@127.0.0.1:1/x
run history list --db mysql://root:pw@localhost/x
run history list --db mysql://root@localhost/bad-name
run history list --db 'mysql://root@localhost/x?user=me'
run history frobnicate
run history check --format pdf
run history export --format xml
run history check --min-effect x
run history check --series XYZ
run history check --since 2026-13
run history list --build-id b2
run history import night1.json
run history export
run history check
