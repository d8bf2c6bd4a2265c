# Usage errors: one line on stderr, exit 2.
run() { "$DBT3STAB" "$@"; echo "exit=$?"; }
run nosuchcommand
run help nosuchcommand
"$DBT3STAB" --version | sed -E 's/ [0-9]+\.[0-9]+\.[0-9]+$/ X.Y.Z/'
# an option before the command is called an option; 'help help' is the command list
run -x
run --frobnicate server
"$DBT3STAB" help help | head -1; echo "exit=${PIPESTATUS[0]}"
