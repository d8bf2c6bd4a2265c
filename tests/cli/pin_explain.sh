# pin --explain on synthetic topologies: the same answer on any machine.
run() { "$DBT3STAB" "$@"; echo "exit=$?"; }
xeon="synthetic:pack:2 numa:1 core:8 pu:2"
run pin --explain --topology "$xeon"
run pin --topology "$xeon" --allowed 0-1,16-31 --json
run pin --topology "synthetic:pack:1 core:2 pu:1"
run pin --topology "synthetic:pack:1 numa:4 core:4 pu:1" --allowed 9-12 --json
run pin --topology "synthetic:pack:2 core:8 pu:1" --allowed 0,8
run pin --topology "synthetic:numa:4 core:2 pu:1"
run pin --topology "synthetic:pack:1 core:1 pu:1" --json
run pin --topology "$xeon" --server-cpus 6 --membind 1
run pin --topology "$xeon" --no-pin --no-aslr --nice -5 --json
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run pin --topology "$here/../topologies/xeon-e5-2690.xml" --quiet | sed 's|^topology  xml:.*/tests/|topology  xml:tests/|'
# Errors: usage (2).
run pin --topology "$xeon" --server-cpus 40
run pin --topology "$xeon" --server-cpus 2-
run pin --topology "$xeon" --no-pin --server-cpus 2
run pin --topology "synthetic:pack:x"
run pin --topology /nonexistent.xml
run pin --nice 40
run pin --frobnicate
