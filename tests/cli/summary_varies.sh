# summary warns when the plan (Q6) or the result (Q14) differs between restarts of one file, in
# every format (tests/data/sum_varies.json).
cd "$(dirname "$0")/../data" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@"; echo "exit=$?"; }
run summary sum_varies.json
run summary sum_varies.json --format markdown
echo "\$ dbt3stab summary sum_varies.json --format json (per-query plan_varies, result_varies, warnings)"
"$DBT3STAB" summary sum_varies.json --format json |
  python3 -c 'import json,sys; d=json.load(sys.stdin)
for q in d["queries"]: print(q["id"], q["plan_varies"], q["result_varies"], json.dumps(q["warnings"]))'
# the other kinds still appear (crash, timeout, not steady)
"$DBT3STAB" summary cmp_warn.json --format json |
  python3 -c 'import json,sys; d=json.load(sys.stdin)
for q in d["queries"]: print(q["id"], json.dumps(q["warnings"]))'
