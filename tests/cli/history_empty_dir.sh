# history add/import of a directory that holds no result file (*.json) says so and exits 2: a
# nightly job pointed at the wrong directory must not pass silently; a directory with results
# is stored as before.
data=$(cd "$(dirname "$0")/../data" && pwd) || exit 1
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export DBT3STAB_HOME=$work/home
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@" 2>&1; echo "exit=$?"; }
mkdir -p empty tbl/sub nightly/2026-11-30
echo '1|x|' >tbl/sub/region.tbl
cp "$data/cmp_old.json" nightly/2026-11-30/result.json
run history add empty
run history import tbl
run history import empty nightly
run history add nightly
run history list
