# compare on instruction counts (run --instructions): the instructions section (text, Markdown,
# the HTML page's notes), exit 1 for an instruction change alone, the JSON object per query (fixtures cut from a real run
# by tests/data/instr_fixture.py: Q6's counts raised by 2 % in the new file). Only the sections
# this feature adds are shown (the files' warnings go to /dev/null).
cd "$(dirname "$0")/../data" || exit 1
section() { # ARGS...: the report from its instructions section on, then the exit code
	echo "\$ dbt3stab $*"
	out=$(mktemp); "$DBT3STAB" "$@" 2>/dev/null >"$out"; rc=$?
	sed -n '/nstructions\*\{0,2\} (per execution/,/^\(warnings:\|\*\*Warnings\)/p; /^result:/p' "$out"; rm -f "$out"
	echo "exit=$rc"
}
section compare instr_old.json instr_new.json
section compare instr_old.json instr_new.json --format markdown
echo "\$ dbt3stab compare instr_old.json instr_new.json --format json (instructions members)"
"$DBT3STAB" compare instr_old.json instr_new.json --format json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(json.dumps(d["instructions"]))
for q in d["queries"]:
    i = q["instructions"]
    print(q["id"], i["counter"], i["changed"], round(i["ratio"], 6), round(i["bound"], 6), i["old_restarts"], i["new_restarts"])'
echo "\$ dbt3stab compare instr_old.json instr_new.json --format html (its instructions notes)"
"$DBT3STAB" compare instr_old.json instr_new.json --format html 2>/dev/null | grep '^<li>[^<]*nstructions'
echo "exit=${PIPESTATUS[0]}"
echo "\$ dbt3stab report instr_old.json (its instructions column: the mean count per execution, the restarts' spread)"
"$DBT3STAB" report instr_old.json 2>/dev/null | grep -o '<th>instructions[^<]*</th>\|<td data-v="[0-9.e+]*">[0-9.]* M ([0-9.]*%)</td>'
echo "exit=${PIPESTATUS[0]}"
section compare instr_old.json instr_old.json
# summary: each query's count, its restarts and their spread (report: a column of its table)
section summary instr_old.json
echo "\$ dbt3stab summary instr_old.json --format json (instructions members)"
"$DBT3STAB" summary instr_old.json --format json 2>/dev/null | python3 -c '
import json, sys
for q in json.load(sys.stdin)["queries"]:
    i = q["instructions"]
    print(q["id"], i["counter"], round(i["mean"]), i["restarts"], round(i["spread"], 8))'
