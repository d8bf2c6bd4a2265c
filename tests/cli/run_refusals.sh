# run checks every argument before it creates a file or starts a server: each refusal is one line,
# exit 2, and leaves the directory as it was (the instance directory does not exist: a run that
# got as far as starting a server would exit 4).
tmp=$(mktemp -d) && cd "$tmp" || exit 1
show() { printf '$ dbt3stab run %.100s\n' "$*"; "$DBT3STAB" run --datadir "$tmp/inst" "$@" >out.txt 2>&1; rc=$?; sed "s|$tmp|TMP|g" out.txt; echo "exit=$rc"; rm out.txt; }
run() { show -s 0.01 "$@"; }
printf '{"measured": "already"}\n' > A.json
run -o A.json --queries 6
show --resume A.json -o A.json
show --resume A.json --force
show --resume ''

run -o ''
run -o vd --variant a:mysqld=/nonexist
run -o vd --variant a:mysqld=/etc
run -o vd --variant .:mysqld=/usr/sbin/mariadbd
run -o vd --variant ..:mysqld=/usr/sbin/mariadbd
run -o vl --variant "$(printf 'v%.0s' $(seq 100000)):mysqld=/usr/sbin/mariadbd"
run -o vd --variant 'b:sql_mode=A,B'
run -o vd --variant 'b:sql_mode="A,B'
run -o A.json --variant a:
run -o vd --restarts 100000
run -o vd --runs 1000000
run -o vd --query-timeout 2e6
run -o vd --variant 'b:mysqld=/usr/sbin/mariadbd,sql_mode=a,b'
run -o vd --variant 'b:mysqld=no-such-mariadbd-x'
run -o vd --mysqld no-such-mariadbd-x
run -o vd --instructions --budget 10m --runs-min 3 --runs-max 2
# an instance directory never initialised, absent or empty: exit 4 (as 'server start'), and
# nothing is made, neither in it nor the outputs
run -o new.json --queries 6 --force
mkdir inst
run -o vn --variant a: --variant b: --force
ls -A inst && rmdir inst
printf '$ dbt3stab query 6\n'; "$DBT3STAB" query 6 --datadir "$tmp/inst" 2>&1 | sed "s|$tmp|TMP|g"; echo "exit=${PIPESTATUS[0]}"
mkdir vd && printf '{}\n' > vd/a.json
run -o vd --variant a: --variant 'b:sql_mode="A,B"'
cat A.json vd/a.json
rm -f out.txt && ls
cd / && rm -rf "$tmp"
