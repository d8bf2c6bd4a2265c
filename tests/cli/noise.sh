# A result whose restart 2 (index 1) had other processes on its PUs for half of every query's
# window, and whose data did not fit in the buffer pool (tests/data/noise_disturbed.json, made
# from cmp_old.json): summary and compare say both; --exclude-disturbed leaves restart 2 out.
cd "$(dirname "$0")/../data" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@" 2>&1 | head -4; echo "exit=${PIPESTATUS[0]}"; }
run summary noise_disturbed.json
echo "\$ dbt3stab compare noise_disturbed.json noise_disturbed.json -q (its warnings)"
"$DBT3STAB" compare noise_disturbed.json noise_disturbed.json -q | grep -E "disturbed|buffer pool"
echo "\$ dbt3stab compare noise_disturbed.json noise_disturbed.json --exclude-disturbed --format json (restarts used, warnings)"
"$DBT3STAB" compare noise_disturbed.json noise_disturbed.json --exclude-disturbed -q --format json |
  python3 -c 'import json,sys; d=json.load(sys.stdin)
print([len(q["old"]["restart_means_ms"]) for q in d["queries"]] if "old" in d["queries"][0] else sorted(d["queries"][0].keys()))
print("\n".join(d.get("warnings", [])))'
# A warning once: with stdout and stderr on one terminal or log, the report's warnings are not
# repeated on stderr; with the report elsewhere (-o, a redirected stdout) stderr has them.
echo "\$ dbt3stab compare cmp_old.json noise_disturbed.json 2>&1 (the lines on disturbed restarts)"
"$DBT3STAB" compare cmp_old.json noise_disturbed.json 2>&1 | grep "restarts disturbed"
echo "\$ dbt3stab compare cmp_old.json noise_disturbed.json >/dev/null (what stderr says)"
"$DBT3STAB" compare cmp_old.json noise_disturbed.json 2>&1 >/dev/null | grep "restarts disturbed"
