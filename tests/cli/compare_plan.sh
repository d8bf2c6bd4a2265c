# compare on a real semijoin A/B (SF 0.1, semijoin=off against the default; tests/data/explain/
# extract.py): the plan lines in text and Markdown, plan.diff in JSON, the HTML plan diff.
cd "$(dirname "$0")/../data/explain" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@"; echo "exit=$?"; }
echo '$ dbt3stab compare dec-on.json dec-off.json (the plan lines)'
"$DBT3STAB" compare dec-on.json dec-off.json | sed -n '/^plans changed/,/^$/p'
echo '$ dbt3stab compare dec-on.json dec-off.json --format markdown (the plan lines)'
"$DBT3STAB" compare dec-on.json dec-off.json --format markdown | sed -n '/Plans changed/,/^\*\*/p'
echo '$ dbt3stab compare dec-on.json dec-off.json --format json (plan.diff)'
"$DBT3STAB" compare dec-on.json dec-off.json --format json |
  python3 -c 'import json,sys
for q in json.load(sys.stdin)["queries"]:
    for c in q["plan"]["diff"]:
        print(q["id"], c["type"], c["plan_change"], c.get("table", c.get("strategy")),
              json.dumps(c.get("old")), json.dumps(c.get("new")))'
echo '$ dbt3stab compare dec-on.json dec-on.json (an A/A: no plan lines)'
"$DBT3STAB" compare dec-on.json dec-on.json | grep -c "plans changed"
tmp=$(mktemp -d)
run compare dec-on.json dec-off.json --format html -o "$tmp/p.html" | sed "s|$tmp|TMP|"
grep -o '<li class="changed">[^<]*<b>[^<]*</b>[^<]*' "$tmp/p.html"
rm -rf "$tmp"
