# scripts/quickstart checks its arguments before installing or building anything: exit 2, one line.
qs=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/quickstart
run() { "$qs" "$@"; echo "exit=$?"; }
"$qs" --help | head -1; echo "exit=${PIPESTATUS[0]}"
run -s
run -s abc
run -s 0
run -s -1
run -s 0.1 -o
run -s 0.1 -o ''
run -s 0.1 --datadir
run -s 0.1 -b
run -s 0.1 -b 5x
run -s 0.1 -b 1h30
