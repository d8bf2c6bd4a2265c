# Each command's options come from one table (base/cli_opt.h) that drives both the parse and
# --help: the help lists every row, a renamed option with its old name; the old name does what the
# new one does; an unknown option, a missing or a bad value is one line on stderr and exit 2.
cd "$(dirname "$0")/../data" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@"; echo "exit=$?"; }
run queries --help
# the renamed options, as --help shows them
"$DBT3STAB" run --help | grep -A1 -e '--measure-decided'
"$DBT3STAB" compare --help | grep -A2 -e '--fixed-sample'
# the old names are still accepted, and a message names the option as it was given
run run -s 1 -o r.json --keep-all
run run -s 1 -o r.json --measure-decided
new=$("$DBT3STAB" compare seq_budget_old.json seq_budget_new.json --fixed-sample --quiet)
rn=$?
old=$("$DBT3STAB" compare seq_budget_old.json seq_budget_new.json --fixed --quiet)
ro=$?
[ "$new" = "$old" ] && same=the || same="NOT the"
echo "compare --fixed: $same same report as --fixed-sample (exit $ro and $rn)"
printf '%s\n' "$new" | grep '^Q1 '
# one line, exit 2: an unknown option, a missing value, a bad value, a stray argument
run run --frobnicate
run compare -Z a.json b.json
run run -s 1 -o r.json --restarts
run run -s 1 -o r.json --restarts x
run summary --alpha 0.7 cmp_old.json
run gen -s 1 extra
# run --profile is applied before the parse, spelled out: an abbreviation is refused, not ignored
run run -s 1 -o r.json --prof x
# a flag given a value: named without it
run run --no-table=1
