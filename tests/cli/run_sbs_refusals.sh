# run --side-by-side refuses, before anything is made, what it cannot do: one line, exit 2 (the
# instance directory does not exist: a run that got as far as starting a server would exit 4).
tmp=$(mktemp -d) && cd "$tmp" || exit 1
show() { printf '$ dbt3stab run %.100s\n' "$*"; "$DBT3STAB" run --datadir "$tmp/inst" "$@" >out.txt 2>&1; rc=$?; sed "s|$tmp|TMP|g" out.txt; echo "exit=$rc"; rm out.txt; }
run() { show -s 0.01 "$@"; }
run -o vd --side-by-side
run -o vd --side-by-side --variant a:
run -o vd --side-by-side --variant a: --variant b: --variant c:
run -o vd --side-by-side --variant a: --variant b: --redo-disturbed 1
printf '{"measured": "already"}\n' > A.json
show --resume A.json --side-by-side
show --resume A.json --restart-paired
ls
cd / && rm -rf "$tmp"
