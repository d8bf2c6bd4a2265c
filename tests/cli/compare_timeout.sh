# A query that timed out in every restart of one side but completed on the other: decided by the
# timeout (tests/data/cmp_timeout.json: Q3 always timed out after 10 s, Q6 once).
cd "$(dirname "$0")/../data" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@"; echo "exit=$?"; }
# new always times out: regression, the ratio a lower bound (>=), exit 1
run compare cmp_old.json cmp_timeout.json --quiet
run compare cmp_old.json cmp_timeout.json --quiet --format markdown
# JSON: ratio_is_lower_bound and the timeout mark
"$DBT3STAB" compare cmp_old.json cmp_timeout.json --quiet --format json |
  python3 -c 'import json,sys; d=json.load(sys.stdin)
for q in d["queries"]: print(q["id"], q["verdict"], q["ratio"] if q["ratio"] is None else round(q["ratio"], 3), q["ratio_is_lower_bound"], q["ratio_is_upper_bound"], q["warnings"])'
# the reverse: old always timed out, new completes: improvement, the ratio an upper bound, exit 0
run compare cmp_timeout.json cmp_old.json --quiet
