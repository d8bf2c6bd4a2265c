# run --budget: bad values and conflicting options are refused with one line, exit 2, before any
# server is touched.
run() { "$DBT3STAB" run "$@" 2>&1; echo "exit=$?"; }
run -s 0.01 -o x.json --budget 0
run -s 0.01 -o x.json --budget 45x
run -s 0.01 -o x.json --budget 1h30
run -s 0.01 -o x.json --budget -5m
run -s 0.01 -o x.json --budget 45m --restarts 3
run -s 0.01 -o x.json --budget 45m --runs 3
run -s 0.01 -o x.json --detect 5%
run -s 0.01 -o x.json --budget 45m --detect 0
run -s 0.01 -o x.json --budget 45m --detect 150%
run -s 0.01 -o x.json --budget 45m --warmup-min 9 --warmup-max 5
run -s 0.01 -o x.json --budget 45m --runs-min 4 --runs-max 2
run -s 0.01 -o x.json --min-restarts 3
run -s 0.01 -o x.json --budget 45m --min-restarts 0
run -s 0.01 -o x.json --costs-from y.json
run -s 0.01 -o x.json --budget 45m --costs-from no-such.json
run --resume x.json --budget 10m
