# F9 (issue 30): a label, a host name and a build id holding ESC sequences, BEL, CR, a newline,
# DEL, a C1 CSI and HTML reach the terminal escaped (\e \a \r \n \x7f \xc2\x9b) and Markdown
# with &lt; &gt; and backslashes: no raw control byte and no raw tag in any output.
data=$(cd "$(dirname "$0")/../data" && pwd)
tmp=$(mktemp -d) && cd "$tmp" || exit 1
evil=$'\e]0;pwned\a\rQ1 regression\n<script>x</script>|\x7f\xc2\x9b2J'
python3 - "$data/cmp_old.json" "$evil" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
d["label"] = sys.argv[2]
d["host"]["name"] = "<script>h</script>" + sys.argv[2]
json.dump(d, open("evil.json", "w"))
PY
run() { echo "\$ dbt3stab $1 ..."; shift; "$DBT3STAB" "$@" 2>&1 | sed -E "s/^(added_at +).*/\1NOW/" >out.txt; rc=${PIPESTATUS[0]}; cat out.txt; echo "exit=$rc"; cat out.txt >>all.txt; }
md() { run "$@"; cat out.txt >>md.txt; }
run "summary" summary evil.json
md "summary --format markdown" summary evil.json --format markdown
"$DBT3STAB" history add --db h.sqlite -q evil.json --build-id "b$evil" || echo "add failed"
sid=$("$DBT3STAB" history list --db h.sqlite | head -1 | cut -d' ' -f1)
run "history list --series" history list --db h.sqlite --series "$sid"
run "history show 1" history show --db h.sqlite 1
run "history check" history check --db h.sqlite
md "history check --format markdown" history check --db h.sqlite --format markdown
echo '$ dbt3stab history export ... (its first row)'
"$DBT3STAB" history export --db h.sqlite 2>&1 | sed -n 2p | tee -a all.txt
run "summary (a file name with ESC)" summary "$evil.json"
echo "raw control bytes: $(tr -d '\n' < all.txt | LC_ALL=C grep -c $'[\x01-\x08\x0b-\x1f\x7f]')"
echo "raw C1 CSI: $(LC_ALL=C grep -c $'\xc2\x9b' all.txt)"
echo "raw tags in Markdown: $(grep -c '<script>' md.txt)"
cd / && rm -rf "$tmp"
