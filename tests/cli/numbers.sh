# Numbers on the command line: the whole text is the number, white space before it included
# (strtol would skip it), and a negative number where an operand is expected is said to be one,
# not called an unknown option.
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@" 2>&1; echo "exit=$?"; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
run run --restarts " 5" -o r.json
run run --restarts "5 " -o r.json
run compare --alpha " 0.05" a.json b.json
run compare --min-effect " 2%" a.json b.json
run queries -s " 1"
run queries --seed $'\t7'
run query " 1"
run history show --db h.sqlite -1
run history show -1 --db h.sqlite
run query -3
echo "store made: $(ls h.sqlite 2>/dev/null | wc -l)"
