# summary of a file with one restart (a quick start on a busy host): no noise figures, and the
# footnote says why instead of "from 1 restarts the noise is uncertain, so plan with the upper
# figure" (there is no figure).
cd "$(dirname "$0")/../data" || exit 1
"$DBT3STAB" summary cmp_one.json | grep '^restarts for'
echo "exit=${PIPESTATUS[0]}"
"$DBT3STAB" summary cmp_old.json | grep -o 'from [0-9]* restarts.*'
