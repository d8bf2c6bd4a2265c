# scripts/quickstart -n prints the commands it would run (nothing installed or built): server
# options reach server init, load and run; placement and run's own options reach run alone
# (server init refused --server-cpus and --no-pin, exit 2 after installing and building);
# --budget, --scale and --output are -b, -s and -o.
qs=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/quickstart
run() { "$qs" "$@"; echo "exit=$?"; }
run -n
run -n --datadir /srv/qs --port 3400 --server-option innodb_adaptive_hash_index=OFF --server-cpus 1 --client-cpus 0
run --dry-run --budget 2m --scale 0.01 --output 'my result.json' --queries 1-6 --detect 5% --performance-schema
run -n --no-pin --no-aslr --nice -5
run -n --budget
run -n --server-cpus
run -n --min-restarts 3 -b 90s
