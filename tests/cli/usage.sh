# Usage errors: one line on stderr, exit 2.
run() { "$DBT3STAB" "$@"; echo "exit=$?"; }
run nosuchcommand
run help nosuchcommand
"$DBT3STAB" --version | sed -E 's/ [0-9]+\.[0-9]+\.[0-9]+$/ X.Y.Z/'
