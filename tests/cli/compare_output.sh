# -o FILE that cannot be created: one line and exit 2 before anything is computed (never 1, the
# exit code of a regression); a writable FILE gets the report and the usual exit code.
data="$(cd "$(dirname "$0")/../data" && pwd)" || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@"; echo "exit=$?"; }
cp "$data"/cmp_old.json "$data"/cmp_regress.json .
# cmp_regress.json has a regression (exit 1 when written): an unwritable -o is 2, not 1
run compare cmp_old.json cmp_regress.json -o /proc/x.txt
run compare cmp_old.json cmp_regress.json -o nosuchdir/x.txt
mkdir adir
run compare cmp_old.json cmp_regress.json -o adir
# checked before the inputs are read: even a missing input reports the output first
run compare cmp_old.json nosuch.json -o /proc/x.txt
run summary cmp_old.json -o /proc/x.txt
run summary cmp_old.json --output nosuchdir/s.txt
# writable: the report is in the file, nothing on stdout, no temporary file left behind
run compare cmp_old.json cmp_regress.json -o report.txt --quiet
tail -1 report.txt
run summary cmp_old.json -o sum.txt
head -1 sum.txt
ls
