# compare's functions lines (run --instructions keeps each restart's profile by function): a real
# semijoin A/B at SF 0.01 (tests/data/funcs_ab_*.json: the default against
# optimizer_switch=semijoin=off, Q20 and Q21 kept) and a real A/A of the same build
# (funcs_aa_*.json, Q20), each one restart a side. Only the instructions section is shown.
cd "$(dirname "$0")/../data" || exit 1
section() { # ARGS...: the report from its instructions section on, then the exit code
	echo "\$ dbt3stab $*"
	out=$(mktemp); "$DBT3STAB" "$@" 2>/dev/null >"$out"; rc=$?
	sed -n '/nstructions\*\{0,2\} (per execution/,/^\(warnings:\|\*\*Warnings\)/p' "$out"; rm -f "$out"
	echo "exit=$rc"
}
section compare funcs_ab_a.json funcs_ab_b.json
section compare funcs_ab_a.json funcs_ab_b.json --format markdown
echo "\$ dbt3stab compare funcs_ab_a.json funcs_ab_b.json --format json (functions: Q20's first 3)"
"$DBT3STAB" compare funcs_ab_a.json funcs_ab_b.json --format json 2>/dev/null | python3 -c '
import json, sys
for q in json.load(sys.stdin)["queries"]:
    f = q["functions"]
    print(q["id"], f["changed"], len(f["list"]), round(f["covered"], 4), round(f["new_total"] - f["old_total"]))
    for x in f["list"][:3]:
        print(" ", x["name"][:60], round(x["old"]), round(x["new"]), round(x["diff"]), round(x["share"], 4))'
echo "\$ dbt3stab compare funcs_ab_a.json funcs_ab_b.json --format html (the functions table's rows)"
"$DBT3STAB" compare funcs_ab_a.json funcs_ab_b.json --format html 2>/dev/null | grep -c '^<tr><td><code>'
section compare funcs_aa_a.json funcs_aa_b.json
echo "\$ dbt3stab compare funcs_aa_a.json funcs_aa_b.json --format json (functions)"
"$DBT3STAB" compare funcs_aa_a.json funcs_aa_b.json --format json 2>/dev/null | python3 -c '
import json, sys
for q in json.load(sys.stdin)["queries"]:
    print(q["id"], q["functions"])'
