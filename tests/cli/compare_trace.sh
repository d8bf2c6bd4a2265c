# compare on a real semijoin A/B (SF 0.1, semijoin=off against the default) whose result files
# carry the optimizer trace summaries of Q4, Q20, Q21 (tests/data/trace/gen_trace.py): the trace
# lines in text and Markdown, the optimizer_trace member of Q20 in JSON, the HTML section.
cd "$(dirname "$0")/../data/trace" || exit 1
echo '$ dbt3stab compare trace-on.json trace-off.json (the trace lines)'
"$DBT3STAB" compare trace-on.json trace-off.json | sed -n '/^optimizer traces/,/^$/p'
echo '$ dbt3stab compare trace-on.json trace-off.json --format markdown (the trace lines)'
"$DBT3STAB" compare trace-on.json trace-off.json --format markdown |
  sed -n '/Why the optimizer chose it/,/^\*\*/p'
echo '$ dbt3stab compare trace-on.json trace-off.json --format json (Q20 optimizer_trace)'
"$DBT3STAB" compare trace-on.json trace-off.json --format json |
  python3 -c 'import json,sys
for q in json.load(sys.stdin)["queries"]:
    t = q["optimizer_trace"]
    if q["id"] != "Q20":
        print(q["id"], "present" if t else t)
        continue
    print(q["id"], "shown_block", t["shown_block"], "part", json.dumps(t["part"]))
    for b in t["blocks"]:
        print(" ", json.dumps(b, sort_keys=True))'
echo '$ dbt3stab compare trace-on.json trace-on.json (an A/A: no plan change, no trace lines)'
"$DBT3STAB" compare trace-on.json trace-on.json | grep -c "optimizer traces"
echo '$ dbt3stab compare ../explain/dec-on.json ../explain/dec-off.json (no summaries: no lines)'
"$DBT3STAB" compare ../explain/dec-on.json ../explain/dec-off.json | grep -c "optimizer traces"
tmp=$(mktemp -d)
"$DBT3STAB" compare trace-on.json trace-off.json --format html -o "$tmp/t.html"
echo "html exit=$? (1: work changed)"
python3 - "$tmp/t.html" <<'PY'
import re, sys
for div in re.findall(r'<div class="trace">.*?</p></div>', open(sys.argv[1]).read()):
    if "partsupp" in div:
        print(re.sub(r"(<tr|<p>)", r"\n\1", div))
PY
rm -rf "$tmp"
