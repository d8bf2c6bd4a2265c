# Nothing measured is overwritten: an output that is one of the inputs (by device and inode: the
# same name, a symbolic or a hard link) is refused, the input unchanged; a bad -o is exit 2 for
# every command, checked before anything is read or written.
data=$(cd "$(dirname "$0")/../data" && pwd)
tmp=$(mktemp -d) && cd "$tmp" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@" >out.txt 2>&1; rc=$?; cat out.txt; echo "exit=$rc"; }
cp "$data/cmp_old.json" old.json && cp "$data/cmp_regress.json" new.json
ln -s old.json link.json && ln new.json hard.json
before=$(cat old.json new.json | md5sum)
run summary old.json -o old.json
run summary old.json -o link.json
run report old.json new.json -o ./hard.json
run compare old.json new.json -o new.json
run compare old.json new.json -o link.json
run compare old.json new.json --baseline hard.json -o hard.json
[ "$(cat old.json new.json | md5sum)" = "$before" ] && echo "inputs unchanged"
run summary old.json -o ''
run report old.json -o ''
run compare old.json new.json -o ''
run gen -s 0.01 -o ''
run summary old.json -o no-such-dir/s.txt
run compare old.json new.json -o no-such-dir/c.txt
run report old.json -o no-such-dir/r.html
rm -f out.txt && ls
cd / && rm -rf "$tmp"
