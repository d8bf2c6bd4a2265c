# history: the variants of one interleaved run (run --variant) are separate series: one is the
# reference build or setting, the other the one measured, and their restart means must not
# alternate within one series (they share started_at). A result without a variant keeps its key.
data=$(cd "$(dirname "$0")/../data" && pwd) || exit 1
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export DBT3STAB_HOME=$work/home
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@" 2>&1; echo "exit=$?"; }
cp "$data/seq_old.json" old.json && cp "$data/seq_new.json" new.json && cp "$data/cmp_old.json" plain.json
run history add old.json new.json plain.json
run history list
