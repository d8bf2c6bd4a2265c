# compare on the real semijoin A/B (SF 0.1, semijoin=off against the default) with each restart's
# ANALYZE record (tests/data/explain/analyze_expected.py): where the rows went in text and
# Markdown, the "analyze" member in JSON; an A/A of the same build lists no table.
cd "$(dirname "$0")/../data/explain" || exit 1
echo '$ dbt3stab compare analyze-ab-on.json analyze-ab-off.json (where the rows went)'
"$DBT3STAB" compare analyze-ab-on.json analyze-ab-off.json | sed -n '/^where the rows went/,/^$/p'
echo '$ dbt3stab compare analyze-ab-on.json analyze-ab-off.json --format markdown'
"$DBT3STAB" compare analyze-ab-on.json analyze-ab-off.json --format markdown |
  sed -n '/Where the rows went/,/^\*\*/p'
echo '$ dbt3stab compare analyze-ab-on.json analyze-ab-off.json --format json (analyze)'
"$DBT3STAB" compare analyze-ab-on.json analyze-ab-off.json --format json |
  python3 -c 'import json,sys
d = json.load(sys.stdin)
print("analyze", json.dumps(d["analyze"]))
for q in d["queries"]:
    a = q["analyze"]
    print(q["id"], a["varies"], [(t["table"], t["old"], t["new"]) for t in a["tables"]],
          a["estimate_errors"])'
echo '$ dbt3stab compare analyze-aa-on.json analyze-aa-on2.json --format json (an A/A)'
"$DBT3STAB" compare analyze-aa-on.json analyze-aa-on2.json --format json |
  python3 -c 'import json,sys
d = json.load(sys.stdin)
print("analyze", json.dumps(d["analyze"]))
for q in d["queries"]:
    print(q["id"], len(q["analyze"]["tables"]), "tables changed")'
echo '$ dbt3stab compare analyze-aa-on.json analyze-aa-on2.json (no section)'
"$DBT3STAB" compare analyze-aa-on.json analyze-aa-on2.json | grep -c "where the rows went"
echo '$ dbt3stab compare dec-on.json dec-off.json --format json (files without records)'
"$DBT3STAB" compare dec-on.json dec-off.json --format json |
  python3 -c 'import json,sys
print([q["analyze"] for q in json.load(sys.stdin)["queries"]])'
tmp=$(mktemp -d)
echo '$ dbt3stab compare analyze-ab-on.json analyze-ab-off.json --format html -o p.html'
"$DBT3STAB" compare analyze-ab-on.json analyze-ab-off.json --format html -o "$tmp/p.html"
echo "exit=$?"
grep -c '<div class="analyze">' "$tmp/p.html"
grep -o '<tr><td>[^<]*</td><td class="num">[^<]*</td><td class="num">[^<]*</td></tr>' "$tmp/p.html"
rm -rf "$tmp"
