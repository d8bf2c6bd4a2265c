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
# a real file (quick start: 3 restarts of 2 warm-up + 5 measured runs): noise with its CI, the
# between part bounded where its estimate is 0, and the warm-up transient of Q10, Q14, Q17
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
zcat measurements/quickstart-2warmup.json.gz > "$tmp/quickstart.json"
(cd "$tmp" && run summary quickstart.json)
run summary cmp_old.json --alternative two-sided --method welch
# --cost: the verdict-cost lines alone (the quick start's last lines), in text or markdown only
run summary cmp_old.json --cost
run summary cmp_old.json --cost --format markdown --detect 10%
run summary cmp_old.json --cost --format json
(cd "$tmp" && run summary quickstart.json --cost)
