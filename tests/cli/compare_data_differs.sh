# Results that differ on data that differs (dataset.content_check): "data differs", inconclusive,
# exit 2, never wrong-result (exit 3); equal checks keep wrong-result.
cd "$(dirname "$0")/../data" || exit 1
run() { echo "\$ dbt3stab $*"; "$DBT3STAB" "$@"; echo "exit=$?"; }
tmp=$(mktemp -d)
check() { # FILE CHECK OUT: FILE with dataset.content_check CHECK ("" removes it)
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
if sys.argv[2]: d["dataset"]["content_check"]=sys.argv[2]
json.dump(d, open(sys.argv[3], "w"))' "$1" "$2" "$3"
}
check cmp_old.json "orders=15000 keysum=1 crc=2" "$tmp/old.json"
check cmp_wrong.json "orders=15010 keysum=3 crc=4" "$tmp/changed.json"
check cmp_wrong.json "" "$tmp/none.json"
check cmp_wrong.json "orders=15000 keysum=1 crc=2" "$tmp/same.json"
cd "$tmp" || exit 1
run compare old.json changed.json
run compare old.json none.json --quiet
"$DBT3STAB" compare old.json changed.json --quiet --format json |
  python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["data_differs"], d["worst"])'
run compare old.json same.json --quiet
cd / && rm -rf "$tmp"
