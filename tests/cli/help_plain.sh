# Every command's --help is plain text (no Markdown backquotes: a terminal shows them as they
# are), goes to standard output and exits 0; the command list comes from 'dbt3stab --help', so a
# new command is checked too.
"$DBT3STAB" --help | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' | while read -r cmd; do
  out=$("$DBT3STAB" "$cmd" --help 2>/dev/null); rc=$?
  lines=$(printf '%s\n' "$out" | wc -l)
  ticks=$(printf '%s\n' "$out" | grep -c '`')
  echo "$cmd: exit=$rc, $([ "$lines" -gt 3 ] && echo usage || echo "no usage"), $ticks lines with a backquote"
  printf '%s\n' "$out" | grep '`' | sed 's/^/  /'
done
