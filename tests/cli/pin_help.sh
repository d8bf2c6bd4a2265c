# pin and doctor answer --help on stdout with exit 0, and reject stray arguments.
run() { "$DBT3STAB" "$@"; echo "exit=$?"; }
"$DBT3STAB" pin --help | head -3; echo "exit=${PIPESTATUS[0]}"
"$DBT3STAB" doctor --help | head -1; echo "exit=${PIPESTATUS[0]}"
run pin extra
run doctor --tune --reset
run doctor --server-cpus x
